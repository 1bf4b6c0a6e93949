/* SPDX-License-Identifier: MIT */
/*
 * The command line as data: every command, every option it accepts and what each takes. Shell
 * completion is generated from these tables (cmd_completion.c); the usage text can be later.
 * The parsers in cmd_*.c remain the authority: tests/e2e/completion.sh fails when an option
 * they accept, or one the usage text names, is missing here.
 *
 * X-macro tables, so that a file can expand only what it needs (no unused copies):
 *   CLI_COMMANDS(X)  X(command, operands, summary)
 *   CLI_OPTIONS(X)   X(command, name, alias or NULL, value, help)
 * The command "tracefsck" holds the options that stand in place of a command.
 */
#ifndef TFK_CLI_OPTIONS_H
#define TFK_CLI_OPTIONS_H

/* What an option or an operand takes. */
enum cli_value {
	CLI_NONE,       /* nothing: a flag, or a command without operands */
	CLI_FILE,       /* a path */
	CLI_COUNT,      /* a number */
	CLI_GATE,       /* a severity a gate fails on: error or warning */
	CLI_CODE,       /* a fault code, or a family of them (tracedat.page.*) */
	CLI_CODE_LEVEL, /* CODE=LEVEL, LEVEL one of note, warning, error */
	CLI_SHELL,      /* a shell completion is printed for: bash or zsh */
	CLI_SIZE,       /* a size in bytes, with K, M, G or T */
	CLI_PROFILE,    /* a scrub profile: identity or public */
	CLI_SHARD,      /* a shard: I/N, or N with the index from the environment */
};

#define CLI_COMMANDS(X)                                                                     \
	X(check, CLI_FILE, "check trace files and report every fault")                       \
	X(repair, CLI_FILE, "write a repaired copy of a trace")                              \
	X(scrub, CLI_FILE, "write a copy of a trace with its private strings replaced")      \
	X(describe, CLI_FILE, "print the structural map of a trace")                         \
	X(problems, CLI_NONE, "list the fault catalog")                                      \
	X(explain, CLI_CODE, "explain what a fault code means")                              \
	X(completion, CLI_SHELL, "print the shell completion script (bash or zsh)")

#define CLI_OPTIONS(X)                                                                                   \
	X(tracefsck, "--help", "-h", CLI_NONE, "print the usage")                                          \
	X(tracefsck, "--version", NULL, CLI_NONE, "print the version")                                     \
	X(check, "--json", NULL, CLI_NONE, "JSON Lines: one object per finding and per file")              \
	X(check, "--sarif", NULL, CLI_NONE, "one SARIF 2.1.0 document for code scanning")                  \
	X(check, "--github", NULL, CLI_NONE, "GitHub Actions annotations and step summary")                \
	X(check, "--hazards", NULL, CLI_NONE, "per file: the readers it would crash, hang or mislead")     \
	X(check, "--quiet", "-q", CLI_NONE, "list errors only")                                            \
	X(check, "--fail-on", NULL, CLI_GATE, "the lowest severity that fails the check")                  \
	X(check, "--disable", NULL, CLI_CODE, "stop reporting a code or a family of codes")               \
	X(check, "--severity", NULL, CLI_CODE_LEVEL, "re-grade a code: CODE=note|warning|error")           \
	X(check, "--policy", NULL, CLI_FILE, "read gate rules from a file")                                \
	X(check, "--no-libtraceevent", NULL, CLI_NONE, "do not parse formats with libtraceevent")          \
	X(check, "--no-format-memo", NULL, CLI_NONE, "ask libtraceevent about every file's formats, even those seen")  \
	X(check, "--format-cache", NULL, CLI_FILE, "keep libtraceevent's verdicts in this directory between runs") \
	X(check, "--whole-traces", NULL, CLI_NONE, "a FILE inside a trace directory stands for that directory") \
	X(check, "--jobs", "-j", CLI_COUNT, "check N files at a time (0: one per CPU)")                    \
	X(check, "--threads", NULL, CLI_COUNT, "walk the CPUs of a buffer on N threads (0: one per CPU)") \
	X(check, "--idle-timeout", NULL, CLI_COUNT, "end a pipe silent this many seconds (default 60; 0 waits)") \
	X(check, "--timeout", NULL, CLI_COUNT, "stop reading inputs this many seconds into the run (default 600; 0: never)") \
	X(check, "--max-memory", NULL, CLI_SIZE, "memory budget of the run, shared by -j (default 1G)")   \
	X(check, "--shard", NULL, CLI_SHARD, "check only shard I of N of the inputs (N: I from JOB_COMPLETION_INDEX)") \
	X(check, "--files-from", NULL, CLI_FILE, "also check the paths this file lists, one per line (-: stdin)") \
	X(repair, "-o", NULL, CLI_FILE, "write the repaired copy to this file")                            \
	X(repair, "--in-place", NULL, CLI_NONE, "replace the input (through a temporary file)")            \
	X(repair, "--force", NULL, CLI_NONE, "replace OUT when it exists")                                 \
	X(repair, "--dry-run", NULL, CLI_NONE, "repair and re-check without writing")                      \
	X(repair, "--always-write", NULL, CLI_NONE, "write OUT even when there is nothing to repair")        \
	X(repair, "--quiet", "-q", CLI_NONE, "print less")                                                 \
	X(repair, "--json", NULL, CLI_NONE, "findings and the salvage report as JSON Lines")               \
	X(repair, "--svg", NULL, CLI_FILE, "also draw the input's damage: what is kept and dropped")      \
	X(scrub, "-o", NULL, CLI_FILE, "write the scrubbed copy to this file")                            \
	X(scrub, "--force", NULL, CLI_NONE, "replace OUT when it exists")                                  \
	X(scrub, "--quiet", "-q", CLI_NONE, "print nothing when the copy was made")                        \
	X(scrub, "--json", NULL, CLI_NONE, "the scrub report (and a refused input's findings) as JSON Lines") \
	X(scrub, "--profile", NULL, CLI_PROFILE, "identity (host, users, tasks, paths) or public (also payload strings; the default)") \
	X(scrub, "--keep-paths", NULL, CLI_NONE, "keep file names and paths")                             \
	X(scrub, "--keep-tasks", NULL, CLI_NONE, "keep task names (comm)")                                \
	X(scrub, "--keep-payloads", NULL, CLI_NONE, "keep marker text and other payload strings")         \
	X(scrub, "--key-file", NULL, CLI_FILE, "derive the pseudonyms' key from this file (traces compare)") \
	X(scrub, "--repair", NULL, CLI_NONE, "repair a damaged input first, then scrub the repaired copy") \
	X(describe, "--json", NULL, CLI_NONE, "the map as JSON")                                           \
	X(describe, "--svg", NULL, CLI_NONE, "a picture of one file's bytes, findings and timelines (SVG)") \
	X(describe, "--html", NULL, CLI_NONE, "the same picture in a self-contained HTML page")            \
	X(problems, "--json", NULL, CLI_NONE, "the catalog as JSON Lines")                                 \
	X(problems, "--man", NULL, CLI_NONE, "the catalog as a manual page")                               \
	X(problems, "--markdown", NULL, CLI_NONE, "the catalog as Markdown, an anchor per code (docs/faults.md)")

/* tracefsck completion bash|zsh: print the completion script generated from the tables. */
int cmd_completion(int argc, char **argv);

#endif
