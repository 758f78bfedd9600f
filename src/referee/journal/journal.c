/*
 * journal.c - tournament journals and match logs on disk: reading them game
 * by game, opening a journal for appending (resume included), appending a
 * game, replacing its header, and merging shard journals (journal.h).
 *
 * A journal line is written with one write() on an O_APPEND descriptor and
 * fsync'd, so after a crash the file is every finished game plus at most one
 * line cut short, which readers skip and resume cuts off.
 *
 * Locks are flock(2)s, which belong to an open file, not to a process, so
 * that no other descriptor's close drops them; who holds one is read from
 * /proc/locks, which names the process that took it.
 */
#include <assert.h>
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include "header.h"
#include "arena/limits.h"
#include "arena/textfile.h"
#include "arena/journal.h"
#include "arena/record.h"
#include "arena/schedule.h"

#define LOCKS_LINE_MAX 256       /* a line of /proc/locks */

/* What the scan hands on inside this file: the parsed JSON of the header
 * (is_header 1) or of a record. Readers outside get it decoded (typed_item);
 * merge and resume keep the JSON to copy records as they were. */
typedef int (*raw_fn)(void *ctx, const cJSON *rec, int is_header, int line, struct err *e);

static const char *schema_of(const cJSON *obj)
{
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(obj, "schema");
    return cJSON_IsString(s) ? s->valuestring : "";
}

/* What makes a parsed record unlike the one written: a key twice in one
 * object (readers see the first, a rewrite keeps both) or a number beyond
 * a double (1e999 reads as infinity and is written back as null). cJSON
 * writes neither, so such a record was not written by the referee. Returns
 * the reason, or NULL when item is a faithful record. */
static const char *unfaithful(const cJSON *item, char *why, size_t cap)
{
    if (cJSON_IsNumber(item) && !isfinite(item->valuedouble))
        return snprintf(why, cap, "a number out of range"), why;
    for (const cJSON *c = item->child; c; c = c->next) {
        if (cJSON_IsObject(item))
            for (const cJSON *d = item->child; d != c; d = d->next)
                if (strcmp(d->string, c->string) == 0)
                    return snprintf(why, cap, "the key \"%.100s\" twice in one object",
                                    c->string), why;
        if (unfaithful(c, why, cap))
            return why;
    }
    return NULL;
}

struct cJSON *journal_line(const char *text, size_t len, int line, struct err *e)
{
    char why[ERR_MSG_MAX];
    /* A NUL would end the record early and hide what follows it. */
    const char *nul = memchr(text, '\0', len);
    if (nul)
        return err_set(e, line, (int)(nul - text) + 1, "NUL byte in a text file"), NULL;
    const char *bad = NULL;
    cJSON *rec = cJSON_ParseWithOpts(text, &bad, 1);
    if (!rec || !cJSON_IsObject(rec)) {
        cJSON_Delete(rec);
        return err_set(e, line, bad && rec == NULL ? (int)(bad - text) + 1 : 1,
                       "not a JSON object"), NULL;
    }
    if (unfaithful(rec, why, sizeof why)) {
        cJSON_Delete(rec);
        return err_set(e, line, 1, "not a record as the referee writes it: %s", why), NULL;
    }
    return rec;
}

/* One line of a journal (len bytes at line, its newline replaced by a
 * NUL), line lineno + 1: parsed, checked and given to fn. */
static int scan_line(char *line, size_t len, int lineno, raw_fn fn, void *ctx,
                     struct err *e)
{
    line[len] = '\0';
    cJSON *rec = journal_line(line, len, lineno + 1, e);
    if (!rec)
        return -1;
    int rc = fn(ctx, rec, lineno == 0, lineno + 1, e);
    cJSON_Delete(rec);
    return rc;
}

/* A header cut short is no journal yet: nothing to report or resume. */
static int no_header(struct err *e)
{
    return err_set(e, 1, 1, "the journal has no complete header line");
}

/* Scans text (NUL-terminated, modified in place). *complete: bytes of whole
 * lines (a journal's valid prefix). */
