/*
 * test_penta.c - pentanomial statistics against published values and
 * against an independent computation.
 *
 * Published vectors, cited per case below:
 *  - fastchess, app/tests/sprt_test.cpp and app/tests/elo_test.cpp
 *    (github.com/Disservin/fastchess at 74deac23): LLRs to 1% (doctest's
 *    Approx(v).epsilon(0.01): |x - v| < 0.01 (1 + |v|)), normalized Elo to 1%.
 *    Its Stats(ll, ld, wl, dd, wd, ww) become LL, LD, WL+DD, WD, WW here.
 *  - fishtest's own pages: the LLRs tests.stockfishchess.org showed for
 *    finished tests, as collected with their URLs in shogihome's
 *    src/tests/renderer/game/sprt.spec.ts (github.com/sunfish-shogi/
 *    shogihome), to 2 decimals (toBeCloseTo(v, 2): |x - v| < 0.005).
 *  - fishtest's LLRcalc.py (github.com/official-stockfish/fishtest,
 *    server/fishtest/stats/LLRcalc.py at 0753fcc6) run on the same counts
 *    with scipy 1.10.1: LLR_normalized, LLR_logistic and the closed forms
 *    LLR_normalized_alt and N * LLR_alt2, to 10 decimals; agreement to 1e-7.
 *
 * The independent computation maximises the likelihood under each
 * hypothesis by brute force: a grid over three outcome probabilities, the
 * other two solved from the constraints, refined around the best point.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <math.h>
#include "arena/penta.h"

#define FISHTEST_TOL 1e-7

struct vector {
    long n[PENTA_OUTCOMES];          /* LL, LD, WL+DD, WD, WW */
    enum penta_model model;
    double elo0, elo1;
    double published, tol;           /* the published LLR and its precision */
    double fishtest, fishtest_approx; /* LLRcalc.py: exact and closed form */
    const char *source;
};

#define FC(v) (0.01 * (1.0 + fabs(v)))   /* fastchess's doctest precision */
#define N PENTA_NORMALIZED
#define L PENTA_LOGISTIC

