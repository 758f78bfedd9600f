/*
 * book.c - opening books (book.h): lines split by hand, each played by the
 * rules (rules_play_line) as it is read, so a bad move is named by line and
 * column before any game starts.
 */
#include <stdlib.h>
#include <string.h>
#include "arena/book.h"
#include "arena/rules.h"
#include "arena/textfile.h"

int book_parse(const struct game *g, char *text, size_t len, struct book *b, struct err *e)
{
    memset(b, 0, sizeof *b);
    if (tf_no_nul(text, len, e) != 0)
        return -1;
    int rc = 0, lineno = 0;
    /* Lines are split by hand: strtok would merge empty lines and lose the
     * line numbers errors need. */
    for (char *p = text; !rc && p < text + len; lineno++) {
        char *end = p + strcspn(p, "\r\n");
        char *next = end;
        if (*next == '\r' && next[1] == '\n')
            next++;
        if (*next)
            next++;
        *end = '\0';
        const char *q = p + strspn(p, " \t");
        if (*q && *q != '#') {
            unsigned char pos[GAME_MAX_STATE];
            char **grown = realloc(b->line, (size_t)(b->n + 1) * sizeof *grown);
            if (!grown) {
                rc = err_set(e, lineno + 1, 1, "out of memory");
            } else {
                b->line = grown;
                if (rules_play_line(g, p, lineno + 1, pos, NULL, e) != 0)
                    rc = -1;
                else if (!(b->line[b->n] = strdup(p)))
                    rc = err_set(e, lineno + 1, 1, "out of memory");
                else
                    b->n++;
            }
        }
        p = next;
    }
    if (!rc && b->n == 0)
        rc = err_set(e, 0, 0, "no opening in the book");
    if (rc)
        book_free(b);
    return rc;
}

int book_read(const struct game *g, const char *path, struct book *b, struct err *e)
{
    memset(b, 0, sizeof *b);
    char *text;
    size_t len;
    if (tf_read(path, BOOK_CAP, &text, &len, e) != 0)
        return -1;
    int rc = book_parse(g, text, len, b, e);
    free(text);
    return rc;
}

void book_free(struct book *b)
{
    for (int i = 0; i < b->n; i++)
        free(b->line[i]);
    free(b->line);
    b->line = NULL;
    b->n = 0;
}

