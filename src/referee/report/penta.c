/*
 * penta.c - pentanomial statistics: pair counts, normalized Elo, and the
 * GSPRT's log-likelihood ratio (penta.h).
 *
 * The exact LLR needs, for each hypothesis, the distribution p over the five
 * pair outcomes that maximises sum_i phat_i log p_i (phat: the observed
 * frequencies) under the hypothesis' constraint. Both constraints reduce to
 * moment constraints, each solved through its convex dual (below).
 *
 * Logistic: the mean score is s, one linear constraint, a concave problem
 * with one maximum: fishtest's MLE_expected, whose secular equation is the
 * dual's optimality condition.
 *
 * Normalized: mean - 1/2 = t * sigma. The constraint set is not convex and
 * the likelihood along it can have two local maxima (the counts 2 40 72 14
 * 0 at nelo 100 have them at sigma 0.1685 and 0.2083). fishtest's fixed
 * point iteration (MLE_t_value: ten steps from the uniform distribution)
 * can end at a stationary point that is not the maximum (2 0 100 1 0 with
 * bounds -200, 100: 26.957 where the maximum gives 27.976), and with bounds
 * a few hundred nelo apart its secular equation often has no root (47 of
 * 300 random counts). Here sigma parametrises the constraint set instead:
 * for each sigma the mean is fixed too (s = 1/2 + t sigma), two linear
 * constraints with one maximum; the profile likelihood over sigma is
 * scanned on a grid and its best point refined by golden-section search,
 * which finds the global maximum. Where fishtest's iteration reaches the
 * maximum the two agree to 1e-9, and a brute-force search agrees with both
 * (tests/test_penta.c).
 */
#include <assert.h>
#include <math.h>
#include <string.h>
#include "arena/penta.h"
#include "arena/stats.h"

#define K PENTA_OUTCOMES
#define REF_SCORE 0.5        /* the score of equal engines */
#define SIGMA_MAX 0.5        /* a score in [0, 1] deviates at most 1/2 */
/* The profile scan: grid points over sigma, then golden-section steps;
 * 0.618^60 of a grid step is far below the 1e-12 the LLR needs. */
#define SIGMA_GRID 256
#define GOLDEN_STEPS 60
/* Damped Newton on the dual: the dual is convex and smooth inside its
 * domain, so damped Newton converges from any start there; the cap only
 * guards against points at the edge of feasibility. */
#define NEWTON_STEPS 200
/* The secular bracket is narrower than 1 / s + 1 / (1 - s) < 400 for
 * |elo| < PENTA_ELO_MAX: bisection alone narrows it to one ulp in 70 steps. */
#define SECULAR_STEPS 200
#define NEWTON_DONE 1e-26    /* Newton decrement^2: the dual is this close */
#define NEWTON_NEAR 1e-8     /* decrement^2 below which a whole step is taken */
#define BACKTRACK_MIN 1e-30
#define ARMIJO 0.25
#define CONSTRAINT_SLACK 1e-9   /* how far from its constraints a maximum may be */

static const double score[K] = { 0.0, 0.25, 0.5, 0.75, 1.0 };

void penta_add(struct penta *p, int a, int b)
{
    assert(a >= 0 && a <= 2 && b >= 0 && b <= 2);
    p->count[a + b]++;
}

long penta_pairs(const struct penta *p)
{
    long n = 0;
    for (int i = 0; i < K; i++)
        n += p->count[i];
    return n;
}

/* Mean and variance of the pair score under distribution q. */
static void moments(const double q[K], double *mean, double *var)
{
    double m = 0, v = 0;
    for (int i = 0; i < K; i++)
        m += q[i] * score[i];
    for (int i = 0; i < K; i++)
        v += q[i] * (score[i] - m) * (score[i] - m);
    *mean = m;
    *var = v;
}

void penta_nelo(const struct penta *p, double *nelo, double *margin)
{
    long n = penta_pairs(p);
    *nelo = 0.0;
    *margin = INFINITY;
    if (n == 0)
        return;
    double q[K], mean, var;
    for (int i = 0; i < K; i++)
        q[i] = (double)p->count[i] / (double)n;
    moments(q, &mean, &var);
    if (var <= 0.0) {
        *nelo = mean > REF_SCORE ? INFINITY : mean < REF_SCORE ? -INFINITY : 0.0;
        return;
    }
    /* A pair's score is the mean of its two games', so a game's score
     * deviates sqrt(2) times more than a pair's. */
    double per_game = sqrt(2.0 * var);
    *nelo = (mean - REF_SCORE) / per_game * PENTA_NELO_PER_T;
    *margin = STATS_Z95 * sqrt(var / (double)n) / per_game * PENTA_NELO_PER_T;
}

const char *penta_model_name(enum penta_model m)
{
    return m == PENTA_LOGISTIC ? "logistic" : "normalized";
}

int penta_model_parse(const char *name, enum penta_model *m)
{
    if (strcmp(name, "normalized") == 0)
        *m = PENTA_NORMALIZED;
    else if (strcmp(name, "logistic") == 0)
        *m = PENTA_LOGISTIC;
    else
        return -1;
    return 0;
}

