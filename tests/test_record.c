/*
 * test_record.c - the typed game record (record.h): its encoder writes what
 * the referee has always written, byte for byte; decoding and encoding a
 * record gives back its bytes (old journals included); a missing key stays
 * missing; what the struct cannot hold is refused with a message; a
 * forfeit's output tails round-trip; the game's own score round-trips and
 * reads as results show it.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "arena/record.h"

/* encode(decode(text)) as unformatted JSON; NULL when decode refuses. */
static char *round_trip(const char *text, struct err *e)
{
    cJSON *json = cJSON_Parse(text);
    cr_assert_not_null(json, "not JSON: %s", text);
    struct game_record rec;
    char *back = NULL;
    if (rec_decode(json, &rec, e) == 0) {
        cJSON *again = rec_encode(&rec);
        back = cJSON_PrintUnformatted(again);
        cJSON_Delete(again);
        rec_free(&rec);
    }
    cJSON_Delete(json);
    return back;
}

/* A forfeit game built with the setters is the JSON play has always written. */
Test(record, encoder_writes_the_known_format)
{
    struct game_record rec;
    rec_init(&rec, 3, 1);
    rec.has &= ~REC_HAS_ANALYSIS;   /* not analysed */
    strcpy(rec.player[0], "a");
    strcpy(rec.player[1], "b");
    cr_assert_eq(rec_add_opening(&rec, "4"), 0);
    struct rec_move m;
    rec_move_init(&m);
    m.ply = 1;
    m.side = 2;
    strcpy(m.engine, "b");
    strcpy(m.move, "3");
    m.cpu_user_ms = 1.5;
    m.cpu_sys_ms = 0;
    m.wall_ms = 2.25;
    m.max_rss_kb = 2048;
    m.referee_ms = 0.5;
    strcpy(m.status, "ok");
    m.has = REC_HAS_ENGINE | REC_HAS_MOVE | REC_HAS_STATUS;
    cr_assert_eq(rec_add_move(&rec, &m), 0);
    m.ply = 2;
    m.side = 1;
    strcpy(m.engine, "a");
    m.move[0] = '\0';
    strcpy(m.status, "timeout");
    cr_assert_eq(rec_add_move(&rec, &m), 0);
    rec_set_end(&rec, REC_WIN_2, REC_FORFEIT, "timeout");
    rec.has &= ~(unsigned)REC_HAS_ANALYSIS;
    cJSON *json = rec_encode(&rec);
    char *text = cJSON_PrintUnformatted(json);
    cr_assert_str_eq(
        text,
        "{\"index\":3,\"pair\":1,\"players\":{\"1\":\"a\",\"2\":\"b\"},\"opening\":[\"4\"],"
        "\"moves\":[{\"ply\":1,\"side\":2,\"engine\":\"b\",\"move\":\"3\",\"cpu_user_ms\":1.5,"
        "\"cpu_sys_ms\":0,\"wall_ms\":2.25,\"max_rss_kb\":2048,\"referee_ms\":0.5,"
        "\"status\":\"ok\"},{\"ply\":2,\"side\":1,\"engine\":\"a\",\"move\":null,"
        "\"cpu_user_ms\":1.5,\"cpu_sys_ms\":0,\"wall_ms\":2.25,\"max_rss_kb\":2048,"
        "\"referee_ms\":0.5,\"status\":\"timeout\"}],\"result\":\"0-1\",\"winner\":\"b\","
        "\"reason\":\"timeout\"}");
    free(text);
    cJSON_Delete(json);
    rec_free(&rec);
}

/* Every record of the journals written before the typed record (analysis
 * included) decodes and encodes back to its own bytes. */
struct old_journal {
    char path[48];
};

ParameterizedTestParameters(record, old_journal_lines_read_back_to_the_same_bytes)
{
    static struct old_journal files[] = { { "fixtures/records/old-journal.jsonl" },
                                          { "fixtures/records/old-checkers.jsonl" },
                                          { "fixtures/records/old-nim.jsonl" } };
    return cr_make_param_array(struct old_journal, files, sizeof files / sizeof *files);
}

ParameterizedTest(struct old_journal *j, record, old_journal_lines_read_back_to_the_same_bytes)
{
    FILE *f = fopen(j->path, "r");
    cr_assert_not_null(f, "cannot open %s", j->path);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int lineno = 0;
    while ((n = getline(&line, &cap, f)) > 0) {
        line[n - 1] = '\0';
        if (++lineno == 1)
            continue;   /* the header */
        struct err e;
        char *back = round_trip(line, &e);
        cr_assert_not_null(back, "%s:%d: %s", j->path, lineno, e.msg);
        cr_assert_str_eq(back, line, "%s:%d changed", j->path, lineno);
        free(back);
    }
    cr_assert_gt(lineno, 1, "%s has no record", j->path);
    free(line);
    fclose(f);
}

