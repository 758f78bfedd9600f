/*
 * solver_threads.c - the solver's lazy SMP (c4s_set_threads) under
 * ThreadSanitizer (`make tsan`): positions with published scores solved
 * with 1, 2 and 4 threads, the table kept from one position to the next
 * and going far mid-search. A plain main, not a Criterion suite: Criterion
 * cannot start under ThreadSanitizer ("Could not initialize inheritable
 * arena", Snaipe/Criterion#274). Exits 0, or 1 after naming each wrong
 * score; TSAN_OPTIONS=halt_on_error=1 makes a race exit non-zero too.
 */
#include <stdio.h>
#include <string.h>
#include "games/connect4/c4moves.h"
#include "arena/c4solver.h"

#define TT_BYTES ((size_t)4 << 20)
#define SWITCH_NODES 5000   /* the larger solves go far mid-search */

static const struct {
    const char *moves;
    int score;
} positions[] = {
    /* Begin-Easy's first lines (Test_L1_R1, published scores) */
    { "32164625", 11 }, { "243335424257", 12 }, { "6146", 18 }, { "5747415", -12 },
    /* the unit suite's layout positions */
    { "4433521", 6 }, { "545134666557644476121554316222", -1 },
    { "746531441472644337251357665366", 0 },
};

static int check(int threads)
{
    struct c4s s;
    if (c4s_init(&s, TT_BYTES) != 0 || c4s_set_threads(&s, threads) != 0) {
        fprintf(stderr, "solver_threads: out of memory\n");
        return 1;
    }
    s.tt.small_nodes = SWITCH_NODES;
    int bad = 0;
    for (size_t i = 0; i < sizeof positions / sizeof *positions; i++) {
        struct c4_pos p;
        const char *why;
        if (c4moves_parse(positions[i].moves, strlen(positions[i].moves), &p, &why) != 0) {
            fprintf(stderr, "solver_threads: %s: %s\n", positions[i].moves, why);
            bad = 1;
            continue;
        }
        int got = c4s_solve(&s, &p, 0);
        if (got != positions[i].score) {
            fprintf(stderr, "solver_threads: %d threads, %s: solved %d, expected %d\n", threads,
                    positions[i].moves, got, positions[i].score);
            bad = 1;
        }
    }
    c4s_free(&s);
    return bad;
}

int main(void)
{
    static const int threads[] = { 1, 2, 4 };
    int bad = 0;
    for (size_t i = 0; i < sizeof threads / sizeof *threads; i++)
        bad |= check(threads[i]);
    if (!bad)
        printf("solver_threads: every score exact with 1, 2 and 4 threads\n");
    return bad;
}
