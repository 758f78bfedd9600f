/*
 * path.c - program lookup, absolute paths, system folders and a program's
 * runtime (path.h).
 */
#define _GNU_SOURCE
#include <assert.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/path.h"

/* Bytes of a shebang line read: the kernel's own limit (BINPRM_BUF_SIZE). */
#define SHEBANG_MAX 256

static const char *const system_dirs[] = { PATH_SYSTEM_DIRS };

/* Base names of interpreters whose installation is a prefix of their own
 * (PREFIX/bin/NAME, its libraries in PREFIX/lib): matched as a prefix of
 * the base name, so python3.12 and pypy3 are interpreters too. */
static const char *const interpreters[] = {
    "python", "pypy", "node", "ruby", "perl", "java", "julia", "Rscript", "lua", "php",
};

const char *path_search(void)
{
    const char *p = getenv("PATH");
    return p && *p ? p : PATH_DEFAULT_SEARCH;
}

int path_lexical(const char *path, const char *base, char *out, size_t cap)
{
    assert(path && out && cap > 1);
    char joined[2 * PATH_MAX], cwd[PATH_MAX];
    if (path[0] != '/') {
        if (!base && !(base = getcwd(cwd, sizeof cwd)))
            return -1;
        if ((size_t)snprintf(joined, sizeof joined, "%s/%s", base, path) >= sizeof joined)
            return -1;
    } else if ((size_t)snprintf(joined, sizeof joined, "%s", path) >= sizeof joined) {
        return -1;
    }
    size_t n = 0;
    for (char *p = joined, *next; *p; p = next) {
        while (*p == '/')
            p++;
        next = p + strcspn(p, "/");
        size_t len = (size_t)(next - p);
        if (len == 0 || (len == 1 && p[0] == '.'))
            continue;
        if (len == 2 && p[0] == '.' && p[1] == '.') {
            while (n > 0 && out[--n] != '/')
                ;
            continue;
        }
        if (n + 1 + len >= cap)
            return -1;
        out[n++] = '/';
        memcpy(out + n, p, len);
        n += len;
    }
    if (n == 0)
        out[n++] = '/';
    out[n] = '\0';
    return 0;
}

char *path_absolute(const char *dir, const char *path)
{
    assert(dir && path);
    if (path[0] == '/')
        return strdup(path);
    size_t n = strlen(dir) + strlen(path) + 2;
    char *joined = malloc(n);
    if (!joined)
        return NULL;
    snprintf(joined, n, "%s/%s", dir, path);
    char *real = realpath(joined, NULL);
    if (!real)
        return joined;
    free(joined);
    return real;
}

