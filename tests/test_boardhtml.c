/*
 * test_boardhtml.c - the one board drawing (boardhtml.h): what the C pages
 * hand the script (each registry game's drawing as attributes, a plain
 * grid for a game without one, a board left for the script with its text
 * escaped and its line endings LF), and the script itself: the one copy
 * the report, the play page and the grade's pages carry, naming no game.
 * That the script draws what these say is make test-browser's
 * (scripts/test-browser.sh, test-play.sh, test-browser-grade.sh).
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/playsrv.h"
#include "arena/registry.h"
#include "referee/report/boardhtml.h"
#include "referee/report/report_html.h"

/* What boardhtml_attributes and boardhtml_board write, malloc'd. */
static char *attributes(const struct game *g)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cr_assert_not_null(f);
    boardhtml_attributes(f, g);
    cr_assert_eq(fclose(f), 0);
    return out;
}

static char *board(const struct game *g, const char *text)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cr_assert_not_null(f);
    boardhtml_board(f, g, text);
    cr_assert_eq(fclose(f), 0);
    return out;
}

static int count(const char *hay, const char *needle)
{
    int n = 0;
    for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
        n++;
    return n;
}

/* Each built-in game as the script gets it: its layout, its pieces'
 * letters, and style rules of its own (so never plain). */
Test(boardhtml, each_registry_game_hands_the_script_its_layout_and_labels)
{
    static const struct {
        const char *game, *attrs;
    } want[] = {
        { "connect4", " data-layout=\"grid\"" },
        { "maxconnect4", " data-layout=\"grid\"" },
        { "nim", " data-layout=\"rows\"" },
        { "checkers", " data-layout=\"checker\" data-labels=\"B=K W=K\"" },
        { "othello", " data-layout=\"grid\"" },
        { "tictactoe", " data-layout=\"grid\"" },
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        const struct game *g = registry_find(want[i].game);
        cr_assert_not_null(g, "%s is not registered", want[i].game);
        char *got = attributes(g);
        cr_expect_str_eq(got, want[i].attrs, "%s: '%s', want '%s'", want[i].game, got,
                         want[i].attrs);
        free(got);
    }
}

/* Every game the registry knows (a new one too) is handed what its
 * struct game_drawing says, by the same accessors /api/info uses. */
Test(boardhtml, every_registry_game_is_drawn_from_its_drawing)
{
    for (const struct game *const *g = registry_all(); *g; g++) {
        const struct game_drawing *d = (*g)->drawing;
        const char *layout = game_draw_layout_name[d ? d->layout : GAME_DRAW_GRID];
        cr_expect_str_eq(boardhtml_layout(*g), layout, "%s: layout %s, its drawing's %s",
                         (*g)->name, boardhtml_layout(*g), layout);
        cr_expect_str_eq(boardhtml_labels(*g), d && d->labels ? d->labels : "", "%s",
                         (*g)->name);
        cr_expect_str_eq(boardhtml_game_style(*g), d && d->style ? d->style : "", "%s",
                         (*g)->name);
        char *got = attributes(*g);
        cr_expect_eq(strstr(got, " data-plain") != NULL, !(d && d->style),
                     "%s: '%s' (plain only without style rules)", (*g)->name, got);
        free(got);
    }
}

/* A judge's game without a drawing, or no game known: a grid whose cells
 * show their characters. */
Test(boardhtml, a_game_without_a_drawing_is_a_plain_grid)
{
    struct game judged = { .name = "kalah" };
    char *got = attributes(&judged);
    cr_expect_str_eq(got, " data-layout=\"grid\" data-plain=\"\"", "%s", got);
    free(got);
    got = attributes(NULL);
    cr_expect_str_eq(got, " data-layout=\"grid\" data-plain=\"\"", "%s", got);
    free(got);
    cr_expect_str_eq(boardhtml_game_style(NULL), "");
}

