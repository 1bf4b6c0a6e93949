/* SPDX-License-Identifier: MIT */
/*
 * The structural map (tracefsck describe): each structure the check met, in order, with the
 * findings that lie in it under it (a finding goes to the narrowest structure holding its
 * offset), then the findings no structure holds. Text, or JSON Lines whose finding and summary
 * objects are check --json's own.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink_common.h"
#include "tracefsck/observer.h"

static const char *kind_name(enum tfk_item_kind k)
{
	switch (k) {
	case TFK_ITEM_FILE: return "header";
	case TFK_ITEM_SECTION: return "section";
	case TFK_ITEM_BLOB: return "metadata";
	case TFK_ITEM_OPTION: return "option";
	case TFK_ITEM_BUFFER: return "buffer";
	case TFK_ITEM_CPU: return "cpu";
	}
	return "?";
}

/* Is finding f inside item it? */
static bool inside(const struct tfk_finding *f, const struct tfk_item *it)
{
	return f->has_offset && f->offset >= it->offset && f->offset - it->offset < (it->length ? it->length : 1);
}

static void item_line(struct tfk_line *l, const struct tfk_item *it, bool json)
{
	if (json) {
		tfk_line_printf(l, "{\"type\":\"%s\",\"offset\":%" PRIu64 ",\"length\":%" PRIu64 ",\"decoded\":%s,\"id\":%u,\"name\":",
				kind_name(it->kind), it->offset, it->length, it->decoded ? "true" : "false", it->id);
		tfk_line_json_str(l, it->name, strnlen(it->name, sizeof(it->name)));
		tfk_line_printf(l, ",\"detail\":");
		tfk_line_json_str(l, it->detail, strnlen(it->detail, sizeof(it->detail)));
		tfk_line_printf(l, "}\n");
		return;
	}
	tfk_line_printf(l, "0x%08" PRIx64 " %10" PRIu64 "  %-8s %s", it->offset, it->length, kind_name(it->kind), it->name);
	if (it->kind == TFK_ITEM_OPTION || it->kind == TFK_ITEM_SECTION || it->kind == TFK_ITEM_CPU)
		tfk_line_printf(l, " %u", it->id);
	tfk_line_printf(l, ": %s%s\n", it->detail, it->decoded ? " (inside compressed data)" : "");
}

static void finding_line(struct tfk_line *l, const struct tfk_finding *f, const char *name, bool json)
{
	if (json) {
		tfk_line_json_finding(l, f, name, tfk_line_name_len(name));
		return;
	}
	tfk_line_printf(l, "    ! %s %s", tfk_severity_name(f->severity), f->fault->id);
	if (f->has_offset)
		tfk_line_printf(l, " at 0x%" PRIx64, f->offset);
	tfk_line_printf(l, " [%s]", f->path);
	if (f->expected[0])
		tfk_line_printf(l, " expected %s", f->expected);
	if (f->found[0])
		tfk_line_printf(l, ", found %s", f->found);
	tfk_line_printf(l, "\n");
}

int tfk_sink_map(const struct tfk_report *r, const struct tfk_item *items, size_t nitems, const char *name, bool json,
		 tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	int rc = 0;
	tfk_line_reset(&l);
	TFK_OWNED_STRING(safe_name, tfk_sanitize_dup(name, strlen(name)));
	if (!safe_name)
		return -1;
	bool *shown = calloc(r->count ? r->count : 1, sizeof(*shown));
	if (!shown)
		return -1;
	if (!json) {
		/* The file the map is of, first and in its summary line: describe takes several. */
		tfk_line_printf(&l, "%s:\n", safe_name);
		rc = tfk_line_flush(&l, write, user);
	}
	for (size_t i = 0; i < nitems && rc == 0; i++) {
		const struct tfk_item *it = &items[i];
		item_line(&l, it, json);
		rc = tfk_line_flush(&l, write, user);
		/* The faults of this structure, unless a narrower structure later in the map holds them. */
		for (size_t k = 0; k < r->count && rc == 0; k++) {
			if (shown[k] || !inside(&r->findings[k], it))
				continue;
			bool narrower = false;
			for (size_t j = i + 1; j < nitems && !narrower; j++)
				narrower = inside(&r->findings[k], &items[j]) && items[j].length <= it->length;
			if (!narrower) {
				shown[k] = true;
				finding_line(&l, &r->findings[k], name, json);
				rc = tfk_line_flush(&l, write, user);
			}
		}
	}
	bool header = false;
	for (size_t k = 0; k < r->count && rc == 0; k++) {
		if (shown[k])
			continue;
		if (!json && !header) {
			tfk_line_printf(&l, "elsewhere:\n");
			header = true;
		}
		finding_line(&l, &r->findings[k], name, json);
		rc = tfk_line_flush(&l, write, user);
	}
	free(shown);
	if (rc)
		return -1;
	if (json) {
		char extra[48];
		snprintf(extra, sizeof(extra), ",\"structures\":%zu", nitems);
		tfk_line_json_summary(&l, r, name, tfk_line_name_len(name), extra);
	} else {
		tfk_line_printf(&l, "%s: %s: %zu structures, %" PRIu64 " findings\n", safe_name,
				tfk_verdict_name(tfk_report_verdict(r)), nitems, r->total);
	}
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}
