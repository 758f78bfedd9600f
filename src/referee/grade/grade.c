/*
 * grade.c - `referee grade` (grade.h): the options, the class's folders
 * (or a self-check's one folder), the journal and its resume or a
 * regrade's rewrite, a worker per submission (copy, hash, build, checks),
 * and the outputs from the journal at the end.
 */
#define _GNU_SOURCE
#include <assert.h>
#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/cli.h"
#include "arena/escape.h"
#include "arena/forfeit.h"
#include "arena/cluster.h"
#include "arena/grade.h"
#include "gradecheck.h"
#include "gradecopy.h"
#include "gradepaths.h"
#include "gradehtml.h"
#include "gradeout.h"
#include "gradejournal.h"
#include "arena/journal.h"
#include "arena/limits.h"
#include "arena/path.h"
#include "arena/preflight.h"
#include "referee/play/pool.h"
#include "arena/sandbox.h"
#include "arena/spec.h"
#include "arena/textfile.h"

const char grade_usage[] =
    "%1$s grade --rubric RUBRIC.json --submissions DIR --out OUT\n"
    "      [--concurrency N] [--resume] [--shard K/N] [--only ID]...\n"
    "      [--sandbox namespaces|none] [--sandbox-ro PATH]...\n"
    "%1$s grade --rubric RUBRIC.json --submission FOLDER [--out OUT] [--all-checks]\n"
    "      [--sandbox namespaces|none] [--sandbox-ro PATH]...\n";

const char grade_help[] =
    "Grade: every folder of DIR (a submission each, named by its id) graded by\n"
    "the rubric's checks (legal, exact, match, cpu, io; docs/grading.md), each\n"
    "submission in its own sandbox seeing only its own files, into\n"
    "OUT/grades.csv, OUT/ID/results.json (Gradescope's format),\n"
    "OUT/ID/feedback.html and OUT/index.html.\n"
    "  --rubric FILE        the rubric (JSON)\n"
    "  --submissions DIR    one folder per submission\n"
    "  --out OUT            where the grades go (its journal: OUT/journal.jsonl)\n"
    "  --concurrency N      submissions graded at once (default 1)\n"
    "  --resume             grade only what OUT's journals lack (and write the\n"
    "                       outputs from all of them: the merge of shards)\n"
    "  --shard K/N          grade every N-th submission from the K-th into\n"
    "                       OUT/journal-K.jsonl, no outputs (a cluster array's task)\n"
    "  --only ID            regrade submission ID (repeat) into OUT's grading: its\n"
    "                       journal lines replaced, its files, grades.csv and\n"
    "                       index.html rewritten, the others untouched\n"
    "  --submission FOLDER  a self-check: grade one folder (its id its name) on the\n"
    "                       rubric's visible checks, into OUT (default: a new\n"
    "                       folder under $TMPDIR), and show each check's score\n"
    "  --all-checks         with --submission: run the checks that are not visible\n"
    "                       too (an autograder's run: docs/gradescope/)\n"
    "  --sandbox MODE       namespaces (default) or none\n"
    "  --sandbox-ro PATH    let every submission read PATH too (an interpreter\n"
    "                       outside the system folders; repeat)\n";

const char grade_slurm_usage[] =
    "%1$s slurm grade --rubric RUBRIC.json --submissions DIR --out OUT --shards N\n"
    "      [--cpus-per-shard C] [--partition P] [--time T] [--sbatch-arg ARG]...\n"
    "      [--resume] [--dry-run] [--sandbox namespaces|none] [--sandbox-ro PATH]...\n";

static const char slurm_help[] =
    "Slurm grade: the class in N shards on a Slurm cluster, a job array whose task\n"
    "K runs grade --shard K/N into OUT, then a job after it (afterany) that runs\n"
    "grade --resume: it grades what the shards left and writes the outputs\n"
    "(docs/grading.md). OUT, DIR and the rubric must be on a file system every\n"
    "node shares; OUT gets the job scripts shard.sh and merge.sh.\n"
    "  --shards N           shards, each its own array task and OUT/journal-K.jsonl\n"
    "  --cpus-per-shard C   CPUs per task, and submissions at once in it (default 1)\n"
    "  --partition P        --time T    --sbatch-arg ARG (repeat): passed to sbatch\n"
    "  --resume             submit again into an OUT whose shards' journals are\n"
    "                       there and whose merge job has not run (each shard\n"
    "                       resumes its own)\n"
    "  --dry-run            write the scripts and print the sbatch commands only\n";

/* grade --help (slurm grade --help): its usage lines, then its sections. */
static void print_help(const char *prog, int slurm)
{
    const char *usage = slurm ? grade_slurm_usage : grade_usage;
    for (const char *line = usage; *line;) {
        size_t len = strcspn(line, "\n");
        printf("%s", line == usage ? "Usage: " : "       ");
        for (size_t k = 0; k < len; k++) {
            if (strncmp(line + k, "%1$s", 4) == 0) {
                fputs(prog, stdout);
                k += 3;
            } else {
                putchar(line[k]);
            }
        }
        putchar('\n');
        line += len + (line[len] == '\n');
    }
    printf("\n%s%s%s --help shows every command.\n", slurm ? slurm_help : "", grade_help,
           prog);
}

enum {
    OPT_RUBRIC = 256, OPT_SUBMISSIONS, OPT_OUT, OPT_CONCURRENCY, OPT_RESUME, OPT_SANDBOX,
    OPT_SHARD, OPT_SANDBOX_RO, OPT_ONLY, OPT_SUBMISSION, OPT_ALL_CHECKS
};

#define GRADE_OPTIONS                                                 \
    { "rubric", required_argument, NULL, OPT_RUBRIC },                \
    { "submissions", required_argument, NULL, OPT_SUBMISSIONS },      \
    { "out", required_argument, NULL, OPT_OUT },                      \
    { "concurrency", required_argument, NULL, OPT_CONCURRENCY },      \
    { "resume", no_argument, NULL, OPT_RESUME },                      \
    { "sandbox", required_argument, NULL, OPT_SANDBOX },              \
    { "shard", required_argument, NULL, OPT_SHARD },                  \
    { "sandbox-ro", required_argument, NULL, OPT_SANDBOX_RO }

/* grade's own: a regrade and a self-check are no cluster's work. */
static const struct option options[] = {
    GRADE_OPTIONS,
    { "only", required_argument, NULL, OPT_ONLY },
    { "submission", required_argument, NULL, OPT_SUBMISSION },
    { "all-checks", no_argument, NULL, OPT_ALL_CHECKS },
    CLI_STD_OPTIONS,
};

/* slurm grade: grade's and the job array's (--concurrency and --shard are
 * there to be refused by name). */
static const struct option slurm_options[] = {
    GRADE_OPTIONS,
    REFOPTS_ARRAY_OPTIONS,
    CLI_STD_OPTIONS,
};

#define JOURNAL_NAME "journal.jsonl"
/* Bytes of a submission's error (why none of its checks ran): a few words
 * and an err.h message. */
#define GRADE_ERROR_MAX (ERR_MSG_MAX + 64)
/* The exit status of a run that left checks not graded (a busy machine):
 * neither success nor the referee's failure (1). */
#define GRADE_EXIT_BUSY 3

/* Set by SIGINT and SIGTERM: the parent stops starting submissions, a
 * worker's copy cancels its engine's move. A signal handler's flag is the
 * one process-wide variable a signal can reach. */
static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
    (void)sig;
    stop_signal = 1;
}

