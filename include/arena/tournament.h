/*
 * tournament.h - tournaments between any number of engines: the
 * configuration, its schedule and journal header, and the run: games played
 * concurrently by a worker pool (pool.h), each finished game journaled
 * (journal.h) and counted (tally.h), resume, SPRT and shards, the progress
 * line (progress.h) and the standings at the end (report.h).
 *
 * Which games a configuration plays is its schedule (schedule.h).
 *
 * The journal (journal.h) is the only source for resume, reports, verify
 * and merge: the parent alone writes it, one record per finished game.
 *
 * Each game runs in a worker process of its own (a child subreaper), which
 * sends the finished record back through a pipe; the parent alone writes the
 * journal. A worker dies with its parent (PR_SET_PDEATHSIG) and kills its
 * engine first.
 */
#ifndef ARENA_TOURNAMENT_H
#define ARENA_TOURNAMENT_H

#include <stdio.h>
#include "arena/limits.h"
#include "arena/penta.h"
#include "arena/play.h"
#include "arena/schedule.h"

#define TOUR_MAX_ENGINES REC_MAX_ENGINES   /* a journal's header names them all */

/* The SPRT: the GSPRT's exact LLR (penta.h) on the engines' game-pair
 * counts, Elo bounds in model's units. A journal written before models
 * (its header's "sprt" has no "model") ran the logistic LLR on W/L/D
 * counts (stats_sprt_llr): resuming one without model= continues that test
 * (trinomial), so the decision rule does not change half way. */
struct hdr;

struct tour_sprt {
    int on;
    double elo0, elo1, alpha, beta;
    enum penta_model model;
    int model_given;             /* model= was on the command line */
    int trinomial;               /* an old journal's test, see above */
};

struct tour_config {
    struct play_rules rules;
    int nengines;
    struct spec engine[TOUR_MAX_ENGINES];
    enum schedule_format format;
    int rounds;
    int concurrency;
    int shard_k, shard_n;        /* this shard: games with (i-1) % n == k-1 */
    struct tour_sprt sprt;       /* two engines only */
    const char *journal;         /* NULL: none (no resume) */
    int resume;
    int progress;                /* 1: the one-line display on stderr */
    struct tally_anchor anchor[TOUR_MAX_ENGINES];   /* --anchor: the reports' fixed ratings */
    char seed_name[TOUR_MAX_ENGINES][REC_NAME_MAX];  /* --seeds, as given */
    int nseeds;
    uint64_t seeds;              /* the gauntlet's seeds (schedule.h), from seed_name once
                                  * the engines are named (tour_seeds) */
    int nanchors;
};

/* Sets c->seeds from c->seed_name: 0, or -1 with e filled (a name of no
 * engine, every engine a seed). */
int tour_seeds(struct tour_config *c, struct err *e);

/* The schedule c plays (schedule.h). */
struct schedule tour_schedule(const struct tour_config *c);

/* The journal header of c into h (header.h; free with hdr_free): 0, or -1
 * when out of memory (h then empty). */
int tour_header(const struct tour_config *c, struct hdr *h);

/* Runs the tournament: prints each result line and the standings on out.
 * Returns 0 when done, TOUR_STOPPED when SIGINT or SIGTERM stopped it (the
 * journal then holds every finished game), TOUR_BAD_JOURNAL with e filled
 * when the journal cannot be used (it exists without resume, is another
 * tournament's, or is corrupt: e->line then is its line; nothing written),
 * TOUR_FORFEITED when done but an engine forfeited every one of its games
 * (any reasons) or every game was forfeited (a line at the end says so: report_text_forfeiters), or
 * -1 with e filled when the referee fails. */
#define TOUR_STOPPED 1
#define TOUR_FORFEITED 2
#define TOUR_BAD_JOURNAL (-2)
int tour_run(const struct tour_config *c, FILE *out, struct err *e);

#endif
