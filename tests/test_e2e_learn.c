/*
 * test_e2e_learn.c - the Q-learning player end to end: engine train (weights
 * file, log, reproducibility, continuing from a file), engine weights (text
 * and JSON), the qlearn and qlearn-ab engines in one-move and under the
 * referee, --eval spfiar, every rejected weights file with its exact message
 * and no output written, and the usage errors. `make test` runs it under
 * valgrind, so training runs stay small.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "e2e_util.h"

#define EXIT_USAGE 2
#define ATTRIBUTES 14
#define SHIPPED "learn/trained.weights"

static char *tmp_path(const char *dir, const char *name)
{
    char *p = malloc(PATH_MAX);
    snprintf(p, PATH_MAX, "%s/%s", dir, name);
    return p;
}

/* Trains games games with seed into dir/name; asserts success. */
static char *train(const char *dir, const char *name, const char *games, const char *seed,
                   const char *opponent)
{
    char *out = tmp_path(dir, name);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "train", "--games", games, "--seed", seed, "--opponent",
            opponent, "--weights-out", out, NULL);
    cr_assert_eq(r.status, 0, "train exit %d: %s", r.status, r.err);
    cr_assert_eq(r.err_len, 0, "stderr (not a terminal, no progress): %s", r.err);
    cr_assert(strncmp(r.out, "trained ", strlen("trained ")) == 0, "stdout: %s", r.out);
    e2e_run_free(&r);
    return out;
}

/* ---- train and weights ------------------------------------------------- */

Test(e2e_learn, train_writes_a_file_the_viewer_reads)
{
    char *dir = e2e_tmpdir();
    char *w = train(dir, "w.weights", "200", "7", "random");
    char *text = e2e_slurp(w, NULL);
    cr_assert(strncmp(text, "arena-qlearn-weights 1\ngamma 0.95\nalpha 0.2\n",
                      strlen("arena-qlearn-weights 1\ngamma 0.95\nalpha 0.2\n")) == 0,
              "%s", text);
    cr_assert_not_null(strstr(text, "\nopponent random\nseed 7\ngames 200\ntotal-games 200\n"),
                       "%s", text);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "weights", w, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    int lines = 0;
    for (const char *p = r.out; *p; p++)
        lines += *p == '\n';
    cr_assert_eq(lines, ATTRIBUTES, "viewer:\n%s", r.out);
    cr_assert(strncmp(r.out, "2Threats ", strlen("2Threats ")) == 0, "%s", r.out);
    cr_assert_not_null(strstr(r.out, "\nRivalSlotCreates2Threats "), "%s", r.out);
    /* Each weight as the file writes it. */
    char *line = strstr(text, "\n3InRow ");
    char *shown = strstr(r.out, "\n3InRow ");
    cr_assert(line && shown);
    char want[64], got[64];
    sscanf(line + 1, "3InRow %63s", want);
    sscanf(shown + 1, "3InRow %63s", got);
    cr_assert_str_eq(got, want);
    e2e_run_free(&r);
    free(text);
    unlink(w);
    free(w);
    e2e_rmdir(dir);
}

Test(e2e_learn, viewer_json_holds_settings_and_exact_weights)
{
    char *dir = e2e_tmpdir();
    char *w = train(dir, "w.weights", "100", "3", "self");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "weights", "--json", w, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cJSON *root = cJSON_Parse(r.out);
    cr_assert_not_null(root, "not JSON: %s", r.out);
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(root, "schema")->valuestring,
                     "arena.qlearn-weights/1");
    cJSON *set = cJSON_GetObjectItemCaseSensitive(root, "settings");
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(set, "opponent")->valuestring, "self");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(set, "games")->valuedouble, 100);
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(set, "gamma")->valuedouble, 0.95);
    cJSON *weights = cJSON_GetObjectItemCaseSensitive(root, "weights");
    cr_assert_eq(cJSON_GetArraySize(weights), ATTRIBUTES);
    /* The JSON numbers read back to the file's doubles. */
    char *text = e2e_slurp(w, NULL);
    const cJSON *item;
    cJSON_ArrayForEach(item, weights)
    {
        char key[64];
        snprintf(key, sizeof key, "\n%s ", item->string);
        const char *at = strstr(text, key);
        cr_assert_not_null(at, "%s not in the file", item->string);
        double v = strtod(at + strlen(key), NULL);
        cr_assert_eq(v, item->valuedouble, "%s: file %.17g, JSON %.17g", item->string, v,
                     item->valuedouble);
    }
    cJSON_Delete(root);
    free(text);
    e2e_run_free(&r);
    unlink(w);
    free(w);
    e2e_rmdir(dir);
}

