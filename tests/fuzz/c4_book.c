/*
 * c4_book.c - fuzz target for the Connect-4 opening-book reader
 * (c4book_read: `engine solve --book FILE`), with the line parser of
 * `engine solve` under it.
 *
 * Input: the bytes of a book file.
 *
 * Properties:
 *   - a rejection has a message and a place (line 1 up to one past the
 *     last line, column 1 or more), and leaves an empty book;
 *   - an accepted book holds one entry per line, sorted by key with no key
 *     twice, max_moves the most discs of any line's position; and for
 *     every line, read again on its own, looking its position and its
 *     mirror image up gives the line's score, which lies within what a
 *     position with that many discs can score.
 */
#include <stdlib.h>
#include <string.h>
#include "arena/c4book.h"
#include "arena/c4key.h"
#include "games/connect4/c4moves.h"
#include "fuzz.h"

#define SCORE_BITS 8   /* c4book.h's entry layout: the key above 8 bits */

/* The position with every column mirrored, from the line's move string. */
static uint64_t mirror_key(const char *moves, size_t len)
{
    char m[C4MOVES_LINE_MAX + 1];
    for (size_t i = 0; i < len; i++)
        m[i] = (char)('1' + '7' - moves[i]);
    struct c4_pos p;
    const char *why;
    FUZZ_CHECK(c4moves_parse(m, len, &p, &why) == 0, "the mirror of '%.*s' is refused: %s",
               (int)len, moves, why);
    return c4key_of(&p);
}

static void check_lines(const uint8_t *data, size_t size, const struct c4book *b)
{
    char *copy;
    FILE *in = fuzz_input(data, size, &copy);
    char buf[C4MOVES_LINE_MAX + 1];
    enum tf_getline_result r;
    size_t lines = 0;
    int max_moves = -1;
    while ((r = tf_getline(in, buf, C4MOVES_LINE_MAX)) != TF_LINE_EOF) {
        lines++;
        struct c4moves_line l;
        struct err e = { 0, 0, "" };
        FUZZ_CHECK(c4moves_parse_line(buf, r, (int)lines, &l, &e) == 0 && l.has_score,
                   "line %zu of an accepted book does not parse: %s", lines, e.msg);
        FUZZ_CHECK(l.score >= C4SCORE_LOSE_NEXT(l.pos.moves) && l.score <= C4SCORE_WIN_NOW(l.pos.moves),
                   "line %zu: score %d with %d discs", lines, l.score, l.pos.moves);
        int got = c4book_lookup(b, c4key_of(&l.pos));
        FUZZ_CHECK(got == l.score, "line %zu ('%s'): looked up %d", lines, buf, got);
        got = c4book_lookup(b, mirror_key(buf, l.moves_len));
        FUZZ_CHECK(got == l.score, "line %zu ('%s'): its mirror looked up %d", lines, buf, got);
        if (l.pos.moves > max_moves)
            max_moves = l.pos.moves;
    }
    fclose(in);
    free(copy);
    FUZZ_CHECK(lines == b->n, "%zu lines, %zu entries", lines, b->n);
    FUZZ_CHECK(max_moves == b->max_moves, "max_moves %d, the lines' %d", b->max_moves,
               max_moves);
    for (size_t i = 1; i < b->n; i++)
        FUZZ_CHECK(b->entry[i - 1] >> SCORE_BITS < b->entry[i] >> SCORE_BITS,
                   "entries %zu and %zu out of order or the same key", i - 1, i);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *copy;
    FILE *in = fuzz_input(data, size, &copy);
    struct c4book b;
    struct err e = { 0, 0, "" };
    int rc = c4book_read(in, &b, &e);
    fclose(in);
    free(copy);
    if (rc != 0) {
        fuzz_check_err(&e, 1, "book");
        size_t lines = 0;
        for (size_t i = 0; i < size; i++)
            lines += data[i] == '\n' || data[i] == '\r';
        FUZZ_CHECK((size_t)e.line <= lines + 1, "placed at line %d of at most %zu", e.line,
                   lines + 1);
        FUZZ_CHECK(b.entry == NULL && b.n == 0, "a refused book holds %zu entries", b.n);
        return 0;
    }
    check_lines(data, size, &b);
    c4book_free(&b);
    return 0;
}
