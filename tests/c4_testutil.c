/* c4_testutil.c - Connect-4 helpers shared by the unit suites (c4_testutil.h). */
#include <criterion/criterion.h>
#include <string.h>
#include "games/connect4/c4moves.h"
#include "c4_testutil.h"

#define DIRECTIONS 4

/* (dcol, drow) of the four line directions: horizontal, vertical, up-right,
 * down-right. */
static const int direction[DIRECTIONS][2] = { { 1, 0 }, { 0, 1 }, { 1, 1 }, { 1, -1 } };

struct c4_pos pos_from_moves(const char *moves)
{
    struct c4_pos p;
    const char *why = NULL;
    int at = c4moves_parse(moves, strlen(moves), &p, &why);
    cr_assert_eq(at, 0, "'%s': bad at %d: %s", moves, at, why ? why : "");
    return p;
}

struct c4_pos pos_from_rows(const char *const rows[C4_HEIGHT], int to_move)
{
    struct c4_pos p;
    c4_init(&p);
    for (int r = 0; r < C4_HEIGHT; r++) {
        int row = C4_HEIGHT - 1 - r;
        cr_assert_eq(strlen(rows[r]), C4_WIDTH, "row %d: \"%s\"", r + 1, rows[r]);
        for (int col = 0; col < C4_WIDTH; col++) {
            char ch = rows[r][col];
            if (ch == '1' || ch == '2') {
                p.disc[ch - '1'] |= C4_BIT(col, row);
                p.moves++;
            }
        }
    }
    p.to_move = (uint8_t)(to_move - 1);
    return p;
}

int on_board(int col, int row)
{
    return col >= 0 && col < C4_WIDTH && row >= 0 && row < C4_HEIGHT;
}

int for_each_window(window_fn fn, void *ctx)
{
    int n = 0;
    for (int row = 0; row < C4_HEIGHT; row++)
        for (int col = 0; col < C4_WIDTH; col++)
            for (int d = 0; d < DIRECTIONS; d++) {
                int cells[LINE_LEN][2];
                int ok = 1;
                for (int k = 0; k < LINE_LEN; k++) {
                    cells[k][0] = col + k * direction[d][0];
                    cells[k][1] = row + k * direction[d][1];
                    ok &= on_board(cells[k][0], cells[k][1]);
                }
                if (ok) {
                    fn(cells, ctx);
                    n++;
                }
            }
    return n;
}