static int scan_text(char *text, size_t len, raw_fn fn, void *ctx, size_t *complete,
                     struct err *e)
{
    const char *end = NULL;
    char why[ERR_MSG_MAX];
    cJSON *first = cJSON_ParseWithOpts(text, &end, 0);
    *complete = 0;
    if (first && strcmp(schema_of(first), JOURNAL_MATCH_SCHEMA) == 0) {
        const char *after = end ? end + strspn(end, " \t\r\n") : text + len;
        if (after < text + len) {
            cJSON_Delete(first);
            int line, col;
            tf_place(text, after, &line, &col);
            return err_set(e, line, col, "unexpected text after the match log");
        }
        if (unfaithful(first, why, sizeof why)) {
            cJSON_Delete(first);
            return err_set(e, 1, 1, "not a match log as the referee writes it: %s", why);
        }
        int rc = fn(ctx, first, 1, 0, e);
        const cJSON *g;
        cJSON_ArrayForEach(g, cJSON_GetObjectItemCaseSensitive(first, "games"))
            if (!rc)
                rc = fn(ctx, g, 0, 0, e);
        cJSON_Delete(first);
        *complete = len;
        return rc;
    }
    if (!first || strcmp(schema_of(first), JOURNAL_SCHEMA) != 0) {
        cJSON_Delete(first);
        if (len == 0)
            return err_set(e, 0, 0, "empty file: not a journal or a match log");
        int line, col;
        tf_place(text, first ? text : end ? end : text, &line, &col);
        return err_set(e, line, col, "not a journal (%s) or a match log (%s)", JOURNAL_SCHEMA,
                       JOURNAL_MATCH_SCHEMA);
    }
    cJSON_Delete(first);
    int rc = 0, lineno = 0;
    for (char *p = text; !rc && p < text + len; lineno++) {
        char *nl = memchr(p, '\n', (size_t)(text + len - p));
        if (!nl)
            break;   /* cut short by a crash: not a game */
        rc = scan_line(p, (size_t)(nl - p), lineno, fn, ctx, e);
        p = nl + 1;
        *complete = (size_t)(p - text);
    }
    return !rc && lineno == 0 ? no_header(e) : rc;
}

/* A reader and its context, for typed_item. */
struct typed {
    const struct journal_reader *rd;
    void *ctx;
};

static int typed_game(const struct typed *t, const cJSON *json, int line, struct err *e)
{
    struct game_record r;
    if (rec_decode(json, &r, e) != 0)
        return t->rd->bad_game ? t->rd->bad_game(t->ctx, line, e) : -1;
    int rc = t->rd->game(t->ctx, &r, line, e);
    rec_free(&r);
    return rc;
}

/* The raw_fn of the readers outside: decodes, then calls rd. */
static int typed_item(void *vctx, const cJSON *json, int is_header, int line, struct err *e)
{
    const struct typed *t = vctx;
    int rc = 0;
    if (is_header) {
        struct hdr h;
        if (hdr_decode(json, &h, e) != 0)
            return -1;
        rc = t->rd->header ? t->rd->header(t->ctx, &h, line, e) : 0;
        hdr_free(&h);
    } else if (t->rd->game && (rc = typed_game(t, json, line, e)) && line && !e->line) {
        e->line = line, e->col = 1;
    }
    return rc;
}

int journal_scan_text(char *text, size_t len, const struct journal_reader *rd, void *ctx,
                      struct err *e)
{
    size_t complete;
    struct typed t = { rd, ctx };
    return scan_text(text, len, typed_item, &t, &complete, e);
}

/* The process that holds a flock on the file open as fd, from /proc/locks;
 * 0 when none is found there. */
static long lock_holder(int fd)
{
    struct stat st;
    FILE *f = fstat(fd, &st) == 0 ? fopen("/proc/locks", "re") : NULL;
    if (!f)
        return 0;
    char line[LOCKS_LINE_MAX], kind[16];
    long pid = 0, p;
    unsigned maj, min;
    unsigned long ino;
    /* "1: FLOCK  ADVISORY  WRITE 4242 fd:00:1234 0 EOF"; a waiter's line
     * has "->" where the kind is. */
    while (!pid && fgets(line, sizeof line, f))
        if (sscanf(line, "%*d: %15s %*s %*s %ld %x:%x:%lu", kind, &p, &maj, &min, &ino) == 5 &&
            strcmp(kind, "FLOCK") == 0 && maj == major(st.st_dev) && min == minor(st.st_dev) &&
            ino == st.st_ino)
            pid = p;
    fclose(f);
    return pid;
}

