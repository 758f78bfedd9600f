/*
 * tally.c - counting a tournament's games and the views of the count every
 * report shows (tally.h).
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/limits.h"
#include "arena/stats.h"
#include "arena/swiss.h"
#include "arena/tally.h"

static int engine_number(const struct tally *t, const char *name)
{
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->name[i], name) == 0)
            return i;
    return -1;
}

int tally_init(struct tally *t, int n, const char *const name[], struct err *e)
{
    assert(n >= 0 && n <= REC_MAX_ENGINES);
    memset(t, 0, sizeof *t);
    if (n < 2)
        return err_set(e, 1, 1, "the header names %d engines, a tournament has at least 2", n);
    for (t->n = 0; t->n < n; t->n++) {
        assert(strlen(name[t->n]) < REC_NAME_MAX);
        strcpy(t->name[t->n], name[t->n]);
    }
    return 0;
}

int tally_anchor(struct tally *t, const struct tally_anchor *a, int n, struct err *e)
{
    for (int k = 0; k < n; k++) {
        int i = engine_number(t, a[k].name);
        if (i < 0)
            return err_set(e, 0, 0, "--anchor %s: no engine of the tournament is named %s",
                           a[k].name, a[k].name);
        t->nanchors += !t->anchored[i];
        t->anchored[i] = 1;
        t->anchor_elo[i] = a[k].elo;
    }
    return 0;
}

void tally_anchor_text(const struct tally *t, char *buf, size_t cap)
{
    assert(cap > 0);
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < t->n && used < cap; i++) {
        if (!t->anchored[i])
            continue;
        char elo[32];
        stats_elo_text(t->anchor_elo[i], elo, sizeof elo);
        int w = snprintf(buf + used, cap - used, "%s%s=%s", used ? ", " : "", t->name[i], elo);
        used += w > 0 ? (size_t)w : 0;
    }
}

int tally_knockout(struct tally *t)
{
    assert(t->n <= KNOCKOUT_MAX_ENGINES);
    if (!t->bracket && !(t->bracket = malloc(sizeof *t->bracket)))
        return -1;
    knockout_init(t->bracket, t->n);
    return 0;
}

int tally_swiss(struct tally *t, int rounds, uint64_t seed)
{
    assert(rounds >= 1 && t->n >= 2);
    struct tally_swiss *s = calloc(1, sizeof *s);
    if (!s)
        return -1;
    s->rounds = rounds;
    s->seed = seed;
    s->games = (long)rounds * (t->n / 2) * 2;
    s->who = calloc((size_t)s->games + 1, sizeof *s->who);
    s->half1 = malloc((size_t)s->games + 1);
    if (!s->who || !s->half1) {
        free(s->who);
        free(s->half1);
        free(s);
        return -1;
    }
    memset(s->half1, -1, (size_t)s->games + 1);
    t->swiss = s;
    return 0;
}

/* Round r's games in, to the field's scores: 1 when it has one. */
static int swiss_round_in(const struct tally *t, int r, struct swiss *sw)
{
    const struct tally_swiss *s = t->swiss;
    long per = 2L * (t->n / 2), in = 0;
    for (long i = r * per + 1; i <= (r + 1) * per; i++) {
        if (s->half1[i] < 0)
            continue;
        int a = s->who[i][0], b = s->who[i][1];
        swiss_add(sw, a, s->half1[i]);
        swiss_add(sw, b, 2 - s->half1[i]);
        in++;
    }
    return in > 0;
}

