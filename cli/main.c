/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "options.h"
#include "tracefsck/tracefsck.h"

void usage(void)
{
	fputs("usage: tracefsck check [--json|--sarif|--github|--hazards] [--quiet] [--fail-on=error|warning]\n"
	      "                       [--disable CODE] [--severity CODE=LEVEL] [--policy FILE]\n"
	      "                       [--no-libtraceevent] [-j N] [--threads N] [--idle-timeout S] FILE...\n"
	      "         (FILE may be a directory, - for standard input, a FIFO, or compressed: xz, gzip, zstd)\n"
	      "       tracefsck repair [-q] [--json] [--force] IN (-o OUT | --in-place | --dry-run)\n"
	      "       tracefsck describe [--json] FILE\n"
	      "       tracefsck problems [--json|--man]\n"
	      "       tracefsck explain CODE\n"
	      "       tracefsck completion bash|zsh\n"
	      "       tracefsck --version\n"
	      "\n"
	      "Exit status (check: ORed over files): 0 clean, 1 repaired, 4 faults found (or left\n"
	      "after repair), 8 operational error or incomplete check, 16 usage error, 128 internal error.\n",
	      stderr);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage();
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(cmd, "repair") == 0)
		return cmd_repair(argc - 1, argv + 1);
	if (strcmp(cmd, "describe") == 0)
		return cmd_describe(argc - 1, argv + 1);
	if (strcmp(cmd, "problems") == 0)
		return cmd_problems(argc - 1, argv + 1);
	if (strcmp(cmd, "explain") == 0)
		return cmd_explain(argc - 1, argv + 1);
	if (strcmp(cmd, "completion") == 0)
		return cmd_completion(argc - 1, argv + 1);
	if (strcmp(cmd, "--version") == 0) {
		printf("tracefsck %s\n", TRACEFSCK_VERSION);
		return EXIT_CLEAN;
	}
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		usage();
		return EXIT_CLEAN;
	}
	fprintf(stderr, "tracefsck: unknown command '%s'\n", cmd);
	usage();
	return EXIT_USAGE;
}
