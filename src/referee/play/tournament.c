/*
 * tournament.c - the run of a tournament (tournament.h): each game of the
 * schedule played by a worker of the pool, each finished game journaled,
 * counted and printed, resume, SPRT, SIGINT and SIGTERM, the progress line.
 *
 * Why processes, not threads: a worker is a child subreaper with no other
 * children, so after every move it can kill and reap whatever the engine
 * left behind, setsid escapees included (runner.h); and a worker that the
 * parent's death takes down (PR_SET_PDEATHSIG) kills its engine on the way.
 *
 * No game is lost without a word: a worker that dies (a signal, the OOM
 * killer, an engine that kills it) has its game played again, at most
 * TOUR_GAME_REPLAYS times, and then the tournament stops with an error
 * naming the game; a run that ends on its own has played every game of
 * its shard unless the SPRT stopped it, which it says.
 *
 * A Swiss tournament (swiss.h) pairs a round once every game of the last
 * one is in: its games wait until then. Resume replays the journal's
 * finished rounds through the same pairing, so every round is paired as
 * the first run paired it, and a journal game that is not its round's
 * pairing is refused. A knockout (knockout.h) starts a match's games once
 * its engines are known; its bracket lives in the tally, which every
 * game, resumed or played, goes through.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "arena/cgroup.h"
#include "referee/journal/header.h"
#include "referee/judge/judge.h"
#include "arena/journal.h"
#include "arena/match.h"
#include "pool.h"
#include "progress.h"
#include "arena/report.h"
#include "arena/sandbox.h"
#include "arena/schedule.h"
#include "arena/stats.h"
#include "arena/swiss.h"
#include "referee/report/report_text.h"
#include "arena/tally.h"
#include "arena/textfile.h"
#include "arena/tournament.h"

/* A pool worker ending with a judge's failure (judge.h) is a game that
 * "could not be played (the line above says why)" (match.c, here). Checked
 * here, above both, since the judge, below play, knows nothing of pools. */
_Static_assert(JUDGE_EXIT_FAILED == POOL_FAILED, "a judge's failure is a worker's");

#define PROGRESS_EVERY_MS 250

/* The one process-wide variable: a signal handler can reach nothing else.
 * The parent's stops the tournament; a worker's copy cancels its engine. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    stop_signal = sig;
}

struct schedule tour_schedule(const struct tour_config *c)
{
    return (struct schedule){ .nengines = c->nengines, .format = c->format, .rounds = c->rounds,
                              .shard_k = c->shard_k, .shard_n = c->shard_n, .seeds = c->seeds };
}

int tour_seeds(struct tour_config *c, struct err *e)
{
    c->seeds = 0;
    for (int k = 0; k < c->nseeds; k++) {
        int i = 0;
        while (i < c->nengines && strcmp(c->engine[i].name, c->seed_name[k]) != 0)
            i++;
        if (i == c->nengines)
            return err_set(e, 0, 0, "--seeds %s: no engine of the tournament is named %s",
                           c->seed_name[k], c->seed_name[k]);
        c->seeds |= (uint64_t)1 << i;
    }
    if (c->nseeds && __builtin_popcountll(c->seeds) == c->nengines)
        return err_set(e, 0, 0, "--seeds: every engine is a seed; a gauntlet needs one that "
                       "is not");
    return 0;
}

int tour_header(const struct tour_config *c, struct hdr *h)
{
    hdr_init(h);
    h->has = HDR_BIT(HDR_SCHEMA) | HDR_BIT(HDR_FORMAT) | HDR_BIT(HDR_ROUNDS) |
             HDR_BIT(HDR_SHARD) | HDR_BIT(HDR_GAMES) | HDR_BIT(HDR_SPRT);
    int rc = hdr_set_text(&h->schema, JOURNAL_SCHEMA) | play_rules_header(&c->rules, h);
    for (int i = 0; !rc && i < c->nengines; i++)
        rc = hdr_add_spec(h, &c->engine[i]);
    rc |= hdr_set_text(&h->format, schedule_format_name(c->format));
    h->rounds = c->rounds;
    h->shard_k = c->shard_k;
    h->shard_n = c->shard_n;
    struct schedule sched = tour_schedule(c);
    h->games = schedule_games(&sched);
    if (!c->sprt.on) {
        h->null |= HDR_BIT(HDR_SPRT);
    } else {
        h->sprt.elo0 = c->sprt.elo0;
        h->sprt.elo1 = c->sprt.elo1;
        h->sprt.alpha = c->sprt.alpha;
        h->sprt.beta = c->sprt.beta;
        h->sprt.has = HDR_BIT(HDR_SPRT_ELO0) | HDR_BIT(HDR_SPRT_ELO1) |
                      HDR_BIT(HDR_SPRT_ALPHA) | HDR_BIT(HDR_SPRT_BETA);
        if (!c->sprt.trinomial) {
            h->sprt.has |= HDR_BIT(HDR_SPRT_MODEL);
            rc |= hdr_set_text(&h->sprt.model, penta_model_name(c->sprt.model));
        }
    }
    if (c->nseeds) {   /* only then, as the anchors */
        h->has |= HDR_BIT(HDR_SEEDS);
        for (int k = 0; !rc && k < c->nseeds; k++)
            rc = hdr_strs_add(&h->seeds, c->seed_name[k]);
    }
    if (c->nanchors) {   /* only then: other journals' headers stay as they were */
        h->has |= HDR_BIT(HDR_ANCHORS);
        h->nanchors = c->nanchors;
        for (int k = 0; k < c->nanchors; k++) {
            snprintf(h->anchor[k].name, sizeof h->anchor[k].name, "%s", c->anchor[k].name);
            h->anchor[k].elo = c->anchor[k].elo;
        }
    }
    if (rc)
        hdr_free(h);
    return rc ? -1 : 0;
}