/* Takes fd's lock on path without waiting: exclusive for the referee that
 * appends, shared for readers. 0, or -1 with e naming the holder. */
static int lock_now(int fd, const char *path, int how, struct err *e)
{
    if (flock(fd, how | LOCK_NB) == 0)
        return 0;
    if (errno != EWOULDBLOCK)
        return err_set(e, 0, 0, "%s: cannot lock: %s", path, strerror(errno));
    long pid = lock_holder(fd);
    return pid > 0 ? err_set(e, 0, 0, "%s: in use by another referee (pid %ld)", path, pid)
                   : err_set(e, 0, 0, "%s: in use by another referee", path);
}

long journal_writer(const char *path)
{
    /* Only a regular file has a writer to wait for; a FIFO's open would
     * wait for one of its own. */
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode))
        return 0;
    int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return 0;
    long pid = 0;
    if (flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK && (pid = lock_holder(fd)) == 0)
        pid = -1;
    close(fd);
    return pid;
}

/* 1 when line (a whole first line, newline included) is a journal's
 * header: then scan_text would read the file line by line. */
static int journal_header_line(char *line, size_t len)
{
    if (len == 0 || line[len - 1] != '\n' || memchr(line, '\0', len))
        return 0;
    line[len - 1] = '\0';
    cJSON *h = cJSON_ParseWithOpts(line, NULL, 1);
    int yes = cJSON_IsObject(h) && strcmp(schema_of(h), JOURNAL_SCHEMA) == 0;
    cJSON_Delete(h);
    line[len - 1] = '\n';
    return yes;
}

/* Reads a journal from f line by line, as scan_text would from the whole
 * file (the same lines, errors and cut-short last line), holding one line
 * in memory at a time. */
static int scan_stream(FILE *f, raw_fn fn, void *ctx, struct err *e)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int rc = 0, lineno = 0;
    while (!rc && (n = getline(&line, &cap, f)) > 0 && line[n - 1] == '\n')
        rc = scan_line(line, (size_t)n - 1, lineno++, fn, ctx, e);
    if (!rc && ferror(f))
        rc = err_set(e, 0, 0, "cannot read: %s", strerror(errno));
    free(line);
    return !rc && lineno == 0 ? no_header(e) : rc;
}

/* What report, verify, analyze, merge and resume may read: a regular file
 * of at most JOURNAL_READ_CAP bytes, told by stat before it is opened (a
 * FIFO's open would wait for a writer, /dev/zero's read never ends). */
static int readable(const char *path, struct err *e)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return err_set(e, 0, 0, "cannot open: %s", strerror(errno));
    if (!S_ISREG(st.st_mode))
        return err_set(e, 0, 0, "not a regular file: a journal or match log is one");
    if (st.st_size > JOURNAL_READ_CAP)
        return err_set(e, 0, 0, "file is larger than %ld bytes, the most a journal or match "
                                "log may hold", JOURNAL_READ_CAP);
    return 0;
}

int journal_peek(const char *path, const struct journal_reader *rd, void *ctx, struct err *e)
{
    char *text;
    size_t len;
    if (readable(path, e) != 0 || tf_read(path, JOURNAL_READ_CAP, &text, &len, e) != 0)
        return -1;
    int rc = journal_scan_text(text, len, rd, ctx, e);
    free(text);
    return rc;
}

/* path opened and its shared lock taken (waiting for a writer's), or -1.
 * A writer that replaced the file while we waited (journal_reheader) left
 * us the old one, unlinked and without its later games: then path is
 * opened again. */
