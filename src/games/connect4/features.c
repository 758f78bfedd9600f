/*
 * features.c - the Q-learning player's 14 board attributes (features.h).
 *
 * Every attribute but 4InRow is a count over one player's threat cells, so
 * feat_compute finds them once per side (c4_winning_cells) and the per-
 * attribute functions below share the static counters it uses.
 */
#include "arena/features.h"

/* Rows 1, 3, 5 (bit rows 0, 2, 4) of every column. */
#define FEAT_ODD_ROWS  (C4_BOTTOM_ROW * UINT64_C(0x15))
/* Rows 2, 4, 6 (bit rows 1, 3, 5). */
#define FEAT_EVEN_ROWS (C4_BOTTOM_ROW * UINT64_C(0x2A))
/* Two new playable threats make a slot a trap: the rival can block one. */
#define FEAT_TRAP_THREATS 2

static const char *const feat_names[FEAT_COUNT] = {
    [FEAT_2THREATS] = "2Threats",
    [FEAT_3INROW] = "3InRow",
    [FEAT_4INROW] = "4InRow",
    [FEAT_ODD_THREATS] = "OddThreats",
    [FEAT_EVEN_THREATS] = "EvenThreats",
    [FEAT_3INROW_WIN] = "3InRowWin",
    [FEAT_SLOT_CREATES_2THREATS] = "SlotCreates2Threats",
    [FEAT_RIVAL + FEAT_2THREATS] = "Rival2Threats",
    [FEAT_RIVAL + FEAT_3INROW] = "Rival3InRow",
    [FEAT_RIVAL + FEAT_4INROW] = "Rival4InRow",
    [FEAT_RIVAL + FEAT_ODD_THREATS] = "RivalOddThreats",
    [FEAT_RIVAL + FEAT_EVEN_THREATS] = "RivalEvenThreats",
    [FEAT_RIVAL + FEAT_3INROW_WIN] = "Rival3InRowWin",
    [FEAT_RIVAL + FEAT_SLOT_CREATES_2THREATS] = "RivalSlotCreates2Threats",
};

const char *feat_name(int i)
{
    return feat_names[i];
}

static int popcount(uint64_t m)
{
    return __builtin_popcountll(m);
}

/* A threat directly above a threat: the bit above lies in the same column,
 * and a column's top cell has the always-empty sentinel above it. */
static int stacked_pairs(uint64_t threats)
{
    return popcount(threats & (threats >> 1));
}

static int slot_traps(uint64_t x, uint64_t occupied, uint64_t threats)
{
    int n = 0;
    for (uint64_t slots = c4_playable_cells(occupied); slots; slots &= slots - 1) {
        uint64_t cell = slots & -slots;
        uint64_t after = occupied | cell;
        uint64_t fresh = c4_winning_cells(x | cell, after) & ~threats;
        if (popcount(fresh & c4_playable_cells(after)) >= FEAT_TRAP_THREATS)
            n++;
    }
    return n;
}

int feat_2threats(uint64_t x, uint64_t occupied)
{
    return stacked_pairs(c4_winning_cells(x, occupied));
}

int feat_3inrow(uint64_t x, uint64_t occupied)
{
    return popcount(c4_winning_cells(x, occupied));
}

int feat_4inrow(uint64_t x)
{
    return c4_has_four(x);
}

int feat_odd_threats(uint64_t x, uint64_t occupied)
{
    return popcount(c4_winning_cells(x, occupied) & FEAT_ODD_ROWS);
}

int feat_even_threats(uint64_t x, uint64_t occupied)
{
    return popcount(c4_winning_cells(x, occupied) & FEAT_EVEN_ROWS);
}

int feat_3inrow_win(uint64_t x, uint64_t occupied)
{
    return popcount(c4_winning_cells(x, occupied) & c4_playable_cells(occupied));
}

int feat_slot_creates_2threats(uint64_t x, uint64_t occupied)
{
    return slot_traps(x, occupied, c4_winning_cells(x, occupied));
}

/* One point of view: the seven scaled attributes of x into f. */
static void side(uint64_t x, uint64_t occupied, double *f)
{
    uint64_t t = c4_winning_cells(x, occupied);
    f[FEAT_2THREATS] = (double)stacked_pairs(t) / FEAT_PAIRS_MAX;
    f[FEAT_3INROW] = (double)popcount(t) / FEAT_CELLS_MAX;
    f[FEAT_4INROW] = c4_has_four(x);
    f[FEAT_ODD_THREATS] = (double)popcount(t & FEAT_ODD_ROWS) / FEAT_CELLS_MAX;
    f[FEAT_EVEN_THREATS] = (double)popcount(t & FEAT_EVEN_ROWS) / FEAT_CELLS_MAX;
    f[FEAT_3INROW_WIN] = (double)popcount(t & c4_playable_cells(occupied)) / FEAT_SLOTS_MAX;
    f[FEAT_SLOT_CREATES_2THREATS] = (double)slot_traps(x, occupied, t) / FEAT_SLOTS_MAX;
}

void feat_compute(uint64_t mine, uint64_t rival, double f[FEAT_COUNT])
{
    uint64_t occupied = mine | rival;
    side(mine, occupied, f);
    side(rival, occupied, f + FEAT_RIVAL);
}

void feat_after(const struct c4_pos *p, int col, double f[FEAT_COUNT])
{
    struct c4_pos after = *p;
    int mover = p->to_move;
    c4_play(&after, col);
    feat_compute(after.disc[mover], after.disc[mover ^ 1], f);
}