/* --- maximum likelihood under moment constraints ----------------------- */

/* The observed frequencies with every unseen outcome counted as
 * PENTA_REGULARIZE pairs; returns the (regularized) number of pairs. */
static double frequencies(const struct penta *p, double phat[K])
{
    double n = 0;
    for (int i = 0; i < K; i++) {
        phat[i] = p->count[i] ? (double)p->count[i] : PENTA_REGULARIZE;
        n += phat[i];
    }
    for (int i = 0; i < K; i++)
        phat[i] /= n;
    return n;
}

/* Two constraints: the dual of max sum phat log p subject to sum p = 1,
 * sum p u = 0 and sum p w = 0 is min over (x, y) of
 *     g(x, y) = -sum phat_i log d_i,  d_i = 1 + x u_i + y w_i,
 * and its minimiser gives p_i = phat_i / d_i. */
struct dual {
    const double *phat, *u, *w;
};

/* d at (x, y); 1 when (x, y) is in g's domain (every d_i > 0). */
static int dual_domain(const struct dual *q, double x, double y, double d[K])
{
    int inside = 1;
    for (int i = 0; i < K; i++) {
        d[i] = 1.0 + x * q->u[i] + y * q->w[i];
        inside &= d[i] > 0.0;
    }
    return inside;
}

static double dual_value(const struct dual *q, const double d[K])
{
    double g = 0.0;
    for (int i = 0; i < K; i++)
        g -= q->phat[i] * log(d[i]);
    return g;
}

/* The Newton step at d into dxy; returns the Newton decrement squared, or
 * -1 when the Hessian is singular (no distribution meets the constraints). */
static double dual_newton(const struct dual *q, const double d[K], double dxy[2])
{
    double gx = 0, gy = 0, hxx = 0, hxy = 0, hyy = 0;
    for (int i = 0; i < K; i++) {
        double r = q->phat[i] / d[i];
        gx -= r * q->u[i];
        gy -= r * q->w[i];
        r /= d[i];
        hxx += r * q->u[i] * q->u[i];
        hxy += r * q->u[i] * q->w[i];
        hyy += r * q->w[i] * q->w[i];
    }
    double det = hxx * hyy - hxy * hxy;
    if (!(det > 0.0))
        return -1.0;
    dxy[0] = -(hyy * gx - hxy * gy) / det;
    dxy[1] = -(hxx * gy - hxy * gx) / det;
    return -(gx * dxy[0] + gy * dxy[1]);
}

/* Minimises g by damped Newton from xy (a warm start; 0, 0 when outside
 * the domain), leaving the minimiser in xy and p. Returns the
 * log-likelihood sum phat log p, or -inf when the constraints admit no
 * distribution with full support (g has no minimum). */
static double dual_mle(const struct dual *q, double xy[2], double p[K])
{
    double d[K], dnew[K], step[2];
    if (!dual_domain(q, xy[0], xy[1], d)) {
        xy[0] = xy[1] = 0.0;
        dual_domain(q, 0.0, 0.0, d);
    }
    double g = dual_value(q, d), decrement = 1.0;
    for (int n = 0; n < NEWTON_STEPS && decrement >= NEWTON_DONE; n++) {
        if ((decrement = dual_newton(q, d, step)) < 0.0)
            return -INFINITY;
        /* Backtrack (Armijo) while far; near the minimum, where the step
         * converges quadratically and g's change is below its rounding,
         * take the whole step. */
        double t = 1.0, gnew = INFINITY;
        while (t >= BACKTRACK_MIN &&
               !(dual_domain(q, xy[0] + t * step[0], xy[1] + t * step[1], dnew) &&
                 ((gnew = dual_value(q, dnew)) <= g - ARMIJO * t * decrement ||
                  decrement < NEWTON_NEAR)))
            t /= 2.0;
        if (t < BACKTRACK_MIN)
            break;   /* no progress left at double precision */
        xy[0] += t * step[0];
        xy[1] += t * step[1];
        g = gnew;
        memcpy(d, dnew, sizeof d);
    }
    double ll = 0.0, mass = 0.0, mom = 0.0, mom2 = 0.0;
    for (int i = 0; i < K; i++) {
        p[i] = q->phat[i] / d[i];
        ll += q->phat[i] * log(p[i]);
        mass += p[i];
        mom += p[i] * q->u[i];
        mom2 += p[i] * q->w[i];
    }
    /* Near the edge of feasibility Newton can stall before the constraints
     * hold: such a point is not on the constraint set. */
    if (fabs(mass - 1.0) > CONSTRAINT_SLACK || fabs(mom) > CONSTRAINT_SLACK ||
        fabs(mom2) > CONSTRAINT_SLACK)
        return -INFINITY;
    return ll;
}

/* One constraint, mean score s: p_i = phat_i / (1 + x u_i), u_i = a_i - s,
 * where x is the root of fishtest's secular equation
 *     f(x) = sum phat_i u_i / (1 + x u_i) = 0,
 * f falling from +inf to -inf between -1 / max u and -1 / min u: Newton's
 * step where it stays inside the bracket, bisection where it does not.
 * Returns the maximum log-likelihood; assumes 0 < s < 1. */
