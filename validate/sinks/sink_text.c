/* SPDX-License-Identifier: MIT */
/* Text sink: place first, then the fault, then expected versus found. */
#include <inttypes.h>
#include <string.h>

#include "sink_common.h"

static void plural(struct tfk_line *l, uint64_t n, const char *what)
{
	tfk_line_printf(l, "%" PRIu64 " %s%s", n, what, n == 1 ? "" : "s");
}

int tfk_sink_text(const struct tfk_report *r, const char *name, const struct tfk_sink_options *opt,
		  tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	TFK_OWNED_STRING(safe_name, tfk_sanitize_dup(name, strlen(name)));
	enum tfk_severity min = opt ? opt->min_severity : TFK_SEV_NOTE;

	if (!safe_name)
		return -1;
	tfk_line_reset(&l);
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (f->severity < min)
			continue;
		if (f->member[0]) /* inside a trace directory: the member, then offsets inside it */
			tfk_line_printf(&l, "%s/%s: ", safe_name, f->member);
		else
			tfk_line_printf(&l, "%s: ", safe_name);
		if (f->has_offset)
			tfk_line_printf(&l, "0x%" PRIx64 " ", f->offset);
		if (f->in_decoded)
			tfk_line_printf(&l, "(decoded +0x%" PRIx64 ") ", f->decoded_offset);
		if (f->path[0])
			tfk_line_printf(&l, "[%s]", f->path);
		tfk_line_printf(&l, ": %s %s: %s", tfk_severity_name(f->severity), f->fault->id, f->fault->summary);
		if (f->expected[0] || f->found[0]) {
			tfk_line_printf(&l, " (");
			if (f->expected[0])
				tfk_line_printf(&l, "expected %s%s", f->expected, f->found[0] ? ", " : "");
			if (f->found[0])
				tfk_line_printf(&l, "found %s", f->found);
			tfk_line_printf(&l, ")");
		}
		tfk_line_text_hazards(&l, f);
		tfk_line_text_quirk(&l, f);
		tfk_line_printf(&l, "\n");
		if (tfk_line_flush(&l, write, user))
			return -1;
	}

	enum tfk_verdict v = tfk_report_verdict(r);
	tfk_line_printf(&l, "%s: %s", safe_name, tfk_verdict_name(v));
	if (v == TFK_VERDICT_CORRUPT && r->incomplete)
		tfk_line_printf(&l, " (check incomplete)");
	if (v == TFK_VERDICT_FAILED)
		tfk_line_printf(&l, " (warnings fail this gate)");
	tfk_line_printf(&l, ": ");
	plural(&l, r->by_severity[TFK_SEV_ERROR], "error");
	tfk_line_printf(&l, ", ");
	plural(&l, r->by_severity[TFK_SEV_WARNING], "warning");
	tfk_line_printf(&l, ", ");
	plural(&l, r->by_severity[TFK_SEV_NOTE], "note");
	if (r->total > r->count)
		tfk_line_printf(&l, " (%" PRIu64 " not listed)", r->total - (uint64_t)r->count);
	if (r->disabled)
		tfk_line_printf(&l, " (%" PRIu64 " disabled by policy)", r->disabled);
	if (r->stats.format) {
		tfk_line_printf(&l, "; %s, ", r->stats.format);
		if (r->stats.buffers || r->stats.pages) { /* ring-buffer formats */
			plural(&l, r->stats.buffers, "buffer");
			tfk_line_printf(&l, ", ");
			plural(&l, r->stats.cpus, "CPU");
			tfk_line_printf(&l, ", ");
			plural(&l, r->stats.pages, "page");
			tfk_line_printf(&l, ", ");
		}
		plural(&l, r->stats.events, "event");
	}
	tfk_line_printf(&l, "\n");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}
