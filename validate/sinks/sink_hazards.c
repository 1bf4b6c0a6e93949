/* SPDX-License-Identifier: MIT */
/*
 * Reader hazards as the sinks show them: a mark on a text line, a JSON array, and the
 * per-file summary of check --hazards. A finding none of whose hazards applies renders
 * exactly as it did before hazards existed.
 */
#include <inttypes.h>
#include <string.h>

#include "sink_common.h"
#include "tracefsck/hazard.h"

void tfk_line_hazard_words(struct tfk_line *l, const struct tfk_hazard *h)
{
	tfk_line_printf(l, "%s %s", h->reader, h->min_version);
	if (strcmp(h->min_version, h->max_version) != 0)
		tfk_line_printf(l, "..%s", h->max_version);
	tfk_line_printf(l, " %s", tfk_hazard_effect_name(h->effect));
	if (h->signal_name)
		tfk_line_printf(l, " (%s)", h->signal_name);
}

void tfk_line_text_hazards(struct tfk_line *l, const struct tfk_finding *f)
{
	size_t n, shown = 0;
	const struct tfk_hazard *h = tfk_fault_hazards(f->fault, &n);
	for (size_t i = 0; i < n; i++) {
		if (!tfk_hazard_applies(&h[i], f))
			continue;
		tfk_line_printf(l, shown++ ? "; " : " {hazard: ");
		tfk_line_hazard_words(l, &h[i]);
	}
	if (shown)
		tfk_line_printf(l, "}");
}

void tfk_line_json_hazard(struct tfk_line *l, const struct tfk_hazard *h)
{
	tfk_line_printf(l, "{\"reader\":");
	tfk_line_json_str(l, h->reader, strlen(h->reader));
	tfk_line_printf(l, ",\"min_version\":");
	tfk_line_json_str(l, h->min_version, strlen(h->min_version));
	tfk_line_printf(l, ",\"max_version\":");
	tfk_line_json_str(l, h->max_version, strlen(h->max_version));
	tfk_line_printf(l, ",\"effect\":\"%s\"", tfk_hazard_effect_name(h->effect));
	if (h->signal_name)
		tfk_line_printf(l, ",\"signal\":%d,\"signal_name\":\"%s\"", h->signal, h->signal_name);
	if (h->condition) {
		tfk_line_printf(l, ",\"condition\":");
		tfk_line_json_str(l, h->condition, strlen(h->condition));
	}
	tfk_line_printf(l, "}");
}

void tfk_line_json_hazards(struct tfk_line *l, const struct tfk_finding *f)
{
	size_t n, shown = 0;
	const struct tfk_hazard *h = tfk_fault_hazards(f->fault, &n);
	for (size_t i = 0; i < n; i++) {
		if (!tfk_hazard_applies(&h[i], f))
			continue;
		tfk_line_printf(l, shown++ ? "," : ",\"hazards\":[");
		tfk_line_json_hazard(l, &h[i]);
	}
	if (shown)
		tfk_line_printf(l, "]");
}

/* Effects a reader of this file meets, worst first: the order of the summary. */
static const enum tfk_hazard_effect order[] = {
	TFK_EFFECT_CRASH, TFK_EFFECT_HANG, TFK_EFFECT_UNBOUNDED_ALLOCATION,
	TFK_EFFECT_MISREAD, TFK_EFFECT_SILENT_LOSS, TFK_EFFECT_REFUSES,
};

int tfk_sink_hazards(const struct tfk_report *r, const char *name, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	TFK_OWNED_STRING(safe_name, tfk_sanitize_dup(name, strlen(name)));
	size_t ncat, total = 0;
	const struct tfk_hazard *all = tfk_hazard_catalog(&ncat);

	if (!safe_name)
		return -1;
	tfk_line_reset(&l);
	/* One line per (hazard, effect): the reader, what it does, then the findings behind it. */
	for (size_t e = 0; e < sizeof order / sizeof order[0]; e++) {
		for (size_t k = 0; k < ncat; k++) {
			const struct tfk_hazard *h = &all[k];
			size_t hits = 0;
			if (h->effect != order[e])
				continue;
			for (size_t i = 0; i < r->count; i++) {
				const struct tfk_finding *f = &r->findings[i];
				if (!tfk_hazard_applies(h, f))
					continue;
				if (!hits++) {
					tfk_line_printf(&l, "%s: hazard: ", safe_name);
					tfk_line_hazard_words(&l, h);
					tfk_line_printf(&l, " through");
				}
				if (hits > 8) /* the first few locate it; the count says the rest */
					continue;
				tfk_line_printf(&l, " %s", f->fault->id);
				if (f->member[0])
					tfk_line_printf(&l, " in %s", f->member);
				if (f->has_offset)
					tfk_line_printf(&l, " at 0x%" PRIx64, f->offset);
				tfk_line_printf(&l, hits < 8 ? "," : "");
			}
			if (!hits)
				continue;
			if (l.len && l.buf[l.len - 1] == ',')
				l.buf[--l.len] = '\0';
			if (hits > 8)
				tfk_line_printf(&l, " and %zu more", hits - 8);
			tfk_line_printf(&l, "\n");
			total++;
			if (tfk_line_flush(&l, write, user))
				return -1;
		}
	}
	tfk_line_printf(&l, "%s: %zu reader hazard%s\n", safe_name, total, total == 1 ? "" : "s");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}
