/*
 * play.h - one game between two engines through board files: every move
 * validated by the rules (rules.h), CPU time per move recorded, the game's
 * record (record.h) filled in.
 *
 * A move: the canonical board file is written to in.txt in the game's
 * private folder (gamedir.h), the engine runs in its own working directory
 * (spec.h's dir=), in the game's sandbox unless the rules say none
 * (sandbox.h), with {in} and {out} the absolute paths of in.txt and
 * out.txt there (runner.h), and out.txt must hold exactly the position plus
 * one legal move of the side to move. Its stderr goes to its stderr= file
 * (a header line per move) and to --keep-files' ply-NNN-err.txt.
 * Anything else loses the game for that engine with a named reason (rules.h):
 * timeout, cpu-limit, memory-limit, file-limit (SIGXFSZ, or an output file
 * that reached RLIMIT_FSIZE whatever the exit status), crashed: SIGNAME,
 * exit-status N, cannot-run, no-output, unreadable (a symlink, a folder, a
 * FIFO, or no board file), oversized, illegal-move, wrong-player,
 * tampered-board, and with a clock (play_clock) out-of-time. Games whose moves can repeat forever are drawn by the
 * draw rule (rules.h). With rules.analyze the record also carries the
 * analysis (analyze.h).
 */
#ifndef ARENA_PLAY_H
#define ARENA_PLAY_H

#include <stdint.h>
#include "arena/book.h"
#include "arena/game.h"
#include "arena/record.h"
#include "arena/runner.h"
#include "arena/limits.h"
#include "arena/spec.h"

struct hdr;
struct judge;
struct ana_opts;
struct sbx_policy;
struct cg_root;
struct cpu_plan;


/* A game clock (--tc BASE+INC): each engine starts each game with base_ms;
 * each of its moves costs the move's CPU time (user + system, runner.h)
 * and then adds inc_ms. An engine whose clock falls below zero loses,
 * "out-of-time". The wall deadline of a move (limits.timeout_ms) is then
 * never tighter than the clock left plus PLAY_TC_WALL_MARGIN_MS: a move
 * can lose on either, and a machine busy with other work does not make an
 * engine lose on its clock. base_ms 0: no clock. */
struct play_clock {
    long base_ms, inc_ms;
};

/* What every game of a match or a tournament shares. */
struct play_rules {
    const struct game *game;
    struct judge *judge;         /* the judge whose game it is (judge.h);
                                  * NULL: a built-in game */
    int depth;                   /* {depth} */
    int random_plies;            /* opening: random legal plies, unless book */
    const struct book *book;     /* NULL: random openings */
    uint64_t seed;               /* of the random openings */
    struct run_limits limits;
    struct play_clock tc;        /* the game clock; base_ms 0: none */
    int ponder;                  /* 1: persistent engines run between their
                                  * moves, billed to their next (persist.h);
                                  * 0: they are frozen there */
    int draw_plies;              /* the draw rule; 0: none */
    const char *keep_dir;        /* DIR: DIR/game-I/ply-NNN-in.txt (the board
                                  * given), -out.txt (the bytes read from
                                  * the answer, when there was a file to
                                  * read) and -err.txt (its stderr, when
                                  * it wrote any); NULL: none */
    const struct ana_opts *analyze;  /* blunder analysis of each game (analyze.h);
                                      * NULL: none */
    const struct sbx_policy *sandbox;  /* where engines run (sandbox.h); NULL or
                                        * mode SBX_NONE: no sandbox */
    const struct cg_root *acct;  /* each move in a cgroup of its own
                                  * (cgroup.h); NULL: process accounting */
    const struct cpu_plan *cpus; /* games played at once, each on CPUs of
                                  * its own (cpus.h: play_rules_slot); NULL:
                                  * one at a time, on any CPU */
    int show_waiting;            /* 1: stderr is a terminal of one game at a
                                  * time: it shows the move being waited for
                                  * while an engine runs */
    int busy_retries;            /* play_solo_move: a move starved by a busy
                                  * machine (forfeit_starved) is run again up
                                  * to this many times, then it returns
                                  * PLAY_BUSY; 0 (games): it is the
                                  * engine's timeout */
};

