/*
 * tournament.h - tournaments between any number of engines: the schedule,
 * the journal, the run with concurrent games, resume, SPRT and shards; the
 * report (standings, Elo, LOS, CPU per move, forfeits); verify and merge.
 *
 * The schedule is a pure function of the configuration: game i (1-based)
 * always has the same engines, colours and opening, so a resumed, sharded or
 * re-run tournament plays exactly the same games. Round-robin: every pair of
 * engines, gauntlet: engine 1 against each other one; per round and pair two
 * games on one opening, colours swapped.
 *
 * The journal (JSON lines): line 1 is the header, {"schema":
 * "arena.journal/1", the rules, "engines", "format", "rounds", "shard",
 * "games", "sprt"}; then one game record (match.h) per finished game,
 * appended with one write() and fsync'd before the next game is counted. It
 * is the only source for resume, reports, verify and merge. A last line cut
 * short by a crash is not a game: resume cuts it off and replays the game.
 *
 * Each game runs in a worker process of its own (a child subreaper), which
 * sends the finished record back through a pipe; the parent alone writes the
 * journal. A worker dies with its parent (PR_SET_PDEATHSIG) and kills its
 * engine first.
 */
#ifndef ARENA_TOURNAMENT_H
#define ARENA_TOURNAMENT_H

#include <stdio.h>
#include "arena/match.h"

#define TOUR_MAX_ENGINES REC_MAX_ENGINES   /* a journal's header names them all */
#define TOUR_MAX_CONCURRENCY 256

enum tour_format { TOUR_ROUND_ROBIN, TOUR_GAUNTLET };

struct tour_sprt {
    int on;
    double elo0, elo1, alpha, beta;
};

struct tour_config {
    struct ref_rules rules;
    int nengines;
    struct ref_engine engine[TOUR_MAX_ENGINES];
    enum tour_format format;
    int rounds;
    int concurrency;
    int shard_k, shard_n;        /* this shard: games with (i-1) % n == k-1 */
    struct tour_sprt sprt;       /* two engines only */
    const char *journal;         /* NULL: none (no resume) */
    int resume;
    int progress;                /* 1: the one-line display on stderr */
};

struct tour_game {
    long index;   /* 1-based */
    long pair;    /* 0-based; both games of a pair share the opening */
    int side[2];  /* engine numbers (0-based) playing sides 1 and 2 */
};

/* Games in the whole schedule (all shards). */
long tour_games(const struct tour_config *c);
/* Game index (1..tour_games) of the schedule. */
void tour_game_at(const struct tour_config *c, long index, struct tour_game *g);

/* The journal header of c (a new cJSON object; the caller deletes it). */
struct cJSON *tour_header(const struct tour_config *c);

/* Runs the tournament: prints each result line and the standings on out.
 * Returns 0 when done, TOUR_STOPPED when SIGINT or SIGTERM stopped it (the
 * journal then holds every finished game), TOUR_BAD_JOURNAL with e filled
 * when the journal cannot be used (it exists without resume, is another
 * tournament's, or is corrupt: e->line then is its line; nothing written),
 * or -1 with e filled when the referee fails. */
#define TOUR_STOPPED 1
#define TOUR_BAD_JOURNAL (-2)
int tour_run(const struct tour_config *c, FILE *out, struct err *e);

/* --- journals --------------------------------------------------------- */

/* Calls fn for the header, then for each game record of a journal or a
 * match log (detected by its schema), in file order; a journal's last line
 * cut short by a crash is skipped. fn returns 0 to go on, else the scan
 * stops and returns that. line: the record's line (journals) or 0.
 * Returns 0, fn's value, or -1 with e filled (e->line/col at bad JSON). */
typedef int (*tour_scan_fn)(void *ctx, const struct cJSON *rec, int is_header, int line,
                            struct err *e);
int tour_scan(const char *path, tour_scan_fn fn, void *ctx, struct err *e);
/* tour_scan on a journal or log already in memory: len bytes at text, which
 * must be NUL-terminated at text[len] and writable (lines are cut in place,
 * so the text is changed). */
int tour_scan_text(char *text, size_t len, tour_scan_fn fn, void *ctx, struct err *e);