struct grade_run {
    const char *prog;
    struct rubric rb;
    const char *subs_arg;           /* --submissions as given, for messages */
    char subs[PATH_MAX], out[PATH_MAX], work[PATH_MAX], journal[PATH_MAX];
    /* A self-check (--submission): the folder, absolute (subs its parent,
     * the one id its name); "" when grading a class. */
    const char *one_arg;
    char one[PATH_MAX];
    int all_checks;                 /* run the checks that are not visible too */
    int left_out;                   /* checks a self-check does not run */
    /* A regrade (--only): the ids as given, then only[i] for each
     * submission named; NULL when grading the class. */
    const char **only_arg;
    int nonly;
    unsigned char *only;
    char self[PATH_MAX];            /* this binary, /proc/self/exe */
    char bindir[PATH_MAX], prefix[16];
    int concurrency, resume;
    int shard_k, shard_n;           /* grade i when i % n == k - 1 */
    int slurm;                      /* referee slurm grade: cluster's options too */
    struct cluster_opts cluster;
    struct sbx_policy policy;
    /* What a submission's command may name (gradepaths.h): the policy's
     * masks are its hidden places; the system's and --sandbox-ro's seen. */
    struct gpath_places places;
    struct run_limits limits;
    struct cg_root cg;              /* where each run's cgroup goes, when found */
    int n;
    char (*id)[GRADE_ID_MAX];       /* sorted */
    unsigned char *done;            /* done[i * RUBRIC_MAX_CHECKS + k] */
    double *score;                  /* score[i * RUBRIC_MAX_CHECKS + k], when done */
    int journal_fd;
    char header[256];               /* the journal's first line */
    struct gcheck_env env;          /* the class's (reference outputs) */
    int tty;                        /* stderr is a terminal: a progress line */
    int graded, wanted;             /* submissions graded by this run, to grade */
    int busy;                       /* checks a busy machine kept from grading */
};

/* a/b into buf (PATH_MAX bytes); 0, or -1 when too long (buf unchanged). */
static int join(char *buf, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la + 1 + lb >= PATH_MAX)
        return -1;
    memmove(buf, a, la);
    buf[la] = '/';
    memcpy(buf + la + 1, b, lb + 1);
    return 0;
}

/* ---- the options and the class's folders ---------------------------- */

/* "K/N" into k and n; 0, or -1. */
static int shard(const char *text, int *k, int *n)
{
    int used = 0;
    return sscanf(text, "%d/%d%n", k, n, &used) == 2 && !text[used] && *n >= 1 && *k >= 1 &&
                   *k <= *n && *n <= GRADE_MAX_SHARDS
               ? 0 : -1;
}

/* slurm grade's own option c (cluster.h's): 0 applied, 1 not one of them,
 * or a usage error's status. */
static int parse_slurm(struct grade_run *g, int c)
{
    char name[64];
    struct err e;
    if (c == OPT_SHARD || c == OPT_CONCURRENCY)
        return cli_usage(g->prog, "slurm grade: --shard and --concurrency are the shards' own "
                         "(K/N of the array task, --cpus-per-shard)");
    refopts_option_flag(c, name, sizeof name);
    int rc = refopts_cluster_apply(&g->cluster, c, name, optarg ? optarg : "", &e);
    if (rc < 0)
        return cli_usage(g->prog, "slurm grade: %s", e.msg);
    return rc == REFOPTS_NOT_MINE ? 1 : 0;
}

/* --only ID: one more id, kept as given (list_class knows them). */
static int add_only(struct grade_run *g, int argc, const char *id)
{
    if (!g->only_arg && !(g->only_arg = calloc((size_t)argc, sizeof *g->only_arg)))
        return cli_usage(g->prog, "grade: out of memory");
    g->only_arg[g->nonly++] = id;   /* at most one per argument */
    return 0;
}

/* The options that go together, once all are read: 0, or a usage error's
 * status. */
static int parse_combined(const struct grade_run *g, const char *rubric)
{
    if (g->one_arg && g->subs[0])
        return cli_usage(g->prog, "grade: --submission (one folder) and --submissions (a "
                         "class) exclude each other");
    if (g->nonly && (g->one_arg || g->resume || g->shard_n))
        return cli_usage(g->prog, "grade: --only regrades submissions of a finished "
                         "--submissions grading: not with --submission, --resume or --shard");
    if (g->all_checks && !g->one_arg)
        return cli_usage(g->prog, "grade: --all-checks goes with --submission (a class is "
                         "graded on every check)");
    if (g->one_arg && g->shard_n)
        return cli_usage(g->prog, "grade: --shard splits a class: not with --submission");
    if (g->one_arg && !rubric)
        return cli_usage(g->prog, "grade: --rubric is required");
    if (!g->one_arg && (!rubric || !g->subs[0] || !g->out[0]))
        return cli_usage(g->prog, "grade: --rubric, --submissions and --out are required%s",
                         g->slurm ? "" : " (or --rubric and --submission)");
    return 0;
}

static int parse(struct grade_run *g, int argc, char **argv, const char **rubric)
{
    struct cli_parse p = { .prog = g->prog, .cmd = g->slurm ? "slurm grade" : "grade",
                           .opts = g->slurm ? slurm_options : options,
                           .help = NULL, .argc = argc, .argv = argv };
    int c, rc;
    long v;
    struct err e;
    *rubric = NULL;
    while ((c = cli_next(&p)) != -1) {
        if (c == CLI_BAD || c == CLI_DONE)
            return c == CLI_DONE ? -1 : EXIT_BAD_INPUT;
        if (c == CLI_OPT_HELP)
            return print_help(g->prog, g->slurm), -1;
        if (g->slurm && (rc = parse_slurm(g, c)) != 1) {
            if (rc)
                return rc;
        } else if (c == OPT_RUBRIC)
            *rubric = optarg;
        else if (c == OPT_SUBMISSIONS)
            snprintf(g->subs, sizeof g->subs, "%s", g->subs_arg = optarg);
        else if (c == OPT_OUT)
            snprintf(g->out, sizeof g->out, "%s", optarg);
        else if (c == OPT_RESUME)
            g->resume = 1;
        else if (c == OPT_CONCURRENCY && cli_int(optarg, 1, TOUR_MAX_CONCURRENCY, &v) == 0)
            g->concurrency = (int)v;
        else if (c == OPT_CONCURRENCY)
            return cli_usage(g->prog, "grade: --concurrency must be a whole number from 1 to %d",
                             TOUR_MAX_CONCURRENCY);
        else if (c == OPT_SANDBOX && strcmp(optarg, "namespaces") && strcmp(optarg, "none"))
            return cli_usage(g->prog, "grade: --sandbox must be namespaces or none");
        else if (c == OPT_SANDBOX)
            g->policy.mode = strcmp(optarg, "none") == 0 ? SBX_NONE : SBX_NAMESPACES;
        else if (c == OPT_SANDBOX_RO && sbx_paths_add(&g->policy.ro, optarg, &e) != 0)
            return cli_usage(g->prog, "grade: --sandbox-ro %s: %s", optarg, e.msg);
        else if (c == OPT_SHARD && shard(optarg, &g->shard_k, &g->shard_n) != 0)
            return cli_usage(g->prog, "grade: --shard must be K/N with 1 <= K <= N, got '%s'",
                             optarg);
        else if (c == OPT_ONLY && (rc = add_only(g, argc, optarg)) != 0)
            return rc;
        else if (c == OPT_SUBMISSION)
            g->one_arg = optarg;
        else if (c == OPT_ALL_CHECKS)
            g->all_checks = 1;
    }
    if (optind < argc)
        return cli_usage(g->prog, "grade: unexpected argument '%s'", argv[optind]);
    if ((rc = parse_combined(g, *rubric)) != 0)
        return rc;
    if (g->slurm && !g->cluster.shards)
        return cli_usage(g->prog, "slurm grade: --shards is required");
    return 0;
}