static int open_shared(const char *path)
{
    for (;;) {
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            return -1;
        while (flock(fd, LOCK_SH) != 0 && errno == EINTR)
            ;
        struct stat held, now;
        if (fstat(fd, &held) != 0 || stat(path, &now) != 0 ||
            (held.st_dev == now.st_dev && held.st_ino == now.st_ino))
            return fd;
        close(fd);
    }
}

/* journal_scan with the JSON of each record (merge's). */
static int scan_file(const char *path, raw_fn fn, void *ctx, struct err *e)
{
    if (readable(path, e) != 0)
        return -1;
    /* Under a shared lock: a referee appending to it holds an exclusive
     * one for its whole run, so what is read is the whole of it. */
    int fd = open_shared(path);
    /* A journal is read a line at a time, so that a report of a long
     * tournament does not hold the whole file; a match log (one JSON
     * document) and anything that is not a journal are read whole, where
     * scan_text says what is wrong with them. */
    FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
    char *first = NULL;
    size_t cap = 0;
    ssize_t n = f ? getline(&first, &cap, f) : -1;
    if (n > 0 && journal_header_line(first, (size_t)n)) {
        free(first);
        rewind(f);
        int rc = scan_stream(f, fn, ctx, e);
        fclose(f);
        return rc;
    }
    free(first);
    char *text;
    size_t len, complete;
    int rc = tf_read(path, JOURNAL_READ_CAP, &text, &len, e);
    if (f)   /* the lock is let go once the file is read */
        fclose(f);
    else if (fd >= 0)
        close(fd);
    if (rc != 0)
        return -1;
    rc = scan_text(text, len, fn, ctx, &complete, e);
    free(text);
    return rc;
}

int journal_scan(const char *path, const struct journal_reader *rd, void *ctx, struct err *e)
{
    struct typed t = { rd, ctx };
    return scan_file(path, typed_item, &t, e);
}

struct open_ctx {
    const struct hdr *header;
    struct typed t;            /* the reader of the journal's games */
};

static int check_header(void *vctx, const cJSON *rec, int is_header, int line, struct err *e)
{
    struct open_ctx *c = vctx;
    if (!is_header)
        return typed_item(&c->t, rec, 0, line, e);
    if (strcmp(schema_of(rec), JOURNAL_SCHEMA) != 0)
        return err_set(e, 1, 1, "a match log cannot be resumed, only a journal");
    struct hdr theirs;
    if (hdr_decode(rec, &theirs, e) != 0)
        return -1;
    const char *key = hdr_differs(c->header, &theirs);
    hdr_free(&theirs);
    if (key && !key[0])
        return err_set(e, 1, 1, "out of memory");
    return key ? err_set(e, 1, 1,
                         "this journal is of another tournament: its \"%s\" differs "
                         "(resume needs the same engines, rules and shard)",
                         key)
               : 0;
}

/* The header's line (malloc'd, no newline), or NULL when out of memory. */
static char *header_text(const struct hdr *h)
{
    cJSON *j = hdr_encode(h);
    char *text = j ? cJSON_PrintUnformatted(j) : NULL;
    cJSON_Delete(j);
    return text;
}

int journal_append(int fd, const char *line, struct err *e)
{
    assert(fd >= 0 && !strchr(line, '\n'));
    size_t len = strlen(line);
    char *buf = malloc(len + 1);
    if (!buf)
        return err_set(e, 0, 0, "out of memory");
    memcpy(buf, line, len);
    buf[len] = '\n';
    /* One write: a crash leaves the line whole or cut, never interleaved. */
    int rc = tf_write_all(fd, buf, len + 1) != 0 || fsync(fd) != 0
                 ? err_set(e, 0, 0, "cannot append to the journal: %s", strerror(errno))
                 : 0;
    free(buf);
    return rc;
}

/* Appends the header line; on failure closes fd. */
static int write_header(int fd, const struct hdr *header, struct err *e)
{
    char *text = header_text(header);
    int rc = text ? journal_append(fd, text, e) : err_set(e, 0, 0, "out of memory");
    free(text);
    if (rc)
        close(fd);
    return rc;
}

