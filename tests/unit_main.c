/*
 * unit_main.c - the unit suite's main: Criterion's own, after the one
 * thing a program that opens sandboxes does first (sandbox.h): a game's
 * sandbox init is the program that opened it, started again with
 * SBX_INIT_ARG, so test_sandbox's cases that open one need this binary to
 * be an init when asked.
 */
#include <criterion/criterion.h>
#include "arena/sandbox.h"

int main(int argc, char *argv[])
{
    sbx_init_main(argc, argv);
    struct criterion_test_set *tests = criterion_initialize();
    int result = 0;
    if (criterion_handle_args(argc, argv, true))
        result = !criterion_run_all_tests(tests);
    criterion_finalize(tests);
    return result;
}
