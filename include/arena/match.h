/*
 * match.h - the referee's games and matches: one game between two engines
 * (spec.h) through board files (every move validated, CPU time per move
 * recorded as cJSON), and a match of N games with its JSON log (schema
 * arena.match/1).
 *
 * A move: the canonical board file is written to in.txt in the game's
 * private folder (mkdtemp, 0700, in TMPDIR), the engine runs in its own
 * working directory (spec.h's dir=) with {in} and {out} the absolute paths
 * of in.txt and out.txt there (runner.h), and out.txt must hold exactly the
 * position plus one legal move of the side to move. Anything else loses the game for that engine with a
 * named reason: timeout, cpu-limit, memory-limit, file-limit (SIGXFSZ),
 * crashed: SIGNAME, exit-status N, cannot-run, no-output, unreadable (a
 * symlink, a folder, a FIFO, or no board file), oversized, illegal-move,
 * wrong-player, tampered-board. The referee reads and writes the folder
 * through a descriptor and never follows a symlink there; before each move
 * it removes whatever the last engine left at in.txt and out.txt, and takes
 * a new folder if that engine moved, replaced or removed the old one. Games
 * whose moves can repeat forever (game->irreversible) are drawn after
 * draw_plies plies without an irreversible move, reason "draw-rule".
 *
 * A game's record (JSON, the same in match logs and tournament journals):
 *   {"index": I, "pair": P, "players": {"1": NAME, "2": NAME},
 *    "opening": [MOVE...], "moves": [{"ply", "side", "engine", "move" (null
 *    on a forfeit), "cpu_user_ms", "cpu_sys_ms" (the engine's rusage),
 *    "wall_ms" (its run), "max_rss_kb", "referee_ms" (the referee's own
 *    time on the ply: writing, starting, judging), "status" ("ok" or the
 *    reason)}...], "result": "1-0"|"0-1"|"1/2-1/2",
 *    "winner": NAME|null, "reason": "normal"|"draw-rule"|forfeit reason}
 * With rules.analyze the record also carries the analysis (analyze.h).
 */
#ifndef ARENA_MATCH_H
#define ARENA_MATCH_H

#include <stdint.h>
#include <stdio.h>
#include "arena/game.h"
#include "arena/runner.h"
#include "arena/sha256.h"
#include "arena/spec.h"

struct cJSON;
struct ana_opts;

#define REF_OUTPUT_CAP 65536     /* bytes of an engine's output file */
#define REF_REASON_MAX 64
#define REF_DRAW_PLIES 100       /* default of the draw rule */

/* An opening book: one line of move texts (separated by blanks) per
 * opening, each checked legal from the start when read. */
struct ref_book {
    int n;
    char **line;
};

/* Reads path: blank lines and lines starting with '#' are skipped; a line
 * must leave the game unfinished. Returns 0, or -1 with e holding line and
 * column of the first bad move (line 0: the file cannot be read, or holds
 * no opening). Free with ref_book_free. */
int ref_book_read(const struct game *g, const char *path, struct ref_book *b, struct err *e);
/* The same for a book already in memory: len bytes at text, NUL-terminated
 * at text[len] and writable (lines are cut in place). */
int ref_book_parse(const struct game *g, char *text, size_t len, struct ref_book *b,
                   struct err *e);
void ref_book_free(struct ref_book *b);

/* What every game of a match or a tournament shares. */
struct ref_rules {
    const struct game *game;
    int depth;                   /* {depth} */
    int random_plies;            /* opening: random legal plies, unless book */
    const struct ref_book *book; /* NULL: random openings */
    uint64_t seed;               /* of the random openings */
    struct run_limits limits;
    int draw_plies;              /* the draw rule; 0: none */
    const char *keep_dir;        /* DIR: DIR/game-I/ply-NNN-in.txt (the board
                                  * given) and -out.txt (the bytes read from
                                  * the answer, when there was a file to
                                  * read); NULL: none */
    const struct ana_opts *analyze;  /* blunder analysis of each game (analyze.h);
                                      * NULL: none */
};

/* The opening of pair `pair` (both games of a pair get the same): book line
 * pair % n, or random plies that do not end the game from a generator
 * seeded by seed and pair. Writes the position to pos and appends the move
 * texts to list (a cJSON array). */
void ref_opening(const struct ref_rules *r, long pair, void *pos, struct cJSON *list);

enum ref_play_end { REF_PLAYED = 0, REF_CANCELLED = 1 };

/* Plays game `index` of pair `pair`, side[s] playing side s+1, and fills gj
 * (a cJSON object) with its record. Returns REF_PLAYED, REF_CANCELLED (the
 * limits' cancel flag was raised; gj is then incomplete), or -1 with e
 * filled when the referee itself fails (a folder or file of its own); an
 * engine's failure is a lost game, not an error. */
int ref_play(const struct ref_rules *r, long index, long pair,
             const struct ref_engine *const side[2], struct cJSON *gj, struct err *e);

/* Prints a record's result line: "Finished game I (A vs B): 1-0 {why}", and
 * its analysis line when it has one. */
void ref_print_result(FILE *out, const struct cJSON *gj);

/* The JSON of an engine (name, cmd, dir, depth when its own, sha256) and
 * of the shared rules. */
struct cJSON *ref_engine_json(const struct ref_engine *eng);
void ref_rules_to_json(const struct ref_rules *r, struct cJSON *obj);

struct match_opts {
    struct ref_rules rules;
    const struct ref_engine *engine[2];
    int games;               /* games in all; pairs share an opening */
    const char *log_path;    /* JSON log; NULL: none */
};

/* Plays the match, printing one line per game and the score. Returns 0, or
 * -1 with e filled when the referee itself fails (temporary folder, log
 * file); an engine's failure is a lost game, not an error. */
int match_run(const struct match_opts *o, FILE *out, struct err *e);

#endif