static struct vector vectors[] = {
    /* fastchess sprt_test.cpp */
    { { 365, 16618, 36029 + 200, 16974, 390 }, N, 0, 2, 2.25, FC(2.25),
      2.2503677035, 2.2503952915, "fastchess normalized pentanomial 1" },
    { { 127, 4883, 10311 + 401, 5150, 104 }, N, -1.75, 0.25, 3.01, FC(3.01),
      3.0101541966, 3.0103878785, "fastchess normalized pentanomial 2" },
    { { 0, 0, 0, 0, 5550 }, N, 0, 5, 111.82, FC(111.82),
      111.7975550867, 0.2626166178, "fastchess normalized pentanomial 3 (all won)" },
    { { 223, 9863, 20279 + 1000, 10037, 246 }, L, 0.5, 2.5, -3.07, FC(3.07),
      -3.0741264396, -3.0742558314, "fastchess logistic pentanomial 1" },
    { { 871, 26175, 55003 + 980, 26678, 821 }, L, 0, 2, -4.98, FC(4.98),
      -4.9786728634, -4.9782167864, "fastchess logistic pentanomial 2" },
    /* fishtest's pages (via shogihome's sprt.spec.ts) */
    { { 19, 4020, 10316, 4215, 24 }, N, -1.75, 0.25, 2.94, 0.005,
      2.9440529877, 2.9437977745, "tests.stockfishchess.org/tests/live_elo/69675ab9d5a3b5895b50fb44" },
    { { 103, 3851, 8316, 3728, 98 }, N, 0, 2, -2.03, 0.005,
      -2.0336384109, -2.0335195300, "tests.stockfishchess.org/tests/live_elo/6984bbe6473df9d1d24a937b" },
    { { 291, 10353, 21899, 10175, 306 }, N, 0, 2, -3.08, 0.005,
      -3.0765420838, -3.0764455571, "tests.stockfishchess.org/tests/view/6983867b473df9d1d24a9148" },
    { { 99, 3323, 8399, 3606, 109 }, N, 0, 2, 2.98, 0.005,
      2.9750119236, 2.9756557039, "tests.stockfishchess.org/tests/view/698432f5473df9d1d24a926d" },
    { { 2, 40, 72, 14, 0 }, N, 0, 2, -0.36, 0.005,
      -0.3596013772, -0.3537441130, "tests.stockfishchess.org/tests/view/6984bb68473df9d1d24a9378" },
    { { 900, 30596, 67292, 30899, 809 }, N, 0, 2, -2.96, 0.005,
      -2.9627896712, -2.9629161991, "tests.stockfishchess.org/tests/view/697e32ae5f56030af97b59c9" },
    { { 45, 8506, 25934, 8883, 57 }, N, 0.5, 2.5, 2.94, 0.005,
      2.9411555462, 2.9412639356, "tests.stockfishchess.org/tests/view/6983946d473df9d1d24a916d" },
    /* shogihome's own small cases, checked there against the same method */
    { { 0, 0, 0, 0, 3 }, N, -1.75, 0.25, 0.02, 0.005,
      0.0245011112, 0.0024340530, "shogihome sprt.spec.ts: 3 pairs won" },
    { { 3, 0, 0, 0, 0 }, N, -1.75, 0.25, -0.02, 0.005,
      -0.0243518438, -0.0024347891, "shogihome sprt.spec.ts: 3 pairs lost" },
    { { 0, 0, 0, 0, 10 }, N, -1.75, 0.25, 0.08, 0.005,
      0.0816607363, 0.0044542602, "shogihome sprt.spec.ts: 10 pairs won" },
    { { 10, 0, 0, 0, 0 }, N, -1.75, 0.25, -0.08, 0.005,
      -0.0811635409, -0.0044550029, "shogihome sprt.spec.ts: 10 pairs lost" },
    { { 0, 2, 4, 6, 10 }, N, -1.75, 0.25, 0.13, 0.005,
      0.1327419945, 0.1227010785, "shogihome sprt.spec.ts" },
    { { 10, 6, 4, 2, 0 }, N, -1.75, 0.25, -0.13, 0.005,
      -0.1317726281, -0.1225299541, "shogihome sprt.spec.ts" },
    { { 10, 5, 2, 5, 10 }, N, -1.75, 0.25, 0.0, 0.005,
      0.0007952673, 0.0007952744, "shogihome sprt.spec.ts: symmetric" },
    /* the counts of stat_util.py's own examples (printed there, not
     * published: fishtest's value only) */
    { { 10789, 19328, 33806, 19402, 10543 }, L, -3, 1, NAN, 0,
      2.1310678118, 2.1312448707, "fishtest stat_util.py __main__" },
    { { 39, 2226, 31451, 2412, 40 }, L, 0.2, 0.9, NAN, 0,
      2.1625425800, 2.1624048245, "fishtest stat_util.py __main__" },
    { { 39, 2226, 31451, 2412, 40 }, N, 0.764, 3.439, NAN, 0,
      2.1629408696, 2.1628434585, "fishtest stat_util.py __main__" },
};

#undef N
#undef L

static struct penta counts_of(const long n[PENTA_OUTCOMES])
{
    struct penta p;
    for (int i = 0; i < PENTA_OUTCOMES; i++)
        p.count[i] = n[i];
    return p;
}

ParameterizedTestParameters(penta, exact_llr_matches_published_vectors)
{
    return cr_make_param_array(struct vector, vectors, sizeof vectors / sizeof *vectors);
}

ParameterizedTest(struct vector *v, penta, exact_llr_matches_published_vectors)
{
    struct penta p = counts_of(v->n);
    double llr = penta_llr(&p, v->model, PENTA_EXACT, v->elo0, v->elo1);
    if (!isnan(v->published))
        cr_expect(fabs(llr - v->published) < v->tol, "%s: LLR %.6f, published %.2f", v->source,
                  llr, v->published);
    cr_expect(fabs(llr - v->fishtest) < FISHTEST_TOL, "%s: LLR %.10f, LLRcalc.py %.10f",
              v->source, llr, v->fishtest);
}

ParameterizedTestParameters(penta, approx_llr_matches_fishtest_closed_forms)
{
    return cr_make_param_array(struct vector, vectors, sizeof vectors / sizeof *vectors);
}

ParameterizedTest(struct vector *v, penta, approx_llr_matches_fishtest_closed_forms)
{
    struct penta p = counts_of(v->n);
    double llr = penta_llr(&p, v->model, PENTA_APPROX, v->elo0, v->elo1);
    cr_expect(fabs(llr - v->fishtest_approx) < FISHTEST_TOL, "%s: LLR %.10f, LLRcalc.py %.10f",
              v->source, llr, v->fishtest_approx);
}

