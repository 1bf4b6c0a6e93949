/* SPDX-License-Identifier: MIT */
/* The tracefsck command: subcommands and the exit status they return. */
#ifndef TFK_CLI_H
#define TFK_CLI_H

/* fsck(8) exit status bits, ORed over all files. */
enum {
	EXIT_CLEAN = 0,
	EXIT_REPAIRED = 1,
	EXIT_FAULTS = 4,
	EXIT_OPERATIONAL = 8,
	EXIT_USAGE = 16,
	EXIT_INTERNAL = 128,
};

int cmd_check(int argc, char **argv);
int cmd_repair(int argc, char **argv);
int cmd_describe(int argc, char **argv);
int cmd_problems(int argc, char **argv);
int cmd_explain(int argc, char **argv);
void usage(void);

#endif
