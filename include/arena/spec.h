/*
 * spec.h - engine SPECs as users of cutechess-cli and fastchess write them,
 * and the engines they resolve to (struct spec), and an engine's JSON.
 * spec_keys_* is what the user wrote (a SPEC, a config file's engine object,
 * --each), spec_* the engine the referee runs.
 *
 * SPEC: KEY=VALUE options in any order, separated by blanks or commas:
 *   name=NAME      the engine's name in results and reports
 *   cmd=COMMAND    the command (below)
 *   args=WORDS     words appended to the command
 *   dir=PATH       its working directory (default: the referee's)
 *   stderr=FILE    append its whole stderr there, a header per move
 *   depth=N        its {depth}, instead of the match's --depth
 *   proto=P        how it is run: file (default: a process per move, told
 *                  its files by its command) or persistent (one process per
 *                  game, told each move on stdin: persist.h)
 * A value runs to the next blank or comma that is followed by KEY=, so
 * `cmd=python3 rand.py one-move name=rand` and `name=rand,cmd=python3
 * rand.py` need no quotes; a word of the value that looks like KEY= must be
 * quoted (cmd=dd 'if=x'), and a KEY that is not one of the above is an
 * error naming it. Quotes and backslashes work as in a shell (a backslash
 * must escape something). A SPEC that does not start with KEY= is a bare
 * COMMAND (the whole SPEC).
 *
 * COMMAND is split into words like a shell would (blanks separate; '...' and
 * "..." quote; \ escapes outside single quotes) but no shell runs.
 * The placeholders (rules.h) {in} {out} {depth} {player} {time} {inc} are
 * replaced inside words when a move is played (a persistent engine's when
 * it starts, with its first move's values); a file engine's command
 * without any gets `{in} {out} {depth}` appended.
 *
 * --each KEY=VALUE...: the same options (all but name=) for every engine;
 * an engine's own option wins over --each's.
 *
 * Resolving, before the first game: dir= is made absolute against the
 * referee's working directory and must be a folder; a program word holding
 * a '/' is made absolute against dir=, one without is looked up in PATH (as
 * execvp does, relative PATH entries against dir=); every other word that
 * names an existing regular file in dir= is replaced by its absolute path
 * (the engine runs in dir=, so it sees the same file); stderr= is made
 * absolute against the referee's directory. Without name= the name is the
 * program word's base name, made unique among the engines by a suffix
 * (engine, engine-2, ...); two engines given the same name= are an error.
 */
#ifndef ARENA_SPEC_H
#define ARENA_SPEC_H

#include "arena/err.h"
#include "arena/record.h"
#include "arena/runner.h"
#include "arena/sha256.h"

struct hdr;

enum spec_key {
    SPEC_NAME, SPEC_CMD, SPEC_DIR, SPEC_ARGS, SPEC_STDERR, SPEC_DEPTH, SPEC_PROTO,
    SPEC_KEYS
};

/* How an engine is run (proto=). */
enum spec_proto { SPEC_FILE, SPEC_PERSISTENT };
/* "file" or "persistent". */
const char *spec_proto_name(enum spec_proto proto);

/* What the user wrote: each key's value, NULL when not given. name, dir,
 * stderr, depth and proto are plain text (quotes removed, checked: a name of 1 to
 * REC_NAME_MAX-1 printable characters, a depth in 1..SEARCH_MAX_DEPTH, a
 * proto of file or persistent, a non-empty path); cmd and args are COMMAND text, split when resolved
 * (checked: cmd has a program word that is not empty). Owned (malloc'd);
 * zero it before first use, free with spec_keys_free. */
struct spec_keys {
    char *value[SPEC_KEYS];
};

enum spec_mode { SPEC_ENGINE, SPEC_EACH };

/* Adds the options of text to keys. SPEC_ENGINE: a SPEC (a bare COMMAND
 * becomes cmd=); SPEC_EACH: KEY=VALUE options only, name= refused. A key
 * given twice in text is an error; a key keys already had is replaced.
 * Returns 0, or -1 with e at line 1 and the 1-based column in text (keys
 * then holds what came before the error). */
int spec_keys_parse(const char *text, enum spec_mode mode, struct spec_keys *keys,
                    struct err *e);
/* Sets one key to value as given apart (a config file's {"name": ...,
 * "cmd": ...}): value is taken whole, never unquoted or cut, but checked as
 * above (columns counted in value). Returns 0, or -1 with e (an unknown key
 * is named). */
int spec_keys_set(struct spec_keys *keys, const char *key, const char *value, struct err *e);
void spec_keys_free(struct spec_keys *keys);

/* A file an engine's command names (its script, its weights). */
struct spec_file {
    char *path;                  /* absolute, malloc'd */
    char sha256[SHA256_HEX];
};

