/*
 * test_judge.c - the judge protocol (judge.h, docs/judges.md) against a
 * scripted judge in this process: its answers are written to a pipe before
 * they are asked for (judge_open_fds reads them there), the referee's
 * questions read back from another pipe, so that every case takes
 * milliseconds and no process is started. What the tests check: the exact
 * question lines, how each kind of answer becomes the game (hello, moves,
 * parse, verdict), and the exact "judge 'NAME': WHAT" of every malformed
 * answer, after which every position is a finished game without moves.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "arena/game.h"
#include "arena/limits.h"
#include "referee/judge/judge.h"

#define HELLO "{\"protocol\":\"arena-judge/1\",\"game\":\"pick\",\"start\":\"3\\n\"}\n"
#define HELLO_Q "{\"op\":\"hello\",\"protocol\":\"arena-judge/1\"}\n"
/* The start's moves: take 1 (to "2\n", whose summary is given) or 2. */
#define MOVES_3 "{\"to_move\":1,\"over\":false,\"moves\":[" \
                "{\"move\":\"1\",\"board\":\"2\\n\",\"to_move\":2,\"over\":false}," \
                "{\"move\":\"2\",\"board\":\"1\\n\"}]}\n"

struct fake {
    int ask;      /* read end of the referee's questions */
    int answer;   /* write end of the judge's answers; -1 once closed */
    struct judge *j;
};

/* Opens a judge named "fake" whose first answers are script; with close_after,
 * its output then closes (nothing more will come: a question past the
 * script fails at once instead of after JUDGE_TIMEOUT_MS). */
static int fake_open(struct fake *f, const char *script, int close_after, struct err *e)
{
    int q[2], a[2];
    cr_assert_eq(pipe(q), 0);
    cr_assert_eq(pipe(a), 0);
    fcntl(q[0], F_SETFL, O_NONBLOCK);
    size_t n = strlen(script);
    cr_assert_eq(write(a[1], script, n), (ssize_t)n);
    if (close_after) {
        close(a[1]);
        a[1] = -1;
    }
    f->ask = q[0];
    f->answer = a[1];
    return judge_open_fds("fake", q[1], a[0], &f->j, e);
}

/* Writes more answers. */
static void fake_say(struct fake *f, const char *script)
{
    size_t n = strlen(script);
    cr_assert_eq(write(f->answer, script, n), (ssize_t)n);
}

static void fake_end(struct fake *f)
{
    if (f->answer >= 0)
        close(f->answer);
    f->answer = -1;
}

/* The questions asked since the last call, as one string. */
static const char *fake_asked(struct fake *f)
{
    static char buf[4096];
    ssize_t n = read(f->ask, buf, sizeof buf - 1);
    buf[n > 0 ? n : 0] = '\0';
    return buf;
}

static void fake_close(struct fake *f)
{
    judge_close(f->j);
    fake_end(f);
    close(f->ask);
}

/* A position of the judge's game: its start. */
static void *start_of(const struct game *g)
{
    void *s = malloc(g->state_size);
    memcpy(s, g->start, g->state_size);
    return s;
}

static const char *board(const struct game *g, const void *s)
{
    static char buf[JUDGE_BOARD_MAX];
    g->format(s, buf);
    return buf;
}

Test(judge, hello_asks_the_protocol_and_learns_the_game_and_its_start)
{
    struct fake f;
    struct err e;
    cr_assert_eq(fake_open(&f, HELLO, 1, &e), 0, "%s", e.msg);
    cr_assert_str_eq(fake_asked(&f), HELLO_Q);
    const struct game *g = judge_game(f.j);
    cr_assert_str_eq(g->name, "pick");
    cr_assert_str_eq(g->title, "pick (judge)");
    cr_assert_str_eq(board(g, g->start), "3\n");
    cr_assert_null(g->drawing, "no drawing was said");
    cr_assert_eq(judge_error(f.j, &e), 0);
    cr_assert_eq(judge_pid(f.j), 0, "no process of ours");
    fake_close(&f);
}