int journal_open(const char *path, const struct hdr *header, int resume,
                 const struct journal_reader *rd, void *ctx, int *fd, struct err *e)
{
    struct stat st;
    if (resume && stat(path, &st) == 0) {
        if (readable(path, e) != 0) {
            char msg[ERR_MSG_MAX];
            snprintf(msg, sizeof msg, "%s", e->msg);
            return err_set(e, 0, 0, "%s: %s", path, msg);
        }
        /* Locked before it is read: two referees resuming one journal
         * would both play the games it lacks. */
        *fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
        if (*fd < 0)
            return err_set(e, 0, 0, "%s: cannot open: %s", path, strerror(errno));
        if (lock_now(*fd, path, LOCK_EX, e) != 0) {
            close(*fd);
            return -1;
        }
        char *text;
        size_t len, complete;
        if (tf_read(path, JOURNAL_READ_CAP, &text, &len, e) != 0) {
            char msg[ERR_MSG_MAX];
            snprintf(msg, sizeof msg, "%s", e->msg);
            close(*fd);
            return err_set(e, 0, 0, "%s: %s", path, msg);
        }
        /* Killed between creating the journal and finishing its header
         * line: the file is a prefix of that line, and nothing is lost by
         * writing it anew. */
        char *head = header_text(header);
        int torn_header = head && strlen(head) >= len && memcmp(text, head, len) == 0;
        free(head);
        if (torn_header) {
            free(text);
            if (ftruncate(*fd, 0) != 0) {
                close(*fd);
                return err_set(e, 0, 0, "%s: cannot truncate: %s", path, strerror(errno));
            }
            return write_header(*fd, header, e);
        }
        struct open_ctx oc = { header, { rd, ctx } };
        int rc = scan_text(text, len, check_header, &oc, &complete, e);
        free(text);
        if (rc) {
            close(*fd);
            return -1;
        }
        /* Cut off a line a crash left unfinished; its game runs again. */
        if (complete < len && ftruncate(*fd, (off_t)complete) != 0) {
            close(*fd);
            return err_set(e, 0, 0, "%s: cannot truncate: %s", path, strerror(errno));
        }
        return 0;
    }
    *fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (*fd < 0)
        return errno == EEXIST
                   ? err_set(e, 0, 0, "%s: the journal exists: add --resume to finish its "
                                      "tournament, or name another file", path)
                   : err_set(e, 0, 0, "%s: cannot create: %s", path, strerror(errno));
    /* Someone resuming it since we made it has it: theirs, not ours to
     * remove. */
    if (lock_now(*fd, path, LOCK_EX, e) != 0) {
        close(*fd);
        return -1;
    }
    int rc = write_header(*fd, header, e);
    if (rc)
        unlink(path);
    return rc;
}

int journal_reheader(const char *path, const struct hdr *header, int *fd, struct err *e)
{
    assert(*fd >= 0);
    char *text, *head = NULL, *buf = NULL;
    size_t len;
    if (tf_read(path, JOURNAL_READ_CAP, &text, &len, e) != 0) {
        char msg[ERR_MSG_MAX];
        snprintf(msg, sizeof msg, "%s", e->msg);
        return err_set(e, 0, 0, "%s: %s", path, msg);
    }
    /* Every line is whole: the caller is the one writer, and appends whole lines. */
    const char *nl = memchr(text, '\n', len);
    size_t rest = nl ? len - (size_t)(nl + 1 - text) : 0, hlen = 0;
    int rc = 0, nfd = -1;
    if (!nl)
        rc = err_set(e, 0, 0, "%s: the journal has no complete header line", path);
    else if (!(head = header_text(header)) || !(buf = malloc((hlen = strlen(head)) + 1 + rest)))
        rc = err_set(e, 0, 0, "out of memory");
    if (!rc) {
        memcpy(buf, head, hlen);
        buf[hlen] = '\n';
        memcpy(buf + hlen + 1, nl + 1, rest);
        char msg[ERR_MSG_MAX];
        if (tf_write_atomic_locked(path, buf, hlen + 1 + rest, &nfd, e) != 0) {
            snprintf(msg, sizeof msg, "%s", e->msg);
            rc = err_set(e, 0, 0, "%s: %s", path, msg);
        } else {
            fcntl(nfd, F_SETFL, O_APPEND);   /* as journal_open's: appends only */
            close(*fd);
            *fd = nfd;
        }
    }
    free(buf);
    free(head);
    free(text);
    return rc;
}