void tally_swiss_standings(const struct tally *t, struct tally_swiss_view *v)
{
    const struct tally_swiss *s = t->swiss;
    struct swiss sw;
    struct swiss_round round;
    int opp[REC_MAX_ENGINES][REC_MAX_ENGINES], nopp[REC_MAX_ENGINES] = { 0 };
    swiss_init(&sw, t->n, s->seed);
    memset(v, 0, sizeof *v);
    /* Each round's bye comes from its pairing; the games are the journal's. */
    for (int r = 0; r < s->rounds; r++) {
        struct swiss before = sw;
        if (swiss_pair(&sw, &round) != 0 || !swiss_round_in(t, r, &sw)) {
            sw = before;   /* a round without games: no bye either */
            break;
        }
        for (int k = 0; k < round.npairs; k++) {
            int a = round.side[k][0], b = round.side[k][1];
            opp[a][nopp[a]++] = b;
            opp[b][nopp[b]++] = a;
        }
        v->rounds++;
    }
    for (int i = 0; i < t->n; i++) {
        v->half[i] = sw.half[i];
        v->byes[i] = sw.byes[i];
        for (int k = 0; k < nopp[i]; k++)
            v->buchholz[i] += sw.half[opp[i][k]];
    }
    for (int i = 0; i < t->n; i++) {   /* insertion sort: stable, n small */
        int k = i;
        while (k > 0 && (v->half[v->order[k - 1]] < v->half[i] ||
                         (v->half[v->order[k - 1]] == v->half[i] &&
                          v->buchholz[v->order[k - 1]] < v->buchholz[i]))) {
            v->order[k] = v->order[k - 1];
            k--;
        }
        v->order[k] = i;
    }
}

void tally_free(struct tally *t)
{
    free(t->bracket);
    if (t->swiss) {
        free(t->swiss->who);
        free(t->swiss->half1);
        free(t->swiss);
    }
    for (int i = 0; i < t->n; i++)
        free(t->cpu[i]);
    free(t->overhead);
    free(t->half);
    free(t->why);
    free(t->lost);
}

/* Makes room for one more of *n elements of size bytes in *v (*cap of
 * them): 0, or -1 when out of memory (*v untouched). */
static int room_for_one(void **v, long n, long *cap, size_t size)
{
    if (n < *cap)
        return 0;
    long grow = *cap ? 2 * *cap : 16;
    void *grown = realloc(*v, (size_t)grow * size);
    if (!grown)
        return -1;
    *v = grown;
    *cap = grow;
    return 0;
}

static int add_sample(double **v, long *n, long *cap, double x)
{
    if (*n == *cap) {
        long grow = *cap ? 2 * *cap : 64;
        double *grown = realloc(*v, (size_t)grow * sizeof *grown);
        if (!grown)
            return -1;
        *v = grown;
        *cap = grow;
    }
    (*v)[(*n)++] = x;
    return 0;
}

/* Counts a forfeit by its reason's kind (record.h's rec_reason_split): the
 * board reader's message differs from game to game, the kind does not. */
static void add_forfeit(struct tally *t, int engine, const char *full)
{
    char reason[REC_REASON_MAX];
    (void)rec_reason_split(full, reason);
    int k = 0;
    while (k < t->nforfeit &&
           (t->forfeit[k].engine != engine || strcmp(t->forfeit[k].reason, reason) != 0))
        k++;
    if (k == TALLY_MAX_FORFEITS)
        return;
    if (k == t->nforfeit) {
        t->nforfeit++;
        t->forfeit[k].engine = engine;
        snprintf(t->forfeit[k].reason, REC_REASON_MAX, "%s", reason);
        t->forfeit[k].count = 0;
    }
    t->forfeit[k].count++;
}

/* Files a forfeited game under its engine's reason in its words, kind and
 * detail alike (the counts by kind are add_forfeit's): 0, or -1 when out
 * of memory. */
static int add_why(struct tally *t, int engine, int opponent, long game, const char *reason)
{
    assert(strlen(reason) < REC_REASON_MAX);
    long k = t->nwhy - 1;   /* the latest first: an engine's forfeits come in runs */
    while (k >= 0 && (t->why[k].engine != engine || strcmp(t->why[k].reason, reason) != 0))
        k--;
    if (room_for_one((void **)&t->lost, t->nlost, &t->caplost, sizeof *t->lost) != 0)
        return -1;
    if (k < 0) {
        if (room_for_one((void **)&t->why, t->nwhy, &t->capwhy, sizeof *t->why) != 0)
            return -1;
        k = t->nwhy;
        struct tally_why *w = &t->why[k];
        memset(w, 0, sizeof *w);
        w->engine = engine;
        w->id = t->nwhy++;   /* ids stay 0..nwhy-1 whatever tally_why_sort moved */
        strcpy(w->reason, reason);
    }
    t->why[k].count++;
    t->lost[t->nlost++] = (struct tally_lost){ game, opponent, t->why[k].id };
    return 0;
}

