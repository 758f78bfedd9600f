/*
 * test_agree.c - move agreement (agree.h): a pair's share of identical
 * moves over the positions both answered, its log-odds, the field's median
 * and MAD of them, the flag above median + max(K x 1.4826 x MAD, gap), the
 * positions a pair agrees on alone, and the JSON's keys.
 *
 * The tables are small fields written out move by move, so that each
 * expected figure can be counted by hand.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/agree.h"

#define TOL 1e-9
#define NPOS_MAX 16
#define ENGINES_MAX 8

/* A field of engines whose moves at each position are one letter each:
 * rows[e] is engine e's answers, '.' where it gave none. */
struct field {
    struct agree_table t;
    const char *names[ENGINES_MAX];
    const char *moves[ENGINES_MAX * NPOS_MAX];
    char text[ENGINES_MAX * NPOS_MAX][2];
};

static void field_make(struct field *f, int n, const char *const *names, const char *const *rows)
{
    memset(f, 0, sizeof *f);
    long npos = (long)strlen(rows[0]);
    cr_assert(n <= ENGINES_MAX && npos <= NPOS_MAX);
    for (int e = 0; e < n; e++) {
        cr_assert_eq((long)strlen(rows[e]), npos, "row %d has %zu moves, not %ld", e,
                     strlen(rows[e]), npos);
        f->names[e] = names[e];
        for (long p = 0; p < npos; p++) {
            size_t i = (size_t)e * (size_t)npos + (size_t)p;
            f->text[i][0] = rows[e][p];
            f->moves[i] = rows[e][p] == '.' ? NULL : f->text[i];
        }
    }
    f->t = (struct agree_table){ .nengines = n, .npos = npos, .names = f->names,
                                 .moves = f->moves };
}

static const struct agree_pair *pair_of(const struct agree_field *af, int a, int b)
{
    for (int k = 0; k < af->npairs; k++)
        if (af->pair[k].a == a && af->pair[k].b == b)
            return &af->pair[k];
    cr_assert_fail("no pair %d-%d", a, b);
    return NULL;
}

Test(agree, agreement_is_same_moves_over_positions_both_answered)
{
    static const char *names[] = { "x", "y" };
    static const char *rows[] = { "abcd.f", "abzz.." };
    struct field f;
    field_make(&f, 2, names, rows);
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    cr_assert_eq(af.npairs, 1);
    const struct agree_pair *p = pair_of(&af, 0, 1);
    cr_assert_eq(p->compared, 4, "compared %ld, expected 4 (positions 5 and 6 unanswered)",
                 p->compared);
    cr_assert_eq(p->same, 2, "same %ld, expected 2", p->same);
    cr_assert_float_eq(p->agreement, 0.5, TOL, "agreement %g, expected 0.5", p->agreement);
    agree_free(&af);
}

Test(agree, a_pair_with_no_position_in_common_agrees_zero)
{
    static const char *names[] = { "x", "y" };
    static const char *rows[] = { "ab..", "..ab" };
    struct field f;
    field_make(&f, 2, names, rows);
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    cr_assert_eq(af.pair[0].compared, 0);
    cr_assert_float_eq(af.pair[0].agreement, 0.0, TOL, "agreement %g", af.pair[0].agreement);
    cr_assert_not(af.pair[0].flagged);
    agree_free(&af);
}

Test(agree, two_engines_are_their_own_median_and_never_flagged)
{
    static const char *names[] = { "x", "x-copy" };
    static const char *rows[] = { "abcdefgh", "abcdefgh" };
    struct field f;
    field_make(&f, 2, names, rows);
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    cr_assert_float_eq(af.median, agree_log_odds(8, 8), TOL, "median %g", af.median);
    cr_assert_not(af.pair[0].flagged, "a field of one pair flagged it");
    agree_free(&af);
}

/* Five engines that differ and a copy of the first: the copy's pair is
 * flagged, no other. Agreements: x-x-copy 1, the others 0 to 0.25 (the
 * median 0.125, log-odds -1.61; MAD 0.65 in log-odds; threshold 0.81, a
 * share of 0.69). */
static const char *field5_names[] = { "x", "y", "z", "w", "v", "x-copy" };
static const char *field5_rows[] = {
    "abcdefgh",
    "abzzzzzz",
    "azcrrysr",
    "yyyyeyyy",
    "qqqqqfqh",
    "abcdefgh",
};

