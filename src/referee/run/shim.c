/*
 * shim.c - a version manager's shim resolved to the interpreter it runs
 * (shim.h): the managers' own lookup, done once instead of on every move.
 * The three managers differ in names and files, not in steps, so one table
 * holds what differs and one lookup does the steps.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/path.h"
#include "arena/runner.h"
#include "arena/textfile.h"
#include "shim.h"

/* Bytes of a shim or a version file read: pyenv's shim is 400 bytes, asdf's
 * a line per plugin; a file past this is neither. */
#define SHIM_TEXT_CAP 16384
/* Versions one choice lists (PYENV_VERSION=3.12:3.11, a version file's
 * lines, a .tool-versions line): a few in practice. */
#define SHIM_VERSIONS 16
/* Plugins one asdf shim names (python and pypy both giving python3). */
#define SHIM_PLUGINS 8

struct manager {
    const char *name;
    const char *marker;       /* in the shim's text: it hands its name to the manager */
    const char *root_var;     /* what the shim exports as the manager's root; NULL: asdf */
    const char *version_var;  /* the environment's choice; NULL: asdf's is per plugin */
    const char *local_file;   /* a folder's choice, looked for from dir up to / */
    const char *prefix;       /* a version file's optional prefix ("python-3.12") */
};

static const struct manager managers[] = {
    { "pyenv", "/libexec/pyenv\" exec", "PYENV_ROOT", "PYENV_VERSION", ".python-version",
      "python-" },
    { "rbenv", "/libexec/rbenv\" exec", "RBENV_ROOT", "RBENV_VERSION", ".ruby-version", "ruby-" },
    { "asdf", "asdf exec \"", NULL, NULL, ".tool-versions", NULL },
};

/* One resolution's facts: the shim and where its choice came from. */
struct lookup {
    const struct manager *m;
    const char *name;          /* the interpreter's name: the shim's own */
    const char *dir;           /* the engine's working folder */
    char *const *env;          /* the engine's environment */
    char shims[PATH_MAX];      /* the shim's folder */
    char root[PATH_MAX];       /* the manager's root (asdf: its data folder) */
    char plugin[64];           /* asdf: the plugin being tried */
    char versions[SHIM_VERSIONS][SHIM_VERSION_MAX];
    int nversions;
    char from[PATH_MAX + 16];  /* what chose them: a file or a variable */
};

/* NAME's value in l's environment, or NULL. */
static const char *env_get(const struct lookup *l, const char *name)
{
    size_t n = strlen(name);
    for (char *const *v = l->env; *v; v++)
        if (strncmp(*v, name, n) == 0 && (*v)[n] == '=')
            return *v + n + 1;
    return NULL;
}

static int is_executable(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, X_OK) == 0;
}

/* The manager whose shim text is, or NULL. */
static const struct manager *manager_of(const char *text)
{
    for (size_t i = 0; i < sizeof managers / sizeof *managers; i++)
        if (strstr(text, managers[i].marker))
            return &managers[i];
    return NULL;
}

/* path's text when it is a shim of a known manager (in a folder named
 * shims), malloc'd, with *m set; else NULL. */
static char *shim_text(const char *path, const struct manager **m)
{
    char folder[PATH_MAX];
    snprintf(folder, sizeof folder, "%s", path);
    path_cut_to_folder(folder);
    const char *base = strrchr(folder, '/') + 1;
    char *text;
    size_t len;
    struct err ignored;
    if (strcmp(base, "shims") != 0 || tf_read(path, SHIM_TEXT_CAP, &text, &len, &ignored) != 0)
        return NULL;
    if (memchr(text, '\0', len) || !(*m = manager_of(text))) {
        free(text);
        return NULL;
    }
    return text;
}

/* The root the shim exports (`export PYENV_ROOT="/h/.pyenv"`), else the
 * environment's (asdf: $ASDF_DATA_DIR), else the folder above shims/. */
static void find_root(struct lookup *l, const char *text)
{
    char key[64];
    const char *var = l->m->root_var ? l->m->root_var : "ASDF_DATA_DIR";
    snprintf(key, sizeof key, "export %s=\"", var);
    const char *at = l->m->root_var ? strstr(text, key) : NULL;
    const char *env = env_get(l, var);
    if (at) {
        at += strlen(key);
        size_t n = strcspn(at, "\"\n");
        snprintf(l->root, sizeof l->root, "%.*s", (int)n, at);
    } else if (!l->m->root_var && env && env[0] == '/') {
        snprintf(l->root, sizeof l->root, "%s", env);
    } else {
        snprintf(l->root, sizeof l->root, "%s", l->shims);
        path_cut_to_folder(l->root);
    }
}