struct run_state {
    const struct tour_config *c;
    struct schedule sched;   /* tour_schedule(c) */
    struct pool pool;
    struct tally tally;
    char *done;              /* done[i]: game i is in the journal */
    long ndone, nwanted;     /* of this shard */
    long played_now;         /* games finished by this run */
    int journal_fd;
    int sprt_decided;        /* -1 H0 accepted, 1 H1 accepted, 0 not yet */
    FILE *out;
    struct progress progress;
    unsigned char *deaths;   /* deaths[i]: times game i's worker died */
    int stopping;            /* an error stops the run: the rest is cut short */
    long replay[TOUR_MAX_CONCURRENCY];   /* games to play again, first */
    int nreplay;
    /* A Swiss tournament's: the field, its rounds paired so far, and each
     * game in (by index): its engines and side 1's half points. */
    struct swiss sw;
    struct swiss_round *round;   /* c->rounds of them, malloc'd */
    int paired;
    unsigned char (*who)[2];
    signed char *half1;
    char *started;               /* a knockout's: started[i], game i was started */
};

/* Frees what the run holds. A worker calls it too: each process frees what
 * it holds (valgrind checks workers too). */
static void run_free(struct run_state *s)
{
    free(s->done);
    free(s->deaths);
    free(s->round);
    free(s->who);
    free(s->half1);
    free(s->started);
    tally_free(&s->tally);
}

/* Game index of the schedule: a Swiss game's engines are its round's
 * pairing (which start_games waits for), a knockout's its bracket's match
 * (which start_games asked for). */
static void game_at(const struct run_state *s, long index, struct schedule_game *g)
{
    if (s->c->format == SCHEDULE_KNOCKOUT) {   /* start_games asked the bracket first */
        int ready = knockout_game(s->tally.bracket, index, g->side);
        assert(ready);
        (void)ready;
        g->index = index;
        g->pair = (index - 1) / 2;
        return;
    }
    if (s->c->format != SCHEDULE_SWISS) {
        schedule_game_at(&s->sched, index, g);
        return;
    }
    int round, pair;
    schedule_round_of(&s->sched, index, &round, &pair);
    assert(round < s->paired);
    const int *side = s->round[round].side[pair];
    g->index = index;
    g->pair = (index - 1) / 2;
    g->side[0] = side[(index - 1) % 2];
    g->side[1] = side[1 - (index - 1) % 2];
}