/* Same settings and seed: the same bytes; another seed: other weights. */
Test(e2e_learn, training_is_reproducible)
{
    char *dir = e2e_tmpdir();
    char *a = train(dir, "a.weights", "200", "11", "learning");
    char *b = train(dir, "b.weights", "200", "11", "learning");
    char *c = train(dir, "c.weights", "200", "12", "learning");
    size_t la, lb, lc;
    char *ta = e2e_slurp(a, &la), *tb = e2e_slurp(b, &lb), *tc = e2e_slurp(c, &lc);
    cr_assert(la == lb && memcmp(ta, tb, la) == 0, "same seed, different files:\n%s\n%s", ta, tb);
    const char *wa = strstr(ta, "\n2Threats "), *wc = strstr(tc, "\n2Threats ");
    cr_assert(wa && wc && strcmp(wa, wc) != 0, "seeds 11 and 12 gave the same weights");
    free(ta);
    free(tb);
    free(tc);
    unlink(a);
    unlink(b);
    unlink(c);
    free(a);
    free(b);
    free(c);
    e2e_rmdir(dir);
}

Test(e2e_learn, log_is_json_lines)
{
    char *dir = e2e_tmpdir();
    char *w = tmp_path(dir, "w.weights"), *log = tmp_path(dir, "train.jsonl");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "train", "--games", "250", "--log", log, "--log-every", "100",
            "--weights-out", w, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *text = e2e_slurp(log, NULL);
    cr_assert_not_null(text, "no log");
    /* Lines at 100, 200 and the last game, 250. */
    static const double games[] = { 100, 200, 250 };
    char *save, *line = strtok_r(text, "\n", &save);
    for (int i = 0; i < 3; i++) {
        cr_assert_not_null(line, "line %d missing", i + 1);
        cJSON *o = cJSON_Parse(line);
        cr_assert_not_null(o, "line %d is not JSON: %s", i + 1, line);
        cr_assert_eq(cJSON_GetObjectItemCaseSensitive(o, "games")->valuedouble, games[i], "%s",
                     line);
        double win = cJSON_GetObjectItemCaseSensitive(o, "win")->valuedouble;
        double draw = cJSON_GetObjectItemCaseSensitive(o, "draw")->valuedouble;
        double loss = cJSON_GetObjectItemCaseSensitive(o, "loss")->valuedouble;
        cr_assert(win + draw + loss > 0.999 && win + draw + loss < 1.001, "%s", line);
        cr_assert(cJSON_IsNumber(cJSON_GetObjectItemCaseSensitive(o, "mean_abs_td")), "%s",
                  line);
        cJSON_Delete(o);
        line = strtok_r(NULL, "\n", &save);
    }
    cr_assert_null(line, "more than 3 lines");
    free(text);
    e2e_run_free(&r);
    unlink(log);
    unlink(w);
    free(log);
    free(w);
    e2e_rmdir(dir);
}

/* --weights-in continues: the games add up; the opponent may have its own
 * weights. */
Test(e2e_learn, training_continues_from_a_file)
{
    char *dir = e2e_tmpdir();
    char *first = train(dir, "first.weights", "100", "1", "random");
    char *second = tmp_path(dir, "second.weights");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "train", "--games", "50", "--weights-in", first,
            "--opponent", "alphabeta:2", "--opponent-weights", first, "--weights-out", second,
            NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    char *text = e2e_slurp(second, NULL);
    cr_assert_not_null(strstr(text, "\nopponent alphabeta:2\nseed 1\ngames 50\ntotal-games 150\n"),
                       "%s", text);
    free(text);
    e2e_run_free(&r);
    unlink(first);
    unlink(second);
    free(first);
    free(second);
    e2e_rmdir(dir);
}

Test(e2e_learn, shipped_weights_load)
{
    char *w = e2e_fixture(SHIPPED);
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "weights", "--json", w, NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cJSON *root = cJSON_Parse(r.out);
    cJSON *set = cJSON_GetObjectItemCaseSensitive(root, "settings");
    cr_assert_str_eq(cJSON_GetObjectItemCaseSensitive(set, "opponent")->valuestring, "self");
    cr_assert_eq(cJSON_GetObjectItemCaseSensitive(set, "games")->valuedouble, 200000);
    cJSON_Delete(root);
    e2e_run_free(&r);
    free(w);
    e2e_rmdir(dir);
}

/* ---- the learned engines ------------------------------------------------ */

