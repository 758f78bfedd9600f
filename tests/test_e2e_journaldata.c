/*
 * test_e2e_journaldata.c - a journal is data (docs/judges.md): report,
 * verify and analyze never run the command a journal's header names. A
 * judge's journal whose header judge is a shell command runs nothing and is
 * refused with what to do (exit 2), but its text standings, which read
 * results only; the judge named with --judge must be the recorded one, every
 * file of it (interpreter first) with its recorded SHA-256, else it is
 * refused before it starts, the first differing file and both hashes named;
 * the right one reads the journal as before, from any path; a journal from
 * before the files list is read when its program's hash matches; --judge
 * for a built-in game's journal is refused.
 *
 * Each case plays one tic-tac-toe tournament of two games through a copy of
 * docs/judges/tictactoe.py in its own folder (judge.py), about a second:
 * run by the Python interpreter itself (sys.executable), not a wrapper in
 * PATH such as pyenv's shim, which takes a second to start each judge.
 */
#include <cjson/cJSON.h>
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "e2e_util.h"

#define EXIT_USAGE 2
#define SHA_HEX 65
#define JUDGE_MAX (PATH_MAX + 32)

/* What the refusal of a judge's journal read without --judge says after
 * "FILE:1:1: its games are a judge's (\"CMD\")". */
#define NAME_IT "; name the judge to run: --judge CMD (a journal's own command is never run)\n"

/* text into dir/name. */
static void put_file(const char *dir, const char *name, const char *text)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "cannot write %s", path);
    fputs(text, f);
    fclose(f);
}

/* The SHA-256 of the file path (sha256sum's) into sum. */
static void sha256_of(const char *path, char sum[SHA_HEX])
{
    struct e2e_run r;
    e2e_run_tool(&r, "/", NULL, "sha256sum", path, NULL);
    cr_assert_eq(r.status, 0, "sha256sum %s: %s", path, r.err);
    snprintf(sum, SHA_HEX, "%s", r.out);
    e2e_run_free(&r);
}

/* The judge's command in the journal's folder into cmd: "PYTHON judge.py",
 * PYTHON the interpreter's own path (into py when not NULL). */
static void judge_cmd(char cmd[JUDGE_MAX], char *py)
{
    struct e2e_run r;
    e2e_run_tool(&r, "/", NULL, "python3", "-c", "import sys; print(sys.executable)", NULL);
    cr_assert_eq(r.status, 0, "python3: %s", r.err);
    r.out[strcspn(r.out, "\n")] = '\0';
    snprintf(cmd, JUDGE_MAX, "%s judge.py", r.out);
    if (py)
        snprintf(py, PATH_MAX, "%s", r.out);
    e2e_run_free(&r);
}

/* A fresh folder holding judge.py (docs/judges/tictactoe.py) and t.jsonl, a
 * two-game tournament's journal through judge_cmd's command, into cmd. */
static char *judged_journal(char cmd[JUDGE_MAX], char *py)
{
    judge_cmd(cmd, py);
    char judge[PATH_MAX], engine[PATH_MAX], a[PATH_MAX + 64];
    e2e_repo_path("docs/judges/tictactoe.py", judge, sizeof judge);
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "cmd=%s one-move --game tictactoe", engine);
    char *dir = e2e_tmpdir();
    /* A root referee's judge runs as nobody, who must read judge.py. */
    cr_assert_eq(chmod(dir, 0755), 0, "chmod %s", dir);
    size_t len;
    char *text = e2e_slurp(judge, &len);
    cr_assert_not_null(text);
    put_file(dir, "judge.py", text);
    free(text);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--judge", cmd, "--engine", a,
            "--engine", a, "--journal", "t.jsonl", NULL);
    cr_assert_eq(r.status, 0, "tournament: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    return dir;
}

/* The header (first line) of dir/t.jsonl, parsed; rewrite_header puts it
 * back before the records, as a text editor would. */
static cJSON *read_header(const char *dir)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/t.jsonl", dir);
    size_t len;
    char *text = e2e_slurp(path, &len);
    cr_assert_not_null(text);
    cJSON *h = cJSON_ParseWithOpts(text, NULL, 0);
    cr_assert_not_null(h, "the header is not JSON");
    free(text);
    return h;
}

