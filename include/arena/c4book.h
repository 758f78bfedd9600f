/*
 * c4book.h - the Connect-4 opening book: the exact scores of the positions
 * near the start, which the solver reads instead of searching them
 * (c4bookmake.h makes one with the solver).
 *
 * File format: the public test sets' lines (c4moves.h), one position per
 * line,
 *
 *   MOVES SCORE      e.g. "4453 -2"; the empty board is " 1"
 *
 * the 1-based column digits played from the empty board, a space, and the
 * position's exact score. So `engine solve BOOK` re-solves a book and checks
 * every line, and any line of a test set is a book line. A position and its
 * mirror image are one entry (their canonical key, c4key.h): a book names at
 * most one of the two, and answers for both. `engine book` writes the lines
 * by number of moves, then by move string; a reader takes them in any order.
 *
 * In memory: one uint64_t per position, sorted for binary search,
 *
 *   bits 8-56  the key (c4key_of)
 *   bits 0-7   the score + C4SCORE_MAX
 *
 * so that 8 bytes hold a position and the table needs no pointers.
 */
#ifndef ARENA_C4BOOK_H
#define ARENA_C4BOOK_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "arena/c4score.h"
#include "arena/err.h"

/* Positions a book may hold: far more than every position up to 10 discs,
 * and a bound on what a hostile file can make the reader allocate. */
#define C4BOOK_MAX_ENTRIES (UINT64_C(1) << 24)
/* What c4book_lookup returns for a position the book does not hold: no
 * score is this low. */
#define C4BOOK_NONE (-C4SCORE_MAX - 1)

struct c4book {
    uint64_t *entry;   /* n entries, sorted; malloc'd, c4book_free frees */
    size_t n;
    int max_moves;     /* discs of the deepest position held; -1 when empty */
};

/* Reads a book from in (the caller names the file: e holds line and column).
 * Every line must be "MOVES SCORE" with a position that is not finished and
 * a score a position with that many discs can have; no position may come
 * twice (or with its mirror image). Returns 0, or -1 with e placed at the
 * first line that does not read, or else at the first line that repeats a
 * position (the book is then empty, nothing to free). */
int c4book_read(FILE *in, struct c4book *b, struct err *e);

/* c4book_read on the file at path; e has line 0 when it cannot be opened. */
int c4book_load(const char *path, struct c4book *b, struct err *e);

void c4book_free(struct c4book *b);

/* The score of the position with canonical key key (c4key.h), or
 * C4BOOK_NONE when the book does not hold it. */
int c4book_lookup(const struct c4book *b, uint64_t key);

#endif
