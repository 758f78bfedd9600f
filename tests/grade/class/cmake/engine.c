/* A correct Max-Connect4 engine in C: depth-limited alpha-beta on the score
 * difference, ties to the lowest column (a test submission of referee
 * grade, built with make). */
#include <stdio.h>
#include <stdlib.h>

enum { ROWS = 6, COLS = 7 };
static int grid[ROWS][COLS];

static int score(int p)
{
    static const int dir[4][2] = { { 0, 1 }, { 1, 0 }, { 1, 1 }, { 1, -1 } };
    int n = 0;
    for (int r = 0; r < ROWS; r++)
        for (int c = 0; c < COLS; c++)
            for (int d = 0; d < 4; d++) {
                int i = 0;
                while (i < 4) {
                    int rr = r + i * dir[d][0], cc = c + i * dir[d][1];
                    if (rr < 0 || rr >= ROWS || cc < 0 || cc >= COLS || grid[rr][cc] != p)
                        break;
                    i++;
                }
                n += i == 4;
            }
    return n;
}

static int drop(int c, int p)
{
    for (int r = ROWS - 1; r >= 0; r--)
        if (!grid[r][c]) {
            grid[r][c] = p;
            return r;
        }
    return -1;
}

static int search(int p, int me, int depth, int alpha, int beta)
{
    int any = 0;
    for (int c = 0; c < COLS; c++)
        any |= !grid[0][c];
    if (depth == 0 || !any)
        return score(me) - score(3 - me);
    for (int c = 0; c < COLS && alpha < beta; c++) {
        if (grid[0][c])
            continue;
        int r = drop(c, p);
        int v = search(3 - p, me, depth - 1, alpha, beta);
        grid[r][c] = 0;
        if (p == me && v > alpha)
            alpha = v;
        if (p != me && v < beta)
            beta = v;
    }
    return p == me ? alpha : beta;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    FILE *f = fopen(argv[1], "r");
    char line[64];
    for (int r = 0; r < ROWS && f && fscanf(f, "%63s", line) == 1; r++)
        for (int c = 0; c < COLS; c++)
            grid[r][c] = line[c] - '0';
    int me = 1;
    if (!f || fscanf(f, "%d", &me) != 1)
        return 2;
    fclose(f);
    int depth = argc > 3 ? atoi(argv[3]) : 4, best = -1, best_v = 0;
    for (int c = 0; c < COLS; c++) {
        if (grid[0][c])
            continue;
        int r = drop(c, me);
        int v = search(3 - me, me, depth - 1, best < 0 ? -1000000 : best_v, 1000000);
        grid[r][c] = 0;
        if (best < 0 || v > best_v) {
            best = c;
            best_v = v;
        }
    }
    drop(best, me);
    f = fopen(argv[2], "w");
    for (int r = 0; r < ROWS; r++) {
        for (int c = 0; c < COLS; c++)
            fputc('0' + grid[r][c], f);
        fputc('\n', f);
    }
    fprintf(f, "%d\n", 3 - me);
    return fclose(f) != 0;
}
