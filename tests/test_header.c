/*
 * test_header.c - the typed journal and log header (header.h): every field
 * encodes and decodes back, the seed is exact at every size, the headers of
 * every earlier form in fixtures/ decode and encode to their own bytes, and
 * what the decoder cannot hold is refused with its reason.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "referee/journal/header.h"

/* text decoded and encoded again (malloc'd), or NULL with e. */
static char *round_trip(const char *text, struct hdr *h, struct err *e)
{
    cJSON *json = cJSON_Parse(text);
    cr_assert_not_null(json, "not JSON: %s", text);
    int rc = hdr_decode(json, h, e);
    cJSON_Delete(json);
    if (rc != 0)
        return NULL;
    cJSON *back = hdr_encode(h);
    cr_assert_not_null(back);
    char *out = cJSON_PrintUnformatted(back);
    cJSON_Delete(back);
    return out;
}

static char *encode(const struct hdr *h)
{
    cJSON *j = hdr_encode(h);
    cr_assert_not_null(j);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return text;
}

/* A header with every key, as a tournament with a book, analysis, the
 * sandbox and an SPRT writes it. */
static const char every_key[] =
    "{\"schema\":\"arena.journal/1\",\"game\":\"connect4\","
    "\"judge\":{\"cmd\":[\"python3\",\"/w/kalah.py\"],\"sha256\":\"ef56\","
    "\"files\":[{\"path\":\"/usr/bin/python3\",\"sha256\":\"0a1b\"},{\"path\":\"/w/kalah.py\","
    "\"sha256\":\"ef56\"}]},\"depth\":6,\"seed\":42,"
    "\"random_plies\":0,\"openings\":[\"4 4\",\"3 5\"],\"draw_plies\":0,"
    "\"analyze\":{\"budget_ms\":1000,\"max_empty\":16},"
    "\"limits\":{\"timeout_ms\":10000,\"cpu_limit_s\":2,\"mem_limit_mb\":512,"
    "\"file_limit_kb\":1024},"
    "\"sandbox\":{\"mode\":\"namespaces\",\"isolates\":[\"user\",\"pid\"],"
    "\"read_only\":[\"/data\"],\"env\":[\"OMP_NUM_THREADS\"]},"
    "\"engines\":[{\"name\":\"a\",\"cmd\":[\"/h/.pyenv/versions/3.12/bin/python3\",\"a.py\","
    "\"{in}\",\"{out}\"],"
    "\"dir\":\"/w\",\"depth\":3,\"sha256\":\"ab12\",\"files\":[{\"path\":\"/w/a.py\","
    "\"sha256\":\"cd34\"}],\"runtime\":[\"/h/.pyenv/versions/3.12\"],"
    "\"shim\":\"/h/.pyenv/shims/python3\"},{\"name\":\"b\",\"cmd\":[\"b\"],\"dir\":\"/w\",\"sha256\":null}],"
    "\"format\":\"gauntlet\",\"rounds\":3,\"shard\":\"2/4\",\"games\":12,"
    "\"sprt\":{\"elo0\":0,\"elo1\":5,\"alpha\":0.05,\"beta\":0.05,\"model\":\"normalized\"},"
    "\"anchors\":{\"b\":1000,\"a\":1250.5},\"seeds\":[\"b\"]}";

