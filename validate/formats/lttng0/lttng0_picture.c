/* SPDX-License-Identifier: MIT */
/*
 * LTTng 0.x on a picture: a lane per tracefile, its blocks on its byte row (kept, clipped
 * after their last whole event, dropped, garbage) and their events on its timeline between
 * the block's cycle counts, where the header's are sound.
 */
#include <string.h>

#include "lttng0.h"
#include "picture/picture.h"

void l0_picture(struct tfk_picture *p, uint32_t kind, const void *data, size_t size)
{
	if (kind == TFK_LTTNG0_MODEL_MEMBER && size == sizeof(struct tfk_lttng0_member)) {
		const struct tfk_lttng0_member *m = data;
		const char *base = strrchr(m->name, '/');
		struct pic_lane *l = pic_lane(p, "tracefile", base ? base + 1 : m->name, m->name, 0);
		/* the blocks that follow are this tracefile's, at its own offsets */
		p->lane = l;
		p->pages_in_member = true;
		if (l) {
			l->size = m->size;
			l->part = "blocks";
		}
		return;
	}
	if (kind != TFK_LTTNG0_MODEL_BLOCK || size != sizeof(struct tfk_lttng0_block))
		return;
	const struct tfk_lttng0_block *b = data;
	const bool single = !p->pages_in_member;
	struct pic_lane *l = single ? pic_lane(p, "tracefile", "tracefile", "", 0) : p->lane;
	if (single && l)
		l->part = "blocks";
	const uint64_t good = b->good_end < b->present ? b->good_end : b->present;
	switch (b->state) {
	case TFK_LTTNG0_KEEP:
		pic_lane_bytes(l, b->offset, b->size, PIC_GOOD);
		if (single)
			pic_band(p, b->offset, b->size, PIC_GOOD);
		break;
	case TFK_LTTNG0_CLIP:
		pic_lane_bytes(l, b->offset, good, PIC_GOOD);
		pic_lane_bytes(l, b->offset + good, b->size - good, PIC_CLIPPED);
		if (single) {
			pic_band(p, b->offset, good, PIC_GOOD);
			pic_band(p, b->offset + good, b->size - good, PIC_CLIPPED);
		}
		break;
	default:
		pic_lane_bytes(l, b->offset, b->size, PIC_BAD);
		if (single)
			pic_band(p, b->offset, b->size, PIC_BAD);
	}
	if (!l)
		return;
	l->parts++;
	l->parts_bad += b->state == TFK_LTTNG0_DROP || b->state == TFK_LTTNG0_GARBAGE;
	l->parts_clipped += b->state == TFK_LTTNG0_CLIP;
	if (b->events_lost > l->events_lost)
		l->events_lost = b->events_lost;
	if (b->state != TFK_LTTNG0_KEEP)
		l->events_unknown = true;
	const bool lost = b->state != TFK_LTTNG0_KEEP;
	if (b->timed && b->tsc_end >= b->tsc_begin) {
		pic_lane_events(l, b->tsc_begin, b->tsc_end, b->events, false);
		/* a clipped block lost what followed its last whole event (when, it cannot tell: its end is marked) */
		if (b->state == TFK_LTTNG0_CLIP)
			pic_lane_lost_time(l, b->tsc_end, b->tsc_end);
		else if (lost)
			pic_lane_lost_time(l, b->tsc_begin, b->tsc_end);
	} else {
		l->total_events += b->events;
		if (lost)
			l->loss_pending = true;
	}
}