static void rewrite_header(const char *dir, cJSON *h)
{
    char path[PATH_MAX + 16];
    snprintf(path, sizeof path, "%s/t.jsonl", dir);
    size_t len;
    char *text = e2e_slurp(path, &len), *header = cJSON_PrintUnformatted(h);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fprintf(f, "%s%s", header, strchr(text, '\n'));
    fclose(f);
    free(header);
    free(text);
    cJSON_Delete(h);
}

/* The header's judge made /bin/sh -c 'touch PWNED', its hashes /bin/sh's
 * (what a forger writes to pass a check of the program's hash). */
static void make_hostile(const char *dir)
{
    char sh[SHA_HEX];
    sha256_of("/bin/sh", sh);
    cJSON *h = read_header(dir), *j = cJSON_GetObjectItem(h, "judge");
    const char *words[] = { "/bin/sh", "-c", "touch PWNED" };
    cJSON_ReplaceItemInObject(j, "cmd", cJSON_CreateStringArray(words, 3));
    cJSON_ReplaceItemInObject(j, "sha256", cJSON_CreateString(sh));
    cJSON *files = cJSON_CreateArray(), *f = cJSON_CreateObject();
    cJSON_AddStringToObject(f, "path", "/bin/sh");
    cJSON_AddStringToObject(f, "sha256", sh);
    cJSON_AddItemToArray(files, f);
    cJSON_ReplaceItemInObject(j, "files", files);
    rewrite_header(dir, h);
}

/* verify, analyze and the HTML report of the hostile journal: refused
 * before anything runs, exit 2, the recorded command and what to do named;
 * the text standings read its results and run nothing either. */
Test(e2e_journaldata, a_hostile_journal_runs_nothing)
{
    char cmd[JUDGE_MAX];
    char *dir = judged_journal(cmd, NULL);
    make_hostile(dir);
    char marker[PATH_MAX + 16];
    snprintf(marker, sizeof marker, "%s/PWNED", dir);
    const char *const runs[3][5] = { { "verify", "t.jsonl" }, { "analyze", "t.jsonl" },
                                     { "report", "--format", "html", "t.jsonl" } };
    for (int k = 0; k < 3; k++) {
        struct e2e_run r;
        e2e_runv(&r, dir, NULL, "referee", runs[k]);
        cr_assert_eq(r.status, EXIT_USAGE, "%s: exit %d: %s", runs[k][0], r.status, r.err);
        cr_assert_str_eq(r.err, "t.jsonl:1:1: its games are a judge's (\"/bin/sh -c 'touch "
                                "PWNED'\")" NAME_IT, "%s", runs[k][0]);
        cr_assert_eq(r.out_len, 0, "%s: stdout: %s", runs[k][0], r.out);
        cr_assert_not(e2e_exists(marker), "%s ran the journal's command", runs[k][0]);
        e2e_run_free(&r);
    }
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "t.jsonl", NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, "Standings after 2 games\n"), "%s", r.out);
    cr_assert_not(e2e_exists(marker), "report ran the journal's command");
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* What --judge is refused with, after "t.jsonl:1:1: --judge". */
struct wrong_judge {
    const char *cmd;     /* the --judge given, in the journal's folder (%s: Python) */
    const char *file;    /* the file it differs by (in that folder; "/": absolute) */
    const char *want;    /* the message: %1$s the file's path, %2$s its SHA-256, %3$s
                          * the journal's SHA-256 there */
    int index;           /* the journal's file whose SHA-256 is %3$s */
};

/* A judge that is not the journal's is refused before it starts, naming
 * the first file that differs and both SHA-256s: another script, another
 * interpreter, a file word more. Nothing of it runs (other.py would leave
 * RAN). */
