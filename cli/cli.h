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
	EXIT_CANCELED = 32, /* interrupted (SIGINT): "checking canceled by user request" */
	EXIT_INTERNAL = 128,
};

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* A file mapped read-only (data is NULL for an empty file). */
struct cli_map {
	const uint8_t *data;
	size_t size;
};

/* Map path; on failure say why on stderr (as "tracefsck CMD: ...") and return -1. */
int cli_map_file(const char *cmd, const char *path, struct cli_map *m);
void cli_unmap(struct cli_map *m);
/* A tfk_write_fn for standard output. */
int cli_write_stdout(void *user, const char *bytes, size_t len);

/* Gate policy rules (policy_file.c); each says what is wrong on stderr and returns -1. */
struct tfk_policy;
int cli_policy_disable(struct tfk_policy *policy, const char *pattern, const char *where);
int cli_policy_severity(struct tfk_policy *policy, const char *rule, const char *where);
int cli_policy_fail_on(const char *level, bool *fail_on_warning, const char *where);
int cli_policy_load(const char *path, struct tfk_policy *policy, bool *fail_on_warning);

/* The scratch directory of a check's archives, removed if a signal ends the run (scratch_guard.c). */
#include <signal.h>
void cli_scratch_handlers(void);
void cli_scratch_guard(const char *path);
void cli_signals_block(sigset_t *was);
void cli_signals_restore(const sigset_t *was);

struct tfk_format_memo;
/* check --format-cache DIR (format_cache.c): refused (a message, -1) when DIR lies at or beneath
 * the directory of one of the operands, or the memo refuses it; ignored entries are listed. */
int cli_format_cache_open(struct tfk_format_memo *memo, const char *dir, const char *const *ops, size_t nops);
/* Write what the run learnt; a failure is said, not fatal (the findings stand). */
void cli_format_cache_save(struct tfk_format_memo *memo, const char *dir);

int cmd_check(int argc, char **argv);
int cmd_repair(int argc, char **argv);
int cmd_describe(int argc, char **argv);
int cmd_scrub(int argc, char **argv);
int cmd_problems(int argc, char **argv);
int cmd_explain(int argc, char **argv);
void usage(void);
/* The usage of every command, to out. */
void usage_to(FILE *out);

/* Command lines as people type them (args.c). */
/* argv of command cmd with bundled short options split ("-qj2": "-q", "-j", "2"): one block to
 * free() once the command is done; NULL: no memory. */
char **cli_expand_args(const char *cmd, int argc, char **argv, int *out_argc);
/* Does argv (argv[0] the command) ask for --help or -h before any "--"? */
bool cli_wants_help(int argc, char **argv);
/* A size as people type it: bytes, or with a K, M, G or T suffix (powers of 1024); at least
 * 1 MiB. -1, said on stderr naming the option what, when it is not one. */
int cli_parse_size(const char *v, uint64_t *bytes, const char *what);
/* The help of one command from the option tables, to out; -1 when cmd is no command. */
int cli_command_help(const char *cmd, FILE *out);

#endif
