/*
 * test_e2e_tournament.c - `referee tournament`, `report`, `verify` and
 * `merge` end to end: the schedule does not depend on concurrency, the
 * journal survives SIGKILL and SIGINT and --resume completes it with no game
 * lost or duplicated, hostile engines forfeit inside a tournament that still
 * finishes, verify catches a doctored journal, shards merge into the
 * unsharded tournament, SPRT stops early, and bad configs, books and
 * journals are refused with file:line:col and exit status 2.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "e2e_util.h"

#define EXIT_BAD 2
#define SPEC_MAX (2 * PATH_MAX + 256)

struct specs {
    char d1[SPEC_MAX], d2[SPEC_MAX], rnd[SPEC_MAX], perfect[SPEC_MAX];
    char slow[SPEC_MAX];   /* tests/engines/slow.sh, set where used */
};

static void make_specs(struct specs *s)
{
    char e[PATH_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    snprintf(s->d1, SPEC_MAX, "name=d1,cmd=%s one-move --game connect4 --depth 1 {in} {out}", e);
    snprintf(s->d2, SPEC_MAX, "name=d2,cmd=%s one-move --game connect4 --depth 2 {in} {out}", e);
    snprintf(s->rnd, SPEC_MAX,
             "name=rnd,cmd=%s one-move --game connect4 --player random --seed {player} {in} "
             "{out} 1", e);
    snprintf(s->perfect, SPEC_MAX, "name=perfect,cmd=%s one-move --game nim --player perfect", e);
}

/* The lines of text starting with prefix, sorted, joined. */
static char *lines_with(const char *text, const char *prefix)
{
    size_t n = 0, cap = 64;
    char **v = malloc(cap * sizeof *v);
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        size_t len = nl ? (size_t)(nl - p) : strlen(p);
        if (strncmp(p, prefix, strlen(prefix)) == 0) {
            if (n == cap)
                v = realloc(v, (cap *= 2) * sizeof *v);
            v[n++] = strndup(p, len);
        }
        p += len + (nl != NULL);
    }
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
            char *t = v[j];
            v[j] = v[j - 1];
            v[j - 1] = t;
        }
    size_t total = 1;
    for (size_t i = 0; i < n; i++)
        total += strlen(v[i]) + 1;
    char *out = calloc(total, 1);
    for (size_t i = 0; i < n; i++) {
        strcat(out, v[i]);
        strcat(out, "\n");
        free(v[i]);
    }
    free(v);
    return out;
}

/* Indices of the games in a journal: asserts each of 1..n exactly once. */
static void assert_journal_complete(const char *path, int n)
{
    char *text = e2e_slurp(path, NULL);
    cr_assert_not_null(text, "no journal %s", path);
    int *seen = calloc((size_t)n + 1, sizeof *seen), lines = 0;
    for (char *p = strchr(text, '\n'); p && p[1]; p = strchr(p + 1, '\n')) {
        char *line = strndup(p + 1, strcspn(p + 1, "\n"));
        cJSON *rec = cJSON_Parse(line);
        free(line);
        cr_assert_not_null(rec, "journal line %d is not JSON", lines + 2);
        int i = cJSON_GetObjectItemCaseSensitive(rec, "index")->valueint;
        cr_assert(i >= 1 && i <= n, "game index %d out of 1..%d", i, n);
        seen[i]++;
        lines++;
        cJSON_Delete(rec);
    }
    for (int i = 1; i <= n; i++)
        cr_assert_eq(seen[i], 1, "game %d is in the journal %d times", i, seen[i]);
    cr_assert_eq(lines, n, "%d game lines, want %d", lines, n);
    free(seen);
    free(text);
}

/* The same games one at a time and three at once (on this project's two
 * cores: --force-concurrency lets them share CPUs), which verify accepts. */