/* Adds the words of s (separated by any of seps) to l's versions. */
static void add_versions(struct lookup *l, const char *s, const char *seps)
{
    while (*s && l->nversions < SHIM_VERSIONS) {
        s += strspn(s, seps);
        size_t n = strcspn(s, seps);
        if (n && n < SHIM_VERSION_MAX)
            snprintf(l->versions[l->nversions++], SHIM_VERSION_MAX, "%.*s", (int)n, s);
        s += n;
    }
}

/* A version file's versions: pyenv's and rbenv's first word of each line
 * that is not blank or a comment; asdf's words after the plugin on its
 * line. 1 when it names any, else 0. */
static int read_version_file(struct lookup *l, const char *path)
{
    char *text;
    size_t len;
    struct err ignored;
    if (tf_read(path, SHIM_TEXT_CAP, &text, &len, &ignored) != 0)
        return 0;
    for (char *save = NULL, *line = strtok_r(text, "\r\n", &save); line;
         line = strtok_r(NULL, "\r\n", &save)) {
        line += strspn(line, " \t");
        if (!*line || *line == '#')
            continue;
        char *word_end = line + strcspn(line, " \t#");
        if (!l->plugin[0]) {
            *word_end = '\0';
            add_versions(l, line, " \t");
        } else if ((size_t)(word_end - line) == strlen(l->plugin) &&
                   strncmp(line, l->plugin, strlen(l->plugin)) == 0) {
            word_end[strcspn(word_end, "#")] = '\0';
            add_versions(l, word_end, " \t");
        }
    }
    free(text);
    if (l->nversions)
        snprintf(l->from, sizeof l->from, "%s", path);
    return l->nversions > 0;
}

/* The first file named local_file in dir or a folder above it. */
static int read_local(struct lookup *l)
{
    char folder[PATH_MAX], file[PATH_MAX + 32];
    snprintf(folder, sizeof folder, "%s", l->dir);
    for (;;) {
        snprintf(file, sizeof file, "%s/%s", strcmp(folder, "/") ? folder : "",
                 l->m->local_file);
        if (read_version_file(l, file))
            return 1;
        if (strcmp(folder, "/") == 0)
            return 0;
        path_cut_to_folder(folder);
    }
}

/* The versions the manager chooses for l (shim.h says in which order). */
static void choose_versions(struct lookup *l)
{
    char var[96], file[PATH_MAX + 16];
    l->nversions = 0;
    if (l->m->version_var) {
        snprintf(var, sizeof var, "%s", l->m->version_var);
    } else {   /* asdf: ASDF_PYTHON_VERSION */
        int n = snprintf(var, sizeof var, "ASDF_%s_VERSION", l->plugin);
        for (int i = 5; i < n - 8; i++)
            var[i] = var[i] == '-' ? '_' : (char)toupper((unsigned char)var[i]);
    }
    const char *env = env_get(l, var);
    if (env && env[0]) {
        add_versions(l, env, l->m->version_var ? ":" : " ");
        snprintf(l->from, sizeof l->from, "$%s", var);
        return;
    }
    if (read_local(l))
        return;
    const char *home = env_get(l, "HOME");
    if (l->m->version_var)
        snprintf(file, sizeof file, "%s/version", l->root);
    else if (home)
        snprintf(file, sizeof file, "%s/%s", home, l->m->local_file);
    if ((l->m->version_var || home) && read_version_file(l, file))
        return;
    if (l->m->version_var) {   /* pyenv's and rbenv's default */
        add_versions(l, "system", ":");
        snprintf(l->from, sizeof l->from, "%s", "no version file");
    }
}

/* "system": the first name in the engine's PATH that is not a shim. */
static int find_system(const struct lookup *l, char *out, size_t cap)
{
    const char *p = env_get(l, "PATH");
    if (!p || !p[0])
        p = PATH_DEFAULT_SEARCH;
    while (*p) {
        size_t n = strcspn(p, ":");
        char entry[PATH_MAX], file[PATH_MAX];
        snprintf(entry, sizeof entry, "%.*s", (int)n, n ? p : ".");
        p += n + (p[n] == ':');
        const struct manager *m;
        if (path_lexical(entry, l->dir, file, sizeof file) != 0 ||
            strlen(file) + strlen(l->name) + 2 > sizeof file)
            continue;
        strcat(strcat(file, "/"), l->name);
        if (!is_executable(file))
            continue;
        char *text = shim_text(file, &m);
        int shim = text != NULL;
        free(text);
        if (!shim && (size_t)snprintf(out, cap, "%s", file) < cap)
            return 0;
    }
    return -1;
}

