/*
 * test_gradecopy.c - a folder tree copied by descriptor within limits
 * (gradecopy.h), on trees made here: what is copied and its hash (grade.h's
 * order, computed here byte by byte), and each fault the listing refuses
 * with its words: a symbolic link, folders nested too deep (2,000 of them:
 * no recursion to overflow), too many entries, a file or files too large
 * counted at their apparent size (sparse files of GiBs, never written).
 * A grading that meets each fault is tested end to end
 * (test_e2e_gradefaults.c).
 */
#define _GNU_SOURCE
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "arena/sha256.h"
#include "arena/textfile.h"
#include "referee/grade/gradecopy.h"

static const struct gcopy_limits roomy = { 1 << 20, 100, 8, 0 };

/* A fresh tree: from/ (filled by the test) and to/ (the copy), open. */
struct tree {
    char dir[64];
    int from, to;
};

static void tree_open(struct tree *t)
{
    snprintf(t->dir, sizeof t->dir, "/tmp/arena-gcopy-XXXXXX");
    cr_assert_not_null(mkdtemp(t->dir));
    char path[128];
    snprintf(path, sizeof path, "%s/from", t->dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    t->from = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    snprintf(path, sizeof path, "%s/to", t->dir);
    cr_assert_eq(mkdir(path, 0755), 0);
    t->to = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    cr_assert(t->from >= 0 && t->to >= 0);
}

static void tree_close(struct tree *t)
{
    close(t->from);
    close(t->to);
    tf_remove_tree(t->dir);
}

/* rel (its folders made) in from/ holding text, with mode. */
static void put(const struct tree *t, const char *rel, const char *text, mode_t mode)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/from/%s", t->dir, rel);
    for (char *s = strchr(path + strlen(t->dir) + 6, '/'); s; s = strchr(s + 1, '/')) {
        *s = '\0';
        mkdir(path, 0755);
        *s = '/';
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
    cr_assert(fd >= 0, "%s: %s", path, strerror(errno));
    cr_assert_eq(tf_write_all(fd, text, strlen(text)), 0);
    close(fd);
}

/* rel in from/, a sparse file of size bytes (nothing written). */
static void put_sparse(const struct tree *t, const char *rel, long long size)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/from/%s", t->dir, rel);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    cr_assert(fd >= 0 && ftruncate(fd, size) == 0, "%s: %s", path, strerror(errno));
    close(fd);
}

/* The copy's file rel, whole (malloc'd). */
static char *copied(const struct tree *t, const char *rel)
{
    char path[PATH_MAX], *text;
    size_t len;
    struct err e;
    snprintf(path, sizeof path, "%s/to/%s", t->dir, rel);
    cr_assert_eq(tf_read(path, 1 << 20, &text, &len, &e), 0, "%s: %s", path, e.msg);
    return text;
}

/* Copying t refuses the tree with the words why. */
static void expect_fault(const struct tree *t, const struct gcopy_limits *lim, const char *why)
{
    struct err e = { 0, 0, "" };
    int rc = gcopy_tree(t->from, t->to, lim, NULL, &e);
    cr_expect_eq(rc, GCOPY_FAULT, "rc %d: %s", rc, e.msg);
    cr_expect_str_eq(e.msg, why);
}

/* Files in byte order of their paths ("a-b" before "a/c": '-' < '/'),
 * folders made, modes' 0755 bits kept, fifos skipped; the hash is grade.h's,
 * computed here from the same bytes. */
Test(gradecopy, copies_the_tree_and_hashes_it_in_byte_order_of_paths)
{
    struct tree t;
    tree_open(&t);
    put(&t, "a/c", "see\n", 0644);
    put(&t, "a-b", "bee\n", 0755);
    put(&t, "empty/.keep", "", 0600);
    char fifo[128];
    snprintf(fifo, sizeof fifo, "%s/from/pipe", t.dir);
    cr_assert_eq(mkfifo(fifo, 0644), 0);
    char sha[SHA256_HEX], want[SHA256_HEX];
    struct err e;
    cr_assert_eq(gcopy_tree(t.from, t.to, &roomy, sha, &e), 0, "%s", e.msg);
    struct sha256 h;
    sha256_init(&h);
    static const char bytes[] = "a-b\0" "4\0" "bee\n" "a/c\0" "4\0" "see\n" "empty/.keep\0" "0";
    sha256_update(&h, bytes, sizeof bytes);   /* the last NUL: after "0" */
    sha256_final(&h, want);
    cr_expect_str_eq(sha, want);
    char *text = copied(&t, "a/c");
    cr_expect_str_eq(text, "see\n");
    free(text);
    struct stat st;
    char path[128];
    snprintf(path, sizeof path, "%s/to/a-b", t.dir);
    cr_expect(stat(path, &st) == 0 && (st.st_mode & 0777) == 0755, "a-b's mode %o",
              st.st_mode & 0777);
    snprintf(path, sizeof path, "%s/to/pipe", t.dir);
    cr_expect_neq(lstat(path, &st), 0, "the fifo was copied");
    tree_close(&t);
}

/* A file of the copy is replaced (a build's product copied back). */
Test(gradecopy, a_file_there_already_is_replaced)
{
    struct tree t;
    tree_open(&t);
    put(&t, "engine", "new\n", 0755);
    char path[128];
    snprintf(path, sizeof path, "%s/to/engine", t.dir);
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    cr_assert(fd >= 0 && write(fd, "old, longer\n", 12) == 12);
    close(fd);
    struct err e;
    cr_assert_eq(gcopy_tree(t.from, t.to, &roomy, NULL, &e), 0, "%s", e.msg);
    char *text = copied(&t, "engine");
    cr_expect_str_eq(text, "new\n");
    free(text);
    tree_close(&t);
}

