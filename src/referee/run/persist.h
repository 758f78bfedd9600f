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
 * ticks) when the referee has no cgroups; every other process of it is
 * killed when the game ends. RLIMIT_CPU would count the whole game, so the referee keeps
 * the CPU limit per move itself, watching that figure; the other rlimits
 * (memory, file size, processes) hold for the engine's whole life. With
 * cgroups (acct, cgroup.h) the engine runs in a cgroup of its own for the
 * game instead of one per move: its CPU is then the cgroup's (every
 * process of it, reaped or not, nanoseconds), its memory limit and
 * pids.max hold for the whole tree (a process the memory limit killed is
 * memory-limit), and whatever is left in it when the game ends is killed.
 *
 * An engine runs only in its turn: with a cgroup that can be frozen
 * (cgroup.h: v1's freezer, v2's cgroup.freeze) every process of it is
 * frozen from the moment its `done` is read until its next request is
 * sent, so that it neither thinks unbilled nor takes the CPU of its
 * opponent's move (or of a concurrent game's). With ponder (--ponder) it
 * is not frozen: what it thinks between its moves is billed to its next
 * move, as above, and charged to its clock (--tc). Without such a cgroup
 * (no freezer, or no cgroup at all) it is not frozen either. Its start-up
 * is not frozen: it may overlap its opponent's first move.
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

#include <stddef.h>
#include "arena/err.h"
#include "arena/runner.h"

struct cg_root;
struct launcher;
struct sbx_view;

/* How long an engine may take to exit after `quit` before it is killed. */
#define PERSIST_QUIT_MS 1000
/* Bytes of stdout one move may write: its answer and some lines of its
 * own; more is an engine stuck in a loop, which would otherwise hold the
 * referee until the deadline. */
#define PERSIST_STDOUT_MAX (1L << 20)
/* Bytes of a move's request line: the command and two absolute paths. */
#define PERSIST_LINE_MAX (2 * 4096 + 128)
/* How often the launcher loop asks a persistent engine how it does: its
 * CPU against the limit and the clock (an engine overspends by at most
 * this much per thread), and, without a sandbox, whether it has exited. */
#define PERSIST_WATCH_MS 5

/* The launcher (launcher.h) of one engine that stays for a game, not
 * started yet, into *l: its first move (launch_move.argv, cwd, limits: its
 * command expanded for that move) starts it, in a sandbox of its own with
 * view (which must outlive it; NULL: no sandbox, the engine runs as the
 * referee's user like a file engine under --sandbox none); each move sends
 * launch_move.line and waits for `done`, stopping the move once its CPU
 * passes limits->cpu_limit_s or launch_move.cpu_cap_ms. A move answered
 * ends as if the engine exited with status 0; its rusage is the move's
 * CPU (above). The engine goes with the move that fails, and a move after
 * that (referee bench) starts a new one in the same sandbox (a sandbox
 * whose init was killed is not replaced: the launcher fails). Between its
 * moves the engine is frozen unless ponder is 1 (above). launcher_close
 * sends quit, closes its stdin, waits PERSIST_QUIT_MS, kills whatever is
 * left and closes the sandbox. The sandbox is opened here, so that the
 * engine's move folder is there before its first board (persist_sandbox).
 * 0, or -1 with e (out of memory, or the sandbox could not be made). */
int launcher_persistent(struct launcher *l, const struct sbx_view *view,
                        const struct cg_root *acct, int ponder, struct err *e);

/* Starts l's engine now, with m's command, folder and limits (its first
 * move's), if it has not started: so that it starts while the game
 * begins. A failure to start is its first move's (cannot-run). 0, or -1
 * with e when the launcher failed. */
struct launch_move;
int persist_start(struct launcher *l, const struct launch_move *m, struct err *e);

/* The sandbox of l's engine (a persistent engine's launcher), which l
 * owns; NULL without one. Its view 0 is the engine's: its move folder
 * (sbx_take_move_folder) is where the referee writes the engine's boards,
 * its plan says what the sandbox hides from it (sbx_hidden_path). */
struct sbx;
struct sbx *persist_sandbox(const struct launcher *l);

/* After launcher_move on l (a persistent engine's launcher): the reason of
 * the protocol its last move failed on (stdout-flood, stdin-full, or
 * exit-status 0 for an engine that exited before answering), else "". */
const char *persist_reason(const struct launcher *l);

/* The request line of a move (the protocol above) into buf, cap bytes
 * (PERSIST_LINE_MAX holds any): "move IN OUT DEPTH TIME_LEFT_MS INC_MS"
 * and its newline, the words as expanded for the move (the clock and its
 * increment in ms, "0" "0" without a clock). snprintf's return: a line
 * that does not fit is cut. */
int persist_move_line(char *buf, size_t cap, const char *in, const char *out, const char *depth,
                      const char *time_ms, const char *inc_ms);

#endif
