/*
 * gamedir.h - the private folder where one game's engines read the board
 * and write their answer, and the keep folder (--keep-files) that keeps
 * each ply's files.
 *
 * The game folder is made with mkdtemp (0700, in TMPDIR), its path absolute
 * (engines run in their own folders). The referee holds
 * it open and reads and writes through that descriptor, never following a
 * symlink there, and before every move makes sure that the path still
 * names it and that neither in.txt nor out.txt is there, so nothing the
 * last engine left (a symlink or a folder where in.txt goes, a renamed,
 * replaced or deleted folder) reaches the referee's own writes or the next
 * move. One folder per game rather than per move: removing a folder costs
 * milliseconds on some file systems.
 */
#ifndef ARENA_GAMEDIR_H
#define ARENA_GAMEDIR_H

#include <limits.h>
#include <stddef.h>
#include "arena/err.h"

#define GAMEDIR_IN "in.txt"      /* the board the engine gets */
#define GAMEDIR_OUT "out.txt"    /* its answer */
#define GAMEDIR_PLY_NAME_MAX 32  /* bytes of a kept file's name, ply-NNN-out.txt */

struct gamedir {
    char path[PATH_MAX - GAMEDIR_PLY_NAME_MAX];
    int fd;                      /* the folder, open; -1: none */
    int mounted;                 /* fd is the sandbox's tmpfs over path
                                  * (gamedir_adopt), not the folder at path */
};

/* Makes a new game folder. 0, or -1 with e filled (d->fd then -1). */
int gamedir_open(struct gamedir *d, struct err *e);
/* Makes the folder ready for a move (a new one if an engine moved, removed
 * or replaced it). Assumes no engine process runs but an engine that stays
 * (persist.h), whose writes meanwhile can make this fail (ENOTEMPTY, errno
 * kept): the caller's to charge to it (play.h's PLAY_FOLDER_RACE). 0, or
 * -1 with e filled and errno set (the folder closed, d->fd -1, when it had
 * to be made again). */
int gamedir_reset(struct gamedir *d, struct err *e);
/* Removes the folder, wherever an engine moved it (tf_remove_tree: by
 * descriptor, permissions restored first); closes it. 0, or -1 with e naming
 * what is left on disk (closed all the same). */
int gamedir_close(struct gamedir *d, struct err *e);

/* From now on the engine's move folder is the sandbox's tmpfs open as fd
 * (sbx_take_move_folder), mounted over d->path where the engine sees it:
 * the referee reads and writes through fd (taken over: closed by
 * gamedir_close), and the folder at d->path, beneath it, stays empty.
 * gamedir_reset then empties it of everything, not only in.txt and out.txt:
 * its size is capped, and nothing an engine left must keep the board out. */
void gamedir_adopt(struct gamedir *d, int fd);

/* Writes the board (len bytes) to in.txt, a new file. 0, or -1 with errno. */
int gamedir_write_board(const struct gamedir *d, const char *text, size_t len);
/* Reads the engine's answer: never through a symlink, never from a FIFO or
 * a device, at most cap bytes into buf (cap + 2 bytes, NUL-terminated).
 * Returns the length, or -1 with the forfeit reason (no-output, unreadable,
 * oversized) in reason (REC_REASON_MAX bytes). */
long gamedir_read_output(const struct gamedir *d, char *buf, long cap, char *reason);

/* The size of the engine's answer when it is a regular file, else -1. */
long long gamedir_output_size(const struct gamedir *d);

/* The keep folder of game index, KEEP/game-I, emptied first (a resumed
 * tournament replays an unfinished game), into dir (cap bytes). 0, or -1
 * with e filled. */
int gamedir_keep_open(const char *keep, long index, char *dir, size_t cap, struct err *e);
/* Keeps ply's files in dir: the board given (ply-NNN-in.txt) and the bytes
 * read from the answer (ply-NNN-out.txt; none when out_len < 0). 0, or -1
 * with e filled. */
int gamedir_keep_ply(const char *dir, int ply, const char *board, size_t board_len,
                     const char *out, long out_len, struct err *e);
/* Keeps what the engine wrote to stderr on ply (the first len bytes of the
 * file open as from) in dir/ply-NNN-err.txt; nothing when len is 0. 0, or
 * -1 with e filled. */
int gamedir_keep_err(const char *dir, int ply, int from, long long len, struct err *e);

#endif
