/*
 * agree.h - move agreement between engines over one fixed set of
 * positions: how often two engines choose the same move, set against the
 * field's distribution of those shares, and the pairs far above it flagged
 * with the positions that show it. The computation behind `referee
 * similarity` (similarity.h asks the engines), kept apart from running
 * engines so that a league, which has its own answers, calls it too.
 *
 * The table (struct agree_table): engine e's move at position p is
 * moves[e * npos + p], a move text as the record has it, or NULL when the
 * engine gave no legal answer there. Moves are compared as texts.
 *
 * A pair's agreement: identical moves / positions both answered (0 when
 * they answered none in common). The pairs are compared on its log-odds,
 *     L = ln((same + 1/2) / (compared - same + 1/2)),
 * where a share near 1 stands as far from 0.9 as 0.9 from 0.5: copies agree
 * near 1, and the scale spreads them from the field instead of squeezing
 * them against the ceiling (the half keeps L finite). The field is every
 * pair's L; m its median, s = AGREE_MAD_SCALE x its median absolute
 * deviation (the MAD scaled to a normal distribution's standard
 * deviation, so that a pair or two of copies cannot widen it as they would
 * a plain standard deviation); a pair's z is (L - m) / s. It is flagged
 * when
 *     L > m + max(AGREE_FLAG_K x s, AGREE_FLAG_MIN_GAP)
 * (limits.h gives both constants' reasons). A field of two engines has one
 * pair, which is its own median: nothing is flagged without a field; and
 * the rule compares engines with their field, so two engines of one kind
 * in a field of another (two deep searches among random players) stand out
 * as copies would.
 *
 * A pair's positions alone: those where the two chose the same move and no
 * other engine of the field did; for a flagged pair they are its evidence.
 */
#ifndef ARENA_AGREE_H
#define ARENA_AGREE_H

#include <stdio.h>
#include "arena/limits.h"

struct cJSON;

/* Answers of n engines at npos positions. names: nengines names (unique);
 * labels: npos texts naming each position to a reader (the moves from the
 * start), shown with the evidence. */
struct agree_table {
    int nengines;
    long npos;
    const char *const *names;
    const char *const *moves;
    const char *const *labels;
};

struct agree_pair {
    int a, b;              /* engines, a < b */
    long same, compared;   /* identical moves; positions both answered */
    long alone;            /* identical moves no other engine played */
    double agreement;      /* same / compared; 0 when compared is 0 */
    double log_odds;       /* L above */
    double z;              /* (L - median) / s; 0 when s is 0 (none stands out
                            * of a field whose pairs are alike, but by the gap) */
    int flagged;
};

/* The field: its pairs, highest agreement first (ties: by a, then b), and
 * the rule's figures. */
struct agree_field {
    int npairs;            /* nengines x (nengines - 1) / 2 */
    struct agree_pair *pair;
    double median, mad;    /* of the pairs' log-odds; mad unscaled */
    double threshold;      /* flagged above it (log-odds) */
};

/* Computes f from t (nengines >= 2, npos >= 0). 0, or -1 when out of memory
 * (f then holds nothing to free). Free f with agree_free. */
int agree_compute(const struct agree_table *t, struct agree_field *f);
void agree_free(struct agree_field *f);

/* The log-odds of same identical moves out of compared. */
double agree_log_odds(long same, long compared);
/* The share whose log-odds (without the halves) is l: 1 / (1 + e^-l). */
double agree_share(double l);
/* The threshold (log-odds) of a field whose median is median and whose
 * MAD is mad (log-odds). */
double agree_threshold(double median, double mad);

/* Up to cap positions (ascending, 0-based) where pair p agrees alone
 * (above) into pos; returns how many were written. */
long agree_alone(const struct agree_table *t, const struct agree_pair *p, long *pos, long cap);

/* The text: the rule and the field's figures, one row per pair (highest
 * first, flagged ones marked), then each flagged pair's evidence (its
 * first AGREE_EVIDENCE_MAX positions alone, each with its label, the pair's
 * move and the others'), then the engines that failed moves, if any. */
void agree_text(const struct agree_table *t, const struct agree_field *f, FILE *out);

/* The JSON's keys, added to obj: "rule" {"scale": "log-odds", "k",
 * "min_gap", "mad_scale"}, "median", "mad", "threshold" (log-odds),
 * "threshold_share" (the threshold as a share, agree_share), "engines"
 * [{"name", "answered", "failed"}], "pairs" [{"a", "b", "agreement",
 * "same", "compared", "alone", "log_odds", "z", "flagged", "evidence":
 * [{"position" (1-based), "moves", "move", "others" {NAME: MOVE|null}}]}]
 * in the text's order; evidence is empty for a pair not flagged. 0, or -1
 * when out of memory. */
int agree_json(const struct agree_table *t, const struct agree_field *f, struct cJSON *obj);

#endif