Test(e2e_tournament, round_robin_is_the_same_at_any_concurrency_and_verifies)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir();
    struct e2e_run a, b, v;
    const char *args[] = { "tournament", "--game", "connect4", "--engine", s.d1, "--engine",
                           s.d2, "--engine", s.rnd, "--random-plies", "3", "--seed", "7",
                           "--journal", "j1.jsonl", "--concurrency", "1", NULL };
    e2e_runv(&a, dir, NULL, "referee", args);
    cr_assert_eq(a.status, 0, "exit %d: %s", a.status, a.err);
    const char *args2[] = { "tournament", "--game", "connect4", "--engine", s.d1, "--engine",
                            s.d2, "--engine", s.rnd, "--random-plies", "3", "--seed", "7",
                            "--journal", "j2.jsonl", "--concurrency", "3",
                            "--force-concurrency", NULL };
    e2e_runv(&b, dir, NULL, "referee", args2);
    cr_assert_eq(b.status, 0, "exit %d: %s", b.status, b.err);
    char *ra = lines_with(a.out, "Finished game"), *rb = lines_with(b.out, "Finished game");
    cr_assert_str_eq(ra, rb, "concurrency changed the games:\n%s\nvs\n%s", ra, rb);
    cr_assert_not_null(strstr(ra, "Finished game 1 (d1 vs d2)"), "%s", ra);
    cr_assert_not_null(strstr(ra, "Finished game 6 (rnd vs d2)"), "%s", ra);
    cr_assert_not_null(strstr(a.out, "Standings after 6 games\n"), "%s", a.out);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/j2.jsonl", dir);
    assert_journal_complete(path, 6);
    e2e_run(&v, dir, NULL, "referee", "verify", "j2.jsonl", NULL);
    cr_assert_eq(v.status, 0, "verify: %s", v.err);
    cr_assert_not_null(strstr(v.out, "j2.jsonl: 6 games, "), "%s", v.out);
    free(ra);
    free(rb);
    e2e_run_free(&a);
    e2e_run_free(&b);
    e2e_run_free(&v);
    e2e_rmdir(dir);
}

/* Killed with SIGKILL (or stopped with SIGINT) mid-run, then resumed: every
 * game is in the journal exactly once and verify accepts it. */