/* A hand-made record lacks most keys: missing ones decode to their marks
 * and stay missing when encoded. */
Test(record, missing_keys_stay_missing)
{
    static const char text[] =
        "{\"index\":2,\"players\":{\"1\":\"a\",\"2\":\"b\"},\"moves\":[{\"ply\":1,\"side\":1,"
        "\"engine\":\"a\",\"move\":\"0:1\",\"status\":\"ok\"}],\"result\":\"1-0\","
        "\"reason\":\"normal\"}";
    cJSON *json = cJSON_Parse(text);
    struct game_record rec;
    struct err e;
    cr_assert_eq(rec_decode(json, &rec, &e), 0, "%s", e.msg);
    cr_assert_eq(rec.pair, -1);
    cr_assert_eq(rec.nopening, 0);
    cr_assert_eq(rec.has & (REC_HAS_OPENING | REC_HAS_WINNER | REC_HAS_ANALYSIS), 0,
                 "has %#x", rec.has);
    cr_assert(isnan(rec.moves[0].cpu_user_ms) && isnan(rec.moves[0].referee_ms));
    cr_assert_eq(rec.moves[0].before, REC_UNANALYSED);
    cr_assert_eq(rec.result, REC_WIN_1);
    cr_assert_eq(rec.reason, REC_NORMAL);
    cr_assert_str_eq(rec_winner(&rec), "a");
    rec_free(&rec);
    cJSON_Delete(json);
    char *back = round_trip(text, &e);
    cr_assert_str_eq(back, text);
    free(back);
}

struct refused {
    char text[160];
    char msg[96];
};