/* Pairs the game with its pair's other game when that is in, else keeps it
 * waiting. side: the game's engines; points1: side 1's half points. */
static int add_half(struct tally *t, long pair, const int side[2], int points1)
{
    for (long k = t->nhalf - 1; k >= 0; k--) {
        struct tally_half *h = &t->half[k];
        if (h->pair != pair || h->first != side[1] || h->second != side[0])
            continue;
        int a = h->first, b = h->second, later = 2 - points1;   /* a played side 2 now */
        penta_add(&t->penta[a][b], h->half_points, later);
        penta_add(&t->penta[b][a], 2 - h->half_points, 2 - later);
        *h = t->half[--t->nhalf];
        return 0;
    }
    if (t->nhalf == t->caphalf) {
        long grow = t->caphalf ? 2 * t->caphalf : 64;
        struct tally_half *grown = realloc(t->half, (size_t)grow * sizeof *grown);
        if (!grown)
            return -1;
        t->half = grown;
        t->caphalf = grow;
    }
    t->half[t->nhalf++] = (struct tally_half){ pair, side[0], side[1], points1 };
    return 0;
}

/* The game's own score, when it has one, to both engines' sums. */
static void add_score(struct tally *t, const struct game_record *rec, const int side[2])
{
    if (!rec->score.set)
        return;
    if (!t->has_score) {
        t->has_score = 1;
        strcpy(t->score_of, rec->score.of);
    }
    for (int k = 0; k < 2; k++) {
        t->scored[side[k]]++;
        t->score_for[side[k]] += rec->score.side[k];
        t->score_against[side[k]] += rec->score.side[1 - k];
    }
}

int tally_add(struct tally *t, const struct game_record *rec, struct err *e)
{
    if (!rec->player[0][0] || !rec->player[1][0] || rec->result == REC_NO_RESULT ||
        rec->reason == REC_NO_REASON)
        return err_set(e, 0, 0, "a game without \"players\", \"result\" or \"reason\"");
    int side[2] = { engine_number(t, rec->player[0]), engine_number(t, rec->player[1]) };
    if (side[0] < 0 || side[1] < 0)
        return err_set(e, 0, 0, "a game of an engine the header does not name");
    int winner = rec->result;
    if (t->swiss && (rec->index < 1 || rec->index > t->swiss->games))
        return err_set(e, 0, 0, "game %ld is not a game of the Swiss rounds", rec->index);
    if (t->swiss) {
        t->swiss->who[rec->index][0] = (unsigned char)side[0];
        t->swiss->who[rec->index][1] = (unsigned char)side[1];
        t->swiss->half1[rec->index] =
            (signed char)(winner == REC_WIN_1 ? 2 : winner == REC_WIN_2 ? 0 : 1);
    }
    /* A knockout's game first: one that is not its bracket's counts nowhere. */
    if (t->bracket && knockout_add(t->bracket, rec->index, side[0],
                                   winner == REC_WIN_1 ? 2 : winner == REC_WIN_2 ? 0 : 1) != 0)
        return err_set(e, 0, 0, "game %ld: %s against %s is not a game of the bracket as it "
                       "stands", rec->index, rec->player[0], rec->player[1]);
    t->games++;
    if (winner) {
        int w = side[winner - 1], l = side[2 - winner];
        t->win[w]++;
        t->loss[l]++;
        t->beat[w][l]++;
        if (rec->reason != REC_NORMAL) {
            add_forfeit(t, l, rec_reason_text(rec));
            if (add_why(t, l, w, rec->index, rec_reason_text(rec)) != 0)
                return err_set(e, 0, 0, "out of memory");
        }
    } else {
        t->draw[side[0]]++;
        t->draw[side[1]]++;
        t->drew[side[0]][side[1]]++;
        t->drew[side[1]][side[0]]++;
    }
    int points1 = winner == REC_WIN_1 ? 2 : winner == REC_WIN_2 ? 0 : 1;
    if (rec->pair >= 0 && add_half(t, rec->pair, side, points1) != 0)
        return err_set(e, 0, 0, "out of memory");
    add_score(t, rec, side);
    for (int k = 0; k < rec->nmoves; k++) {
        const struct rec_move *m = &rec->moves[k];
        if (m->side != 1 && m->side != 2)
            return err_set(e, 0, 0, "a move without a \"side\" of 1 or 2");
        /* A time missing from a hand-made record counts as none. */
        double ms = m->cpu_user_ms + m->cpu_sys_ms;
        int i = side[m->side - 1];
        if (add_sample(&t->cpu[i], &t->ncpu[i], &t->capcpu[i], isnan(ms) ? 0.0 : ms) != 0 ||
            (!isnan(m->referee_ms) &&
             add_sample(&t->overhead, &t->noverhead, &t->capoverhead, m->referee_ms) != 0))
            return err_set(e, 0, 0, "out of memory");
    }
    return 0;
}