/* Both take the immediate win of fixtures/connect4/threat.txt (column 4). */
Test(e2e_learn, learned_engines_take_the_win)
{
    static const char *const players[] = { "qlearn", "qlearn-ab" };
    char *w = e2e_fixture(SHIPPED), *in = e2e_fixture("connect4/threat.txt");
    char *want_board = e2e_fixture("connect4/threat-d4.board");
    char *want = e2e_slurp(want_board, NULL);
    for (int i = 0; i < 2; i++) {
        char *dir = e2e_tmpdir();
        char *out = tmp_path(dir, "out.txt");
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "engine", "one-move", "--game", "connect4", "--player", players[i],
                "--weights", w, in, out, "4", NULL);
        cr_assert_eq(r.status, 0, "%s: exit %d: %s", players[i], r.status, r.err);
        char info[64];
        snprintf(info, sizeof info, "info game connect4 player %s depth ", players[i]);
        cr_assert(strncmp(r.err, info, strlen(info)) == 0, "%s: stderr %s", players[i], r.err);
        cr_assert_not_null(strstr(r.err, " move 4 "), "%s: %s", players[i], r.err);
        char *board = e2e_slurp(out, NULL);
        cr_assert_str_eq(board, want, "%s wrote another board", players[i]);
        free(board);
        e2e_run_free(&r);
        unlink(out);
        free(out);
        e2e_rmdir(dir);
    }
    free(want);
    free(want_board);
    free(in);
    free(w);
}

/* The strength bar's opponent: alpha-beta with the SPFIAR span histogram. */
Test(e2e_learn, eval_spfiar_plays)
{
    char *in = e2e_fixture("connect4/threat.txt");
    char *dir = e2e_tmpdir();
    char *out = tmp_path(dir, "out.txt");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "one-move", "--game", "connect4", "--eval", "spfiar", in,
            out, "4", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.err, " move 4 "), "%s", r.err);
    e2e_run_free(&r);
    unlink(out);
    free(out);
    free(in);
    e2e_rmdir(dir);
}

/* Referee-ready: a short match without forfeits. */
Test(e2e_learn, referee_plays_the_learned_engines)
{
    char engine[PATH_MAX], a[2 * PATH_MAX + 96], b[PATH_MAX + 96];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    char *w = e2e_fixture(SHIPPED);
    snprintf(a, sizeof a,
             "name=qlearn-ab,cmd=%s one-move --game connect4 --player qlearn-ab --weights %s",
             engine, w);
    snprintf(b, sizeof b, "name=random,cmd=%s one-move --game connect4 --player random", engine);
    e2e_assert_clean_match(a, b, "qlearn-ab", "random");
    free(w);
}

/* ---- rejected weights files --------------------------------------------- */

struct bad_file {
    char name[24];
};

ParameterizedTestParameters(e2e_learn, bad_weights_file_is_rejected)
{
    static struct bad_file cases[] = {
        { "wrong-attribute" }, { "version" }, { "bad-number" }, { "missing-lines" },
    };
    return cr_make_param_array(struct bad_file, cases, sizeof cases / sizeof *cases);
}

/* Exit status 2 and the exact file:line:col message from the viewer, the
 * engine and the trainer; the trainer writes nothing and keeps an existing
 * output file. */
ParameterizedTest(struct bad_file *c, e2e_learn, bad_weights_file_is_rejected)
{
    char *bad_dir = e2e_fixture("learn/bad");
    char *in = e2e_fixture("connect4/threat.txt");
    char *dir = e2e_tmpdir();
    char *out = tmp_path(dir, "out.weights"), *board = tmp_path(dir, "out.txt");
    char name[64], rel[PATH_MAX];
    snprintf(name, sizeof name, "%s.weights", c->name);
    snprintf(rel, sizeof rel, "learn/bad/%s.err", c->name);
    struct e2e_run r;

    e2e_run(&r, bad_dir, NULL, "engine", "weights", name, NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "%s: viewer exit %d", c->name, r.status);
    cr_assert_eq(r.out_len, 0, "%s: stdout %s", c->name, r.out);
    e2e_assert_fixture(r.err, r.err_len, rel);
    e2e_run_free(&r);

    e2e_run(&r, bad_dir, NULL, "engine", "one-move", "--game", "connect4", "--player", "qlearn",
            "--weights", name, in, board, NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "%s: one-move exit %d", c->name, r.status);
    e2e_assert_fixture(r.err, r.err_len, rel);
    cr_assert(!e2e_exists(board), "%s: one-move wrote a board", c->name);
    e2e_run_free(&r);

    FILE *f = fopen(out, "w");
    fputs("keep me\n", f);
    fclose(f);
    e2e_run(&r, bad_dir, NULL, "engine", "train", "--games", "10", "--weights-in", name,
            "--weights-out", out, NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "%s: train exit %d", c->name, r.status);
    e2e_assert_fixture(r.err, r.err_len, rel);
    char *kept = e2e_slurp(out, NULL);
    cr_assert_str_eq(kept, "keep me\n", "%s: --weights-out changed", c->name);
    free(kept);
    e2e_run_free(&r);

    unlink(out);
    free(out);
    free(board);
    free(in);
    free(bad_dir);
    e2e_rmdir(dir);
}