ParameterizedTestParameters(record, what_it_cannot_hold_is_refused)
{
    static struct refused cases[] = {
        { "{\"index\":1,\"result\":\"2-0\"}",
          "a \"result\" other than 1-0, 0-1 or 1/2-1/2" },
        { "{\"index\":1,\"opening\":[4]}", "an opening move that is not a move's text" },
        { "{\"players\":{\"1\":\"a123456789012345678901234567890123456789012345678901234567890123"
          "\"}}",
          "a \"1\" longer than 63 bytes" },
        { "{\"moves\":[{\"ply\":1,\"before\":\"good\",\"after\":\"win\"}]}",
          "an analysis whose \"before\" is not win, draw, loss or unknown" },
        { "{\"index\":1,\"score\":{\"1\":14}}",
          "a \"score\" without two whole numbers \"1\" and \"2\"" },
        { "{\"index\":1,\"score\":{\"1\":14,\"2\":-1}}",
          "a \"score\" without two whole numbers \"1\" and \"2\"" },
        { "{\"index\":1,\"score\":{\"1\":1.5,\"2\":2}}",
          "a \"score\" without two whole numbers \"1\" and \"2\"" },
    };
    return cr_make_param_array(struct refused, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct refused *c, record, what_it_cannot_hold_is_refused)
{
    struct err e;
    char *back = round_trip(c->text, &e);
    cr_assert_null(back, "%s was read as %s", c->text, back);
    cr_assert_str_eq(e.msg, c->msg, "%s", c->text);
}

/* A forfeit's output tails (record.h) are written on its move, after
 * "status", and read back to the same bytes; a record with them frees
 * them (valgrind and ASan check). */
Test(record, forfeit_tails_round_trip)
{
    static const char text[] =
        "{\"index\":1,\"pair\":0,\"players\":{\"1\":\"a\",\"2\":\"b\"},\"opening\":[],"
        "\"moves\":[{\"ply\":1,\"side\":1,\"engine\":\"a\",\"move\":null,\"status\":"
        "\"exit-status 1\",\"stdout_tail\":\"thinking\\n\",\"stderr_tail\":"
        "\"Traceback\\nValueError: x\\n\"}],\"result\":\"0-1\",\"winner\":\"b\","
        "\"reason\":\"exit-status 1\"}";
    struct err e;
    char *back = round_trip(text, &e);
    cr_assert_not_null(back, "%s", e.msg);
    cr_assert_str_eq(back, text);
    free(back);
    cJSON *json = cJSON_Parse(text);
    struct game_record rec;
    cr_assert_eq(rec_decode(json, &rec, &e), 0, "%s", e.msg);
    cr_assert_str_eq(rec.moves[0].stderr_tail, "Traceback\nValueError: x\n");
    cr_assert_str_eq(rec.moves[0].stdout_tail, "thinking\n");
    rec_free(&rec);
    cJSON_Delete(json);
}

/* The game's own score: written after "reason", read back to the same
 * bytes, shown the winner's first; a record without one has none. */
Test(record, score_round_trips_and_shows_the_winners_first)
{
    struct game_record rec;
    rec_init(&rec, 3, 1);
    rec.has &= ~REC_HAS_ANALYSIS;   /* not analysed */
    strcpy(rec.player[0], "a");
    strcpy(rec.player[1], "b");
    rec_set_end(&rec, REC_WIN_2, REC_NORMAL, NULL);
    char text[REC_SCORE_TEXT_MAX];
    cr_expect_str_eq(rec_score_text(&rec, text), "", "no score yet: '%s'", text);
    rec_set_score(&rec, (const int[2]){ 11, 14 }, "points");
    cr_expect_str_eq(rec_score_text(&rec, text), "14-11");
    cJSON *json = rec_encode(&rec);
    char *out = cJSON_PrintUnformatted(json);
    static const char want[] =
        "{\"index\":3,\"pair\":1,\"players\":{\"1\":\"a\",\"2\":\"b\"},\"opening\":[],"
        "\"moves\":[],\"result\":\"0-1\",\"winner\":\"b\",\"reason\":\"normal\","
        "\"score\":{\"1\":11,\"2\":14,\"of\":\"points\"}}";
    cr_expect_str_eq(out, want);
    struct err e;
    char *back = round_trip(out, &e);
    cr_expect_str_eq(back, want);
    free(back);
    free(out);
    cJSON_Delete(json);
    rec_free(&rec);
    rec_init(&rec, 1, 0);
    rec_set_end(&rec, REC_DRAWN, REC_NORMAL, NULL);
    rec_set_score(&rec, (const int[2]){ 12, 12 }, "points");
    cr_expect_str_eq(rec_score_text(&rec, text), "12-12");
    rec_free(&rec);
}

/* A forfeit's reason and status keep their stable kind, as records before
 * "detail" did, the rest of the text beside it; read back, the record's
 * reason is the whole text again and encodes to the same bytes. */
Test(record, a_reason_keeps_its_kind_and_its_detail_beside)
{
    struct game_record rec;
    rec_init(&rec, 1, 0);
    rec.has &= ~(REC_HAS_ANALYSIS | REC_HAS_OPENING | REC_HAS_PLAYERS | REC_HAS_WINNER);
    static const char why[] = "timeout: no answer within 1000 ms of wall time (--timeout-ms)";
    struct rec_move m;
    rec_move_init(&m);
    m.ply = 1;
    m.side = 1;
    snprintf(m.status, sizeof m.status, "%s", why);
    m.has = REC_HAS_STATUS;
    cr_assert_eq(rec_add_move(&rec, &m), 0);
    rec_set_end(&rec, REC_WIN_2, REC_FORFEIT, why);
    cJSON *json = rec_encode(&rec);
    char *text = cJSON_PrintUnformatted(json);
    static const char want[] =
        "{\"index\":1,\"pair\":0,\"moves\":[{\"ply\":1,\"side\":1,\"status\":\"timeout\","
        "\"detail\":\"no answer within 1000 ms of wall time (--timeout-ms)\"}],"
        "\"result\":\"0-1\",\"reason\":\"timeout\",\"detail\":\"no answer within 1000 ms of "
        "wall time (--timeout-ms)\"}";
    cr_assert_str_eq(text, want);
    struct game_record back;
    struct err e;
    cr_assert_eq(rec_decode(json, &back, &e), 0, "%s", e.msg);
    cr_assert_str_eq(rec_reason_text(&back), why);
    cr_assert_str_eq(back.moves[0].status, why);
    char *again = round_trip(text, &e);
    cr_assert_str_eq(again, want);
    free(again);
    rec_free(&back);
    free(text);
    cJSON_Delete(json);
    rec_free(&rec);
}

/* A kind without a detail ("exit-status 1", "crashed: SIGSEGV") is written
 * alone; a record written before "detail", its whole text under "reason",
 * reads and writes back as it was. */
Test(record, reasons_without_a_detail_and_old_whole_reasons_stay_as_they_were)
{
    static const char *const texts[] = {
        "{\"moves\":[{\"status\":\"crashed: SIGSEGV\"}],\"reason\":\"crashed: SIGSEGV\"}",
        "{\"moves\":[{\"status\":\"exit-status 1\"}],\"reason\":\"exit-status 1\"}",
        "{\"moves\":[{\"status\":\"timeout\"}],\"reason\":\"timeout\"}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
        struct err e;
        char *back = round_trip(texts[i], &e);
        cr_assert_not_null(back, "%s: %s", texts[i], e.msg);
        cr_assert_str_eq(back, texts[i]);
        free(back);
    }
    char kind[REC_REASON_MAX];
    cr_assert_null(rec_reason_split("crashed: SIGSEGV", kind));
    cr_assert_str_eq(kind, "crashed: SIGSEGV");
    cr_assert_str_eq(rec_reason_split("no-output: it wrote 7 lines to stdout and no OUT file",
                                      kind), "it wrote 7 lines to stdout and no OUT file");
    cr_assert_str_eq(kind, "no-output");
}
