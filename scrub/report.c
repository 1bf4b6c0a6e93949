/* SPDX-License-Identifier: MIT */
/*
 * The scrub report, as text and as one JSON Lines object: the outcome, what was replaced (per
 * kind, how many strings), what was seen but kept because it was not asked for, and what is
 * kept on purpose. It counts; it never holds an original value.
 */
#include <stdio.h>
#include <string.h>

#include "sanitize.h"
#include "sinks/sink_common.h"
#include "tracefsck/scrub.h"

static const char *const kind_names[TFK_SCRUB_KINDS] = {
	[TFK_SCRUB_HOST] = "host",       [TFK_SCRUB_CMDLINE] = "cmdline", [TFK_SCRUB_TASK] = "task",
	[TFK_SCRUB_PATH] = "path",       [TFK_SCRUB_INSTANCE] = "instance", [TFK_SCRUB_MARKER] = "marker",
	[TFK_SCRUB_STRING] = "string",
};

const char *tfk_scrub_kind_name(enum tfk_scrub_kind kind)
{
	return (unsigned)kind < TFK_SCRUB_KINDS ? kind_names[kind] : "unknown";
}

const char *tfk_scrub_outcome_name(enum tfk_scrub_outcome outcome)
{
	switch (outcome) {
	case TFK_SCRUB_DONE: return "scrubbed";
	case TFK_SCRUB_REFUSED: return "refused";
	case TFK_SCRUB_UNSUPPORTED: return "unsupported";
	case TFK_SCRUB_FAILED: return "failed";
	}
	return "unknown";
}

/* Why nothing was written, in words; the format named when scrub does not handle it. */
static void why(struct tfk_line *l, const struct tfk_scrub_report *r)
{
	if (r->outcome == TFK_SCRUB_UNSUPPORTED && r->reason && strcmp(r->reason, "scrub not supported for this format yet") == 0)
		tfk_line_printf(l, "scrub not supported for %s yet", r->format[0] ? r->format : "this format");
	else
		tfk_line_printf(l, "%s", r->reason ? r->reason : "");
}

int tfk_scrub_report_text(const struct tfk_scrub_report *r, const char *name, tfk_write_fn write, void *user)
{
	char safe[512];
	tfk_sanitize_text(safe, sizeof(safe), name, strlen(name), false);
	TFK_LINE(l);
	tfk_line_reset(&l);
	if (r->outcome != TFK_SCRUB_DONE) {
		tfk_line_printf(&l, "%s: %s: ", safe,
				r->outcome == TFK_SCRUB_FAILED ? "internal error, nothing written" : "not scrubbed");
		why(&l, r);
		tfk_line_printf(&l, "\n");
		return tfk_line_flush(&l, write, user);
	}
	tfk_line_printf(&l, "%s: scrubbed %s%s%s%s\n", safe, r->format, r->converted[0] ? " (written as " : "",
			r->converted, r->converted[0] ? ")" : "");
	if (r->repaired)
		tfk_line_printf(&l, "%s: the input was damaged: repaired first, the repaired copy scrubbed\n", safe);
	for (unsigned k = 0; k < TFK_SCRUB_KINDS; k++) {
		const struct tfk_scrub_count *c = &r->counts[k];
		if (!c->replaced && !c->kept)
			continue;
		tfk_line_printf(&l, "%s:   %-9s %llu replaced", safe, kind_names[k], (unsigned long long)c->replaced);
		if (c->kept)
			tfk_line_printf(&l, ", %llu kept (not asked)", (unsigned long long)c->kept);
		tfk_line_printf(&l, "\n");
	}
	if (r->swept)
		tfk_line_printf(&l, "%s:   %llu further occurrences of replaced words elsewhere in the data\n", safe,
				(unsigned long long)r->swept);
	if (r->dictionary_full)
		tfk_line_printf(&l, "%s:   too many distinct words: the sweep for further occurrences was partial\n", safe);
	for (size_t i = 0; i < r->nkept; i++)
		tfk_line_printf(&l, "%s:   kept on purpose: %s\n", safe, r->kept_on_purpose[i]);
	return tfk_line_flush(&l, write, user);
}

int tfk_scrub_report_jsonl(const struct tfk_scrub_report *r, const char *name, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "{\"type\":\"scrub\",\"file\":");
	tfk_line_json_str(&l, name, strlen(name));
	tfk_line_printf(&l, ",\"outcome\":\"%s\",\"format\":", tfk_scrub_outcome_name(r->outcome));
	tfk_line_json_str(&l, r->format, strlen(r->format));
	if (r->outcome != TFK_SCRUB_DONE) {
		TFK_LINE(w);
		tfk_line_reset(&w);
		why(&w, r);
		tfk_line_printf(&l, ",\"reason\":");
		tfk_line_json_str(&l, w.buf, w.len);
	}
	tfk_line_printf(&l, ",\"repaired\":%s,\"converted\":", r->repaired ? "true" : "false");
	tfk_line_json_str(&l, r->converted, strlen(r->converted));
	tfk_line_printf(&l, ",\"kinds\":{");
	for (unsigned k = 0; k < TFK_SCRUB_KINDS; k++)
		tfk_line_printf(&l, "%s\"%s\":{\"asked\":%s,\"replaced\":%llu,\"kept\":%llu}", k ? "," : "", kind_names[k],
				r->kinds & TFK_SCRUB_BIT(k) ? "true" : "false",
				(unsigned long long)r->counts[k].replaced, (unsigned long long)r->counts[k].kept);
	tfk_line_printf(&l, "},\"swept\":%llu,\"sweep_partial\":%s,\"kept_on_purpose\":[", (unsigned long long)r->swept,
			r->dictionary_full ? "true" : "false");
	for (size_t i = 0; i < r->nkept; i++) {
		tfk_line_printf(&l, "%s", i ? "," : "");
		tfk_line_json_str(&l, r->kept_on_purpose[i], strlen(r->kept_on_purpose[i]));
	}
	tfk_line_printf(&l, "]}\n");
	return tfk_line_flush(&l, write, user);
}