/* --- the independent computation ---------------------------------------- */

/* The grid is over the logarithms of three probabilities, so that the tiny
 * probabilities of unseen outcomes are reached as surely as large ones. */
#define LOG_MIN (-24.0)  /* e^-24: below the mass of a regularized outcome */
#define GRID 40          /* first grid: steps of 0.6 */
#define ZOOM 3           /* then windows of +-ZOOM steps, */
#define STEP_MIN 1e-13   /* the step shrinking by 4 down to this */
#define MOVES_MAX 10000

struct hypothesis {
    double phat[PENTA_OUTCOMES];
    int normalized;
    double target;       /* the mean score, or t of a pair */
    int free[3], solved[2];  /* the outcomes searched, those solved for */
};

static const double pair_score[PENTA_OUTCOMES] = { 0, 0.25, 0.5, 0.75, 1 };

static double loglik(const double phat[PENTA_OUTCOMES], const double q[PENTA_OUTCOMES])
{
    double ll = 0;
    for (int i = 0; i < PENTA_OUTCOMES; i++) {
        if (q[i] <= 0)
            return -INFINITY;
        ll += phat[i] * log(q[i]);
    }
    return ll;
}

/* The best distribution whose free outcomes have probabilities head under
 * h: the two solved ones, j and k, follow from the unit mass and the
 * constraint, with q_k = x and q_j = rest - x, linear in x for a mean and a
 * quadratic for t. Returns its log-likelihood, -inf if there is none. */
static double complete(const struct hypothesis *h, const double head[3])
{
    double q[PENTA_OUTCOMES], rest = 1, mean = 0, moment2 = 0;
    for (int f = 0; f < 3; f++) {
        int i = h->free[f];
        q[i] = head[f];
        rest -= head[f];
        mean += head[f] * pair_score[i];
        moment2 += head[f] * pair_score[i] * pair_score[i];
    }
    double aj = pair_score[h->solved[0]], ak = pair_score[h->solved[1]];
    /* With x = 0: mean m0 and second moment e0; x moves them by dm x, de x. */
    double m0 = mean + aj * rest, e0 = moment2 + aj * aj * rest;
    double dm = ak - aj, de = ak * ak - aj * aj, x[2];
    int roots = 0;
    if (rest < 0)
        return -INFINITY;
    if (!h->normalized) {
        x[roots++] = (h->target - m0) / dm;
    } else {
        /* c = mean - 1/2 = c0 + dm x; c = t sigma  <=>  c t >= 0 and
         * c^2 = t^2 (second moment - (c + 1/2)^2). */
        double t2 = h->target * h->target, c0 = m0 - 0.5;
        double a = (1 + t2) * dm * dm, b = 2 * (1 + t2) * c0 * dm + t2 * dm - t2 * de;
        double c = (1 + t2) * c0 * c0 + t2 * c0 - t2 * (e0 - 0.25);
        double disc = b * b - 4 * a * c;
        if (disc < 0)
            return -INFINITY;
        x[roots++] = (-b - sqrt(disc)) / (2 * a);
        x[roots++] = (-b + sqrt(disc)) / (2 * a);
    }
    double best = -INFINITY;
    for (int r = 0; r < roots; r++) {
        q[h->solved[0]] = rest - x[r];
        q[h->solved[1]] = x[r];
        if (h->normalized && (m0 + dm * x[r] - 0.5) * h->target < 0)
            continue;   /* the squared constraint's other branch */
        best = fmax(best, loglik(h->phat, q));
    }
    return best;
}

/* Brute force: the best grid point, then finer grids around it. */
static double brute_max(const struct hypothesis *h)
{
    double best = -INFINITY, at[3] = { 0, 0, 0 }, step = -LOG_MIN / GRID;
    for (int i = 0; i <= GRID; i++)
        for (int j = 0; j <= GRID; j++)
            for (int k = 0; k <= GRID; k++) {
                double z[3] = { LOG_MIN + i * step, LOG_MIN + j * step, LOG_MIN + k * step };
                double head[3] = { exp(z[0]), exp(z[1]), exp(z[2]) }, ll = complete(h, head);
                if (ll > best)
                    best = ll, at[0] = z[0], at[1] = z[1], at[2] = z[2];
            }
    /* A pattern search: a window of +-ZOOM steps around the best point,
     * moved until the best point is its centre, then a finer step. */
    for (int moves = 0; step > STEP_MIN && moves < MOVES_MAX; moves++) {
        double c[3] = { at[0], at[1], at[2] };
        for (int i = -ZOOM; i <= ZOOM; i++)
            for (int j = -ZOOM; j <= ZOOM; j++)
                for (int k = -ZOOM; k <= ZOOM; k++) {
                    double z[3] = { c[0] + i * step, c[1] + j * step, c[2] + k * step };
                    double head[3] = { exp(z[0]), exp(z[1]), exp(z[2]) }, ll = complete(h, head);
                    if (ll > best)
                        best = ll, at[0] = z[0], at[1] = z[1], at[2] = z[2];
                }
        if (at[0] == c[0] && at[1] == c[1] && at[2] == c[2])
            step /= 4;
    }
    return best;
}