Test(header, every_field_round_trips)
{
    struct hdr h;
    struct err e;
    char *back = round_trip(every_key, &h, &e);
    cr_assert_not_null(back, "%s", e.msg);
    cr_assert_str_eq(back, every_key);
    free(back);
    cr_assert_str_eq(h.schema, "arena.journal/1");
    cr_assert_str_eq(h.game, "connect4");
    cr_assert(h.judge.cmd.n == 2 && strcmp(h.judge.cmd.v[1], "/w/kalah.py") == 0, "%d words",
              h.judge.cmd.n);
    cr_assert_str_eq(h.judge.sha256, "ef56");
    cr_assert(h.judge.nfiles == 2 && strcmp(h.judge.files[0].path, "/usr/bin/python3") == 0 &&
              strcmp(h.judge.files[1].sha256, "ef56") == 0, "%d judge files", h.judge.nfiles);
    cr_assert(h.depth == 6 && h.seed == 42 && !h.seed_inexact && h.random_plies == 0,
              "depth %d seed %llu", h.depth, (unsigned long long)h.seed);
    cr_assert(h.openings.n == 2 && strcmp(h.openings.v[1], "3 5") == 0, "%d openings",
              h.openings.n);
    cr_assert(h.analyze.budget_ms == 1000 && h.analyze.max_empty == 16);
    cr_assert(h.limits.timeout_ms == 10000 && h.limits.cpu_limit_s == 2 &&
              h.limits.mem_limit_mb == 512 && h.limits.file_limit_kb == 1024);
    cr_assert_str_eq(h.sandbox.mode, "namespaces");
    cr_assert(h.sandbox.isolates.n == 2 && h.sandbox.read_only.n == 1);
    cr_assert(h.sandbox.env.n == 1 && strcmp(h.sandbox.env.v[0], "OMP_NUM_THREADS") == 0);
    cr_assert_eq(h.nengines, 2);
    const struct hdr_engine *a = &h.engine[0], *b = &h.engine[1];
    cr_assert(a->cmd.n == 4 && a->depth == 3 && a->nfiles == 1, "%d words", a->cmd.n);
    cr_assert_str_eq(a->files[0].path, "/w/a.py");
    cr_assert(a->runtime.n == 1 && strcmp(a->runtime.v[0], "/h/.pyenv/versions/3.12") == 0,
              "%d runtime paths", a->runtime.n);
    cr_assert_str_eq(a->sha256, "ab12");
    cr_assert(a->shim && strcmp(a->shim, "/h/.pyenv/shims/python3") == 0, "a's shim: %s",
              a->shim ? a->shim : "(none)");
    cr_assert(!(b->has & HDR_BIT(HDR_ENG_SHIM)), "b has no shim");
    cr_assert(b->null & HDR_BIT(HDR_ENG_SHA256), "b's sha256 is null");
    cr_assert(!(b->has & HDR_BIT(HDR_ENG_DEPTH)), "b has no depth of its own");
    cr_assert_str_eq(h.format, "gauntlet");
    cr_assert(h.rounds == 3 && h.shard_k == 2 && h.shard_n == 4 && h.games == 12);
    cr_assert(h.sprt.elo1 == 5 && h.sprt.alpha == 0.05);
    cr_assert_str_eq(h.sprt.model, "normalized");
    cr_assert(h.nanchors == 2 && strcmp(h.anchor[0].name, "b") == 0 && h.anchor[0].elo == 1000 &&
              strcmp(h.anchor[1].name, "a") == 0 && h.anchor[1].elo == 1250.5,
              "%d anchors", h.nanchors);
    cr_assert(h.seeds.n == 1 && strcmp(h.seeds.v[0], "b") == 0, "%d seeds", h.seeds.n);
    hdr_free(&h);
}

/* The seed at every size: a JSON number below 10^15, a string of digits
 * from there up, each read back to the same integer. */
struct seed_case {
    unsigned long long seed;
    char json[40];
};

