/*
 * test_e2e_report_html.c - referee report --format html on
 * fixtures/report/html.jsonl (a Connect-4 round robin with an engine named
 * <b>"evil" & co</b>, one that forfeits every game with exit-status 3 after
 * writing "oops: no such file" on its stderr, and
 * blunders marked by --analyze) and on hand-made journals: the page is
 * well-formed, every section is there, every text from the journal is
 * escaped, the replay data decode to the journal's final positions, and a
 * bad journal gives exit 2 and no page. make test-browser opens the page in
 * Chromium.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "e2e_util.h"

static long count(const char *hay, const char *needle)
{
    long n = 0;
    for (const char *p = strstr(hay, needle); p; p = strstr(p + 1, needle))
        n++;
    return n;
}

/* The page of fixtures/report/NAME, run (under valgrind with
 * ARENA_VALGRIND=1) and asserted to exit 0 with nothing on stderr. */
static void page_of(struct e2e_run *r, const char *name)
{
    char *dir = e2e_fixture("report");
    e2e_run(r, dir, NULL, "referee", "report", name, "--format", "html", NULL);
    cr_assert_eq(r->status, 0, "report %s --format html: exit %d: %s", name, r->status, r->err);
    cr_assert_eq(r->err_len, 0, "stderr: %s", r->err);
    free(dir);
}

Test(e2e_report_html, page_is_well_formed_xml)
{
    struct e2e_run r;
    page_of(&r, "html.jsonl");
    char *dir = e2e_tmpdir(), path[512];
    snprintf(path, sizeof path, "%s/report.html", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f && fwrite(r.out, 1, r.out_len, f) == r.out_len && fclose(f) == 0);
    struct e2e_run x;
    e2e_run_tool(&x, dir, NULL, "xmllint", "--noout", path, NULL);
    cr_assert_eq(x.status, 0, "xmllint: exit %d: %s", x.status, x.err);
    e2e_run_free(&x);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_report_html, every_section_is_there)
{
    static const char *const ids[] = { "standings-table", "elo-chart", "pairs-table",
                                       "crosstable-table", "cpu-table", "cpu-chart", "overhead",
                                       "forfeits-table", "forfeit-games", "games" };
    struct e2e_run r;
    page_of(&r, "html.jsonl");
    for (size_t k = 0; k < sizeof ids / sizeof *ids; k++) {
        char attr[64];
        snprintf(attr, sizeof attr, "id=\"%s\"", ids[k]);
        cr_expect_eq(count(r.out, attr), 1, "%s: %ld times", attr, count(r.out, attr));
    }
    char *fixture = e2e_fixture("report/html.jsonl");
    char *journal = e2e_slurp(fixture, NULL);
    long games = count(journal, "\n") - 1;   /* one line a game after the header */
    cr_expect_eq(count(r.out, "<details class=\"game\""), games, "%ld games drawn, %ld in the journal",
                 count(r.out, "<details class=\"game\""), games);
    /* One series per engine in each chart; every engine of the header in
     * the standings. */
    cr_expect_eq(count(r.out, "<g class=\"engine\">"), 4);
    cr_expect_eq(count(r.out, "<g class=\"box\">"), 4);
    /* One forfeit row per game the journal says was lost by exit-status 3,
     * each with the engine's stderr. */
    cr_expect_eq(count(r.out, "<tr><td><a href=\"#game-"),
                 count(journal, "\"reason\":\"exit-status 3\""));
    cr_expect_eq(count(r.out, "<pre>oops: no such file\n</pre>"),
                 count(journal, "\"reason\":\"exit-status 3\""));
    /* The blunders --analyze marked, each marked once. */
    cr_expect_eq(count(r.out, "<mark class=\"blunder\""), count(journal, "\"blunder\":true"),
                 "%ld marked, %ld in the journal", count(r.out, "<mark class=\"blunder\""),
                 count(journal, "\"blunder\":true"));
    cr_expect_gt(count(journal, "\"blunder\":true"), 0);
    /* No network: nothing is fetched, no link leaves the page. */
    cr_expect_eq(count(r.out, "src="), 0);
    cr_expect_eq(count(r.out, "href=\"http"), 0);
    free(journal);
    free(fixture);
    e2e_run_free(&r);
}