Test(agree, a_copy_in_a_field_is_flagged_and_the_rest_not)
{
    struct field f;
    field_make(&f, 6, field5_names, field5_rows);
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    cr_assert_eq(af.npairs, 15);
    cr_assert_eq(af.pair[0].a, 0, "highest pair %d-%d", af.pair[0].a, af.pair[0].b);
    cr_assert_eq(af.pair[0].b, 5, "highest pair %d-%d", af.pair[0].a, af.pair[0].b);
    for (int k = 0; k < af.npairs; k++) {
        const struct agree_pair *p = &af.pair[k];
        int copy = p->a == 0 && p->b == 5;
        cr_assert_eq(p->flagged, copy, "pair %s-%s at %.3f flagged %d (threshold %.3f)",
                     field5_names[p->a], field5_names[p->b], p->agreement, p->flagged,
                     af.threshold);
        if (k)
            cr_assert(p->agreement <= af.pair[k - 1].agreement, "pairs not sorted at %d", k);
    }
    agree_free(&af);
}

Test(agree, the_threshold_is_median_plus_k_robust_deviations_or_the_gap)
{
    double wide = agree_threshold(-0.4, 1.0);
    double expect = -0.4 + AGREE_FLAG_K * AGREE_MAD_SCALE * 1.0;
    cr_assert_float_eq(wide, expect, TOL, "threshold %g, expected %g", wide, expect);
    double narrow = agree_threshold(-0.4, 0.0);
    cr_assert_float_eq(narrow, -0.4 + AGREE_FLAG_MIN_GAP, TOL, "threshold %g with MAD 0",
                       narrow);
}

Test(agree, log_odds_count_a_half_on_each_side)
{
    double l = agree_log_odds(3, 4);
    cr_assert_float_eq(l, log(3.5 / 1.5), TOL, "log-odds of 3 of 4: %g", l);
    cr_assert_float_eq(agree_log_odds(0, 0), 0.0, TOL, "no position: %g", agree_log_odds(0, 0));
    cr_assert_float_eq(agree_share(0.0), 0.5, TOL, "share at 0: %g", agree_share(0.0));
    cr_assert_float_eq(agree_share(log(3.0)), 0.75, TOL, "share at ln 3: %g",
                       agree_share(log(3.0)));
}

Test(agree, median_and_mad_of_an_even_field_take_the_middle_two)
{
    static const char *names[] = { "p", "q", "r", "s" };
    static const char *rows[] = { "aaaa", "aabb", "abbb", "bbbb" };
    /* Same of 4: p-q 2, p-r 1, p-s 0, q-r 3, q-s 2, r-s 3: log-odds
     * ln(2.5/2.5) = 0 twice, ln(1.5/3.5), ln(0.5/4.5), ln(3.5/1.5) twice;
     * sorted l0 l1 0 0 l3 l3: median 0; deviations |l0| |l1| 0 0 l3 l3,
     * l3 = -l1 = 0.847: MAD l3. */
    struct field f;
    field_make(&f, 4, names, rows);
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    double l3 = log(3.5 / 1.5);
    cr_assert_float_eq(af.median, 0.0, TOL, "median %g, expected 0", af.median);
    cr_assert_float_eq(af.mad, l3, TOL, "MAD %g, expected %g", af.mad, l3);
    cr_assert_float_eq(af.threshold, agree_threshold(0.0, l3), TOL, "threshold %g",
                       af.threshold);
    const struct agree_pair *qr = pair_of(&af, 1, 2);
    double z = l3 / (AGREE_MAD_SCALE * l3);
    cr_assert_float_eq(qr->z, z, TOL, "z of q-r %g, expected %g", qr->z, z);
    agree_free(&af);
}

Test(agree, positions_alone_are_where_only_the_pair_plays_its_move)
{
    static const char *names[] = { "x", "y", "z" };
    static const char *rows[] = { "abcd", "abce", "xbcd" };
    /* x-y agree at 1, 2, 3 (0-based 0..2); z plays b at 1 and c at 2:
     * alone only at position 0. */
    struct field f;
    field_make(&f, 3, names, rows);
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    const struct agree_pair *p = pair_of(&af, 0, 1);
    cr_assert_eq(p->alone, 1, "alone %ld, expected 1", p->alone);
    long pos[4];
    long n = agree_alone(&f.t, p, pos, 4);
    cr_assert_eq(n, 1);
    cr_assert_eq(pos[0], 0, "alone at %ld, expected 0", pos[0]);
    agree_free(&af);
}