/* Opens a journal to append games: a new file starting with header, or with
 * resume an existing one whose header must equal header; fn then gets each
 * finished game (the header is checked here), and a last line cut short is
 * cut off. Returns 0 with *fd open, or -1 with e filled. */
int tour_journal_open(const char *path, const struct cJSON *header, int resume,
                      tour_scan_fn fn, void *ctx, int *fd, struct err *e);
/* Appends one record line (no newline in line) with one write, then fsync. */
int tour_journal_append(int fd, const char *line, struct err *e);

/* Combines shard journals into out (written atomically): same header but
 * for the shard, every game once, in index order. 0 or -1 with e. */
int tour_merge(const char *out, char *const inputs[], int n, struct err *e, const char **bad_path);

/* --- report and verify -------------------------------------------------- */

enum tour_report_format { REPORT_TEXT, REPORT_JSON, REPORT_CSV };

#define TOUR_MAX_FORFEITS 64     /* distinct (engine, reason) counted */

/* What a report counts, game by game: standings, pairs, CPU per move (the
 * engine's own user+sys time, every move it was asked for), forfeits. */
struct tour_tally {
    int n;                                       /* engines */
    char name[TOUR_MAX_ENGINES][REC_NAME_MAX];
    long games;
    long win[TOUR_MAX_ENGINES], draw[TOUR_MAX_ENGINES], loss[TOUR_MAX_ENGINES];
    long beat[TOUR_MAX_ENGINES][TOUR_MAX_ENGINES]; /* beat[i][j]: i's wins over j */
    long drew[TOUR_MAX_ENGINES][TOUR_MAX_ENGINES];
    double *cpu[TOUR_MAX_ENGINES];               /* ms per move, malloc'd */
    long ncpu[TOUR_MAX_ENGINES], capcpu[TOUR_MAX_ENGINES];
    double *overhead;                            /* referee_ms per move */
    long noverhead, capoverhead;
    int nforfeit;
    struct { int engine; char reason[REC_REASON_MAX]; long count; } forfeit[TOUR_MAX_FORFEITS];
};

/* Starts a tally for n engines (n <= TOUR_MAX_ENGINES) named name[i]
 * (shorter than REC_NAME_MAX). 0, or -1 with e filled (fewer than two).
 * Free with tour_tally_free either way. */
int tour_tally_init(struct tour_tally *t, int n, const char *const name[], struct err *e);
/* Counts one game record. 0, or -1 with e filled (an unknown engine, no
 * players, result or reason, a move without a side). */
int tour_tally_add(struct tour_tally *t, const struct game_record *rec, struct err *e);
void tour_tally_free(struct tour_tally *t);
/* Prints the report of t. */
void tour_tally_print(struct tour_tally *t, enum tour_report_format f, FILE *out);

/* Prints the report of a journal or match log. 0 or -1 with e. */
int tour_report(const char *path, enum tour_report_format f, FILE *out, struct err *e);

/* Replays every game of a journal or a match log through the rules. Returns
 * 0 when all is consistent (a summary printed on out), 1 at the first
 * inconsistency (described in e, with the journal line in e->line), -1 when
 * the file cannot be read or parsed (e filled). */
int tour_verify(const char *path, FILE *out, struct err *e);

/* --- statistics (cutechess conventions) --------------------------------- */

/* The Elo difference of a score s in (0, 1). */
double tour_elo(double s);
/* Elo difference and its 95% error margin from W/L/D; +-inf at 0% or 100%. */
void tour_elo_interval(long w, long l, long d, double *elo, double *margin);
/* Likelihood of superiority in [0, 1]: 0.5 with no decisive game. */
double tour_los(long w, long l);
/* The GSPRT log-likelihood ratio of H1 (elo1) against H0 (elo0), and its
 * bounds ln(beta / (1 - alpha)) and ln((1 - beta) / alpha). */
double tour_sprt_llr(long w, long l, long d, double elo0, double elo1);
void tour_sprt_bounds(double alpha, double beta, double *lower, double *upper);

/* p-th percentile (0..100, nearest rank) of n sorted values; 0 when n = 0. */
double tour_percentile(const double *sorted, long n, double p);

#endif
