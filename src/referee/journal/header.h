/*
 * header.h - the header of a match log or a journal (journal.h), typed, with
 * its one JSON encoder and its one decoder: every writer (match, tournament,
 * merge) fills a struct hdr and encodes it with hdr_encode; every reader
 * gets it from journal_scan decoded by hdr_decode, and nothing else reads
 * or writes a header's JSON. Its own module, beside record.h's game record:
 * the two are different objects (one per file, one per game) with different
 * readers, and "one prefix = one header = one .c".
 *
 * The JSON (keys in the order written; every key optional on reading):
 *   {"schema": "arena.journal/1"|"arena.match/1", "game",
 *    "judge": {"cmd": [WORD...], "sha256": HEX, "files": [{"path", "sha256"}]}
 *             (a judge's game only), "depth", "seed",
 *    "random_plies", "openings": [LINE...]|null, "draw_plies",
 *    "analyze": {"budget_ms", "max_empty"} (when on),
 *    "limits": {"timeout_ms", "cpu_limit_s", "mem_limit_mb", "file_limit_kb",
 *               "tc": {"base_ms", "inc_ms"} (with --tc)},
 *    "sandbox": {"mode", "isolates": [...], "read_only": [...], "env": [NAME...]},
 *    "accounting": "cgroup-v1"|"cgroup-v2"|"process",
 *    "engines": [{"name", "cmd": [WORD...], "dir", "depth" (its own),
 *                 "proto": "persistent" (when not file),
 *                 "sha256": HEX|null, "files": [{"path", "sha256"}],
 *                 "runtime": [PATH...]}...],
 *   and in a journal "format", "rounds", "shard": "K/N", "games" (of the
 *   whole schedule), "sprt": {"elo0", "elo1", "alpha", "beta", "model"}|null}.
 * A match log carries the same keys and "games": [its records] (not a
 * header key: match.c adds it after hdr_encode).
 *
 * The seed is exact: a JSON integer below HDR_SEED_NUMBER_LIMIT (10^15:
 * cJSON writes a number with 15 significant digits, so every integer below
 * it is written, and read by any JSON reader, exactly), a string of its
 * decimal digits from there up ("seed": "9007199254740993"). The decoder
 * takes both, and the form referees before this one wrote from 10^15 up (a
 * double cut to 15 digits, 9.00719925474099e+15): that seed is the double's
 * value, marked seed_inexact, and written back as it was.
 *
 * Representation: each object has `has`, one bit per key (HDR_BIT of its
 * enum below) for the keys it holds, and `null`, for the keys whose value
 * is null; the encoder writes exactly the keys in has, in the enum's order,
 * so decoding and encoding a header the referee wrote gives its bytes
 * back (old journals included: their keys are a subsequence of today's).
 * Strings and lists are malloc'd and the header's: hdr_free frees them. The
 * decoder keeps what it knows and skips what it does not: an unknown key,
 * or a known key whose value is of another kind, is missing (has clear);
 * it refuses only what it cannot hold (a name too long, an engine without
 * a name, more than REC_MAX_ENGINES engines).
 *
 * Adding a field: a member (and its bit in the object's enum, in the place
 * its key goes) here; in header.c, for a top-level key its name in
 * top_keys, and one line in the encoding and one in the decoding of its
 * object; the writer that knows the value sets it and its bit
 * (play_rules_header, hdr_add_spec, hdr_set_sandbox, tour_header).
 * Readers of old journals see the bit clear.
 */
#ifndef ARENA_HEADER_H
#define ARENA_HEADER_H

#include <stdint.h>
#include "arena/err.h"
#include "arena/record.h"

struct cJSON;
struct sbx_policy;   /* sandbox.h */
struct spec;         /* spec.h */

#define HDR_BIT(k) (1u << (k))
/* Seeds from here up are written as strings (above). */
#define HDR_SEED_NUMBER_LIMIT UINT64_C(1000000000000000)

/* A list of strings: n of them at v, each malloc'd, v too. */
struct hdr_strs {
    int n;
    char **v;
};