Test(gradecopy, a_symbolic_link_is_refused_never_followed)
{
    struct tree t;
    tree_open(&t);
    put(&t, "lib/ok.py", "x\n", 0644);
    char link[128];
    snprintf(link, sizeof link, "%s/from/lib/pw", t.dir);
    cr_assert_eq(symlink("/etc/passwd", link), 0);
    expect_fault(&t, &roomy, "lib/pw: a symbolic link: what it names is outside the folder, so "
                             "it is never followed or copied (hand in the file itself)");
    /* A move folder's links (a build's lib.so -> lib.so.1) are skipped. */
    struct gcopy_limits skip = roomy;
    skip.skip_links = 1;
    struct err e;
    cr_expect_eq(gcopy_tree(t.from, t.to, &skip, NULL, &e), 0, "%s", e.msg);
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "%s/to/lib/pw", t.dir);
    cr_expect_neq(lstat(path, &st), 0, "the link was copied");
    free(copied(&t, "lib/ok.py"));
    tree_close(&t);
}

/* 2,000 nested folders: refused at the first level past the limit, named
 * shortened in its middle; the limit itself is allowed. */
Test(gradecopy, folders_nested_past_the_depth_are_refused_without_recursion)
{
    struct tree t;
    tree_open(&t);
    int fd = dup(t.from);
    for (int i = 0; i < 2000; i++) {
        cr_assert_eq(mkdirat(fd, "d", 0755), 0);
        int sub = openat(fd, "d", O_RDONLY | O_DIRECTORY);
        close(fd);
        fd = sub;
        cr_assert(fd >= 0);
    }
    close(fd);
    struct gcopy_limits lim = { 1 << 20, 10000, 64, 0 };
    expect_fault(&t, &lim, "d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/.../d/d/d/d/d/d/d/d/"
                           "d/d/d/d/d/d/d/d/d/d/d/d/d/d/d: folders nested deeper than 64 levels");
    tree_close(&t);
    tree_open(&t);
    put(&t, "a/b/c/f", "deep enough\n", 0644);
    lim.max_depth = 3;
    struct err e;
    cr_expect_eq(gcopy_tree(t.from, t.to, &lim, NULL, &e), 0, "%s", e.msg);
    tree_close(&t);
}

Test(gradecopy, more_entries_than_the_limit_are_refused)
{
    struct tree t;
    tree_open(&t);
    put(&t, "a", "", 0644);
    put(&t, "b", "", 0644);
    put(&t, "c", "", 0644);
    struct gcopy_limits lim = { 1 << 20, 2, 8, 0 };
    struct err e = { 0, 0, "" };
    cr_expect_eq(gcopy_tree(t.from, t.to, &lim, NULL, &e), GCOPY_FAULT);
    cr_expect(strstr(e.msg, ": more than 2 files and folders"), "%s", e.msg);
    tree_close(&t);
}

/* Sparse files count at their apparent size: one of 3 GiB, or several
 * together past the limit; nothing of them is written. */
Test(gradecopy, sizes_count_sparse_files_at_their_apparent_size)
{
    struct tree t;
    tree_open(&t);
    put_sparse(&t, "big", 3LL << 30);
    expect_fault(&t, &roomy, "big: 3 GiB, more than the 1 MiB the files may hold together (a "
                             "sparse file counts at its size)");
    tree_close(&t);
    tree_open(&t);
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "f%d", i);
        put_sparse(&t, name, 600 << 10);
    }
    expect_fault(&t, &roomy, "its files hold 1.8 MiB together, more than 1 MiB (a sparse file "
                             "counts at its size)");
    char path[128];
    struct stat st;
    snprintf(path, sizeof path, "%s/to/f0", t.dir);
    cr_expect_neq(stat(path, &st), 0, "a file was copied before the fault");
    tree_close(&t);
    /* The largest sparse size there is: its own fault, no sum overflows. */
    tree_open(&t);
    put_sparse(&t, "a", 1000);
    char huge[128];
    snprintf(huge, sizeof huge, "%s/from/z", t.dir);
    int fd = open(huge, O_WRONLY | O_CREAT, 0644);
    int grown = fd >= 0 && ftruncate(fd, 0x7fffffffffffffffLL - 4096) == 0;
    if (fd >= 0)
        close(fd);
    if (grown) {   /* the file system may cap a file's size lower */
        struct err e = { 0, 0, "" };
        cr_expect_eq(gcopy_tree(t.from, t.to, &roomy, NULL, &e), GCOPY_FAULT, "%s", e.msg);
        cr_expect(strstr(e.msg, "z: ") == e.msg, "%s", e.msg);
    }
    tree_close(&t);
}

struct size_case {
    long long bytes;
    char text[16];
};

Test(gradecopy, sizes_are_said_in_binary_units)
{
    static const struct size_case cases[] = {
        { 0, "0 bytes" }, { 1, "1 byte" }, { 1023, "1023 bytes" }, { 1024, "1 KiB" },
        { 1536, "1.5 KiB" }, { 16 << 20, "16 MiB" }, { 1100LL << 20, "1.1 GiB" },
        { 3LL << 30, "3 GiB" }, { 5LL << 40, "5 TiB" },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[32];
        cr_expect_str_eq(gcopy_size_text(cases[i].bytes, buf), cases[i].text, "%lld bytes",
                         cases[i].bytes);
    }
}
