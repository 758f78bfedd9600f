/*
 * weights.c - fuzz target for the Q-learning weights file reader
 * (wts_parse, behind wts_load: `engine --weights`, `engine weights`,
 * `engine train --resume`).
 *
 * Input: the bytes of a weights file.
 *
 * Properties:
 *   - a rejection has a message and a place (line and column >= 1);
 *   - an accepted file's canonical text (wts_format) fits WTS_TEXT_MAX,
 *     parses back to bit-identical settings and weights, and formats to the
 *     same bytes again (format -> parse -> format is byte-exact).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include "arena/weights.h"
#include "fuzz.h"

/* Same values bit for bit (so -0 and 0 differ, as a file would show). */
static int same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

static void check_same(const struct wts_file *a, const struct wts_file *b, const char *text)
{
    const struct wts_settings *s = &a->settings, *t = &b->settings;
    FUZZ_CHECK(same_double(s->gamma, t->gamma) && same_double(s->alpha, t->alpha)
                   && same_double(s->alpha_final, t->alpha_final)
                   && same_double(s->epsilon, t->epsilon)
                   && same_double(s->switch_prob, t->switch_prob),
               "settings changed in the round trip:\n%s", text);
    FUZZ_CHECK(strcmp(s->opponent, t->opponent) == 0 && s->seed == t->seed
                   && s->games == t->games && s->total_games == t->total_games,
               "settings changed in the round trip:\n%s", text);
    for (int i = 0; i < FEAT_COUNT; i++)
        FUZZ_CHECK(same_double(a->weights.w[i], b->weights.w[i]) && isfinite(a->weights.w[i]),
                   "weight %d changed in the round trip:\n%s", i, text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > WTS_FILE_MAX)
        return 0;   /* wts_load refuses larger files before parsing */
    char *text = fuzz_text(data, size);
    struct wts_file f, back;
    struct err e = { 0, 0, "" };
    if (wts_parse(text, size, &f, &e) != 0) {
        fuzz_check_err(&e, 1, "weights");
        free(text);
        return 0;
    }
    char canon[WTS_TEXT_MAX], again[WTS_TEXT_MAX];
    size_t len = wts_format(&f, canon);
    FUZZ_CHECK(len < WTS_TEXT_MAX - 1 && strlen(canon) == len, "wts_format wrote %zu bytes", len);
    int rc = wts_parse(canon, len, &back, &e);
    FUZZ_CHECK(rc == 0, "the canonical text is rejected at %d:%d: %s\n%s", e.line, e.col, e.msg,
               canon);
    check_same(&f, &back, canon);
    size_t len2 = wts_format(&back, again);
    FUZZ_CHECK(len2 == len && memcmp(canon, again, len) == 0,
               "format is not a fixpoint:\n%s---\n%s", canon, again);
    free(text);
    return 0;
}