static void kill_and_resume(const char *signal_name, int want_status, const char *delay)
{
    struct specs s;
    make_specs(&s);
    char e[PATH_MAX], slow[PATH_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    e2e_repo_path("tests/engines/slow.sh", slow, sizeof slow);
    snprintf(s.slow, SPEC_MAX, "name=slow,cmd=%s %s %s {in} {out}", slow, e, delay);
    char *dir = e2e_tmpdir(), ref[PATH_MAX], cmd[4 * SPEC_MAX];
    e2e_bin_path("referee", ref, sizeof ref);
    char script[PATH_MAX];
    snprintf(script, sizeof script, "%s/run.sh", dir);
    FILE *f = fopen(script, "w");
    fprintf(f, "#!/bin/sh\nexec '%s' tournament --game nim --engine '%s' --engine '%s' "
               "--rounds 10 --random-plies 2 --concurrency 2 --journal j.jsonl \"$@\"\n",
            ref, s.perfect, s.slow);
    fclose(f);
    /* The kill comes once the journal holds its header and a game (polled,
     * at most 20 s: a fixed sleep came too early on a loaded machine). The
     * shell's own "Killed" goes to /dev/null: run.sh's output is in
     * first.out, and the status in status. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && { sh run.sh >first.out 2>&1 & pid=$!; i=0; "
             "while [ $i -lt 400 ] && [ \"$(cat j.jsonl 2>/dev/null | wc -l)\" -lt 2 ]; "
             "do sleep 0.05; i=$((i+1)); done; kill -%s $pid; "
             "wait $pid; echo $? > status; } 2>/dev/null",
             dir, signal_name);
    cr_assert_eq(system(cmd), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/status", dir);
    char *status = e2e_slurp(path, NULL);
    cr_assert_eq(atoi(status), want_status, "exit status %s", status);
    free(status);
    snprintf(path, sizeof path, "%s/j.jsonl", dir);
    char *before = e2e_slurp(path, NULL);
    int lines = 0;
    for (char *p = before; (p = strchr(p, '\n')); p++)
        lines++;
    cr_assert(lines >= 2 && lines < 21, "the kill came too late or too early: %d lines", lines);
    free(before);
    /* After SIGKILL the workers learn of it (PR_SET_PDEATHSIG) and kill
     * their engines: give them a moment. */
    char pattern[32];
    snprintf(pattern, sizeof pattern, "sleep 0[.]%s", delay + 2);
    for (int i = 0; i < 100 && e2e_process_alive(pattern); i++)
        usleep(10000);
    cr_assert(!e2e_process_alive(pattern), "an engine outlived the referee");
    snprintf(cmd, sizeof cmd, "cd '%s' && sh run.sh --resume >second.out 2>&1", dir);
    cr_assert_eq(system(cmd), 0, "resume failed");
    assert_journal_complete(path, 20);
    struct e2e_run v;
    e2e_run(&v, dir, NULL, "referee", "verify", "j.jsonl", NULL);
    cr_assert_eq(v.status, 0, "verify: %s%s", v.out, v.err);
    e2e_run_free(&v);
    e2e_rmdir(dir);
}

Test(e2e_tournament, resume_after_sigkill_loses_and_repeats_no_game, .timeout = 60)
{
    kill_and_resume("KILL", 128 + 9, "0.051");
}

Test(e2e_tournament, sigint_stops_cleanly_and_resume_finishes, .timeout = 60)
{
    kill_and_resume("INT", 130, "0.052");
}

Test(e2e_tournament, hostile_engines_forfeit_and_the_gauntlet_finishes)
{
    struct specs s;
    make_specs(&s);
    char e[PATH_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    snprintf(s.d1, SPEC_MAX, "name=d1,cmd=%s one-move --game connect4 --depth 1 {in} {out}", e);
    const char *names[] = { "crasher", "hog", "escaper", "forker", "sleeper", "tamper" };
    const char *reasons[] = { "crashed: SIGSEGV", "memory-limit", "no-output",
                              "no-output", "timeout", "tampered-board" };
    char spec[6][PATH_MAX + 32];
    const char *args[32] = { "tournament", "--game", "connect4", "--format", "gauntlet",
                             "--engine", s.d1 };
    int n = 7;
    for (int i = 0; i < 6; i++) {
        char rel[64], abs[PATH_MAX];
        snprintf(rel, sizeof rel, "tests/engines/%s.sh", names[i]);
        e2e_repo_path(rel, abs, sizeof abs);
        snprintf(spec[i], sizeof spec[i], "name=%s,cmd=%s", names[i], abs);
        args[n++] = "--engine";
        args[n++] = spec[i];
    }
    /* 15 s: hog needs about 1 s of CPU to reach the limit, which a machine
     * at load 20 stretches past 8 s of wall time (it then timed out). */
    const char *tail[] = { "--timeout-ms", "15000", "--mem-limit-mb", "256", "--concurrency", "2",
                           "--journal", "j.jsonl", NULL };
    memcpy(args + n, tail, sizeof tail);
    char *dir = e2e_tmpdir();
    struct e2e_run r, rep;
    e2e_runv(&r, dir, NULL, "referee", args);
    /* They forfeited both their games, tamper for two reasons: each is
     * named on a line of its own with its reasons, and the status is 3.
     * (hog is left out: on a loaded machine one of its games can end by
     * the deadline.) */
    cr_assert_eq(r.status, 3, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Standings after 12 games\n"), "%s", r.out);
    for (int i = 0; i < 6; i++) {
        char line[128];
        snprintf(line, sizeof line, "\n%s forfeited every game it played (2): ", names[i]);
        if (strcmp(names[i], "hog") != 0)
            cr_assert_not_null(strstr(r.out, line), "%s line:\n%s", names[i], r.out);
    }
    cr_assert_not_null(strstr(r.out, "\ncrasher forfeited every game it played (2): crashed: "
                                     "SIGSEGV\n"), "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\ntamper forfeited every game it played (2): illegal-move "
                                     "(1), tampered-board (1)\n"), "%s", r.out);
    cr_assert(!e2e_process_alive("sleep 60[12][39]"), "a hostile engine left a process running");
    e2e_run(&rep, dir, NULL, "referee", "report", "j.jsonl", NULL);
    cr_assert_eq(rep.status, 0, "report: %s", rep.err);
    for (int i = 0; i < 6; i++) {
        /* tamper plays second only once: its first game as side 1 is a
         * wrong-player or tampered board; count the named reason at least. */
        char want[96];
        snprintf(want, sizeof want, "%-20s %-24s", names[i], reasons[i]);
        cr_assert_not_null(strstr(rep.out, want), "no '%s' in the report:\n%s", want, rep.out);
    }
    cr_assert_not_null(strstr(rep.out, "   1  d1                       12    12.0    12     0     0"),
                       "%s", rep.out);
    e2e_run_free(&r);
    e2e_run_free(&rep);
    e2e_rmdir(dir);
}

/* verify replays the rules: a changed move or a changed result is named. */
Test(e2e_tournament, verify_names_a_doctored_game)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir();
    struct e2e_run r, v1, v2;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "connect4", "--engine", s.d1,
            "--engine", s.d2, "--journal", "j.jsonl", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char cmd[PATH_MAX * 2];
    /* Game 2's first move becomes column 9, which is no column. */
    snprintf(cmd, sizeof cmd,
             "cd '%s' && sed '3s/\"move\":\"[1-7]\"/\"move\":\"9\"/' j.jsonl > bad-move.jsonl && "
             "sed '2s/\"result\":\"[^\"]*\"/\"result\":\"1\\/2-1\\/2\"/' j.jsonl > bad-result.jsonl",
             dir);
    cr_assert_eq(system(cmd), 0);
    e2e_run(&v1, dir, NULL, "referee", "verify", "bad-move.jsonl", NULL);
    cr_assert_eq(v1.status, 1, "exit %d", v1.status);
    cr_assert_str_eq(v1.err, "bad-move.jsonl:3:1: game 2, ply 1: the move is not legal\n");
    e2e_run(&v2, dir, NULL, "referee", "verify", "bad-result.jsonl", NULL);
    cr_assert_eq(v2.status, 1, "exit %d", v2.status);
    cr_assert_not_null(strstr(v2.err, "bad-result.jsonl:2:1: game 1: recorded 1/2-1/2 {normal}, "
                                      "the replay gives "),
                       "%s", v2.err);
    e2e_run_free(&r);
    e2e_run_free(&v1);
    e2e_run_free(&v2);
    e2e_rmdir(dir);
}

/* merge "part.jsonl" with the given inputs in dir: exit 2, err, nothing
 * written. */
static void assert_merge_fails(const char *dir, const char *in1, const char *in2,
                               const char *err)
{
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "merge", "part.jsonl", in1, in2, NULL);
    cr_expect_eq(r.status, 2, "merge %s %s: exit %d", in1, in2 ? in2 : "", r.status);
    cr_expect_str_eq(r.err, err, "merge %s %s", in1, in2 ? in2 : "");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/part.jsonl", dir);
    cr_expect_not(e2e_exists(path), "merge %s wrote part.jsonl", in1);
    e2e_run_free(&r);
}