/* A judge's labels are its own text: escaped like any other. */
Test(boardhtml, labels_are_escaped)
{
    struct game_drawing d = { .layout = GAME_DRAW_CHECKER, .style = ".x{}", .labels = "a=\"<&" };
    struct game judged = { .name = "x", .drawing = &d };
    char *got = attributes(&judged);
    cr_expect_str_eq(got, " data-layout=\"checker\" data-labels=\"a=&quot;&lt;&amp;\"", "%s",
                     got);
    free(got);
}

Test(boardhtml, a_board_is_left_for_the_script_with_its_game_and_text)
{
    char *got = board(registry_find("maxconnect4"), "12\n21\n1\n");
    cr_expect_str_eq(got, "<div class=\"drawn\" data-game=\"maxconnect4\" data-layout=\"grid\" "
                          "data-board=\"12\n21\n1\n\"></div>\n", "%s", got);
    free(got);
    got = board(registry_find("checkers"), ".b\nB.\nwhite\n");
    cr_expect_str_eq(got, "<div class=\"drawn\" data-game=\"checkers\" data-layout=\"checker\" "
                          "data-labels=\"B=K W=K\" data-board=\".b\nB.\nwhite\n\"></div>\n",
                     "%s", got);
    free(got);
}

/* The text is an attribute: quotes and markup escaped; CRLF and CR-only
 * endings reach the script as LF (not as U+FFFD). */
Test(boardhtml, a_boards_text_is_escaped_and_its_endings_are_lf)
{
    char *got = board(NULL, "x<\"\r\n.&o\r'\n1\r\n");
    cr_expect_str_eq(got, "<div class=\"drawn\" data-layout=\"grid\" data-plain=\"\" "
                          "data-board=\"x&lt;&quot;\n.&amp;o\n&#39;\n1\n\"></div>\n", "%s", got);
    free(got);
}

/* One drawing: each page carries the script once, and no page builds a
 * board's table, cells, rows or pieces of its own (their classes, and
 * createElement('td'), are written in the script only). */
Test(boardhtml, the_report_and_the_play_page_carry_the_one_script)
{
    static const char *const own[] = { "'c c'",   "'dark'",   "'light'",  "'board'+",
                                       "'board '", "'rows'+", "'rows '", "createElement('td')" };
    const char *page[] = { report_html_script, playsrv_page };
    for (size_t i = 0; i < sizeof page / sizeof *page; i++) {
        cr_expect_eq(count(page[i], BOARDHTML_SCRIPT), 1, "page %zu: the script %d times", i,
                     count(page[i], BOARDHTML_SCRIPT));
        for (size_t k = 0; k < sizeof own / sizeof *own; k++)
            cr_expect_eq(count(page[i], own[k]), count(BOARDHTML_SCRIPT, own[k]),
                         "page %zu: %s %d times, the script's %d", i, own[k],
                         count(page[i], own[k]), count(BOARDHTML_SCRIPT, own[k]));
    }
}

/* The script draws from the spec it is handed, so it names no game. */
Test(boardhtml, the_script_names_no_game)
{
    for (const struct game *const *g = registry_all(); *g; g++)
        cr_expect_null(strstr(BOARDHTML_SCRIPT, (*g)->name), "the script names %s",
                       (*g)->name);
    /* A page's script element and the report's CDATA hold it as it is. */
    cr_expect_null(strstr(BOARDHTML_SCRIPT, "</"));
    cr_expect_null(strstr(BOARDHTML_SCRIPT, "]]>"));
}

/* The report's sheet and the play page carry the board cells' sheet. */
Test(boardhtml, the_report_and_the_play_page_share_its_style_sheet)
{
    cr_expect_not_null(strstr(report_html_style, BOARDHTML_STYLE), "%s", report_html_style);
    cr_expect_not_null(strstr(playsrv_page, BOARDHTML_STYLE));
    cr_expect_not_null(strstr(BOARDHTML_STYLE, ".board td{"));
}