/* In a worker: plays game `index`, writes its record to fd; the exit
 * status (pool.h). The worker's copy of the configuration is its own, and
 * freed here with the rest of the parent's state. */
static int play_job(void *ctx, long index, int slot, int fd)
{
    struct run_state *s = ctx;
    struct tour_config *c = (struct tour_config *)s->c;
    /* Only the parent holds the journal (and its lock: journal.h). */
    if (s->journal_fd >= 0)
        close(s->journal_fd);
    run_become_reaper();
    struct schedule_game sg;
    game_at(s, index, &sg);
    struct play_rules rules = c->rules;
    rules.limits.reap_all = 1;
    rules.limits.cancel = &stop_signal;
    const struct spec *const side[2] = { &c->engine[sg.side[0]], &c->engine[sg.side[1]] };
    struct game_record rec;
    struct err e;
    struct cg_root slot_root;   /* its slot's moves' root, while it plays */
    int rc = play_rules_slot(&rules, slot, &slot_root, &e);
    if (rc == 0)
        rc = play_game(&rules, sg.index, sg.pair, side, &rec, &e);
    else
        rec_init(&rec, -1, -1);
    /* A game that ended while this worker was being stopped is no result:
     * the signal may have reached its engine too (a Slurm scancel signals
     * every process of the job), and resume plays it again. */
    if (rc == PLAY_PLAYED && stop_signal)
        rc = PLAY_CANCELLED;
    int status = rc == PLAY_PLAYED ? 0 : rc == PLAY_CANCELLED ? POOL_CANCELLED : POOL_FAILED;
    if (rc < 0)
        err_print(stderr, "referee", &e);
    if (rc == PLAY_PLAYED && rec_send(&rec, fd) != 0)
        status = POOL_FAILED;
    rec_free(&rec);
    run_free(s);
    for (int i = 0; i < c->nengines; i++)
        spec_free(&c->engine[i]);
    if (c->rules.book)
        book_free((struct book *)c->rules.book);
    if (c->rules.sandbox)
        sbx_policy_free((struct sbx_policy *)c->rules.sandbox);
    judge_close(c->rules.judge);   /* the worker's copy (and its own judge process) */
    return status;
}

/* Engine number of name, or -1. */
static int engine_of(const struct tour_config *c, const char *name)
{
    for (int i = 0; i < c->nengines; i++)
        if (strcmp(c->engine[i].name, name) == 0)
            return i;
    return -1;
}

/* A Swiss game in: who played it and side 1's half points, for the
 * pairing of the rounds after it. */
static void swiss_note(struct run_state *s, const struct game_record *rec)
{
    int a = engine_of(s->c, rec->player[0]), b = engine_of(s->c, rec->player[1]);
    assert(a >= 0 && b >= 0);   /* tally_add refused any other */
    s->who[rec->index][0] = (unsigned char)a;
    s->who[rec->index][1] = (unsigned char)b;
    s->half1[rec->index] = (signed char)(rec->result == REC_WIN_1 ? 2 : rec->result == REC_WIN_2 ? 0 : 1);
}

/* A finished game, from the journal or a worker: count it. */
static int count_game(struct run_state *s, const struct game_record *rec, struct err *e)
{
    long i = rec->index;
    if (i < 1 || i > schedule_games(&s->sched) || !schedule_in_shard(&s->sched, i))
        return err_set(e, 0, 0, "a game whose index (%ld) is not in this schedule", i);
    if (s->done[i])
        return err_set(e, 0, 0, "game %ld is in the journal twice", i);
    s->done[i] = 1;
    s->ndone++;
    if (tally_add(&s->tally, rec, e) != 0)
        return -1;
    if (s->tally.bracket)   /* what the bracket needs grows as its matches are known */
        s->nwanted = knockout_needed(s->tally.bracket);
    if (s->c->format == SCHEDULE_SWISS)
        swiss_note(s, rec);
    return 0;
}

/* Games of a Swiss round: a game pair per pairing, the bye none. */
static long round_games(const struct run_state *s)
{
    return 2L * (s->c->nengines / 2);
}