Test(e2e_learn, unwritable_output_is_refused_before_training)
{
    char *dir = e2e_tmpdir();
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "engine", "train", "--games", "100000000", "--weights-out",
            "no/such/folder/w.weights", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d", r.status);
    cr_assert_str_eq(r.err, "no/such/folder/w.weights: cannot write: no writable folder "
                            "no/such/folder\n");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* ---- command lines ------------------------------------------------------- */

#define USAGE_ARGS 10

struct usage_case {
    char args[USAGE_ARGS][24];
    char message[128];
};

ParameterizedTestParameters(e2e_learn, usage_error)
{
    static struct usage_case cases[] = {
        { { "one-move", "--game", "connect4", "--weights", "w", "a", "b" },
          "engine: --weights belongs to --player qlearn or qlearn-ab" },
        { { "one-move", "--player", "qlearn-ab", "--weights", "w", "a", "b" },
          "engine: game maxconnect4 has no qlearn-ab player" },
        { { "one-move", "--eval", "spfiar", "a", "b" },
          "engine: --eval spfiar is for --game connect4" },
        { { "one-move", "--game", "connect4", "--eval", "spfiar", "--player", "random", "a", "b" },
          "engine: --eval belongs to --player alphabeta or minimax" },
        { { "one-move", "--eval", "span", "a", "b" },
          "engine: unknown evaluation 'span' (game, spfiar)" },
        { { "train", "--weights-out", "w" }, "engine: train needs --games N" },
        { { "train", "--games", "10" }, "engine: train needs --weights-out FILE" },
        { { "train", "--games", "0", "--weights-out", "w" },
          "engine: --games must be a positive number" },
        { { "train", "--games", "5", "--weights-out", "w", "--gamma", "1.5" },
          "engine: --gamma must be a number from 0 to 1" },
        { { "train", "--games", "5", "--weights-out", "w", "--epsilon", "x" },
          "engine: --epsilon must be a number from 0 to 1" },
        { { "train", "--games", "5", "--weights-out", "w", "--opponent", "alphabeta" },
          "engine: unknown opponent 'alphabeta' (random, trained, alphabeta:D with D from 1 to "
          "12, learning, self)" },
        { { "train", "--games", "5", "--weights-out", "w", "--opponent-weights", "w" },
          "engine: --opponent-weights is for --opponent trained, alphabeta:D or learning" },
        { { "train", "--games", "5", "--weights-out", "w", "extra" },
          "engine: train takes no arguments, found 'extra'" },
        { { "train", "--fast" }, "engine: train: unknown option '--fast'" },
        { { "weights" }, "engine: weights needs one FILE" },
        { { "weights", "--text", "w" }, "engine: weights: unknown option '--text'" },
    };
    return cr_make_param_array(struct usage_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct usage_case *c, e2e_learn, usage_error)
{
    char *dir = e2e_tmpdir();
    const char *a[USAGE_ARGS + 1];
    for (int i = 0; i < USAGE_ARGS; i++)
        a[i] = c->args[i][0] ? c->args[i] : NULL;
    a[USAGE_ARGS] = NULL;
    struct e2e_run r;
    e2e_runv(&r, dir, NULL, "engine", a);
    cr_assert_eq(r.status, EXIT_USAGE, "%s: exit %d", c->message, r.status);
    char expected[256];
    snprintf(expected, sizeof expected, "%s\nTry 'engine --help' for more information.\n",
             c->message);
    cr_assert_str_eq(r.err, expected);
    char *w = tmp_path(dir, "w");
    cr_assert(!e2e_exists(w), "a usage error wrote a file");
    free(w);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_learn, help_goes_to_stdout_with_status_0)
{
    static const char *const cmds[] = { "train", "weights" };
    for (int i = 0; i < 2; i++) {
        char *dir = e2e_tmpdir();
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "engine", cmds[i], "--help", NULL);
        cr_assert_eq(r.status, 0, "%s --help exit %d", cmds[i], r.status);
        cr_assert(strncmp(r.out, "Usage: engine ", strlen("Usage: engine ")) == 0, "%s",
                  r.out);
        cr_assert_eq(r.err_len, 0);
        e2e_run_free(&r);
        e2e_rmdir(dir);
    }
}