/* The opening of pair `pair` (both games of a pair get the same): book line
 * pair % n, or random plies that do not end the game from a generator
 * seeded by seed and pair. Writes the position to pos and appends the move
 * texts to rec's opening. Returns 0, or -1 when out of memory. */
int play_opening(const struct play_rules *r, long pair, void *pos, struct game_record *rec);

enum play_end { PLAY_PLAYED = 0, PLAY_CANCELLED = 1, PLAY_BUSY = 2 };

/* The forfeit of an engine that stays for the game (persist.h) whose move
 * folder could not be made ready for its move because it kept writing
 * there between its moves (the folder filled again while the referee
 * emptied it, in.txt taken again before the board was written): a race of
 * the engine's own, so its lost game, never the referee's failure. */
#define PLAY_FOLDER_RACE "folder-race"

/* Plays game `index` of pair `pair`, side[s] playing side s+1, and writes
 * its record to rec (rec_init'd here: the caller rec_frees it whatever the
 * return). Returns PLAY_PLAYED, PLAY_CANCELLED (the limits' cancel flag was
 * raised; rec is then incomplete), or -1 with e filled when the referee
 * itself fails (a folder or file of its own) or the game's judge did
 * (judge_error's words); an engine's failure is a lost game, not an error,
 * and so is a reset of its own move folder that an engine that stays raced
 * (PLAY_FOLDER_RACE). */
int play_game(const struct play_rules *r, long index, long pair,
              const struct spec *const side[2], struct game_record *rec, struct err *e);

/* In the worker that plays the games of slot `slot` (0-based, below
 * r->cpus's slots), before its first game: holds this process and what it
 * starts to the slot's CPUs (cpus_enter), and points r->acct at slot_root
 * when the slot's moves need a root of their own (a cpuset), so slot_root
 * must outlive r's use. Nothing without r->cpus. 0, or -1 with e. */
int play_rules_slot(struct play_rules *r, int slot, struct cg_root *slot_root, struct err *e);

/* One engine's moves outside a game (referee bench, refbench.h): each
 * move is a game's ply (the board written to the folder, the engine run
 * in the sandbox, by the runner, its answer judged), so it costs what a
 * game's move costs. The engine keeps one folder and one sandbox (r's
 * policy) across its moves, as in a game; keep_dir and analyze are not
 * used. play_solo_open: 0 with *solo set (close it with play_solo_close),
 * or -1 with e. r and eng must outlive it. */
struct play_solo;
int play_solo_open(struct play_solo **solo, const struct play_rules *r, const struct spec *eng,
                   struct err *e);
/* The engine moves at pos (a game not over) with {depth} depth: m gets the
 * ply as a game would record it (its CPU, wall, peak RSS, the referee's
 * own time, status "ok" or the forfeit reason; its output tails are the
 * caller's: rec_move_free them, or give m to a record). Returns PLAY_PLAYED,
 * PLAY_CANCELLED (the limits' cancel flag), PLAY_BUSY (the rules'
 * busy_retries: every try was starved by a busy machine; m is not set),
 * or -1 with e when the referee itself fails or the game's judge did. */
int play_solo_move(struct play_solo *solo, const void *pos, int depth, struct rec_move *m,
                   struct err *e);
/* Closes the sandbox and the folder; NULL is a no-op. */
void play_solo_close(struct play_solo *solo);

/* The shared rules' keys of a log's or journal's header (header.h), set
 * in h: "game", "depth", "seed", "random_plies", "openings", "draw_plies",
 * "analyze" (when on), "limits", "sandbox" (header.h's hdr_set_sandbox),
 * "accounting" (cgroup.h's cg_root_name: "cgroup-v1", "cgroup-v2" or
 * "process"). 0, or -1 when out of memory. */
int play_rules_header(const struct play_rules *r, struct hdr *h);

#endif
