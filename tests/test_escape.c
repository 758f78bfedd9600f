/*
 * test_escape.c - text shown on a terminal (escape.h): control characters
 * and invalid UTF-8 become \xNN, everything else stays as it was, and a cut
 * never splits an escape or a character; a CSV cell (RFC 4180 quoting, and
 * OWASP's leading ' before what a spreadsheet would run as a formula).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/escape.h"

struct esc_case {
    char in[32];
    char out[96];
};

ParameterizedTestParameters(escape, controls_and_bad_utf8_are_escaped)
{
    static struct esc_case cases[] = {
        { "plain text, a\\b", "plain text, a\\b" },
        { "\033]0;title\007", "\\x1b]0;title\\x07" },
        { "tab\there\nnext\r", "tab\\x09here\\x0anext\\x0d" },
        { "del\177", "del\\x7f" },
        { "c1 \302\233J", "c1 \\xc2\\x9bJ" },                /* U+009B, CSI */
        { "\303\251t\303\251 \342\202\254", "\303\251t\303\251 \342\202\254" },  /* été € */
        { "raw \233 byte", "raw \\x9b byte" },               /* not UTF-8 */
        { "overlong \300\233", "overlong \\xc0\\x9b" },
        { "cut \342\202", "cut \\xe2\\x82" },
    };
    return cr_make_param_array(struct esc_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct esc_case *c, escape, controls_and_bad_utf8_are_escaped)
{
    char buf[ESC_ROOM(sizeof c->in)];
    cr_assert_str_eq(esc_text(c->in, buf, sizeof buf), c->out);
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    esc_fputs(c->in, f);
    fclose(f);
    cr_assert_str_eq(text, c->out);
    free(text);
}

Test(escape, a_cut_keeps_escapes_and_characters_whole)
{
    char buf[8];
    cr_assert_str_eq(esc_text("ab\033cd", buf, sizeof buf), "ab\\x1bc");
    cr_assert_str_eq(esc_text("abc\033d", buf, 6), "abc");
    cr_assert_str_eq(esc_text("a\342\202\254b", buf, 4), "a");
    cr_assert_str_eq(esc_text("x", buf, 1), "");
}

/* A page's text: markup as entities, newline and tab kept, every other
 * control and each byte outside valid UTF-8 one U+FFFD. */
ParameterizedTestParameters(escape, html_has_entities_and_replacement_characters)
{
    static struct esc_case cases[] = {
        { "<b>\"a\" & 'b'</b>", "&lt;b&gt;&quot;a&quot; &amp; &#39;b&#39;&lt;/b&gt;" },
        { "tab\there\nnext", "tab\there\nnext" },
        { "\033[2Jdel\177", "\357\277\275[2Jdel\357\277\275" },
        { "\303\251t\303\251 \342\202\254", "\303\251t\303\251 \342\202\254" },  /* été € */
        { "raw \233 cut \342\202", "raw \357\277\275 cut \357\277\275\357\277\275" },
    };
    return cr_make_param_array(struct esc_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct esc_case *c, escape, html_has_entities_and_replacement_characters)
{
    char *text;
    size_t len;
    FILE *f = open_memstream(&text, &len);
    esc_html(c->in, f);
    fclose(f);
    cr_assert_str_eq(text, c->out, "in '%s'", c->in);
    free(text);
}

/* esc_text_end: where bytes stop being text (a judge's input). */
struct text_end_case {
    char in[16];
    size_t len;   /* bytes of in */
    size_t want;
};

ParameterizedTestParameters(escape, text_ends_at_the_first_byte_that_is_not_text)
{
    static struct text_end_case cases[] = {
        { "X..\n2\n", 6, 6 },                 /* text, newlines included */
        { "a\r\n\tb", 5, 5 },                 /* CR and tab are text */
        { "ab\xff", 3, 2 },                   /* not UTF-8 */
        { "a\0b", 3, 1 },                     /* NUL */
        { "a\x1b[2J", 5, 1 },                 /* ESC */
        { "\x7f", 1, 0 },                     /* DEL */
        { "\xc2\x85", 2, 0 },                 /* C1 control (NEL) */
        { "\xc3\xa9t\xc3\xa9", 5, 5 },        /* "été" */
        { "\xe2\x82", 2, 0 },                 /* a character cut short */
        { "\xed\xa0\x80", 3, 0 },             /* a surrogate */
        { "\xf0\x9f\x98\x80!", 5, 5 },        /* four bytes, then text */
        { "", 0, 0 },
    };
    return cr_make_param_array(struct text_end_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct text_end_case *c, escape, text_ends_at_the_first_byte_that_is_not_text)
{
    size_t got = esc_text_end(c->in, c->len);
    char shown[ESC_ROOM(16)];
    char copy[17] = { 0 };
    memcpy(copy, c->in, c->len);
    cr_assert_eq(got, c->want, "esc_text_end(\"%s\", %zu) = %zu, want %zu",
                 esc_text(copy, shown, sizeof shown), c->len, got, c->want);
}

struct cell_case {
    const char *text, *cell;
};

Test(escape, a_csv_cell_is_quoted_and_never_a_formula)
{
    static const struct cell_case cases[] = {
        { "alice", "alice" },
        { "", "" },
        { "=HYPERLINK(\"http://x\")", "\"'=HYPERLINK(\"\"http://x\"\")\"" },
        { "=1+1", "'=1+1" },
        { "+cmd", "'+cmd" },
        { "-2", "'-2" },
        { "@SUM(1)", "'@SUM(1)" },
        { "\tx", "'\tx" },
        { "\rcr", "\"'\rcr\"" },
        { "a,b", "\"a,b\"" },
        { "say\"hi", "\"say\"\"hi\"" },
        { "two\nlines", "\"two\nlines\"" },
        { "a=b", "a=b" },                 /* only a leading one */
        { "\x1b[31mred", "\x1b[31mred" },  /* a file's data; the terminal escapes it */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *text = NULL;
        size_t len = 0;
        FILE *f = open_memstream(&text, &len);
        cr_assert_not_null(f);
        esc_csv(cases[i].text, f);
        fclose(f);
        cr_expect_str_eq(text, cases[i].cell, "cell of \"%s\"", cases[i].text);
        free(text);
    }
}
