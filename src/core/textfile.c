/* textfile.c - size-capped whole-file reads, line splitting that accepts every
 * line ending, a file read whole as one JSON object, atomic writes,
 * line-at-a-time interactive input, and removing a folder tree (textfile.h). */
#define _XOPEN_SOURCE 700   /* POSIX.1-2008: openat, unlinkat, fdopendir */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/textfile.h"

/* First buffer for a file whose size fstat cannot tell (a pipe). */
#define TF_READ_START 4096
/* Room for ".tmp<pid>-<n>" and the NUL: a 64-bit pid and an int. */
#define TF_TEMP_SUFFIX_MAX 48
/* Temporary names tried before giving up: only files left by an earlier
 * process with the same pid, or a concurrent writer, can take a name. */
#define TF_TEMP_TRIES 100
#define TF_NEW_FILE_MODE 0666   /* less the umask, as fopen creates files */

int tf_read(const char *path, size_t cap, char **text, size_t *len, struct err *e)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return err_set(e, 0, 0, "cannot open: %s", strerror(errno));
    struct stat st;
    int known = fstat(fd, &st) == 0;
    if (known && S_ISDIR(st.st_mode)) {
        close(fd);
        return err_set(e, 0, 0, "is a directory, not a board file");
    }
    /* The buffer starts at the file's size (plus the byte that shows it
     * ended) and grows only if the file does: the cap bounds what is read,
     * not what is allocated, so a small journal never costs a gigabyte. */
    size_t room = known && S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : TF_READ_START;
    if (room > cap + 1)
        room = cap + 1;
    char *buf = malloc(room + 1);
    if (!buf) {
        close(fd);
        return err_set(e, 0, 0, "out of memory");
    }
    size_t n = 0;
    for (;;) {
        if (n == room) {
            /* One byte past the cap was read: the file is oversized. */
            if (n > cap)
                break;
            room = room > (cap + 1) / 2 ? cap + 1 : 2 * room;
            char *grown = realloc(buf, room + 1);
            if (!grown) {
                free(buf);
                close(fd);
                return err_set(e, 0, 0, "out of memory");
            }
            buf = grown;
        }
        ssize_t r = read(fd, buf + n, room - n);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0) {
            int saved = errno;
            free(buf);
            close(fd);
            return err_set(e, 0, 0, "cannot read: %s", strerror(saved));
        }
        if (r == 0)
            break;
        n += (size_t)r;
    }
    if (n > cap) {
        free(buf);
        close(fd);
        return err_set(e, 0, 0, "file is larger than %zu bytes", cap);
    }
    close(fd);
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

int tf_split(const char *text, size_t len, struct tf_lines *out, struct err *e)
{
    int n = 0, last_nonempty = 0;
    size_t i = 0;
    int lineno = 1;
    while (i < len) {
        size_t start = i;
        while (i < len && text[i] != '\n' && text[i] != '\r') {
            if (text[i] == '\0')
                return err_set(e, lineno, (int)(i - start) + 1, "NUL byte in a text file");
            i++;
        }
        size_t end = i;
        /* One ending: "\r\n", "\n" or a lone "\r". */
        if (i < len && text[i] == '\r') {
            i++;
            if (i < len && text[i] == '\n')
                i++;
        } else if (i < len) {
            i++;
        }
        while (end > start && text[end - 1] == ' ')
            end--;
        if (n == TF_MAX_LINES) {
            if (end > start)
                return err_set(e, lineno, 1, "too many lines (more than %d)", TF_MAX_LINES);
        } else {
            out->line[n].s = text + start;
            out->line[n].len = (int)(end - start);
            n++;
            if (end > start)
                last_nonempty = n;
        }
        lineno++;
    }
    out->n = last_nonempty;
    return 0;
}

int tf_player_line(const struct tf_lines *L, int line, int *player, struct err *e)
{
    if (L->n < line)
        return err_set(e, line, 1, "missing the player-to-move line (1 or 2)");
    const struct tf_line *pl = &L->line[line - 1];
    if (pl->len == 0)
        return err_set(e, line, 1, "empty player line, expected 1 or 2");
    if (pl->s[0] != '1' && pl->s[0] != '2')
        return err_bad_char(e, line, 1, pl->s[0], "the player to move, 1 or 2");
    if (pl->len > 1)
        return err_bad_char(e, line, 2, pl->s[1], "the end of the line");
    /* tf_split keeps blank lines only before later text: name that text. */
    for (int i = line; i < L->n; i++)
        if (L->line[i].len > 0)
            return err_set(e, i + 1, 1, "unexpected text after the player line");
    *player = pl->s[0] - '0';
    return 0;
}