/* Merge writes a whole tournament or nothing: every shard once, each game
 * in its own shard (shard k of n plays games k, k + n, ...). */
static void assert_merge_refused(const char *dir)
{
    assert_merge_fails(dir, "s1.jsonl", NULL,
                       "part.jsonl: shard 2/2 is missing: merge takes every shard of the "
                       "tournament\n");
    assert_merge_fails(dir, "s1.jsonl", "s1.jsonl",
                       "s1.jsonl:1:1: shard 1/2 is in two inputs\n");
    /* s1's header over s2's first game (game 2). */
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/s1.jsonl", dir);
    char *one = e2e_slurp(path, NULL);
    snprintf(path, sizeof path, "%s/s2.jsonl", dir);
    char *two = e2e_slurp(path, NULL);
    cr_assert(one && two, "cannot read the shards");
    char *nl1 = strchr(one, '\n'), *nl2 = strchr(two, '\n');
    cr_assert(nl1 && nl2);
    snprintf(path, sizeof path, "%s/wrong.jsonl", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f && fwrite(one, 1, (size_t)(nl1 + 1 - one), f) > 0 && fputs(nl2 + 1, f) >= 0 &&
              fclose(f) == 0, "cannot write %s", path);
    free(one);
    free(two);
    assert_merge_fails(dir, "wrong.jsonl", "s2.jsonl",
                       "wrong.jsonl:2:1: game 2 is not of shard 1/2\n");
}

