/*
 * boardhtml.c - a board file drawn as static HTML (boardhtml.h): the markup
 * the report's and the play page's scripts build, written by C for the
 * pages that have no script.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include "boardhtml.h"
#include "arena/escape.h"

/* Bars of a rows layout's row at most: a row of more is drawn cut, its
 * count beside it still exact (Nim's heaps are a few matches). */
#define ROW_BARS_MAX 200

/* The board's lines, the player to move (the last line) left out: how
 * many bytes they take in text (blank lines at the end do not count). */
static size_t drawn_length(const char *text)
{
    size_t len = strlen(text);
    while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == '\r'))
        len--;
    while (len > 0 && text[len - 1] != '\n')
        len--;
    return len;
}

/* The letter labels gives piece c ("B=K W=K": B and W lettered K), into
 * buf (cap bytes); "" when it names none. */
static const char *label_of(const char *labels, char c, char *buf, size_t cap)
{
    buf[0] = '\0';
    for (const char *p = labels; p && *p; p += strcspn(p, " "), p += *p == ' ') {
        size_t n = strcspn(p, " ");
        if (n >= 2 && p[0] == c && p[1] == '=') {
            snprintf(buf, cap, "%.*s", (int)(n - 2), p + 2);
            break;
        }
    }
    return buf;
}

static void open_class(FILE *f, const char *tag, const char *kind, const struct game *g)
{
    fprintf(f, "<%s class=\"%s", tag, kind);
    if (g) {
        fputc(' ', f);
        esc_html(g->name, f);
    }
    fputs("\">", f);
}

/* The grid and checker layouts: a table, a cell per character. */
static void write_table(FILE *f, const struct game *g, const char *text, size_t len)
{
    const struct game_drawing *d = g ? g->drawing : NULL;
    int checker = d && d->layout == GAME_DRAW_CHECKER, plain = !d || !d->style;
    open_class(f, "table", "board", g);
    for (size_t at = 0, row = 0; at < len; row++) {
        size_t n = strcspn(text + at, "\n");
        fputs("<tr>", f);
        for (size_t col = 0; col < n; col++) {
            char c = text[at + col], one[2] = { c, '\0' }, label[16];
            if (c == '\r')
                continue;
            fprintf(f, "<td class=\"%sc c%d\">",
                    !checker ? "" : (row + col) % 2 ? "dark " : "light ", (unsigned char)c);
            if (checker && c != '.') {
                fputs("<span>", f);
                esc_html(label_of(d->labels, c, label, sizeof label), f);
                fputs("</span>", f);
            } else if (plain) {
                esc_html(one, f);
            }
            fputs("</td>", f);
        }
        fputs("</tr>", f);
        at += n + 1;
    }
    fputs("</table>\n", f);
}

/* The rows layout: the first line's numbers, a row of bars each. */
static void write_rows(FILE *f, const struct game *g, const char *text, size_t len)
{
    size_t n = strcspn(text, "\n");
    n = n < len ? n : len;
    open_class(f, "div", "rows", g);
    for (size_t at = 0, row = 0; at < n; row++) {
        at += strspn(text + at, " ");
        size_t w = strcspn(text + at, " \n");
        if (w == 0)
            break;
        char word[32];
        snprintf(word, sizeof word, "%.*s", (int)(w < sizeof word ? w : sizeof word - 1),
                 text + at);
        char *end;
        long count = strtol(word, &end, 10);
        fprintf(f, "<div>%zu: ", row);
        if (*end || count < 0) {   /* not a count: shown as it is */
            esc_html(word, f);
        } else {
            for (long k = 0; k < count && k < ROW_BARS_MAX; k++)
                fputc('|', f);
            fprintf(f, " (%ld)", count);
        }
        fputs("</div>", f);
        at += w;
    }
    fputs("</div>\n", f);
}

void boardhtml_write(FILE *f, const struct game *g, const char *text)
{
    assert(f && text);
    size_t len = drawn_length(text);
    if (len == 0)
        return;
    if (g && g->drawing && g->drawing->layout == GAME_DRAW_ROWS)
        write_rows(f, g, text, len);
    else
        write_table(f, g, text, len);
}

const char *boardhtml_game_style(const struct game *g)
{
    return g && g->drawing && g->drawing->style ? g->drawing->style : "";
}
