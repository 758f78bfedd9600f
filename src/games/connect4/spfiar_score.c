/*
 * spfiar_score.c - the SPFIAR seed's scoring function and the pure minimax
 * it drives (spfiar.h).
 *
 * The histogram is computed bit-parallel, one line direction at a time: for
 * every window start the four cells' discs of each player are summed into
 * bit planes (as c4_count_lines does), giving per window a's count and b's
 * count; each pair of counts is one histogram value. O(1) in the board size
 * per direction, as the seed asks for O(n).
 */
#include "arena/clock.h"
#include "arena/spfiar.h"

#define NS_PER_MS 1e6

/* The seed's weight vector {-5, -2, -1, 1, 2, 5} for span values -3..3 (the
 * middle entry, value 0, weighs nothing; neither do +-4, which are fours). */
static const int spf_weight[2 * SPF_SPAN + 1] = { 0, -5, -2, -1, 0, 1, 2, 5, 0 };

/* Per window start, one mask per count 0..4 of the discs in the window. */
static void count_planes(uint64_t x, int s, uint64_t eq[SPF_SPAN + 1])
{
    uint64_t a = x, b = x >> s, c = x >> 2 * s, d = x >> 3 * s;
    uint64_t s1 = a ^ b, c1 = a & b, s2 = c ^ d, c2 = c & d;
    uint64_t low = s1 ^ s2, carry = s1 & s2;
    uint64_t mid = c1 ^ c2 ^ carry;
    uint64_t high = (c1 & c2) | (c1 & carry) | (c2 & carry);
    eq[0] = ~low & ~mid & ~high;
    eq[1] = low & ~mid;
    eq[2] = ~low & mid;
    eq[3] = low & mid;
    eq[4] = high;
}

static void histogram_along(uint64_t a, uint64_t b, int s, struct spf_histogram *h)
{
    const uint64_t m = C4_BOARD_MASK;
    uint64_t windows = m & (m >> s) & (m >> 2 * s) & (m >> 3 * s);
    uint64_t ea[SPF_SPAN + 1], eb[SPF_SPAN + 1];
    count_planes(a, s, ea);
    count_planes(b, s, eb);
    for (int i = 0; i <= SPF_SPAN; i++)
        for (int j = 0; i + j <= SPF_SPAN; j++)
            h->count[i - j + SPF_SPAN] += __builtin_popcountll(windows & ea[i] & eb[j]);
}

void spf_histogram(uint64_t a, uint64_t b, struct spf_histogram *h)
{
    for (int v = 0; v <= 2 * SPF_SPAN; v++)
        h->count[v] = 0;
    histogram_along(a, b, 1, h);
    histogram_along(a, b, C4_COL_BITS, h);
    histogram_along(a, b, C4_COL_BITS - 1, h);
    histogram_along(a, b, C4_COL_BITS + 1, h);
}

int spf_weigh(const struct spf_histogram *h)
{
    int sum = 0;
    for (int v = 0; v <= 2 * SPF_SPAN; v++)
        sum += spf_weight[v] * h->count[v];
    return sum;
}

int spf_score(uint64_t a, uint64_t b)
{
    if (c4_has_four(a))
        return SCORE_WIN;
    if (c4_has_four(b))
        return -SCORE_WIN;
    struct spf_histogram h;
    spf_histogram(a, b, &h);
    return spf_weigh(&h);
}

int spf_evaluate(const void *state)
{
    const struct c4_pos *p = state;
    return spf_score(p->disc[p->to_move], p->disc[p->to_move ^ 1]);
}

struct search_opts spf_search_opts(void)
{
    struct search_opts o = search_opts_default();
    o.tt_bytes = SPF_TT_BYTES;
    o.mate_distance = 0;
    o.evaluate = spf_evaluate;
    o.eval_finished = 1;
    return o;
}

int spf_best_move(struct search *s, const struct c4_pos *p, int level, struct search_result *r)
{
    struct search_result mine;
    if (!r)
        r = &mine;
    search_alphabeta(s, p, level, r);
    return r->move;
}

int spf_bench(FILE *out, int level)
{
    struct search s;
    struct search_opts so = spf_search_opts();
    if (search_init(&s, &game_connect4, &so) != 0)
        return 1;
    struct c4_pos p;
    c4_init(&p);
    uint64_t total = 0;
    double max_ms = 0, sum_ms = 0;
    int moves = 0;
    fprintf(out, "spfiar level %d self-play from the empty board\n", level);
    fprintf(out, "%4s %6s %10s %10s\n", "move", "column", "nodes", "cpu_ms");
    while (game_result(&game_connect4, &p) < 0) {
        struct search_result r;
        search_clear(&s);
        uint64_t t0 = clock_cpu_ns();
        int col = spf_best_move(&s, &p, level, &r);
        double ms = (double)(clock_cpu_ns() - t0) / NS_PER_MS;
        c4_play(&p, col);
        moves++;
        total += r.nodes;
        sum_ms += ms;
        if (ms > max_ms)
            max_ms = ms;
        fprintf(out, "%4d %6d %10llu %10.3f\n", moves, col + 1, (unsigned long long)r.nodes, ms);
    }
    fprintf(out, "moves %d max_cpu_ms %.3f mean_cpu_ms %.3f\n", moves, max_ms, sum_ms / moves);
    fprintf(out, "signature %llu nodes\n", (unsigned long long)total);
    search_free(&s);
    return 0;
}
