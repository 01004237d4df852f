/* peak_rss OUT CMD [ARGS...]: runs CMD (standard streams inherited), then
 * writes its peak resident set size in KiB (getrusage's ru_maxrss of the
 * child) to the file OUT, and exits with CMD's status (128 + the signal if
 * it was killed). For the memory-bound tests of streams. */
#define _DEFAULT_SOURCE

#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fputs("usage: peak_rss OUT CMD [ARGS...]\n", stderr);
        return 2;
    }
    pid_t pid = fork();
    if (pid < 0) {
        perror("peak_rss: fork");
        return 2;
    }
    if (pid == 0) {
        execvp(argv[2], argv + 2);
        perror("peak_rss: exec");
        _exit(127);
    }
    int status;
    struct rusage ru;
    if (wait4(pid, &status, 0, &ru) != pid) {
        perror("peak_rss: wait4");
        return 2;
    }
    FILE *f = fopen(argv[1], "w");
    if (f == NULL || fprintf(f, "%ld\n", ru.ru_maxrss) < 0 || fclose(f) != 0) {
        perror("peak_rss: cannot write the result");
        return 2;
    }
    if (WIFSIGNALED(status))
        return 128 + WTERMSIG(status);
    return WEXITSTATUS(status);
}
