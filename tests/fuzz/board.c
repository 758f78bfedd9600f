/*
 * board.c - fuzz target for one game's board-file reader (game->parse),
 * compiled once per game with -DFUZZ_GAME="<registry name>" (targets
 * board_NAME, one per GAME line of src/engine/registry.c).
 *
 * Input: the bytes of a board file, as the engine, the referee and the seed
 * front ends read it (game_read_file hands the whole file to parse).
 *
 * Properties:
 *   - a rejection has a message and a place (line and column >= 1);
 *   - parse writes every byte of the position (game.h: positions compare
 *     with memcmp): parsing into buffers filled with 0x00 and with 0xFF
 *     gives equal bytes;
 *   - an accepted board formats to a canonical text that parses back to the
 *     same position and formats to the same text (a fixpoint);
 *   - every legal move of it writes a move text that parses back to the
 *     same move, and the position after it is canonical too (format, parse,
 *     same bytes); values stay within the bounds game.h states.
 */
#include <stdlib.h>
#include <string.h>
#include "arena/game.h"
#include "arena/registry.h"
#include "fuzz.h"

#ifndef FUZZ_GAME
#error "compile with -DFUZZ_GAME=\"name\""
#endif

/* Parses text into a fresh position; the same for buffers pre-filled with
 * fill (so unwritten bytes show). */
static int parse_filled(const struct game *g, unsigned char *state, int fill, const char *text,
                        size_t len, struct err *e)
{
    memset(state, fill, GAME_MAX_STATE);
    memset(e, 0, sizeof *e);
    return g->parse(state, text, len, e);
}

/* format(state) parses back to state and formats to the same text. */
static void check_canonical(const struct game *g, const unsigned char *state, const char *what)
{
    char text[GAME_FORMAT_MAX], again[GAME_FORMAT_MAX];
    unsigned char back[GAME_MAX_STATE];
    struct err e;
    size_t len = g->format(state, text);
    FUZZ_CHECK(len < GAME_FORMAT_MAX && strlen(text) == len, "%s: format wrote %zu bytes", what,
               len);
    int rc = parse_filled(g, back, 0xA5, text, len, &e);
    FUZZ_CHECK(rc == 0, "%s: the canonical text is rejected at %d:%d: %s\n%s", what, e.line, e.col,
               e.msg, text);
    FUZZ_CHECK(memcmp(back, state, g->state_size) == 0,
               "%s: the canonical text parses to another position\n%s", what, text);
    size_t len2 = g->format(back, again);
    FUZZ_CHECK(len2 == len && memcmp(text, again, len) == 0,
               "%s: format is not a fixpoint:\n%s---\n%s", what, text, again);
}

static void check_moves(const struct game *g, const unsigned char *state)
{
    int value;
    if (g->terminal(state, &value)) {
        int mag = value < 0 ? -value : value;
        FUZZ_CHECK(value == 0 || (mag >= SCORE_WIN && mag < SCORE_WIN + SCORE_MARGIN_MAX),
                   "terminal value %d out of range", value);
        return;
    }
    int ev = g->evaluate(state);
    FUZZ_CHECK(ev > -SCORE_EVAL_MAX && ev < SCORE_EVAL_MAX, "evaluate %d out of range", ev);
    int to_move = g->to_move(state);
    FUZZ_CHECK(to_move == 1 || to_move == 2, "to_move %d", to_move);
    int moves[GAME_MAX_MOVES];
    int n = g->gen(state, moves);
    FUZZ_CHECK(n >= 0 && n <= GAME_MAX_MOVES, "gen returned %d", n);
    for (int i = 0; i < n; i++) {
        char text[GAME_MOVE_TEXT_MAX];
        int len = g->move_text(state, moves[i], text, sizeof text), back = -1;
        FUZZ_CHECK(len > 0 && len < GAME_MOVE_TEXT_MAX && (size_t)len == strlen(text),
                   "move_text of move %d returned %d", moves[i], len);
        FUZZ_CHECK(g->parse_move(state, text, &back) == 0 && back == moves[i],
                   "move text '%s' parses to %d, not %d", text, back, moves[i]);
        unsigned char child[GAME_MAX_STATE];
        memcpy(child, state, g->state_size);
        g->play(child, moves[i]);
        check_canonical(g, child, text);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const struct game *g = registry_find(FUZZ_GAME);
    FUZZ_CHECK(g != NULL, "no game %s", FUZZ_GAME);
    /* parse takes text and length; the readers' buffers end in a NUL
     * (tf_read), so this one does too. */
    char *text = fuzz_text(data, size);
    unsigned char a[GAME_MAX_STATE], b[GAME_MAX_STATE];
    struct err ea, eb;
    int ra = parse_filled(g, a, 0x00, text, size, &ea);
    int rb = parse_filled(g, b, 0xFF, text, size, &eb);
    FUZZ_CHECK(ra == rb, "parse returned %d, then %d", ra, rb);
    if (ra != 0) {
        FUZZ_CHECK(ra == -1, "parse returned %d", ra);
        fuzz_check_err(&ea, 1, FUZZ_GAME);
        FUZZ_CHECK(ea.line == eb.line && ea.col == eb.col && strcmp(ea.msg, eb.msg) == 0,
                   "two parses, two errors");
    } else {
        FUZZ_CHECK(memcmp(a, b, g->state_size) == 0, "parse left bytes of the position unwritten");
        check_canonical(g, a, "the board");
        check_moves(g, a);
    }
    free(text);
    return 0;
}
