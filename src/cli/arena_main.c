/* arena_main.c - the arena binary: one command for every tool, git-style.
 * `arena TOOL ARGS...` runs arena-TOOL from the folder arena itself runs
 * from, never another program of the same bare name (`nim` is the Nim
 * compiler's, `engine` an OpenSSL page's): make install puts each tool
 * there as arena-TOOL, and the build tree's bin/ holds arena-TOOL links to
 * the assignment-named binaries. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "arena/cli.h"

#define EXIT_CANNOT_RUN 126
#define EXIT_NOT_FOUND 127

static const char *const tools[] = { "engine", "referee", "maxconnect4", "spfiar", "checkers",
                                     "nim" };

static const char usage_text[] =
    "Usage: %1$s TOOL [ARGS...]\n"
    "       %1$s --help | --version\n"
    "\n"
    "Runs one of arena's tools (each is also installed as arena-TOOL, with its\n"
    "manual page: man arena-TOOL):\n"
    "  engine        one move of any game by any player, the search benchmark,\n"
    "                the Connect-4 solver and opening books, Q-learning\n"
    "  referee       matches and tournaments between engines through board\n"
    "                files, their reports, verification and analysis\n"
    "  maxconnect4   the Max-Connect4 assignment's command line\n"
    "  spfiar        the SPFIAR assignment's Connect-4 program\n"
    "  checkers      the checkers assignment's program\n"
    "  nim           the misere Nim assignment's driver\n"
    "\n"
    "'%1$s TOOL --help' shows a tool's options.\n";

/* The folder of the running executable into dir (cap bytes); 0, or -1. */
static int own_folder(char *dir, size_t cap)
{
    ssize_t n = readlink("/proc/self/exe", dir, cap - 1);
    if (n <= 0)
        return -1;
    dir[n] = '\0';
    char *slash = strrchr(dir, '/');
    if (!slash)
        return -1;
    *slash = '\0';
    return 0;
}

int main(int argc, char **argv)
{
    const char *prog = cli_prog(argv[0], "arena");
    if (argc < 2)
        return cli_usage(prog, "missing tool (engine, referee, maxconnect4, spfiar, checkers, nim)");
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)
        return cli_help(usage_text, prog);
    if (strcmp(argv[1], "--version") == 0)
        return cli_version(prog);
    const char *tool = NULL;
    for (size_t i = 0; i < sizeof tools / sizeof *tools; i++)
        if (strcmp(argv[1], tools[i]) == 0)
            tool = tools[i];
    if (!tool)
        return cli_usage(prog,
                         "unknown tool '%s' (engine, referee, maxconnect4, spfiar, checkers, nim)",
                         argv[1]);
    char name[64], dir[PATH_MAX], path[PATH_MAX + sizeof name];
    snprintf(name, sizeof name, "arena-%s", tool);
    /* The tool names itself arena-TOOL in its messages. */
    argv[1] = name;
    if (own_folder(dir, sizeof dir) == 0) {
        snprintf(path, sizeof path, "%s/%s", dir, name);
        execv(path, argv + 1);
    } else {
        execvp(name, argv + 1);
        snprintf(path, sizeof path, "%s", name);
    }
    int missing = errno == ENOENT;
    fprintf(stderr, "%s: cannot run %s: %s\n", prog, path, strerror(errno));
    /* As env(1) and the shells: 127 not found, 126 found but not run. */
    return missing ? EXIT_NOT_FOUND : EXIT_CANNOT_RUN;
}