Test(e2e_tournament, shards_merge_into_the_whole_tournament)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir();
    struct e2e_run whole, s1, s2, m, rw, rm_;
    const char *base[] = { "tournament", "--game", "connect4", "--engine", s.d1, "--engine",
                           s.d2, "--engine", s.rnd, "--random-plies", "2", "--journal" };
    const char *a1[20], *a2[20], *a3[20];
    int n = (int)(sizeof base / sizeof *base);
    memcpy(a1, base, sizeof base);
    memcpy(a2, base, sizeof base);
    memcpy(a3, base, sizeof base);
    a1[n] = "whole.jsonl", a1[n + 1] = NULL;
    a2[n] = "s1.jsonl", a2[n + 1] = "--shard", a2[n + 2] = "1/2", a2[n + 3] = NULL;
    a3[n] = "s2.jsonl", a3[n + 1] = "--shard", a3[n + 2] = "2/2", a3[n + 3] = NULL;
    e2e_runv(&whole, dir, NULL, "referee", a1);
    e2e_runv(&s1, dir, NULL, "referee", a2);
    e2e_runv(&s2, dir, NULL, "referee", a3);
    cr_assert(whole.status == 0 && s1.status == 0 && s2.status == 0, "%s%s%s", whole.err, s1.err,
              s2.err);
    cr_assert_not_null(strstr(s1.out, "Standings after 3 games"), "%s", s1.out);
    e2e_run(&m, dir, NULL, "referee", "merge", "merged.jsonl", "s2.jsonl", "s1.jsonl", NULL);
    cr_assert_eq(m.status, 0, "merge: %s", m.err);
    e2e_run(&rw, dir, NULL, "referee", "report", "whole.jsonl", NULL);
    e2e_run(&rm_, dir, NULL, "referee", "report", "merged.jsonl", NULL);
    /* Standings and pairs are the same; CPU times are not. */
    char *cut_w = strstr(rw.out, "CPU time"), *cut_m = strstr(rm_.out, "CPU time");
    cr_assert(cut_w && cut_m);
    *cut_w = *cut_m = '\0';
    cr_assert_str_eq(rm_.out, rw.out);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/merged.jsonl", dir);
    assert_journal_complete(path, 6);
    assert_merge_refused(dir);
    e2e_run_free(&whole);
    e2e_run_free(&s1);
    e2e_run_free(&s2);
    e2e_run_free(&m);
    e2e_run_free(&rw);
    e2e_run_free(&rm_);
    e2e_rmdir(dir);
}

/* Perfect nim against random, seeded and sequential, so the same games
 * every run: the SPRT on game pairs, nElo (default) or logistic Elo 0 to
 * 100. Every pair is WW; the normalized test decides after 10 pairs, the
 * logistic one after 12 (its per-pair variance is larger). */
