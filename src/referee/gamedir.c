/*
 * gamedir.c - the game's private folder and the keep folder (gamedir.h).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/gamedir.h"
#include "arena/textfile.h"

int gamedir_keep_open(const char *keep, long index, char *dir, size_t cap, struct err *e)
{
    snprintf(dir, cap, "%s/game-%ld", keep, index);
    if (tf_remove_tree(dir) != 0 && errno != ENOENT)
        return err_set(e, 0, 0, "cannot empty %s: %s", dir, strerror(errno));
    if (mkdir(keep, 0700) != 0 && errno != EEXIST)
        return err_set(e, 0, 0, "cannot create %s: %s", keep, strerror(errno));
    if (mkdir(dir, 0700) != 0)
        return err_set(e, 0, 0, "cannot create %s: %s", dir, strerror(errno));
    return 0;
}

/* 1 when path (not followed if a symlink) is the folder open as dir_fd. */
static int names_folder(const char *path, int dir_fd)
{
    struct stat at_path, ours;
    return lstat(path, &at_path) == 0 && fstat(dir_fd, &ours) == 0 &&
           S_ISDIR(at_path.st_mode) && at_path.st_dev == ours.st_dev &&
           at_path.st_ino == ours.st_ino;
}

int gamedir_open(struct gamedir *d, struct err *e)
{
    const char *tmp = getenv("TMPDIR");
    const char *base = tmp && *tmp ? tmp : "/tmp";
    snprintf(d->path, sizeof d->path, "%s/arena-game-XXXXXX", base);
    d->fd = -1;
    d->mounted = 0;
    if (!mkdtemp(d->path))
        return err_set(e, 0, 0, "cannot create a game folder in %s: %s", base, strerror(errno));
    /* Engines run in their own folder: {in} and {out} must be absolute. */
    char abs[PATH_MAX];
    if (d->path[0] != '/' && realpath(d->path, abs) && strlen(abs) < sizeof d->path)
        strcpy(d->path, abs);
    d->fd = open(d->path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d->fd < 0) {
        int saved = errno;
        rmdir(d->path);
        return err_set(e, 0, 0, "cannot open %s: %s", d->path, strerror(saved));
    }
    return 0;
}

void gamedir_adopt(struct gamedir *d, int fd)
{
    assert(d->fd >= 0 && fd >= 0);
    close(d->fd);
    d->fd = fd;
    d->mounted = 1;
}

/* Removes whatever is at the folder's path now (tf_remove_tree follows no
 * symlink, so a link an engine put there goes, not what it points to), and
 * the folder itself where an engine moved it: /proc names its path now, and
 * it goes only if that path still leads to our folder. A mounted folder's
 * content goes with its sandbox; the path is the empty folder beneath. */
int gamedir_close(struct gamedir *d, struct err *e)
{
    int rc = tf_remove_tree(d->path) != 0 && errno != ENOENT ? -1 : 0;
    if (rc)
        err_set(e, 0, 0, "cannot remove %s: %s; it is left on disk", d->path, strerror(errno));
    char fd_link[32], moved[PATH_MAX];
    snprintf(fd_link, sizeof fd_link, "/proc/self/fd/%d", d->fd);
    ssize_t n = d->mounted ? -1 : readlink(fd_link, moved, sizeof moved - 1);
    if (n > 0) {
        moved[n] = '\0';
        if (names_folder(moved, d->fd) && tf_remove_tree(moved) != 0 && !rc)
            rc = err_set(e, 0, 0, "cannot remove %s: %s; it is left on disk", moved,
                         strerror(errno));
    }
    close(d->fd);
    d->fd = -1;
    return rc;
}

/* Removes everything in the mounted folder: its tmpfs is capped, so what
 * the last move left must not keep the board out. 0, or -1 with e. */
static int empty_folder(struct gamedir *d, struct err *e)
{
    char left[NAME_MAX + 1] = "";
    if (tf_empty_at(d->fd, left, sizeof left) != 0)
        return err_set(e, 0, 0, "cannot remove %s/%s: %s", d->path, left, strerror(errno));
    return 0;
}