/* 1 when every game of Swiss round r (0-based) is in. */
static int round_done(const struct run_state *s, int r)
{
    long first = r * round_games(s) + 1;
    for (long i = first; i < first + round_games(s); i++)
        if (!s->done[i])
            return 0;
    return 1;
}

/* Round r's results to the field's scores. */
static void round_scores(struct run_state *s, int r)
{
    long first = r * round_games(s) + 1;
    for (long i = first; i < first + round_games(s); i++) {
        swiss_add(&s->sw, s->who[i][0], s->half1[i]);
        swiss_add(&s->sw, s->who[i][1], 2 - s->half1[i]);
    }
}

/* What a bye scores, in words (swiss.h: a drawn pair). */
#define BYE_WORTH "1 point"
_Static_assert(SWISS_BYE_HALF_POINTS == 2, "BYE_WORTH says 1 point");

/* Round r's pairings, as a line of the run's output. */
static void print_round(struct run_state *s, int r)
{
    const struct swiss_round *sr = &s->round[r];
    progress_clear(&s->progress);
    fprintf(s->out, "Round %d:", r + 1);
    for (int k = 0; k < sr->npairs; k++)
        fprintf(s->out, "%s %s - %s", k ? "," : "", s->c->engine[sr->side[k][0]].name,
                s->c->engine[sr->side[k][1]].name);
    if (sr->bye >= 0)
        fprintf(s->out, "; bye: %s (%s)", s->c->engine[sr->bye].name, BYE_WORTH);
    fputc('\n', s->out);
    fflush(s->out);
}

/* The journal's games of round r against its pairing: 0, or -1 with e
 * filled (a journal of other results, or edited). */
static int round_check(const struct run_state *s, int r, struct err *e)
{
    long first = r * round_games(s) + 1;
    for (long i = first; i < first + round_games(s); i++) {
        struct schedule_game g;
        game_at(s, i, &g);
        if (s->done[i] && (s->who[i][0] != g.side[0] || s->who[i][1] != g.side[1]))
            return err_set(e, 0, 0, "game %ld: %s against %s, but round %d pairs %s against %s",
                           i, s->c->engine[s->who[i][0]].name, s->c->engine[s->who[i][1]].name,
                           r + 1, s->c->engine[g.side[0]].name, s->c->engine[g.side[1]].name);
    }
    return 0;
}

/* Pairs every Swiss round whose last round is in: 0, or -1 with e filled
 * (a round no pairing fits, a journal game not its round's pairing). */
static int swiss_advance(struct run_state *s, struct err *e)
{
    while (s->paired < s->c->rounds && (s->paired == 0 || round_done(s, s->paired - 1))) {
        if (s->paired > 0)
            round_scores(s, s->paired - 1);
        if (swiss_pair(&s->sw, &s->round[s->paired]) != 0)
            return err_set(e, 0, 0, "Swiss round %d: no pairing without a repeat", s->paired + 1);
        s->paired++;
        print_round(s, s->paired - 1);
        if (round_check(s, s->paired - 1, e) != 0)
            return -1;
    }
    return 0;
}

static int resume_game(void *ctx, struct game_record *rec, int line, struct err *e)
{
    (void)line;   /* journal.h places the error */
    return count_game(ctx, rec, e);
}

/* The SPRT's log-likelihood ratio so far and its bounds. */
static double sprt_llr(const struct run_state *s, double *lo, double *hi)
{
    const struct tour_sprt *p = &s->c->sprt;
    long w = s->tally.beat[0][1], l = s->tally.beat[1][0], d = s->tally.drew[0][1];
    stats_sprt_bounds(p->alpha, p->beta, lo, hi);
    if (p->trinomial)
        return stats_sprt_llr(w, l, d, p->elo0, p->elo1);
    return penta_llr(&s->tally.penta[0][1], p->model, PENTA_EXACT, p->elo0, p->elo1);
}

static void sprt_check(struct run_state *s)
{
    if (!s->c->sprt.on || s->sprt_decided)
        return;
    double lo, hi, llr = sprt_llr(s, &lo, &hi);
    if (llr >= hi)
        s->sprt_decided = 1;
    else if (llr <= lo)
        s->sprt_decided = -1;
}

