/* datadir.c - the compiled-in folder of the installed data (datadir.h). */
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "arena/datadir.h"

/* How far up from its own file an uninstalled binary looks for the source
 * tree: bin/referee is two levels below the tree, and
 * build/check/bin/referee (make SAN=1) four, the last level looked at. */
#define SRC_TREE_LEVELS 4

/* Where each installed file comes from in the source tree (make install
 * copies it from there). */
static const struct {
    const char *name, *source;
} sources[] = {
    { DATA_QLEARN_WEIGHTS, "fixtures/learn/trained.weights" },
    { DATA_C4_BOOK, "fixtures/connect4/book.txt" },
    { DATA_PLOT_BENCH, "scripts/plot-bench.sh" },
};

/* The Makefile passes $(datadir)/arena; builds that do not (the fuzz
 * targets) get the default prefix's. */
#ifndef ARENA_DATADIR
#define ARENA_DATADIR "/usr/local/share/arena"
#endif

const char *datadir(void)
{
    return ARENA_DATADIR;
}

const char *datadir_path(const char *name, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s/%s", ARENA_DATADIR, name);
    return buf;
}

/* Cuts path (a file's or a folder's) to its folder; 0 when there is none
 * left above it. */
static int up(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash || slash == path)
        return 0;
    *slash = '\0';
    return 1;
}

static const char *source_of(const char *name)
{
    for (size_t i = 0; i < sizeof sources / sizeof sources[0]; i++)
        if (strcmp(sources[i].name, name) == 0)
            return sources[i].source;
    return NULL;
}

const char *datadir_find(const char *name, char *buf, size_t cap)
{
    const char *source = source_of(name);
    assert(source != NULL);
    if (access(datadir_path(name, buf, cap), R_OK) == 0)
        return buf;
    /* Uninstalled: the file's source in the tree the running binary sits
     * in, found from the binary itself (no build path is compiled in, so
     * builds in different folders are identical). */
    char dir[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", dir, sizeof dir - 1);
    dir[n > 0 ? n : 0] = '\0';
    for (int level = 0; n > 0 && up(dir) && level < SRC_TREE_LEVELS; level++) {
        /* dir: the binary's folder, then the folders above it */
        if (level > 0 && (size_t)snprintf(buf, cap, "%s/%s", dir, source) < cap &&
            access(buf, R_OK) == 0)
            return buf;
    }
    return datadir_path(name, buf, cap);
}
