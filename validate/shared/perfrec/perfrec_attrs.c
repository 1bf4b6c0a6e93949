/* SPDX-License-Identifier: MIT */
/*
 * The attrs a record walk resolves samples against: reading one, room for more, the sample
 * ids that name them; the feature table a stream's data may end in front of; and the
 * state's release.
 */
#include <stdlib.h>
#include <string.h>

#include "perfrec_state.h"

void pf_add_id(struct pf_check *pc, uint64_t id, uint32_t attr)
{
	void *arr = pc->ids;
	if (pc->nids >= (size_t)pc->ctx->limits->max_cpus * 64) {
		if (pc->nids == (size_t)pc->ctx->limits->max_cpus * 64)
			tfk_limit_hit(pc->ctx, 0, "sample ids", pc->nids + 1, pc->nids);
		return;
	}
	if (!tfk_grow(pc->ctx, &arr, &pc->ids_cap, pc->nids + 1, sizeof(*pc->ids)))
		return;
	pc->ids = arr;
	pc->ids[pc->nids].id = id;
	pc->ids[pc->nids++].attr = attr;
	pc->ids_sorted = false;
}

static int cmp_id(const void *a, const void *b)
{
	const struct pf_id *x = a, *y = b;
	return x->id < y->id ? -1 : x->id > y->id;
}

const struct pf_attr *pf_attr_by_id(struct pf_check *pc, uint64_t id)
{
	if (!pc->ids_sorted) {
		if (pc->nids > 1)
			qsort(pc->ids, pc->nids, sizeof(*pc->ids), cmp_id);
		pc->ids_sorted = true;
	}
	size_t lo = 0, hi = pc->nids;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (pc->ids[mid].id == id)
			return pc->ids[mid].attr < pc->nattrs ? &pc->attrs[pc->ids[mid].attr] : NULL;
		if (pc->ids[mid].id < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

bool pf_read_attr(struct pf_check *pc, const struct tfk_cursor *view, struct pf_attr *a, const char *where)
{
	memset(a, 0, sizeof(*a));
	a->at = view->origin;
	uint32_t size = 0;
	if (!tfk_cur_u32_at(view, 0, &a->type) || !tfk_cur_u32_at(view, 4, &size))
		return false;
	a->size = size ? size : PF_ATTR_MIN; /* 0 means VER0 */
	if (a->size < PF_ATTR_MIN || a->size % 8) {
		struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, view->origin + 4, 4);
		tfk_set_path(f, "%s", where);
		tfk_set_expected(f, "attr.size of at least 64, a multiple of 8 (VER0 64 .. VER8 136)");
		tfk_set_found(f, "%u", size);
		return false;
	}
	if (a->size > view->len) {
		struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, view->origin + 4, 4);
		tfk_set_path(f, "%s", where);
		tfk_set_expected(f, "attr.size within the %llu bytes of the entry", (unsigned long long)view->len);
		tfk_set_found(f, "%u", size);
		return false;
	}
	if (a->type == 2) /* PERF_TYPE_TRACEPOINT */
		pc->lay.tracepoints = true;
	tfk_cur_u64_at(view, 24, &a->sample_type);
	tfk_cur_u64_at(view, 32, &a->read_format);
	tfk_cur_u64_at(view, 40, &a->flags);
	if (a->size >= 80)
		tfk_cur_u64_at(view, 72, &a->branch_sample_type);
	if (a->size >= 88)
		tfk_cur_u64_at(view, 80, &a->regs_user);
	if (a->size >= 104)
		tfk_cur_u64_at(view, 96, &a->regs_intr);
	return true;
}

struct pf_attr *pf_new_attr(struct pf_check *pc)
{
	if (pc->nattrs >= pc->ctx->limits->max_buffers * 16u) {
		tfk_limit_hit(pc->ctx, 0, "event attributes", pc->nattrs + 1, pc->nattrs);
		return NULL;
	}
	void *arr = pc->attrs;
	if (!tfk_grow(pc->ctx, &arr, &pc->attrs_cap, pc->nattrs + 1, sizeof(*pc->attrs)))
		return NULL;
	pc->attrs = arr;
	return &pc->attrs[pc->nattrs];
}

/*
 * Is there a feature table for these bits at `table`: every entry's section inside the file,
 * after the table? With data.size 0 it tells an empty recording (or a repaired one that kept
 * no record) from a killed one, and finds the table a recording whose header lost data.size
 * wrote behind its last record.
 */
bool pf_feature_table_at(const struct pf_check *pc, uint64_t table)
{
	unsigned n = 0;
	for (int w = 0; w < 4; w++)
		n += (unsigned)__builtin_popcountll(pc->bits[w]);
	if (n == 0 || !tfk_range_fits(table, 16ull * n, pc->size))
		return false;
	uint64_t end = table + 16ull * n, off = 0, size = 0;
	/* The first section follows the table closely (perf reserves room for every feature it knows). */
	if (!tfk_cur_u64_at(&pc->file, table, &off) || off < end || off - end > 16 * 256)
		return false;
	for (unsigned k = 0; k < n; k++) {
		tfk_cur_u64_at(&pc->file, table + 16ull * k, &off);
		tfk_cur_u64_at(&pc->file, table + 16ull * k + 8, &size);
		if (off < end || !tfk_range_fits(off, size, pc->size))
			return false;
	}
	return true;
}

void pf_check_release(struct pf_check *pc)
{
	free(pc->attrs);
	free(pc->ids);
	tfk_claims_free(&pc->claims);
	free(pc->zbuf);
	tfk_zstream_free(pc->zs);
}