Test(e2e_journaldata, a_judge_that_is_not_the_journals_is_refused)
{
    static const struct wrong_judge cases[] = {
        { "%s other.py", "other.py", ": file 2, %1$s, has SHA-256 %2$s, the journal's "
          "judge %3$s\n", 1 },
        { "/bin/sh judge.py", "/bin/sh", ": file 1, %1$s, has SHA-256 %2$s, the journal's "
          "judge %3$s\n", 0 },
        { "%s judge.py extra.txt", "extra.txt", ": file 3, %1$s (SHA-256 %2$s), is not "
          "in the journal's judge (2 files)\n", -1 },
    };
    char cmd[JUDGE_MAX], py[PATH_MAX];
    char *dir = judged_journal(cmd, py);
    put_file(dir, "other.py", "open('RAN', 'w').close()\n");
    put_file(dir, "extra.txt", "more\n");
    cJSON *h = read_header(dir);
    const cJSON *files = cJSON_GetObjectItem(cJSON_GetObjectItem(h, "judge"), "files");
    cr_assert_eq(cJSON_GetArraySize(files), 2, "the interpreter and the script");
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        const struct wrong_judge *c = &cases[k];
        char path[PATH_MAX + 32], sum[SHA_HEX], want[PATH_MAX + 512], fmt[256], named[JUDGE_MAX];
        snprintf(named, sizeof named, c->cmd, py);
        if (c->file[0] == '/')
            snprintf(path, sizeof path, "%s", c->file);
        else
            snprintf(path, sizeof path, "%s/%s", dir, c->file);
        sha256_of(path, sum);
        const char *theirs = c->index < 0 ? "" : cJSON_GetObjectItem(
            cJSON_GetArrayItem(files, c->index), "sha256")->valuestring;
        snprintf(fmt, sizeof fmt, "t.jsonl:1:1: --judge%s", c->want);
        snprintf(want, sizeof want, fmt, path, sum, theirs);
        const char *cmds[] = { "verify", "analyze", "report" };
        for (int i = 0; i < 3; i++) {
            struct e2e_run r;
            e2e_run(&r, dir, NULL, "referee", cmds[i], "--judge", named, "t.jsonl", NULL);
            cr_assert_eq(r.status, EXIT_USAGE, "%s --judge '%s': exit %d: %s", cmds[i], named,
                         r.status, r.err);
            cr_assert_str_eq(r.err, want, "%s --judge '%s'", cmds[i], named);
            cr_assert_eq(r.out_len, 0, "stdout: %s", r.out);
            e2e_run_free(&r);
        }
    }
    cJSON_Delete(h);
    char ran[PATH_MAX + 16];
    snprintf(ran, sizeof ran, "%s/RAN", dir);
    cr_assert_not(e2e_exists(ran), "a refused judge ran");
    e2e_rmdir(dir);
}

/* The journal's own judge, named: verify, the HTML replay and analyze
 * read the journal as before, also through a copy of the judge elsewhere
 * (the contents count, not the paths: journals travel). */
Test(e2e_journaldata, the_right_judge_reads_the_journal_as_before)
{
    char cmd[JUDGE_MAX], py[PATH_MAX], elsewhere[JUDGE_MAX];
    char *dir = judged_journal(cmd, py);
    snprintf(elsewhere, sizeof elsewhere, "%s elsewhere/judge.py", py);
    char copy[PATH_MAX + 32];
    snprintf(copy, sizeof copy, "%s/elsewhere", dir);
    cr_assert_eq(mkdir(copy, 0755), 0);
    char judge[PATH_MAX + 16];
    snprintf(judge, sizeof judge, "%s/judge.py", dir);
    size_t len;
    char *text = e2e_slurp(judge, &len);
    put_file(copy, "judge.py", text);
    free(text);
    const char *named[] = { cmd, elsewhere };
    for (int k = 0; k < 2; k++) {
        struct e2e_run r;
        e2e_run(&r, dir, NULL, "referee", "verify", "--judge", named[k], "t.jsonl", NULL);
        cr_assert_eq(r.status, 0, "verify --judge '%s': exit %d: %s", named[k], r.status, r.err);
        cr_assert(strncmp(r.out, "t.jsonl: 2 games, ", 18) == 0, "%s", r.out);
        cr_assert_not_null(strstr(r.out, " moves replayed: consistent\n"), "%s", r.out);
        e2e_run_free(&r);
    }
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "report", "--judge", cmd, "--format", "html", "t.jsonl",
            NULL);
    cr_assert_eq(r.status, 0, "report: exit %d: %s", r.status, r.err);
    cr_assert_not_null(strstr(r.out, ".tictactoe-judge td.c88::after{content:'X';color:#c22}"),
                       "the judge's drawing is not on the page");
    e2e_run_free(&r);
    /* analyze reaches its own verdict, as before: a judge has no oracle. */
    e2e_run(&r, dir, NULL, "referee", "analyze", "--judge", cmd, "t.jsonl", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "analyze: exit %d: %s", r.status, r.err);
    cr_assert(strncmp(r.err, "t.jsonl: no exact oracle for tictactoe-judge: ", 46) == 0, "%s",
              r.err);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A line added to the judge's script at path, its SHA-256 before and
 * after. */