Test(e2e_report_html, hostile_engine_name_is_escaped)
{
    struct e2e_run r;
    page_of(&r, "html.jsonl");
    cr_expect_null(strstr(r.out, "<b>\"evil\""), "the name went out unescaped");
    cr_expect_null(strstr(r.out, "co</b>"), "the name went out unescaped");
    /* standings, pairs (3 rows), crosstable (row and column), CPU table,
     * both charts (label and title), forfeit-free summaries of its 6 games */
    long n = count(r.out, "&lt;b&gt;&quot;evil&quot; &amp; co&lt;/b&gt;");
    cr_expect_geq(n, 12, "the escaped name %ld times", n);
    e2e_run_free(&r);
}

/* Writes text into dir/name; returns the path (static buffer). */
static const char *write_file(const char *dir, const char *name, const char *text)
{
    static char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f && fputs(text, f) >= 0 && fclose(f) == 0, "cannot write %s", path);
    return path;
}

Test(e2e_report_html, control_bytes_bad_utf8_and_unknown_game)
{
    char *dir = e2e_tmpdir();
    write_file(dir, "j.jsonl",
               "{\"schema\":\"arena.journal/1\",\"game\":\"<go>\",\"engines\":[{\"name\":"
               "\"a\\u0007<x>\"},{\"name\":\"b\"}],\"format\":\"round-robin\"}\n"
               "{\"index\":1,\"pair\":0,\"players\":{\"1\":\"a\\u0007<x>\",\"2\":\"b\"},"
               "\"opening\":[],\"moves\":[{\"ply\":1,\"side\":1,\"engine\":\"a\\u0007<x>\","
               "\"move\":\"1\",\"status\":\"ok\"},{\"ply\":2,\"side\":2,\"engine\":\"b\","
               "\"move\":null,\"status\":\"crashed: \xff\"}],\"result\":\"1-0\",\"winner\":"
               "\"a\\u0007<x>\",\"reason\":\"crashed: \xff\"}\n");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "j.jsonl", "--format", "html", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    cr_expect_null(strstr(r.out, "\a"), "a control byte went out");
    cr_expect_null(strstr(r.out, "\xff"), "a byte that is not UTF-8 went out");
    cr_expect_gt(count(r.out, "a\xef\xbf\xbd&lt;x&gt;"), 0);
    cr_expect_gt(count(r.out, "crashed: \xef\xbf\xbd"), 0);
    cr_expect_neq(strstr(r.out, "No board: the game \"&lt;go&gt;\" is not one this referee "
                                "knows."),
                  NULL, "%s", r.out);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

Test(e2e_report_html, bad_journal_exits_2_with_no_page)
{
    char *dir = e2e_tmpdir();
    write_file(dir, "bad.jsonl",
               "{\"schema\":\"arena.journal/1\",\"game\":\"connect4\",\"engines\":[{\"name\":"
               "\"A\"},{\"name\":\"B\"}]}\n{\"index\":1,\"players\":{\"1\":\"A\",\"2\":\"C\"},"
               "\"result\":\"1-0\",\"reason\":\"normal\"}\n");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "bad.jsonl", "--format", "html", NULL);
    cr_expect_eq(r.status, 2, "exit %d", r.status);
    cr_expect_eq(r.out_len, 0, "a page was printed: %.200s", r.out);
    cr_expect_neq(strstr(r.err, "bad.jsonl:2:1: "), NULL, "stderr: %s", r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --- the replay's data ------------------------------------------------- */

/* The value of attribute name in the element starting at tag, HTML
 * character references decoded (the page writes &#N; and the five named
 * ones), into buf. */
static void attribute(const char *tag, const char *name, char *buf, size_t cap)
{
    char key[64];
    snprintf(key, sizeof key, " %s=\"", name);
    const char *p = strstr(tag, key);
    cr_assert_not_null(p, "no %s", name);
    p += strlen(key);
    size_t n = 0;
    while (*p != '"') {
        cr_assert_lt(n + 1, cap);
        if (*p == '&') {
            static const char *const named[][2] = { { "&amp;", "&" }, { "&lt;", "<" },
                                                    { "&gt;", ">" }, { "&quot;", "\"" } };
            const char *semi = strchr(p, ';');
            if (p[1] == '#') {
                buf[n++] = (char)atoi(p + 2);
            } else {
                for (size_t k = 0; k < 4; k++)
                    if (strncmp(p, named[k][0], strlen(named[k][0])) == 0)
                        buf[n++] = named[k][1][0];
            }
            p = semi + 1;
        } else {
            buf[n++] = *p++;
        }
    }
    buf[n] = '\0';
}

/* Applies data-diff (report_html.h's format) to start; the board file
 * after the last ply into board. */
static void replay(const char *start, const char *diff, char *board)
{
    strcpy(board, start);
    for (const char *p = diff; *p;) {
        if (*p == ';') {
            p++;
            continue;
        }
        cr_assert_neq(*p, '*', "no board of Connect-4 changes length");
        char *colon;
        long off = strtol(p, &colon, 10);
        cr_assert_eq(*colon, ':');
        cr_assert_lt(off, (long)strlen(board));
        board[off] = colon[1];
        p = colon + 2;
    }
}

Test(e2e_report_html, replay_data_reach_each_games_final_position)
{
    struct e2e_run r;
    page_of(&r, "html.jsonl");
    char *fixture = e2e_fixture("report/html.jsonl");
    char *journal = e2e_slurp(fixture, NULL);
    int games = 0;
    /* Each game's final position, computed here from the journal's moves
     * by dropping discs, against the page's data-start + data-diff. */
    for (const char *line = strchr(journal, '\n') + 1; *line;) {
        long index = strtol(strstr(line, "\"index\":") + 8, NULL, 10);
        int height[7] = { 0 }, grid[6][7] = { { 0 } }, side = 1;
        const char *end = strchr(line, '\n');
        const char *moves_end = strstr(line, "\"result\":");   /* not the analysis' move */
        /* Opening moves ("opening":["1","6"]) then each "move":"N". */
        const char *op = strstr(line, "\"opening\":[");
        for (const char *q = op + 11; *q != ']'; q++)
            if (*q >= '1' && *q <= '7' && q[-1] == '"') {
                int c = *q - '1';
                grid[height[c]++][c] = side, side = 3 - side;
            }
        for (const char *q = strstr(line, "\"move\":\""); q && q < moves_end; q = strstr(q + 1, "\"move\":\"")) {
            int c = q[8] - '1';
            grid[height[c]++][c] = side, side = 3 - side;
        }
        char expected[64], *e = expected;
        for (int row = 5; row >= 0; row--) {
            for (int c = 0; c < 7; c++)
                *e++ = (char)('0' + grid[row][c]);
            *e++ = '\n';
        }
        snprintf(e, 4, "%d\n", side);

        char id[48], start[256], diff[4096], board[256];
        snprintf(id, sizeof id, "id=\"game-%ld\"", index);
        const char *tag = strstr(r.out, id);
        cr_assert_not_null(tag, "no %s", id);
        attribute(tag, "data-start", start, sizeof start);
        attribute(tag, "data-diff", diff, sizeof diff);
        replay(start, diff, board);
        cr_expect_str_eq(board, expected, "game %ld", index);
        games++;
        line = end + 1;
    }
    cr_expect_eq(games, 12);
    free(journal);
    free(fixture);
    e2e_run_free(&r);
}