/* --- merge ------------------------------------------------------------- */

struct merge_line {
    long index;
    char *text;
};

struct merge_ctx {
    char why[ERR_MSG_MAX];  /* a record's error, while e is rewritten */
    struct hdr header;      /* the first input's */
    int has_header;
    struct merge_line *line;
    long n, cap;
    long want;              /* games of the input being read; -1: any */
    char shard[32];         /* its "shard" */
    int k;                  /* its shard k/n's k */
    int *ks;                /* the k of every input read, one per input */
    int nks;
};

/* The games a shard journal's header says it must hold: all of its shard
 * of the schedule, unless an SPRT may have stopped it early (-1: any).
 * Returns -2 when the header names no shard k/n of a schedule of "games"
 * (merge could not tell a finished journal from a cut one). */
static long shard_wanted(const struct hdr *h, char *shard, size_t cap)
{
    unsigned need = HDR_BIT(HDR_SHARD) | HDR_BIT(HDR_GAMES);
    if ((h->has & need) != need)
        return -2;
    snprintf(shard, cap, "%d/%d", h->shard_k, h->shard_n);
    if (!(h->null & HDR_BIT(HDR_SPRT)))
        return -1;
    return schedule_shard_games((long)h->games, h->shard_k, h->shard_n);
}

/* Whether two shards' headers are of one tournament: alike but for the
 * shard's k (its n is the tournament's). */
static int same_tournament(const struct hdr *a, const struct hdr *b)
{
    struct hdr x = *b;   /* a shallow copy: only its shard changes */
    x.shard_k = a->shard_k;
    const char *ab = hdr_differs(a, &x), *ba = hdr_differs(&x, a);
    return !ab && !ba;
}

static int merge_header(struct merge_ctx *m, const cJSON *rec, struct err *e)
{
    struct hdr h;   /* decoded first: what every reader says of a bad header */
    if (hdr_decode(rec, &h, e) != 0)
        return -1;
    if (strcmp(schema_of(rec), JOURNAL_SCHEMA) != 0) {
        hdr_free(&h);
        return err_set(e, 1, 1, "not a journal: only journals merge");
    }
    m->want = shard_wanted(&h, m->shard, sizeof m->shard);
    if (m->want == -2) {
        hdr_free(&h);
        return err_set(e, 1, 1, "the header has no \"shard\" k/n of its \"games\" "
                       "(only journals of referee tournament merge)");
    }
    m->k = h.shard_k;
    for (int i = 0; i < m->nks; i++)
        if (m->ks[i] == h.shard_k) {
            hdr_free(&h);
            return err_set(e, 1, 1, "shard %s is in two inputs", m->shard);
        }
    m->ks[m->nks++] = h.shard_k;
    if (!m->has_header) {
        m->header = h;
        m->has_header = 1;
        return 0;
    }
    int same = same_tournament(&m->header, &h);
    hdr_free(&h);
    return same ? 0 : err_set(e, 1, 1, "a shard of another tournament (headers differ)");
}

static int merge_collect(void *vctx, const cJSON *rec, int is_header, int line, struct err *e)
{
    struct merge_ctx *m = vctx;
    if (is_header)
        return merge_header(m, rec, e);
    struct game_record r;
    if (rec_decode(rec, &r, e) != 0)
        return err_set(e, line, 1, "%s", strcpy(m->why, e->msg));
    long index = r.index;
    rec_free(&r);
    if (index < 0)
        return err_set(e, line, 1, "a game without an \"index\" from 1 to %ld", REC_INDEX_MAX);
    /* Shard k of n plays games k, k + n, k + 2n, ... of the schedule. */
    if (index > (long)m->header.games)
        return err_set(e, line, 1, "game %ld is past the tournament's %ld games", index,
                       (long)m->header.games);
    if ((index - 1) % m->header.shard_n != m->k - 1)
        return err_set(e, line, 1, "game %ld is not of shard %s", index, m->shard);
    if (m->n == m->cap) {
        long cap = m->cap ? 2 * m->cap : 256;
        struct merge_line *grown = realloc(m->line, (size_t)cap * sizeof *grown);
        if (!grown)
            return err_set(e, line, 1, "out of memory");
        m->line = grown;
        m->cap = cap;
    }
    char *text = cJSON_PrintUnformatted(rec);
    if (!text)
        return err_set(e, line, 1, "out of memory");
    m->line[m->n].index = index;
    m->line[m->n++].text = text;
    return 0;
}

