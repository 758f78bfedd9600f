/*
 * path.h - programs and paths, one set of rules for the whole suite: where a
 * program word leads (PATH lookup as execvp does it, one default), paths
 * made absolute (lexically, or canonical when the file exists), which
 * folders are the system's, and what a program needs to run (the chain of
 * its shebang interpreters and an interpreter's installation). The SPEC
 * parser (spec.h), the sandbox (sandbox.h) and the referee's options use
 * these and nothing else.
 *
 * Paths are NUL-terminated strings of at most PATH_MAX bytes with the NUL;
 * every function that writes one takes the buffer and its size, and fails
 * (returns -1) rather than cut a path.
 */
#ifndef ARENA_PATH_H
#define ARENA_PATH_H

#include <stddef.h>

/* PATH when the environment has none, or an empty one: glibc's execvp
 * default (confstr(_CS_PATH)), so a program found here is the program the
 * plain runner starts. */
#define PATH_DEFAULT_SEARCH "/bin:/usr/bin"

/* The folders of the system: a program's interpreter, its libraries and
 * /etc (passwd, ld.so.cache, locale). The sandbox shows them read-only to
 * every engine; a path inside one is never an engine's own. */
#define PATH_SYSTEM_DIRS "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", \
                         "/etc", "/opt"

/* How many shebang lines path_runtime follows (a pyenv shim: shim, env,
 * pyenv, the interpreter): a loop of scripts stops there. */
#define PATH_CHAIN_MAX 8

/* The search list for program words: PATH, or PATH_DEFAULT_SEARCH when it
 * is unset or empty. Never NULL; points into the environment or static. */
const char *path_search(void);

/* path made absolute against base (the current directory when NULL), with
 * ".", ".." and repeated '/' removed without looking at the file system,
 * into out (cap bytes). 0, or -1 when it does not fit (or the current
 * directory cannot be read). */
int path_lexical(const char *path, const char *base, char *out, size_t cap);

/* path against dir (an absolute path is kept as given): its canonical form
 * (realpath) when it exists, else dir/path. malloc'd, NULL when out of
 * memory; the caller frees. */
char *path_absolute(const char *dir, const char *path);

/* 1 when path is dir or inside it (both absolute, lexical); "/" holds all. */
int path_is_inside(const char *path, const char *dir);

/* 1 when path (absolute) is inside one of PATH_SYSTEM_DIRS. */
int path_is_system(const char *path);

/* Cuts an absolute path to its folder in place: "/a/b" -> "/a", "/a" -> "/". */
void path_cut_to_folder(char *path);

/* The file a program word names, as execvp finds it for a process whose
 * working directory is dir: a word holding '/' against dir, when it is a
 * regular file (executable or not: execve says which); else the first
 * executable regular file NAME in path_search()'s folders (an empty or
 * relative entry against dir). Written lexically (a symlink stays a link)
 * into out (cap bytes). 0, or -1 when there is none. */
int path_find_program(const char *word, const char *dir, char *out, size_t cap);

/* The interpreter a script's first line names ("#!INTERP [ARG]"), into
 * out (cap bytes): INTERP, or for "#!/usr/bin/env [-S] NAME" (any env) the
 * program NAME as path_find_program finds it from "/". Returns 1 with out
 * set, 0 when file is no script (or names no interpreter found), -1 when it
 * cannot be read. */
int path_shebang(const char *file, char *out, size_t cap);

/* What running program (an absolute path) reads besides its own folder,
 * outside the system folders: the folder of every interpreter of its chain
 * (each shebang line's, also at its canonical place when reached through a
 * symlink) and, for an interpreter (python, pypy, node, ruby, perl, java,
 * ...: the base name, of the program itself too) or a shim (a program in a
 * folder named "shims"), its installation: the folder above its bin/ or
 * shims/ folder, unless that is "/" or $HOME itself. Calls add(ctx, path)
 * for each, in that order, duplicates included; stops at the first add that
 * returns nonzero and returns that, else 0. */
int path_runtime(const char *program, int (*add)(void *ctx, const char *path), void *ctx);

#endif