Test(judge, hello_s_drawing_is_the_replays)
{
    struct fake f;
    struct err e;
    cr_assert_eq(fake_open(&f, "{\"protocol\":\"arena-judge/1\",\"game\":\"pick\",\"start\":\"3\\n\","
                           "\"drawing\":{\"layout\":\"rows\",\"style\":\".b{color:red}\","
                           "\"labels\":\"B=K\"}}\n", 1, &e), 0, "%s", e.msg);
    const struct game_drawing *d = judge_game(f.j)->drawing;
    cr_assert_not_null(d);
    cr_assert_eq(d->layout, GAME_DRAW_ROWS);
    cr_assert_str_eq(d->style, ".b{color:red}");
    cr_assert_str_eq(d->labels, "B=K");
    fake_close(&f);
}

/* Arrays, not pointers: Criterion hands each case to a new process. */
struct hello_case {
    char answer[160];   /* the judge's whole output */
    int rc;
    char msg[200];
};

ParameterizedTestParameters(judge, a_bad_hello_is_refused_saying_what_was_wrong)
{
    static struct hello_case cases[] = {
        { "", JUDGE_FAILED, "judge 'fake': closed its output before answering \"hello\"" },
        { "hello\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with 'hello', not a JSON object" },
        { "[1]\n", JUDGE_FAILED, "judge 'fake': answered \"hello\" with '[1]', not a JSON object" },
        { "{\"error\":\"no game here\"}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with the error 'no game here'" },
        { "{\"protocol\":\"arena-judge/2\",\"game\":\"pick\",\"start\":\"3\\n\"}\n", -1,
          "judge 'fake' speaks 'arena-judge/2', not arena-judge/1" },
        { "{\"game\":\"pick\",\"start\":\"3\\n\"}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" without the string \"protocol\"" },
        { "{\"protocol\":\"arena-judge/1\",\"start\":\"3\\n\"}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" without the string \"game\"" },
        { "{\"protocol\":\"arena-judge/1\",\"game\":\"Pick\",\"start\":\"3\\n\"}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with the game name 'Pick': lowercase letters, "
          "digits, - and _ only" },
        { "{\"protocol\":\"arena-judge/1\",\"game\":\"\",\"start\":\"3\\n\"}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with an empty game name" },
        { "{\"protocol\":\"arena-judge/1\",\"game\":\"pick\",\"start\":\"3\"}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with a board that does not end in a newline" },
        { "{\"protocol\":\"arena-judge/1\",\"game\":\"pick\",\"start\":\"\"}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with a board that does not end in a newline" },
        { "{\"protocol\":\"arena-judge/1\",\"game\":\"pick\",\"start\":\"3\\n\",\"drawing\":1}\n",
          JUDGE_FAILED, "judge 'fake': answered \"hello\" with a \"drawing\" that is not an object" },
        { "{\"protocol\":\"arena-judge/1\",\"game\":\"pick\",\"start\":\"3\\n\","
          "\"drawing\":{\"layout\":\"hex\"}}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with the layout 'hex': grid, checker or rows" },
        { "{\"protocol\":\"arena-judge/1\",\"game\":\"pick\",\"start\":\"3\\n\","
          "\"drawing\":{\"layout\":\"grid\",\"style\":\"</style>\"}}\n", JUDGE_FAILED,
          "judge 'fake': answered \"hello\" with a style holding '<' (it would end the page's "
          "style element)" },
    };
    return cr_make_param_array(struct hello_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct hello_case *c, judge, a_bad_hello_is_refused_saying_what_was_wrong)
{
    struct fake f;
    struct err e;
    memset(&e, 0, sizeof e);
    int rc = fake_open(&f, c->answer, 1, &e);
    cr_assert_eq(rc, c->rc, "answer '%s': %d, not %d (%s)", c->answer, rc, c->rc, e.msg);
    cr_assert_null(f.j);
    cr_assert_str_eq(e.msg, c->msg, "answer '%s'", c->answer);
    cr_assert(e.line == 0 && e.col == 0, "%d:%d", e.line, e.col);
    close(f.ask);
}

Test(judge, moves_are_asked_once_and_played_by_index)
{
    struct fake f;
    struct err e;
    cr_assert_eq(fake_open(&f, HELLO MOVES_3, 1, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    void *s = start_of(g);
    int moves[GAME_MAX_MOVES];
    cr_assert_eq(g->gen(s, moves), 2);
    cr_assert(moves[0] == 0 && moves[1] == 1, "%d %d", moves[0], moves[1]);
    cr_assert_str_eq(fake_asked(&f), HELLO_Q "{\"op\":\"moves\",\"board\":\"3\\n\"}\n");
    char text[GAME_MOVE_TEXT_MAX];
    g->move_text(s, 1, text, sizeof text);
    cr_assert_str_eq(text, "2");
    int m = -1;
    cr_assert_eq(g->parse_move(s, "1", &m), 0);
    cr_assert_eq(m, 0);
    cr_assert_eq(g->parse_move(s, "3", &m), -1, "not one of the judge's moves");
    cr_assert_eq(g->to_move(s), 1);
    int value;
    cr_assert_eq(g->terminal(s, &value), 0);
    /* Answered from what the judge said already: nothing more is asked. */
    cr_assert_str_eq(fake_asked(&f), "");
    g->play(s, 0);
    cr_assert_str_eq(board(g, s), "2\n");
    cr_assert_eq(g->to_move(s), 2, "the summary the moves answer gave");
    cr_assert_str_eq(fake_asked(&f), "", "a move's summary is not asked again");
    cr_assert_eq(judge_error(f.j, &e), 0, "%s", e.msg);
    free(s);
    fake_close(&f);
}

struct over_case {
    char answer[120];
    int value;   /* terminal's, for the player to move (1) */
};

ParameterizedTestParameters(judge, a_finished_game_is_worth_its_winner_and_margin)
{
    static struct over_case cases[] = {
        { "{\"to_move\":1,\"over\":true,\"winner\":1,\"margin\":0,\"moves\":[]}\n", SCORE_WIN },
        { "{\"to_move\":1,\"over\":true,\"winner\":2,\"margin\":0,\"moves\":[]}\n", -SCORE_WIN },
        { "{\"to_move\":1,\"over\":true,\"winner\":1,\"margin\":7,\"moves\":[]}\n", SCORE_WIN + 7 },
        { "{\"to_move\":1,\"over\":true,\"winner\":2,\"margin\":3,\"moves\":[]}\n",
          -(SCORE_WIN + 3) },
        { "{\"to_move\":1,\"over\":true,\"winner\":0,\"margin\":0,\"moves\":[]}\n", 0 },
    };
    return cr_make_param_array(struct over_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct over_case *c, judge, a_finished_game_is_worth_its_winner_and_margin)
{
    struct fake f;
    struct err e;
    char script[400];
    snprintf(script, sizeof script, "%s%s", HELLO, c->answer);
    cr_assert_eq(fake_open(&f, script, 1, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    int moves[GAME_MAX_MOVES], value = 12345;
    cr_assert_eq(g->gen(g->start, moves), 0);
    cr_assert_eq(g->terminal(g->start, &value), 1);
    cr_assert_eq(value, c->value, "'%s': %d", c->answer, value);
    cr_assert_eq(judge_error(f.j, &e), 0, "%s", e.msg);
    fake_close(&f);
}

struct moves_case {
    char answer[200];
    char msg[200];
};

ParameterizedTestParameters(judge, a_bad_moves_answer_fails_the_judge_saying_what)
{
    static struct moves_case cases[] = {
        { "", "judge 'fake': closed its output before answering \"moves\"" },
        { "{\"to_move\":1,\"over\":false}\n",
          "judge 'fake': answered \"moves\" without \"moves\" (a list)" },
        { "{\"over\":false,\"moves\":[]}\n",
          "judge 'fake': answered \"moves\" without \"to_move\" a whole number from 1 to 2" },
        { "{\"to_move\":3,\"over\":false,\"moves\":[]}\n",
          "judge 'fake': answered \"moves\" without \"to_move\" a whole number from 1 to 2" },
        { "{\"to_move\":1.5,\"over\":false,\"moves\":[]}\n",
          "judge 'fake': answered \"moves\" without \"to_move\" a whole number from 1 to 2" },
        { "{\"to_move\":1,\"over\":0,\"moves\":[]}\n",
          "judge 'fake': answered \"moves\" without \"over\" (true or false)" },
        { "{\"to_move\":1,\"over\":true,\"margin\":0,\"moves\":[]}\n",
          "judge 'fake': answered \"moves\" without \"winner\" a whole number from 0 to 2" },
        { "{\"to_move\":1,\"over\":false,\"moves\":[]}\n",
          "judge 'fake': answered \"moves\" with no move in a game not over (a pass is a move)" },
        { "{\"to_move\":1,\"over\":true,\"winner\":0,\"margin\":0,\"moves\":"
          "[{\"move\":\"1\",\"board\":\"2\\n\"}]}\n",
          "judge 'fake': answered \"moves\" for a finished game with 1 moves" },
        { "{\"to_move\":1,\"over\":false,\"moves\":[{\"move\":\"1\",\"board\":\"2\\n\"},"
          "{\"move\":\"1\",\"board\":\"1\\n\"}]}\n",
          "judge 'fake': answered \"moves\" with the move '1' twice" },
        { "{\"to_move\":1,\"over\":false,\"moves\":[{\"board\":\"2\\n\"}]}\n",
          "judge 'fake': answered \"moves\" without the string \"move\"" },
        { "{\"to_move\":1,\"over\":false,\"moves\":[{\"move\":\"1\",\"board\":\"2\"}]}\n",
          "judge 'fake': answered \"moves\" with a board that does not end in a newline" },
        { "{\"error\":\"lost\"}\n", "judge 'fake': answered \"moves\" with the error 'lost'" },
        { "moves\n", "judge 'fake': answered \"moves\" with 'moves', not a JSON object" },
    };
    return cr_make_param_array(struct moves_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct moves_case *c, judge, a_bad_moves_answer_fails_the_judge_saying_what)
{
    struct fake f;
    struct err e;
    char script[400];
    snprintf(script, sizeof script, "%s%s", HELLO, c->answer);
    cr_assert_eq(fake_open(&f, script, 1, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    int moves[GAME_MAX_MOVES], value = 12345;
    cr_assert_eq(g->gen(g->start, moves), 0, "a failed judge's position has no move");
    cr_assert_eq(judge_error(f.j, &e), -1, "'%s' was taken", c->answer);
    cr_assert_str_eq(e.msg, c->msg, "answer '%s'", c->answer);
    /* Every position is now a finished game, so whatever asks winds up. */
    cr_assert_eq(g->terminal(g->start, &value), 1);
    cr_assert_str_eq(fake_asked(&f), HELLO_Q "{\"op\":\"moves\",\"board\":\"3\\n\"}\n");
    fake_close(&f);
}

Test(judge, an_answer_contradicting_an_earlier_summary_fails_the_judge)
{
    struct fake f;
    struct err e;
    /* The start's answer said "2\n" is player 2's, not over; its own
     * answer says player 1's. */
    cr_assert_eq(fake_open(&f, HELLO MOVES_3
                           "{\"to_move\":1,\"over\":false,\"moves\":"
                           "[{\"move\":\"1\",\"board\":\"1\\n\"}]}\n", 1, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    void *s = start_of(g);
    int moves[GAME_MAX_MOVES];
    cr_assert_eq(g->gen(s, moves), 2);
    g->play(s, 0);
    cr_assert_eq(g->gen(s, moves), 0);
    cr_assert_eq(judge_error(f.j, &e), -1);
    cr_assert_str_eq(e.msg, "judge 'fake': answered \"moves\" about a board otherwise than its "
                     "earlier answer listing it as a move's board");
    free(s);
    fake_close(&f);
}

Test(judge, prefetch_asks_ahead_and_the_answer_is_read_when_needed)
{
    struct fake f;
    struct err e;
    cr_assert_eq(fake_open(&f, HELLO MOVES_3, 0, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    void *s = start_of(g);
    int moves[GAME_MAX_MOVES];
    cr_assert_eq(g->gen(s, moves), 2);
    g->play(s, 0);   /* "2\n": its summary is known, its moves not */
    fake_asked(&f);
    g->prefetch(s);
    cr_assert_str_eq(fake_asked(&f), "{\"op\":\"moves\",\"board\":\"2\\n\"}\n",
                     "asked ahead, before anyone needs it");
    g->prefetch(s);
    cr_assert_str_eq(fake_asked(&f), "", "one question outstanding at most");
    fake_say(&f, "{\"to_move\":2,\"over\":false,\"moves\":[{\"move\":\"1\",\"board\":\"1\\n\"}]}\n");
    fake_end(&f);
    cr_assert_eq(g->gen(s, moves), 1);
    cr_assert_str_eq(fake_asked(&f), "", "the answer sent ahead is the one read");
    cr_assert_eq(judge_error(f.j, &e), 0, "%s", e.msg);
    free(s);
    fake_close(&f);
}

Test(judge, parse_takes_a_listed_board_unasked_and_asks_for_others)
{
    struct fake f;
    struct err e;
    cr_assert_eq(fake_open(&f, HELLO MOVES_3, 0, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    void *s = start_of(g);
    int moves[GAME_MAX_MOVES];
    cr_assert_eq(g->gen(s, moves), 2);
    fake_asked(&f);
    cr_assert_eq(g->parse(s, "1\n", 2, &e), 0, "%s", e.msg);
    cr_assert_str_eq(board(g, s), "1\n");
    cr_assert_str_eq(fake_asked(&f), "", "a board among the moves' is canonical");

    memcpy(s, g->start, g->state_size);
    fake_say(&f, "{\"board\":\"2\\n\"}\n");
    cr_assert_eq(g->parse(s, " 2\n", 3, &e), 0, "%s", e.msg);
    cr_assert_str_eq(fake_asked(&f), "{\"op\":\"parse\",\"text\":\" 2\\n\"}\n");
    cr_assert_str_eq(board(g, s), "2\n", "the judge's canonical board");

    memcpy(s, g->start, g->state_size);
    fake_say(&f, "{\"error\":\"not a number\",\"line\":1,\"col\":2}\n");
    cr_assert_eq(g->parse(s, "x\n", 2, &e), -1);
    cr_assert_str_eq(e.msg, "not a number");
    cr_assert(e.line == 1 && e.col == 2, "%d:%d", e.line, e.col);
    cr_assert_eq(judge_error(f.j, NULL), 0, "an unreadable board is not the judge's failure");
    free(s);
    fake_close(&f);
}

Test(judge, parse_refuses_bytes_that_are_not_text_unasked)
{
    struct fake f;
    struct err e;
    cr_assert_eq(fake_open(&f, HELLO MOVES_3, 1, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    void *s = start_of(g);
    fake_asked(&f);
    cr_assert_eq(g->parse(s, "3\n\x01\n", 4, &e), -1);
    cr_assert_str_eq(e.msg, "byte 0x01 is not text (UTF-8 without control characters)");
    cr_assert(e.line == 2 && e.col == 1, "%d:%d", e.line, e.col);
    cr_assert_str_eq(fake_asked(&f), "", "never sent to the judge");
    free(s);
    fake_close(&f);
}

struct verdict_case {
    char answer[160];
    int rc;
    char why[200];   /* rc 0: the reason; else the judge's failure */
};

ParameterizedTestParameters(judge, a_verdict_names_one_of_the_known_reasons)
{
    static struct verdict_case cases[] = {
        { "{\"legal\":false,\"reason\":\"illegal-move\"}\n", 0, "illegal-move" },
        { "{\"legal\":false,\"reason\":\"wrong-player: 2 moved\"}\n", 0, "wrong-player: 2 moved" },
        { "{\"legal\":false,\"reason\":\"tampered-board\"}\n", 0, "tampered-board" },
        { "{\"legal\":false,\"reason\":\"unreadable: 1:1: no\"}\n", 0, "unreadable: 1:1: no" },
        { "{\"legal\":false,\"reason\":\"illegal-moves\"}\n", -1,
          "judge 'fake': answered \"verdict\" with the reason 'illegal-moves', not one of "
          "illegal-move, wrong-player, tampered-board, unreadable (then ': ' and words)" },
        { "{\"legal\":true}\n", -1, "judge 'fake': answered \"verdict\" that an answer is legal "
          "which none of its moves gives" },
        { "{\"reason\":\"illegal-move\"}\n", -1,
          "judge 'fake': answered \"verdict\" without \"legal\" (true or false)" },
        { "{\"legal\":false}\n", -1,
          "judge 'fake': answered \"verdict\" without the string \"reason\"" },
    };
    return cr_make_param_array(struct verdict_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct verdict_case *c, judge, a_verdict_names_one_of_the_known_reasons)
{
    struct fake f;
    struct err e;
    char script[400];
    snprintf(script, sizeof script, "%s%s", HELLO, c->answer);
    cr_assert_eq(fake_open(&f, script, 1, &e), 0, "%s", e.msg);
    const struct game *g = judge_game(f.j);
    fake_asked(&f);
    char why[120] = "";
    int rc = g->explain(g->start, "0\n", 2, why, sizeof why);
    cr_assert_str_eq(fake_asked(&f),
                     "{\"op\":\"verdict\",\"board\":\"3\\n\",\"answer\":\"0\\n\"}\n");
    cr_assert_eq(rc, c->rc, "'%s': %d (%s)", c->answer, rc, why);
    if (rc == 0) {
        cr_assert_str_eq(why, c->why);
    } else {
        cr_assert_eq(judge_error(f.j, &e), -1);
        cr_assert_str_eq(e.msg, c->why);
    }
    fake_close(&f);
}

Test(judge, a_forked_worker_cannot_ask_a_judge_it_did_not_start)
{
    struct fake f;
    struct err e;
    cr_assert_eq(fake_open(&f, HELLO MOVES_3, 1, &e), 0, "%s", e.msg);
    pid_t pid = fork();
    cr_assert_geq(pid, 0);
    if (pid == 0) {
        const struct game *g = judge_game(f.j);
        int moves[GAME_MAX_MOVES];
        int n = g->gen(g->start, moves);
        int failed = judge_error(f.j, &e) != 0 &&
                     strcmp(e.msg, "judge 'fake': is reached through its first process's "
                            "descriptors only") == 0;
        _exit(n == 0 && failed ? 0 : 1);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "status %d", status);
    cr_assert_eq(judge_error(f.j, &e), 0, "the worker's failure is its copy's");
    fake_close(&f);
}

struct flood {
    int fd;
    size_t n;
};

/* Writes n bytes of 'x' (no newline) to fd, then closes it. */
static void *flood_run(void *arg)
{
    struct flood *fl = arg;
    char buf[4096];
    memset(buf, 'x', sizeof buf);
    for (size_t sent = 0; sent < fl->n;) {
        size_t k = fl->n - sent < sizeof buf ? fl->n - sent : sizeof buf;
        ssize_t w = write(fl->fd, buf, k);
        if (w <= 0)
            break;   /* the judge was closed: EPIPE */
        sent += (size_t)w;
    }
    close(fl->fd);
    return NULL;
}

Test(judge, an_answer_line_past_the_limit_fails_the_judge)
{
    int q[2], a[2];
    cr_assert_eq(pipe(q), 0);
    cr_assert_eq(pipe(a), 0);
    struct flood fl = { a[1], JUDGE_LINE_MAX };
    pthread_t t;
    cr_assert_eq(pthread_create(&t, NULL, flood_run, &fl), 0);
    struct judge *j;
    struct err e;
    cr_assert_eq(judge_open_fds("fake", q[1], a[0], &j, &e), JUDGE_FAILED);
    char want[128];
    snprintf(want, sizeof want, "judge 'fake': answered \"hello\" with a line over %d bytes",
             JUDGE_LINE_MAX - 1);
    cr_assert_str_eq(e.msg, want);
    pthread_join(t, NULL);
    close(q[0]);
}
