/*
 * gradecopy.c - a folder tree copied by descriptor within limits
 * (gradecopy.h): listed with an explicit stack, then copied entry by entry
 * in byte order of its paths, each opened one name at a time.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "gradecopy.h"
#include "arena/textfile.h"

/* Bytes read and written at a time: a file is streamed, never held whole
 * (a submission's may be hundreds of MiB). */
#define CHUNK (64 * 1024)

/* One listed entry: a folder or a regular file, its path relative to the
 * top (malloc'd) and its size as listed. */
struct entry {
    char *rel;
    int dir;
    long long size;
};

struct listing {
    struct entry *entry;
    long n, cap;
    long long bytes;    /* the files' sizes together */
};

/* An open folder of the listing's stack: its stream and the length of its
 * relative path in the walk's path buffer. */
struct frame {
    DIR *d;
    size_t len;
};

const char *gcopy_size_text(long long bytes, char *buf)
{
    static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB" };
    if (bytes < 1024) {
        snprintf(buf, 32, "%lld byte%s", bytes, bytes == 1 ? "" : "s");
        return buf;
    }
    int u = 0;
    long long scale = 1024;
    while (u < 3 && bytes >= scale * 1024) {
        scale *= 1024;
        u++;
    }
    if (bytes % scale == 0)
        snprintf(buf, 32, "%lld %s", bytes / scale, unit[u]);
    else
        snprintf(buf, 32, "%.1f %s", (double)bytes / (double)scale, unit[u]);
    return buf;
}

/* rel as a message shows it: whole up to GCOPY_SHOWN bytes, else its start
 * and end around "...", cut between UTF-8 characters; "." for the top. */
static const char *shown(const char *rel, char buf[GCOPY_SHOWN + 1])
{
    size_t len = strlen(rel), half = (GCOPY_SHOWN - 3) / 2;
    if (len <= GCOPY_SHOWN)
        return rel[0] ? rel : ".";
    size_t head = half, tail = len - half;
    while (head > 0 && (rel[head] & 0xC0) == 0x80)
        head--;
    while (tail < len && (rel[tail] & 0xC0) == 0x80)
        tail++;
    snprintf(buf, GCOPY_SHOWN + 1, "%.*s...%s", (int)head, rel, rel + tail);
    return buf;
}

/* The tree's fault at rel: GCOPY_FAULT with e "PATH: why". */
static int fault(struct err *e, const char *rel, const char *why)
{
    char buf[GCOPY_SHOWN + 1];
    err_set(e, 0, 0, "%s: %s", shown(rel, buf), why);
    return GCOPY_FAULT;
}

/* rel could not be opened or read (errno err): gone, or a name on its way
 * swapped for a link or a file, is a change; the rest says why. */
static int fault_errno(struct err *e, const char *rel, int err)
{
    if (err == ENOENT || err == ELOOP || err == ENOTDIR)
        return fault(e, rel, "changed while it was copied");
    char why[128];
    snprintf(why, sizeof why, "cannot read it: %s", strerror(err));
    return fault(e, rel, why);
}

/* File rel alone past the limit of bytes. */
static int fault_file(struct err *e, const char *rel, long long size,
                      const struct gcopy_limits *lim)
{
    char a[32], b[32], why[160];
    snprintf(why, sizeof why, "%s, more than the %s the files may hold together (a sparse "
             "file counts at its size)", gcopy_size_text(size, a),
             gcopy_size_text(lim->max_bytes, b));
    return fault(e, rel, why);
}

static void listing_free(struct listing *L)
{
    for (long i = 0; i < L->n; i++)
        free(L->entry[i].rel);
    free(L->entry);
}

/* Adds rel to L. 0, or -1 with e. */
static int add(struct listing *L, const char *rel, int dir, long long size, struct err *e)
{
    if (L->n == L->cap) {
        long cap = L->cap ? L->cap * 2 : 64;
        struct entry *grown = realloc(L->entry, (size_t)cap * sizeof *grown);
        if (!grown)
            return err_set(e, 0, 0, "out of memory");
        L->entry = grown;
        L->cap = cap;
    }
    char *copy = strdup(rel);
    if (!copy)
        return err_set(e, 0, 0, "out of memory");
    L->entry[L->n++] = (struct entry){ copy, dir, size };
    return 0;
}

/* The folder name in the folder open as at, as a stream of its own. NULL
 * with errno. */
static DIR *open_folder(int at, const char *name)
{
    int fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d && fd >= 0) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return d;
}

/* One entry of the folder on top of the stack, rel its path (the stack's
 * path buffer): refused, skipped, or added (a folder also pushed). 0,
 * GCOPY_FAULT or -1, with e. */