enum hdr_analyze_key { HDR_AN_BUDGET_MS, HDR_AN_MAX_EMPTY };
struct hdr_analyze {
    long long budget_ms;
    int max_empty;
    unsigned has;
};

enum hdr_limits_key { HDR_LIM_TIMEOUT_MS, HDR_LIM_CPU_LIMIT_S, HDR_LIM_MEM_LIMIT_MB,
                      HDR_LIM_FILE_LIMIT_KB, HDR_LIM_TC, HDR_LIM_PONDER };
struct hdr_limits {
    long long timeout_ms, cpu_limit_s, mem_limit_mb, file_limit_kb;
    long long tc_base_ms, tc_inc_ms;  /* "tc": {"base_ms", "inc_ms"} (--tc) */
                                      /* HDR_LIM_PONDER: "ponder": true (--ponder) */
    unsigned has;
};

enum hdr_sandbox_key { HDR_SBX_MODE, HDR_SBX_ISOLATES, HDR_SBX_READ_ONLY, HDR_SBX_ENV };
struct hdr_sandbox {
    char *mode;                       /* "namespaces" or "none" */
    struct hdr_strs isolates, read_only;
    struct hdr_strs env;              /* --sandbox-env names, never values */
    unsigned has;
};

enum hdr_file_key { HDR_FILE_PATH, HDR_FILE_SHA256 };
struct hdr_file {
    char *path, *sha256;
    unsigned has;
};

enum hdr_engine_key { HDR_ENG_NAME, HDR_ENG_CMD, HDR_ENG_DIR, HDR_ENG_DEPTH, HDR_ENG_PROTO,
                      HDR_ENG_SHA256, HDR_ENG_FILES, HDR_ENG_RUNTIME, HDR_ENG_SHIM };
struct hdr_engine {
    char name[REC_NAME_MAX];          /* always there: the decoder refuses none */
    struct hdr_strs cmd;
    char *dir;
    int depth;                        /* its own {depth} */
    char *proto;                      /* "persistent" (spec.h's proto=); missing: file */
    char *sha256;                     /* of its program; null: none found */
    int nfiles;
    struct hdr_file *files;           /* malloc'd */
    struct hdr_strs runtime;          /* what its interpreter chain reads (path_runtime) */
    char *shim;                       /* the version manager's shim its command named,
                                       * run as cmd[0], the interpreter it resolves to
                                       * (spec.h); missing: none */
    unsigned has, null;
};

enum hdr_sprt_key { HDR_SPRT_ELO0, HDR_SPRT_ELO1, HDR_SPRT_ALPHA, HDR_SPRT_BETA,
                    HDR_SPRT_MODEL };
struct hdr_sprt {
    double elo0, elo1, alpha, beta;
    char *model;                      /* missing: a journal before the models */
    unsigned has;
};

/* A game defined by a judge (judge.h): its resolved words, the SHA-256 of
 * its program file (the last word naming a file; "" when none was found)
 * and every file its command runs or names, its interpreter first (what
 * --judge must match: docs/judges.md). Journals before "files" have the
 * single hash only. */
enum hdr_judge_key { HDR_JUDGE_CMD, HDR_JUDGE_SHA256, HDR_JUDGE_FILES };
struct hdr_judge {
    struct hdr_strs cmd;
    char *sha256;
    int nfiles;
    struct hdr_file *files;           /* malloc'd */
    unsigned has;
};

/* An engine whose rating the reports fix (--anchor NAME=ELO). */
struct hdr_anchor {
    char name[REC_NAME_MAX];
    double elo;
};