static int cmp_id(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* What is graded of each of the g->n submissions and its score, none yet.
 * 0, or -1 with e. */
static int alloc_marks(struct grade_run *g, struct err *e)
{
    g->done = calloc((size_t)g->n * RUBRIC_MAX_CHECKS, 1);
    g->score = calloc((size_t)g->n * RUBRIC_MAX_CHECKS, sizeof *g->score);
    return g->done && g->score ? 0 : err_set(e, 0, 0, "out of memory");
}

/* The submissions: DIR's folders, hidden ones skipped, sorted. */
static int list_class(struct grade_run *g, struct err *e)
{
    DIR *d = opendir(g->subs);
    if (!d)
        return err_set(e, 0, 0, "--submissions %s: %s", g->subs_arg, strerror(errno));
    struct dirent *de;
    int cap = 0;
    while ((de = readdir(d))) {
        char path[PATH_MAX];
        struct stat st;
        if (de->d_name[0] == '.' || strlen(de->d_name) >= GRADE_ID_MAX ||
            join(path, g->subs, de->d_name) != 0 ||
            lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        if (g->n == cap) {
            cap = cap ? cap * 2 : 64;
            void *grown = realloc(g->id, (size_t)cap * sizeof *g->id);
            if (!grown) {
                closedir(d);
                return err_set(e, 0, 0, "out of memory");
            }
            g->id = grown;
        }
        snprintf(g->id[g->n++], GRADE_ID_MAX, "%s", de->d_name);
    }
    closedir(d);
    if (g->n == 0)
        return err_set(e, 0, 0, "--submissions %s: no submission folder in it", g->subs_arg);
    qsort(g->id, (size_t)g->n, sizeof *g->id, cmp_id);
    return alloc_marks(g, e);
}

/* The suite's own programs beside this one, for io references: the
 * folder of /proc/self/exe, and the prefix of its name before "referee"
 * ("arena-" once installed). */
static void own_folder(struct grade_run *g)
{
    ssize_t n = readlink("/proc/self/exe", g->self, sizeof g->self - 1);
    g->self[n > 0 && n < (ssize_t)sizeof g->self - 1 ? n : 0] = '\0';
    snprintf(g->bindir, sizeof g->bindir, "%s", g->self);
    char *slash = strrchr(g->bindir, '/');
    const char *base = slash ? slash + 1 : g->bindir;
    const char *at = strstr(base, "referee");
    snprintf(g->prefix, sizeof g->prefix, "%.*s", at ? (int)(at - base) : 0, base);
    if (slash)
        *slash = '\0';
}

/* ---- the journal -------------------------------------------------------- */

/* The journal's first line, into g->header. */
static void journal_header(struct grade_run *g)
{
    snprintf(g->header, sizeof g->header,
             "{\"schema\":\"%s\",\"rubric_sha256\":\"%s\",\"seed\":\"%llu\"}", GJOUR_SCHEMA,
             g->rb.sha256, (unsigned long long)g->rb.seed);
}

static int index_of(const struct grade_run *g, const char *id)
{
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->id[i], id) == 0)
            return i;
    return -1;
}

static int check_of(const struct rubric *rb, const char *id)
{
    for (int k = 0; k < rb->ncheck; k++)
        if (strcmp(rb->check[k].id, id) == 0)
            return k;
    return -1;
}

/* A journal record's submission and check, as indices (-1: not of this
 * class or rubric). */
static void record_place(const struct grade_run *g, const cJSON *rec, int *i, int *k)
{
    const cJSON *sub = cJSON_GetObjectItemCaseSensitive(rec, "submission");
    const cJSON *id = cJSON_GetObjectItemCaseSensitive(sub, "id");
    const cJSON *check = cJSON_GetObjectItemCaseSensitive(rec, "check");
    *i = cJSON_IsString(id) ? index_of(g, id->valuestring) : -1;
    *k = cJSON_IsString(check) ? check_of(&g->rb, check->valuestring) : -1;
}

/* A journal's record of submission i and check k: done, and its score
 * (what the checks that require it are judged by). */
static void mark(struct grade_run *g, int i, int k, const cJSON *rec)
{
    g->done[i * RUBRIC_MAX_CHECKS + k] = 1;
    g->score[i * RUBRIC_MAX_CHECKS + k] = cJSON_GetNumberValue(cJSON_GetObjectItem(rec, "score"));
}

static int mark_done(void *ctx, const cJSON *rec, int line, struct err *e)
{
    (void)line;
    (void)e;
    struct grade_run *g = ctx;
    int i, k;
    record_place(g, rec, &i, &k);
    if (i >= 0 && k >= 0)
        mark(g, i, k, rec);
    return 0;
}

/* 1 when name is that of a shard's journal, journal-K.jsonl. */
static int shard_journal_name(const char *name)
{
    size_t len = strlen(name);
    return strncmp(name, "journal-", 8) == 0 && len > 14 && strcmp(name + len - 6, ".jsonl") == 0;
}

/* What is done to a shard's journal: scanned (fn) or rewritten (keep). */
struct shard_visit {
    gjour_fn fn;
    gjour_keep_fn keep;
    void *ctx;
};

/* Visits every shard journal in OUT (journal-K.jsonl), in name order, but
 * the run's own. 0, or -1 with e naming the file. */
static int each_shard(const struct grade_run *g, const struct shard_visit *v, struct err *e)
{
    struct dirent **names;
    int n = scandir(g->out, &names, NULL, alphasort), rc = 0;
    if (n < 0)
        return err_set(e, 0, 0, "%s: %s", g->out, strerror(errno));
    for (int i = 0; i < n; i++) {
        const char *name = names[i]->d_name;
        char path[PATH_MAX];
        if (!rc && shard_journal_name(name) && join(path, g->out, name) == 0 &&
            strcmp(path, g->journal) != 0)
            rc = v->fn ? gjour_scan(path, g->header, v->fn, v->ctx, e)
                       : gjour_rewrite(path, g->header, v->keep, v->ctx, NULL, e);
        free(names[i]);
    }
    free(names);
    return rc;
}

/* Calls gjour_scan(fn) on every shard journal in OUT. */
static int scan_shards(const struct grade_run *g, gjour_fn fn, void *ctx, struct err *e)
{
    struct shard_visit v = { .fn = fn, .ctx = ctx };
    return each_shard(g, &v, e);
}

/* A regrade's rewrite keeps every record but those of the submissions
 * named, and marks what it keeps done. */
static int keep_unnamed(void *ctx, const cJSON *rec)
{
    struct grade_run *g = ctx;
    int i, k;
    record_place(g, rec, &i, &k);
    if (i >= 0 && g->only[i])
        return 0;
    if (i >= 0 && k >= 0)
        mark(g, i, k, rec);
    return 1;
}

/* A regrade's journals: OUT's own and every shard's rewritten without the
 * named submissions' records (a shard's would otherwise outvote the new
 * ones in the outputs), the own one left open in g->journal_fd. */
static int regrade_open(struct grade_run *g, struct err *e)
{
    if (gjour_rewrite(g->journal, g->header, keep_unnamed, g, &g->journal_fd, e) != 0)
        return -1;
    struct shard_visit v = { .keep = keep_unnamed, .ctx = g };
    if (each_shard(g, &v, e) == 0)
        return 0;
    close(g->journal_fd);
    return -1;
}

/* 1 when this run grades submission i (what its journals lack of it):
 * its shard's, or one --only names. */
static int to_grade(const struct grade_run *g, int i)
{
    return (!g->shard_n || i % g->shard_n == g->shard_k - 1) && (!g->only || g->only[i]);
}

static int submission_done(const struct grade_run *g, int i)
{
    for (int k = 0; k < g->rb.ncheck; k++)
        if (!g->done[i * RUBRIC_MAX_CHECKS + k])
            return 0;
    return 1;
}

/* ---- a submission, in its worker ---------------------------------------- */

static void run_free(struct grade_run *g);

/* The submission's folder (DIR/ID) copied into dst by descriptor within
 * its limits (limits.h's GRADE_COPY_*), its files hashed as copied
 * (grade.h's order). 0; GCOPY_FAULT with e saying what of the submission
 * is refused (its own error); -1 with e (writing OUT/.work: the referee's). */
