/* datadir.c - the compiled-in folder of the installed data (datadir.h). */
#include <stdio.h>
#include <unistd.h>
#include "arena/datadir.h"

/* The Makefile passes $(datadir)/arena; builds that do not (the fuzz
 * targets) get the default prefix's. */
#ifndef ARENA_DATADIR
#define ARENA_DATADIR "/usr/local/share/arena"
#endif
/* The tree the binary was built in ("." when nobody said). */
#ifndef ARENA_SRCDIR
#define ARENA_SRCDIR "."
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

const char *datadir_script(const char *name, char *buf, size_t cap)
{
    if (access(datadir_path(name, buf, cap), R_OK) == 0)
        return buf;
    snprintf(buf, cap, "%s/scripts/%s", ARENA_SRCDIR, name);
    return buf;
}
