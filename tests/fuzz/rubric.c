/*
 * rubric.c - fuzz target for the grading rubric reader (rubric_parse:
 * `referee grade --rubric`, `referee slurm grade --rubric`).
 *
 * Input: the bytes of a rubric; its folder (the base of its globs) is the
 * target's private folder, which holds t1.in and t1.out, so that io checks
 * can match files.
 *
 * Properties:
 *   - a rejection has a message and a place (line and column >= 1), never
 *     a crash, whatever key or value is wrong;
 *   - an accepted rubric has 1 to RUBRIC_MAX_CHECKS checks with distinct
 *     ids and points above 0 summing to max_total; every prerequisite
 *     ("requires") is a check before its own with a share in (0, 1]; a
 *     played check has a game and an engine, an io check its inputs and
 *     either a reference or as many expected files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "referee/grade/rubric.h"
#include "fuzz.h"

/* The folder and its two files, made once. */
static const char *rubric_dir(void)
{
    static char dir[512];
    if (dir[0])
        return dir;
    snprintf(dir, sizeof dir, "%s", fuzz_tmpdir());
    static const char *const names[] = { "t1.in", "t1.out" };
    for (int i = 0; i < 2; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        FILE *f = fopen(path, "w");
        FUZZ_CHECK(f != NULL, "cannot make %s", path);
        fputs("1\n", f);
        fclose(f);
    }
    return dir;
}

static void check_accepted(const struct rubric *r, const char *text)
{
    FUZZ_CHECK(r->ncheck >= 1 && r->ncheck <= RUBRIC_MAX_CHECKS, "%d checks:\n%s", r->ncheck,
               text);
    double sum = 0;
    for (int k = 0; k < r->ncheck; k++) {
        const struct rubric_check *ch = &r->check[k];
        FUZZ_CHECK(ch->id[0] && ch->points > 0, "check %d: id \"%s\", %g points:\n%s", k, ch->id,
                   ch->points, text);
        for (int j = 0; j < k; j++)
            FUZZ_CHECK(strcmp(r->check[j].id, ch->id) != 0, "two checks \"%s\":\n%s", ch->id,
                       text);
        for (int i = 0; i < ch->nrequires; i++)
            FUZZ_CHECK(ch->requires[i].check < k && ch->requires[i].share > 0 &&
                           ch->requires[i].share <= 1,
                       "check %s: prerequisite %d at %d, share %g:\n%s", ch->id, i,
                       ch->requires[i].check, ch->requires[i].share, text);
        if (ch->kind == RUBRIC_IO)
            FUZZ_CHECK(ch->cmd && ch->ninputs > 0 && (ch->reference[0] || ch->expected),
                       "io check %s without its command, inputs or reference:\n%s", ch->id,
                       text);
        else
            FUZZ_CHECK(r->game && r->engine && ch->depth >= 1,
                       "played check %s without a game, an engine or a depth:\n%s", ch->id, text);
        sum += ch->points;
    }
    FUZZ_CHECK(sum == r->max_total, "max_total %g, points sum to %g:\n%s", r->max_total, sum,
               text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_text(data, size);
    struct rubric r;
    struct err e = { 0, 0, "" };
    if (rubric_parse(text, size, rubric_dir(), &r, &e) != 0)
        fuzz_check_err(&e, 1, "rubric");
    else {
        check_accepted(&r, text);
        rubric_free(&r);
    }
    free(text);
    return 0;
}
