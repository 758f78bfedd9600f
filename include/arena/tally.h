/*
 * tally.h - what a tournament's games add up to, game by game: standings,
 * results per pair, CPU per move (the engine's own user+sys time, every
 * move it was asked for), the referee's overhead per move, forfeits by
 * kind and, game by game, with their details; and the views every report
 * renderer (report.h) shows of them.
 *
 * Representation: fixed arrays per engine (at most REC_MAX_ENGINES), and
 * the per-move samples and the forfeited games in malloc'd arrays the
 * tally owns (tally_free).
 * Game pairs (the two games of one "pair" number, the same opening with
 * colours swapped) count in the pentanomial once both games are in; a game
 * whose partner never comes (a stopped tournament, a record without a
 * pair) counts in the trinomial figures only.
 */
#ifndef ARENA_TALLY_H
#define ARENA_TALLY_H

#include <stdint.h>
#include "arena/knockout.h"
#include "arena/penta.h"
#include "arena/record.h"

#define TALLY_MAX_FORFEITS 64     /* distinct (engine, reason) counted; more are dropped */
/* Bytes of tally_anchor_text: every engine anchored, with a long name. */
#define TALLY_ANCHOR_TEXT_MAX (REC_MAX_ENGINES * (REC_NAME_MAX + 32))

/* An engine whose rating is fixed (--anchor NAME=ELO): the ratings of the
 * others are fitted on its scale (stats_ratings_anchored). */
struct tally_anchor {
    char name[REC_NAME_MAX];
    double elo;
};

/* A pair's first game in: its pair number, side 1's and side 2's engines,
 * and side 1's half points (0 loss, 1 draw, 2 win). */
struct tally_half {
    long pair;
    int first, second, half_points;
};

/* One engine's forfeits for one reason, kind and detail alike. */
struct tally_why {
    int engine;                    /* the engine that forfeited */
    char reason[REC_REASON_MAX];   /* rec_reason_text's words, "KIND: detail" or
                                    * the kind alone (rec_reason_split parts them) */
    long count;                    /* its games */
    long id;                       /* its games' tally_lost.why: the order it came in */
    int rank;                      /* tally_why_sort's: the engine's place in order */
    long first;                    /* tally_why_sort's: its games are lost[first]
                                    * to lost[first + count - 1] */
};

/* A forfeited game. */
struct tally_lost {
    long game;                     /* the record's index; -1: it has none */
    int opponent;                  /* the engine that won it */
    long why;                      /* its reason's tally_why.id */
};

struct tally {
    int n;                                       /* engines */
    char name[REC_MAX_ENGINES][REC_NAME_MAX];
    long games;
    long win[REC_MAX_ENGINES], draw[REC_MAX_ENGINES], loss[REC_MAX_ENGINES];
    long beat[REC_MAX_ENGINES][REC_MAX_ENGINES]; /* beat[i][j]: i's wins over j */
    long drew[REC_MAX_ENGINES][REC_MAX_ENGINES];
    double *cpu[REC_MAX_ENGINES];               /* ms per move, malloc'd */
    long ncpu[REC_MAX_ENGINES], capcpu[REC_MAX_ENGINES];
    double *overhead;                            /* referee_ms per move */
    long noverhead, capoverhead;
    struct penta penta[REC_MAX_ENGINES][REC_MAX_ENGINES];  /* [i][j]: from i's view */
    struct tally_half *half;                     /* games waiting for their pair's other */
    long nhalf, caphalf;
    int round_robin;                             /* the header's "format" says so */
    /* The games' own scores (record.h's rec_score), for games that have one:
     * what they count (the first scored game's label; "": no game had a
     * score) and, per engine, its scored games and their sums. */
    char score_of[REC_LABEL_MAX];
    int has_score;
    long scored[REC_MAX_ENGINES], score_for[REC_MAX_ENGINES], score_against[REC_MAX_ENGINES];
    int nforfeit;
    struct { int engine; char reason[REC_REASON_MAX]; long count; }   /* reason: its kind */
        forfeit[TALLY_MAX_FORFEITS];
    /* Every forfeit with its detail: the reasons (at most one per engine
     * and words) and the games, malloc'd; tally_why_sort orders both. */
    struct tally_why *why;
    long nwhy, capwhy;
    struct tally_lost *lost;
    long nlost, caplost;
    /* The anchored engines (tally_anchor) and their ratings. */
    unsigned char anchored[REC_MAX_ENGINES];
    double anchor_elo[REC_MAX_ENGINES];
    int nanchors;
    struct knockout *bracket;                    /* a knockout's (tally_knockout), malloc'd;
                                                  * NULL: none */
    struct tally_swiss *swiss;                   /* a Swiss tournament's (tally_swiss),
                                                  * malloc'd; NULL: none */
};

/* A Swiss tournament's games by index (their engines and side 1's half
 * points, -1: not in), from which its rounds are paired again. */
struct tally_swiss {
    int rounds;
    uint64_t seed;
    long games;                                  /* rounds x (n / 2) x 2 */
    unsigned char (*who)[2];
    signed char *half1;
};

/* The Swiss standings (tally_swiss_standings): points with byes, the
 * opponents' points (Buchholz), byes, in order; all in half points. */
struct tally_swiss_view {
    int rounds;                                  /* rounds with a game in */
    int order[REC_MAX_ENGINES];
    int half[REC_MAX_ENGINES], buchholz[REC_MAX_ENGINES], byes[REC_MAX_ENGINES];
};

