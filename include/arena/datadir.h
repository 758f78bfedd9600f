/*
 * datadir.h - where the installed data lives, so that installed tools find
 * it without a path: the folder ARENA_DATADIR, compiled in by the Makefile
 * as $(datadir)/arena ($(PREFIX)/share/arena; /usr/local/share/arena when
 * nothing says otherwise). `make install` puts there the shipped
 * Q-learning weights (fixtures/learn/trained.weights), the Connect-4
 * opening book (fixtures/connect4/book.txt) and the plot script
 * (scripts/plot-bench.sh). An uninstalled build finds the same files in
 * the source tree it sits in, so `make test` sees what an installed user
 * gets. An option naming a file (--weights, --book) always wins over the
 * default.
 */
#ifndef ARENA_DATADIR_H
#define ARENA_DATADIR_H

#include <stddef.h>

/* The installed files' names in the folder. */
#define DATA_QLEARN_WEIGHTS "qlearn.weights"
#define DATA_C4_BOOK "connect4-book.txt"
#define DATA_PLOT_BENCH "plot-bench.sh"

/* The compiled-in data folder, without a trailing '/'. */
const char *datadir(void);

/* The installed path of the data file name (one of DATA_*) into buf (cap
 * bytes); returns buf. */
const char *datadir_path(const char *name, char *buf, size_t cap);

/* The path of the data file name (one of DATA_*) into buf (cap bytes): the
 * installed one when it is readable; else the file's source in the tree
 * the running binary sits in (bin/, or build/X/bin/: an uninstalled build
 * reads its own tree's), when readable; failing both, the installed path,
 * whose absence the caller reports. Returns buf. */
const char *datadir_find(const char *name, char *buf, size_t cap);

#endif