static void edit_judge(const char *path, char before[SHA_HEX], char after[SHA_HEX])
{
    sha256_of(path, before);
    FILE *f = fopen(path, "a");
    cr_assert_not_null(f);
    fputs("# changed\n", f);
    fclose(f);
    sha256_of(path, after);
}

/* The judge's script edited after the match: refused, its new SHA-256 and
 * the recorded one named. */
Test(e2e_journaldata, a_judge_script_edited_after_the_match_is_refused)
{
    char cmd[JUDGE_MAX];
    char *dir = judged_journal(cmd, NULL);
    char judge[PATH_MAX + 16], before[SHA_HEX], after[SHA_HEX];
    snprintf(judge, sizeof judge, "%s/judge.py", dir);
    edit_judge(judge, before, after);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", cmd, "t.jsonl", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    char want[PATH_MAX + 256];
    snprintf(want, sizeof want, "t.jsonl:1:1: --judge: file 2, %s, has SHA-256 %s, the "
             "journal's judge %s\n", judge, after, before);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* A journal from before the files list recorded its program's SHA-256
 * only: read with a judge whose program has it, refused otherwise. */
Test(e2e_journaldata, an_old_journal_is_read_when_its_programs_hash_matches)
{
    char cmd[JUDGE_MAX], py[PATH_MAX];
    char *dir = judged_journal(cmd, py);
    cJSON *h = read_header(dir);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(h, "judge"), "files");
    rewrite_header(dir, h);
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", cmd, "t.jsonl", NULL);
    cr_assert_eq(r.status, 0, "exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    char judge[PATH_MAX + 16], before[SHA_HEX], after[SHA_HEX], want[2 * PATH_MAX + 256];
    snprintf(judge, sizeof judge, "%s/judge.py", dir);
    edit_judge(judge, before, after);
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", cmd, "t.jsonl", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    snprintf(want, sizeof want, "t.jsonl:1:1: --judge: its program has SHA-256 %s, the "
             "journal's judge %s\n", after, before);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    /* And no --judge: refused as a new journal is. */
    e2e_run(&r, dir, NULL, "referee", "verify", "t.jsonl", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    snprintf(want, sizeof want, "t.jsonl:1:1: its games are a judge's (\"%s %s\")" NAME_IT, py,
             judge);
    cr_assert_str_eq(r.err, want);
    e2e_run_free(&r);
    e2e_rmdir(dir);
}

/* --judge names the judge of a judge's journal: a built-in game's journal
 * has none, and is refused with it (the judge never starts). */
Test(e2e_journaldata, a_judge_for_a_builtin_games_journal_is_refused)
{
    char engine[PATH_MAX], a[PATH_MAX + 64];
    e2e_engine_bin_path("engine", engine, sizeof engine);
    snprintf(a, sizeof a, "cmd=%s one-move --game tictactoe", engine);
    char *dir = e2e_tmpdir();
    put_file(dir, "judge.py", "open('RAN', 'w').close()\n");
    struct e2e_run r;
    e2e_run(&r, dir, NULL, "referee", "tournament", "--game", "tictactoe", "--engine", a,
            "--engine", a, "--journal", "t.jsonl", NULL);
    cr_assert_eq(r.status, 0, "tournament: exit %d: %s", r.status, r.err);
    e2e_run_free(&r);
    e2e_run(&r, dir, NULL, "referee", "verify", "--judge", "python3 judge.py", "t.jsonl", NULL);
    cr_assert_eq(r.status, EXIT_USAGE, "exit %d: %s", r.status, r.err);
    cr_assert_str_eq(r.err, "t.jsonl:1:1: --judge: the journal's game 'tictactoe' is not a "
                            "judge's\n");
    e2e_run_free(&r);
    char ran[PATH_MAX + 16];
    snprintf(ran, sizeof ran, "%s/RAN", dir);
    cr_assert_not(e2e_exists(ran), "the judge ran");
    e2e_rmdir(dir);
}
