/*
 * spfiar_session.c - the SPFIAR game with its undo history, and the session
 * loop that prints the seed's messages (spfiar.h).
 *
 * Undo replays the remaining discs from the empty board instead of lifting
 * discs off the bitboard: at most 42 plays, and the board keeps a single way
 * to change (c4_play).
 */
#include <string.h>
#include "arena/spfiar.h"
#include "arena/textfile.h"

#define SPF_USER     0            /* c4_pos player index of the user */
#define SPF_COMPUTER 1

void spf_game_init(struct spf_game *g)
{
    memset(g, 0, sizeof *g);
    c4_init(&g->pos);
}

void spf_game_add(struct spf_game *g, int col)
{
    c4_play(&g->pos, col);
    g->moves[g->count++] = col;
    if (g->undoable < SPF_HISTORY)
        g->undoable++;
}

int spf_game_undo(struct spf_game *g, int removed[2])
{
    /* The user plays discs 1, 3, 5...: an odd count ends with the user's. */
    int n = g->count % 2 ? 1 : 2;
    if (g->count < n || g->undoable < n)
        return 0;
    for (int i = 0; i < n; i++)
        removed[i] = g->moves[g->count - 1 - i];
    g->count -= n;
    g->undoable -= n;
    c4_init(&g->pos);
    for (int i = 0; i < g->count; i++)
        c4_play(&g->pos, g->moves[i]);
    return n;
}

enum spf_status spf_game_status(const struct spf_game *g)
{
    if (c4_has_four(g->pos.disc[SPF_USER]))
        return SPF_USER_WINS;
    if (c4_has_four(g->pos.disc[SPF_COMPUTER]))
        return SPF_COMPUTER_WINS;
    return g->pos.moves == C4_CELLS ? SPF_TIE : SPF_ON;
}

void spf_print_board(FILE *out, const struct c4_pos *p)
{
    static const char cell_char[] = { ' ', 'X', 'O' };
    for (int row = C4_HEIGHT - 1; row >= 0; row--) {
        fputs("| ", out);
        for (int col = 0; col < C4_WIDTH; col++) {
            fputc(cell_char[c4_cell(p, col, row)], out);
            if (col < C4_WIDTH - 1)
                fputc(' ', out);
        }
        fputs(" |\n", out);
    }
    fputs("-----------------\n", out);
    fputs("  1 2 3 4 5 6 7  \n", out);
}

/* ---- the session ------------------------------------------------------ */

static const char game_over_tail[] =
    "Please enter 'quit' to exit or 'restart' to start a new game!\n";

/* The board, then what comes after it: the next-move prompt or the end. */
static void show(FILE *out, const struct spf_game *g)
{
    spf_print_board(out, &g->pos);
    switch (spf_game_status(g)) {
    case SPF_ON:
        fputs("Please make the next move:\n", out);
        return;
    case SPF_USER_WINS:
        fputs("Game over: you win\n", out);
        break;
    case SPF_COMPUTER_WINS:
        fputs("Game over: computer wins\n", out);
        break;
    case SPF_TIE:
        fputs("Game over: it's a tie\n", out);
        break;
    }
    fputs(game_over_tail, out);
}

/* What the session does after a line. */
enum step { STEP_GO_ON, STEP_RESTART, STEP_QUIT };

struct session {
    struct spf_game game;
    struct search search;
    int level;
    FILE *out;
};

static void add_disc(struct session *ss, const struct spf_command *c)
{
    struct spf_game *g = &ss->game;
    /* One error per line, the lowest-numbered of the seed's list: range (4),
     * full column (5), game over (7). */
    if (!c->valid_arg) {
        fputs("Error: column number must be in range 1-7\n", ss->out);
        return;
    }
    if (!c4_can_play(&g->pos, c->arg - 1)) {
        fprintf(ss->out, "Error: column %d is full\n", c->arg);
        return;
    }
    if (spf_game_status(g) != SPF_ON) {
        fputs("Error: the game is over\n", ss->out);
        return;
    }
    spf_game_add(g, c->arg - 1);
    if (spf_game_status(g) == SPF_ON) {
        int col = spf_best_move(&ss->search, &g->pos, ss->level, NULL);
        spf_game_add(g, col);
        fprintf(ss->out, "Computer move: add disc to column %d\n", col + 1);
    }
    show(ss->out, g);
}

