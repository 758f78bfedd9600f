/* onemove.c - the one-move mode shared by engine and maxconnect4 (onemove.h). */
#include <string.h>
#include "arena/clock.h"
#include "arena/onemove.h"

int onemove_run(const struct onemove_opts *o, FILE *out, FILE *diag)
{
    const struct game *g = o->game;
    unsigned char before[GAME_MAX_STATE], after[GAME_MAX_STATE];
    struct err e;
    if (game_read_file(g, o->in, before, &e) != 0) {
        err_print(diag, o->in, &e);
        return EXIT_BAD_INPUT;
    }
    fprintf(out, "\n%s\n", g->title);
    fputs("game state before move:\n", out);
    g->print(out, before);
    if (game_result(g, before) >= 0) {
        g->print_over(out, before);
        return 0;
    }

    struct search s;
    struct search_opts so = player_search_opts(g, &o->player, o->tt_bytes);
    if (search_init(&s, g, &so) != 0) {
        fprintf(diag, "%s: out of memory for a %zu-byte transposition table\n", o->in,
                o->tt_bytes);
        return 1;
    }
    struct search_result r;
    uint64_t t0 = clock_cpu_ns();
    player_choose(&s, &o->player, before, &r);
    uint64_t cpu_ns = clock_cpu_ns() - t0;
    search_free(&s);
    if (r.move < 0) {
        fprintf(diag, "%s: out of memory choosing a move\n", o->in);
        return 1;
    }

    int mover = g->to_move(before);
    memcpy(after, before, g->state_size);
    g->play(after, r.move);
    g->print_move(out, after, r.move, mover);
    fputs("game state after move:\n", out);
    g->print(out, after);
    fflush(out);

    char text[GAME_MOVE_TEXT_MAX];
    g->move_text(before, r.move, text, sizeof text);
    fprintf(diag, "info game %s player %s depth %d nodes %llu cpu_ms %.3f move %s value %d\n",
            g->name, player_name(o->player.kind), r.depth, (unsigned long long)r.nodes,
            (double)cpu_ns / 1e6, text, r.value);
    if (game_write_file(g, o->out, after, &e) != 0) {
        err_print(diag, o->out, &e);
        return EXIT_BAD_INPUT;
    }
    return 0;
}
