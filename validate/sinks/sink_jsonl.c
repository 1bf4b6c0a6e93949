/* SPDX-License-Identifier: MIT */
/*
 * JSON Lines sink: one object per finding, then one summary object per file. The objects are
 * described by docs/tracefsck-jsonl.schema.json; the summary says which version of it.
 */
#include <inttypes.h>
#include <string.h>

#include "sink_common.h"

static void key_str(struct tfk_line *l, const char *key, const char *val)
{
	tfk_line_printf(&*l, ",\"%s\":", key);
	tfk_line_json_str(l, val, strlen(val));
}

void tfk_line_json_finding(struct tfk_line *l, const struct tfk_finding *f, const char *name, size_t name_len)
{
	tfk_line_printf(l, "{\"type\":\"finding\",\"file\":");
	tfk_line_json_str(l, name, name_len);
	if (f->member[0])
		key_str(l, "member", f->member);
	else
		tfk_line_printf(l, ",\"member\":null");
	key_str(l, "code", f->fault->id);
	key_str(l, "severity", tfk_severity_name(f->severity));
	if (f->has_offset)
		tfk_line_printf(l, ",\"offset\":%" PRIu64 ",\"length\":%" PRIu64, f->offset, f->length);
	else
		tfk_line_printf(l, ",\"offset\":null,\"length\":null");
	if (f->in_decoded)
		tfk_line_printf(l, ",\"decoded_offset\":%" PRIu64, f->decoded_offset);
	else
		tfk_line_printf(l, ",\"decoded_offset\":null");
	key_str(l, "path", f->path);
	key_str(l, "message", f->fault->summary);
	key_str(l, "expected", f->expected);
	key_str(l, "found", f->found);
	key_str(l, "repair", tfk_repair_action_name(f->fault->repair));
	tfk_line_json_hazards(l, f);
	tfk_line_json_quirk(l, f);
	tfk_line_printf(l, "}\n");
}

void tfk_line_json_summary(struct tfk_line *l, const struct tfk_report *r, const char *name, size_t name_len,
			   const char *extra)
{
	enum tfk_verdict v = tfk_report_verdict(r);
	tfk_line_printf(l, "{\"type\":\"summary\",\"file\":");
	tfk_line_json_str(l, name, name_len);
	key_str(l, "verdict", tfk_verdict_name(v));
	tfk_line_printf(l, ",\"complete\":%s,\"fail_on\":\"%s\"", r->incomplete ? "false" : "true",
			r->fail_on_warning ? "warning" : "error");
	if (r->stats.format)
		key_str(l, "format", r->stats.format);
	else
		tfk_line_printf(l, ",\"format\":null");
	tfk_line_printf(l,
			",\"findings\":%" PRIu64 ",\"listed\":%zu,\"errors\":%" PRIu64 ",\"warnings\":%" PRIu64
			",\"notes\":%" PRIu64 ",\"disabled\":%" PRIu64 ",\"file_size\":%" PRIu64 ",\"buffers\":%" PRIu32 ",\"cpus\":%" PRIu32
			",\"pages\":%" PRIu64 ",\"events\":%" PRIu64 ",\"events_lost\":%" PRIu64 "%s,\"schema_version\":%d}\n",
			r->total, r->count, r->by_severity[TFK_SEV_ERROR], r->by_severity[TFK_SEV_WARNING],
			r->by_severity[TFK_SEV_NOTE], r->disabled, r->stats.file_size, r->stats.buffers, r->stats.cpus,
			r->stats.pages, r->stats.events, r->stats.events_lost, extra ? extra : "", TFK_JSONL_SCHEMA_VERSION);
}

int tfk_sink_jsonl(const struct tfk_report *r, const char *name, const struct tfk_sink_options *opt,
		   tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	enum tfk_severity min = opt ? opt->min_severity : TFK_SEV_NOTE;
	size_t name_len = tfk_line_name_len(name);

	tfk_line_reset(&l);
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (f->severity < min)
			continue;
		tfk_line_json_finding(&l, f, name, name_len);
		if (l.truncated)
			return -1; /* cannot happen with the field caps; never emit broken JSON */
		if (tfk_line_flush(&l, write, user))
			return -1;
	}
	tfk_line_json_summary(&l, r, name, name_len, NULL);
	if (l.truncated)
		return -1;
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}