static int copy_in(const char *src, const char *dst, char sha[SHA256_HEX], struct err *e)
{
    static const struct gcopy_limits lim = { GRADE_COPY_MAX_BYTES, GRADE_COPY_MAX_ENTRIES,
                                             GRADE_COPY_MAX_DEPTH, 0 };
    /* Its own folder never through a link either: one swapped in after the
     * class was listed is refused. */
    int from = open(src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (from < 0 && (errno == ELOOP || errno == ENOTDIR || errno == ENOENT))
        err_set(e, 0, 0, "its folder changed after the class was listed (%s)",
                errno == ENOENT ? "it is gone" : "it is no folder now: a link or a file");
    else if (from < 0)
        err_set(e, 0, 0, "its folder cannot be read: %s", strerror(errno));
    if (from < 0)
        return GCOPY_FAULT;
    int to = open(dst, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int rc = to < 0 ? err_set(e, 0, 0, "%s: %s", dst, strerror(errno))
                    : gcopy_tree(from, to, &lim, sha, e);
    if (to >= 0)
        close(to);
    close(from);
    return rc;
}

/* The ENGINE file's first line (a command replacing the rubric's) into
 * buf, or "" when the submission has none. */
static void engine_file(const char *dir, char *buf, size_t cap)
{
    char path[PATH_MAX], *text;
    size_t len;
    struct err e;
    buf[0] = '\0';
    int w = snprintf(path, sizeof path, "%s/ENGINE", dir);
    if (w < 0 || (size_t)w >= sizeof path || tf_read(path, 4096, &text, &len, &e) != 0)
        return;
    size_t n = strcspn(text, "\r\n");
    snprintf(buf, cap, "%.*s", (int)n, text);
    free(text);
}

/* What a worker knows of its submission, the "submission" object of each
 * of its records. */
struct prepared {
    char src[PATH_MAX], scratch[PATH_MAX], root[PATH_MAX];
    char sha[SHA256_HEX];
    char engine[4096];
    int own_engine, built;       /* built: 1 ok, 0 failed, -1 no build */
    char log[GRADE_BUILD_TAIL + 1];
    struct spec eng;
    int eng_ok;
    char eng_err[ERR_MSG_MAX];
    /* Why none of its checks ran, its own fault (its name, its folder, its
     * build): its row's error; "" when they ran. */
    char error[GRADE_ERROR_MAX];
};

static cJSON *about_json(const struct prepared *p, const char *id)
{
    cJSON *a = cJSON_CreateObject();
    cJSON_AddStringToObject(a, "id", id);
    cJSON_AddStringToObject(a, "sha256", p->sha);
    if (p->engine[0])
        cJSON_AddStringToObject(a, "engine", p->engine);
    cJSON_AddBoolToObject(a, "engine_file", p->own_engine);
    if (p->built >= 0) {
        cJSON *b = cJSON_AddObjectToObject(a, "build");
        cJSON_AddBoolToObject(b, "ok", p->built);
        cJSON_AddStringToObject(b, "log", p->log);
    }
    if (!p->eng_ok && p->eng_err[0])
        cJSON_AddStringToObject(a, "cannot_run", p->eng_err);
    if (p->error[0])
        cJSON_AddStringToObject(a, "error", p->error);
    return a;
}

/* Why a build that ran failed, into why (cap bytes): the run's reason
 * (forfeit.h), a file-size limit named, since the shell reports a command it
 * lost to SIGXFSZ as its exit status 128 + SIGXFSZ. */
static void build_reason(const struct run_result *r, char *why, size_t cap)
{
    char reason[REC_REASON_MAX], size[32];
    forfeit_run_reason(r, reason);
    if (r->end == RUN_FILE_LIMIT || (r->end == RUN_EXITED && r->status == 128 + SIGXFSZ))
        snprintf(why, cap, "%s: it wrote a file past %s, the most a build may write",
                 reason, gcopy_size_text((long long)GRADE_BUILD_FILE_LIMIT_KB << 10, size));
    else
        snprintf(why, cap, "%s", reason);
}

/* The build: sh -c in its sandbox, in the move folder (a tmpfs of its own)
 * holding a copy of the submission, everything there then copied back over
 * the submission's copy; its log's tail kept. */
static int build(const struct grade_run *g, struct prepared *p, struct err *e)
{
    struct run_limits lim = g->limits;
    lim.timeout_ms = g->rb.build_timeout_ms;   /* wall time: a build may wait */
    lim.cpu_limit_s = 0;
    lim.cpu_ms = 0;
    /* A file no larger than its move folder, a sparse one included. */
    lim.file_limit_kb = GRADE_BUILD_FILE_LIMIT_KB;
    char dir[PATH_MAX];
    if (join(dir, p->root, "build") != 0 || mkdir(dir, 0700) != 0)
        return err_set(e, 0, 0, "%s/build: cannot make it", p->root);
    size_t cap = strlen(g->rb.build) + PATH_MAX + 64;
    char *text = malloc(cap);
    if (!text)
        return err_set(e, 0, 0, "out of memory");
    long len = snprintf(text, cap, "cp -R ");
    len = spec_quote(p->src, text, cap, (size_t)len);
    if (len >= 0)
        snprintf(text + len, cap - (size_t)len, "/. . && %s", g->rb.build);
    struct gcheck_shell_args a = { .text = text, .workdir = p->src, .cwd = dir, .rw = dir,
                                   .policy = &g->policy, .limits = &lim,
                                   .acct = g->env.rules.acct, .back = p->src };
    struct run_result r;
    int rc = len < 0 ? err_set(e, 0, 0, "a path too long") : gcheck_shell(&a, &r, e);
    free(text);
    if (rc && rc != GCOPY_FAULT)
        return -1;
    /* A folder past its limits is not copied back: the build's fault. */
    p->built = !rc && r.end == RUN_EXITED && r.status == 0;
    size_t from = r.out.len > GRADE_BUILD_TAIL ? r.out.len - GRADE_BUILD_TAIL : 0;
    tf_utf8_copy(p->log, r.out.text + from, r.out.len - from);
    if (!p->built) {
        char why[ERR_MSG_MAX + 32];
        if (rc)
            snprintf(why, sizeof why, "its folder is not copied back: %s", e->msg);
        else
            build_reason(&r, why, sizeof why);
        size_t n = strlen(p->log);
        snprintf(p->log + n, sizeof p->log - n, "%s[build failed: %s]", n ? "\n" : "", why);
        snprintf(p->error, sizeof p->error, "the build failed: %s", why);
    }
    return 0;
}

/* A submission's engine, resolved, against the places it may name
 * (gradepaths.h): one that names a place outside its copy and the system
 * is its error, since the sandbox would show that place. Engines run only
 * for the game checks, and see everything without the sandbox. */
static void judge_engine(const struct grade_run *g, struct prepared *p)
{
    static const char prefix[] = "not graded: ";
    if (g->policy.mode != SBX_NAMESPACES || !g->rb.game)
        return;
    /* The words as written, for the message: spec_resolve made some
     * absolute. The command split once already, so this split cannot fail
     * but for memory, and then the resolved words are quoted. */
    char *written[RUN_MAX_ARGS];
    struct err ignored;
    int split = spec_split(p->engine, written, RUN_MAX_ARGS, &ignored) >= 0;
    snprintf(p->error, sizeof p->error, "%s", prefix);
    if (gpath_check_engine(&p->eng, split ? written : NULL, p->src, &g->places,
                           p->own_engine ? "ENGINE" : "the rubric's engine",
                           p->error + strlen(prefix), sizeof p->error - strlen(prefix)) == 0)
        p->error[0] = '\0';
    if (split)
        spec_split_free(written);
}

/* Copy, hash, build, engine. 0, with p->error saying why no check runs
 * when that is the submission's own fault (its name, its folder, its
 * build: the class goes on), or -1 with e (the referee's failure). */
static int prepare(const struct grade_run *g, int i, struct prepared *p, struct err *e)
{
    char from[PATH_MAX];
    const char *own = gout_own_name(g->id[i]);
    p->built = -1;
    if (own) {
        snprintf(p->error, sizeof p->error, "not graded: its name clashes with OUT's own %s: "
                 "rename its folder", own);
        return 0;
    }
    if (join(from, g->subs, g->id[i]) || join(p->root, g->work, g->id[i]) ||
        join(p->src, p->root, "src") || join(p->scratch, p->root, "scratch")) {
        snprintf(p->error, sizeof p->error, "not graded: its name is too long for --out's path");
        return 0;
    }
    tf_remove_tree(p->root);
    if (mkdir(p->root, 0700) != 0 || mkdir(p->src, 0755) != 0 || mkdir(p->scratch, 0700) != 0)
        return err_set(e, 0, 0, "%s: %s", p->root, strerror(errno));
    int rc = copy_in(from, p->src, p->sha, e);
    if (rc == GCOPY_FAULT) {
        p->sha[0] = '\0';   /* of files it does not grade */
        snprintf(p->error, sizeof p->error, "not copied: %s", e->msg);
        return 0;
    }
    if (rc)
        return -1;
    engine_file(p->src, p->engine, sizeof p->engine);
    p->own_engine = p->engine[0] != 0;
    if (!p->own_engine && g->rb.engine)
        snprintf(p->engine, sizeof p->engine, "%s", g->rb.engine);
    if (g->rb.build && build(g, p, e) != 0)
        return -1;
    if (!p->engine[0] || p->built == 0)
        return 0;
    struct err se;
    p->eng_ok = spec_keys_set(&p->eng.keys, "name", "submission", &se) == 0 &&
                spec_keys_set(&p->eng.keys, "cmd", p->engine, &se) == 0 &&
                spec_keys_set(&p->eng.keys, "dir", p->src, &se) == 0 &&
                spec_keys_set(&p->eng.keys, "proto", spec_proto_name(g->rb.proto), &se) == 0 &&
                spec_resolve(&p->eng, NULL, &se) == 0 && spec_check(&p->eng, &se) == 0;
    if (!p->eng_ok)
        snprintf(p->eng_err, sizeof p->eng_err, "%s", se.msg);
    else
        judge_engine(g, p);
    return 0;
}

/* rec, unformatted, as a line of the answer; rec is freed. 0, or -1. */
static int send_line(int fd, cJSON *rec)
{
    char *text = cJSON_PrintUnformatted(rec);
    cJSON_Delete(rec);
    int rc = !text || tf_write_all(fd, text, strlen(text)) != 0 || tf_write_all(fd, "\n", 1);
    free(text);
    return rc ? -1 : 0;
}

/* The record of check k: {"submission": about, "check", "score", "max",
 * "output", "evidence"}, unformatted, into the answer. */
static int send_record(int fd, cJSON *about, const char *check, double score, double max,
                       const char *output, cJSON *evidence)
{
    cJSON *rec = cJSON_CreateObject();
    cJSON_AddItemToObject(rec, "submission", cJSON_Duplicate(about, 1));
    cJSON_AddStringToObject(rec, "check", check);
    cJSON_AddNumberToObject(rec, "score", score);
    cJSON_AddNumberToObject(rec, "max", max);
    cJSON_AddStringToObject(rec, "output", output);
    cJSON_AddItemToObject(rec, "evidence", evidence ? evidence : cJSON_CreateObject());
    return send_line(fd, rec);
}

/* A check that cannot run (no build, no engine): 0 points, and why. */
static int send_zero(int fd, cJSON *about, const struct rubric_check *ch, const char *why)
{
    return send_record(fd, about, ch->id, 0, ch->points, why, NULL);
}

/* Check k's prerequisites (rubric_requires) against what submission i
 * scored: unmet, no points, and the output says why and what it would have
 * been. 0, or -1 when out of memory. */
static int requires(struct grade_run *g, int i, int k, struct gcheck_result *res)
{
    char why[256];
    int met = rubric_requires(&g->rb, k, &g->score[i * RUBRIC_MAX_CHECKS],
                              &g->done[i * RUBRIC_MAX_CHECKS], why, sizeof why);
    assert(met >= 0);   /* the checks before it were graded, or it waits */
    if (met)
        return 0;
    size_t cap = strlen(why) + strlen(res->output) + 64;
    char *out = malloc(cap), a[32];
    if (!out)
        return -1;
    snprintf(out, cap, "no points: %s (without that: %s; %s)", why, gout_score(res->score, a),
             res->output);
    free(res->output);
    res->output = out;
    res->score = 0;
    return 0;
}

/* A check left not graded, for the next --resume: a line the parent shows
 * and never journals. */
static int send_busy(int fd, cJSON *about, const struct rubric_check *ch)
{
    cJSON *rec = cJSON_CreateObject();
    cJSON_AddItemToObject(rec, "submission", cJSON_Duplicate(about, 1));
    cJSON_AddStringToObject(rec, "check", ch->id);
    cJSON_AddBoolToObject(rec, "busy", 1);
    return send_line(fd, rec);
}

/* Check k of submission i run, its prerequisites applied, its record sent.
 * 0, 1 when cancelled, or -1 with e. */
static int grade_one(struct grade_run *g, const struct gcheck_env *env, int i, int k,
                     cJSON *about, int fd, struct err *e)
{
    const struct rubric_check *ch = &g->rb.check[k];
    size_t row = (size_t)i * RUBRIC_MAX_CHECKS;
    char why[8];
    /* A prerequisite a busy machine kept from grading: this one waits too. */
    if (rubric_requires(&g->rb, k, &g->score[row], &g->done[row], why, sizeof why) < 0)
        return send_busy(fd, about, ch);
    struct gcheck_result res;
    int rc = gcheck_run(env, k, &res, e);
    if (rc == GCHECK_BUSY)
        return send_busy(fd, about, ch);
    if (rc)
        return rc;
    if (stop_signal) {   /* its last runs may have been cancelled */
        gcheck_result_free(&res);
        return 1;
    }
    rc = requires(g, i, k, &res) ? err_set(e, 0, 0, "out of memory") : 0;
    if (!rc) {
        g->done[row + (size_t)k] = 1;   /* this worker's copy */
        g->score[row + (size_t)k] = res.score;
        rc = send_record(fd, about, ch->id, res.score, res.max, res.output, res.evidence);
        res.evidence = NULL;
    }
    gcheck_result_free(&res);
    return rc;
}

static int grade_checks(struct grade_run *g, int i, struct prepared *p, int fd, struct err *e)
{
    cJSON *about = about_json(p, g->id[i]);
    struct gcheck_env env = g->env;
    env.rules.sandbox = &g->policy;
    env.rules.limits.cancel = &stop_signal;
    env.rules.limits.reap_all = 1;
    env.eng = p->eng_ok ? &p->eng : NULL;
    env.workdir = p->src;
    env.scratch = p->scratch;
    char bench[PATH_MAX];
    join(bench, p->root, "bench.json");   /* fits: prepare made longer ones */
    env.bench_json = bench;
    int rc = 0;
    for (int k = 0; !rc && k < g->rb.ncheck; k++) {
        size_t at = (size_t)i * RUBRIC_MAX_CHECKS + (size_t)k;
        char why[GRADE_ERROR_MAX] = "";
        if (g->done[at])
            continue;
        if (p->error[0])   /* its name, its folder, its build */
            snprintf(why, sizeof why, "%s", p->error);
        else if (g->rb.check[k].kind != RUBRIC_IO && !p->eng_ok)
            snprintf(why, sizeof why, "cannot run the engine: %s", p->eng_err);
        if (!why[0]) {
            rc = grade_one(g, &env, i, k, about, fd, e);
            continue;
        }
        rc = send_zero(fd, about, &g->rb.check[k], why);
        g->done[at] = 1;   /* this worker's copy: its prerequisites' scores */
        g->score[at] = 0;
    }
    cJSON_Delete(about);
    return rc;
}

/* In a worker: grades submission i, its records the answer. */
static int grade_job(void *ctx, long job, int slot, int fd)
{
    (void)slot;   /* a submission's runs are not held to CPUs of its own */
    struct grade_run *g = ctx;
    int i = (int)job;
    close(g->journal_fd);   /* the parent's, and its lock */
    run_become_reaper();
    struct prepared *p = calloc(1, sizeof *p);
    struct err e;
    int rc = p ? prepare(g, i, p, &e) : err_set(&e, 0, 0, "out of memory");
    if (!rc)
        rc = grade_checks(g, i, p, fd, &e);
    if (rc < 0)
        err_print(stderr, g->prog, &e);
    if (p) {
        spec_free(&p->eng);
        tf_remove_tree(p->root);
    }
    free(p);
    int status = stop_signal ? POOL_CANCELLED : rc < 0 ? POOL_FAILED : rc ? POOL_CANCELLED : 0;
    run_free(g);   /* the parent's copy of the run: nothing uses it after the job */
    return status;
}

/* ---- the parent: workers, journal, outputs ------------------------------- */

/* A worker ended: its records go to the journal, a line to the terminal. */
static int job_done(void *ctx, long job, int status, char *answer, size_t len, struct err *e)
{
    struct grade_run *g = ctx;
    double total = 0, max = 0;
    int n = 0, busy = 0;
    char id[ESC_ROOM(GRADE_ID_MAX)], error[ESC_ROOM(GRADE_ERROR_MAX)] = "";
    esc_text(g->id[job], id, sizeof id);   /* a folder's name: any bytes */
    (void)len;
    for (char *line = answer, *nl; *line; line = nl + 1) {
        if (!(nl = strchr(line, '\n')))
            break;   /* cut short: the worker died writing it */
        *nl = '\0';
        cJSON *rec = cJSON_Parse(line);
        int i, k;
        record_place(g, rec, &i, &k);
        if (i == (int)job && k >= 0 && cJSON_IsTrue(cJSON_GetObjectItem(rec, "busy"))) {
            printf("%s: check %s not graded: the machine was too busy for its moves "
                   "(%d tries); grade --resume grades it\n", id, g->rb.check[k].id,
                   GRADE_BUSY_RETRIES + 1);
            busy++;
            g->busy++;
        } else if (i == (int)job && k >= 0 && !g->done[i * RUBRIC_MAX_CHECKS + k]) {
            if (journal_append(g->journal_fd, line, e) != 0) {
                cJSON_Delete(rec);
                return -1;
            }
            g->done[i * RUBRIC_MAX_CHECKS + k] = 1;
            total += cJSON_GetNumberValue(cJSON_GetObjectItem(rec, "score"));
            max += cJSON_GetNumberValue(cJSON_GetObjectItem(rec, "max"));
            n++;
            const char *why = cJSON_GetStringValue(
                cJSON_GetObjectItem(cJSON_GetObjectItem(rec, "submission"), "error"));
            if (why)
                esc_text(why, error, sizeof error);
        }
        cJSON_Delete(rec);
    }
    char a[32], b[32];
    if (g->tty)
        fputs("\r\033[K", stderr);   /* the progress line, redrawn below */
    if (status == 0 && busy)
        printf("%s: %s of %s points so far, %d check%s not graded\n", id,
               gout_score(total, a), gout_score(max, b), busy, busy == 1 ? "" : "s");
    else if (status == 0)
        printf("%s: %s of %s points%s%s\n", id, gout_score(total, a), gout_score(max, b),
               error[0] ? ": " : "", error);
    else
        printf("%s: stopped after %d of its checks\n", id, n);
    fflush(stdout);
    g->graded++;
    if (g->tty)
        fprintf(stderr, "graded %d of %d submissions", g->graded, g->wanted);
    if (status != 0 && status != POOL_CANCELLED && !stop_signal)
        return err_set(e, 0, 0, "grading %s failed (worker status %d)", g->id[job], status);
    return 0;
}

static int grade_loop(struct grade_run *g, struct err *e)
{
    struct pool pool;
    if (pool_init(&pool, g->concurrency) != 0)
        return err_set(e, 0, 0, "out of memory");
    int next = 0, rc = 0;
    for (int i = 0; i < g->n; i++)
        g->wanted += to_grade(g, i) && !submission_done(g, i);
    for (;;) {
        while (!rc && !stop_signal && pool.running < pool.cap && next < g->n) {
            if (!to_grade(g, next) || submission_done(g, next)) {
                next++;
                continue;
            }
            rc = pool_start(&pool, next++, grade_job, g, e);
        }
        if (pool.running == 0)
            break;
        if (stop_signal)
            pool_signal(&pool, SIGTERM);
        if (pool_wait(&pool, 200, job_done, g, e) != 0 && !rc)
            rc = -1;
    }
    pool_free(&pool);
    if (g->tty && g->graded)
        fputs("\r\033[K", stderr);
    return rc;
}

/* The journal read back into the class's rows. */
struct collect {
    const struct grade_run *g;
    struct gout_class *c;
    cJSON *keep;     /* every record, owned: the rows point into them */
};

static int collect_one(void *ctx, const cJSON *rec, int line, struct err *e)
{
    (void)line;
    (void)e;
    struct collect *c = ctx;
    int i, k;
    record_place(c->g, rec, &i, &k);
    if (i < 0 || k < 0)
        return 0;
    cJSON *copy = cJSON_Duplicate(rec, 1);
    cJSON_AddItemToArray(c->keep, copy);
    struct gout_row *row = &c->c->row[i];
    struct gout_cell *cell = &row->cell[k];
    cell->done = 1;
    cell->score = cJSON_GetNumberValue(cJSON_GetObjectItem(copy, "score"));
    cell->max = cJSON_GetNumberValue(cJSON_GetObjectItem(copy, "max"));
    cell->output = cJSON_GetStringValue(cJSON_GetObjectItem(copy, "output"));
    cell->evidence = cJSON_GetObjectItem(copy, "evidence");
    row->about = cJSON_GetObjectItem(copy, "submission");
    const char *sha = cJSON_GetStringValue(cJSON_GetObjectItem(row->about, "sha256"));
    snprintf(row->sha256, sizeof row->sha256, "%s", sha ? sha : "");
    return 0;
}

/* The feedback pages and the class's page. */
static int pages(const struct gout_class *c, const char *out, struct err *e)
{
    for (int i = 0; i < c->n; i++) {
        char dir[PATH_MAX];
        if (!gout_rewritten(c, i) || gout_own_name(c->row[i].id))
            continue;   /* an id refused for OUT's own name has no folder */
        char *text = ghtml_feedback(c, &c->row[i]);
        if (join(dir, out, c->row[i].id) != 0 ||
            gout_put(dir, "feedback.html", text, text ? strlen(text) : 0, e) != 0)
            return -1;
    }
    char *text = ghtml_index(c);
    return gout_put(out, "index.html", text, text ? strlen(text) : 0, e);
}

/* A self-check's end: its check by check, where its feedback is, and what
 * it did not run. */
static void self_report(const struct grade_run *g, const struct gout_class *c)
{
    gout_report(c, &c->row[0], stdout);
    if (g->left_out)
        printf("%d more check%s not visible to students: not run in a self-check\n",
               g->left_out, g->left_out == 1 ? " is" : "s are");
    if (gout_own_name(g->id[0]))
        return;   /* not graded, no folder: its error is on its lines */
    fputs("feedback: ", stdout);
    esc_fputs(g->out, stdout);
    putchar('/');
    esc_fputs(g->id[0], stdout);
    fputs("/feedback.html\n", stdout);
}

static int outputs(struct grade_run *g, struct err *e)
{
    struct gout_class c = { .rb = &g->rb, .n = g->n, .only = g->only,
                            .row = calloc((size_t)g->n, sizeof *c.row) };
    struct collect col = { g, &c, cJSON_CreateArray() };
    int rc = !c.row || !col.keep ? err_set(e, 0, 0, "out of memory") : 0;
    for (int i = 0; !rc && i < g->n; i++)
        snprintf(c.row[i].id, sizeof c.row[i].id, "%s", g->id[i]);
    if (!rc)
        rc = gjour_scan(g->journal, g->header, collect_one, &col, e) ||
             scan_shards(g, collect_one, &col, e);
    for (int i = 0; !rc && i < g->n; i++)
        for (int k = 0; k < g->rb.ncheck; k++)
            c.row[i].total += c.row[i].cell[k].score;
    if (!rc)
        rc = gout_write(&c, g->out, e) || pages(&c, g->out, e);
    if (!rc) {
        putchar('\n');
        if (g->one_arg)
            self_report(g, &c);
        else
            gout_table(&c, stdout);
    }
    cJSON_Delete(col.keep);
    free(c.row);
    return rc;
}

/* A self-check's folder: the one submission, its id its name, subs its
 * parent; OUT a new folder under $TMPDIR unless given. */
static int one_folder(struct grade_run *g, struct err *e)
{
    struct stat st;
    if (!realpath(g->one_arg, g->one) || stat(g->one, &st) != 0)
        return err_set(e, 0, 0, "--submission %s: %s", g->one_arg, strerror(errno));
    char *slash = strrchr(g->one, '/');
    if (!S_ISDIR(st.st_mode) || !slash[1] || strlen(slash + 1) >= GRADE_ID_MAX)
        return err_set(e, 0, 0, "--submission %s: not a submission's folder", g->one_arg);
    g->n = 1;
    g->id = calloc(1, sizeof *g->id);
    if (!g->id || alloc_marks(g, e) != 0)
        return err_set(e, 0, 0, "out of memory");
    snprintf(g->id[0], GRADE_ID_MAX, "%s", slash + 1);
    snprintf(g->subs, sizeof g->subs, "%.*s", slash == g->one ? 1 : (int)(slash - g->one),
             g->one);
    if (g->out[0])
        return 0;
    const char *tmp = getenv("TMPDIR");
    if (snprintf(g->out, sizeof g->out, "%s/arena-selfcheck-XXXXXX", tmp && *tmp ? tmp : "/tmp")
            >= (int)sizeof g->out)
        return err_set(e, 0, 0, "TMPDIR %s: a path too long", tmp);
    return mkdtemp(g->out) ? 0 : err_set(e, 0, 0, "%s: cannot create: %s", g->out,
                                         strerror(errno));
}

/* A class's folder: DIR made absolute, its submissions listed. */
static int class_folder(struct grade_run *g, struct err *e)
{
    char abs[PATH_MAX];
    if (!realpath(g->subs, abs))
        return err_set(e, 0, 0, "--submissions %s: %s", g->subs, strerror(errno));
    snprintf(g->subs, sizeof g->subs, "%s", abs);
    return list_class(g, e);
}

/* --only's ids into g->only: each a submission of the class. Before OUT is
 * touched: a regrade goes into a grading that is there. */
static int only_ids(struct grade_run *g, struct err *e)
{
    char path[PATH_MAX];
    if (join(path, g->out, JOURNAL_NAME) != 0 || access(path, F_OK) != 0)
        return err_set(e, 0, 0, "--only: %s has no grading to regrade (no %s): grade the "
                       "class into it first", g->out, JOURNAL_NAME);
    if (!(g->only = calloc((size_t)g->n, 1)))
        return err_set(e, 0, 0, "out of memory");
    for (int k = 0; k < g->nonly; k++) {
        int i = index_of(g, g->only_arg[k]);
        if (i < 0)
            return err_set(e, 0, 0, "--only %s: no such submission in --submissions %s",
                           g->only_arg[k], g->subs_arg);
        g->only[i] = 1;
    }
    return 0;
}

/* The class's folders: DIR and OUT made absolute (OUT made when missing;
 * never inside DIR), the submissions listed, the journal's and the work
 * folder's paths. A self-check's: its folder and OUT. */
static int folders(struct grade_run *g, struct err *e)
{
    char abs[PATH_MAX];
    if ((g->one_arg ? one_folder(g, e) : class_folder(g, e)) != 0)
        return -1;
    if (g->nonly && only_ids(g, e) != 0)
        return -1;
    int made = mkdir(g->out, 0755) == 0;
    if (!made && errno != EEXIST)
        return err_set(e, 0, 0, "--out %s: %s", g->out, strerror(errno));
    if (!realpath(g->out, abs))
        return err_set(e, 0, 0, "--out %s: %s", g->out, strerror(errno));
    snprintf(g->out, sizeof g->out, "%s", abs);
    const char *graded = g->one_arg ? g->one : g->subs;
    size_t len = strlen(graded);
    if (strncmp(g->out, graded, len) == 0 && (g->out[len] == '/' || !g->out[len])) {
        if (made)
            rmdir(g->out);   /* nothing written */
        return err_set(e, 0, 0, "--out %s is inside --submission%s: it would be graded",
                       g->out, g->one_arg ? "" : "s");
    }
    char name[64];
    if (g->shard_n)
        snprintf(name, sizeof name, "journal-%d.jsonl", g->shard_k);
    if (join(g->work, g->out, ".work") ||
        join(g->journal, g->out, g->shard_n ? name : JOURNAL_NAME))
        return err_set(e, 0, 0, "--out %s: a path too long", g->out);
    return 0;
}

/* Hides path (what it is, for the messages) from every submission: a mask
 * of the sandbox, wherever it is (the system folders included), and a place
 * no word of a submission's command may reach. A folder that is "/" or
 * holds a system folder cannot be masked without hiding the system every
 * submission runs on: refused. 0, or -1 with e. */
static int hide(struct grade_run *g, const char *path, const char *what, struct err *e)
{
    char real[PATH_MAX];
    const char *canon = realpath(path, real) ? real : path;
    const char *system = gpath_unhideable(canon);
    if (system)
        return err_set(e, 0, 0, "%s %s cannot be hidden from the submissions without hiding "
                       "%s, which every sandbox shows: keep it in a folder of its own", what,
                       canon, system);
    return sbx_paths_add(&g->policy.mask, path, e) != 0 ||
                   gpath_add(&g->places, 1, path, what, e) != 0 ? -1 : 0;
}

/* What no submission sees: a class's folder hides the classmates (a
 * self-check's, the original of the copy that runs), OUT the journal and
 * the others' feedback, the rubric's folder and those of its io files the
 * expected outputs and a reference solution kept beside them. 0, or -1. */
static int hide_places(struct grade_run *g, struct err *e)
{
    g->policy.mask_system = 1;
    if (hide(g, g->one_arg ? g->one : g->subs, g->one_arg ? "the submission's folder"
                                                           : "the class's folder", e) != 0 ||
        hide(g, g->out, "OUT", e) != 0 || hide(g, g->rb.dir, "the rubric's folder", e) != 0)
        return -1;
    for (int k = 0; k < g->rb.ncheck; k++) {
        const struct rubric_check *ch = &g->rb.check[k];
        for (int i = 0; ch->kind == RUBRIC_IO && i < ch->ninputs; i++) {
            char folder[PATH_MAX];
            snprintf(folder, sizeof folder, "%s", ch->input[i]);
            path_cut_to_folder(folder);
            if (hide(g, folder, "the folder of the rubric's inputs", e) != 0)
                return -1;
            if (!ch->expected)
                continue;
            snprintf(folder, sizeof folder, "%s", ch->expected[i]);
            path_cut_to_folder(folder);
            if (hide(g, folder, "the folder of the rubric's expected outputs", e) != 0)
                return -1;
        }
    }
    return gpath_add_system(&g->places, &g->policy, e);
}

/* Everything before the first submission: folders, sandbox, references. */
static int setup(struct grade_run *g, struct err *e)
{
    if (folders(g, e) != 0)
        return -1;
    mkdir(g->work, 0700);
    if (g->policy.mode == SBX_NAMESPACES && (hide_places(g, e) != 0 || sbx_probe(e) != 0))
        return -1;
    /* timeout_ms is CPU time; the wall deadline only a guard (limits.h). */
    g->limits = (struct run_limits){ .timeout_ms = g->rb.timeout_ms * GRADE_WALL_FACTOR +
                                                   GRADE_WALL_MARGIN_MS,
                                     .cpu_ms = g->rb.timeout_ms,
                                     .cpu_limit_s = g->rb.cpu_limit_s,
                                     .mem_limit_mb = g->rb.mem_limit_mb,
                                     .file_limit_kb = REF_DEFAULT_FILE_LIMIT_KB };
    g->limits.proc_limit = run_proc_limit(sbx_engine_uid(&g->policy), REF_DEFAULT_PROC_EXTRA);
    g->env.rb = &g->rb;
    g->env.rules = (struct play_rules){ .game = g->rb.game, .depth = REF_DEFAULT_DEPTH,
                                        .seed = g->rb.seed, .limits = g->limits,
                                        .draw_plies = PLAY_DRAW_PLIES,
                                        .busy_retries = GRADE_BUSY_RETRIES };
    /* Shards share .work, on one node or several: mkdtemp's name is
     * unique where a pid is not. Hidden, as no submission's id is: the
     * work folders OUT/.work/ID never meet it. */
    char refs[PATH_MAX];
    if (join(refs, g->work, ".references-XXXXXX"))
        return err_set(e, 0, 0, "--out %s: a path too long", g->out);
    if (!mkdtemp(refs))
        return err_set(e, 0, 0, "%s: cannot create: %s", refs, strerror(errno));
    g->env.scratch = refs;
    own_folder(g);
    int rc = gcheck_env_refs(&g->env, g->bindir, g->prefix, e);
    tf_remove_tree(refs);
    g->env.scratch = NULL;
    return rc;
}

/* The grading, in the process run_guard leaves to do the work. */
static int grade_all(struct grade_run *g)
{
    struct err e;
    journal_header(g);
    int rc;
    if (g->only) {
        rc = regrade_open(g, &e);
    } else {
        rc = gjour_open(g->journal, g->header, g->resume, mark_done, g, &g->journal_fd, &e);
        if (rc == 0 && !g->shard_n && scan_shards(g, mark_done, g, &e) != 0) {
            close(g->journal_fd);
            rc = -1;
        }
    }
    if (rc != 0) {
        err_print(stderr, g->prog, &e);
        rmdir(g->work);   /* setup's, still empty: OUT as it was */
        return EXIT_BAD_INPUT;
    }
    struct run_stops saved;
    stop_signal = 0;
    run_catch_stops(on_stop, &saved);
    rc = grade_loop(g, &e);
    run_sweep(0);
    int stopped = stop_signal != 0;
    run_release_stops(&saved);
    close(g->journal_fd);
    if (!rc && stopped) {
        printf("Stopped by a signal: run again with --resume to finish\n");
        return 128 + SIGINT;
    }
    if (!rc && g->shard_n) {
        printf("Shard %d/%d graded into %s: run without --shard, with --resume, once every "
               "shard is done, to write the grades\n", g->shard_k, g->shard_n, g->journal);
        rmdir(g->work);   /* unless another shard still works in it */
        return 0;
    }
    if (!rc)
        rc = outputs(g, &e);
    if (rc) {
        err_print(stderr, g->prog, &e);
        return 1;
    }
    tf_remove_tree(g->work);
    if (g->busy) {
        printf("%d check%s not graded: the machine was too busy for their moves; run the "
               "same command with --resume to grade them\n", g->busy, g->busy == 1 ? "" : "s");
        return GRADE_EXIT_BUSY;
    }
    return 0;
}

/* A run's defaults (slurm: referee slurm grade's); NULL when out of memory. */
static struct grade_run *run_new(const char *prog, int slurm)
{
    struct grade_run *g = calloc(1, sizeof *g);
    if (!g)
        return NULL;
    g->prog = prog;
    g->concurrency = 1;
    g->journal_fd = -1;
    g->tty = isatty(STDERR_FILENO);
    g->slurm = slurm;
    g->cluster.cpus = 1;
    return g;
}

static void run_free(struct grade_run *g)
{
    gcheck_env_free_refs(&g->env);
    rubric_free(&g->rb);
    sbx_policy_free(&g->policy);
    gpath_free(&g->places);
    free(g->id);
    free(g->done);
    free(g->score);
    free(g->only);
    free(g->only_arg);
    free(g);
}

/* What both commands do first: the options read into a new run *gp (slurm:
 * slurm grade's), then its rubric (its path into *rubric). Returns 0, -1
 * after --help, or the exit status of an error (printed); *gp is then to
 * be freed, unless NULL (out of memory: status 1). */
static int begin(const char *prog, int slurm, int argc, char **argv, struct grade_run **gp,
                 const char **rubric)
{
    struct grade_run *g = *gp = run_new(prog, slurm);
    if (!g)
        return 1;
    int rc = parse(g, argc, argv, rubric);
    struct err e;
    if (!rc && rubric_read(*rubric, &g->rb, &e) != 0) {
        err_print(stderr, *rubric, &e);
        rc = EXIT_BAD_INPUT;
    }
    return rc;
}

int grade_command(const char *prog, enum refopts_command id, int argc, char **argv)
{
    assert(id == REF_CMD_GRADE);
    struct grade_run *g;
    const char *rubric;
    int rc = begin(prog, 0, argc, argv, &g, &rubric);
    if (!g)
        return rc;
    struct err e = { 0, 0, "" };
    if (!rc && g->one_arg && !g->all_checks && (g->left_out = rubric_keep_visible(&g->rb)) &&
        g->rb.ncheck == 0) {
        printf("%s: no check is visible to students: nothing to run in a self-check\n",
               rubric);
        rc = -1;
    }
    if (!rc && setup(g, &e) != 0) {
        err_print(stderr, prog, &e);
        rc = EXIT_BAD_INPUT;
    }
    /* The cpu check grades the whole tree's CPU, as a tournament bills it. */
    if (!rc && preflight_accounting(&g->cg, &g->env.rules, prog, stderr, &e) == 0)
        g->limits.proc_limit = 0;
    int status;
    const volatile sig_atomic_t *cancel;
    if (!rc && run_guard(&cancel, &status) == RUN_GUARD_PARENT) {
        rc = status;
        if (g->env.rules.acct)   /* the cgroups of a worker killed mid-run */
            cg_root_sweep(g->env.rules.acct);
    } else if (!rc) {
        run_become_reaper();
        rc = grade_all(g);
    }
    run_free(g);
    return rc < 0 ? 0 : rc;
}

/* ---- referee slurm grade -------------------------------------------------- */

/* 1 when OUT holds a journal, its own or a shard's. */
static int has_journal(const struct grade_run *g)
{
    int found = access(g->journal, F_OK) == 0;
    DIR *d = found ? NULL : opendir(g->out);
    for (struct dirent *de; d && !found && (de = readdir(d));)
        found = shard_journal_name(de->d_name);
    if (d)
        closedir(d);
    return found;
}

/* The grade options every job shares, as sh words (spec_quote): --rubric,
 * --submissions and --out, absolute, and the sandbox's. malloc'd, or NULL
 * with e. */
static char *job_words(const struct grade_run *g, const char *rubric, struct err *e)
{
    char abs[PATH_MAX];
    if (!realpath(rubric, abs))
        return err_set(e, 0, 0, "--rubric %s: %s", rubric, strerror(errno)), NULL;
    const char *word[8 + 2 * SBX_MAX_PATHS] = { "--rubric", abs, "--submissions", g->subs,
                                                "--out", g->out };
    int n = 6;
    if (g->policy.mode == SBX_NONE) {
        word[n++] = "--sandbox";
        word[n++] = "none";
    }
    for (int i = 0; i < g->policy.ro.n; i++) {
        word[n++] = "--sandbox-ro";
        word[n++] = g->policy.ro.path[i];
    }
    size_t cap = 1;
    for (int i = 0; i < n; i++)
        cap += 4 * strlen(word[i]) + 3;   /* each quote as '\'' (4), two quotes, a blank */
    char *buf = malloc(cap);
    long len = 0;
    for (int i = 0; buf && i < n; i++) {
        if (i)
            buf[len++] = ' ';
        buf[len] = '\0';
        len = spec_quote(word[i], buf, cap, (size_t)len);
        assert(len > 0);
    }
    if (!buf)
        err_set(e, 0, 0, "out of memory");
    return buf;
}

/* What slurm grade checks before it writes a script: the folders, the
 * shards against the class, and OUT's journals: none, or with --resume
 * the shards' alone (cluster_grade checks OUT's path). 0, or a usage error's
 * status (printed). */
static int slurm_checks(struct grade_run *g)
{
    struct err e;
    if (folders(g, &e) != 0) {
        err_print(stderr, g->prog, &e);
        return EXIT_BAD_INPUT;
    }
    if (g->cluster.shards > g->n)
        return cli_usage(g->prog, "slurm grade: --shards must be from 1 to the class's %d "
                         "submissions, got %d", g->n, g->cluster.shards);
    if (!g->resume && has_journal(g))
        return cli_usage(g->prog, "slurm grade: --out %s holds a grading already: add "
                         "--resume to finish it, or name another --out", g->out);
    /* Shards read their own journals only: after a merge they would grade
     * again what it graded. */
    if (access(g->journal, F_OK) == 0)
        return cli_usage(g->prog, "slurm grade: %s: the merge job has run; sbatch %s/merge.sh "
                         "(or grade --resume) finishes the grading", g->journal, g->out);
    return 0;
}

int grade_slurm_command(const char *prog, int argc, char **argv)
{
    struct grade_run *g;
    const char *rubric;
    int rc = begin(prog, 1, argc, argv, &g, &rubric);
    if (!g)
        return rc;
    struct err e = { 0, 0, "" };
    int made = !rc && access(g->out, F_OK) != 0;
    if (!rc)
        rc = slurm_checks(g);
    char *words = rc ? NULL : job_words(g, rubric, &e);
    if (!rc && !words) {
        err_print(stderr, prog, &e);
        rc = 1;
    }
    if (!rc) {
        own_folder(g);
        snprintf(g->cluster.out, sizeof g->cluster.out, "%s", g->out);
        int r = cluster_grade(&g->cluster, words, g->self, stdout, &e);
        if (r != 0) {
            err_print(stderr, prog, &e);
            rc = r == CLUSTER_BAD_DIR ? EXIT_BAD_INPUT : 1;
        }
    }
    if (rc > 0 && made)
        rmdir(g->out);   /* empty unless a script was written: nothing changed */
    free(words);
    run_free(g);
    return rc < 0 ? 0 : rc;
}
