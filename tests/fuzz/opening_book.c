/*
 * opening_book.c - fuzz target for the referee's opening books
 * (book_parse, behind book_read: --openings FILE and a config
 * file's "openings"), with every game's move-text parser under it.
 *
 * Input: one byte choosing the game (its index in the registry, modulo the
 * number of games), then the bytes of a book file.
 *
 * Properties:
 *   - a rejection has a message and a place, except "no opening in the
 *     book" (no line but blanks and comments);
 *   - an accepted book has at least one line, and each line, played by
 *     play_opening as a match would, gives a legal sequence: every move text
 *     it records parses (parse_move) in the position before it, and the
 *     position after the last is not finished (a game is left to play).
 */
#include <stdlib.h>
#include <string.h>
#include "arena/play.h"
#include "arena/registry.h"
#include "fuzz.h"

static void check_line(const struct game *g, const struct book *b, long i)
{
    struct play_rules r = { .game = g, .book = b };
    unsigned char pos[GAME_MAX_STATE], replay[GAME_MAX_STATE];
    struct game_record rec;
    rec_init(&rec, 1, i);
    FUZZ_CHECK(play_opening(&r, i, pos, &rec) == 0, "line %ld: out of memory", i);
    game_init(g, replay);
    for (int k = 0; k < rec.nopening; k++) {
        int move;
        FUZZ_CHECK(game_result(g, replay) < 0 && g->parse_move(replay, rec.opening[k], &move) == 0,
                   "line %ld: '%s' is not a legal move in turn", i, rec.opening[k]);
        g->play(replay, move);
    }
    FUZZ_CHECK(memcmp(pos, replay, g->state_size) == 0, "line %ld: the opening's position is "
               "not its moves' position", i);
    FUZZ_CHECK(game_result(g, pos) < 0, "line %ld ends the game: '%s'", i, b->line[i]);
    rec_free(&rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int ngames = 0;
    while (registry_all()[ngames])
        ngames++;
    const struct game *g = registry_all()[data[0] % ngames];
    char *text = fuzz_text(data + 1, size - 1);
    struct book b;
    struct err e = { 0, 0, "" };
    if (book_parse(g, text, size - 1, &b, &e) != 0) {
        int empty = strcmp(e.msg, "no opening in the book") == 0;
        fuzz_check_err(&e, !empty, g->name);
        FUZZ_CHECK(!empty || e.line == 0, "'no opening' placed at %d:%d", e.line, e.col);
    } else {
        FUZZ_CHECK(b.n >= 1, "a book of %d lines", b.n);
        for (long i = 0; i < b.n; i++)
            check_line(g, &b, i);
        book_free(&b);
    }
    free(text);
    return 0;
}
