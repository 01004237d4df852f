/* The `atdc diff` command: main.c hands it the arguments that follow
 * "diff" (argv[0] is "diff"); it returns the exit status. */
#ifndef ATDC_DIFF_CLI_H
#define ATDC_DIFF_CLI_H

int diff_main(int argc, char **argv);

#endif
