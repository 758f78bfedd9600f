/*
 * test_boardhtml.c - a board file drawn as static HTML (boardhtml.h): the
 * cells' classes the games' style rules dress, the checker and rows
 * layouts, a game without a drawing, every game of the registry, and the
 * one style sheet the report, the play page and the grade's pages share.
 */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/playsrv.h"
#include "arena/registry.h"
#include "referee/report/boardhtml.h"
#include "referee/report/report_html.h"

/* The board text drawn for game g (NULL: none), malloc'd. */
static char *drawn(const struct game *g, const char *text)
{
    char *out = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&out, &len);
    cr_assert_not_null(f);
    boardhtml_write(f, g, text);
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

Test(boardhtml, a_connect4_board_is_a_table_of_styled_disc_cells)
{
    const struct game *g = registry_find("connect4");
    cr_assert_not_null(g);
    char *html = drawn(g, "0000000\n0000000\n0000000\n0000000\n0000000\n1200000\n2\n");
    cr_expect_eq(strncmp(html, "<table class=\"board connect4\"><tr>", 34), 0, "%s", html);
    cr_expect_eq(count(html, "<tr>"), 6, "rows: %s", html);
    cr_expect_eq(count(html, "<td class=\"c c48\"></td>"), 40, "empty cells: %s", html);
    cr_expect_not_null(strstr(html, "<tr><td class=\"c c49\"></td><td class=\"c c50\"></td>"
                                    "<td class=\"c c48\"></td>"), "the bottom row: %s", html);
    /* The game's rules dress exactly those classes. */
    cr_expect_not_null(strstr(boardhtml_game_style(g), ".connect4 td.c49{"), "%s",
                       boardhtml_game_style(g));
    cr_expect_not_null(strstr(boardhtml_game_style(g), ".connect4 td.c50{"));
    free(html);
}

Test(boardhtml, the_player_to_move_is_not_drawn)
{
    char *html = drawn(registry_find("maxconnect4"), "12\n21\n1\n\n");
    cr_expect_str_eq(html, "<table class=\"board maxconnect4\"><tr><td class=\"c c49\"></td>"
                           "<td class=\"c c50\"></td></tr><tr><td class=\"c c50\"></td>"
                           "<td class=\"c c49\"></td></tr></table>\n");
    free(html);
}

Test(boardhtml, checkers_pieces_sit_on_dark_and_light_cells_lettered_by_labels)
{
    char *html = drawn(registry_find("checkers"), ".b\nB.\nW\n");
    cr_expect_str_eq(html, "<table class=\"board checkers\"><tr><td class=\"light c c46\"></td>"
                           "<td class=\"dark c c98\"><span></span></td></tr><tr>"
                           "<td class=\"dark c c66\"><span>K</span></td>"
                           "<td class=\"light c c46\"></td></tr></table>\n");
    free(html);
}

Test(boardhtml, nim_heaps_are_rows_of_matches)
{
    char *html = drawn(registry_find("nim"), "3 0 1\n1\n");
    cr_expect_str_eq(html, "<div class=\"rows nim\"><div>0: ||| (3)</div><div>1:  (0)</div>"
                           "<div>2: | (1)</div></div>\n");
    free(html);
}

/* A judge's plain grid has no style rules: its characters are written. */
Test(boardhtml, a_grid_without_style_shows_its_characters_escaped)
{
    char *html = drawn(NULL, "x<\n.o\nx\n");
    cr_expect_str_eq(html, "<table class=\"board\"><tr><td class=\"c c120\">x</td>"
                           "<td class=\"c c60\">&lt;</td></tr><tr><td class=\"c c46\">.</td>"
                           "<td class=\"c c111\">o</td></tr></table>\n");
    free(html);
}

Test(boardhtml, a_text_of_one_line_draws_nothing)
{
    char *html = drawn(NULL, "1\n");
    cr_expect_str_eq(html, "");
    free(html);
}

/* Every game's start position: a cell per character of its board lines,
 * or a row per number of a rows layout. */
Test(boardhtml, every_game_of_the_registry_draws_its_start)
{
    for (const struct game *const *g = registry_all(); *g; g++) {
        unsigned char pos[GAME_MAX_STATE];
        char text[GAME_FORMAT_MAX];
        game_init(*g, pos);
        (*g)->format(pos, text);
        char *html = drawn(*g, text);
        size_t body = 0;   /* the characters of every line but the last */
        const char *last = text;
        for (const char *p = text; *p; p++)
            if (*p == '\n' && p[1])
                last = p + 1;
        for (const char *p = text; p < last; p++)
            body += *p != '\n';
        if ((*g)->drawing && (*g)->drawing->layout == GAME_DRAW_ROWS)
            cr_expect(count(html, "<div>") > 0, "%s: %s", (*g)->name, html);
        else
            cr_expect_eq((size_t)count(html, "<td "), body, "%s: %zu characters, %s",
                         (*g)->name, body, html);
        cr_expect_eq(count(html, "<tr>"), count(html, "</tr>"), "%s", (*g)->name);
        free(html);
    }
}

/* The report's sheet and the play page carry the board cells' sheet. */
Test(boardhtml, the_report_and_the_play_page_share_its_style_sheet)
{
    cr_expect_not_null(strstr(report_html_style, BOARDHTML_STYLE), "%s", report_html_style);
    cr_expect_not_null(strstr(playsrv_page, BOARDHTML_STYLE));
    cr_expect_not_null(strstr(BOARDHTML_STYLE, ".board td{"));
    /* The scripts build the cells this module writes: "c c" and the code. */
    cr_expect_not_null(strstr(report_html_script, "'c c'+ch.charCodeAt(0)"));
    cr_expect_not_null(strstr(playsrv_page, "'c c'+ch.charCodeAt(0)"));
}