int tf_write_all(int fd, const void *data, size_t len)
{
    const char *p = data;
    while (len > 0) {
        ssize_t w = write(fd, p, len);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        p += w;
        len -= (size_t)w;
    }
    return 0;
}

int tf_check_creatable(const char *path, struct err *e)
{
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
        return err_set(e, 0, 0, "%s is a folder", path);
    const char *slash = strrchr(path, '/');
    int dir_len = !slash ? 1 : slash == path ? 1 : (int)(slash - path);
    const char *dir = slash ? path : ".";
    char probe[PATH_MAX];
    if (snprintf(probe, sizeof probe, "%.*s/.arena-probe-%ld", dir_len, dir, (long)getpid()) >=
        (int)sizeof probe)
        return err_set(e, 0, 0, "%s: path too long", path);
    int fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0)
        return err_set(e, 0, 0, "cannot create files in %.*s: %s", dir_len, dir, strerror(errno));
    close(fd);
    unlink(probe);
    return 0;
}

int tf_copy_head(int from, long long n, int to)
{
    char buf[8192];
    for (long long off = 0; off < n;) {
        size_t want = n - off < (long long)sizeof buf ? (size_t)(n - off) : sizeof buf;
        ssize_t got = pread(from, buf, want, (off_t)off);
        if (got < 0 && errno == EINTR)
            continue;
        if (got == 0)
            errno = EIO;
        if (got <= 0 || tf_write_all(to, buf, (size_t)got) != 0)
            return -1;
        off += got;
    }
    return 0;
}

/* The length of the valid UTF-8 sequence at p (n bytes left), or 0. */
static size_t utf8_sequence(const unsigned char *p, size_t n)
{
    /* The lead byte gives the length and the range of the second byte
     * (which rules out overlong forms, surrogates and code points past
     * U+10FFFF); later bytes are 0x80-0xBF. */
    size_t len;
    unsigned char lo = 0x80, hi = 0xBF;
    if (p[0] < 0x80)
        return p[0] != 0;
    if (p[0] >= 0xC2 && p[0] <= 0xDF) {
        len = 2;
    } else if (p[0] >= 0xE0 && p[0] <= 0xEF) {
        len = 3;
        lo = p[0] == 0xE0 ? 0xA0 : 0x80;
        hi = p[0] == 0xED ? 0x9F : 0xBF;
    } else if (p[0] >= 0xF0 && p[0] <= 0xF4) {
        len = 4;
        lo = p[0] == 0xF0 ? 0x90 : 0x80;
        hi = p[0] == 0xF4 ? 0x8F : 0xBF;
    } else {
        return 0;
    }
    if (n < len || p[1] < lo || p[1] > hi)
        return 0;
    for (size_t i = 2; i < len; i++)
        if (p[i] < 0x80 || p[i] > 0xBF)
            return 0;
    return len;
}

size_t tf_utf8_copy(char *dst, const char *src, size_t len)
{
    const unsigned char *p = (const unsigned char *)src;
    size_t n = 0;
    for (size_t i = 0; i < len;) {
        size_t k = utf8_sequence(p + i, len - i);
        if (k == 0) {
            dst[n++] = '?';
            i++;
        } else {
            memcpy(dst + n, p + i, k);
            n += k;
            i += k;
        }
    }
    dst[n] = '\0';
    return n;
}

