/*
 * textfile.h - reading and writing the small text files engines exchange.
 *
 * Reading: the whole file is read into memory (size-capped) and split into
 * lines. LF, CRLF and CR-only endings are all accepted, trailing spaces of a
 * line are dropped, and empty lines after the last non-empty one are ignored:
 * the course's sample programs write every one of these variants. Columns
 * reported by parsers are 1-based offsets into the line as it was in the file.
 *
 * Writing: tf_write_atomic writes to a temporary file in the same folder and
 * renames it over the target, so a reader never sees a half-written file and
 * a failure leaves the target untouched (or absent).
 */
#ifndef ARENA_TEXTFILE_H
#define ARENA_TEXTFILE_H

#include <stddef.h>
#include <stdio.h>
#include "arena/err.h"

struct cJSON;

#define TF_MAX_LINES 64          /* board files are a handful of lines */
#define TF_DEFAULT_CAP 65536     /* bytes; larger files are refused */

struct tf_line {
    const char *s;  /* points into the text; not NUL-terminated */
    int len;        /* without the line ending and trailing spaces */
};

struct tf_lines {
    int n;                              /* lines kept */
    struct tf_line line[TF_MAX_LINES];
};

/* Reads the file at path (at most cap bytes) into a newly malloc'd,
 * NUL-terminated buffer. On success stores it in *text (caller frees) and its
 * length in *len, returns 0. On failure returns -1 with e filled (line 0). */
int tf_read(const char *path, size_t cap, char **text, size_t *len, struct err *e);

/* Splits text into lines as described above. Returns 0, or -1 with e filled
 * when there are more than TF_MAX_LINES lines or the text holds a NUL byte. */
int tf_split(const char *text, size_t len, struct tf_lines *out, struct err *e);

/* The last line of a board file: line number line (1-based) must hold
 * exactly "1" or "2", the player to move, and no text may follow it. Returns
 * 0 with *player set to 1 or 2, or -1 with e filled (the same messages for
 * every game). */
int tf_player_line(const struct tf_lines *L, int line, int *player, struct err *e);

/* Writes len bytes to path atomically (temp file + fsync + rename). Returns 0,
 * or -1 with e filled; on failure path is unchanged and no temp file is left.
 * The temp file is path.tmp<pid>-<n>, created exclusively (O_EXCL) with the
 * mode fopen would give, n the first free number: a file or link already
 * at a name is never written through. */
int tf_write_atomic(const char *path, const char *data, size_t len, struct err *e);
/* tf_write_atomic for a writer that holds path locked and must not let
 * it go: the new file takes an exclusive flock(2) before it is renamed over
 * path (so path never names an unlocked file), and on success stays open in
 * *fd, for writing at its end, the caller's to close (the old file's
 * descriptor, and with it its lock, too). journal.h's journal_reheader. */
int tf_write_atomic_locked(const char *path, const char *data, size_t len, int *fd,
                           struct err *e);

/* Removes name in the folder open as dir_fd and, for a folder, everything
 * in it, depth first, by descriptor (openat, unlinkat: no path grows, so a
 * tree deeper than PATH_MAX goes too, one descriptor held whatever the
 * depth), each folder's permissions restored first (a chmod 000 folder
 * goes too). Links are removed, never followed: a folder an engine wrote
 * into may hold symlinks to files outside it. Assumes nothing else changes
 * the tree meanwhile (no engine runs). Returns 0 when nothing is left (or
 * there was nothing), or -1 with errno at the first thing that cannot go:
 * what is left stays, and the caller reports it. */
int tf_remove_at(int dir_fd, const char *name);

/* tf_remove_at on everything in the folder open as dir_fd, which stays.
 * 0, or -1 with errno and the name that is left in left (cap bytes). */
int tf_empty_at(int dir_fd, char *left, size_t cap);

/* tf_remove_at on path (its folder opened first). 0, or -1 with errno. */
int tf_remove_tree(const char *path);

/* Writes all len bytes to fd, retrying short writes and EINTR. Returns 0, or
 * -1 with errno set. */
int tf_write_all(int fd, const void *data, size_t len);

/* Checks, before any work that ends by writing path, that a file can be
 * created there: path is no folder, and a file can be made (and is removed
 * at once) in path's folder. 0, or -1 with e saying why (no place). */
int tf_check_creatable(const char *path, struct err *e);

/* Copies the first n bytes of the file open as from (read at offsets from
 * 0: its position is unchanged) to fd to, with tf_write_all. Returns 0, or
 * -1 with errno set (EIO when from is shorter than n). */
int tf_copy_head(int from, long long n, int to);

/* Copies len bytes of src (any bytes) to dst as valid UTF-8 text: a NUL,
 * and each byte that starts no valid UTF-8 sequence (the rest of a
 * character cut off before src), becomes '?'. dst holds len + 1 bytes; it
 * is NUL-terminated. Returns the length written (at most len). */
size_t tf_utf8_copy(char *dst, const char *src, size_t len);

/* The 1-based line and column of at, a pointer into text (for errors in
 * files parsed whole, such as JSON). */
void tf_place(const char *text, const char *at, int *line, int *col);
/* 0 when text[0..len) holds no NUL byte (a file parsed whole, such as
 * JSON, would end there), or -1 with e placed at the first one: "NUL byte
 * in a text file". */
int tf_no_nul(const char *text, size_t len, struct err *e);
/* text[0..len) (NUL-terminated at len: a file read whole, such as the
 * referee's config or a rubric) as one JSON object with nothing after it.
 * Returns its cJSON tree (the caller cJSON_Deletes it), or NULL with e
 * placed: tf_no_nul's error, "not valid JSON" where the parse stopped, or
 * not_object at 1:1 when the text is JSON but no object. */
struct cJSON *tf_json_object(const char *text, size_t len, const char *not_object,
                             struct err *e);

/* Interactive input, one line at a time (the SPFIAR and Nim sessions). */
enum tf_getline_result { TF_LINE_OK, TF_LINE_TOO_LONG, TF_LINE_EOF, TF_LINE_FAILED };

/* Reads one line from in into buf (which holds max + 1 bytes), without its
 * newline, NUL-terminated. A line longer than max is consumed whole and
 * reported TF_LINE_TOO_LONG; a last line without a newline is a line; a NUL
 * byte becomes '\x01', a byte no command or number holds, so the line cannot
 * pass for a shorter valid one. TF_LINE_EOF: end of input before any byte;
 * TF_LINE_FAILED: a read error. */
enum tf_getline_result tf_getline(FILE *in, char *buf, size_t max);

#endif
