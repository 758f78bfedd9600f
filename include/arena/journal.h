/*
 * journal.h - tournament journals and match logs on disk: reading them
 * record by record, opening a journal to append games (resume included),
 * appending a game, and merging shard journals.
 *
 * A journal (JSON lines): line 1 is the header, {"schema":
 * "arena.journal/1", the rules, "engines", "format", "rounds", "shard",
 * "games", "sprt"}; then one game record (record.h) per finished game,
 * appended with one write() and fsync'd before the next game is counted. A
 * last line cut short by a crash is not a game: readers skip it and resume
 * cuts it off (its game is played again). A match log (schema
 * arena.match/1) is one JSON document: the header's keys and "games": [the
 * records].
 *
 * Records reach callers as parsed cJSON, checked to be what cJSON itself
 * writes (no key twice, no number beyond a double), so printing one gives
 * back its line; callers decode them with rec_decode and the header with
 * rec_header_decode.
 */
#ifndef ARENA_JOURNAL_H
#define ARENA_JOURNAL_H

#include <stddef.h>
#include "arena/err.h"

struct cJSON;

#define JOURNAL_SCHEMA "arena.journal/1"
#define JOURNAL_MATCH_SCHEMA "arena.match/1"

/* Gets the header (is_header 1), then each record of a file, in file order;
 * line: the record's line (journals) or 0 (match logs). Returns 0 to go on,
 * else the scan stops and returns that. */
typedef int (*journal_fn)(void *ctx, const struct cJSON *rec, int is_header, int line,
                          struct err *e);

/* Calls fn for the header, then for each game record of a journal or a
 * match log (detected by its schema). Reads under a shared flock, so it
 * waits while a referee appends to the journal (journal_open). A journal
 * is read a line at a time (memory does not grow with it); a match log,
 * or a file that is not a journal, whole. Returns 0,
 * fn's value, or -1 with e filled (e->line/col at bad JSON; line 0 when the
 * file cannot be read). */
int journal_scan(const char *path, journal_fn fn, void *ctx, struct err *e);
/* journal_scan without waiting for a referee appending to path: what is
 * there now (whole lines only, as journal.c writes them), for a progress
 * display. */
int journal_peek(const char *path, journal_fn fn, void *ctx, struct err *e);
/* The pid of the referee appending to path now (journal_scan would wait
 * for it), -1 when one does whose pid cannot be told, 0 when none does. */
long journal_writer(const char *path);
/* journal_scan on a journal or log already in memory: len bytes at text, which
 * must be NUL-terminated at text[len] and writable (lines are cut in place,
 * so the text is changed). */
int journal_scan_text(char *text, size_t len, journal_fn fn, void *ctx, struct err *e);

/* Opens a journal to append games: a new file starting with header, or with
 * resume an existing one whose header must equal header; fn then gets each
 * finished game (the header is checked here), and a last line cut short is
 * cut off. *fd holds an exclusive flock on it until it is closed: one
 * referee per journal. Returns 0 with *fd open (the caller closes it), or
 * -1 with e filled and nothing written (a journal another referee holds:
 * "PATH: in use by another referee (pid N)"). */
int journal_open(const char *path, const struct cJSON *header, int resume, journal_fn fn,
                 void *ctx, int *fd, struct err *e);
/* Appends one record line (no newline in line) with one write, then fsync. */
int journal_append(int fd, const char *line, struct err *e);

/* Combines shard journals into out (written atomically): same header but
 * for the shard, every game once, in index order, each record's line as it
 * was. 0, or -1 with e and *bad_path the file it is about. */
int journal_merge(const char *out, char *const inputs[], int n, struct err *e,
                  const char **bad_path);

#endif