static double mle_mean(const double phat[K], double s)
{
    assert(s > 0.0 && s < 1.0);
    double u[K], lo = -1.0 / (1.0 - s), hi = 1.0 / s, x = 0.0;
    for (int i = 0; i < K; i++)
        u[i] = score[i] - s;
    for (int n = 0; n < SECULAR_STEPS; n++) {
        double f = 0.0, df = 0.0;
        for (int i = 0; i < K; i++) {
            double r = u[i] / (1.0 + x * u[i]);
            f += phat[i] * r;
            df -= phat[i] * r * r;
        }
        if (f > 0.0)
            lo = x;
        else
            hi = x;
        double next = x - f / df;
        if (!(next > lo && next < hi))
            next = lo + (hi - lo) / 2.0;
        if (next == x)
            break;
        x = next;
    }
    double ll = 0.0;
    for (int i = 0; i < K; i++)
        ll += phat[i] * log(phat[i] / (1.0 + x * u[i]));
    return ll;
}

/* The smallest variance a distribution on the scores with mean s has: its
 * mass on the two scores around s. */
static double least_variance(double s)
{
    for (int i = 0; i + 1 < K; i++)
        if (s <= score[i + 1])
            return (s - score[i]) * (score[i + 1] - s);
    return 0.0;
}

/* The profile: max log-likelihood with mean 1/2 + t sigma and standard
 * deviation sigma; -inf where no distribution with full support has both. */
static double profile(const double phat[K], double t, double sigma, double xy[2])
{
    double s = REF_SCORE + t * sigma, v = sigma * sigma;
    if (!(s > 0.0 && s < 1.0 && v > least_variance(s) && v < s * (1.0 - s)))
        return -INFINITY;
    double u[K], w[K], p[K];
    for (int i = 0; i < K; i++) {
        u[i] = score[i] - s;
        w[i] = u[i] * u[i] - v;
    }
    struct dual q = { phat, u, w };
    return dual_mle(&q, xy, p);
}

/* Max log-likelihood among distributions with (mean - 1/2) / sigma = t. */
static double mle_t(const double phat[K], double t)
{
    if (t == 0.0)
        return mle_mean(phat, REF_SCORE);   /* sigma is free */
    double hi = fmin(SIGMA_MAX, REF_SCORE / fabs(t));   /* keeps s in [0, 1] */
    double step = hi / SIGMA_GRID, best = -INFINITY, xy[2] = { 0, 0 };
    int at = 0;
    for (int k = 1; k < SIGMA_GRID; k++) {
        double ll = profile(phat, t, k * step, xy);
        if (ll > best)
            best = ll, at = k;
    }
    if (at == 0)
        return -INFINITY;   /* not reached for |t| of PENTA_NELO_MAX or less */
    /* Golden-section search between the best grid point's neighbours. */
    const double r = (sqrt(5.0) - 1.0) / 2.0;
    double a = (at - 1) * step, b = (at + 1) * step;
    double c = b - r * (b - a), d = a + r * (b - a);
    double fc = profile(phat, t, c, xy), fd = profile(phat, t, d, xy);
    for (int i = 0; i < GOLDEN_STEPS; i++) {
        if (fc >= fd) {
            b = d, d = c, fd = fc;
            c = b - r * (b - a);
            fc = profile(phat, t, c, xy);
        } else {
            a = c, c = d, fc = fd;
            d = a + r * (b - a);
            fd = profile(phat, t, d, xy);
        }
    }
    return fmax(best, fmax(fc, fd));
}

double penta_llr(const struct penta *p, enum penta_model m, enum penta_method method,
                 double elo0, double elo1)
{
    assert(elo0 < elo1);
    assert(m == PENTA_LOGISTIC ? fabs(elo0) < PENTA_ELO_MAX && fabs(elo1) < PENTA_ELO_MAX
                               : fabs(elo0) < PENTA_NELO_MAX && fabs(elo1) < PENTA_NELO_MAX);
    if (penta_pairs(p) == 0)
        return 0.0;
    double phat[K], n = frequencies(p, phat), mean, var;
    moments(phat, &mean, &var);   /* var > 0: every outcome has mass */
    if (m == PENTA_LOGISTIC) {
        double s0 = stats_score(elo0), s1 = stats_score(elo1);
        if (method == PENTA_APPROX)
            return n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var);
        return n * (mle_mean(phat, s1) - mle_mean(phat, s0));
    }
    /* Normalized: t of a pair is sqrt(2) times t of a game. */
    double t0 = M_SQRT2 * elo0 / PENTA_NELO_PER_T, t1 = M_SQRT2 * elo1 / PENTA_NELO_PER_T;
    if (method == PENTA_APPROX) {
        double nt = (mean - REF_SCORE) / sqrt(2.0 * var);
        double d0 = nt - t0 / M_SQRT2, d1 = nt - t1 / M_SQRT2;
        return n * log((1.0 + d0 * d0) / (1.0 + d1 * d1));
    }
    return n * (mle_t(phat, t1) - mle_t(phat, t0));
}
