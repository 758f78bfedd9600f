/*
 * gradecopy.h - a folder tree copied by descriptor within limits: a
 * submission's files into its work folder, with their SHA-256 (grade.h),
 * and a build's or an io run's move folder back (gradecheck.h).
 *
 * A submission's folder may change while it is copied (a student who can
 * still write it), so nothing is reached by a path that could lead out of
 * it:
 *   1. The tree is listed folder by folder from the top's descriptor, with
 *      an explicit stack (no recursion: no tree overflows the stack), each
 *      entry lstat'd in its folder (fstatat, AT_SYMLINK_NOFOLLOW). The
 *      listing refuses, as the tree's own fault: a symbolic link (what it
 *      names is outside the tree: never followed, never copied; skipped
 *      instead with skip_links), folders
 *      nested deeper than max_depth, more than max_entries files and
 *      folders, a regular file larger than max_bytes, regular files whose
 *      sizes add up to more than it (st_size: a sparse file counts at its
 *      apparent size, since a copy writes it whole). Fifos, sockets and
 *      devices are skipped.
 *   2. Each listed entry, in byte order of its relative path, is opened
 *      from the top's descriptor one name at a time (openat, O_NOFOLLOW: a
 *      folder swapped for a link after the listing is refused, never
 *      followed), its descriptor fstat'd (still a regular file, no larger
 *      than listed) and copied: folders made (mode 0755), files written
 *      with their mode's 0755 bits, a file there already replaced. Nothing
 *      made after the listing is copied.
 */
#ifndef ARENA_GRADECOPY_H
#define ARENA_GRADECOPY_H

#include "arena/err.h"
#include "arena/sha256.h"

struct gcopy_limits {
    long long max_bytes;   /* the regular files' sizes together */
    long max_entries;      /* files and folders */
    int max_depth;         /* folder levels below the top (its children: 1) */
    int skip_links;        /* a symbolic link skipped (a move folder's build
                            * products, as ever), not refused */
};

/* gcopy_tree's answer when the tree itself is refused. */
#define GCOPY_FAULT 1

/* Copies the tree open as the folder from into the folder open as to
 * (neither descriptor's position used or moved). sha, when not NULL, gets
 * the SHA-256 (hex) of the files as copied, in grade.h's order: each
 * regular file in byte order of its relative path, as the path, a NUL, its
 * size in decimal, a NUL, its bytes. Returns 0; GCOPY_FAULT with e saying
 * what in the tree is refused ("PATH: why", PATH relative to the top and
 * shortened in its middle past GCOPY_SHOWN bytes; "its files hold ..."
 * for the sizes together); or -1 with e when
 * writing the copy failed or memory ran out (the caller's own failure).
 * What was copied before a fault stays: the caller removes it. */
int gcopy_tree(int from, int to, const struct gcopy_limits *lim, char sha[SHA256_HEX],
               struct err *e);

/* Bytes of a relative path a message shows, so the reason after it fits
 * ERR_MSG_MAX. */
#define GCOPY_SHOWN 96

/* bytes as a message says it ("16 MiB", "1.1 GiB", "300 bytes") into buf
 * (32 bytes); returns buf. */
const char *gcopy_size_text(long long bytes, char *buf);

#endif
