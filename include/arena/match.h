/*
 * match.h - a match of N games between two engines, played one after the
 * other (play.h), with its JSON log (schema arena.match/1, journal.h) and
 * the result line every finished game prints.
 */
#ifndef ARENA_MATCH_H
#define ARENA_MATCH_H

#include <stdio.h>
#include "arena/play.h"

struct match_opts {
    struct play_rules rules;
    const struct spec *engine[2];
    int games;               /* games in all; pairs share an opening */
    const char *log_path;    /* JSON log; NULL: none */
    int concurrency;         /* games at once, each in a worker process (pool.h);
                              * 0 or 1: one after the other in this one. The
                              * output and log are the same either way: games
                              * are printed and logged in their order */
    void (*worker_free)(void *ctx);  /* a worker's last call: frees what the
                                      * caller allocated (each process frees
                                      * what it holds); NULL: nothing */
    void *worker_ctx;
};

/* Plays the match, printing one line per game and the score. Returns 0,
 * MATCH_FORFEITED when an engine forfeited every one of its games (any
 * reasons) or every game was forfeited (a line at the end says so:
 * report_text_forfeiters), or -1 with e filled when the referee itself
 * fails (temporary folder, log file); an engine's failure is a lost game,
 * not an error. */
#define MATCH_FORFEITED 1
int match_run(const struct match_opts *o, FILE *out, struct err *e);

/* Where a game's evidence is kept, for the line under a forfeit: the
 * position (kept, or the option that keeps it) and the forfeiter's whole
 * stderr (its stderr= file, the record's "stderr_tail", or the option that
 * writes the record). */
struct match_evidence {
    const char *keep_dir;        /* --keep-files; NULL: not kept */
    const char *record;          /* the log or journal written; NULL: none */
    const char *record_option;   /* the option that would write it: "--log" */
    const struct spec *const *engine;   /* the run's engines (their stderr=) */
    int nengines;
};

/* Prints a record's result line: "Finished game I (A vs B): 1-0 {why}",
 * where a forfeit's why names its ply and ends with the line of its
 * engine's stderr that says why it failed ("{rand forfeits at ply 3:
 * exit-status 1: ValueError: no legal move (rand.py, line 12, in best)}":
 * a traceback's exception and innermost frame of the engine's own code,
 * the line before a usage error's "Try '... --help'", else the last line),
 * a game with a score ends with it, the winner's first ("{player 2 wins
 * 14-11}"); under a forfeit, when ev is not NULL, where its position and whole stderr
 * are (or the options that keep them); then its analysis line when it has
 * one. */
void match_print_result(FILE *out, const struct game_record *rec, const struct match_evidence *ev);

/* Bytes of a forfeit's words (match_forfeit_words): a name, a ply, a
 * reason and a line of the engine's output, with room to spare. */
#define MATCH_FORFEIT_MAX (REC_NAME_MAX + REC_REASON_MAX + 256)
/* A forfeit's words as the result line shows them between its braces, not
 * escaped (each display escapes them its own way): "rand forfeits at ply
 * 3: exit-status 1: ValueError: no legal move (rand.py, line 12, in
 * best)", or "NAME forfeits: REASON" for a forfeit without a move; into
 * buf (cap > 0 bytes, cut to fit); "" when rec ended normally or by the
 * draw rule.
 * match_print_result and referee play's page both say it with this. */
void match_forfeit_words(const struct game_record *rec, char *buf, size_t cap);

#endif
