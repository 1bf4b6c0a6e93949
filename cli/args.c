/* SPDX-License-Identifier: MIT */
/*
 * The command line as people type it: `tracefsck help [CMD]`, `CMD --help` and `-h`, and
 * short options bundled the getopt way (`-qj2` is `-q -j 2`, `-ofile` is `-o file`). The
 * commands' own parsers then see one option per word; what a short option is and whether it
 * takes a value comes from the option tables (options.h), so there is one list of options.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

/* The short option c of command cmd: found, and whether it takes a value. */
static bool short_option(const char *cmd, char c, bool *takes_value)
{
#define X(command, name, alias, value, help)                                                              \
	{                                                                                                 \
		const char *n_ = (name), *a_ = (alias);                                                   \
		const char *s_ = n_[1] != '-' ? n_ : a_; /* "-o" is its own short form */                \
		if (strcmp(#command, cmd) == 0 && s_ && s_[0] == '-' && s_[1] == c && s_[2] == '\0') {     \
			*takes_value = (value) != CLI_NONE;                                               \
			return true;                                                                      \
		}                                                                                         \
	}
	CLI_OPTIONS(X)
#undef X
	return false;
}

/* Is a word a bundle of cmd's short options ("-qj2"), each one known? */
static bool is_bundle(const char *cmd, const char *a)
{
	if (a[0] != '-' || a[1] == '-' || a[1] == '\0' || a[2] == '\0')
		return false;
	for (const char *p = a + 1; *p; p++) {
		bool value;
		if (!short_option(cmd, *p, &value))
			return false;
		if (value)
			return true; /* the rest of the word is its value */
	}
	return true;
}

char **cli_expand_args(const char *cmd, int argc, char **argv, int *out_argc)
{
	/* Each character of a word becomes at most two words: a bound on what is needed. The
	 * words made ("-q") are kept in the same block, after the array, so one free() ends all. */
	size_t cap = 1;
	for (int i = 0; i < argc; i++)
		cap += strlen(argv[i]) + 1;
	char **out = calloc(cap, sizeof(*out) + 3);
	if (!out)
		return NULL;
	char *made = (char *)(out + cap);
	int n = 0;
	bool operands = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (i == 0 || operands || !is_bundle(cmd, a)) {
			operands |= i > 0 && strcmp(a, "--") == 0;
			out[n++] = argv[i];
			continue;
		}
		for (const char *p = a + 1; *p; p++) {
			bool value = false;
			short_option(cmd, *p, &value);
			char *opt = made;
			made += 3;
			opt[0] = '-', opt[1] = *p, opt[2] = '\0';
			out[n++] = opt;
			if (value) {
				if (p[1])
					out[n++] = (char *)(p + 1); /* points into argv: lives as long */
				break;
			}
		}
	}
	out[n] = NULL;
	*out_argc = n;
	return out;
}

int cli_parse_size(const char *v, uint64_t *bytes, const char *what)
{
	char *end;
	errno = 0;
	unsigned long long n = strtoull(v, &end, 10);
	unsigned shift = 0;
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	case 't': case 'T': shift = 40; end++; break;
	default: break;
	}
	/* a budget under 1 MiB could not hold a trace's header sections; above 1 PiB is a typo */
	if (*v < '0' || *v > '9' || *end != '\0' || errno || n > (1ull << 50) >> shift || (n << shift) < (1ull << 20)) {
		fprintf(stderr, "tracefsck: %s takes a size from 1M to 1024T (bytes, or with K, M, G or T), not '%s'\n", what,
			v);
		return -1;
	}
	*bytes = (uint64_t)n << shift;
	return 0;
}

/* Does the command line ask for help (before any "--")? */
bool cli_wants_help(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0)
			return false;
		if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
			return true;
	}
	return false;
}

static void print_value(FILE *out, enum cli_value v)
{
	static const char *const names[] = { "", " FILE", " N", " error|warning", " CODE", " CODE=LEVEL", " bash|zsh", " SIZE",
					     " identity|public", " I/N" };
	fputs(names[v], out);
}

int cli_command_help(const char *cmd, FILE *out)
{
	bool found = false;
#define X(command, operands, summary)                                                              \
	if (strcmp(#command, cmd) == 0) {                                                          \
		found = true;                                                                      \
		fprintf(out, "usage: tracefsck %s [options]", cmd);                               \
		print_value(out, operands);                                                        \
		fprintf(out, "%s\n\n%s.\n", (operands) == CLI_FILE && strcmp(cmd, "repair") && strcmp(cmd, "scrub") ? "..." : "", \
			summary);                                                                  \
	}
	CLI_COMMANDS(X)
#undef X
	if (!found)
		return -1;
	fputs("\noptions:\n", out);
#define X(command, name, alias, value, help)                                                       \
	if (strcmp(#command, cmd) == 0) {                                                          \
		int w_ = fprintf(out, "  %s%s%s", (alias) ? (const char *)(alias) : "", (alias) ? ", " : "", name); \
		const char *v_[] = { "", " FILE", " N", "=error|warning", " CODE", " CODE=LEVEL", " bash|zsh", " SIZE", \
				     "=identity|public", " I/N" };                                                  \
		w_ += fprintf(out, "%s", v_[value]);                                                \
		fprintf(out, "%*s%s\n", w_ < 30 ? 30 - w_ : 1, "", help);                           \
	}
	CLI_OPTIONS(X)
#undef X
	fputs("  -h, --help                  print this help\n", out);
	fputs("\nExit status: 0 clean, 1 repaired, 4 faults found, 8 operational error or incomplete,\n"
	      "16 usage error, 128 internal error. See tracefsck(1).\n",
	      out);
	return 0;
}
