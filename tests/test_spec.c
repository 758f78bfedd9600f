/*
 * test_spec.c - engine SPECs (spec.h): cutechess-style KEY=VALUE options in
 * any order, blanks or commas between them, the old name=,cmd= form and a
 * bare command giving the same engine; every refusal at its column naming
 * what is wrong (an unknown key by name); --each and its precedence; dir=
 * and the paths resolved against it; default names made unique and a name
 * given twice refused; the program check before the first game; a device
 * as the program is not read for its digest.
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <cjson/cJSON.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "referee/journal/header.h"
#include "arena/spec.h"

/* The words of eng joined by '|'. */
static void joined(const struct spec *eng, char *buf, size_t cap)
{
    size_t n = 0;
    buf[0] = '\0';
    for (int i = 0; i < eng->argc && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, "%s%s", i ? "|" : "", eng->argv[i]);
}

struct spec_case {
    char spec[96];
    char name[32];
    char words[96];
    int depth;
};

ParameterizedTestParameters(spec, options_in_any_order_give_the_engine)
{
    static struct spec_case cases[] = {
        { "name=rand,cmd=python3 rand.py one-move", "rand",
          "python3|rand.py|one-move|{in}|{out}|{depth}", 0 },
        { "cmd=python3 rand.py one-move name=rand", "rand",
          "python3|rand.py|one-move|{in}|{out}|{depth}", 0 },
        { "cmd=python3 rand.py one-move, name=rand", "rand",
          "python3|rand.py|one-move|{in}|{out}|{depth}", 0 },
        { "  name=rand  args=one-move   cmd=python3 rand.py ", "rand",
          "python3|rand.py|one-move|{in}|{out}|{depth}", 0 },
        { "python3 rand.py one-move", "python3", "python3|rand.py|one-move|{in}|{out}|{depth}",
          0 },
        { "name='my engine' cmd=x", "my engine", "x|{in}|{out}|{depth}", 0 },
        { "name=a,b cmd=x a,b", "a,b", "x|a,b|{in}|{out}|{depth}", 0 },
        { "cmd=dd 'if=x' name=d", "d", "dd|if=x|{in}|{out}|{depth}", 0 },
        { "cmd=x {out} {in} depth=3", "x", "x|{out}|{in}", 3 },
        { "depth=12,cmd=\"a b\" c\\ d", "a b", "a b|c d|{in}|{out}|{depth}", 12 },
        { "cmd=x --depth=2", "x", "x|--depth=2|{in}|{out}|{depth}", 0 },
    };
    return cr_make_param_array(struct spec_case, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct spec_case *c, spec, options_in_any_order_give_the_engine)
{
    struct spec eng;
    struct err e;
    cr_assert_eq(spec_parse(c->spec, &eng, &e), 0, "'%s': %s", c->spec, e.msg);
    char words[256];
    joined(&eng, words, sizeof words);
    cr_expect_str_eq(eng.name, c->name, "'%s'", c->spec);
    cr_expect_str_eq(words, c->words, "'%s'", c->spec);
    cr_expect_eq(eng.depth, c->depth, "'%s': depth %d", c->spec, eng.depth);
    spec_free(&eng);
}

struct spec_error {
    char spec[48];
    int col;
    char msg[96];
};

ParameterizedTestParameters(spec, refusal_is_placed_and_says_why)
{
    static struct spec_error cases[] = {
        { "nmae=x cmd=y", 1, "unknown key 'nmae' (name, cmd, dir, args, stderr, depth, proto)" },
        { "cmd=y foo=1", 7, "unknown key 'foo' (name, cmd, dir, args, stderr, depth, proto)" },
        { "cmd=x name=a name=b", 14, "name= given twice" },
        { "cmd=x depth=0", 13, "depth= must be a number from 1 to 64, got '0'" },
        { "cmd=x,depth=deep", 13, "depth= must be a number from 1 to 64, got 'deep'" },
        { "name= cmd=x", 6, "the name must have 1 to 63 characters" },
        { "name=a\tb cmd=x", 7, "a name cannot hold control characters" },
        { "name=x,cmd=\"\"", 12, "empty program name" },
        { "name=x,cmd=", 12, "empty command" },
        { "cmd=x dir=", 11, "dir= needs a path" },
        { "cmd=a 'b", 7, "unterminated ' quote" },
        { "name='a cmd=x", 6, "unterminated ' quote" },
        { "cmd=a\\", 6, "nothing to escape after \\" },
        { "'' {in}", 1, "empty program name" },
        { "cmd=x proto=uci", 13, "proto= must be file or persistent, got 'uci'" },
        { "cmd=x proto=file proto=file", 18, "proto= given twice" },
    };
    return cr_make_param_array(struct spec_error, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct spec_error *c, spec, refusal_is_placed_and_says_why)
{
    struct spec eng;
    struct err e;
    cr_assert_eq(spec_parse(c->spec, &eng, &e), -1, "'%s' accepted", c->spec);
    cr_expect(e.line == 1 && e.col == c->col, "'%s': at %d:%d", c->spec, e.line, e.col);
    cr_expect_str_eq(e.msg, c->msg, "'%s'", c->spec);
}

/* A persistent engine is told its files on stdin: nothing is appended to
 * its command, and its placeholders stay for its start; file is the
 * default, and the header names the protocol only when it is not file. */
Test(spec, proto_chooses_how_the_engine_is_run)
{
    static const struct {
        const char *spec, *words;
        enum spec_proto proto;
    } cases[] = {
        { "proto=persistent,cmd=python3 p.py", "python3|p.py", SPEC_PERSISTENT },
        { "cmd=java -cp c E {player} proto=persistent", "java|-cp|c|E|{player}",
          SPEC_PERSISTENT },
        { "cmd=x proto=file", "x|{in}|{out}|{depth}", SPEC_FILE },
        { "cmd=x", "x|{in}|{out}|{depth}", SPEC_FILE },
    };
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        struct spec eng;
        struct err e;
        cr_assert_eq(spec_parse(cases[k].spec, &eng, &e), 0, "'%s': %s", cases[k].spec, e.msg);
        char words[256];
        joined(&eng, words, sizeof words);
        cr_expect_str_eq(words, cases[k].words, "'%s'", cases[k].spec);
        cr_expect_eq(eng.proto, cases[k].proto, "'%s': proto %d", cases[k].spec, eng.proto);
        struct hdr h;
        hdr_init(&h);
        cr_assert_eq(hdr_add_spec(&h, &eng), 0, "'%s'", cases[k].spec);
        cJSON *j = hdr_encode(&h);
        const cJSON *e0 = cJSON_GetArrayItem(cJSON_GetObjectItem(j, "engines"), 0);
        const char *proto = cJSON_GetStringValue(cJSON_GetObjectItem(e0, "proto"));
        cr_expect_str_eq(proto ? proto : "(none)",
                         cases[k].proto == SPEC_FILE ? "(none)" : "persistent", "'%s'",
                         cases[k].spec);
        cJSON_Delete(j);
        hdr_free(&h);
        spec_free(&eng);
    }
}

Test(spec, an_engine_needs_a_command)
{
    struct spec eng;
    struct err e;
    cr_assert_eq(spec_parse("name=x depth=2", &eng, &e), -1);
    cr_assert(e.line == 0 && e.col == 0, "%d:%d", e.line, e.col);
    cr_assert_str_eq(e.msg, "no cmd= (the command that runs the engine)");
}

/* --each: options only (a command or a name is refused); a later --each
 * replaces a key; an engine's own option wins. */
Test(spec, each_is_shared_and_loses_to_the_engines_own)
{
    struct spec_keys each = { { NULL } };
    struct err e;
    cr_assert_eq(spec_keys_parse("engine one-move", SPEC_EACH, &each, &e), -1);
    cr_assert_str_eq(e.msg, "expected KEY=VALUE options (name, cmd, dir, args, stderr, depth, proto)");
    cr_assert_eq(spec_keys_parse("depth=2 name=x", SPEC_EACH, &each, &e), -1);
    cr_assert(e.col == 9, "col %d", e.col);
    cr_assert_str_eq(e.msg, "name= belongs to one engine, not to --each");
    spec_keys_free(&each);
    cr_assert_eq(spec_keys_parse("cmd=prog one-move depth=2", SPEC_EACH, &each, &e), 0, "%s",
                 e.msg);
    cr_assert_eq(spec_keys_parse("depth=3", SPEC_EACH, &each, &e), 0, "%s", e.msg);
    struct spec eng[2];
    memset(eng, 0, sizeof eng);
    cr_assert_eq(spec_keys_parse("name=deep depth=9", SPEC_ENGINE, &eng[0].keys, &e), 0);
    cr_assert_eq(spec_keys_parse("name=own cmd=mine", SPEC_ENGINE, &eng[1].keys, &e), 0);
    cr_assert_eq(spec_resolve_all(eng, 2, &each, 0, &e), 0, "%s", e.msg);
    char words[256];
    joined(&eng[0], words, sizeof words);
    cr_expect_str_eq(words, "prog|one-move|{in}|{out}|{depth}");
    cr_expect_eq(eng[0].depth, 9);
    joined(&eng[1], words, sizeof words);
    cr_expect_str_eq(words, "mine|{in}|{out}|{depth}");
    cr_expect_eq(eng[1].depth, 3);
    for (int i = 0; i < 2; i++)
        spec_free(&eng[i]);
    spec_keys_free(&each);
}

/* A config file's object: values taken whole, keys checked. */
Test(spec, keys_given_apart_are_taken_whole)
{
    struct spec eng;
    struct err e;
    memset(&eng, 0, sizeof eng);
    cr_assert_eq(spec_keys_set(&eng.keys, "name", "a,cmd=b 'c", &e), 0, "%s", e.msg);
    cr_assert_eq(spec_keys_set(&eng.keys, "cmd", "x {in}", &e), 0, "%s", e.msg);
    cr_assert_eq(spec_keys_set(&eng.keys, "depth", "7", &e), 0, "%s", e.msg);
    cr_assert_eq(spec_keys_set(&eng.keys, "args", "", &e), 0, "%s", e.msg);
    cr_assert_eq(spec_keys_set(&eng.keys, "stdin", "x", &e), -1);
    cr_assert_str_eq(e.msg, "unknown key 'stdin' (name, cmd, dir, args, stderr, depth, proto)");
    cr_assert_eq(spec_keys_set(&eng.keys, "cmd", "x 'y", &e), -1);
    cr_assert(e.col == 3, "col %d", e.col);
    cr_assert_eq(spec_resolve(&eng, NULL, &e), 0, "%s", e.msg);
    cr_assert_str_eq(eng.name, "a,cmd=b 'c");
    cr_assert(eng.argc == 2 && strcmp(eng.argv[0], "x") == 0, "%d %s", eng.argc, eng.argv[0]);
    cr_assert_eq(eng.depth, 7);
    spec_free(&eng);
}

/* A fresh folder with an executable ./bin/prog and a script.py inside;
 * the test's working directory becomes its parent. */
static void make_student(char *root, size_t cap, char *dir, size_t dcap)
{
    snprintf(root, cap, "/tmp/arena-spec-XXXXXX");
    cr_assert_not_null(mkdtemp(root));
    snprintf(dir, dcap, "%s/alice", root);
    cr_assert_eq(mkdir(dir, 0700), 0);
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/bin", dir);
    cr_assert_eq(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/bin/prog", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("#!/bin/sh\n", f);
    fclose(f);
    cr_assert_eq(chmod(path, 0700), 0);
    snprintf(path, sizeof path, "%s/script.py", dir);
    f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("print(1)\n", f);
    fclose(f);
    cr_assert_eq(chdir(root), 0);
}

static void remove_student(const char *root)
{
    char cmd[PATH_MAX + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    cr_assert_eq(system(cmd), 0);
}

/* dir= is made absolute against the referee's folder; the program and a
 * word naming a file there become absolute, other words stay; the program
 * is hashed; stderr= is absolute against the referee's folder. */
Test(spec, paths_resolve_against_dir)
{
    char root[PATH_MAX], dir[PATH_MAX], want[3 * PATH_MAX];
    make_student(root, sizeof root, dir, sizeof dir);
    struct spec eng;
    struct err e;
    cr_assert_eq(spec_parse("name=a dir=alice cmd=bin/prog script.py one-move alice "
                                  "stderr=logs/a.txt",
                                  &eng, &e),
                 0, "%s", e.msg);
    cr_expect_str_eq(eng.dir, dir);
    char words[4 * PATH_MAX];
    joined(&eng, words, sizeof words);
    snprintf(want, sizeof want, "%s/bin/prog|%s/script.py|one-move|alice|{in}|{out}|{depth}", dir,
             dir);
    cr_expect_str_eq(words, want);
    snprintf(want, sizeof want, "%s/bin/prog", dir);
    cr_expect_str_eq(eng.program, want);
    cr_expect_eq(strlen(eng.sha256), SHA256_HEX - 1, "digest '%s'", eng.sha256);
    snprintf(want, sizeof want, "%s/logs/a.txt", root);
    cr_expect_str_eq(eng.stderr_path, want);
    cr_expect_eq(spec_check(&eng, &e), 0, "%s", e.msg);
    spec_free(&eng);
    /* Without dir=, the referee's folder. */
    cr_assert_eq(spec_parse("alice/bin/prog", &eng, &e), 0, "%s", e.msg);
    cr_expect_str_eq(eng.dir, root);
    snprintf(want, sizeof want, "%s/bin/prog", dir);
    cr_expect_str_eq(eng.argv[0], want);
    cr_expect_str_eq(eng.name, "prog");
    spec_free(&eng);
    remove_student(root);
}

/* What a root referee's engines and judge run as (uid and group
 * SBX_ROOT_ENGINE_UID) must read and run its files: the program, each word
 * naming a file, and search their folders, but the folder it enters (an
 * engine's dir=); each refusal names the path, its mode and the chmod. */
Test(spec, a_file_out_of_nobodys_reach_is_named_with_its_chmod)
{
    char root[PATH_MAX], dir[PATH_MAX], path[PATH_MAX + 16], want[4 * PATH_MAX];
    make_student(root, sizeof root, dir, sizeof dir);
    uid_t nobody = getuid() == 65534 ? 65533 : 65534;   /* never the files' owner */
    struct spec eng;
    struct err e;
    cr_assert_eq(spec_parse("name=a dir=alice cmd=bin/prog script.py", &eng, &e), 0, "%s",
                 e.msg);
    snprintf(path, sizeof path, "%s/script.py", dir);
    cr_assert_eq(chmod(path, 0644), 0);
    cr_assert_eq(spec_check_reach(&eng, "engine 'a'", "the engines", eng.dir, nobody, &e), -1);
    snprintf(want, sizeof want, "engine 'a': %s/bin/prog is out of reach of uid %ld (nobody), "
             "who runs the engines of a referee run as root: mode 0700, owner uid %ld; give "
             "others read and execute (chmod o+rx %s/bin/prog)", dir, (long)nobody,
             (long)getuid(), dir);
    cr_expect_str_eq(e.msg, want);
    snprintf(path, sizeof path, "%s/bin/prog", dir);
    cr_assert_eq(chmod(path, 0755), 0);
    cr_assert_eq(spec_check_reach(&eng, "engine 'a'", "the engines", eng.dir, nobody, &e), -1);
    snprintf(want, sizeof want, "engine 'a': %s/bin is out of reach of uid %ld (nobody), who "
             "runs the engines of a referee run as root: mode 0700, owner uid %ld; give others "
             "search (chmod o+x %s/bin)", dir, (long)nobody, (long)getuid(), dir);
    cr_expect_str_eq(e.msg, want);
    snprintf(path, sizeof path, "%s/bin", dir);
    cr_assert_eq(chmod(path, 0755), 0);
    /* script.py's folder is dir=, entered as root before giving it up. */
    cr_expect_eq(spec_check_reach(&eng, "engine 'a'", "the engines", eng.dir, nobody, &e), 0,
                 "%s", e.msg);
    /* A judge enters a folder of its own: dir= needs searching. */
    cr_assert_eq(spec_check_reach(&eng, NULL, "the judge", NULL, nobody, &e), -1);
    snprintf(want, sizeof want, "%s is out of reach of uid %ld (nobody), who runs the judge of "
             "a referee run as root: mode 0700, owner uid %ld; give others search (chmod o+x "
             "%s)", dir, (long)nobody, (long)getuid(), dir);
    cr_expect_str_eq(e.msg, want);
    spec_free(&eng);
    remove_student(root);
}

struct dir_error {
    char spec[48];
    char msg[96];
};

ParameterizedTestParameters(spec, bad_dir_or_program_is_refused_before_playing)
{
    static struct dir_error cases[] = {
        { "dir=nowhere cmd=x", "dir=nowhere: No such file or directory" },
        { "dir=alice/script.py cmd=x", "dir=alice/script.py: not a folder" },
        { "dir=alice cmd=script.py",
          "program 'script.py' not found in PATH: did you mean ./script.py?" },
        { "dir=alice cmd=./script.py", "program ROOT/alice/script.py is not executable" },
        { "cmd=alice/missing", "program ROOT/alice/missing does not exist" },
        { "cmd=alice/bin", "program ROOT/alice/bin is not a file" },
        { "cmd=no-such-program-anywhere", "program 'no-such-program-anywhere' not found in PATH" },
    };
    return cr_make_param_array(struct dir_error, cases, sizeof cases / sizeof *cases);
}

ParameterizedTest(struct dir_error *c, spec, bad_dir_or_program_is_refused_before_playing)
{
    char root[PATH_MAX], dir[PATH_MAX], want[2 * PATH_MAX];
    make_student(root, sizeof root, dir, sizeof dir);
    struct spec eng;
    memset(&eng, 0, sizeof eng);
    struct err e;
    cr_assert_eq(spec_keys_parse(c->spec, SPEC_ENGINE, &eng.keys, &e), 0, "%s", e.msg);
    cr_assert_eq(spec_resolve_all(&eng, 1, NULL, 1, &e), -1, "'%s' accepted", c->spec);
    const char *at = strstr(c->msg, "ROOT");
    if (at)
        snprintf(want, sizeof want, "engine 1: %.*s%s%s", (int)(at - c->msg), c->msg, root,
                 at + 4);
    else
        snprintf(want, sizeof want, "engine 1: %s", c->msg);
    cr_expect_str_eq(e.msg, want);
    spec_free(&eng);
    remove_student(root);
}

/* Names without name= are made unique (the first keeps its name); two
 * engines given one name= are refused, naming both. */
Test(spec, default_names_are_made_unique)
{
    static const char *const specs[] = { "engine a", "engine b", "name=engine-2 cmd=y",
                                         "engine c", "name=engine cmd=z" };
    static const char *const names[] = { "engine-3", "engine-4", "engine-2", "engine-5",
                                         "engine" };
    struct spec eng[5];
    memset(eng, 0, sizeof eng);
    struct err e;
    for (int i = 0; i < 5; i++)
        cr_assert_eq(spec_keys_parse(specs[i], SPEC_ENGINE, &eng[i].keys, &e), 0);
    cr_assert_eq(spec_resolve_all(eng, 5, NULL, 0, &e), 0, "%s", e.msg);
    for (int i = 0; i < 5; i++)
        cr_expect_str_eq(eng[i].name, names[i], "engine %d", i + 1);
    for (int i = 0; i < 5; i++)
        spec_free(&eng[i]);
    memset(eng, 0, sizeof eng);
    static const char *const twice[] = { "name=a cmd=x", "engine", "name=a cmd=y" };
    for (int i = 0; i < 3; i++)
        cr_assert_eq(spec_keys_parse(twice[i], SPEC_ENGINE, &eng[i].keys, &e), 0);
    cr_assert_eq(spec_resolve_all(eng, 3, NULL, 0, &e), -1);
    cr_assert_str_eq(e.msg, "engines 1 and 3 are both named 'a'");
    for (int i = 0; i < 3; i++)
        spec_free(&eng[i]);
}

/* A long default name keeps its suffix within REC_NAME_MAX. */
Test(spec, long_default_names_stay_unique)
{
    char spec[2][128];
    struct spec eng[2];
    memset(eng, 0, sizeof eng);
    struct err e;
    for (int i = 0; i < 2; i++) {
        snprintf(spec[i], sizeof spec[i], "%.*s %d", 80,
                 "pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppp",
                 i);
        cr_assert_eq(spec_keys_parse(spec[i], SPEC_ENGINE, &eng[i].keys, &e), 0);
    }
    cr_assert_eq(spec_resolve_all(eng, 2, NULL, 0, &e), 0, "%s", e.msg);
    cr_assert_eq(strlen(eng[0].name), REC_NAME_MAX - 1);
    cr_assert_eq(strlen(eng[1].name), REC_NAME_MAX - 1);
    cr_assert_str_eq(eng[1].name + REC_NAME_MAX - 3, "-2", "%s", eng[1].name);
    cr_assert_str_neq(eng[0].name, eng[1].name);
    for (int i = 0; i < 2; i++)
        spec_free(&eng[i]);
}

/* ---- found by tests/fuzz/engine_spec ---------------------------------- */

/* A program path ending in '/' has no base name: the path names it. */
Test(spec, name_of_a_path_ending_in_a_slash)
{
    struct spec eng;
    struct err e;
    cr_assert_eq(spec_parse("no-such-dir/", &eng, &e), 0, "%s", e.msg);
    cr_assert_str_eq(eng.name, "no-such-dir/");
    spec_free(&eng);
}

/* The digest reads regular files only: a device never ends. */
Test(spec, does_not_hash_a_device, .timeout = 10)
{
    struct spec eng;
    struct err e;
    char hex[SHA256_HEX];
    cr_assert_eq(spec_parse("/dev/zero {in}", &eng, &e), 0, "%s", e.msg);
    cr_assert_str_eq(eng.sha256, "");
    spec_free(&eng);
    cr_assert_eq(sha256_file("/dev/zero", hex, &e), -1);
    cr_assert_str_eq(e.msg, "not a regular file");
}

/* spec_quote's text splits back into the word, and is bare when it can be. */
Test(spec, quoted_words_split_back_whole)
{
    static const char *const words[] = { "/usr/bin/engine", "{in}", "--depth=3", "two words",
                                         "it's", "", "a\"b\\c", "$HOME", "x,y" };
    static const char *const quoted[] = { "/usr/bin/engine", "{in}", "--depth=3", "'two words'",
                                          "'it'\\''s'", "''", "'a\"b\\c'", "'$HOME'", "'x,y'" };
    for (size_t i = 0; i < sizeof words / sizeof *words; i++) {
        char buf[128], spec[160];
        long n = spec_quote(words[i], buf, sizeof buf, 0);
        cr_assert_str_eq(buf, quoted[i], "word '%s'", words[i]);
        cr_assert_eq(n, (long)strlen(quoted[i]));
        snprintf(spec, sizeof spec, "cmd=/bin/true %s", buf);
        struct spec eng;
        memset(&eng, 0, sizeof eng);
        struct err e;
        cr_assert_eq(spec_parse(spec, &eng, &e), 0, "%s: %s", spec, e.msg);
        cr_assert_eq(eng.argc >= 2, 1);
        cr_assert_str_eq(eng.argv[1], words[i], "'%s' split into '%s'", buf, eng.argv[1]);
        spec_free(&eng);
    }
    char small[8];
    cr_assert_eq(spec_quote("two words", small, sizeof small, 0), -1);
}

/* spec_join quotes each word and puts one blank between them; words that
 * do not fit are left out whole, without a blank at the end. */
Test(spec, joined_words_are_one_command_or_the_words_that_fit)
{
    char *const words[] = { "/bin/sh", "-c", "touch PWNED" };
    char buf[64];
    cr_assert_eq(spec_join(words, 3, buf, sizeof buf), 24);
    cr_assert_str_eq(buf, "/bin/sh -c 'touch PWNED'");
    cr_assert_eq(spec_join(words, 0, buf, sizeof buf), 0);
    cr_assert_str_eq(buf, "");
    char small[16];
    cr_assert_eq(spec_join(words, 3, small, sizeof small), -1);
    cr_assert_str_eq(small, "/bin/sh -c");
}
