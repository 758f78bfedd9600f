/* datadir.c - the compiled-in folder of the installed data (datadir.h). */
#include <stdio.h>
#include "arena/datadir.h"

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
