/* SPDX-License-Identifier: MIT */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "options.h"
#include "tracefsck/tracefsck.h"

void usage(void)
{
	usage_to(stderr);
}

void usage_to(FILE *out)
{
	fputs("usage: tracefsck check [--json|--sarif|--github|--hazards] [--quiet] [--fail-on=error|warning]\n"
	      "                       [--disable CODE] [--severity CODE=LEVEL] [--policy FILE]\n"
	      "                       [--no-libtraceevent] [--no-format-memo] [--format-cache DIR] [--whole-traces]\n"
	      "                       [-j N] [--threads N] [--idle-timeout S]\n"
	      "                       [--timeout S] [--max-memory SIZE] [--shard I/N] [--files-from LIST] FILE...\n"
	      "         (FILE: a trace file or directory, a folder or archive of them (each trace checked on its\n"
	      "          own), - for standard input, a FIFO, or compressed: xz, gzip, zstd, bzip2)\n"
	      "       tracefsck repair [-q] [--json] [--force] [--always-write] [--svg FILE] IN (-o OUT | --in-place | --dry-run)\n"
	      "       tracefsck scrub [-q] [--json] [--force] [--profile=identity|public] [--keep-paths]\n"
	      "                       [--keep-tasks] [--keep-payloads] [--key-file FILE] [--repair] IN -o OUT\n"
	      "       tracefsck describe [--json] FILE... | --svg|--html FILE\n"
	      "       tracefsck problems [--json|--man|--markdown]\n"
	      "       tracefsck explain CODE\n"
	      "       tracefsck completion bash|zsh\n"
	      "       tracefsck --version\n"
	      "\n"
	      "Exit status (check: ORed over files): 0 clean, 1 repaired, 4 faults found (or left\n"
	      "after repair), 8 operational error or incomplete check, 16 usage error, 128 internal error.\n"
	      "scrub: 0 scrubbed, 1 repaired then scrubbed, 4 refused (the input has faults), 8 a format\n"
	      "scrub does not handle yet (or not a trace, or a write failed), 16 usage, 128 internal error.\n"
	      "Help on one command: tracefsck help CMD (or CMD --help).\n",
	      out);
}

static int run(const char *cmd, int n, char **args);

/*
 * Ctrl-C ends the run as fsck(8) does, with 32, not the shell's 130: a script tells an
 * interrupted check from a finished one by the same status bits as everything else. Nothing
 * needs undoing: inputs are only read, a copy held in memory goes with the process, and a
 * repair's unfinished output has no name (or repair_output.c removes it first).
 */
static void on_interrupt(int sig)
{
	(void)sig;
	_exit(EXIT_CANCELED);
}

/* Unless SIGINT is ignored (a background job of a shell): then it stays ignored. */
static void catch_interrupt(void)
{
	struct sigaction old, sa;
	if (sigaction(SIGINT, NULL, &old) != 0 || old.sa_handler == SIG_IGN)
		return;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_interrupt;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

int main(int argc, char **argv)
{
	catch_interrupt();
	if (argc < 2) {
		usage();
		return EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "help") == 0) {
		if (argc == 2) {
			usage_to(stdout);
			return EXIT_CLEAN;
		}
		if (argc == 3 && cli_command_help(argv[2], stdout) == 0)
			return EXIT_CLEAN;
		fprintf(stderr, "tracefsck help: no command '%s'\n", argc > 2 ? argv[2] : "");
		usage();
		return EXIT_USAGE;
	}
	if (cli_wants_help(argc - 1, argv + 1) && cli_command_help(cmd, stdout) == 0)
		return EXIT_CLEAN;
	int n = 0;
	char **args = cli_expand_args(cmd, argc - 1, argv + 1, &n);
	if (!args) {
		fprintf(stderr, "tracefsck: out of memory\n");
		return EXIT_OPERATIONAL;
	}
	int rc = run(cmd, n, args);
	free(args);
	return rc;
}

/* The command cmd with its (expanded) words. */
static int run(const char *cmd, int n, char **args)
{
	if (strcmp(cmd, "check") == 0)
		return cmd_check(n, args);
	if (strcmp(cmd, "repair") == 0)
		return cmd_repair(n, args);
	if (strcmp(cmd, "scrub") == 0)
		return cmd_scrub(n, args);
	if (strcmp(cmd, "describe") == 0)
		return cmd_describe(n, args);
	if (strcmp(cmd, "problems") == 0)
		return cmd_problems(n, args);
	if (strcmp(cmd, "explain") == 0)
		return cmd_explain(n, args);
	if (strcmp(cmd, "completion") == 0)
		return cmd_completion(n, args);
	if (strcmp(cmd, "--version") == 0) {
		/* the library's version (it may differ from the headers'), then what the build reads with */
		char features[1024];
		tfk_build_features(features, sizeof(features));
		printf("tracefsck %s\n%s", tfk_version(NULL), features);
		return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_OPERATIONAL;
	}
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0) {
		usage_to(stdout);
		return EXIT_CLEAN;
	}
	fprintf(stderr, "tracefsck: unknown command '%s'\n", cmd);
	usage();
	return EXIT_USAGE;
}