/* --- views --------------------------------------------------------------- */

int tally_score(const struct tally *t, int i, double *for_mean, double *against_mean)
{
    long n = t->scored[i];
    *for_mean = n ? (double)t->score_for[i] / (double)n : 0;
    *against_mean = n ? (double)t->score_against[i] / (double)n : 0;
    return n > 0;
}

int tally_ratings(const struct tally *t, double elo[], double margin[])
{
    static_assert(REC_MAX_ENGINES <= STATS_RATINGS_MAX, "a tally's field fits the ratings");
    double games[REC_MAX_ENGINES * REC_MAX_ENGINES], points[REC_MAX_ENGINES * REC_MAX_ENGINES];
    int n = t->n;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++) {
            games[i * n + j] = (double)(t->beat[i][j] + t->beat[j][i] + t->drew[i][j]);
            points[i * n + j] = (double)t->beat[i][j] + 0.5 * (double)t->drew[i][j];
        }
    if (!t->nanchors)
        return stats_ratings(n, games, points, RATING_PRIOR_DRAWS, elo, margin);
    double anchor[REC_MAX_ENGINES];
    for (int i = 0; i < n; i++)
        anchor[i] = t->anchored[i] ? t->anchor_elo[i] : NAN;
    return stats_ratings_anchored(n, games, points, RATING_PRIOR_DRAWS, anchor, elo, margin);
}

void tally_rating_order(const struct tally *t, const int order[], const double elo[], int by[])
{
    for (int r = 0; r < t->n; r++) {   /* insertion sort: stable, n small */
        int k = r;
        while (k > 0 && elo[by[k - 1]] < elo[order[r]]) {
            by[k] = by[k - 1];
            k--;
        }
        by[k] = order[r];
    }
}

double tally_points(const struct tally *t, int i)
{
    return (double)t->win[i] + 0.5 * (double)t->draw[i];
}

