/* SPDX-License-Identifier: MIT */
/*
 * GitHub Actions workflow commands: ::error / ::warning / ::notice with file= and title=,
 * escaped as GitHub requires, capped at its per-step annotation limits with a closing line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sink_common.h"

/* Escape for workflow commands: data escapes % CR LF; properties also : and , */
static void escaped(struct tfk_line *l, const char *s, size_t n, bool property)
{
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '%')
			tfk_line_printf(l, "%%25");
		else if (c == '\r')
			tfk_line_printf(l, "%%0D");
		else if (c == '\n')
			tfk_line_printf(l, "%%0A");
		else if (property && c == ':')
			tfk_line_printf(l, "%%3A");
		else if (property && c == ',')
			tfk_line_printf(l, "%%2C");
		else if (c < 0x20 || c >= 0x7f)
			tfk_line_printf(l, "\\x%02x", c); /* file names: never a raw control byte */
		else
			tfk_line_printf(l, "%c", c);
	}
}

int tfk_sink_github(const struct tfk_report *r, const char *name, const struct tfk_sink_options *opt,
		    unsigned max_per_severity, tfk_write_fn write, void *user)
{
	struct tfk_line l;
	enum tfk_severity min = opt ? opt->min_severity : TFK_SEV_NOTE;
	unsigned shown[3] = { 0, 0, 0 };
	uint64_t left = 0;
	size_t name_len = strlen(name) < 512 ? strlen(name) : 512;

	tfk_line_reset(&l);
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (f->severity < min)
			continue;
		if (shown[f->severity] >= max_per_severity) {
			left++;
			continue;
		}
		shown[f->severity]++;
		const char *cmd = f->severity == TFK_SEV_ERROR ? "error" : f->severity == TFK_SEV_WARNING ? "warning" : "notice";
		tfk_line_printf(&l, "::%s file=", cmd);
		escaped(&l, name, name_len, true);
		if (f->member[0]) { /* the member file of a trace directory the finding lies in */
			escaped(&l, "/", 1, true);
			escaped(&l, f->member, strlen(f->member), true);
		}
		tfk_line_printf(&l, ",title=");
		escaped(&l, f->fault->id, strlen(f->fault->id), true);
		tfk_line_printf(&l, "::");
		char msg[TFK_FINDING_PATH_MAX + 2 * TFK_FINDING_TEXT_MAX + 256];
		int n = snprintf(msg, sizeof(msg), "[%s] %s%s%s%s%s%s", f->path, f->fault->summary,
				 f->expected[0] ? " (expected " : "", f->expected,
				 f->found[0] ? (f->expected[0] ? ", found " : " (found ") : "", f->found,
				 f->expected[0] || f->found[0] ? ")" : "");
		char where[48] = "";
		if (f->has_offset)
			snprintf(where, sizeof(where), "at 0x%" PRIx64 " ", f->offset);
		escaped(&l, where, strlen(where), false);
		escaped(&l, msg, n > 0 ? (size_t)n : 0, false);
		tfk_line_printf(&l, "\n");
		if (l.truncated || tfk_line_flush(&l, write, user))
			return -1;
	}
	/* Findings counted but not kept (limits) count as not annotated too. */
	left += r->total - (uint64_t)r->count;
	if (left) {
		tfk_line_printf(&l, "::notice file=");
		escaped(&l, name, name_len, true);
		tfk_line_printf(&l, ",title=tracefsck::%" PRIu64 " more findings not annotated (GitHub shows at most %u "
				"annotations of each kind per step); run tracefsck check for all of them\n",
				left, max_per_severity);
		if (l.truncated || tfk_line_flush(&l, write, user))
			return -1;
	}
	return 0;
}