static void print_sprt(struct run_state *s)
{
    double lo, hi, llr = sprt_llr(s, &lo, &hi);
    fprintf(s->out, "SPRT: llr %.3f, lbound %.3f, ubound %.3f - %s\n", llr, lo, hi,
            s->sprt_decided > 0   ? "H1 was accepted"
            : s->sprt_decided < 0 ? "H0 was accepted"
                                  : "no decision yet");
}

static void show_progress(struct run_state *s)
{
    int order[TOUR_MAX_ENGINES];
    tally_standings(&s->tally, order);
    progress_show(&s->progress, s->ndone, s->nwanted, s->played_now, s->tally.name[order[0]],
                  tally_points(&s->tally, order[0]));
}

/* How a worker that did not finish its game ended, in words. */
static void death_text(int status, char *buf, size_t cap)
{
    const char *sig = status >= POOL_SIGNALED ? sigabbrev_np(status - POOL_SIGNALED) : NULL;
    if (status == POOL_FAILED)
        snprintf(buf, cap, "the referee could not play it");
    else if (status == POOL_CANCELLED)
        snprintf(buf, cap, "its worker was stopped (SIGTERM)");
    else if (sig)
        snprintf(buf, cap, "its worker was killed by SIG%s", sig);
    else
        snprintf(buf, cap, "its worker ended with status %d", status);
}

/* A worker died before its game was done: play it again, or give up on it
 * (an error naming the game, which stops the tournament). */
static int game_died(struct run_state *s, long index, int status, struct err *e)
{
    char why[ERR_MSG_MAX / 2];
    death_text(status, why, sizeof why);
    if (s->deaths[index] >= TOUR_GAME_REPLAYS) {
        s->stopping = 1;
        return err_set(e, 0, 0, "game %ld: %s, %d times: stopped with %ld of %ld games played",
                       index, why, TOUR_GAME_REPLAYS + 1, s->ndone, s->nwanted);
    }
    s->deaths[index]++;
    s->replay[s->nreplay++] = index;
    progress_clear(&s->progress);
    fprintf(s->out, "Game %ld: %s; playing it again (%d of %d)\n", index, why,
            s->deaths[index], TOUR_GAME_REPLAYS);
    fflush(s->out);
    return 0;
}

/* A worker ended: journal, count and print its game if it finished one. */
static int game_done(void *ctx, long index, int status, char *answer, size_t len,
                     struct err *e)
{
    (void)len;
    struct run_state *s = ctx;
    /* Stopping (a signal, the SPRT, an error): games cut short are not
     * played again. */
    if (status != 0)
        return stop_signal || s->sprt_decided || s->stopping ? 0 : game_died(s, index, status, e);
    if (s->sprt_decided)
        return 0;
    cJSON *json = cJSON_Parse(answer);
    struct game_record rec;
    rec_init(&rec, -1, -1);
    int rc = 0;
    if (!json || rec_decode(json, &rec, e) != 0)
        rc = err_set(e, 0, 0, "game %ld: the worker's record is not a record", index);
    /* The same from this side: a forfeit that reached us after our stop
     * signal may be the signal's doing; resume plays it again. */
    if (!rc && stop_signal && rec.reason == REC_FORFEIT) {
        rec_free(&rec);
        cJSON_Delete(json);
        return 0;
    }
    if (!rc && s->journal_fd >= 0)
        rc = journal_append(s->journal_fd, answer, e);
    if (!rc && (rc = count_game(s, &rec, e)) == 0) {
        s->played_now++;
        progress_clear(&s->progress);
        const struct spec *eng[TOUR_MAX_ENGINES];
        for (int i = 0; i < s->c->nengines; i++)
            eng[i] = &s->c->engine[i];
        struct match_evidence ev = { s->c->rules.keep_dir, s->c->journal, "--journal", eng,
                                     s->c->nengines };
        match_print_result(s->out, &rec, &ev);
        fflush(s->out);
        sprt_check(s);
        if (s->c->format == SCHEDULE_SWISS)
            rc = swiss_advance(s, e);
    }
    rec_free(&rec);
    cJSON_Delete(json);
    return rc;
}