/* The interpreter of version v into out: 0, or -1 when v lacks it. */
static int find_in_version(const struct lookup *l, const char *v, char *out, size_t cap)
{
    if (strcmp(v, "system") == 0)
        return find_system(l, out, cap);
    const char *prefix = l->m->prefix;
    int n;
    if (!l->m->version_var && strncmp(v, "path:", 5) == 0)
        n = snprintf(out, cap, "%s/bin/%s", v + 5, l->name);
    else if (!l->m->version_var)
        n = snprintf(out, cap, "%s/installs/%s/%s/bin/%s", l->root, l->plugin, v, l->name);
    else
        n = snprintf(out, cap, "%s/versions/%s/bin/%s", l->root, v, l->name);
    if (n > 0 && (size_t)n < cap && is_executable(out))
        return 0;
    if (prefix && strncmp(v, prefix, strlen(prefix)) == 0)
        return find_in_version(l, v + strlen(prefix), out, cap);
    return -1;
}

/* The first version of l's choice that has the interpreter, into s. 0, or
 * -1 with e saying why none has. */
static int find_interpreter(struct lookup *l, struct shim *s, struct err *e)
{
    for (int i = 0; i < l->nversions; i++)
        if (find_in_version(l, l->versions[i], s->interpreter, sizeof s->interpreter) == 0) {
            snprintf(s->version, sizeof s->version, "%s", l->versions[i]);
            return 0;
        }
    if (l->nversions == 0)
        return err_set(e, 0, 0, "%s: no version of %s is set (%s in %s or above, or in $HOME)",
                       l->m->name, l->plugin, l->m->local_file, l->dir);
    char folder[PATH_MAX];
    if (l->nversions == 1 && strcmp(l->versions[0], "system") != 0) {
        snprintf(folder, sizeof folder, "%s", s->interpreter);
        path_cut_to_folder(folder);
        path_cut_to_folder(folder);
        if (access(folder, F_OK) != 0)
            return err_set(e, 0, 0, "%s: version '%s' (%s) is not installed (%s)", l->m->name,
                           l->versions[0], l->from, folder);
    }
    return err_set(e, 0, 0, "%s: %s is in none of the versions %s chooses (%s%s)", l->m->name,
                   l->name, l->from, l->versions[0], l->nversions > 1 ? ", ..." : "");
}

/* asdf: the plugins the shim names (`# asdf-plugin: python 3.11.0`), each
 * tried in order until one has a version with the interpreter. */
static int resolve_asdf(struct lookup *l, const char *text, struct shim *s, struct err *e)
{
    char plugins[SHIM_PLUGINS][sizeof l->plugin];
    int n = 0;
    for (const char *p = strstr(text, "# asdf-plugin: "); p && n < SHIM_PLUGINS;
         p = strstr(p + 1, "# asdf-plugin: ")) {
        p += strlen("# asdf-plugin: ");
        size_t len = strcspn(p, " \t\r\n");
        int seen = 0;
        for (int i = 0; i < n; i++)
            seen |= strlen(plugins[i]) == len && strncmp(plugins[i], p, len) == 0;
        if (len && len < sizeof plugins[0] && !seen) {
            memcpy(plugins[n], p, len);
            plugins[n++][len] = '\0';
        }
    }
    if (n == 0)
        return err_set(e, 0, 0, "asdf: the shim names no plugin (# asdf-plugin: lines)");
    int rc = -1;
    for (int i = 0; i < n && rc != 0; i++) {
        memcpy(l->plugin, plugins[i], sizeof l->plugin);
        choose_versions(l);
        rc = find_interpreter(l, s, e);
    }
    return rc;
}

enum shim_found shim_resolve(const char *program, const char *dir, char *const *env,
                             struct shim *s, struct err *e)
{
    const struct manager *m;
    char *text = shim_text(program, &m);
    if (!text)
        return SHIM_NONE;
    struct lookup l = { .m = m, .name = strrchr(program, '/') + 1, .dir = dir, .env = env };
    snprintf(l.shims, sizeof l.shims, "%s", program);
    path_cut_to_folder(l.shims);
    find_root(&l, text);
    snprintf(s->manager, sizeof s->manager, "%s", m->name);
    int rc;
    if (m->version_var) {
        choose_versions(&l);
        rc = find_interpreter(&l, s, e);
    } else {
        rc = resolve_asdf(&l, text, s, e);
    }
    free(text);
    return rc == 0 ? SHIM_RESOLVED : SHIM_UNRESOLVED;
}

static double children_cpu_ms(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_CHILDREN, &ru) != 0)
        return 0;
    return (double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e3 +
           (double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e3;
}

double shim_cost_ms(const char *program)
{
    char *argv[] = { (char *)program, "--version", NULL }, said[256];
    struct err ignored;
    double before = children_cpu_ms();
    /* Its status does not matter: a shim that fails (exit status 127, which
     * run_tool reads as cannot run) has still cost what it cost. */
    run_tool(argv, said, sizeof said, 1, &ignored);
    return children_cpu_ms() - before;
}
