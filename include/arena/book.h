/*
 * book.h - opening books: one line of move texts (separated by blanks) per
 * opening, each checked legal from the start when read (rules.h plays
 * them), none ending the game.
 *
 * Representation: the lines malloc'd, owned by the book (book_free).
 */
#ifndef ARENA_BOOK_H
#define ARENA_BOOK_H

#include <stddef.h>
#include "arena/err.h"
#include "arena/game.h"
#include "arena/limits.h"


struct book {
    int n;
    char **line;
};

/* Reads path (at most BOOK_CAP bytes): blank lines and lines starting with
 * '#' are skipped; a line must leave the game unfinished. Returns 0, or -1
 * with e holding line and column of the first bad move (line 0: the file
 * cannot be read, or holds no opening) and b empty. Free with book_free. */
int book_read(const struct game *g, const char *path, struct book *b, struct err *e);
/* The same for a book already in memory: len bytes at text, NUL-terminated
 * at text[len] and writable (lines are cut in place). */
int book_parse(const struct game *g, char *text, size_t len, struct book *b, struct err *e);
void book_free(struct book *b);

#endif