/* The LLR by brute force, with fishtest's regularization of unseen outcomes. */
static double brute_llr(const long n[PENTA_OUTCOMES], enum penta_model m, double elo0,
                        double elo1)
{
    struct hypothesis h0 = { .normalized = m == PENTA_NORMALIZED }, h1;
    double total = 0;
    for (int i = 0; i < PENTA_OUTCOMES; i++)
        total += n[i] ? (double)n[i] : PENTA_REGULARIZE;
    for (int i = 0; i < PENTA_OUTCOMES; i++)
        h0.phat[i] = (n[i] ? (double)n[i] : PENTA_REGULARIZE) / total;
    /* Solve for the two most frequent outcomes: the most likely
     * distributions keep them large, so they are well conditioned. */
    int order[PENTA_OUTCOMES] = { 0, 1, 2, 3, 4 };
    for (int i = 1; i < PENTA_OUTCOMES; i++)
        for (int j = i; j > 0 && h0.phat[order[j]] > h0.phat[order[j - 1]]; j--) {
            int swap = order[j];
            order[j] = order[j - 1];
            order[j - 1] = swap;
        }
    h0.solved[0] = order[0] < order[1] ? order[0] : order[1];
    h0.solved[1] = order[0] < order[1] ? order[1] : order[0];
    for (int f = 0; f < 3; f++)
        h0.free[f] = order[2 + f];
    h1 = h0;
    if (h0.normalized) {
        h0.target = sqrt(2.0) * elo0 / PENTA_NELO_PER_T;
        h1.target = sqrt(2.0) * elo1 / PENTA_NELO_PER_T;
    } else {
        h0.target = 1 / (1 + pow(10, -elo0 / 400));
        h1.target = 1 / (1 + pow(10, -elo1 / 400));
    }
    return total * (brute_max(&h1) - brute_max(&h0));
}

struct brute_case {
    long n[PENTA_OUTCOMES];
    enum penta_model model;
    double elo0, elo1;
};

