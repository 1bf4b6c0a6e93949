/* SPDX-License-Identifier: MIT */
/*
 * The salvage account by kind (tfk_salvage_part): units holding events and metadata sections,
 * each kept, lost in part or lost. Plug-ins add their parts; a directory format without a
 * hook of its own is accounted from what its salvage did with each member.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "format.h"

struct tfk_salvage_part *rp_part_add(struct tfk_repair_report *rep, enum tfk_salvage_kind kind,
				     enum tfk_salvage_state state, const char *fmt, ...)
{
	void *arr = rep->parts;
	if (!rp_grow(&arr, &rep->parts_cap, rep->nparts + 1, sizeof(*rep->parts)))
		return NULL;
	rep->parts = arr;
	struct tfk_salvage_part *p = &rep->parts[rep->nparts++];
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->state = state;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->name, sizeof(p->name), fmt, ap);
	va_end(ap);
	return p;
}

/* A member that holds events: lost whole when left out or nothing of it was kept but some was lost. */
static void member_unit(const struct tfk_salvage_member *m, struct tfk_repair_report *rep)
{
	const bool left_out = rp_action_is(m, RP_ACTION_LEFT_OUT);
	const bool loss = m->lost || m->lost_unknown || left_out;
	enum tfk_salvage_state st = !loss ? TFK_SALVAGE_KEPT
				    : left_out || m->kept == 0 ? TFK_SALVAGE_LOST
							       : TFK_SALVAGE_PART_LOST;
	struct tfk_salvage_part *p = rp_part_add(rep, TFK_SALVAGE_UNIT, st, "%s", m->member);
	if (!p)
		return;
	p->kept = left_out ? 0 : m->kept;
	p->lost = m->lost + (left_out ? m->kept : 0);
	p->lost_unknown = m->lost_unknown || (left_out && m->bytes_in && !m->kept);
	p->bytes_unknown = p->lost_unknown ? m->bytes_dropped : 0;
	snprintf(p->note, sizeof(p->note), "%s", m->note);
}

/* A member that describes the events: lost when left out, in part when rebuilt or cut. */
static void member_metadata(const struct tfk_salvage_member *m, struct tfk_repair_report *rep)
{
	enum tfk_salvage_state st = TFK_SALVAGE_KEPT;
	if (rp_action_is(m, RP_ACTION_LEFT_OUT))
		st = TFK_SALVAGE_LOST;
	else if (rp_action_is(m, RP_ACTION_REBUILT) || m->lost || m->lost_unknown || m->bytes_dropped)
		st = TFK_SALVAGE_PART_LOST;
	struct tfk_salvage_part *p = rp_part_add(rep, TFK_SALVAGE_METADATA, st, "%s", m->member);
	if (!p)
		return;
	p->kept = m->kept;
	p->lost = m->lost;
	p->lost_unknown = m->lost_unknown;
	snprintf(p->note, sizeof(p->note), "%s%s%s", rp_action_is(m, RP_ACTION_REBUILT) ? "rebuilt" : "",
		 rp_action_is(m, RP_ACTION_REBUILT) && m->note[0] ? ": " : "", m->note);
}

void rp_account_from_members(const struct rp_format *fmt, struct tfk_repair_report *rep)
{
	for (size_t i = 0; i < rep->nmembers; i++) {
		const struct tfk_salvage_member *m = &rep->members[i];
		const bool counts_events = rp_unit_is(m, RP_UNIT_EVENTS) || rp_unit_is(m, RP_UNIT_RECORDS);
		if (counts_events && !(fmt && fmt->member_is_metadata && fmt->member_is_metadata(m)))
			member_unit(m, rep);
		else
			member_metadata(m, rep);
	}
}

void rp_account(const struct rp_format *fmt, const void *model, struct tfk_repair_report *rep)
{
	free(rep->parts);
	rep->parts = NULL;
	rep->nparts = rep->parts_cap = 0;
	if (fmt && fmt->account)
		fmt->account(model, rep);
	else
		rp_account_from_members(fmt, rep);
}
