/*
 * features.h - the 14 board attributes of the Q-learning Connect-4 player
 * (seed: qlearning-connect4-documentation-he.txt), on the Connect-4 bitboard.
 *
 * The learner values a move by the board it leaves: f(s, a) are the
 * attributes of the position after the player to move in s drops a disc in
 * column a. Seven attributes look at the board as the player who just moved
 * ("mine"), the same seven as the other player, the rival, who moves next
 * ("Rival" in the name). Each is a count scaled into [0, 1] by a fixed
 * divisor, so the weights of different attributes are comparable.
 *
 * A threat of a player is an empty cell that would complete a line of four
 * (in any of the four directions) with three of that player's discs
 * (c4_winning_cells); it need not be playable yet. Rows are numbered from 1
 * at the bottom, as in the seed. Per player:
 *
 *   2Threats             pairs of threats directly one above the other in a
 *                        column (three stacked threats are two pairs) / 35,
 *                        the pairs a column of six cells can hold, times 7
 *   3InRow               threats / 42
 *   4InRow               1 when the player holds a line of four, else 0
 *   OddThreats           threats on rows 1, 3, 5 / 42
 *   EvenThreats          threats on rows 2, 4, 6 / 42
 *   3InRowWin            threats that are playable now (bottom row, or the
 *                        cell below is filled): wins in one move / 7
 *   SlotCreates2Threats  playable cells where the player's disc would create
 *                        at least two new threats (cells that were not
 *                        threats before, so the disc is in both lines) that
 *                        are playable once the disc is there / 7
 *
 * The seed divides 3InRow by 42 and says only "like 3InRow" for the odd and
 * even counts, so they keep its divisor; it leaves 2Threats' constant open.
 */
#ifndef ARENA_FEATURES_H
#define ARENA_FEATURES_H

#include <stdint.h>
#include "arena/connect4.h"

enum feat_id {
    FEAT_2THREATS,
    FEAT_3INROW,
    FEAT_4INROW,
    FEAT_ODD_THREATS,
    FEAT_EVEN_THREATS,
    FEAT_3INROW_WIN,
    FEAT_SLOT_CREATES_2THREATS,
    FEAT_PER_SIDE,                    /* attributes per point of view */
    FEAT_RIVAL = FEAT_PER_SIDE,       /* offset of the rival's seven */
    FEAT_COUNT = 2 * FEAT_PER_SIDE,   /* 14 */
};

/* The divisors that scale the counts into [0, 1]. */
#define FEAT_PAIRS_MAX (C4_WIDTH * (C4_HEIGHT - 1))   /* 2Threats: 35 */
#define FEAT_CELLS_MAX C4_CELLS                       /* 3InRow, Odd, Even: 42 */
#define FEAT_SLOTS_MAX C4_WIDTH                       /* 3InRowWin, SlotCreates: 7 */

/* The attribute's name as the weights file writes it ("2Threats",
 * "Rival2Threats"); i in [0, FEAT_COUNT). */
const char *feat_name(int i);

/* The raw counts, one function per attribute. x: the player's discs; occupied:
 * every disc on the board (x is a subset). */
int feat_2threats(uint64_t x, uint64_t occupied);
int feat_3inrow(uint64_t x, uint64_t occupied);
int feat_4inrow(uint64_t x);
int feat_odd_threats(uint64_t x, uint64_t occupied);
int feat_even_threats(uint64_t x, uint64_t occupied);
int feat_3inrow_win(uint64_t x, uint64_t occupied);
int feat_slot_creates_2threats(uint64_t x, uint64_t occupied);

/* All 14 scaled attributes: f[0..6] for mine, f[7..13] for rival. */
void feat_compute(uint64_t mine, uint64_t rival, double f[FEAT_COUNT]);

/* f(s, a): the attributes of p after its side to move drops a disc in col,
 * which must be playable, from the mover's point of view. */
void feat_after(const struct c4_pos *p, int col, double f[FEAT_COUNT]);

#endif