/* Starts a tally for n engines (n <= REC_MAX_ENGINES) named name[i]
 * (shorter than REC_NAME_MAX). 0, or -1 with e filled (fewer than two).
 * Free with tally_free either way. */
int tally_init(struct tally *t, int n, const char *const name[], struct err *e);
/* Counts one game record. 0, or -1 with e filled (an unknown engine, no
 * players, result or reason, a move without a side). */
int tally_add(struct tally *t, const struct game_record *rec, struct err *e);
void tally_free(struct tally *t);
/* Makes t a knockout's: each game added goes into its bracket too, and one
 * that is not the bracket's is refused. 0, or -1 when out of memory. */
int tally_knockout(struct tally *t);
/* Makes t a Swiss tournament's of rounds rounds whose ties the seed
 * orders (swiss.h): each game added is kept by index for the standings.
 * 0, or -1 when out of memory. */
int tally_swiss(struct tally *t, int rounds, uint64_t seed);
/* The Swiss standings of t (tally_swiss): its rounds paired again from the
 * games in, the byes scored, ordered by points, then Buchholz, then the
 * engines' order. */
void tally_swiss_standings(const struct tally *t, struct tally_swiss_view *v);
/* Fixes the ratings of the n anchors (their engines named in t): 0, or -1
 * with e filled naming the first anchor that names no engine of t. */
int tally_anchor(struct tally *t, const struct tally_anchor *a, int n, struct err *e);
/* The anchors as every report names them, in the engines' order: "NAME=ELO,
 * NAME=ELO" (ELO as stats_elo_text writes it), into buf (cap > 0, cut to
 * fit); "" without anchors. */
void tally_anchor_text(const struct tally *t, char *buf, size_t cap);

/* --- views -------------------------------------------------------------- */

/* Engine i's points: a win 1, a draw 1/2. */
double tally_points(const struct tally *t, int i);
/* The engines by points, most first; ties in the configuration's order.
 * Fills order[0..t->n-1]. */
void tally_standings(const struct tally *t, int order[]);
/* 1 with engine i's mean game score for and against, over its games that
 * have one (scored[i]), or 0 (both means 0) when none has. */
int tally_score(const struct tally *t, int i, double *for_mean, double *against_mean);
/* Engine i's forfeits, all reasons. */
long tally_forfeits(const struct tally *t, int i);
/* 1 when engine i played games and forfeited every one of them, whatever
 * the reasons; else 0. */
int tally_forfeited_all(const struct tally *t, int i);
/* Engine i's forfeit reasons (their kinds, rules.h) into buf (cap > 0
 * bytes, cut to fit): the kind alone when there is one ("exit-status 1"),
 * else each with its count, by name ("exit-status 1 (2), timeout (1)");
 * "" when it forfeited none. */
void tally_forfeit_reasons(const struct tally *t, int i, char *buf, size_t cap);

/* Orders t's forfeits with their details (t->why, t->lost) as every
 * report lists them, whatever order the games came in: by engine in order
 * (tally_standings'), an engine's reasons most games first, then by their
 * words (strcmp); each reason's games by number, from why[k].first on.
 * Call it after the last tally_add; calling it again orders them again. */
void tally_why_sort(struct tally *t, const int order[]);

struct tally_cpu {
    double mean, median, p95, max;   /* ms per move; all 0 without a move */
};
/* Engine i's CPU per move (sorts its samples in place). */
struct tally_cpu tally_cpu(struct tally *t, int i);
/* The referee's overhead per move: 0 without samples, else 1 with the
 * median and p95 (sorts the samples in place). */
int tally_overhead(struct tally *t, double *median, double *p95);

/* The ratings of the field (stats_ratings over every game, with
 * RATING_PRIOR_DRAWS): elo[i] relative to the field's mean and its 95%
 * margin[i]; with anchors (tally_anchor), stats_ratings_anchored's: the
 * anchors' own ratings (margin 0) and the others' on their scale. 0, or -1
 * when they could not be computed (then NAN). */
int tally_ratings(const struct tally *t, double elo[], double margin[]);
/* The engines by rating (elo, from tally_ratings), highest first; ties in
 * standings order (order, from tally_standings). Fills by[0..t->n-1]: the
 * order every report lists a field's ratings in. */
void tally_rating_order(const struct tally *t, const int order[], const double elo[], int by[]);

/* Engine a's results against engine b and what they give. */
struct tally_pair {
    long w, l, d, n;               /* a's wins, losses, draws; games */
    double elo, margin;            /* a's Elo difference and 95% margin (stats.h) */
    double los, draw_ratio;
    struct penta penta;            /* a's view: complete game pairs */
    double nelo, nelo_margin;      /* normalized Elo of a and its 95% margin (penta.h) */
};
/* 0 with p filled, or -1 when a and b played no game. */
int tally_pair(const struct tally *t, int a, int b, struct tally_pair *p);
/* The pairs of engines that played each other, in the order every report
 * lists them: a ranked above b in order (tally_standings), by a's rank,
 * then b's. Start with *k = 0; each call fills *a, *b and p (a's view) and
 * returns 1, or returns 0 after the last pair. */
int tally_next_pair(const struct tally *t, const int order[], int *k, int *a, int *b,
                    struct tally_pair *p);

#endif
