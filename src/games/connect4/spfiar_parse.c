/*
 * spfiar_parse.c - the SPFIAR session's command and level parsers
 * (spfiar.h). A line is split into at most three tokens without copying or
 * modifying it (the seed's strtok would need a writable copy); two tokens are
 * the most any command takes, so a third only tells "too many".
 */
#include <string.h>
#include "arena/spfiar.h"

#define SPF_DELIMS " \t\r\n"
#define SPF_MAX_TOKENS 3

struct token {
    const char *text;
    size_t len;
};

/* Fills up to SPF_MAX_TOKENS tokens; returns how many were found (capped). */
static int split(const char *line, struct token *tok)
{
    int n = 0;
    const char *p = line;
    while (n < SPF_MAX_TOKENS) {
        p += strspn(p, SPF_DELIMS);
        if (!*p)
            break;
        tok[n].text = p;
        tok[n].len = strcspn(p, SPF_DELIMS);
        p += tok[n].len;
        n++;
    }
    return n;
}

static int token_is(const struct token *t, const char *word)
{
    return t->len == strlen(word) && memcmp(t->text, word, t->len) == 0;
}

/* 1 when t is an integer (optional '-', then digits) in [lo, hi]. Long digit
 * strings are compared without overflow: any value above hi stays above. */
static int token_int(const struct token *t, int lo, int hi, int *out)
{
    size_t i = 0;
    int neg = 0;
    if (t->len && t->text[0] == '-') {
        neg = 1;
        i = 1;
    }
    if (i == t->len)
        return 0;
    long v = 0;
    for (; i < t->len; i++) {
        char c = t->text[i];
        if (c < '0' || c > '9')
            return 0;
        if (v <= hi)
            v = v * 10 + (c - '0');
    }
    if (neg)
        v = -v;
    if (v < lo || v > hi)
        return 0;
    *out = (int)v;
    return 1;
}

struct spf_command spf_parse_command(const char *line)
{
    struct token tok[SPF_MAX_TOKENS];
    struct spf_command c = { .cmd = SPF_CMD_INVALID, .valid_arg = 0, .arg = 0 };
    int n = split(line, tok);
    if (n == 0)
        return c;
    if (token_is(&tok[0], "add_disc")) {
        if (n == 2) {
            c.cmd = SPF_CMD_ADD_DISC;
            c.valid_arg = token_int(&tok[1], 1, C4_WIDTH, &c.arg);
        }
        return c;
    }
    if (n != 1)
        return c;
    if (token_is(&tok[0], "suggest_move"))
        c.cmd = SPF_CMD_SUGGEST;
    else if (token_is(&tok[0], "undo_move"))
        c.cmd = SPF_CMD_UNDO;
    else if (token_is(&tok[0], "quit"))
        c.cmd = SPF_CMD_QUIT;
    else if (token_is(&tok[0], "restart_game"))
        c.cmd = SPF_CMD_RESTART;
    return c;
}

enum spf_level_reply spf_parse_level(const char *line, int *level)
{
    struct token tok[SPF_MAX_TOKENS];
    if (split(line, tok) != 1)
        return SPF_LEVEL_BAD;
    if (token_is(&tok[0], "quit"))
        return SPF_LEVEL_QUIT;
    return token_int(&tok[0], SPF_LEVEL_MIN, SPF_LEVEL_MAX, level) ? SPF_LEVEL_OK : SPF_LEVEL_BAD;
}
