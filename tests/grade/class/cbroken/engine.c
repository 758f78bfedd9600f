/* A C submission that does not compile (a test submission of referee grade). */
int main(void) { return missing_name; }
