/*
 * journal.h - tournament journals and match logs on disk: reading them
 * record by record, opening a journal to append games (resume included),
 * appending a game, replacing its header, and merging shard journals.
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
 * Readers get the header decoded (header.h's struct hdr) and each record
 * decoded (record.h's struct game_record), never the JSON: the scan checks
 * each line is what cJSON itself writes (no key twice, no number beyond a
 * double) and decodes it.
 *
 * Only regular files are read, and none over JOURNAL_READ_CAP (limits.h):
 * a FIFO, a device (/dev/zero) or a bigger file is refused before a byte
 * of it is read.
 */
#ifndef ARENA_JOURNAL_H
#define ARENA_JOURNAL_H

#include <stddef.h>
#include "arena/err.h"

struct cJSON;
struct hdr;
struct game_record;

#define JOURNAL_SCHEMA "arena.journal/1"
#define JOURNAL_MATCH_SCHEMA "arena.match/1"

/* What a reader is called with. Each returns 0 to go on, else the scan
 * stops and returns that (a game's error without a place is placed at its
 * line, column 1, in a journal). */
struct journal_reader {
    /* The header, decoded; line: 1 (journals) or 0 (match logs). NULL: not
     * wanted. */
    int (*header)(void *ctx, const struct hdr *h, int line, struct err *e);
    /* Each game record, decoded, in file order; line: its line (journals)
     * or 0 (match logs). The reader may change r; the scan frees it after.
     * NULL: records are skipped. */
    int (*game)(void *ctx, struct game_record *r, int line, struct err *e);
    /* A record that does not decode (e says why); NULL: the scan stops with
     * that error. */
    int (*bad_game)(void *ctx, int line, struct err *e);
};

/* Calls rd's functions for the header, then for each game record of a
 * journal or a match log (detected by its schema). Reads under a shared flock, so it
 * waits while a referee appends to the journal (journal_open). A journal
 * is read a line at a time (memory does not grow with it); a match log,
 * or a file that is not a journal, whole. Returns 0,
 * a reader's value, or -1 with e filled (e->line/col at bad JSON; line 0 when the
 * file cannot be read). */
int journal_scan(const char *path, const struct journal_reader *rd, void *ctx, struct err *e);
/* journal_scan without waiting for a referee appending to path: what is
 * there now (whole lines only, as journal.c writes them), for a progress
 * display. */
int journal_peek(const char *path, const struct journal_reader *rd, void *ctx, struct err *e);
/* The pid of the referee appending to path now (journal_scan would wait
 * for it), -1 when one does whose pid cannot be told, 0 when none does. */
long journal_writer(const char *path);
/* journal_scan on a journal or log already in memory: len bytes at text, which
 * must be NUL-terminated at text[len] and writable (lines are cut in place,
 * so the text is changed). */
int journal_scan_text(char *text, size_t len, const struct journal_reader *rd, void *ctx,
                      struct err *e);

/* Line number line of a file of JSON lines (a journal; referee grade's
 * journal too: gradejournal.h), len bytes at text, NUL-terminated at
 * text[len] (its newline's place), read as a record: one JSON object with
 * nothing after it, as cJSON writes one. Returns it (the caller
 * cJSON_Deletes it), or NULL with e placed on the line: a NUL byte (it
 * would hide the rest of the line), "not a JSON object" where the parse
 * stopped, or what cJSON never writes, which would read back as another
 * record (a key twice in one object: readers see the first, a rewrite
 * keeps both; a number beyond a double: 1e999 reads as infinity and is
 * written back as null). */
struct cJSON *journal_line(const char *text, size_t len, int line, struct err *e);

/* Opens a journal to append games: a new file starting with header, or with
 * resume an existing one whose header must hold every key of header alike
 * (hdr_differs); rd's game then gets each finished game, and a last line cut short is
 * cut off. *fd holds an exclusive flock on it until it is closed: one
 * referee per journal. Returns 0 with *fd open (the caller closes it), or
 * -1 with e filled and nothing written (a journal another referee holds:
 * "PATH: in use by another referee (pid N)"). */
int journal_open(const char *path, const struct hdr *header, int resume,
                 const struct journal_reader *rd, void *ctx, int *fd, struct err *e);
/* Replaces the header of the journal at path, open as *fd by journal_open
 * (so locked by the caller), with header, every record kept byte for byte:
 * a new file, locked before it is renamed over path (tf_write_atomic_locked),
 * so that a reader sees the old journal or the new one, whole, and no other
 * referee finds it unlocked; *fd is then the new file's (the old one
 * closed). For a writer whose players are not all known when it starts
 * (referee play: a player first seen is named before its game is). 0, or
 * -1 with e and the journal and *fd as they were. */
int journal_reheader(const char *path, const struct hdr *header, int *fd, struct err *e);
/* Appends one record line (no newline in line) with one write, then fsync. */
int journal_append(int fd, const char *line, struct err *e);

/* Combines shard journals into out (written atomically): same header but
 * for the shard (hdr_encode of the first, "shard": "1/1" last, as merge has
 * always written it), every game once, in index order, each record's line
 * as it was. 0, or -1 with e and *bad_path the file it is about. */
int journal_merge(const char *out, char *const inputs[], int n, struct err *e,
                  const char **bad_path);

#endif
