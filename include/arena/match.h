/*
 * match.h - the referee's engines and matches: an engine SPEC turned into an
 * argv template, and a match of N games between two engines through board
 * files, every move validated, CPU time per move logged to JSON (cJSON,
 * schema arena.match/1).
 *
 * SPEC: `name=NAME,cmd=COMMAND` or a bare COMMAND. COMMAND is split into
 * words like a shell would (blanks separate; '...' and "..." quote; \ escapes
 * outside single quotes) but no shell runs. Placeholders {in} {out} {depth}
 * {player} are replaced inside words; a command without any gets
 * `{in} {out} {depth}` appended. Without name= the name is the first word's
 * base name.
 *
 * A move: the canonical board file is written to in.txt in a private folder
 * (mkdtemp, 0700), the engine runs there (runner.h), and out.txt must hold
 * exactly the position plus one legal move of the side to move. Anything else
 * loses the game for that engine with a named reason: timeout, cpu-limit,
 * crashed: SIGNAME, exit-status N, cannot-run, no-output, unreadable,
 * oversized, illegal-move, wrong-player, tampered-board.
 */
#ifndef ARENA_MATCH_H
#define ARENA_MATCH_H

#include <stdint.h>
#include <stdio.h>
#include "arena/game.h"
#include "arena/runner.h"

#define REF_NAME_MAX 64
#define REF_OUTPUT_CAP 65536     /* bytes of an engine's output file */

struct ref_engine {
    char name[REF_NAME_MAX];
    int argc;
    char *argv[RUN_MAX_ARGS];    /* the template, NULL-terminated */
};

/* Parses spec into e. Returns 0, or -1 with e filled (col: 1-based offset in
 * spec). On success free with ref_engine_free. */
int ref_engine_parse(const char *spec, struct ref_engine *eng, struct err *e);
void ref_engine_free(struct ref_engine *eng);

struct match_opts {
    const struct game *game;
    const struct ref_engine *engine[2];
    int games;               /* games in all; pairs share an opening */
    int depth;               /* {depth} */
    int random_plies;        /* opening: random legal plies from the start */
    uint64_t seed;
    struct run_limits limits;
    const char *log_path;    /* JSON log; NULL: none */
};

/* Plays the match, printing one line per game and the score. Returns 0, or
 * -1 with e filled when the referee itself fails (temporary folder, log
 * file); an engine's failure is a lost game, not an error. */
int match_run(const struct match_opts *o, FILE *out, struct err *e);

#endif