static void sprt_run(struct e2e_run *r, const char *dir, const char *sprt, const char *rounds,
                     const char *journal, int resume)
{
    char e[PATH_MAX], perfect[SPEC_MAX], rnd[SPEC_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    snprintf(perfect, sizeof perfect, "name=perfect,cmd=%s one-move --game nim --player perfect", e);
    snprintf(rnd, sizeof rnd,
             "name=random,cmd=%s one-move --game nim --player random --seed {player} {in} {out} 1",
             e);
    const char *argv[] = { "tournament", "--game", "nim", "--engine", perfect, "--engine", rnd,
                           "--rounds", rounds, "--random-plies", "1", "--sprt", sprt,
                           journal ? "--journal" : NULL, journal, resume ? "--resume" : NULL,
                           NULL };
    e2e_runv(r, dir, NULL, "referee", argv);
}

struct sprt_case {
    char model[24];        /* appended to the --sprt value */
    char last_game[32];    /* the last game played, then no other */
    char line[96];         /* the SPRT line */
};

ParameterizedTestParameters(e2e_tournament, sprt_model_decides_on_game_pairs)
{
    static struct sprt_case cases[] = {
        { "", "Finished game 20 ", "SPRT: llr 3.199, lbound -2.944, ubound 2.944 - H1 was accepted\n" },
        { ",model=normalized", "Finished game 20 ",
          "SPRT: llr 3.199, lbound -2.944, ubound 2.944 - H1 was accepted\n" },
        { ",model=logistic", "Finished game 24 ",
          "SPRT: llr 2.964, lbound -2.944, ubound 2.944 - H1 was accepted\n" },
    };
    return cr_make_param_array(struct sprt_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct sprt_case *c, e2e_tournament, sprt_model_decides_on_game_pairs)
{
    char sprt[96], next[32];
    snprintf(sprt, sizeof sprt, "elo0=0,elo1=100,alpha=0.05,beta=0.05%s", c->model);
    int last = atoi(c->last_game + strlen("Finished game "));
    snprintf(next, sizeof next, "Finished game %d ", last + 1);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    sprt_run(&r, dir, sprt, "200", NULL, 0);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, c->last_game), "%s", r.out);
    cr_assert_null(strstr(r.out, next), "SPRT %s did not stop after %s:\n%s", sprt, c->last_game,
                   r.out);
    cr_assert_not_null(strstr(r.out, c->line), "want %s in:\n%s", c->line, r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A journal from before the models has an "sprt" header without "model":
 * resumed without model= it continues its old test, the logistic LLR on
 * W/L/D (4 - 0 - 0, no spread, so one virtual win, draw and loss: n = 7,
 * s = 11/14, var = 13/98, LLR = 7 (s1 - 1/2)(2 s - 1/2 - s1) / (2 var)
 * = 1.594 with s1 = 1 / (1 + 10^-0.25)); with model= it is another test. */
Test(e2e_tournament, old_journal_sprt_resumes_as_it_was)
{
    char *dir = e2e_tmpdir();
    const char *sprt = "elo0=0,elo1=100,alpha=0.05,beta=0.05";
    struct e2e_run r;
    sprt_run(&r, dir, sprt, "2", "j.jsonl", 0);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "SPRT: llr 0.640, lbound -2.944, ubound 2.944 - no decision yet\n"),
                       "%s", r.out);
    e2e_run_free(&r);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/j.jsonl", dir);
    size_t len;
    char *text = e2e_slurp(path, &len);
    cr_assert_not_null(text);
    const char *model = ",\"model\":\"normalized\"";
    char *at = strstr(text, model);
    cr_assert(at && at < strchr(text, '\n'), "no model in the header:\n%s", text);
    memmove(at, at + strlen(model), len - (size_t)(at - text) - strlen(model) + 1);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
    free(text);
    sprt_run(&r, dir, sprt, "2", "j.jsonl", 1);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Resuming: 4 of 4 games are in the journal\n"
                                     "SPRT: llr 1.594, lbound -2.944, ubound 2.944 - no decision yet\n"),
                       "%s", r.out);
    e2e_run_free(&r);
    sprt_run(&r, dir, "elo0=0,elo1=100,alpha=0.05,beta=0.05,model=normalized", "2", "j.jsonl", 1);
    cr_assert_eq(r.status, 2, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "j.jsonl:1:1: this journal is of another tournament: its \"sprt\" "
                            "differs (resume needs the same engines, rules and shard)\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_tournament, report_formats_json_and_csv)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir();
    struct e2e_run r, j, c;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "connect4", "--engine", s.d1,
            "--engine", s.rnd, "--games", "4", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "%s", r.err);
    e2e_run(&j, dir, NULL, "referee", "report", "m.json", "--format", "json", NULL);
    cr_assert_eq(j.status, 0, "%s", j.err);
    cJSON *root = cJSON_Parse(j.out);
    cr_assert_not_null(root, "not JSON:\n%s", j.out);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(root, "games")->valueint, 4);
    const cJSON *first = cJSON_GetArrayItem(cJSON_GetObjectItemCaseSensitive(root, "standings"), 0);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(first, "engine")->valuestring, "d1");
    cJSON_Delete(root);
    e2e_run(&c, dir, NULL, "referee", "report", "m.json", "--format", "csv", NULL);
    cr_assert_eq(c.status, 0, "%s", c.err);
    cr_assert(strncmp(c.out, "rank,engine,games,points,wins,draws,losses,score,forfeits\r\n",
                      59) == 0, "%s", c.out);
    cr_assert_not_null(strstr(c.out, "\n1,d1,4,4.0,4,0,0,1.0000,0\r\n"), "%s", c.out);
    e2e_run_free(&r);
    e2e_run_free(&j);
    e2e_run_free(&c);
    e2e_rmdir(dir);
}

