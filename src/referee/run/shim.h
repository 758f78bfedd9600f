/*
 * shim.h - a version manager's shim resolved to the interpreter it runs.
 *
 * pyenv, rbenv and asdf put a script named after each interpreter in a
 * `shims` folder early in PATH; each run of it starts bash and the
 * manager's own scripts to pick a version, then executes the real
 * interpreter. That costs every move about 130 ms of CPU (pyenv, this
 * machine), billed to the engine, so two students' identical engines get
 * different CPU figures and clocks depending on how each found python3. The
 * referee does the manager's lookup once, before play, and runs the
 * interpreter itself.
 *
 * A shim is recognised by what it is, not where a user keeps it: a file in
 * a folder named `shims` whose text hands its own name to the manager
 * (`exec ".../libexec/pyenv" exec "$program"`, rbenv's likewise, asdf's
 * `asdf exec "python3"` under its `# asdf-plugin: NAME VERSION` lines).
 *
 * The version is chosen as the manager chooses it for a process started in
 * dir (the engine's working folder) with env (the engine's environment:
 * the sandbox gives an engine HOME=/tmp and no PYENV_VERSION unless
 * --sandbox-env passes it, and the shim then sees the same):
 *   pyenv, rbenv: $PYENV_VERSION / $RBENV_VERSION (versions separated by
 *     ':'); else the first .python-version / .ruby-version from dir up to /;
 *     else ROOT/version; else "system". ROOT is what the shim exports
 *     (PYENV_ROOT="..."), else the folder above shims/. The interpreter is
 *     ROOT/versions/V/bin/NAME of the first listed version that has it
 *     (a version file's "python-3.12" is also tried as "3.12").
 *   asdf: $ASDF_<PLUGIN>_VERSION; else the plugin's line of the first
 *     .tool-versions from dir up to /, else of $HOME/.tool-versions; the
 *     interpreter is DATA/installs/PLUGIN/V/bin/NAME (DATA: $ASDF_DATA_DIR,
 *     else the folder above shims/), or PATH/bin/NAME for "path:PATH".
 *   "system" is the first NAME in PATH (path.h's path_search) that is not a
 *     shim.
 * The environment a manager's exec adds (its bin folder first in PATH) is
 * not given: the interpreter itself needs none of it.
 */
#ifndef ARENA_REFEREE_SHIM_H
#define ARENA_REFEREE_SHIM_H

#include <limits.h>
#include "arena/err.h"

#define SHIM_VERSION_MAX 128

/* What shim_resolve found. */
enum shim_found {
    SHIM_NONE,         /* program is no shim of a known manager */
    SHIM_RESOLVED,     /* s filled */
    SHIM_UNRESOLVED    /* a shim whose interpreter cannot be found: e says why */
};

struct shim {
    char manager[8];                 /* "pyenv", "rbenv" or "asdf" */
    char version[SHIM_VERSION_MAX];  /* the version chosen, "system" included */
    char interpreter[PATH_MAX];      /* what the shim runs: absolute, lexical
                                      * (a link stays a link, as the manager
                                      * names it) */
};

/* Resolves program (absolute) for a process whose working folder is dir
 * (absolute) and environment env (NULL-terminated "NAME=value"), as above. SHIM_NONE (s untouched) when program is no known
 * shim or cannot be read; SHIM_RESOLVED with s filled; SHIM_UNRESOLVED with
 * s->manager set and e naming the manager and why ("pyenv: version '3.99'
 * is not installed (/h/.pyenv/versions/3.99)"). */
enum shim_found shim_resolve(const char *program, const char *dir, char *const *env,
                             struct shim *s, struct err *e);

/* The CPU time (ms, user+sys) of one run of `program --version`, however
 * it ends: what a shim that cannot be resolved costs each move before the
 * interpreter starts, measured on this machine; 0 when it cannot be
 * started. Runs it with run_tool (runner.h): the caller has no other child
 * to reap meanwhile. */
double shim_cost_ms(const char *program);

#endif
