/*
 * test_referee.c - the referee's pure parts: SHA-256 against the FIPS
 * 180-4 examples, the tournament schedule (every pair, both colours, a
 * shared opening per pair, the same game for the same index), the
 * statistics against values computed independently from the cutechess
 * formulas, the journal: appends, a line cut short by a crash, resume's
 * truncation and its header check; config files (numbers, engine objects,
 * NUL bytes), journal records that would not read back as written, opening
 * books (NUL bytes, a line that ends the game) and verify's game indices;
 * forfeit reasons (the reader's message, the file limit) and who forfeited
 * every game.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <fcntl.h>
#include <errno.h>
#include <sys/file.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "referee/journal/header.h"
#include "arena/journal.h"
#include "arena/forfeit.h"
#include "arena/match.h"
#include "arena/refopts.h"
#include "arena/registry.h"
#include "referee/report/report_text.h"
#include "arena/rules.h"
#include "arena/sha256.h"
#include "arena/schedule.h"
#include "arena/stats.h"
#include "arena/tally.h"
#include "arena/tournament.h"
#include "arena/verify.h"

struct digest {
    char text[64];
    long repeat;
    char hex[SHA256_HEX];
};

ParameterizedTestParameters(referee, sha256_matches_fips_examples)
{
    static struct digest cases[] = {
        { "", 1, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" },
        { "abc", 1, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" },
        { "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", 1,
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1" },
        { "a", 1000000, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0" },
    };
    return cr_make_param_array(struct digest, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct digest *d, referee, sha256_matches_fips_examples)
{
    struct sha256 c;
    char hex[SHA256_HEX];
    sha256_init(&c);
    for (long i = 0; i < d->repeat; i++)
        sha256_update(&c, d->text, strlen(d->text));
    sha256_final(&c, hex);
    cr_assert_str_eq(hex, d->hex, "'%s' x %ld", d->text, d->repeat);
}

Test(referee, sha256_of_a_file_equals_that_of_its_bytes)
{
    char path[] = "/tmp/arena-sha-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_geq(fd, 0);
    cr_assert_eq(write(fd, "abc", 3), 3);
    close(fd);
    char hex[SHA256_HEX];
    struct err e;
    cr_assert_eq(sha256_file(path, hex, &e), 0, "%s", e.msg);
    cr_assert_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    unlink(path);
    cr_assert_eq(sha256_file(path, hex, &e), -1);
}

static void config(struct schedule *c, int engines, enum schedule_format f, int rounds)
{
    memset(c, 0, sizeof *c);
    c->nengines = engines;
    c->format = f;
    c->rounds = rounds;
    c->shard_k = c->shard_n = 1;
}

/* Round-robin: each pair plays 2 games per round, one per colour, on one
 * opening (the pair index), and game i is a pure function of i. */
Test(referee, round_robin_schedule_pairs_everyone_in_both_colours)
{
    struct schedule c;
    config(&c, 5, SCHEDULE_ROUND_ROBIN, 3);
    long n = schedule_games(&c);
    cr_assert_eq(n, 3 * 10 * 2, "games %ld", n);
    int as_first[5][5] = { { 0 } };
    for (long i = 1; i <= n; i++) {
        struct schedule_game g, again;
        schedule_game_at(&c, i, &g);
        schedule_game_at(&c, i, &again);
        cr_assert(memcmp(&g, &again, sizeof g) == 0, "game %ld is not a pure function", i);
        cr_assert_eq(g.index, i);
        cr_assert_eq(g.pair, (i - 1) / 2, "game %ld pair %ld", i, g.pair);
        cr_assert_neq(g.side[0], g.side[1], "game %ld: an engine against itself", i);
        as_first[g.side[0]][g.side[1]]++;
        if (i % 2 == 0) {
            struct schedule_game prev;
            schedule_game_at(&c, i - 1, &prev);
            cr_assert(prev.side[0] == g.side[1] && prev.side[1] == g.side[0],
                      "games %ld and %ld do not swap colours", i - 1, i);
        }
    }
    for (int a = 0; a < 5; a++)
        for (int b = 0; b < 5; b++)
            cr_assert_eq(as_first[a][b], a == b ? 0 : 3, "%d first against %d: %d games", a, b,
                         as_first[a][b]);
}

Test(referee, gauntlet_schedule_plays_the_first_engine_every_game)
{
    struct schedule c;
    config(&c, 4, SCHEDULE_GAUNTLET, 2);
    cr_assert_eq(schedule_games(&c), 2 * 3 * 2);
    int opponent[4] = { 0 };
    for (long i = 1; i <= schedule_games(&c); i++) {
        struct schedule_game g;
        schedule_game_at(&c, i, &g);
        cr_assert(g.side[0] == 0 || g.side[1] == 0, "game %ld without engine 0", i);
        opponent[g.side[0] + g.side[1]]++;
    }
    cr_assert(opponent[1] == 4 && opponent[2] == 4 && opponent[3] == 4, "%d %d %d", opponent[1],
              opponent[2], opponent[3]);
}

/* --seeds 1,3 of five: each seed against engines 0, 2 and 4 only, a game
 * pair each with colours swapped, the seeds never against each other; the
 * default (no seeds) is engine 0 as seed, game for game. */
