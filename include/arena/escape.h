/*
 * escape.h - text that came from outside (an engine's output and name, a
 * journal's strings, a path) made safe to show on a terminal: the one
 * escaping of every text output (forfeit lines, reports, progress lines,
 * error messages).
 *
 * A control character would act on the terminal instead of showing (ESC
 * starts sequences that retitle, move the cursor or clear the screen), so
 * each byte of one is written as \xNN: C0 (0x00-0x1f, newlines and tabs
 * included: a shown string is one line), DEL (0x7f), the C1 controls as
 * UTF-8 writes them (U+0080-U+009F, two bytes each), and every byte that is
 * not part of a valid UTF-8 character (a terminal in an 8-bit mode takes
 * 0x9b for CSI). Everything else, backslashes included, is kept, so text
 * without control characters shows as it always did. The HTML pages'
 * escaping (esc_html) lives here too, beside the one UTF-8 check, and the
 * one CSV cell of every CSV file (esc_csv: the grade's grades.csv, the
 * CSV report).
 */
#ifndef ARENA_ESCAPE_H
#define ARENA_ESCAPE_H

#include <stddef.h>
#include <stdio.h>

/* Room for n bytes escaped, with the NUL: each byte may take four. */
#define ESC_ROOM(n) (4 * (n) + 1)

/* s escaped into buf (cap >= 1 bytes, NUL-terminated; cut before the first
 * character or escape that does not fit). Returns buf, so a call can be a
 * printf argument. */
char *esc_text(const char *s, char *buf, size_t cap);

/* Writes s escaped to out. */
void esc_fputs(const char *s, FILE *out);

/* Writes s (a name, a reason, an engine's stderr) as HTML text or an
 * attribute value: the five markup characters as entities, and bytes that
 * are not valid UTF-8 and control characters but newline and tab as
 * U+FFFD (a page shows them, where a terminal would act on them). NULL
 * writes nothing. */
void esc_html(const char *s, FILE *out);

/* Writes s as a CSV cell: with a leading ' when it starts with =, +, -,
 * @, a tab or a CR (OWASP's advice against CSV injection: a spreadsheet
 * would run it as a formula), then quoted as RFC 4180 says when it holds a
 * comma, a quote or a line break, its quotes doubled. Other bytes are kept:
 * a CSV file holds the text as it was. */
void esc_csv(const char *s, FILE *out);

/* Where s (len bytes, any bytes) stops being text: the offset of the first
 * byte that starts no valid UTF-8 character, or of a control character
 * other than newline, carriage return and tab (NUL included); len when
 * all of it is text. A board file, a move or an answer a judge is to read
 * is text; what is not is refused before anyone parses it. */
size_t esc_text_end(const char *s, size_t len);

#endif
