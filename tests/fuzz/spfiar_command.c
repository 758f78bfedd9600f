/*
 * spfiar_command.c - fuzz target for the SPFIAR session's line parsers
 * (spf_parse_command for every command line, spf_parse_level for the answer
 * to the level prompt).
 *
 * Input: one line as the session hands it over (tf_getline has already
 * turned NUL bytes into '\x01', so the line is the bytes up to a NUL).
 *
 * Property: both parsers agree with a reference built the way the seed
 * describes the commands, on strtok over a copy of the line: tokens split
 * by space, tab, CR and LF; add_disc takes exactly one token, the other
 * commands none; a number is an optional '-' and digits, valid in 1..7
 * (a column, or a level). Nothing else is accepted.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include "arena/spfiar.h"
#include "fuzz.h"

#define DELIMS " \t\r\n"
#define MAX_TOKENS 3        /* more than any command takes */

/* 1 when tok is '-'? digits and its value lies in [lo, hi]. */
static int ref_int(const char *tok, int lo, int hi, int *out)
{
    const char *d = tok + (tok[0] == '-');
    if (!*d || strspn(d, "0123456789") != strlen(d))
        return 0;
    errno = 0;
    long v = strtol(tok, NULL, 10);
    if (errno == ERANGE || v < lo || v > hi)
        return 0;
    *out = (int)v;
    return 1;
}

static int ref_tokens(char *copy, char **tok)
{
    int n = 0;
    char *save = NULL;
    for (char *t = strtok_r(copy, DELIMS, &save); t; t = strtok_r(NULL, DELIMS, &save))
        if (n < MAX_TOKENS)
            tok[n++] = t;
    return n;
}

static struct spf_command refopts_command(const char *line)
{
    struct spf_command c = { SPF_CMD_INVALID, 0, 0 };
    char *copy = strdup(line), *tok[MAX_TOKENS];
    int n = ref_tokens(copy, tok);
    static const struct { const char *word; enum spf_cmd cmd; } plain[] = {
        { "suggest_move", SPF_CMD_SUGGEST }, { "undo_move", SPF_CMD_UNDO },
        { "quit", SPF_CMD_QUIT }, { "restart_game", SPF_CMD_RESTART },
    };
    if (n == 2 && strcmp(tok[0], "add_disc") == 0) {
        c.cmd = SPF_CMD_ADD_DISC;
        c.valid_arg = ref_int(tok[1], 1, C4_WIDTH, &c.arg);
    }
    for (size_t i = 0; n == 1 && i < sizeof plain / sizeof *plain; i++)
        if (strcmp(tok[0], plain[i].word) == 0)
            c.cmd = plain[i].cmd;
    free(copy);
    return c;
}

static enum spf_level_reply ref_level(const char *line, int *level)
{
    char *copy = strdup(line), *tok[MAX_TOKENS];
    int n = ref_tokens(copy, tok);
    enum spf_level_reply r = SPF_LEVEL_BAD;
    if (n == 1 && strcmp(tok[0], "quit") == 0)
        r = SPF_LEVEL_QUIT;
    else if (n == 1 && ref_int(tok[0], SPF_LEVEL_MIN, SPF_LEVEL_MAX, level))
        r = SPF_LEVEL_OK;
    free(copy);
    return r;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *line = fuzz_text(data, size);
    struct spf_command got = spf_parse_command(line), want = refopts_command(line);
    FUZZ_CHECK(got.cmd == want.cmd && got.valid_arg == want.valid_arg
                   && (!want.valid_arg || got.arg == want.arg),
               "command '%s': got (%d, %d, %d), the reference (%d, %d, %d)", line, got.cmd,
               got.valid_arg, got.arg, want.cmd, want.valid_arg, want.arg);
    int lg = -1, lw = -1;
    enum spf_level_reply rg = spf_parse_level(line, &lg), rw = ref_level(line, &lw);
    FUZZ_CHECK(rg == rw && (rw != SPF_LEVEL_OK || lg == lw),
               "level '%s': got (%d, %d), the reference (%d, %d)", line, rg, lg, rw, lw);
    free(line);
    return 0;
}