/* An engine the referee runs. */
struct spec {
    char name[REC_NAME_MAX];
    int argc;
    char *argv[RUN_MAX_ARGS];    /* the template, NULL-terminated */
    char *dir;                   /* absolute working directory */
    char *program;               /* the program file argv[0] names (absolute),
                                  * NULL when none is found */
    char sha256[SHA256_HEX];     /* of the program file; "" if none found */
    int nfiles;
    struct spec_file *files;     /* the other words naming a regular file,
                                  * malloc'd; what ran is these and the
                                  * program (python3 is every student's) */
    int nruntime;
    char **runtime;              /* what the program reads besides its own
                                  * folder (path_runtime: its interpreters'
                                  * folders and installations), absolute,
                                  * malloc'd; the sandbox shows them
                                  * read-only, the journal names them */
    char *shim;                  /* the version manager's shim argv[0] found
                                  * (shim.h), when resolved: argv[0] and
                                  * program are then the interpreter it runs;
                                  * NULL otherwise */
    char *shim_why;              /* why the shim program is could not be
                                  * resolved (it then runs as it is); NULL
                                  * otherwise */
    char *stderr_path;           /* stderr=FILE, absolute; NULL: none */
    int depth;                   /* {depth}; 0: the rules' */
    enum spec_proto proto;       /* proto=; SPEC_FILE by default */
    int named;                   /* 1: name= given (never renamed) */
    struct spec_keys keys;       /* what the user wrote */
};

/* Resolves eng->keys, with each (NULL: none) for the keys it lacks, into
 * the rest of eng (see above); the name is not made unique here. Returns 0,
 * or -1 with e (no place: line and column 0). */
int spec_resolve(struct spec *eng, const struct spec_keys *each, struct err *e);
/* Resolves n engines, makes default names unique and refuses two engines
 * given one name=; with check, also spec_check on each. Messages name
 * the engine ("engine 2: ..." or "engine 'rand': ..."). 0 or -1 with e. */
int spec_resolve_all(struct spec *eng, int n, const struct spec_keys *each, int check,
                     struct err *e);
/* When eng's program (resolved) is a version manager's shim (pyenv, rbenv,
 * asdf: src/referee/run/shim.h), replaces it and argv[0] by the interpreter
 * the shim would run in dir= with the environment env (the engine's:
 * NULL-terminated "NAME=value"), keeping the shim in eng->shim, its digest
 * and runtime the interpreter's: done once before play, no move pays the
 * shim's start-up. A shim that cannot be resolved stays, with why in
 * eng->shim_why. 0, or -1 with e when out of memory. */
int spec_resolve_shim(struct spec *eng, char *const *env, struct err *e);
/* COMMAND text cmd split into words as an engine's command is (a shell's
 * quotes and backslashes, no shell run; nothing resolved) into argv (max
 * entries with the NULL that ends them, each malloc'd). Returns the count,
 * or -1 with e (argv then holds nothing). Free with spec_split_free. */
int spec_split(const char *cmd, char **argv, int max, struct err *e);
void spec_split_free(char **argv);
/* 0 when eng's program exists and is an executable file, else -1 with e
 * saying which. */
int spec_check(const struct spec *eng, struct err *e);
/* spec_keys_parse (SPEC_ENGINE) then spec_resolve without --each:
 * one SPEC into eng. Errors as for spec_keys_parse, or without a place when
 * resolving fails. On success free with spec_free. */
int spec_parse(const char *text, struct spec *eng, struct err *e);
/* Whether uid (SBX_ROOT_ENGINE_UID: who runs a root referee's engines and
 * judge in their sandbox, sandbox.h) may use eng's files (resolved): its
 * program (read and run it, read too when it is a script, which its
 * interpreter opens) and the files its command names (read them). The
 * sandbox shows each in its folder, bound at its own path, so the folders
 * above need no search permission, but the file's own bits count and its
 * folder's search bit, unless that folder is entered (its working folder,
 * entered as root; NULL: none). A file out of reach is found here, before
 * anything runs, instead of as a bare cannot-run. 0, or -1 with e: "WHO:
 * PATH is out of reach of uid U (nobody), who runs RUNS of a referee run as
 * root: mode M, owner uid O; give others read (chmod o+r PATH)"; who is
 * "engine 'NAME'" (NULL: no "WHO: "), runs "the engines". */
int spec_check_reach(const struct spec *eng, const char *who, const char *runs,
                     const char *entered, uid_t uid, struct err *e);

/* Frees what eng holds (its keys included); eng may be zeroed or resolved. */
void spec_free(struct spec *eng);

/* Appends word to buf (cap bytes, NUL-terminated, holding len bytes) as
 * COMMAND text that splits back into exactly that word, for spec.h's
 * splitting and for sh alike: as it is when made of letters, digits and
 * "+-./:=@_{}", else in single quotes ('\'' for a quote). Returns the new
 * length, or -1 when it does not fit (buf then unchanged). */
long spec_quote(const char *word, char *buf, size_t cap, size_t len);

/* The n words as one COMMAND text (spec_quote's, blanks between) into
 * buf: its length, or -1 when they do not fit (buf then holds the words
 * that do). */
long spec_join(char *const *words, int n, char *buf, size_t cap);

#endif