/* A knockout's next game to start: the first its bracket wants that is
 * neither in nor started; 0 when none is, for now. */
static long next_knockout(const struct run_state *s)
{
    long total = schedule_games(&s->sched);
    for (long i = 1; i <= total; i++) {
        int side[2];
        if (!s->done[i] && !s->started[i] && knockout_game(s->tally.bracket, i, side))
            return i;
    }
    return 0;
}

/* Starts games while there are slots and games left. */
static int start_games(struct run_state *s, long *next, struct err *e)
{
    const struct tour_config *c = s->c;
    long total = schedule_games(&s->sched);
    if (c->format == SCHEDULE_SWISS)   /* the rounds paired so far */
        total = s->paired * round_games(s);
    while (!stop_signal && !s->sprt_decided && s->pool.running < c->concurrency) {
        if (s->nreplay > 0) {
            if (pool_start(&s->pool, s->replay[--s->nreplay], play_job, s, e) != 0)
                return -1;
            continue;
        }
        if (c->format == SCHEDULE_KNOCKOUT) {
            long i = next_knockout(s);
            if (!i)
                break;
            s->started[i] = 1;
            if (pool_start(&s->pool, i, play_job, s, e) != 0)
                return -1;
            continue;
        }
        while (*next <= total && (!schedule_in_shard(&s->sched, *next) || s->done[*next]))
            (*next)++;
        if (*next > total)
            break;
        if (pool_start(&s->pool, (*next)++, play_job, s, e) != 0)
            return -1;
    }
    return 0;
}

static int run_loop(struct run_state *s, struct err *e)
{
    long next = 1;
    int rc = 0;
    for (;;) {
        if (!rc)
            rc = start_games(s, &next, e);
        if (s->pool.running == 0)
            break;
        if (rc || stop_signal || s->sprt_decided)
            pool_signal(&s->pool, SIGTERM);
        s->stopping = s->stopping || rc != 0;
        int r = pool_wait(&s->pool, PROGRESS_EVERY_MS, game_done, s, e);
        if (!rc)
            rc = r;
        if (!rc)
            show_progress(s);
    }
    progress_clear(&s->progress);
    return rc;
}

/* A Swiss tournament's state, its field seeded by the run's seed: 0, or
 * -1 when out of memory. */
static int swiss_open(struct run_state *s, long total)
{
    swiss_init(&s->sw, s->c->nengines, s->c->rules.seed);
    s->round = calloc((size_t)s->c->rounds, sizeof *s->round);
    s->who = calloc((size_t)total + 1, sizeof *s->who);
    s->half1 = calloc((size_t)total + 1, 1);
    return s->round && s->who && s->half1 ? 0 : -1;
}

/* Sets up s: the tally, the pool, and the journal (resumed games counted).
 * 0, or -1 with e filled; *bad_journal when the journal was the trouble. */
static int run_open(struct run_state *s, const struct tour_config *c, FILE *out,
                    int *bad_journal, struct err *e)
{
    memset(s, 0, sizeof *s);
    s->c = c;
    s->out = out;
    s->journal_fd = -1;
    s->sched = tour_schedule(c);
    progress_start(&s->progress, c->progress);
    long total = schedule_games(&s->sched);
    s->nwanted = schedule_shard_games(total, c->shard_k, c->shard_n);
    const char *name[TOUR_MAX_ENGINES];
    for (int i = 0; i < c->nengines; i++)
        name[i] = c->engine[i].name;
    if (tally_init(&s->tally, c->nengines, name, e) != 0 ||
        tally_anchor(&s->tally, c->anchor, c->nanchors, e) != 0)
        return -1;
    s->done = calloc((size_t)total + 1, 1);
    s->deaths = calloc((size_t)total + 1, 1);
    if (!s->done || !s->deaths || pool_init(&s->pool, c->concurrency) != 0)
        return err_set(e, 0, 0, "out of memory");
    if (c->format == SCHEDULE_SWISS &&
        (swiss_open(s, total) != 0 || tally_swiss(&s->tally, c->rounds, c->rules.seed) != 0))
        return err_set(e, 0, 0, "out of memory");
    if (c->format == SCHEDULE_KNOCKOUT) {
        s->started = calloc((size_t)total + 1, 1);
        if (!s->started || tally_knockout(&s->tally) != 0)
            return err_set(e, 0, 0, "out of memory");
        s->nwanted = knockout_needed(s->tally.bracket);
    }
    if (!c->journal)
        return 0;
    struct hdr header;
    if (tour_header(c, &header) != 0)
        return err_set(e, 0, 0, "out of memory");
    static const struct journal_reader resume = { .game = resume_game };
    int rc = journal_open(c->journal, &header, c->resume, &resume, s, &s->journal_fd, e);
    hdr_free(&header);
    *bad_journal = rc != 0;
    return rc;
}

