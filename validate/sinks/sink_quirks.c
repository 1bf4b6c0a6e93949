/* SPDX-License-Identifier: MIT */
/*
 * Writer quirks in the sinks: a finding whose code is a known writer behaviour says which
 * writer versions do it and which release stopped, so a triager reads "trace-cmd 3.2 wrote
 * this" rather than "this file is damaged". Findings of other codes print as they always did.
 */
#include <string.h>

#include "sink_common.h"
#include "tracefsck/quirk.h"

static void range_words(struct tfk_line *l, const struct tfk_quirk *q)
{
	tfk_line_printf(l, "%s %s", q->writer, q->first_bad);
	if (strcmp(q->first_bad, q->last_bad) != 0)
		tfk_line_printf(l, "..%s", q->last_bad);
	if (q->fixed_in[0])
		tfk_line_printf(l, ", fixed in %s", q->fixed_in);
	else
		tfk_line_printf(l, ", no fixing release known");
}

void tfk_line_text_quirk(struct tfk_line *l, const struct tfk_finding *f)
{
	const struct tfk_quirk *q = tfk_fault_quirk(f->fault);
	if (!q)
		return;
	tfk_line_printf(l, " {writer quirk: ");
	range_words(l, q);
	tfk_line_printf(l, "}");
}

void tfk_line_json_quirk(struct tfk_line *l, const struct tfk_finding *f)
{
	const struct tfk_quirk *q = tfk_fault_quirk(f->fault);
	if (!q)
		return;
	const char *key[] = { "writer", "first_bad", "last_bad", "fixed_in", "effect", "repair" };
	const char *val[] = { q->writer, q->first_bad, q->last_bad, q->fixed_in, q->effect, q->repair };
	tfk_line_printf(l, ",\"quirk\":{");
	for (size_t i = 0; i < sizeof key / sizeof key[0]; i++) {
		tfk_line_printf(l, "%s\"%s\":", i ? "," : "", key[i]);
		tfk_line_json_str(l, val[i], strlen(val[i]));
	}
	tfk_line_printf(l, "}");
}