static void suggest(struct session *ss)
{
    if (spf_game_status(&ss->game) != SPF_ON) {
        fputs("Error: the game is over\n", ss->out);
        return;
    }
    int col = spf_best_move(&ss->search, &ss->game.pos, ss->level, NULL);
    fprintf(ss->out, "Suggested move: drop a disc to column %d\n", col + 1);
}

static void undo(struct session *ss)
{
    int removed[2];
    int n = spf_game_undo(&ss->game, removed);
    if (n == 0) {
        fputs("Error: cannot undo previous move!\n", ss->out);
        return;
    }
    if (n == 2)
        fprintf(ss->out, "Remove disc: remove computer's disc at column %d\n", removed[0] + 1);
    fprintf(ss->out, "Remove disc: remove user's disc at column %d\n", removed[n - 1] + 1);
    show(ss->out, &ss->game);
}

static enum step command(struct session *ss, const char *line)
{
    struct spf_command c = spf_parse_command(line);
    switch (c.cmd) {
    case SPF_CMD_INVALID:
        fputs("Error: invalid command\n", ss->out);
        break;
    case SPF_CMD_ADD_DISC:
        add_disc(ss, &c);
        break;
    case SPF_CMD_SUGGEST:
        suggest(ss);
        break;
    case SPF_CMD_UNDO:
        undo(ss);
        break;
    case SPF_CMD_RESTART:
        fputs("Game restarted!\n", ss->out);
        return STEP_RESTART;
    case SPF_CMD_QUIT:
        return STEP_QUIT;
    }
    return STEP_GO_ON;
}

/* Asks until a valid level; STEP_QUIT on quit or end of input. */
static enum step ask_level(struct session *ss, FILE *in, char *line,
                           enum tf_getline_result *rd)
{
    for (;;) {
        fputs("Please enter the difficulty level between [1-7]:\n", ss->out);
        fflush(ss->out);
        *rd = tf_getline(in, line, SPF_LINE_MAX);
        if (*rd == TF_LINE_EOF || *rd == TF_LINE_FAILED)
            return STEP_QUIT;
        enum spf_level_reply reply =
            *rd == TF_LINE_OK ? spf_parse_level(line, &ss->level) : SPF_LEVEL_BAD;
        if (reply == SPF_LEVEL_OK)
            return STEP_GO_ON;
        if (reply == SPF_LEVEL_QUIT)
            return STEP_QUIT;
        fputs("Error: invalid level (should be between 1 to 7)\n", ss->out);
    }
}

int spf_session_run(const struct spf_session_opts *o, FILE *in, FILE *out)
{
    struct session ss = { .out = out };
    struct search_opts so = spf_search_opts();
    so.tt_bytes = o->tt_bytes;
    if (search_init(&ss.search, &game_connect4, &so) != 0) {
        fputs("Error: malloc has failed\n", out);
        return 1;
    }
    char line[SPF_LINE_MAX + 1];
    enum tf_getline_result rd = TF_LINE_OK;
    enum step step = STEP_RESTART;
    while (step == STEP_RESTART) {
        ss.level = o->level;
        if (!o->level && ask_level(&ss, in, line, &rd) == STEP_QUIT)
            break;
        spf_game_init(&ss.game);
        show(out, &ss.game);
        step = STEP_GO_ON;
        while (step == STEP_GO_ON) {
            fflush(out);
            rd = tf_getline(in, line, SPF_LINE_MAX);
            if (rd == TF_LINE_EOF || rd == TF_LINE_FAILED)
                step = STEP_QUIT;
            else
                step = command(&ss, rd == TF_LINE_OK ? line : "");
        }
    }
    search_free(&ss.search);
    if (rd == TF_LINE_FAILED) {
        fputs("Error: getc has failed\n", out);
        return 1;
    }
    fputs("Exiting...\n", out);
    return 0;
}
