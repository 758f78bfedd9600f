/*
 * judge.h - a game defined by a program (docs/judges.md): a judge answers
 * the rules over JSON lines on its stdin/stdout (protocol "arena-judge/1"),
 * and judge_game makes it a `struct game` so that play, journals, verify,
 * reports and the HTML replay work as for a built-in game.
 *
 * A judge runs in a sandbox of its own (sandbox.h's, built as an engine's
 * with sbx_open_as): it sees the system and its own folders (its program's,
 * its interpreter's installation, each word's naming a file) read-only, the
 * sandbox policy's --sandbox-ro paths, a private /tmp, and a writable folder
 * of its own where it runs; no network, no other process; a root referee's
 * judge runs as SBX_ROOT_ENGINE_UID; its environment is an engine's
 * (sbx_environment: PATH, the --sandbox-env names); its stderr is the
 * referee's. Every process it starts (a setsid grandchild too) is in the
 * sandbox's PID namespace, killed with the sandbox's init when the judge is
 * closed or the process that started it dies. Where the referee has a
 * cgroup root for its moves (struct judge_cmd's cg, cgroup.h), the judge
 * also runs in a cgroup of its own made by the same machinery
 * (cg_move_open): JUDGE_MEM_MB of memory for all its processes together
 * (limits.h) and the root's pids.max; when the judge is closed, whatever is
 * left in it is killed and the cgroup removed (cg_move_end, cg_move_close),
 * by the process that started the judge only. A judge its memory limit
 * killed fails saying so. Without a root (no cgroups, or a referee that may
 * not make them) it runs in its sandbox alone. A judge the user trusts runs
 * without one (--judge-sandbox none: struct judge_cmd's sandbox NULL), as
 * the referee's user, in the referee's folder, with its environment.
 *
 * Representation: a position is the address of its judge (struct judge)
 * then the judge's canonical board text, NUL padded to JUDGE_BOARD_MAX
 * bytes (limits.h), so equal boards of one judge are equal bytes. struct
 * game's operations take no context but their position, so each finds its
 * judge there; the game gives its start position as struct game's start
 * (init has no position to read), and parse reads the judge from the
 * position it is handed (game.h). A move is the index of a child in the
 * judge's list of the position's legal moves (its canonical order). The
 * judge's answers about the last positions asked are cached, with what an
 * answer said of each move's board (its summary, when the judge gives it:
 * whose turn, whether over); to_move and terminal read a summary without
 * asking. parse takes a text spelled as one of its position's move boards
 * as that board, unasked (a judge's boards are canonical). The game's
 * prefetch sends a position's "moves" question ahead, when its summary is
 * known, and its answer is read when first needed: the judge answers while
 * an engine thinks. At most one question is outstanding.
 *
 * A journal is data: a journal's judge is the one the user names with
 * --judge, started once its files match the SHA-256s the journal's header
 * recorded (judge_game_of); the command a header names is never run.
 *
 * Any number of judges may be open. A worker forked by the referee starts
 * its own judge process (and sandbox) on its first question (the judge is
 * the process's copy, which lets go of the parent's without touching it);
 * every judge process is killed if the process that started it dies
 * (PDEATHSIG; in a sandbox, its init's).
 *
 * A judge that crashes, answers nothing within JUDGE_TIMEOUT_MS or answers
 * nonsense has failed: its process is killed at once, and from then on
 * every position of its game is a finished game without moves, so that
 * whatever was asking winds up; judge_error then says "judge 'CMD': WHAT",
 * and whoever plays or replays the judge's games checks it before it
 * counts a result: the run stops with status JUDGE_EXIT_FAILED. It is
 * never an engine's forfeit.
 */
#ifndef ARENA_JUDGE_H
#define ARENA_JUDGE_H

#include <sys/types.h>
#include "arena/err.h"
#include "arena/game.h"

#define JUDGE_PROTOCOL "arena-judge/1"
#define JUDGE_EXIT_FAILED 4   /* the referee's exit status when its judge failed */
/* What a function returns when the judge failed (judge_error's words in its
 * struct err), up to the command, which exits JUDGE_EXIT_FAILED. */
#define JUDGE_FAILED (-2)

struct judge;
struct hdr;
struct hdr_judge;
struct sbx_policy;
struct cg_root;