Test(e2e_tournament, config_file_book_and_kept_files)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir(), path[PATH_MAX];
    snprintf(path, sizeof path, "%s/book.txt", dir);
    FILE *f = fopen(path, "w");
    fputs("# two openings\n4 4\n\n1 2 3\n", f);
    fclose(f);
    snprintf(path, sizeof path, "%s/t.json", dir);
    f = fopen(path, "w");
    cJSON *cfg = cJSON_CreateObject();
    cJSON_AddStringToObject(cfg, "game", "connect4");
    cJSON *engines = cJSON_AddArrayToObject(cfg, "engines");
    cJSON_AddItemToArray(engines, cJSON_CreateString(s.d1));
    cJSON_AddItemToArray(engines, cJSON_CreateString(s.d2));
    cJSON_AddStringToObject(cfg, "openings", "book.txt");
    cJSON_AddNumberToObject(cfg, "rounds", 1);
    cJSON_AddNumberToObject(cfg, "timeout_ms", 5000);
    char *text = cJSON_Print(cfg);
    fputs(text, f);
    fclose(f);
    free(text);
    cJSON_Delete(cfg);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--config", "t.json", "--keep-files", "kept",
            "--journal", "j.jsonl", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *journal = e2e_slurp((snprintf(path, sizeof path, "%s/j.jsonl", dir), path), NULL);
    cr_assert_not_null(strstr(journal, "\"opening\":[\"4\",\"4\"]"), "%.300s", journal);
    cr_assert_not_null(strstr(journal, "\"openings\":[\"4 4\",\"1 2 3\"]"), "%.600s", journal);
    cr_assert_not_null(strstr(journal, "\"timeout_ms\":5000"), "%.600s", journal);
    free(journal);
    snprintf(path, sizeof path, "%s/kept/game-2/ply-001-in.txt", dir);
    char *in = e2e_slurp(path, NULL);
    cr_assert_not_null(in, "no kept file %s", path);
    cr_assert_str_eq(in, "0000000\n0000000\n0000000\n0000000\n0002000\n0001000\n1\n");
    free(in);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

struct bad_input {
    char file[16];
    char content[64];
    char args[3][24];
    char err[160];
};

