/*
 * test_e2e_swiss.c - `referee tournament --format swiss` end to end: each
 * pairing a game pair on one opening with colours swapped, no pair twice,
 * one bye a round in an odd field and never the same engine's twice, the
 * rounds printed as paired; killed mid-run and resumed, the same pairings
 * as an uninterrupted run; its bad options refused with status 2 and
 * nothing written.
 */
#include <criterion/criterion.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e_field.h"
#include "e2e_util.h"

static void run_swiss(const struct e2e_field *f, const char *dir, const char *journal, int rounds,
                      struct e2e_run *r)
{
    char nrounds[16];
    snprintf(nrounds, sizeof nrounds, "%d", rounds);
    const char *args[] = { "tournament", "--game", "nim", "--format", "swiss", "--rounds",
                           nrounds, "--random-plies", "2", "--seed", "11", "--concurrency", "2",
                           "--journal", journal, "--engine", f->spec[0], "--engine",
                           f->spec[1], "--engine", f->spec[2], "--engine", f->spec[3],
                           "--engine", f->spec[4], NULL };
    e2e_runv(r, dir, NULL, "referee", args);
}

Test(e2e_swiss, pairs_never_repeat_colours_swap_and_byes_rotate, .timeout = 60)
{
    struct e2e_field f;
    e2e_field_make(&f);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    run_swiss(&f, dir, "j.jsonl", 2, &r);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    struct e2e_field_games g;
    e2e_field_read_journal(&f, dir, "j.jsonl", "swiss", &g);
    /* 2 rounds of 2 pairings of 2 games: the fifth engine sits out. */
    cr_assert_eq(g.n, 8, "%d games", g.n);
    int met[E2E_FIELD][E2E_FIELD] = { { 0 } }, byes[E2E_FIELD] = { 0 };
    for (int round = 0; round < 2; round++) {
        int played[E2E_FIELD] = { 0 };
        for (int k = 0; k < 2; k++) {
            int i = 4 * round + 2 * k + 1, a = g.who[i][0], b = g.who[i][1];
            cr_assert(g.who[i + 1][0] == b && g.who[i + 1][1] == a,
                      "games %d and %d are not one pair with colours swapped", i, i + 1);
            cr_assert(g.pair[i] == g.pair[i + 1] && g.pair[i] == (i - 1) / 2,
                      "games %d and %d: pairs %ld and %ld", i, i + 1, g.pair[i], g.pair[i + 1]);
            cr_assert_eq(met[a][b], 0, "%s and %s meet twice", f.name[a], f.name[b]);
            met[a][b] = met[b][a] = 1;
            played[a]++;
            played[b]++;
        }
        int bye = -1;
        for (int e = 0; e < E2E_FIELD; e++) {
            cr_assert(played[e] <= 1, "round %d: %s plays twice", round + 1, f.name[e]);
            if (!played[e])
                bye = e;
        }
        cr_assert_eq(byes[bye], 0, "%s has a second bye", f.name[bye]);
        byes[bye]++;
        /* The round's line names its pairings and its bye. */
        char line[256];
        int i = 4 * round + 1;
        snprintf(line, sizeof line, "Round %d: %s - %s, %s - %s; bye: %s (1 point)\n", round + 1,
                 f.name[g.who[i][0]], f.name[g.who[i][1]], f.name[g.who[i + 2][0]],
                 f.name[g.who[i + 2][1]], f.name[bye]);
        cr_assert_not_null(strstr(r.out, line), "no line %s in:\n%s", line, r.out);
    }
    const char *standings = strstr(r.out, "\nSwiss standings (2 rounds; a bye scores 1 point):\n");
    cr_assert_not_null(standings, "%s", r.out);
    /* referee report pairs the journal's rounds again: the same standings,
     * byes included. */
    struct e2e_run rep;
    e2e_run(&rep, dir, NULL, "referee", "report", "j.jsonl", NULL);
    cr_assert_eq(rep.status, 0, "%s", rep.err);
    size_t len = strcspn(standings + 1, "C");   /* up to "CPU time per move" */
    char *block = strndup(standings, len);
    cr_assert(len > 40 && strstr(rep.out, block),
              "the report's standings differ:\n%s\nvs\n%s", rep.out, block);
    free(block);
    for (int e = 0; e < E2E_FIELD; e++) {   /* every engine had at most one bye: 1 point */
        char row[80];
        snprintf(row, sizeof row, "  %-20s ", f.name[e]);
        cr_assert_not_null(strstr(standings, row), "no row for %s", f.name[e]);
    }
    e2e_run_free(&rep);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Every game of the second round waits for the first round's results:
 * all of round 1's games are printed before round 2's pairing. */
Test(e2e_swiss, a_round_starts_when_the_last_one_is_in, .timeout = 60)
{
    struct e2e_field f;
    e2e_field_make(&f);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    run_swiss(&f, dir, "j.jsonl", 2, &r);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    const char *round2 = strstr(r.out, "Round 2:");
    cr_assert_not_null(round2, "%s", r.out);
    for (int i = 1; i <= 8; i++) {   /* games 1-4 are round 1's, 5-8 round 2's */
        char game[32];
        snprintf(game, sizeof game, "Finished game %d ", i);
        const char *at = strstr(r.out, game);
        cr_assert(at && (i <= 4 ? at < round2 : at > round2), "game %d is not %s round 2:\n%s",
                  i, i <= 4 ? "before" : "after", r.out);
    }
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Killed (SIGKILL) mid-run and resumed, the journal pairs every round as an
 * uninterrupted run does. */
Test(e2e_swiss, resume_after_a_kill_pairs_the_same_rounds, .timeout = 90)
{
    struct e2e_field f;
    e2e_field_make(&f);
    char *dir = e2e_tmpdir();
    struct e2e_run whole;
    run_swiss(&f, dir, "whole.jsonl", 2, &whole);
    cr_assert_eq(whole.status, 0, "exit %d: %s", whole.status, whole.err);
    struct e2e_field_games part;
    e2e_field_kill_and_resume(&f, dir, "swiss", "--rounds 2", 3, &part);
    cr_assert(part.n >= 2 && part.n < 8, "the kill came too late or too early: %d games",
              part.n);
    struct e2e_field_games a, b;
    e2e_field_read_journal(&f, dir, "whole.jsonl", "swiss", &a);
    e2e_field_read_journal(&f, dir, "j.jsonl", "swiss", &b);
    cr_assert_eq(b.n, 8, "%d games after resume", b.n);
    for (int i = 1; i <= 8; i++)
        cr_assert(a.who[i][0] == b.who[i][0] && a.who[i][1] == b.who[i][1],
                  "game %d: %s vs %s uninterrupted, %s vs %s resumed", i, f.name[a.who[i][0]],
                  f.name[a.who[i][1]], f.name[b.who[i][0]], f.name[b.who[i][1]]);
    char *second = e2e_slurp_at(dir, "second.out");
    cr_assert_not_null(strstr(second, "Resuming: "), "%s", second);
    free(second);
    e2e_run_free(&whole);
    e2e_rmdir(dir);
}

/* A journal of one Swiss tournament whose game is not its round's pairing
 * (here: its first line's players swapped by hand, game 1 or 2 as the
 * two finished) is refused on resume. */
Test(e2e_swiss, resume_refuses_a_game_that_is_not_its_pairing, .timeout = 60)
{
    struct e2e_field f;
    e2e_field_make(&f);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    run_swiss(&f, dir, "j.jsonl", 1, &r);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    /* Keep the header and game 1 with its players swapped (in its text:
     * the journal reads only records as the referee writes them). */
    char *text = e2e_slurp_at(dir, "j.jsonl");
    char *nl = strchr(text, '\n');
    char *second = strndup(nl + 1, strcspn(nl + 1, "\n"));
    cJSON *g = cJSON_Parse(second);
    cJSON *players = cJSON_GetObjectItemCaseSensitive(g, "players");
    char a[32], b[32], from[128], to[128];
    snprintf(a, sizeof a, "%s", cJSON_GetArrayItem(players, 0)->valuestring);
    snprintf(b, sizeof b, "%s", cJSON_GetArrayItem(players, 1)->valuestring);
    snprintf(from, sizeof from, "\"players\":{\"1\":\"%s\",\"2\":\"%s\"}", a, b);
    snprintf(to, sizeof to, "\"players\":{\"1\":\"%s\",\"2\":\"%s\"}", b, a);
    char *at = strstr(second, from);
    cr_assert_not_null(at, "no %s in %s", from, second);
    char *out = malloc(strlen(text) + strlen(second) + 4);
    sprintf(out, "%.*s\n%.*s%s%s\n", (int)(nl - text), text, (int)(at - second), second, to,
            at + strlen(from));
    e2e_put_at(dir, "j.jsonl", out);
    const char *args[] = { "tournament", "--game", "nim", "--format", "swiss", "--rounds", "1",
                           "--random-plies", "2", "--seed", "11", "--concurrency", "2",
                           "--journal", "j.jsonl", "--resume", "--engine", f.spec[0],
                           "--engine", f.spec[1], "--engine", f.spec[2], "--engine",
                           f.spec[3], "--engine", f.spec[4], NULL };
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, 1, "exit %d: %s", r.status, r.err);
    char want[256];
    int index = cJSON_GetObjectItemCaseSensitive(g, "index")->valueint;   /* 1 or 2 */
    snprintf(want, sizeof want, "game %d: %s against %s, but round 1 pairs %s against %s",
             index, b, a, a, b);
    cr_assert_not_null(strstr(r.err, want), "%s", r.err);
    e2e_run_free(&r);
    free(out);
    free(second);
    free(text);
    cJSON_Delete(g);
    e2e_rmdir(dir);
}

struct bad { const char *extra[3]; const char *message; };

/* Bad Swiss options: status 2, the reason, no journal. */
Test(e2e_swiss, bad_options_are_refused_and_write_nothing)
{
    struct e2e_field f;
    e2e_field_make(&f);
    static const struct bad bad[] = {
        { { "--rounds", "0", NULL }, "--rounds" },
        { { "--rounds", "3", NULL }, "--rounds 3: a Swiss of 5 engines has at most 2 rounds" },
        { { "--shard", "1/2", NULL }, "it cannot be split into shards" },
    };
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        char *dir = e2e_tmpdir();
        const char *args[] = { "tournament", "--game", "nim", "--format", "swiss",
                               "--journal", "j.jsonl", "--engine", f.spec[0], "--engine",
                               f.spec[1], "--engine", f.spec[2], "--engine", f.spec[3],
                               "--engine", f.spec[4], bad[k].extra[0], bad[k].extra[1], NULL };
        struct e2e_run r;
        e2e_runv(&r, dir, NULL, "referee", args);
        cr_assert_eq(r.status, 2, "%s %s: exit %d: %s", bad[k].extra[0], bad[k].extra[1],
                     r.status, r.err);
        cr_assert_not_null(strstr(r.err, bad[k].message), "%s", r.err);
        char path[PATH_MAX];
        snprintf(path, sizeof path, "%s/j.jsonl", dir);
        cr_assert(!e2e_exists(path), "%s %s wrote a journal", bad[k].extra[0], bad[k].extra[1]);
        e2e_run_free(&r);
        e2e_rmdir(dir);
    }
}