/* Makes the folder ready for a move. No process of an engine runs now
 * (runner.h), so nothing changes it between these checks and the move. */
int gamedir_reset(struct gamedir *d, struct err *e)
{
    if (!d->mounted && !names_folder(d->path, d->fd)) {
        /* The last engine moved, removed or replaced it: a new one. */
        if (gamedir_close(d, e) != 0)
            return -1;
        return gamedir_open(d, e);
    }
    if (d->mounted)
        return empty_folder(d, e);
    fchmod(d->fd, 0700);
    static const char *const names[] = { GAMEDIR_IN, GAMEDIR_OUT };
    for (int i = 0; i < 2; i++)
        if (tf_remove_at(d->fd, names[i]) != 0)
            return err_set(e, 0, 0, "cannot remove %s/%s: %s", d->path, names[i],
                           strerror(errno));
    return 0;
}

/* Writes text to name, a new file of mode `mode`: in a folder of the
 * referee's own, O_EXCL and O_NOFOLLOW make sure it is no file of anyone
 * else's. */
static int write_new(int dir_fd, const char *name, const char *text, size_t len, mode_t mode)
{
    int fd = openat(dir_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return -1;
    int rc = tf_write_all(fd, text, len);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

int gamedir_keep_ply(const char *dir, int ply, const char *board, size_t board_len,
                     const char *out, long out_len, struct err *e)
{
    int dir_fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dir_fd < 0)
        return err_set(e, 0, 0, "cannot open %s: %s", dir, strerror(errno));
    char name[GAMEDIR_PLY_NAME_MAX];
    snprintf(name, sizeof name, "ply-%03d-in.txt", ply);
    int rc = write_new(dir_fd, name, board, board_len, 0600);
    if (rc == 0 && out_len >= 0) {
        snprintf(name, sizeof name, "ply-%03d-out.txt", ply);
        rc = write_new(dir_fd, name, out, (size_t)out_len, 0600);
    }
    if (rc != 0)
        err_set(e, 0, 0, "cannot write %s/%s: %s", dir, name, strerror(errno));
    close(dir_fd);
    return rc;
}

int gamedir_keep_err(const char *dir, int ply, int from, long long len, struct err *e)
{
    if (len == 0)
        return 0;
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/ply-%03d-err.txt", dir, ply);
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    int rc = fd < 0 ? -1 : tf_copy_head(from, len, fd);
    if (rc != 0)
        err_set(e, 0, 0, "cannot write %s: %s", path, strerror(errno));
    if (fd >= 0)
        close(fd);
    return rc;
}

int gamedir_write_board(const struct gamedir *d, const char *text, size_t len)
{
    /* Readable by others: a root referee's sandboxed engine is not root
     * (sandbox.h); the folder itself is private. */
    return write_new(d->fd, GAMEDIR_IN, text, len, 0644);
}

/* Through the folder's descriptor: never through a symlink (O_NOFOLLOW),
 * never from a FIFO or a device (O_NONBLOCK: opening one cannot block, and
 * it is no regular file). */
long gamedir_read_output(const struct gamedir *d, char *buf, long cap, char *reason)
{
    int fd = openat(d->fd, GAMEDIR_OUT, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        strcpy(reason, errno == ENOENT ? "no-output" : "unreadable");
        return -1;
    }
    struct stat st;
    long n = -1;
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        strcpy(reason, "unreadable");
    } else if (st.st_size > cap) {
        strcpy(reason, "oversized");
    } else {
        ssize_t r;
        n = 0;
        /* One byte past the cap, so a file that grew is noticed. */
        while ((r = read(fd, buf + n, (size_t)(cap + 1 - n))) > 0 ||
               (r < 0 && errno == EINTR))
            n += r > 0 ? r : 0;
        if (r < 0 || n > cap) {
            strcpy(reason, r < 0 ? "unreadable" : "oversized");
            n = -1;
        } else {
            buf[n] = '\0';
        }
    }
    close(fd);
    return n;
}


long long gamedir_output_size(const struct gamedir *d)
{
    struct stat st;
    if (fstatat(d->fd, GAMEDIR_OUT, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode))
        return -1;
    return (long long)st.st_size;
}
