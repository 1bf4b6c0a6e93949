/* SPDX-License-Identifier: MIT */
/*
 * Gate policies: the --disable / --severity / --fail-on flags and the policy file that
 * holds the same rules one per line, so a CI job can keep its gate in the repository.
 *
 *   # comment
 *   fail-on warning
 *   disable tracedat.format.unparsable
 *   severity tracedat.time.backwards=error
 *   disable tracedat.metadata.*
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tracefsck/policy.h"

int cli_policy_disable(struct tfk_policy *policy, const char *pattern, const char *where)
{
	if (tfk_policy_disable(policy, pattern))
		return 0;
	fprintf(stderr, "tracefsck check: %s: '%s' names no fault code (see 'tracefsck problems')\n", where, pattern);
	return -1;
}

int cli_policy_severity(struct tfk_policy *policy, const char *rule, const char *where)
{
	char code[128];
	const char *eq = strchr(rule, '=');
	enum tfk_severity sev;
	if (!eq || (size_t)(eq - rule) >= sizeof(code) || !tfk_severity_from_name(eq + 1, &sev)) {
		fprintf(stderr, "tracefsck check: %s: '%s' is not CODE=note|warning|error\n", where, rule);
		return -1;
	}
	memcpy(code, rule, (size_t)(eq - rule));
	code[eq - rule] = '\0';
	if (tfk_policy_set_severity(policy, code, sev))
		return 0;
	fprintf(stderr, "tracefsck check: %s: '%s' names no fault code (see 'tracefsck problems')\n", where, code);
	return -1;
}

int cli_policy_fail_on(const char *level, bool *fail_on_warning, const char *where)
{
	if (strcmp(level, "error") == 0 || strcmp(level, "warning") == 0) {
		*fail_on_warning = strcmp(level, "warning") == 0;
		return 0;
	}
	fprintf(stderr, "tracefsck check: %s: fail-on takes 'error' or 'warning', not '%s'\n", where, level);
	return -1;
}

/* Split off the next blank-separated word of s (modified in place); NULL when none is left. */
static char *word(char **s)
{
	char *p = *s;
	while (*p && isspace((unsigned char)*p))
		p++;
	if (!*p)
		return NULL;
	char *w = p;
	while (*p && !isspace((unsigned char)*p))
		p++;
	if (*p)
		*p++ = '\0';
	*s = p;
	return w;
}

/* How long a FIFO (or <(...)) may keep the policy coming before a byte arrives. */
#define POLICY_WAIT_MS 10000

/*
 * The policy file, opened without blocking: a FIFO with no writer would otherwise hold the
 * run forever at open. A regular file, or a FIFO or pipe that sends something soon; NULL else.
 */
static FILE *open_policy(const char *path)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISFIFO(st.st_mode))) {
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	if (S_ISFIFO(st.st_mode)) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r;
		while ((r = poll(&p, 1, POLICY_WAIT_MS)) < 0 && errno == EINTR)
			;
		/* nothing within the wait (no writer at all) or only the end of it: no policy */
		if (r <= 0 || !(p.revents & POLLIN)) {
			close(fd);
			return NULL;
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK); /* the rest as it comes */
	}
	FILE *f = fdopen(fd, "r");
	if (!f)
		close(fd);
	return f;
}

int cli_policy_load(const char *path, struct tfk_policy *policy, bool *fail_on_warning)
{
	FILE *f = open_policy(path);
	if (!f) {
		fprintf(stderr, "tracefsck check: cannot read policy file '%s'\n", path);
		return -1;
	}
	char line[512], where[64];
	int rc = 0;
	for (unsigned n = 1; rc == 0 && fgets(line, sizeof(line), f); n++) {
		snprintf(where, sizeof(where), "policy line %u", n);
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "tracefsck check: %s: longer than %zu bytes\n", where, sizeof(line) - 2);
			rc = -1;
			break;
		}
		char *hash = strchr(line, '#');
		if (hash)
			*hash = '\0';
		char *rest = line, *verb = word(&rest), *arg = word(&rest);
		if (!verb)
			continue;
		if (!arg || word(&rest)) {
			fprintf(stderr, "tracefsck check: %s: expected 'VERB ARGUMENT'\n", where);
			rc = -1;
		} else if (strcmp(verb, "disable") == 0) {
			rc = cli_policy_disable(policy, arg, where);
		} else if (strcmp(verb, "severity") == 0) {
			rc = cli_policy_severity(policy, arg, where);
		} else if (strcmp(verb, "fail-on") == 0) {
			rc = cli_policy_fail_on(arg, fail_on_warning, where);
		} else {
			fprintf(stderr, "tracefsck check: %s: unknown rule '%s' (disable, severity, fail-on)\n", where, verb);
			rc = -1;
		}
	}
	fclose(f);
	return rc;
}
