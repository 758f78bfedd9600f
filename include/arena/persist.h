/*
 * persist.h - engines that stay for the whole game (SPEC proto=persistent):
 * one process per engine per game instead of one per move, so an engine in
 * a language with a start-up cost (Python, Java) pays it once, and keeps
 * what it learned between its moves.
 *
 * The protocol (docs/engines.md): the engine is started at its first move,
 * with the same limits as a file engine's move and, with a sandbox, in a
 * sandbox of its own built from the same view (sandbox.h's sbx_spawn). For
 * each of its moves the referee writes the board to IN as for every engine
 * and sends one line on the engine's stdin:
 *   move IN OUT DEPTH TIME_LEFT_MS INC_MS
 * (the clock and its increment in ms, play.h; 0 0 without a clock). The
 * engine writes OUT and answers with the line `done` on stdout; its other
 * stdout lines are its own (kept as the move's stdout tail, as stderr's).
 * At the end of the game it gets `quit`, its stdin is closed, and it has
 * PERSIST_QUIT_MS to exit before every process of it is killed.
 *
 * A move's CPU time is what the engine used since its previous move ended
 * (its first move: since it started, so its start-up counts there, as it
 * does for a file engine): what it thinks between its moves is its next
 * move's. It is read from the kernel's CPU clock of the engine's process
 * (every thread, nanoseconds) plus what the children it reaped used (clock
 * ticks); with the sandbox, every other process of it is killed when the
 * game ends. RLIMIT_CPU would count the whole game, so the referee keeps
 * the CPU limit per move itself, watching that figure; the other rlimits
 * (memory, file size, processes) hold for the engine's whole life.
 *
 * A move that goes wrong loses the game (play.h): the runner's reasons
 * (timeout, cpu-limit, memory-limit, crashed: SIG..., cannot-run, exit-status
 * N, also exit-status 0 for an engine that exits before its answer), and
 * stdout-flood (more than PERSIST_STDOUT_MAX bytes of stdout in one move)
 * and stdin-full (it stopped reading its stdin). After such a move the
 * engine is gone.
 */
#ifndef ARENA_PERSIST_H
#define ARENA_PERSIST_H

#include "arena/err.h"
#include "arena/runner.h"

struct sbx_view;

/* How long an engine may take to exit after `quit` before it is killed. */
#define PERSIST_QUIT_MS 1000
/* Bytes of stdout one move may write: its answer and some lines of its
 * own; more is an engine stuck in a loop, which would otherwise hold the
 * referee until the deadline. */
#define PERSIST_STDOUT_MAX (1L << 20)
/* Bytes of a move's request line: the command and two absolute paths. */
#define PERSIST_LINE_MAX (2 * 4096 + 128)

struct persist;

/* A persistent engine, not started yet: in a sandbox of its own with view
 * (which must outlive it; NULL: no sandbox, the engine runs as the
 * referee's user like a file engine under --sandbox none). 0 with *p set,
 * or -1 with e (the sandbox could not be made). */
int persist_open(struct persist **p, const struct sbx_view *view, struct err *e);

/* One move: starts the engine first if it has not started (argv, in cwd
 * with limits: its command, expanded for this first move), sends line (the
 * request, newline included), and waits for `done` within limits'
 * deadline, also stopping it when its CPU for the move passes
 * limits->cpu_limit_s or cpu_cap_ms (>= 0: the clock left, its forfeit
 * then the caller's out-of-time; < 0: none). Fills r as run_engine does (its CPU,
 * wall and peak memory, its stdout's and stderr's tails, err_copy): end
 * RUN_EXITED with status 0 when it answered. why (REC_REASON_MAX bytes)
 * gets the reasons of the protocol (stdout-flood, stdin-full, exit-status
 * 0), else "". Returns 0, or -1 with e when the referee itself failed. */
int persist_move(struct persist *p, char *const argv[], const char *cwd, const char *line,
                 const struct run_limits *limits, double cpu_cap_ms, int err_copy,
                 struct run_result *r, char *why, struct err *e);

/* Ends the engine (quit, stdin closed, PERSIST_QUIT_MS, then killed) and
 * frees p; every process of it is gone after (a setsid escapee without a
 * sandbox only by the caller's run_sweep). NULL is fine. */
void persist_close(struct persist *p);

#endif