Test(referee, gauntlet_with_seeds_plays_the_others_against_the_seeds_only)
{
    struct schedule c, plain, engine0;
    config(&c, 5, SCHEDULE_GAUNTLET, 1);
    c.seeds = (1u << 1) | (1u << 3);
    cr_assert_eq(schedule_games(&c), 2 * 3 * 2);
    static const int want[6][2] = { { 1, 0 }, { 1, 2 }, { 1, 4 }, { 3, 0 }, { 3, 2 }, { 3, 4 } };
    for (long i = 1; i <= schedule_games(&c); i++) {
        struct schedule_game g;
        schedule_game_at(&c, i, &g);
        const int *w = want[(i - 1) / 2];
        int swap = (i - 1) % 2;
        cr_assert(g.side[0] == w[swap] && g.side[1] == w[1 - swap] && g.pair == (i - 1) / 2,
                  "game %ld: %d vs %d (pair %ld), want %d vs %d", i, g.side[0], g.side[1],
                  g.pair, w[swap], w[1 - swap]);
    }
    config(&plain, 4, SCHEDULE_GAUNTLET, 2);
    engine0 = plain;
    engine0.seeds = 1;
    cr_assert_eq(schedule_games(&plain), schedule_games(&engine0));
    for (long i = 1; i <= schedule_games(&plain); i++) {
        struct schedule_game a, b;
        schedule_game_at(&plain, i, &a);
        schedule_game_at(&engine0, i, &b);
        cr_assert(a.side[0] == b.side[0] && a.side[1] == b.side[1] && a.pair == b.pair,
                  "game %ld differs", i);
    }
}

/* Expected values computed with Python's math module from the formulas
 * cutechess documents (score -> Elo, normal 95% interval, erf LOS, GSPRT). */
Test(referee, statistics_match_independent_values)
{
    cr_assert_float_eq(stats_elo(0.5), 0.0, 1e-12);
    cr_assert_float_eq(stats_elo(0.75), 190.848501887865, 1e-9, "%f", stats_elo(0.75));
    cr_assert(isinf(stats_elo(1.0)) && stats_elo(1.0) > 0);
    double elo, margin;
    stats_elo_interval(30, 20, 50, &elo, &margin);
    cr_assert_float_eq(elo, 34.86007028756008, 1e-9, "%f", elo);
    cr_assert_float_eq(margin, 48.470228059870166, 1e-9, "%f", margin);
    cr_assert_float_eq(stats_los(30, 20), 0.9213503964748575, 1e-12);
    cr_assert_float_eq(stats_los(0, 0), 0.5, 1e-12);
    cr_assert_float_eq(stats_sprt_llr(30, 20, 50, 0, 10), 0.5027458564789831, 1e-9, "%f",
                       stats_sprt_llr(30, 20, 50, 0, 10));
    double lo, hi;
    stats_sprt_bounds(0.05, 0.05, &lo, &hi);
    cr_assert_float_eq(lo, -2.9444389791664403, 1e-12);
    cr_assert_float_eq(hi, 2.9444389791664403, 1e-12);
    double v[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
    cr_assert_float_eq(stats_percentile(v, 10, 50), 5, 0);
    cr_assert_float_eq(stats_percentile(v, 10, 95), 10, 0);
    cr_assert_float_eq(stats_percentile(v, 10, 0), 1, 0);
}

struct scan_count {
    int headers, games;
    long last_index;
};

static int count_header(void *ctx, const struct hdr *h, int line, struct err *e)
{
    (void)h, (void)line, (void)e;
    ((struct scan_count *)ctx)->headers++;
    return 0;
}

static int count_game(void *ctx, struct game_record *rec, int line, struct err *e)
{
    (void)line, (void)e;
    struct scan_count *c = ctx;
    c->games++;
    c->last_index = rec->index;
    return 0;
}

static const struct journal_reader count_rd = { .header = count_header, .game = count_game };
static const struct journal_reader *const count = &count_rd;

/* A free name for a journal (path, a mkstemp template) and a nim journal's
 * header for it (the caller frees it with hdr_free). */
static void nim_journal(char *path, struct hdr *header)
{
    int tmp = mkstemp(path);
    cr_assert_geq(tmp, 0, "mkstemp %s", path);
    close(tmp);
    unlink(path);
    hdr_init(header);
    header->has = HDR_BIT(HDR_SCHEMA) | HDR_BIT(HDR_GAME);
    cr_assert_eq(hdr_set_text(&header->schema, "arena.journal/1"), 0);
    strcpy(header->game, "nim");
}

/* The whole of the small file path into buf (cap bytes, NUL-terminated). */
static void read_small(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "r");
    cr_assert_not_null(f, "%s", path);
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = '\0';
}

/* A crash mid-append leaves a cut line: readers skip it, resume cuts it off
 * and appends after the last whole line; a header of another tournament is
 * refused at line 1. */