ParameterizedTestParameters(penta, exact_llr_is_the_constrained_maximum)
{
    static struct brute_case cases[] = {
        { { 3, 7, 12, 9, 5 }, PENTA_NORMALIZED, 0, 10 },
        { { 3, 7, 12, 9, 5 }, PENTA_LOGISTIC, 0, 10 },
        { { 20, 31, 80, 25, 14 }, PENTA_NORMALIZED, -5, 5 },
        { { 20, 31, 80, 25, 14 }, PENTA_LOGISTIC, -30, 30 },
        { { 1, 2, 3, 4, 5 }, PENTA_NORMALIZED, 0, 2 },
        { { 2, 40, 72, 14, 1 }, PENTA_NORMALIZED, -100, 100 },
        /* two local maxima under H1 (sigma 0.1685 and 0.2083): the global
         * one counts */
        { { 2, 40, 72, 14, 0 }, PENTA_NORMALIZED, -100, 100 },
        /* fishtest's iteration stops at another stationary point: 26.957 */
        { { 2, 0, 100, 1, 0 }, PENTA_NORMALIZED, -200, 100 },
        { { 9, 1, 1, 1, 1 }, PENTA_NORMALIZED, -50, 200 },
        { { 1, 1, 30, 1, 1 }, PENTA_LOGISTIC, -100, 100 },
        /* unseen outcomes, counted as PENTA_REGULARIZE pairs */
        { { 0, 3, 10, 4, 0 }, PENTA_NORMALIZED, 0, 20 },
        { { 0, 3, 10, 4, 0 }, PENTA_LOGISTIC, 0, 20 },
    };
    return cr_make_param_array(struct brute_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct brute_case *c, penta, exact_llr_is_the_constrained_maximum,
                  .timeout = 60)
{
    struct penta p = counts_of(c->n);
    double llr = penta_llr(&p, c->model, PENTA_EXACT, c->elo0, c->elo1);
    double brute = brute_llr(c->n, c->model, c->elo0, c->elo1);
    cr_expect(fabs(llr - brute) < 1e-9, "%ld %ld %ld %ld %ld %s [%g, %g]: LLR %.10f, brute force %.10f",
              c->n[0], c->n[1], c->n[2], c->n[3], c->n[4], penta_model_name(c->model), c->elo0,
              c->elo1, llr, brute);
}

/* --- robustness ---------------------------------------------------------- */

/* Every count a run can end with, including none, all won, all lost and a
 * single outcome, with bounds up to the limits: a finite LLR, promptly. */
Test(penta, llr_is_finite_for_extreme_counts, .timeout = 60)
{
    static const long counts[][PENTA_OUTCOMES] = {
        { 0, 0, 0, 0, 0 }, { 0, 0, 0, 0, 1 }, { 1, 0, 0, 0, 0 }, { 0, 0, 1, 0, 0 },
        { 0, 0, 0, 0, 100000 }, { 100000, 0, 0, 0, 0 }, { 0, 0, 100000, 0, 0 },
        { 0, 100000, 0, 0, 0 }, { 0, 0, 0, 100000, 0 }, { 1, 0, 0, 0, 100000 },
        { 100000, 0, 0, 0, 1 }, { 50000, 0, 0, 0, 50000 }, { 0, 1, 0, 1, 0 },
    };
    static const double bounds[][2] = {
        { 0, 2 }, { -1.75, 0.25 }, { 0, 5 }, { -100, 100 }, { 200, 400 }, { -600, -300 },
        { -PENTA_NELO_MAX + 1, PENTA_NELO_MAX - 1 },
    };
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++)
        for (size_t b = 0; b < sizeof bounds / sizeof *bounds; b++)
            for (int m = PENTA_NORMALIZED; m <= PENTA_LOGISTIC; m++)
                for (int how = PENTA_EXACT; how <= PENTA_APPROX; how++) {
                    struct penta p = counts_of(counts[i]);
                    double llr = penta_llr(&p, m, how, bounds[b][0], bounds[b][1]);
                    cr_expect(isfinite(llr), "%ld %ld %ld %ld %ld, %s %s [%g, %g]: %f",
                              counts[i][0], counts[i][1], counts[i][2], counts[i][3],
                              counts[i][4], penta_model_name(m), how ? "approx" : "exact",
                              bounds[b][0], bounds[b][1], llr);
                }
}

/* No pair is no evidence either way. */
Test(penta, llr_of_no_pair_is_zero)
{
    struct penta p = { { 0 } };
    cr_expect_eq(penta_llr(&p, PENTA_NORMALIZED, PENTA_EXACT, 0, 2), 0.0);
    cr_expect_eq(penta_llr(&p, PENTA_LOGISTIC, PENTA_APPROX, 0, 2), 0.0);
}

/* Winning every pair argues for H1, losing every pair for H0. */
Test(penta, all_won_favours_h1_and_all_lost_h0)
{
    struct penta won = { { 0, 0, 0, 0, 500 } }, lost = { { 500, 0, 0, 0, 0 } };
    for (int m = PENTA_NORMALIZED; m <= PENTA_LOGISTIC; m++) {
        double w = penta_llr(&won, m, PENTA_EXACT, 0, 5), l = penta_llr(&lost, m, PENTA_EXACT, 0, 5);
        cr_expect(w > 2.94 && l < -2.94, "%s: all won %f, all lost %f", penta_model_name(m), w, l);
    }
}

/* --- counting and Elo ------------------------------------------------------ */

Test(penta, a_pair_counts_the_first_engines_half_points)
{
    struct penta p = { { 0 } };
    penta_add(&p, 0, 0);   /* LL */
    penta_add(&p, 1, 0);   /* LD */
    penta_add(&p, 0, 1);   /* DL: LD too */
    penta_add(&p, 2, 0);   /* WL */
    penta_add(&p, 1, 1);   /* DD */
    penta_add(&p, 2, 1);   /* WD */
    penta_add(&p, 2, 2);   /* WW */
    long want[PENTA_OUTCOMES] = { 1, 2, 2, 1, 1 };
    for (int i = 0; i < PENTA_OUTCOMES; i++)
        cr_expect_eq(p.count[i], want[i], "outcome %d: %ld pairs, expected %ld", i, p.count[i],
                     want[i]);
    cr_expect_eq(penta_pairs(&p), 7);
}