void tally_standings(const struct tally *t, int order[])
{
    /* Insertion sort, stable: ties keep the configuration's order. */
    for (int i = 0; i < t->n; i++) {
        int k = i;
        while (k > 0 && tally_points(t, order[k - 1]) < tally_points(t, i)) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
}

int tally_forfeited_all(const struct tally *t, int i)
{
    long games = t->win[i] + t->draw[i] + t->loss[i];
    return games > 0 && tally_forfeits(t, i) == games;
}

void tally_forfeit_reasons(const struct tally *t, int i, char *buf, size_t cap)
{
    assert(cap > 0);
    int mine[TALLY_MAX_FORFEITS], n = 0;
    for (int k = 0; k < t->nforfeit; k++)
        if (t->forfeit[k].engine == i) {
            /* By name, so that the order does not depend on which game
             * finished first. */
            int at = n++;
            while (at > 0 && strcmp(t->forfeit[mine[at - 1]].reason, t->forfeit[k].reason) > 0) {
                mine[at] = mine[at - 1];
                at--;
            }
            mine[at] = k;
        }
    size_t used = 0;
    buf[0] = '\0';
    for (int j = 0; j < n && used < cap; j++) {
        const char *reason = t->forfeit[mine[j]].reason;
        int w = n == 1 ? snprintf(buf + used, cap - used, "%s", reason)
                       : snprintf(buf + used, cap - used, "%s%s (%ld)", j ? ", " : "", reason,
                                  t->forfeit[mine[j]].count);
        used += w > 0 ? (size_t)w : 0;
    }
}

long tally_forfeits(const struct tally *t, int i)
{
    long n = 0;
    for (int k = 0; k < t->nforfeit; k++)
        if (t->forfeit[k].engine == i)
            n += t->forfeit[k].count;
    return n;
}

/* The report's order of reasons (tally_why_sort): never 0 for two, as no
 * two have both the engine and the words, so no input order shows. */
static int why_order(const void *pa, const void *pb)
{
    const struct tally_why *a = pa, *b = pb;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    if (a->count != b->count)
        return a->count > b->count ? -1 : 1;
    return strcmp(a->reason, b->reason);
}

/* Games by their reason's id, then by number. */
static int lost_order(const void *pa, const void *pb)
{
    const struct tally_lost *a = pa, *b = pb;
    if (a->why != b->why)
        return a->why < b->why ? -1 : 1;
    return a->game < b->game ? -1 : a->game > b->game;
}

/* The first of t->lost (sorted by lost_order) whose reason is id. */
static long first_lost(const struct tally *t, long id)
{
    long lo = 0, hi = t->nlost;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (t->lost[mid].why < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

void tally_why_sort(struct tally *t, const int order[])
{
    int rank[REC_MAX_ENGINES];
    for (int r = 0; r < t->n; r++)
        rank[order[r]] = r;
    for (long k = 0; k < t->nwhy; k++)
        t->why[k].rank = rank[t->why[k].engine];
    if (t->nwhy == 0)   /* qsort of no array: UBSan's null argument */
        return;
    qsort(t->why, (size_t)t->nwhy, sizeof *t->why, why_order);
    qsort(t->lost, (size_t)t->nlost, sizeof *t->lost, lost_order);
    for (long k = 0; k < t->nwhy; k++) {
        t->why[k].first = first_lost(t, t->why[k].id);
        assert(t->why[k].first + t->why[k].count <= t->nlost &&
               t->lost[t->why[k].first].why == t->why[k].id);
    }
}

struct tally_cpu tally_cpu(struct tally *t, int i)
{
    assert(i >= 0 && i < t->n);
    struct tally_cpu c = { 0, 0, 0, 0 };
    long n = t->ncpu[i];
    if (n == 0)
        return c;
    stats_sort(t->cpu[i], n);
    double sum = 0;
    for (long k = 0; k < n; k++)
        sum += t->cpu[i][k];
    c.mean = sum / (double)n;
    c.median = stats_percentile(t->cpu[i], n, 50);
    c.p95 = stats_percentile(t->cpu[i], n, 95);
    c.max = t->cpu[i][n - 1];
    return c;
}

int tally_overhead(struct tally *t, double *median, double *p95)
{
    if (t->noverhead == 0)
        return 0;
    stats_sort(t->overhead, t->noverhead);
    *median = stats_percentile(t->overhead, t->noverhead, 50);
    *p95 = stats_percentile(t->overhead, t->noverhead, 95);
    return 1;
}

int tally_pair(const struct tally *t, int a, int b, struct tally_pair *p)
{
    assert(a != b && a >= 0 && a < t->n && b >= 0 && b < t->n);
    p->w = t->beat[a][b];
    p->l = t->beat[b][a];
    p->d = t->drew[a][b];
    p->n = p->w + p->l + p->d;
    if (p->n == 0)
        return -1;
    stats_elo_interval(p->w, p->l, p->d, &p->elo, &p->margin);
    p->los = stats_los(p->w, p->l);
    p->draw_ratio = (double)p->d / (double)p->n;
    p->penta = t->penta[a][b];
    penta_nelo(&p->penta, &p->nelo, &p->nelo_margin);
    return 0;
}

int tally_next_pair(const struct tally *t, const int order[], int *k, int *a, int *b,
                    struct tally_pair *p)
{
    while (*k < t->n * t->n) {
        int ra = *k / t->n, rb = *k % t->n;
        (*k)++;
        if (rb > ra && tally_pair(t, order[ra], order[rb], p) == 0) {
            *a = order[ra];
            *b = order[rb];
            return 1;
        }
    }
    return 0;
}