ParameterizedTestParameters(header, the_seed_round_trips_exactly)
{
    static struct seed_case cases[] = {
        { 0, "{\"seed\":0}" },
        { 1, "{\"seed\":1}" },
        { 999999999999999ULL, "{\"seed\":999999999999999}" },
        { 1000000000000000ULL, "{\"seed\":\"1000000000000000\"}" },
        { 9007199254740993ULL, "{\"seed\":\"9007199254740993\"}" },
        { 18446744073709551615ULL, "{\"seed\":\"18446744073709551615\"}" },
    };
    return cr_make_param_array(struct seed_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct seed_case *c, header, the_seed_round_trips_exactly)
{
    struct hdr h;
    hdr_init(&h);
    h.has = HDR_BIT(HDR_SEED);
    h.seed = c->seed;
    char *text = encode(&h);
    cr_assert_str_eq(text, c->json);
    hdr_free(&h);
    struct err e;
    char *back = round_trip(text, &h, &e);
    cr_assert_not_null(back, "%s", e.msg);
    cr_assert_eq(h.seed, c->seed, "%s read as %llu", text, (unsigned long long)h.seed);
    cr_assert_str_eq(back, text);
    free(back);
    free(text);
    hdr_free(&h);
}

/* What referees before the exact seed wrote above 2^53 still reads (the
 * double's value, marked inexact) and is written back as it was; resume
 * takes it for the seed that rounds to it. */
Test(header, an_old_double_seed_reads_and_matches_its_seed)
{
    static const char old[] = "{\"seed\":9.00719925474099e+15}";
    struct hdr h, mine;
    struct err e;
    char *back = round_trip(old, &h, &e);
    cr_assert_not_null(back, "%s", e.msg);
    cr_assert_str_eq(back, old);
    cr_assert(h.seed_inexact && h.seed == 9007199254740990ULL, "%llu",
              (unsigned long long)h.seed);
    hdr_init(&mine);
    mine.has = HDR_BIT(HDR_SEED);
    mine.seed = 9007199254740993ULL;   /* what it was written for */
    cr_assert_null(hdr_differs(&mine, &h));
    mine.seed = 9007199254741993ULL;
    cr_assert_str_eq(hdr_differs(&mine, &h), "seed");
    free(back);
    hdr_free(&h);
    /* options.c's config file wrote the seed as a string of digits. */
    back = round_trip("{\"seed\":\"77\"}", &h, &e);
    cr_assert_not_null(back, "%s", e.msg);
    cr_assert_eq(h.seed, 77);
    cr_assert_str_eq(back, "{\"seed\":77}");
    free(back);
    hdr_free(&h);
}

/* The header of every file of an earlier form in fixtures/ (before the
 * sandbox, before engines' folders, hand-made ones with only names, match
 * logs) decodes and encodes to its own bytes. */
struct old_file {
    char path[48];
};

ParameterizedTestParameters(header, old_headers_read_back_to_the_same_bytes)
{
    static struct old_file files[] = {
        { "fixtures/records/old-journal.jsonl" }, { "fixtures/records/old-checkers.jsonl" },
        { "fixtures/records/old-nim.jsonl" },     { "fixtures/records/old-match.json" },
        { "fixtures/report/penta.jsonl" },        { "fixtures/report/penta-gauntlet.jsonl" },
        { "fixtures/report/html.jsonl" },         { "fixtures/report/html-checkers.jsonl" },
        { "fixtures/analyze/connect4-blunder.jsonl" }, { "fixtures/analyze/nim-blunders.json" },
    };
    return cr_make_param_array(struct old_file, files, sizeof files / sizeof *files);
}

ParameterizedTest(struct old_file *f, header, old_headers_read_back_to_the_same_bytes)
{
    FILE *in = fopen(f->path, "r");
    cr_assert_not_null(in, "cannot open %s", f->path);
    static char text[1 << 20];
    size_t n = fread(text, 1, sizeof text - 1, in);
    fclose(in);
    text[n] = '\0';
    /* A journal's header is its first line; a log's, the document but its
     * games. */
    char *nl = strchr(text, '\n');
    cJSON *json = cJSON_ParseWithOpts(text, NULL, 0);
    cr_assert_not_null(json, "%s is not JSON", f->path);
    int is_log = cJSON_GetObjectItemCaseSensitive(json, "games") &&
                 cJSON_IsArray(cJSON_GetObjectItemCaseSensitive(json, "games"));
    if (is_log)
        cJSON_DeleteItemFromObjectCaseSensitive(json, "games");
    else
        *nl = '\0';
    char *want = is_log ? cJSON_PrintUnformatted(json) : strdup(text);
    cJSON_Delete(json);
    struct hdr h;
    struct err e;
    char *back = round_trip(want, &h, &e);
    cr_assert_not_null(back, "%s: %s", f->path, e.msg);
    cr_assert_str_eq(back, want, "%s's header changed", f->path);
    cr_assert_gt(h.nengines, 1, "%s: %d engines", f->path, h.nengines);
    free(back);
    free(want);
    hdr_free(&h);
}

/* What the decoder cannot hold is refused at line 1, column 1. */
struct bad_case {
    char json[200];
    char msg[80];
};

ParameterizedTestParameters(header, what_it_cannot_hold_is_refused)
{
    static struct bad_case cases[] = {
        { "{\"game\":\"nim\",\"engines\":[{\"cmd\":[\"x\"]}]}", "an engine without a \"name\"" },
        { "{\"engines\":[{\"name\":\"0123456789012345678901234567890123456789012345678901234"
          "567890123\"}]}",
          "a \"name\" longer than 63 bytes" },
        { "{\"game\":\"0123456789012345678901234567890123456789012345678901234567890123\"}",
          "a \"game\" longer than 63 bytes" },
    };
    return cr_make_param_array(struct bad_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct bad_case *c, header, what_it_cannot_hold_is_refused)
{
    struct hdr h;
    struct err e;
    cr_assert_null(round_trip(c->json, &h, &e), "%s was read", c->json);
    cr_assert(e.line == 1 && e.col == 1, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, c->msg);
}

Test(header, more_engines_than_it_holds_are_refused)
{
    char text[2048] = "{\"engines\":[";
    for (int i = 0; i <= REC_MAX_ENGINES; i++)
        snprintf(text + strlen(text), sizeof text - strlen(text), "%s{\"name\":\"e%d\"}",
                 i ? "," : "", i);
    strcat(text, "]}");
    struct hdr h;
    struct err e;
    cr_assert_null(round_trip(text, &h, &e));
    cr_assert_str_eq(e.msg, "more than 32 engines");
}

/* A known key whose value is of another kind is missing, as an unknown key
 * is: kept out of what is written back. */
Test(header, keys_of_another_kind_are_missing)
{
    struct hdr h;
    struct err e;
    char *back = round_trip("{\"game\":\"nim\",\"depth\":\"deep\",\"rounds\":1.5,\"shard\":\"x\","
                            "\"colour\":\"red\",\"draw_plies\":8}",
                            &h, &e);
    cr_assert_not_null(back, "%s", e.msg);
    cr_assert_str_eq(back, "{\"game\":\"nim\",\"draw_plies\":8}");
    cr_assert(!(h.has & HDR_BIT(HDR_DEPTH)) && !(h.has & HDR_BIT(HDR_SHARD)));
    free(back);
    hdr_free(&h);
}

/* hdr_differs names the first key that differs, and ignores keys the
 * wanted header does not have (resume, journal.h). */
Test(header, differs_names_the_first_key_that_differs)
{
    struct hdr a, b;
    struct err e;
    char *ta = round_trip(every_key, &a, &e), *tb = round_trip(every_key, &b, &e);
    cr_assert_null(hdr_differs(&a, &b));
    b.rounds = 4;
    b.limits.cpu_limit_s = 3;
    cr_assert_str_eq(hdr_differs(&a, &b), "limits");
    b.has &= ~HDR_BIT(HDR_LIMITS);
    cr_assert_str_eq(hdr_differs(&a, &b), "limits");
    cr_assert_str_eq(hdr_differs(&b, &a), "rounds");
    free(ta);
    free(tb);
    hdr_free(&a);
    hdr_free(&b);
}

/* A judge's files (judge_header's list, its interpreter first) are added
 * in order and written under "judge" after its command and program hash;
 * a journal from before the list decodes without it. */
Test(header, a_judges_files_are_written_in_order_and_old_judges_have_none)
{
    struct hdr h;
    hdr_init(&h);
    h.has = HDR_BIT(HDR_JUDGE);
    h.judge.has = HDR_BIT(HDR_JUDGE_CMD) | HDR_BIT(HDR_JUDGE_SHA256);
    cr_assert_eq(hdr_strs_add(&h.judge.cmd, "python3"), 0);
    cr_assert_eq(hdr_set_text(&h.judge.sha256, "ef56"), 0);
    cr_assert_eq(hdr_judge_add_file(&h.judge, "/usr/bin/python3", "0a1b"), 0);
    cr_assert_eq(hdr_judge_add_file(&h.judge, "/w/kalah.py", "ef56"), 0);
    char *text = encode(&h);
    cr_assert_str_eq(text, "{\"judge\":{\"cmd\":[\"python3\"],\"sha256\":\"ef56\",\"files\":["
                           "{\"path\":\"/usr/bin/python3\",\"sha256\":\"0a1b\"},"
                           "{\"path\":\"/w/kalah.py\",\"sha256\":\"ef56\"}]}}");
    free(text);
    hdr_free(&h);
    struct err e;
    char *back = round_trip("{\"judge\":{\"cmd\":[\"python3\"],\"sha256\":\"ef56\"}}", &h, &e);
    cr_assert_not_null(back, "%s", e.msg);
    cr_assert(!(h.judge.has & HDR_BIT(HDR_JUDGE_FILES)) && h.judge.nfiles == 0);
    free(back);
    hdr_free(&h);
}
