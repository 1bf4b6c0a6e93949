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

void tfk_github_budget_init(struct tfk_github_budget *b, unsigned cap)
{
	memset(b, 0, sizeof(*b));
	b->cap = cap;
	b->room[TFK_SEV_ERROR] = b->room[TFK_SEV_WARNING] = cap;
	/* notices keep one place back: the closing notice must not be the one GitHub drops */
	b->room[TFK_SEV_NOTE] = cap > 0 ? cap - 1 : 0;
}

int tfk_sink_github_budgeted(const struct tfk_report *r, const char *name, const struct tfk_sink_options *opt,
			     struct tfk_github_budget *b, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	enum tfk_severity min = opt ? opt->min_severity : TFK_SEV_NOTE;
	size_t name_len = strlen(name);

	tfk_line_reset(&l);
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (f->severity < min)
			continue;
		if (b->shown[f->severity] >= b->room[f->severity]) {
			b->left++;
			continue;
		}
		b->shown[f->severity]++;
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
		if (tfk_line_flush(&l, write, user))
			return -1;
	}
	/* Findings counted but not kept (limits) count as not annotated too. */
	b->left += r->total - (uint64_t)r->count;
	return 0;
}

int tfk_sink_github_close(const struct tfk_github_budget *b, tfk_write_fn write, void *user)
{
	if (!b->left)
		return 0;
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "::notice title=tracefsck::%" PRIu64 " more findings not annotated (GitHub shows at most %u "
			"annotations of each kind per step); run tracefsck check for all of them\n",
			b->left, b->cap);
	return tfk_line_flush(&l, write, user);
}

int tfk_sink_github(const struct tfk_report *r, const char *name, const struct tfk_sink_options *opt,
		    unsigned max_per_severity, tfk_write_fn write, void *user)
{
	struct tfk_github_budget b;
	tfk_github_budget_init(&b, max_per_severity);
	/* one file: its own budget, max_per_severity of each kind, and a closing notice naming it */
	b.room[TFK_SEV_NOTE] = max_per_severity;
	if (tfk_sink_github_budgeted(r, name, opt, &b, write, user))
		return -1;
	if (!b.left)
		return 0;
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "::notice file=");
	escaped(&l, name, strlen(name), true);
	tfk_line_printf(&l, ",title=tracefsck::%" PRIu64 " more findings not annotated (GitHub shows at most %u "
			"annotations of each kind per step); run tracefsck check for all of them\n",
			b.left, max_per_severity);
	return tfk_line_flush(&l, write, user);
}