int path_is_inside(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    if (n == 1)
        return path[0] == '/';
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int path_is_system(const char *path)
{
    for (size_t i = 0; i < sizeof system_dirs / sizeof *system_dirs; i++)
        if (path_is_inside(path, system_dirs[i]))
            return 1;
    return 0;
}

void path_cut_to_folder(char *path)
{
    char *slash = strrchr(path, '/');
    assert(slash);
    slash[slash == path] = '\0';
}

static int is_regular(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int is_program(const char *path)
{
    return is_regular(path) && access(path, X_OK) == 0;
}

int path_find_program(const char *word, const char *dir, char *out, size_t cap)
{
    assert(word && dir && out);
    if (strchr(word, '/'))
        return path_lexical(word, dir, out, cap) == 0 && is_regular(out) ? 0 : -1;
    for (const char *p = path_search();;) {
        size_t len = strcspn(p, ":");
        char cand[PATH_MAX];
        /* An empty entry is the working directory, as for execvp. */
        if ((size_t)snprintf(cand, sizeof cand, "%.*s/%s", (int)len, len ? p : ".", word) <
                sizeof cand &&
            path_lexical(cand, dir, out, cap) == 0 && is_program(out))
            return 0;
        p += len;
        if (!*p++)
            return -1;
    }
}

int path_shebang(const char *file, char *out, size_t cap)
{
    FILE *f = fopen(file, "re");
    if (!f)
        return -1;
    char line[SHEBANG_MAX + 1];
    size_t n = fread(line, 1, SHEBANG_MAX, f);
    fclose(f);
    line[n] = '\0';
    if (n < 3 || line[0] != '#' || line[1] != '!')
        return 0;
    line[strcspn(line, "\n")] = '\0';
    char *save = NULL, *interp = strtok_r(line + 2, " \t", &save);
    if (!interp || interp[0] != '/')
        return 0;
    const char *base = strrchr(interp, '/') + 1;
    if (strcmp(base, "env") != 0)
        return (size_t)snprintf(out, cap, "%s", interp) < cap ? 1 : 0;
    char *name = strtok_r(NULL, " \t", &save);
    while (name && name[0] == '-')   /* env -S NAME, env -i NAME */
        name = strtok_r(NULL, " \t", &save);
    return name && !strchr(name, '=') && path_find_program(name, "/", out, cap) == 0 ? 1 : 0;
}

static int is_interpreter(const char *path)
{
    const char *base = strrchr(path, '/') + 1;
    for (size_t i = 0; i < sizeof interpreters / sizeof *interpreters; i++)
        if (strncmp(base, interpreters[i], strlen(interpreters[i])) == 0)
            return 1;
    return 0;
}

/* The installation of program: PREFIX when it sits in PREFIX/bin or
 * PREFIX/shims, into out; 0, or -1 when it has none worth showing. */
static int installation(const char *program, char *out, size_t cap)
{
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", program);
    path_cut_to_folder(folder);
    const char *name = strrchr(folder, '/') + 1;
    int shim = strcmp(name, "shims") == 0;
    if (!shim && !(strcmp(name, "bin") == 0 && is_interpreter(program)))
        return -1;
    path_cut_to_folder(folder);
    const char *home = getenv("HOME");
    char real_home[PATH_MAX];
    if (strcmp(folder, "/") == 0 || (home && strcmp(folder, home) == 0) ||
        (home && realpath(home, real_home) && strcmp(folder, real_home) == 0))
        return -1;
    return (size_t)snprintf(out, cap, "%s", folder) < cap ? 0 : -1;
}

/* Calls add for the folder of file, its installation, and both at file's
 * canonical place when that differs; each only outside the system. */
static int add_places(const char *file, int with_folder,
                      int (*add)(void *ctx, const char *path), void *ctx)
{
    char where[2][PATH_MAX];
    int n = 0;
    snprintf(where[n++], PATH_MAX, "%s", file);
    if (realpath(file, where[1]) && strcmp(where[1], file) != 0)
        n++;
    for (int i = 0; i < n; i++) {
        char folder[PATH_MAX], prefix[PATH_MAX];
        snprintf(folder, sizeof folder, "%s", where[i]);
        path_cut_to_folder(folder);
        int rc = 0;
        if ((with_folder || i > 0) && !path_is_system(folder))
            rc = add(ctx, folder);
        if (!rc && installation(where[i], prefix, sizeof prefix) == 0 && !path_is_system(prefix))
            rc = add(ctx, prefix);
        if (rc)
            return rc;
    }
    return 0;
}

int path_runtime(const char *program, int (*add)(void *ctx, const char *path), void *ctx)
{
    assert(program && program[0] == '/' && add);
    char cur[PATH_MAX], next[PATH_MAX];
    snprintf(cur, sizeof cur, "%s", program);
    for (int depth = 0; depth < PATH_CHAIN_MAX; depth++) {
        int rc = add_places(cur, depth > 0, add, ctx);
        if (rc)
            return rc;
        if (path_shebang(cur, next, sizeof next) != 1 || strcmp(next, cur) == 0)
            return 0;
        snprintf(cur, sizeof cur, "%s", next);
    }
    return 0;
}