enum hdr_key {
    HDR_SCHEMA, HDR_GAME, HDR_JUDGE, HDR_DEPTH, HDR_SEED, HDR_RANDOM_PLIES, HDR_OPENINGS,
    HDR_DRAW_PLIES, HDR_ANALYZE, HDR_LIMITS, HDR_SANDBOX, HDR_ACCOUNTING, HDR_ENGINES, HDR_FORMAT,
    HDR_ROUNDS, HDR_SHARD, HDR_GAMES, HDR_SPRT, HDR_ANCHORS, HDR_SEEDS,
    HDR_NKEYS   /* not a key: how many there are */
};
struct hdr {
    char *schema;
    char game[REC_NAME_MAX];
    struct hdr_judge judge;           /* a judge's game; missing: a built-in one */
    int depth;
    uint64_t seed;
    int seed_inexact;                 /* 1: an old double from 10^15 up (above) */
    int random_plies;
    struct hdr_strs openings;         /* the book's lines; null: random openings */
    int draw_plies;
    struct hdr_analyze analyze;
    struct hdr_limits limits;
    struct hdr_sandbox sandbox;
    char *accounting;                 /* "cgroup-v1", "cgroup-v2", "process"
                                       * (cgroup.h's cg_root_name) */
    int nengines;
    struct hdr_engine engine[REC_MAX_ENGINES];
    char *format;                     /* "round-robin", "gauntlet" or "swiss" */
    int rounds;
    int shard_k, shard_n;             /* "shard": "K/N", 1 <= K <= N */
    long long games;                  /* the schedule's, 0 to REC_INDEX_MAX */
    struct hdr_sprt sprt;             /* null: no SPRT */
    int nanchors;                     /* "anchors": {NAME: ELO, ...}; missing: none */
    struct hdr_anchor anchor[REC_MAX_ENGINES];
    struct hdr_strs seeds;            /* a gauntlet's --seeds; missing: engine 1 */
    unsigned has, null;
};

/* An empty header (no key). Free with hdr_free. */
void hdr_init(struct hdr *h);
void hdr_free(struct hdr *h);

/* Setters for writers: a copy of s into *dst (freeing what was there), and
 * s appended to a list. 0, or -1 when out of memory (then unchanged). */
int hdr_set_text(char **dst, const char *s);
int hdr_strs_add(struct hdr_strs *l, const char *s);
/* Adds an engine with the given name (cut to REC_NAME_MAX - 1 bytes),
 * nothing else set: a pointer to it, or NULL when the header is full. */
struct hdr_engine *hdr_add_engine(struct hdr *h, const char *name);
/* Appends a file to e, or to a judge; 0, or -1 when out of memory. */
int hdr_engine_add_file(struct hdr_engine *e, const char *path, const char *sha256);
int hdr_judge_add_file(struct hdr_judge *j, const char *path, const char *sha256);

/* From run's values (run hands them over; it knows nothing of headers):
 * adds eng (spec.h) to h: its name, "cmd" (the words), "dir", "depth"
 * (when its own), "proto" (when not file), "sha256" (null when no program
 * file was found), "files" (when a word names a file), "runtime" and
 * "shim" (the shim resolved to cmd's first word). 0, or -1 when the header
 * is full or out of memory. */
int hdr_add_spec(struct hdr *h, const struct spec *eng);
/* Into h (empty), the sandbox policy p (sandbox.h's sbx_policy_summary;
 * NULL: none): mode "namespaces", what it isolates, the --sandbox-ro paths
 * ("read_only") and the --sandbox-env names ("env", names only, never
 * values), or mode "none" and nothing isolated. 0, or -1 when out of
 * memory. */
int hdr_set_sandbox(struct hdr_sandbox *h, const struct sbx_policy *p);

/* The header as JSON (a new cJSON object; the caller deletes it), or NULL
 * when out of memory. */
struct cJSON *hdr_encode(const struct hdr *h);

/* Decodes a header: 0 with h filled (free with hdr_free), or -1 with e
 * filled at line 1, column 1 and h empty. */
int hdr_decode(const struct cJSON *json, struct hdr *h, struct err *e);

/* The seed as the header writes it (above): a new cJSON number or string,
 * or NULL when out of memory. For other documents that carry a seed
 * (referee bench's arena.bench/1). */
struct cJSON *hdr_seed_json(uint64_t seed);

/* The first key of want that have lacks or holds another value of
 * (as encoded; a seed_inexact seed equals a seed of the same double), or
 * NULL when have holds all of want's keys alike. "" when out of memory. */
const char *hdr_differs(const struct hdr *want, const struct hdr *have);

#endif