/* journal_scan on the header only: sets *old when its "sprt" is an object
 * without "model" (a journal from before the models, tournament.h). */
static int sprt_without_model(void *ctx, const struct hdr *h, int line, struct err *e)
{
    (void)line, (void)e;
    *(int *)ctx = (h->has & HDR_BIT(HDR_SPRT)) && !(h->null & HDR_BIT(HDR_SPRT)) &&
                  !(h->sprt.has & HDR_BIT(HDR_SPRT_MODEL));
    return 1;   /* stop after the header */
}

int tour_run(const struct tour_config *config, FILE *out, struct err *e)
{
    /* Resuming an old journal's SPRT without model= continues its test. */
    struct tour_config resumed = *config;
    const struct tour_config *c = &resumed;
    if (c->resume && c->journal && c->sprt.on && !c->sprt.model_given) {
        struct err ignored = { 0 };   /* journal_open reports a bad journal */
        int old = 0;
        static const struct journal_reader header_only = { .header = sprt_without_model };
        journal_scan(c->journal, &header_only, &old, &ignored);
        resumed.sprt.trinomial = old;
    }
    struct run_state s;
    int bad_journal = 0;
    int rc = run_open(&s, c, out, &bad_journal, e);
    if (!rc && s.ndone)
        fprintf(out, "Resuming: %ld of %ld games are in the journal\n", s.ndone, s.nwanted);
    if (!rc && c->format == SCHEDULE_SWISS)
        rc = swiss_advance(&s, e);
    sprt_check(&s);

    /* Orphans of a worker killed mid-move come to us and are swept below. */
    run_become_reaper();
    struct run_stops saved;
    stop_signal = 0;
    run_catch_stops(on_stop, &saved);
    if (!rc)
        rc = run_loop(&s, e);
    else
        stop_signal = 0;
    /* Every worker is reaped; take anything an engine left to us. */
    if (s.pool.slot)
        pool_kill(&s.pool);
    run_sweep(0);
    int stopped = stop_signal != 0;
    run_release_stops(&saved);
    if (s.journal_fd >= 0)
        close(s.journal_fd);
    /* What a run that ends on its own has played: all of its games. */
    if (!rc && !stopped && !s.sprt_decided && s.ndone < s.nwanted)
        rc = err_set(e, 0, 0, "only %ld of %ld games were played", s.ndone, s.nwanted);
    if (!rc) {
        if (c->sprt.on)
            print_sprt(&s);
        if (s.sprt_decided && s.ndone < s.nwanted)
            fprintf(out, "The SPRT stopped the tournament after %ld of %ld games\n", s.ndone,
                    s.nwanted);
        if (stopped)
            fprintf(out, "Stopped by a signal: %ld of %ld games in the journal; run again with "
                         "--resume to finish\n", s.ndone, s.nwanted);
        fputc('\n', out);
        report_print(&s.tally, REPORT_TEXT, REPORT_CSV_STANDINGS, out);
    }
    int forfeiters = !rc && !stopped ? report_text_forfeiters(&s.tally, out) : 0;
    pool_free(&s.pool);
    run_free(&s);
    return bad_journal ? TOUR_BAD_JOURNAL : rc ? -1 : stopped ? TOUR_STOPPED
                                              : forfeiters ? TOUR_FORFEITED : 0;
}