/* The judge the user named (--judge CMD) and how it runs
 * (--judge-sandbox). */
struct judge_cmd {
    const char *cmd;                   /* words as a SPEC's cmd=; NULL: none
                                          named */
    const struct sbx_policy *sandbox;  /* the policy whose read-only paths
                                          and environment names its sandbox
                                          takes, copied as it starts (not its
                                          mode, the engines', nor its masks);
                                          NULL: no sandbox, a judge the user
                                          trusts */
    const struct cg_root *cg;          /* where its sandbox's cgroup goes:
                                          the moves' root (cgroup.h), read
                                          while the judge runs; NULL: none
                                          (nor for a judge without a
                                          sandbox) */
};

/* Starts the judge of command cmd->cmd (words as a SPEC's cmd=, spec.h), in
 * its sandbox unless cmd->sandbox is NULL (above), says hello and learns its
 * game's name and start board. want (NULL: any) is
 * the judge a journal recorded: cmd's files (its program resolved through
 * PATH, then every word naming a file) must have its SHA-256s, in its
 * order, checked before anything runs; a journal from before the files
 * list has its program's SHA-256 only, which must be cmd's last file's.
 * Returns 0 with *judge set (free it with judge_close); -1 with e when cmd
 * is refused (it does not resolve, it is not the journal's judge: the first
 * file that differs and both SHA-256s, it speaks another protocol);
 * JUDGE_FAILED with e, judge_error's words, when the judge failed its
 * hello, or could not be started: its sandbox could not be made (the cause,
 * and --judge-sandbox none), or its program run in it. */
int judge_open(const struct judge_cmd *cmd, const struct hdr_judge *want, struct judge **judge,
               struct err *e);

/* A judge the caller runs itself, reached through to (its stdin, which j
 * writes) and from (its stdout, which j reads), both j's from now on
 * (judge_close closes them; so does a failure here): hello is said on
 * them and the game learnt as judge_open's, name standing for the command
 * in messages ("judge 'NAME': WHAT"). No process is started, checked or
 * killed: a judge that closes its output has "closed its output". A
 * worker forked from the caller cannot ask it (its first question fails
 * the judge). The unit tests' scripted judge (tests/test_judge.c) is one.
 * Returns as judge_open. */
int judge_open_fds(const char *name, int to, int from, struct judge **judge, struct err *e);

/* The judge's game (valid until judge_close). */
const struct game *judge_game(const struct judge *j);
/* The child of this process that the judge's run is, when this process
 * started it and it runs, else 0: a child that sweeping the engines'
 * leftovers must spare (run_limits). In its sandbox, the sandbox's init
 * (sbx_init_pid); without, the judge's process. A worker forked since the
 * judge was started has 0 until it starts its own. NULL: 0. */
pid_t judge_pid(const struct judge *j);

/* 0 while j answers (j may be NULL: no judge); -1 once it failed, with e
 * (when not NULL) "judge 'CMD': WHAT", no line or column. */
int judge_error(const struct judge *j, struct err *e);

/* Records the judge in h: "judge": {"cmd": [WORDS], "sha256": HEX, "files":
 * [{"path", "sha256"}...]}, the files its program (interpreter first). 0 or
 * -1 (out of memory). */
int judge_header(const struct judge *j, struct hdr *h);

/* The game of a journal's header into *g: for a judge's game, the judge
 * the user named, cmd (--judge and how it runs; NULL, or its cmd NULL:
 * none), started into *judge (the caller closes it
 * with judge_close) once judge_open found it the header's; the header's own
 * command is never run (a journal is data: docs/judges.md). Else the
 * registry's game of its name (*judge NULL). Returns 0; -1 with e at line
 * 1, column 1 when there is none ("unknown game 'x'"), when cmd is NULL for
 * a judge's game (the message names the recorded command and --judge) or
 * given for a built-in one, or cmd is refused (judge_open); JUDGE_FAILED
 * with e when the judge failed. */
int judge_game_of(const struct hdr *h, const struct judge_cmd *cmd, const struct game **g,
                  struct judge **judge, struct err *e);

/* Ends the judge process (closing its stdin, then killing it; in its
 * sandbox, every process in it) and frees j; j may be NULL. A worker's copy
 * of its parent's judge is freed without ending the parent's process or
 * sandbox. */
void judge_close(struct judge *j);

#endif
