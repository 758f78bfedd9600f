/*
 * gradejournal.h - the journal of a `referee grade` run (grade.h): JSON
 * lines, the first the header {"schema": "arena.grade/1", "rubric_sha256",
 * "seed"}, then one record per graded (submission, check), each appended
 * whole with journal.h's journal_append (one write, fsync). journal.h's
 * journals hold typed game records; a grade's records are checks, so they
 * have a reader of their own here, with the same rules: each record line is
 * read by journal.h's journal_line (one JSON object as cJSON writes it,
 * else refused at its line: a rewrite copies lines byte for byte, so what
 * it keeps must be what readers saw), a last line cut short by a crash is
 * no record (resume cuts it off and grades it again), one process appends
 * at a time (an exclusive flock), and nothing over JOURNAL_READ_CAP is
 * read.
 */
#ifndef ARENA_GRADEJOURNAL_H
#define ARENA_GRADEJOURNAL_H

#include "arena/err.h"

struct cJSON;

#define GJOUR_SCHEMA "arena.grade/1"

/* Gets each record (parsed; the callee must not keep it), in file order,
 * with its line. Returns 0 to go on, else the scan stops with that. */
typedef int (*gjour_fn)(void *ctx, const struct cJSON *rec, int line, struct err *e);

/* Opens path to append records: a new file starting with the header line
 * (header: unformatted JSON, no newline), or with resume an existing one
 * whose first line must be header; fn then gets each complete record and a
 * last line cut short is cut off. *fd holds an exclusive flock until it is
 * closed. 0 with *fd open, or -1 with e (the file is not changed). */
int gjour_open(const char *path, const char *header, int resume, gjour_fn fn, void *ctx,
               int *fd, struct err *e);
/* Whether a rewrite keeps a record: 1 keep, 0 drop. */
typedef int (*gjour_keep_fn)(void *ctx, const struct cJSON *rec);

/* Rewrites path, whose first line must be header, without the records keep
 * drops (a regrade's), the others byte for byte and in order (a last line
 * cut short goes too): the new text is written to a temporary file that is
 * renamed over path, so a crash leaves the old journal or the new one,
 * never a part. path is locked while it is read; the new file is locked
 * before the rename and, with fd, stays open to append in *fd (else
 * closed). 0, or -1 with e (path unchanged). */
int gjour_rewrite(const char *path, const char *header, gjour_keep_fn keep, void *ctx, int *fd,
                  struct err *e);
/* Calls fn on each complete record of path, whose first line must be
 * header (a shard's journal of the same rubric and seed). 0, fn's value,
 * or -1 with e (line and column of the fault when it is in the file). */
int gjour_scan(const char *path, const char *header, gjour_fn fn, void *ctx, struct err *e);

#endif