Test(referee, journal_survives_a_line_cut_short)
{
    char path[] = "/tmp/arena-journal-XXXXXX";
    struct hdr header;
    nim_journal(path, &header);
    struct err e;
    int fd;
    struct scan_count c = { 0, 0, 0 };
    cr_assert_eq(journal_open(path, &header, 0, count, &c, &fd, &e), 0, "%s", e.msg);
    cr_assert_eq(journal_append(fd, "{\"index\":1}", &e), 0);
    cr_assert_eq(journal_append(fd, "{\"index\":2}", &e), 0);
    cr_assert_eq(write(fd, "{\"index\":3,\"mov", 15), 15);
    close(fd);
    cr_assert_eq(journal_scan(path, count, &c, &e), 0, "%s", e.msg);
    cr_assert(c.headers == 1 && c.games == 2 && c.last_index == 2, "%d %d %ld", c.headers,
              c.games, c.last_index);
    cr_assert_eq(journal_open(path, &header, 0, count, &c, &fd, &e), -1,
                 "an existing journal was reopened without resume");
    memset(&c, 0, sizeof c);
    cr_assert_eq(journal_open(path, &header, 1, count, &c, &fd, &e), 0, "%s", e.msg);
    cr_assert_eq(c.games, 2, "resume saw %d games", c.games);
    cr_assert_eq(journal_append(fd, "{\"index\":3}", &e), 0);
    close(fd);
    char buf[256];
    read_small(path, buf, sizeof buf);
    cr_assert_str_eq(buf, "{\"schema\":\"arena.journal/1\",\"game\":\"nim\"}\n{\"index\":1}\n"
                          "{\"index\":2}\n{\"index\":3}\n");
    strcpy(header.game, "connect4");
    cr_assert_eq(journal_open(path, &header, 1, count, &c, &fd, &e), -1);
    cr_assert_eq(e.line, 1);
    cr_assert_not_null(strstr(e.msg, "\"game\" differs"), "%s", e.msg);
    hdr_free(&header);
    unlink(path);
}

/* A journal's header replaced (referee play naming a player first seen):
 * the records stay byte for byte, the writer keeps the lock and appends
 * after them, and the file holds the new header. */
