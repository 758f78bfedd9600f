/*
 * board.h (private to src/games/connect4) - the game-interface functions the
 * two Connect-4 rule sets share. Each takes and returns what the matching
 * member of struct game documents (game.h); positions are struct c4_pos.
 */
#ifndef ARENA_C4_BOARD_H
#define ARENA_C4_BOARD_H

#include "arena/connect4.h"
#include "arena/textfile.h"

void c4g_init(void *state);
/* Parses the common format; a rule set may check more afterwards. */
int c4g_parse(void *state, const char *text, size_t len, struct err *e);
size_t c4g_format(const void *state, char *buf);
int c4g_gen(const void *state, int *moves);
void c4g_play(void *state, int move);
int c4g_to_move(const void *state);
int c4g_priority(const void *state, int move);
uint64_t c4g_hash(const void *state);
int c4g_move_text(const void *state, int move, char *buf, size_t cap);
int c4g_parse_move(const void *state, const char *text, int *move);
void c4g_print(FILE *out, const void *state);
void c4g_print_move(FILE *out, const void *after, int move, int mover);
int c4g_explain(const void *before, const char *text, size_t len, char *why, size_t cap);

/* Bench positions shared by both rule sets (none finishes either game). */
extern const char *const c4g_bench[];

/* The members of struct game both rule sets share. */
#define C4_SHARED_MEMBERS                  \
    .state_size = sizeof(struct c4_pos),   \
    .init = c4g_init,                      \
    .format = c4g_format,                  \
    .gen = c4g_gen,                        \
    .play = c4g_play,                      \
    .to_move = c4g_to_move,                \
    .priority = c4g_priority,              \
    .hash = c4g_hash,                      \
    .move_text = c4g_move_text,            \
    .parse_move = c4g_parse_move,          \
    .print = c4g_print,                    \
    .print_move = c4g_print_move,          \
    .explain = c4g_explain,                \
    .bench = c4g_bench

/* The 1-based line of the player-to-move line in every board file. */
#define C4_PLAYER_LINE (C4_HEIGHT + 1)

#endif