ParameterizedTestParameters(e2e_tournament, bad_input_is_refused)
{
    static struct bad_input cases[] = {
        { "t.json", "{\n  \"game\": \"connect4\",\n  \"rounds\": 0\n}\n",
          { "--config", "t.json", "" }, "t.json:3:3: rounds must be a number from 1 to 1000000, got '0'" },
        /* --config=FILE and an abbreviation read the file as --config FILE
         * does (the =FILE form used to be ignored). */
        { "t.json", "{\n  \"game\": \"connect4\",\n  \"rounds\": 0\n}\n",
          { "--config=t.json", "", "" }, "t.json:3:3: rounds must be a number from 1 to 1000000, got '0'" },
        { "t.json", "{\n  \"game\": \"connect4\",\n  \"rounds\": 0\n}\n",
          { "--conf", "t.json", "" }, "t.json:3:3: rounds must be a number from 1 to 1000000, got '0'" },
        { "t.json", "{\n  \"game\": \"connect4\",\n  \"colour\": 1\n}\n",
          { "--config", "t.json", "" }, "t.json:3:3: unknown key \"colour\"" },
        { "t.json", "{\n  \"game\": \"connect4\"\n  \"rounds\": 1\n}\n",
          { "--config", "t.json", "" }, "t.json:3:3: not valid JSON" },
        { "book.txt", "4 4\n1 9\n", { "--openings", "book.txt", "" },
          "book.txt:2:3: '9' is not a legal move here" },
        { "j.jsonl", "{\"schema\":\"arena.journal/1\"}\n", { "--journal", "j.jsonl", "" },
          "referee: j.jsonl: the journal exists: add --resume to finish its tournament, or name "
          "another file" },
        { "j.jsonl", "{\"schema\":\"arena.journal/1\",\"game\":\"nim\"}\n",
          { "--journal", "j.jsonl", "--resume" },
          "j.jsonl:1:1: this journal is of another tournament: its \"game\" differs (resume "
          "needs the same engines, rules and shard)" },
    };
    return cr_make_param_array(struct bad_input, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_input *c, e2e_tournament, bad_input_is_refused)
{
    struct specs s;
    make_specs(&s);
    char *dir = e2e_tmpdir(), path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", dir, c->file);
    FILE *f = fopen(path, "w");
    fputs(c->content, f);
    fclose(f);
    const char *args[16] = { "tournament", "--engine", s.d1, "--engine", s.d2, "--game",
                             "connect4" };
    int n = 7;
    for (int i = 0; i < 3 && c->args[i][0]; i++)
        args[n++] = c->args[i];
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "referee", args);
    cr_assert_eq(r.status, EXIT_BAD, "exit %d: %s", r.status, r.err);
    char want[192];
    snprintf(want, sizeof want, "%s\n", c->err);
    cr_assert_str_eq(r.err, want);
    char *after = e2e_slurp(path, NULL);
    cr_assert_str_eq(after, c->content, "the input was changed");
    free(after);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* Checkers can go on forever: with --draw-plies 2 a game of quiet moves is
 * drawn by the rule, the log says so, and verify replays the adjudication. */
Test(e2e_tournament, checkers_draw_rule_adjudicates_and_verifies)
{
    char e[PATH_MAX], a[SPEC_MAX], b[SPEC_MAX];
    e2e_engine_bin_path("engine", e, sizeof e);
    snprintf(a, sizeof a, "name=a,cmd=%s one-move --game checkers {in} {out} 1", e);
    snprintf(b, sizeof b, "name=b,cmd=%s one-move --game checkers {in} {out} 2", e);
    char *dir = e2e_tmpdir();
    struct e2e_run r, v;
    e2e_run(&r, dir, NULL, "referee", "match", "--game", "checkers", "--engine", a, "--engine",
            b, "--games", "2", "--draw-plies", "2", "--log", "m.json", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.out, "Finished game 1 (a vs b): 1/2-1/2 {draw by the no-progress rule}\n"
                            "Finished game 2 (b vs a): 1/2-1/2 {draw by the no-progress rule}\n"
                            "Score of a vs b: 0 - 0 - 2  [0.500] 2\n");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/m.json", dir);
    char *log = e2e_slurp(path, NULL);
    cr_assert_not_null(strstr(log, "\"reason\":\t\"draw-rule\""), "%.400s", log);
    cr_assert_not_null(strstr(log, "\"draw_plies\":\t2"), "%.400s", log);
    free(log);
    e2e_run(&v, dir, NULL, "referee", "verify", "m.json", NULL);
    cr_assert_eq(v.status, 0, "verify: %s", v.err);
    e2e_run_free(&r);
    e2e_run_free(&v);
    e2e_rmdir(dir);
}
