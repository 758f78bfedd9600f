/*
 * persistent_engine.c - a connect4 / maxconnect4 engine that stays for the
 * whole game (SPEC proto=persistent, docs/engines.md). It drops its disc in
 * the free column nearest the centre, and counts its moves to show that it
 * keeps what it learns between them.
 *
 *   cc -O2 -o persistent_engine persistent_engine.c
 *   referee match --game maxconnect4 \
 *       --engine 'proto=persistent,cmd=./persistent_engine' --engine ...
 */
#include <stdio.h>
#include <string.h>

#define ROWS 6
#define COLS 7
#define LINE_MAX_BYTES 16384

static const int centre_first[COLS] = { 3, 2, 4, 1, 5, 0, 6 };

/* Reads the board at in, writes it after our move to out: 0, or -1. */
static int move(const char *in, const char *out)
{
    char grid[ROWS][COLS + 2];
    int player;
    FILE *f = fopen(in, "r");
    if (!f)
        return -1;
    for (int r = 0; r < ROWS; r++)
        if (fscanf(f, "%8s", grid[r]) != 1)
            return fclose(f), -1;
    int ok = fscanf(f, "%d", &player) == 1;
    fclose(f);
    if (!ok)
        return -1;
    for (int i = 0; i < COLS; i++) {
        int c = centre_first[i];
        if (grid[0][c] != '0')
            continue;
        int r = ROWS - 1;
        while (grid[r][c] != '0')
            r--;
        grid[r][c] = (char)('0' + player);
        break;
    }
    if (!(f = fopen(out, "w")))
        return -1;
    for (int r = 0; r < ROWS; r++)
        fprintf(f, "%s\n", grid[r]);
    fprintf(f, "%d\n", 3 - player);
    return fclose(f) == 0 ? 0 : -1;
}

int main(void)
{
    char line[LINE_MAX_BYTES], in[LINE_MAX_BYTES], out[LINE_MAX_BYTES];
    long moves = 0;
    /* One request a line: move IN OUT DEPTH TIME_LEFT_MS INC_MS. */
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "quit", 4) == 0)
            break;
        if (sscanf(line, "move %16383s %16383s", in, out) != 2)
            continue;
        if (move(in, out) == 0)
            moves++;
        printf("info moves %ld\n", moves);   /* any line but "done" is ours */
        printf("done\n");
        fflush(stdout);   /* the referee waits for this line */
    }
    return 0;
}
