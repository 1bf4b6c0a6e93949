/* SPDX-License-Identifier: MIT */
#include <string.h>

#include "faults.h"
#include "tracefsck/catalog.h"

/* Same order as enum tfk_fault_code; the slices are included in id order, so this is sorted. */
static const struct tfk_fault catalog[TFK_FAULT_COUNT] = {
#define TFK_FAULT(sym, id_, sev, repair_, summary_, help_) \
	{ .id = id_, .severity = TFK_SEV_##sev, .summary = summary_, .help = help_, .repair = TFK_REPAIR_##repair_ },
#include "tfk_catalog_slices.inc" /* generated from formats/formats.list */
#undef TFK_FAULT
};

const struct tfk_fault *tfk_fault_get(enum tfk_fault_code code)
{
	if ((unsigned)code >= TFK_FAULT_COUNT)
		return NULL;
	return &catalog[code];
}

const struct tfk_fault *tfk_catalog(size_t *count)
{
	*count = TFK_FAULT_COUNT;
	return catalog;
}

const struct tfk_fault *tfk_catalog_find(const char *id)
{
	size_t lo = 0, hi = TFK_FAULT_COUNT;

	if (!id)
		return NULL;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(id, catalog[mid].id);
		if (cmp == 0)
			return &catalog[mid];
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

const char *tfk_severity_name(enum tfk_severity sev)
{
	switch (sev) {
	case TFK_SEV_NOTE: return "note";
	case TFK_SEV_WARNING: return "warning";
	case TFK_SEV_ERROR: return "error";
	}
	return "unknown";
}

const char *tfk_repair_action_name(enum tfk_repair_action action)
{
	switch (action) {
	case TFK_REPAIR_NONE: return "none";
	case TFK_REPAIR_REWRITE_HEADER: return "rewrite-header";
	case TFK_REPAIR_TRUNCATE: return "truncate";
	case TFK_REPAIR_REBUILD_TABLE: return "rebuild-table";
	case TFK_REPAIR_DROP_OPTION: return "drop-option";
	case TFK_REPAIR_CLIP_RANGE: return "clip-range";
	case TFK_REPAIR_DROP_PAGE: return "drop-page";
	case TFK_REPAIR_NORMALISE_PAGE: return "normalise-page";
	case TFK_REPAIR_DROP_DATA: return "drop-data";
	}
	return "unknown";
}
