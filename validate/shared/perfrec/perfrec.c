/* SPDX-License-Identifier: MIT */
/* The record walker behind an opaque state, for formats that store perf records (perfrec.h). */
#include <stdlib.h>

#include "perfrec.h"
#include "perfrec_state.h"

/* The interface's bits are the walker's (and perf_event_attr's). */
_Static_assert(PERFREC_SAMPLE_TID == PF_S_TID && PERFREC_SAMPLE_TIME == PF_S_TIME, "sample_type bits");
_Static_assert(PERFREC_FLAG_SAMPLE_ID_ALL == PF_FLAG_SAMPLE_ID_ALL, "attr flag bits");

struct perfrec {
	struct pf_check pc;
};

struct perfrec *perfrec_new(struct tfk_ctx *ctx, const struct tfk_cursor *file, const struct perfrec_attr *attr)
{
	struct perfrec *r = tfk_calloc(ctx, 1, sizeof(*r));
	if (!r)
		return NULL;
	struct pf_check *pc = &r->pc;
	pc->ctx = ctx;
	pc->file = *file;
	pc->size = file->len;
	pc->attrs = tfk_calloc(ctx, 1, sizeof(*pc->attrs));
	if (!pc->attrs) {
		free(r);
		return NULL;
	}
	pc->nattrs = pc->attrs_cap = 1;
	pc->attrs[0].type = attr->type;
	pc->attrs[0].size = PF_ATTR_MIN; /* the fields read are all in VER0 */
	pc->attrs[0].sample_type = attr->sample_type;
	pc->attrs[0].flags = attr->flags;
	return r;
}

void perfrec_walk(struct perfrec *r, const struct tfk_cursor *stream)
{
	pf_walk_records(&r->pc, stream, 0);
	pf_finish_records(&r->pc);
}

void perfrec_free(struct perfrec *r)
{
	if (!r)
		return;
	pf_check_release(&r->pc);
	free(r);
}