Test(referee, journal_reheader_keeps_the_records_and_the_lock)
{
    char path[] = "/tmp/arena-journal-XXXXXX";
    struct hdr header;
    nim_journal(path, &header);
    cr_assert_not_null(hdr_add_engine(&header, "person"));
    struct err e;
    int fd;
    cr_assert_eq(journal_open(path, &header, 0, NULL, NULL, &fd, &e), 0, "%s", e.msg);
    cr_assert_eq(journal_append(fd, "{\"index\":1}", &e), 0);
    cr_assert_not_null(hdr_add_engine(&header, "alphabeta:6"));
    cr_assert_eq(journal_reheader(path, &header, &fd, &e), 0, "%s", e.msg);
    cr_assert_eq(journal_append(fd, "{\"index\":2}", &e), 0);
    int other = open(path, O_RDONLY);
    cr_assert(other >= 0 && flock(other, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK,
              "the replaced journal is not locked by its writer");
    close(other);
    close(fd);
    char buf[256];
    read_small(path, buf, sizeof buf);
    cr_assert_str_eq(buf, "{\"schema\":\"arena.journal/1\",\"game\":\"nim\",\"engines\":"
                          "[{\"name\":\"person\"},{\"name\":\"alphabeta:6\"}]}\n"
                          "{\"index\":1}\n{\"index\":2}\n");
    hdr_free(&header);
    unlink(path);
}

Test(referee, opening_book_names_the_bad_move)
{
    char path[] = "/tmp/arena-book-XXXXXX";
    int fd = mkstemp(path);
    const char *text = "# book\n4 4 4\n  3 8\n";
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    struct book b;
    struct err e;
    cr_assert_eq(book_read(registry_find("connect4"), path, &b, &e), -1);
    cr_assert(e.line == 3 && e.col == 5, "%d:%d %s", e.line, e.col, e.msg);
    cr_assert_str_eq(e.msg, "'8' is not a legal move here");
    unlink(path);
}

/* ---- config files (found by tests/fuzz/referee_config) ---------------- */

static int config_text(struct refopts_settings *s, const char *text, struct err *e)
{
    refopts_settings_init(s, REF_CMD_TOURNAMENT);
    return refopts_config_parse(s, text, strlen(text), e);
}

/* A number that is not an integer is refused, not rounded (1.5 rounds was 2). */
Test(referee, config_numbers_must_be_integers)
{
    static struct refopts_settings s;
    struct err e;
    cr_assert_eq(config_text(&s, "{\"game\": \"nim\",\n \"rounds\": 1.5}", &e), -1);
    cr_assert(e.line == 2 && e.col == 2, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "rounds must be a number from 1 to 1000000, got '1.5'");
    cr_assert_eq(config_text(&s, "{\"rounds\": 3, \"seed\": 1e3}", &e), 0, "%s", e.msg);
    cr_assert(s.t.rounds == 3 && s.t.rules.seed == 1000, "%d %llu", s.t.rounds,
              (unsigned long long)s.t.rules.seed);
    refopts_settings_free(&s);
}

/* The config a tournament writes (referee slurm) keeps a seed beyond a
 * double's digits exactly, in the form a journal header writes it, and
 * reads it back. */
Test(referee, config_keeps_a_big_seed_exactly)
{
    static struct refopts_settings s;
    struct err e;
    cr_assert_eq(config_text(&s, "{\"game\": \"nim\", \"seed\": \"9007199254740993\"}", &e), 0,
                 "%s", e.msg);
    cr_assert_eq(s.t.rules.seed, 9007199254740993ULL);
    cJSON *j = refopts_config_json(&s);
    cr_assert_not_null(j);
    char *text = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    cr_assert_not_null(strstr(text, "\"seed\":\"9007199254740993\""), "%s", text);
    refopts_settings_free(&s);
    cr_assert_eq(config_text(&s, text, &e), 0, "%s", e.msg);
    cr_assert_eq(s.t.rules.seed, 9007199254740993ULL);
    free(text);
    refopts_settings_free(&s);
}

/* {"name", "cmd"}: the name is taken whole, never re-split as a SPEC (a
 * name holding ",cmd=" used to cut the command short). */
Test(referee, config_engine_object_keeps_its_name)
{
    static struct refopts_settings s;
    struct err e;
    cr_assert_eq(config_text(&s, "{\"engines\": [{\"name\": \"a,cmd=b\", \"cmd\": \"x y\"}]}", &e),
                 0, "%s", e.msg);
    cr_assert_eq(s.t.nengines, 1);
    cr_assert_eq(spec_resolve_all(s.t.engine, s.t.nengines, &s.each, 0, &e), 0, "%s", e.msg);
    cr_assert_str_eq(s.t.engine[0].name, "a,cmd=b");
    cr_assert_str_eq(s.t.engine[0].argv[0], "x");
    cr_assert_str_eq(s.t.engine[0].argv[1], "y");
    refopts_settings_free(&s);
}

/* An engine object takes every SPEC key ("depth" as a number too), an
 * unknown key is named at the "engines" key, and "each" is --each. */
Test(referee, config_engine_object_takes_spec_keys)
{
    static struct refopts_settings s;
    struct err e;
    cr_assert_eq(config_text(&s, "{\"each\": \"cmd=prog args=-q\",\n \"engines\": [{\"name\": "
                                 "\"a\", \"depth\": 3}, \"name=b args=-v\"]}", &e),
                 0, "%s", e.msg);
    cr_assert_eq(spec_resolve_all(s.t.engine, s.t.nengines, &s.each, 0, &e), 0, "%s", e.msg);
    cr_assert(s.t.engine[0].depth == 3 && s.t.engine[0].argc == 5, "depth %d, %d words",
              s.t.engine[0].depth, s.t.engine[0].argc);
    cr_assert_str_eq(s.t.engine[0].argv[1], "-q");
    cr_assert_str_eq(s.t.engine[1].argv[1], "-v");
    refopts_settings_free(&s);
    cr_assert_eq(config_text(&s, "{\"game\": \"nim\",\n \"engines\": [{\"name\": \"a\", "
                                 "\"dri\": \"x\"}]}", &e), -1);
    cr_assert(e.line == 2 && e.col == 2, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "engines: \"dri\": unknown key 'dri' (name, cmd, dir, args, stderr, "
                            "depth, proto)");
    refopts_settings_free(&s);
    cr_assert_eq(config_text(&s, "{\"engines\": [{\"cmd\": [\"x\"]}]}", &e), -1);
    cr_assert_str_eq(e.msg, "engines: \"cmd\" must be a string");
    refopts_settings_free(&s);
}

/* A NUL byte used to end the JSON early, whatever followed it. */
Test(referee, config_nul_byte_is_refused)
{
    static struct refopts_settings s;
    struct err e;
    static const char text[] = "{\"rounds\": 2}\n\0garbage";
    refopts_settings_init(&s, REF_CMD_TOURNAMENT);
    cr_assert_eq(refopts_config_parse(&s, text, sizeof text - 1, &e), -1);
    cr_assert(e.line == 2 && e.col == 1, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "NUL byte in a text file");
}

/* ---- journal records (found by tests/fuzz/journal) -------------------- */

static int scan_string(const char *text, struct err *e)
{
    char *copy = strdup(text);
    struct scan_count c = { 0, 0, 0 };
    int rc = journal_scan_text(copy, strlen(copy), count, &c, e);
    free(copy);
    return rc;
}

/* A record the referee could not have written (cJSON writes every key once
 * and only finite numbers) would read back as another record: refused. */
Test(referee, journal_refuses_records_that_would_not_read_back)
{
    struct err e;
    const char *head = "{\"schema\":\"arena.journal/1\",\"game\":\"nim\"}\n";
    char text[256];
    snprintf(text, sizeof text, "%s{\"index\":1,\"moves\":[{\"ply\":1,\"ply\":2}]}\n", head);
    cr_assert_eq(scan_string(text, &e), -1);
    cr_assert(e.line == 2 && e.col == 1, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "not a record as the referee writes it: the key \"ply\" twice in one "
                            "object");
    snprintf(text, sizeof text, "%s{\"index\":1e999}\n", head);
    cr_assert_eq(scan_string(text, &e), -1);
    cr_assert_str_eq(e.msg, "not a record as the referee writes it: a number out of range");
    cr_assert_eq(scan_string("{\"schema\":\"arena.match/1\",\"games\":[]}\n x", &e), -1);
    cr_assert(e.line == 2 && e.col == 2, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "unexpected text after the match log");
    cr_assert_eq(scan_string("{\"schema\":\"arena.match/1\",\"games\":[]}\n\n", &e), 0, "%s", e.msg);
}

/* A NUL byte after a record used to end the line there: what followed it
 * was never read. */
Test(referee, journal_nul_byte_is_refused)
{
    static const char text[] = "{\"schema\":\"arena.journal/1\",\"game\":\"nim\"}\n"
                               "{\"index\":1}\0{\"index\":2}\n";
    char *copy = malloc(sizeof text);
    memcpy(copy, text, sizeof text);
    struct scan_count c = { 0, 0, 0 };
    struct err e;
    int rc = journal_scan_text(copy, sizeof text - 1, count, &c, &e);
    free(copy);
    cr_assert_eq(rc, -1, "a journal line with a NUL byte was read");
    cr_assert(e.line == 2 && e.col == 12, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "NUL byte in a text file");
}

/* ---- opening books (found by tests/fuzz/opening_book) ----------------- */

static int book_text(const char *game, const char *text, size_t len, struct err *e)
{
    char *copy = malloc(len + 1);
    memcpy(copy, text, len);
    copy[len] = '\0';
    struct book b;
    int rc = book_parse(registry_find(game), copy, len, &b, e);
    if (rc == 0)
        book_free(&b);
    free(copy);
    return rc;
}

/* A NUL byte made the line splitter stand still: the referee hung. */
Test(referee, book_with_a_nul_byte_is_refused, .timeout = 10)
{
    static const char text[] = "4 4\n1\0002\n";
    struct err e;
    cr_assert_eq(book_text("connect4", text, sizeof text - 1, &e), -1);
    cr_assert(e.line == 2 && e.col == 2, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "NUL byte in a text file");
}

/* Like a random opening, a book line must leave a game to play. */
Test(referee, book_line_that_ends_the_game_is_refused)
{
    static const char text[] = "4 4\n4 3 4 3 4 3 4\n";
    struct err e;
    cr_assert_eq(book_text("connect4", text, sizeof text - 1, &e), -1);
    cr_assert(e.line == 2 && e.col == 13, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "the opening ends the game: no move is left to play");
    cr_assert_eq(book_text("connect4", "4 3 4 3 4 3\n", 12, &e), 0, "%s", e.msg);
}

/* ---- verify (found by tests/fuzz/journal_commands) -------------------- */

#define FORFEIT_GAME(i)                                                                        \
    "{\"index\":" i ",\"players\":{\"1\":\"a\",\"2\":\"b\"},\"moves\":[{\"ply\":1,\"side\":1,"  \
    "\"engine\":\"a\",\"move\":null,\"status\":\"crashed: SIGSEGV\"}],\"result\":\"0-1\","       \
    "\"reason\":\"crashed: SIGSEGV\"}\n"

static int verify_text(const char *text, struct err *e)
{
    char path[] = "/tmp/arena-verify-XXXXXX";
    int fd = mkstemp(path);
    cr_assert_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    FILE *out = fopen("/dev/null", "w");
    int rc = verify_file(path, NULL, out, e);
    fclose(out);
    unlink(path);
    return rc;
}

/* An index is a whole number in range (1e300 was cast to long: undefined),
 * and a large one costs no memory by its size (it was an array index). */
Test(referee, verify_indices_are_whole_numbers_in_range, .timeout = 20)
{
    static const char head[] = "{\"schema\":\"arena.journal/1\",\"game\":\"nim\"}\n";
    char text[1024];
    struct err e;
    snprintf(text, sizeof text, "%s%s", head, FORFEIT_GAME("1e300"));
    cr_assert_eq(verify_text(text, &e), 1);
    cr_assert(e.line == 2, "line %d", e.line);
    cr_assert_str_eq(e.msg, "a game without an \"index\" from 1 to 1099511627776");
    snprintf(text, sizeof text, "%s%s", head, FORFEIT_GAME("2.5"));
    cr_assert_eq(verify_text(text, &e), 1);
    snprintf(text, sizeof text, "%s%s%s", head, FORFEIT_GAME("1000000000000"),
             FORFEIT_GAME("3"));
    cr_assert_eq(verify_text(text, &e), 0, "%s", e.msg);
    snprintf(text, sizeof text, "%s%s%s", head, FORFEIT_GAME("3"), FORFEIT_GAME("3"));
    cr_assert_eq(verify_text(text, &e), 1);
    cr_assert(e.line == 3, "line %d", e.line);
    cr_assert_str_eq(e.msg, "game 3 is recorded twice");
}

/* schedule_shard_games counts what schedule_in_shard picks, for totals
 * below, at and above the shard count. */
Test(referee, shard_games_count_the_games_of_each_shard)
{
    for (long total = 0; total <= 13; total++)
        for (int n = 1; n <= 5; n++) {
            long sum = 0;
            for (int k = 1; k <= n; k++) {
                struct schedule c = { .nengines = 2, .rounds = 1, .shard_k = k, .shard_n = n };
                long want = 0;
                for (long i = 1; i <= total; i++)
                    want += schedule_in_shard(&c, i);
                long got = schedule_shard_games(total, k, n);
                cr_assert_eq(got, want, "%ld games, shard %d/%d: %ld, want %ld", total, k, n,
                             got, want);
                sum += got;
            }
            cr_assert_eq(sum, total, "%ld games in %d shards add up to %ld", total, n, sum);
        }
}

/* ---- forfeit reasons (rules.h) and who forfeited everything (tally.h) -- */

/* The board reader's own message is the reason's detail. */
Test(referee, unreadable_answer_carries_the_readers_message)
{
    const struct game *g = registry_find("connect4");
    unsigned char pos[GAME_MAX_STATE];
    game_init(g, pos);
    static const char answer[] = "0000000\n0000000\n0000000\n0000000\n0000000\n1000000\n";
    char reason[REC_REASON_MAX];
    int move;
    cr_assert_eq(rules_judge(g, pos, answer, strlen(answer), &move, reason), -1);
    cr_assert_str_eq(reason, "unreadable: 7:1: missing the player-to-move line (1 or 2)");
    char kind[REC_REASON_MAX];
    (void)rec_reason_split(reason, kind);
    cr_assert_str_eq(kind, "unreadable");
    (void)rec_reason_split("crashed: SIGSEGV", kind);
    cr_assert_str_eq(kind, "crashed: SIGSEGV");
}

/* A failed run whose output reached RLIMIT_FSIZE: file-limit, whatever
 * its exit; not a timeout, and not a file below the limit. */
Test(referee, a_full_output_file_is_the_file_limit)
{
    struct run_limits l = { .timeout_ms = 1000, .file_limit_kb = 1024 };
    struct run_result r = { .end = RUN_EXITED, .status = 1 };
    cr_assert(forfeit_hit_file_limit(&r, &l, 1024 * 1024));
    cr_assert(!forfeit_hit_file_limit(&r, &l, 1024 * 1024 - 1));
    cr_assert(!forfeit_hit_file_limit(&r, &l, -1));
    r.end = RUN_TIMEOUT;
    cr_assert(!forfeit_hit_file_limit(&r, &l, 1024 * 1024));
    l.file_limit_kb = 0;
    r.end = RUN_SIGNALED;
    cr_assert(!forfeit_hit_file_limit(&r, &l, 1 << 30));
}

/* An answer the game can read is judged by what it changed, in the game's
 * words, behind a kind scripts can rely on. */
struct judged {
    char game[16];
    char opening[32];    /* moves from the start (connect4: columns 1-7) */
    char answer[96];     /* the engine's output file */
    char reason[160];
    char kind[24];
};

ParameterizedTestParameters(referee, an_illegal_answer_says_what_it_changed)
{
    static struct judged cases[] = {
        { "connect4", "", "0000000\n0000000\n0000000\n0000000\n0000000\n1100000\n2\n",
          "illegal-move: adds 2 discs of player 1", "illegal-move" },
        { "connect4", "4", "0000000\n0000000\n0000000\n0000000\n0000000\n1001000\n1\n",
          "wrong-player: plays for player 1 on player 2's turn", "wrong-player" },
        { "connect4", "4 4", "0000000\n0000000\n0000000\n0000000\n0002000\n0000000\n1\n",
          "tampered-board: removes the disc at row 6 column 4", "tampered-board" },
        { "connect4", "4 5", "0000000\n0000000\n0000000\n0000000\n0000000\n0002200\n2\n",
          "tampered-board: turns player 1's disc at row 6 column 4 into player 2's",
          "tampered-board" },
        { "connect4", "3 3 3 3 3 3",
          "0010000\n0010000\n0020000\n0010000\n0020000\n0010000\n2\n",
          "illegal-move: column 3 is full (the answer turns player 2's disc at its top into "
          "player 1's)", "illegal-move" },
        { "connect4", "3 3 3 3 3 3",
          "0020000\n0010000\n0020000\n0010000\n0020000\n0010000\n2\n",
          "illegal-move: adds no disc (full: column 3)", "illegal-move" },
        { "connect4", "", "0000000\n0000000\n0000000\n0000000\n1000000\n0000000\n2\n",
          "illegal-move: the disc at row 5 column 1 floats over an empty cell", "illegal-move" },
        { "connect4", "", "0000000\n0000000\n0000000\n0000000\n0000000\n0001000\n1\n",
          "wrong-player: plays column 4 but leaves player 1 to move", "wrong-player" },
        { "connect4", "", "0000000\n0000000\n0000000\n0000000\n0000000\n000x000\n2\n",
          "unreadable: 6:4: unexpected character 'x', expected 0, 1 or 2", "unreadable" },
        { "maxconnect4", "", "1111111\n1111111\n1111111\n1111111\n1111111\n1111110\n2\n",
          "illegal-move: adds 41 discs of player 1", "illegal-move" },
        { "nim", "", "1 3 5 8\n2\n", "tampered-board: adds 1 to row 4", "tampered-board" },
        { "nim", "", "0 2 5 7\n2\n", "illegal-move: takes from 2 rows at once", "illegal-move" },
        { "nim", "", "1 3 5 7\n2\n", "illegal-move: takes no match", "illegal-move" },
        { "nim", "", "1 3 5 6\n1\n", "wrong-player: takes 1 from row 4 but leaves player 1 to move",
          "wrong-player" },
    };
    return cr_make_param_array(struct judged, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct judged *c, referee, an_illegal_answer_says_what_it_changed)
{
    const struct game *g = registry_find(c->game);
    cr_assert_not_null(g, "%s", c->game);
    unsigned char pos[GAME_MAX_STATE];
    struct err e;
    cr_assert_eq(rules_play_line(g, c->opening, 1, pos, NULL, &e), 0, "%s: %s", c->opening,
                 e.msg);
    char reason[REC_REASON_MAX], kind[REC_REASON_MAX];
    int move = -1;
    cr_assert_eq(rules_judge(g, pos, c->answer, strlen(c->answer), &move, reason), -1,
                 "%s after '%s': accepted %s", c->game, c->opening, c->answer);
    cr_assert_str_eq(reason, c->reason, "%s after '%s':\n%s", c->game, c->opening, c->answer);
    (void)rec_reason_split(reason, kind);
    cr_assert_str_eq(kind, c->kind);
}

/* A limit's reason names the limit and the option; its kind stays. */
Test(referee, a_limit_names_its_value_and_option)
{
    struct run_limits l = { .timeout_ms = 10000, .cpu_limit_s = 2, .mem_limit_mb = 64,
                            .file_limit_kb = 1024 };
    static const char *const kinds[] = { "timeout", "cpu-limit", "memory-limit", "file-limit",
                                         "no-output", "cpu-limit", "memory-limit" };
    static const char *const want[] = {
        "timeout: no answer within 10000 ms of wall time (--timeout-ms)",
        "cpu-limit: used 2 s of CPU time (--cpu-limit-s)",
        "memory-limit: ran out of its 64 MB of address space (--mem-limit-mb)",
        "file-limit: wrote a file past 1024 KB, the most an engine may write",
        "no-output",
        /* by the move's cgroup, over all of its processes */
        "cpu-limit: its processes used 2 s of CPU time together (--cpu-limit-s)",
        "memory-limit: its processes held more than 64 MB of memory together (--mem-limit-mb)",
    };
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        char reason[REC_REASON_MAX], kind[REC_REASON_MAX];
        snprintf(reason, sizeof reason, "%s", kinds[i]);
        forfeit_name_limit(&l, i >= 5, reason);
        cr_assert_str_eq(reason, want[i]);
        (void)rec_reason_split(reason, kind);
        cr_assert_str_eq(kind, kinds[i]);
    }
}

/* A no-output or timeout says what the engine did instead: its stdout's
 * lines, an empty stdin, done before OUT, OUT without a done line. */
Test(referee, a_missing_answer_says_what_the_engine_did_instead)
{
    static const struct {
        const char *out;     /* its stdout */
        int persistent, out_written;
        const char *reason, *want;
    } cases[] = {
        { "0000000\n0000000\n1\n", 0, 0, "no-output",
          "no-output: it wrote 3 lines to stdout and no OUT file" },
        { "move 4", 0, 0, "no-output", "no-output: it wrote 1 line to stdout and no OUT file" },
        { "", 0, 0, "no-output",
          "no-output: it read nothing from stdin and wrote no OUT: is it a persistent engine? "
          "add proto=persistent" },
        { "done\n", 1, 0, "no-output", "no-output: it printed done and wrote no OUT file" },
        { "", 1, 1, "timeout: no answer within 3000 ms of wall time (--timeout-ms)",
          "timeout: no answer within 3000 ms of wall time (--timeout-ms): OUT was written but "
          "no done line came (flush stdout after done)" },
        /* Nothing to add: OUT not written, or a file engine's timeout. */
        { "", 1, 0, "timeout", "timeout" },
        { "", 0, 1, "timeout", "timeout" },
        { "x\n", 0, 0, "exit-status 1", "exit-status 1" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct run_result r;
        memset(&r, 0, sizeof r);
        run_tail_add(&r.out, cases[i].out, strlen(cases[i].out));
        char reason[REC_REASON_MAX];
        snprintf(reason, sizeof reason, "%s", cases[i].reason);
        forfeit_explain_missing(&r, cases[i].persistent, cases[i].out_written, reason);
        cr_assert_str_eq(reason, cases[i].want, "case %zu", i);
    }
}

/* A CPU limit in ms (referee grade's) is named in ms; the wall deadline is
 * then only a guard, and says so. */
Test(referee, a_cpu_limit_in_ms_names_itself_and_the_guard)
{
    struct run_limits l = { .timeout_ms = 3000, .cpu_ms = 400 };
    static const struct { const char *kind; int by_tree; const char *want; } row[] = {
        { "cpu-limit", 1, "cpu-limit: its processes used 400 ms of CPU time together, its limit" },
        { "cpu-limit", 0, "cpu-limit: used 400 ms of CPU time, its limit" },
        { "timeout", 0, "timeout: no answer within 3000 ms of wall time, the guard against an "
                        "engine that sleeps or hangs (its CPU limit: 400 ms)" },
    };
    for (size_t i = 0; i < sizeof row / sizeof *row; i++) {
        char reason[REC_REASON_MAX];
        snprintf(reason, sizeof reason, "%s", row[i].kind);
        forfeit_name_limit(&l, row[i].by_tree, reason);
        cr_expect_str_eq(reason, row[i].want, "row %zu", i);
    }
}

/* Starved: past the wall deadline within the CPU limit, having waited for
 * a CPU a quarter of the deadline or more. Anything else is the engine's. */
Test(referee, a_move_is_starved_only_when_it_waited_for_a_cpu)
{
    struct run_limits l = { .timeout_ms = 3000, .cpu_ms = 400 };
    static const struct { enum run_end end; double cpu, wait; int starved; } row[] = {
        { RUN_TIMEOUT, 50, 2900, 1 },    /* runnable all along: the machine */
        { RUN_TIMEOUT, 50, 750, 1 },     /* a quarter exactly */
        { RUN_TIMEOUT, 50, 749, 0 },     /* slept most of the time */
        { RUN_TIMEOUT, 0, 0, 0 },        /* slept: its own timeout */
        { RUN_TIMEOUT, 400, 2500, 0 },   /* at its CPU limit */
        { RUN_TIMEOUT, 50, -1, 0 },      /* no cgroup: not known */
        { RUN_EXITED, 50, 2900, 0 },     /* it answered */
        { RUN_CPU_LIMIT, 400, 2900, 0 },
    };
    for (size_t i = 0; i < sizeof row / sizeof *row; i++) {
        struct run_result r = { .end = row[i].end, .cpu_user_ms = row[i].cpu,
                                .wait_ms = row[i].wait };
        cr_expect_eq(forfeit_starved(&r, &l), row[i].starved, "row %zu: end %d cpu %g wait %g",
                     i, row[i].end, row[i].cpu, row[i].wait);
    }
    l.cpu_ms = 0;   /* a wall limit only (games): never starved */
    struct run_result r = { .end = RUN_TIMEOUT, .wait_ms = 2900 };
    cr_expect_eq(forfeit_starved(&r, &l), 0);
}

/* Adds a finished game between a and b to t: winner 0 a draw, forfeit the
 * loser's reason or NULL. */
static void add_game(struct tally *t, long index, int winner, const char *forfeit)
{
    struct game_record rec;
    struct err e;
    rec_init(&rec, index, (index - 1) / 2);
    strcpy(rec.player[0], index % 2 ? "a" : "b");
    strcpy(rec.player[1], index % 2 ? "b" : "a");
    rec_set_end(&rec, winner == 0 ? REC_DRAWN : winner == 1 ? REC_WIN_1 : REC_WIN_2,
                forfeit ? REC_FORFEIT : REC_NORMAL, forfeit);
    cr_assert_eq(tally_add(t, &rec, &e), 0, "%s", e.msg);
    rec_free(&rec);
}

/* The lines behind exit status 3, from the games of a and b (game 1: a
 * plays first; 2: b), and how many lines. */
struct forfeiters {
    int winner[2];
    char forfeit[2][64];   /* "": a game ended on the board */
    char out[160];
    int lines;
};

ParameterizedTestParameters(referee, who_forfeited_everything_is_named)
{
    static struct forfeiters cases[] = {
        /* a lost both, for two reasons: still every game. */
        { { 2, 1 }, { "timeout: no answer within 5 ms", "exit-status 1" },
          "a forfeited every game it played (2): exit-status 1 (1), timeout (1)\n", 1 },
        /* each forfeited one: every game of the run was a forfeit. */
        { { 2, 2 }, { "exit-status 1", "wrong-player: plays for player 1 on player 2's turn" },
          "every game ended in a forfeit: a (1): exit-status 1; b (1): wrong-player\n", 1 },
        /* one forfeit, one game on the board: nothing to say. */
        { { 2, 1 }, { "exit-status 1", "" }, "", 0 },
    };
    return cr_make_param_array(struct forfeiters, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct forfeiters *c, referee, who_forfeited_everything_is_named)
{
    const char *const names[] = { "a", "b" };
    struct tally t;
    struct err e;
    cr_assert_eq(tally_init(&t, 2, names, &e), 0, "%s", e.msg);
    for (int g = 0; g < 2; g++)
        add_game(&t, g + 1, c->winner[g], c->forfeit[g][0] ? c->forfeit[g] : NULL);
    char *buf = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&buf, &len);
    cr_assert_not_null(out);
    int lines = report_text_forfeiters(&t, out);
    fclose(out);
    cr_assert_str_eq(buf, c->out);
    cr_assert_eq(lines, c->lines);
    free(buf);
    tally_free(&t);
}

/* Three engines, games a-b and b-c only (a beat b twice, b beat c): the
 * pairs come in standings order, the pair that never played left out. */
Test(referee, tally_next_pair_walks_the_pairs_that_played_by_rank)
{
    const char *const names[] = { "c", "b", "a" };
    const char *const games[][2] = { { "a", "b" }, { "b", "a" }, { "b", "c" } };
    const int winner[] = { 1, 2, 1 };
    struct tally t;
    struct err e;
    cr_assert_eq(tally_init(&t, 3, names, &e), 0, "%s", e.msg);
    for (long g = 0; g < 3; g++) {
        struct game_record rec;
        rec_init(&rec, g + 1, g / 2);
        strcpy(rec.player[0], games[g][0]);
        strcpy(rec.player[1], games[g][1]);
        rec_set_end(&rec, winner[g] == 1 ? REC_WIN_1 : REC_WIN_2, REC_NORMAL, NULL);
        cr_assert_eq(tally_add(&t, &rec, &e), 0, "%s", e.msg);
        rec_free(&rec);
    }
    int order[3];
    tally_standings(&t, order);
    char seen[32] = "";
    struct tally_pair p;
    int a, b;
    for (int k = 0; tally_next_pair(&t, order, &k, &a, &b, &p);) {
        size_t n = strlen(seen);
        snprintf(seen + n, sizeof seen - n, "%s-%s:%ld ", names[a], names[b], p.w);
    }
    cr_assert_str_eq(seen, "a-b:2 b-c:1 ", "pairs walked: %s", seen);
    tally_free(&t);
}

/* Two games: a forfeited both for one reason kind, b won them; then a
 * third game a lost on the board. */
Test(referee, tally_names_who_forfeited_every_game)
{
    const char *const names[] = { "a", "b" };
    struct tally t;
    struct err e;
    cr_assert_eq(tally_init(&t, 2, names, &e), 0, "%s", e.msg);
    static const char *const reasons[] = { "unreadable: 7:1: x", "unreadable: 1:1: y" };
    for (int i = 0; i < 2; i++) {
        struct game_record rec;
        rec_init(&rec, i + 1, 0);
        strcpy(rec.player[0], "a");
        strcpy(rec.player[1], "b");
        rec_set_end(&rec, REC_WIN_2, REC_FORFEIT, reasons[i]);
        cr_assert_eq(tally_add(&t, &rec, &e), 0, "%s", e.msg);
        rec_free(&rec);
    }
    char why[REC_REASON_MAX];
    cr_assert(tally_forfeited_all(&t, 0));
    tally_forfeit_reasons(&t, 0, why, sizeof why);
    cr_assert_str_eq(why, "unreadable");
    cr_assert(!tally_forfeited_all(&t, 1));
    struct game_record rec;
    rec_init(&rec, 3, 1);
    strcpy(rec.player[0], "a");
    strcpy(rec.player[1], "b");
    rec_set_end(&rec, REC_WIN_2, REC_NORMAL, NULL);
    cr_assert_eq(tally_add(&t, &rec, &e), 0, "%s", e.msg);
    rec_free(&rec);
    cr_assert(!tally_forfeited_all(&t, 0));
    tally_free(&t);
}