static int list_entry(struct frame *stack, int *sp, const char *name, char *rel,
                      const struct gcopy_limits *lim, struct listing *L, struct err *e)
{
    struct frame *f = &stack[*sp - 1];
    struct stat st;
    if (fstatat(dirfd(f->d), name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return fault_errno(e, rel, errno);
    if (S_ISLNK(st.st_mode) && !lim->skip_links)
        return fault(e, rel, "a symbolic link: what it names is outside the folder, so it is "
                             "never followed or copied (hand in the file itself)");
    if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
        return 0;   /* a link skipped, a fifo, a socket, a device: nothing to grade */
    if (L->n >= lim->max_entries) {
        char why[96];
        snprintf(why, sizeof why, "more than %ld files and folders", lim->max_entries);
        return fault(e, rel, why);
    }
    if (S_ISREG(st.st_mode)) {
        /* Each file within the limit, so the sum of max_entries of them
         * cannot overflow (a sparse file's size may be 2^63 - 1). */
        if (st.st_size > lim->max_bytes)
            return fault_file(e, rel, st.st_size, lim);
        L->bytes += st.st_size;
        return add(L, rel, 0, st.st_size, e);
    }
    if (*sp > lim->max_depth) {
        char why[96];
        snprintf(why, sizeof why, "folders nested deeper than %d levels", lim->max_depth);
        return fault(e, rel, why);
    }
    if (add(L, rel, 1, 0, e) != 0)
        return -1;
    DIR *d = open_folder(dirfd(f->d), name);
    if (!d)
        return fault_errno(e, rel, errno);
    stack[(*sp)++] = (struct frame){ d, strlen(rel) };
    return 0;
}

/* Lists the tree open as top into L (step 1 of gradecopy.h). 0,
 * GCOPY_FAULT or -1, with e. */
static int list_tree(int top, const struct gcopy_limits *lim, struct listing *L, struct err *e)
{
    /* The top and one frame a level; a path of max_depth folders and a file. */
    struct frame *stack = calloc((size_t)lim->max_depth + 1, sizeof *stack);
    size_t room = ((size_t)lim->max_depth + 1) * (NAME_MAX + 1) + 1;
    char *rel = malloc(room);
    int sp = 0, rc = 0;
    if (!stack || !rel)
        rc = err_set(e, 0, 0, "out of memory");
    else if (!(stack[0].d = open_folder(top, ".")))
        rc = fault_errno(e, "", errno);
    else
        sp = 1;
    while (!rc && sp > 0) {
        struct frame *f = &stack[sp - 1];
        errno = 0;
        struct dirent *de = readdir(f->d);
        if (!de) {
            rel[f->len] = '\0';
            if (errno)
                rc = fault_errno(e, rel, errno);
            closedir(f->d);
            sp--;
            continue;
        }
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        size_t at = f->len;
        if (at)
            rel[at++] = '/';
        memcpy(rel + at, de->d_name, strlen(de->d_name) + 1);   /* fits: room */
        rc = list_entry(stack, &sp, de->d_name, rel, lim, L, e);
    }
    while (sp > 0)
        closedir(stack[--sp].d);
    free(stack);
    free(rel);
    char a[32], b[32];
    if (!rc && L->bytes > lim->max_bytes) {
        err_set(e, 0, 0, "its files hold %s together, more than %s (a sparse file counts at "
                "its size)", gcopy_size_text(L->bytes, a), gcopy_size_text(lim->max_bytes, b));
        rc = GCOPY_FAULT;
    }
    return rc;
}

static int cmp_entry(const void *a, const void *b)
{
    return strcmp(((const struct entry *)a)->rel, ((const struct entry *)b)->rel);
}

/* The folder holding rel, opened from top one name at a time without
 * following a link, and rel's last name in *base. A descriptor of its
 * own, or -1 with errno. */
static int open_parent(int top, const char *rel, const char **base)
{
    int fd = openat(top, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    const char *name = rel;
    for (const char *slash; fd >= 0 && (slash = strchr(name, '/')); name = slash + 1) {
        char part[NAME_MAX + 1];
        snprintf(part, sizeof part, "%.*s", (int)(slash - name), name);
        int sub = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        close(fd);
        errno = saved;
        fd = sub;
    }
    *base = name;
    return fd;
}

/* Folder x of the listing made in the copy (there already as a folder:
 * kept). 0, GCOPY_FAULT or -1, with e. */
static int copy_folder(int to, const struct entry *x, struct err *e)
{
    const char *base;
    int parent = open_parent(to, x->rel, &base), rc = 0;
    if (parent < 0)
        return err_set(e, 0, 0, "%s: cannot open its copy's folder: %s", x->rel,
                       strerror(errno));
    struct stat st;
    if (mkdirat(parent, base, 0755) != 0 && errno != EEXIST)
        rc = err_set(e, 0, 0, "%s: cannot make it: %s", x->rel, strerror(errno));
    else if (fstatat(parent, base, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode))
        rc = fault(e, x->rel, "a folder where the copy has a file");
    close(parent);
    return rc;
}

/* Streams size bytes of in (rel) to out and into h (NULL: no hash). 0,
 * GCOPY_FAULT (in shorter, or unreadable) or -1 (writing), with e. */
static int stream(int in, int out, long long size, struct sha256 *h, const char *rel,
                  struct err *e)
{
    char *buf = malloc(CHUNK);
    if (!buf)
        return err_set(e, 0, 0, "out of memory");
    int rc = 0;
    for (long long at = 0; !rc && at < size;) {
        size_t want = size - at < CHUNK ? (size_t)(size - at) : CHUNK;
        ssize_t n = pread(in, buf, want, (off_t)at);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            rc = n < 0 ? fault_errno(e, rel, errno) : fault(e, rel, "changed while it was "
                                                                     "copied (shorter)");
        else if (tf_write_all(out, buf, (size_t)n) != 0)
            rc = err_set(e, 0, 0, "%s: cannot write its copy: %s", rel, strerror(errno));
        else if (h)
            sha256_update(h, buf, (size_t)n);
        at += n > 0 ? n : 0;
    }
    free(buf);
    return rc;
}

/* The source of file x opened (never through a link), still a regular
 * file no larger than listed (so the listing's limits hold); its stat in
 * st. A descriptor, or -1 with e saying the tree's fault. */
static int open_source(int from, const struct entry *x, struct stat *st, struct err *e)
{
    const char *base;
    int parent = open_parent(from, x->rel, &base);
    int fd = parent < 0 ? -1 : openat(parent, base, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
                                                        O_NOCTTY | O_CLOEXEC);
    int saved = errno;
    if (parent >= 0)
        close(parent);
    if (fd < 0) {
        fault_errno(e, x->rel, saved);
        return -1;
    }
    if (fstat(fd, st) != 0 || !S_ISREG(st->st_mode) || st->st_size > x->size) {
        close(fd);
        fault(e, x->rel, "changed while it was copied");
        return -1;
    }
    return fd;
}

/* File x copied from the tree into the copy (a file there replaced), its
 * path, size and bytes into h when not NULL. 0, GCOPY_FAULT or -1, with e. */
static int copy_file(int from, int to, const struct entry *x, struct sha256 *h, struct err *e)
{
    struct stat st;
    int in = open_source(from, x, &st, e);
    if (in < 0)
        return GCOPY_FAULT;
    const char *base;
    int parent = open_parent(to, x->rel, &base), out = -1, rc = 0;
    if (parent >= 0 && unlinkat(parent, base, 0) != 0 && errno != ENOENT)
        rc = errno == EISDIR ? fault(e, x->rel, "a file where the copy has a folder")
                             : err_set(e, 0, 0, "%s: cannot replace its copy: %s", x->rel,
                                       strerror(errno));
    else if (parent < 0 ||
             (out = openat(parent, base, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                           st.st_mode & 0755)) < 0)
        rc = err_set(e, 0, 0, "%s: cannot write its copy: %s", x->rel, strerror(errno));
    if (!rc && h) {
        char size[32];
        int n = snprintf(size, sizeof size, "%lld", (long long)st.st_size);
        sha256_update(h, x->rel, strlen(x->rel) + 1);
        sha256_update(h, size, (size_t)n + 1);
    }
    if (!rc)
        rc = stream(in, out, st.st_size, h, x->rel, e);
    if (out >= 0 && close(out) != 0 && !rc)
        rc = err_set(e, 0, 0, "%s: cannot write its copy: %s", x->rel, strerror(errno));
    if (parent >= 0)
        close(parent);
    close(in);
    return rc;
}

int gcopy_tree(int from, int to, const struct gcopy_limits *lim, char sha[SHA256_HEX],
               struct err *e)
{
    struct listing L = { 0 };
    int rc = list_tree(from, lim, &L, e);
    if (!rc && L.n > 0)   /* an empty tree has no array: qsort takes none */
        qsort(L.entry, (size_t)L.n, sizeof *L.entry, cmp_entry);
    struct sha256 h;
    sha256_init(&h);
    for (long i = 0; !rc && i < L.n; i++)
        rc = L.entry[i].dir ? copy_folder(to, &L.entry[i], e)
                            : copy_file(from, to, &L.entry[i], sha ? &h : NULL, e);
    if (sha)
        sha256_final(&h, sha);
    listing_free(&L);
    return rc;
}