Test(agree, the_json_names_pairs_and_gives_a_flagged_pairs_evidence)
{
    struct field f;
    field_make(&f, 6, field5_names, field5_rows);
    const char *labels[8] = { "1", "2", "3", "4", "5", "6", "7", "8" };
    f.t.labels = labels;
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    cJSON *doc = cJSON_CreateObject();
    cr_assert_eq(agree_json(&f.t, &af, doc), 0);
    cJSON *pairs = cJSON_GetObjectItem(doc, "pairs");
    cr_assert_eq(cJSON_GetArraySize(pairs), 15);
    cJSON *top = cJSON_GetArrayItem(pairs, 0);
    cr_assert_str_eq(cJSON_GetObjectItem(top, "a")->valuestring, "x");
    cr_assert_str_eq(cJSON_GetObjectItem(top, "b")->valuestring, "x-copy");
    cr_assert_float_eq(cJSON_GetObjectItem(top, "agreement")->valuedouble, 1.0, TOL);
    cr_assert(cJSON_IsTrue(cJSON_GetObjectItem(top, "flagged")));
    cJSON *ev = cJSON_GetObjectItem(top, "evidence");
    /* x and x-copy alone: where no other engine plays their letter. */
    long alone = (long)cJSON_GetObjectItem(top, "alone")->valuedouble;
    cr_assert_eq(cJSON_GetArraySize(ev), alone < AGREE_EVIDENCE_MAX ? alone : AGREE_EVIDENCE_MAX,
                 "evidence of %d positions, %ld alone", cJSON_GetArraySize(ev), alone);
    cJSON *first = cJSON_GetArrayItem(ev, 0);
    cr_assert_not_null(cJSON_GetObjectItem(first, "others"));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(first, "others")), 4);
    cJSON *second = cJSON_GetArrayItem(pairs, 1);
    cr_assert(cJSON_IsFalse(cJSON_GetObjectItem(second, "flagged")));
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(second, "evidence")), 0);
    cr_assert_eq(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "engines")), 6);
    cJSON_Delete(doc);
    agree_free(&af);
}

Test(agree, the_text_ranks_pairs_marks_the_flagged_and_shows_its_evidence)
{
    static const char *names[] = { "x", "y", "z", "w", "v", "x-copy" };
    static const char *rows[] = {
        "abcdefgh", "abzzzzzz", "azcrrysr", "yyyyeyyy", "qqqqqfqh", "abcdefg.",
    };
    struct field f;
    field_make(&f, 6, names, rows);
    const char *labels[8] = { "1", "1 2", "1 2 3", "(start)", "5", "6", "7 1", "8" };
    f.t.labels = labels;
    struct agree_field af;
    cr_assert_eq(agree_compute(&f.t, &af), 0);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    cr_assert_not_null(out);
    agree_text(&f.t, &af, out);
    fclose(out);
    const char *want[] = {
        "Field of 15 pairs: median L ",
        "; 1 pair\n\n",
        "Engine  Engine  Agreement    Same  Compared  Alone       z  Flagged\n"
        "x       x-copy      1.000       7         7      2 ",
        "  FLAGGED\n",
        "\nx and x-copy agree on 7 of 7 positions, 2 of them alone (no other engine plays "
        "their move):\n"
        "  position 4 ((start)): both d; others: y z, z r, w y, v q\n"
        "  position 7 (7 1): both g; others: y z, z s, w y, v q\n",
        "x-copy: no legal answer at 1 of 8 positions (not compared there)\n",
    };
    for (size_t k = 0; k < sizeof want / sizeof *want; k++)
        cr_assert_not_null(strstr(text, want[k]), "no '%s' in:\n%s", want[k], text);
    cr_assert_null(strstr(strstr(text, "FLAGGED") + 1, "FLAGGED"), "two flagged:\n%s", text);
    free(text);
    agree_free(&af);
}