struct nelo_vector {
    long n[PENTA_OUTCOMES];
    double nelo, margin;
};

/* fastchess app/tests/elo_test.cpp, EloPentanomial 1-3: nElo and its error
 * to 1%. */
ParameterizedTestParameters(penta, nelo_matches_fastchess)
{
    static struct nelo_vector cases[] = {
        { { 34, 54, 31 + 32, 64, 75 }, 57.94, 28.28 },
        { { 332, 433, 457 + 41, 333, 334 }, -9.17, 10.96 },
        { { 7895, 8757, 5485 + 200, 568, 9999 }, -19.01, 2.65 },
    };
    return cr_make_param_array(struct nelo_vector, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct nelo_vector *v, penta, nelo_matches_fastchess)
{
    struct penta p = counts_of(v->n);
    double nelo, margin;
    penta_nelo(&p, &nelo, &margin);
    cr_expect(fabs(nelo - v->nelo) < FC(v->nelo), "nelo %.4f, fastchess %.2f", nelo, v->nelo);
    cr_expect(fabs(margin - v->margin) < FC(v->margin), "margin %.4f, fastchess %.2f", margin,
              v->margin);
}

/* The definition, from the pairs' scores one by one: the mean and standard
 * deviation of a game's score (a pair's times sqrt 2), in units of 800/ln 10. */
Test(penta, nelo_is_the_mean_score_in_standard_deviations)
{
    static const double scores[] = { 0, 0.25, 0.25, 0.5, 0.5, 0.5, 0.75, 0.75, 1, 1, 1 };
    struct penta p = { { 1, 2, 3, 2, 3 } };
    double n = 11, sum = 0, sq = 0;
    for (int i = 0; i < 11; i++)
        sum += scores[i];
    for (int i = 0; i < 11; i++)
        sq += (scores[i] - sum / n) * (scores[i] - sum / n);
    double sd_game = sqrt(2 * sq / n), want = (sum / n - 0.5) / sd_game * 800 / log(10);
    double want_margin = 1.959963984540054 * sqrt(sq / n / n) / sd_game * 800 / log(10);
    double nelo, margin;
    penta_nelo(&p, &nelo, &margin);
    cr_expect(fabs(nelo - want) < 1e-9, "nelo %.12f, expected %.12f", nelo, want);
    cr_expect(fabs(margin - want_margin) < 1e-9, "margin %.12f, expected %.12f", margin,
              want_margin);
}

/* Without spread the interval is unknown: infinite, never NaN. */
Test(penta, nelo_without_spread_is_infinite_not_nan)
{
    struct penta none = { { 0 } }, won = { { 0, 0, 0, 0, 7 } }, lost = { { 7, 0, 0, 0, 0 } },
                 even = { { 0, 0, 7, 0, 0 } };
    double nelo, margin;
    penta_nelo(&none, &nelo, &margin);
    cr_expect(nelo == 0 && isinf(margin), "no pair: %f +- %f", nelo, margin);
    penta_nelo(&won, &nelo, &margin);
    cr_expect(isinf(nelo) && nelo > 0 && isinf(margin), "all won: %f +- %f", nelo, margin);
    penta_nelo(&lost, &nelo, &margin);
    cr_expect(isinf(nelo) && nelo < 0 && isinf(margin), "all lost: %f +- %f", nelo, margin);
    penta_nelo(&even, &nelo, &margin);
    cr_expect(nelo == 0 && isinf(margin), "all even: %f +- %f", nelo, margin);
}

Test(penta, model_names_read_back)
{
    enum penta_model m;
    cr_expect_eq(penta_model_parse("logistic", &m), 0);
    cr_expect_eq(m, PENTA_LOGISTIC);
    cr_expect_str_eq(penta_model_name(m), "logistic");
    cr_expect_eq(penta_model_parse("normalized", &m), 0);
    cr_expect_eq(m, PENTA_NORMALIZED);
    cr_expect_str_eq(penta_model_name(m), "normalized");
    cr_expect_eq(penta_model_parse("bayesian", &m), -1);
}
