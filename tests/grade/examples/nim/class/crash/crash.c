/* A submission that crashes before it prints anything (the crasher of the
 * example rubrics' test): SIGSEGV. */
int main(void)
{
    volatile int *p = 0;
    return *p;
}