static int by_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

static int by_index(const void *a, const void *b)
{
    long x = ((const struct merge_line *)a)->index, y = ((const struct merge_line *)b)->index;
    return (x > y) - (x < y);
}

/* The first k of 1..shard_n that no input is (0: none), ks sorted. */
static int missing_shard(int *ks, int nks, int shard_n)
{
    qsort(ks, (size_t)nks, sizeof *ks, by_int);
    for (int i = 0; i < shard_n; i++)
        if (i >= nks || ks[i] != i + 1)
            return i + 1;
    return 0;
}

int journal_merge(const char *out, char *const inputs[], int n, struct err *e, const char **bad_path)
{
    struct merge_ctx m = { 0 };
    m.ks = malloc((size_t)(n > 0 ? n : 1) * sizeof *m.ks);
    int rc = m.ks ? 0 : err_set(e, 0, 0, "out of memory");
    for (int i = 0; i < n && !rc; i++) {
        long before = m.n;
        *bad_path = inputs[i];
        rc = scan_file(inputs[i], merge_collect, &m, e) ? -1 : 0;
        if (!rc && m.want >= 0 && m.n - before < m.want)
            rc = err_set(e, 0, 0, "shard %s is incomplete: %ld of its %ld games (finish it with "
                         "tournament --resume)", m.shard, m.n - before, m.want);
    }
    int missing = !rc && m.has_header ? missing_shard(m.ks, m.nks, m.header.shard_n) : 0;
    if (missing) {
        *bad_path = out;
        rc = err_set(e, 0, 0, "shard %d/%d is missing: merge takes every shard of the "
                     "tournament", missing, m.header.shard_n);
    }
    if (!rc && m.n > 0) {
        qsort(m.line, (size_t)m.n, sizeof *m.line, by_index);
        for (long i = 1; i < m.n && !rc; i++)
            if (m.line[i].index == m.line[i - 1].index) {
                *bad_path = out;
                rc = err_set(e, 0, 0, "game %ld is in two inputs", m.line[i].index);
            }
    }
    if (!rc) {
        *bad_path = out;
        /* The shard last, as merge has always written it. */
        m.header.shard_k = m.header.shard_n = 1;
        cJSON *hj = hdr_encode(&m.header);
        cJSON *shard = hj ? cJSON_DetachItemFromObjectCaseSensitive(hj, "shard") : NULL;
        if (shard)
            cJSON_AddItemToObject(hj, "shard", shard);
        char *head = shard ? cJSON_PrintUnformatted(hj) : NULL;
        cJSON_Delete(hj);
        size_t len = head ? strlen(head) + 1 : 0;
        for (long i = 0; i < m.n; i++)
            len += strlen(m.line[i].text) + 1;
        char *buf = malloc(len + 1), *p = buf;
        if (!buf || !head) {
            rc = err_set(e, 0, 0, "out of memory");
        } else {
            p += sprintf(p, "%s\n", head);
            for (long i = 0; i < m.n; i++)
                p += sprintf(p, "%s\n", m.line[i].text);
            rc = tf_write_atomic(out, buf, (size_t)(p - buf), e);
        }
        free(buf);
        free(head);
    }
    for (long i = 0; i < m.n; i++)
        free(m.line[i].text);
    free(m.line);
    free(m.ks);
    if (m.has_header)
        hdr_free(&m.header);
    return rc;
}