void tf_place(const char *text, const char *at, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (const char *p = text; p < at; p++) {
        if (*p == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

int tf_no_nul(const char *text, size_t len, struct err *e)
{
    const char *nul = memchr(text, '\0', len);
    if (!nul)
        return 0;
    int line, col;
    tf_place(text, nul, &line, &col);
    return err_set(e, line, col, "NUL byte in a text file");
}

struct cJSON *tf_json_object(const char *text, size_t len, const char *not_object,
                             struct err *e)
{
    if (tf_no_nul(text, len, e) != 0)
        return NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root || !cJSON_IsObject(root)) {
        tf_place(text, root ? text : end ? end : text, &e->line, &e->col);
        snprintf(e->msg, sizeof e->msg, "%s", root ? not_object : "not valid JSON");
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* Creates a temporary file next to path (path.tmp<pid>-<n>, the first n
 * not taken) into *tmp (malloc'd). Opened with mode 0666 so the process's
 * umask gives it the mode a plain fopen would, with no umask() round trip
 * (which would change process-wide state) and no fchmod. Returns the
 * descriptor, or -1 with errno set and *tmp NULL. */
static int create_temp(const char *path, char **tmp)
{
    size_t room = strlen(path) + TF_TEMP_SUFFIX_MAX;
    char *name = malloc(room);
    if (!name) {
        *tmp = NULL;
        errno = ENOMEM;
        return -1;
    }
    long pid = (long)getpid();
    for (int n = 0; n < TF_TEMP_TRIES; n++) {
        snprintf(name, room, "%s.tmp%ld-%d", path, pid, n);
        int fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, TF_NEW_FILE_MODE);
        if (fd >= 0) {
            *tmp = name;
            return fd;
        }
        if (errno != EEXIST)
            break;
    }
    int saved = errno;
    free(name);
    *tmp = NULL;
    errno = saved;
    return -1;
}

/* tf_write_atomic; with keep, the new file is flock'd (exclusively: it is
 * new, nobody else holds it) before the rename and stays open in *keep. */
static int write_atomic(const char *path, const char *data, size_t len, int *keep,
                        struct err *e)
{
    char *tmp;
    int fd = create_temp(path, &tmp);
    if (fd < 0)
        return err_set(e, 0, 0, "cannot create: %s", strerror(errno));
    int rc = 0, saved = 0;
    if (tf_write_all(fd, data, len) != 0) {
        saved = errno;
        rc = -1;
    }
    if (rc == 0 && fsync(fd) != 0) {
        saved = errno;
        rc = -1;
    }
    if (rc == 0 && keep && flock(fd, LOCK_EX | LOCK_NB) != 0) {
        saved = errno;
        rc = -1;
    }
    if ((rc != 0 || !keep) && close(fd) != 0 && rc == 0) {
        saved = errno;
        rc = -1;
    }
    if (rc == 0 && rename(tmp, path) != 0) {
        saved = errno;
        rc = -1;
        if (keep)
            close(fd);
    }
    if (rc != 0) {
        unlink(tmp);
        err_set(e, 0, 0, "cannot write: %s", strerror(saved));
    } else if (keep) {
        *keep = fd;
    }
    free(tmp);
    return rc;
}

int tf_write_atomic(const char *path, const char *data, size_t len, struct err *e)
{
    return write_atomic(path, data, len, NULL, e);
}

int tf_write_atomic_locked(const char *path, const char *data, size_t len, int *fd,
                           struct err *e)
{
    return write_atomic(path, data, len, fd, e);
}

enum tf_getline_result tf_getline(FILE *in, char *buf, size_t max)
{
    size_t n = 0;
    int c, too_long = 0;
    while ((c = getc(in)) != EOF && c != '\n') {
        if (n == max) {
            too_long = 1;
            continue;
        }
        buf[n++] = c ? (char)c : '\x01';
    }
    buf[n] = '\0';
    if (c == EOF && ferror(in))
        return TF_LINE_FAILED;
    if (c == EOF && n == 0 && !too_long)
        return TF_LINE_EOF;
    return too_long ? TF_LINE_TOO_LONG : TF_LINE_OK;
}

/* The names of the folders walked into, from the top: a stack of malloc'd
 * strings, so the walk holds one descriptor whatever the depth. */
struct walk {
    int n, cap;
    char **name;
};

static int walk_push(struct walk *w, const char *name)
{
    if (w->n == w->cap) {
        int cap = w->cap ? 2 * w->cap : 16;
        char **grown = realloc(w->name, (size_t)cap * sizeof *grown);
        if (!grown)
            return -1;
        w->name = grown;
        w->cap = cap;
    }
    return (w->name[w->n] = strdup(name)) ? (w->n++, 0) : -1;
}

/* The folder open as fd read through a descriptor of its own (closedir
 * leaves fd open), or NULL with errno. */
static DIR *open_dup(int fd)
{
    int copy = dup(fd);
    DIR *d = copy < 0 ? NULL : fdopendir(copy);
    if (!d && copy >= 0)
        close(copy);
    return d;
}

/* Empties the folder open as fd of everything it can unlink; returns 0
 * when it is empty, 1 with *sub set (malloc'd) when a folder in it must be
 * walked first, -1 with errno on a failure. */
static int empty_level(int fd, char **sub)
{
    DIR *d = open_dup(fd);
    if (!d)
        return -1;
    rewinddir(d);
    int rc = 0;
    struct dirent *en;
    while (rc == 0 && (errno = 0, en = readdir(d))) {
        const char *nm = en->d_name;
        if (strcmp(nm, ".") == 0 || strcmp(nm, "..") == 0)
            continue;
        if (unlinkat(fd, nm, 0) == 0 || errno == ENOENT)
            continue;
        if (errno != EISDIR && errno != EPERM)
            rc = -1;
        else if (unlinkat(fd, nm, AT_REMOVEDIR) == 0)
            continue;
        else if (errno != ENOTEMPTY && errno != EEXIST && errno != EACCES && errno != EPERM)
            rc = -1;
        else
            rc = (*sub = strdup(nm)) ? 1 : -1;
    }
    if (rc == 0 && errno)
        rc = -1;
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
}

/* Opens folder name in fd for the walk, its permissions restored first (a
 * chmod 000 folder would keep its content). -1 with errno. */
static int enter(int fd, const char *name)
{
    fchmodat(fd, name, S_IRWXU, 0);
    return openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

int tf_remove_at(int dir_fd, const char *name)
{
    if (unlinkat(dir_fd, name, 0) == 0 || errno == ENOENT)
        return 0;
    if (errno != EISDIR && errno != EPERM)
        return -1;
    struct walk w = { 0, 0, NULL };
    int fd = enter(dir_fd, name), rc = fd < 0 ? -1 : 0;
    while (rc == 0) {
        fchmod(fd, S_IRWXU);
        char *sub = NULL;
        int level = empty_level(fd, &sub);
        if (level < 0) {
            rc = -1;
        } else if (level == 1) {
            /* Down one level: the name is kept, the descriptor replaced. */
            int child = walk_push(&w, sub) == 0 ? enter(fd, sub) : -1;
            free(sub);
            if (child < 0) {
                rc = -1;
            } else {
                close(fd);
                fd = child;
            }
        } else if (w.n == 0) {
            break;
        } else {
            /* Up one level, and the folder just emptied goes. No engine
             * runs now: ".." is the folder we came from. */
            int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
            close(fd);
            fd = up;
            char *done = w.name[--w.n];
            rc = fd < 0 || unlinkat(fd, done, AT_REMOVEDIR) != 0 ? -1 : 0;
            free(done);
        }
    }
    int saved = errno;
    if (fd >= 0)
        close(fd);
    for (int i = 0; i < w.n; i++)
        free(w.name[i]);
    free(w.name);
    if (rc == 0 && unlinkat(dir_fd, name, AT_REMOVEDIR) != 0 && errno != ENOENT)
        return -1;
    errno = saved;
    return rc;
}

int tf_empty_at(int dir_fd, char *left, size_t cap)
{
    DIR *d = open_dup(dir_fd);
    if (!d)
        return -1;
    rewinddir(d);   /* the copy shares the offset of the last listing */
    int rc = 0;
    for (struct dirent *en; !rc && (en = readdir(d));)
        if (strcmp(en->d_name, ".") != 0 && strcmp(en->d_name, "..") != 0 &&
            tf_remove_at(dir_fd, en->d_name) != 0) {
            snprintf(left, cap, "%s", en->d_name);
            rc = -1;
        }
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
}

int tf_remove_tree(const char *path)
{
    char parent[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if ((size_t)snprintf(parent, sizeof parent, "%s", path) >= sizeof parent) {
        errno = ENAMETOOLONG;
        return -1;
    }
    const char *base = slash ? slash + 1 : path;
    if (!*base) {
        errno = EINVAL;
        return -1;
    }
    if (slash)
        parent[slash == path ? 1 : slash - path] = '\0';
    else
        strcpy(parent, ".");
    int fd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    int rc = tf_remove_at(fd, base);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}
