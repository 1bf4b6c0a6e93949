/* SPDX-License-Identifier: MIT */
/*
 * CTF on a picture: a lane per data stream, its packets on its byte row (kept, cut short by
 * damage, or lost) and their events on its timeline between each packet's begin and end
 * times; the bytes after the last packet the walk accepted are lost.
 */
#include <string.h>

#include "ctf.h"
#include "ctf_model.h"
#include "picture/picture.h"

/* The lane of a stream: named by the tail of its member path (the trace's folder and file). */
static struct pic_lane *stream_lane(struct tfk_picture *p, const char *member)
{
	size_t n = strnlen(member, TFK_CTF_MEMBER_MAX - 1);
	const char *name = n > 60 ? member + n - 60 : member;
	struct pic_lane *l = pic_lane(p, "stream", name, member, 0);
	if (l)
		l->part = "packets";
	return l;
}

void ctf_picture(struct tfk_picture *p, uint32_t kind, const void *data, size_t size)
{
	if (kind == TFK_CTF_MODEL_PACKET && size == sizeof(struct tfk_ctf_packet)) {
		const struct tfk_ctf_packet *k = data;
		struct pic_lane *l = stream_lane(p, k->member);
		if (!l)
			return;
		const uint64_t bytes = k->packet_size / 8 ? k->packet_size / 8 : 1;
		const enum pic_state s = k->faulty ? PIC_BAD : !k->events_ok ? PIC_CLIPPED : k->events ? PIC_GOOD : PIC_EMPTY;
		pic_lane_bytes(l, k->offset, bytes, s);
		l->parts++;
		l->parts_bad += k->faulty;
		l->parts_clipped += !k->faulty && !k->events_ok;
		if (k->has_discarded && k->discarded > l->events_lost)
			l->events_lost = k->discarded;
		if (k->faulty || !k->events_ok)
			l->events_unknown = true;
		const bool timed = k->has_ts_begin && k->has_ts_end && k->ts_end >= k->ts_begin;
		/* a faulty packet's events were decoded, but repair cannot keep them: its time is lost */
		if (k->faulty)
			l->loss_pending = true;
		else if (!timed)
			l->total_events += k->events;
		else if (k->events)
			pic_lane_events(l, k->ts_begin, k->ts_end, k->events, false);
		if (timed && (k->faulty || !k->events_ok))
			pic_lane_lost_time(l, k->ts_begin, k->ts_end);
	} else if (kind == TFK_CTF_MODEL_STREAM && size == sizeof(struct tfk_ctf_stream)) {
		const struct tfk_ctf_stream *st = data;
		struct pic_lane *l = stream_lane(p, st->member);
		if (!l)
			return;
		l->size = st->size;
		if (st->good_end < st->size) {
			pic_lane_bytes(l, st->good_end, st->size - st->good_end, PIC_BAD);
			l->events_unknown = true;
		}
		l->parts_bad += st->skipped;
		if (st->skipped)
			l->events_unknown = true;
	}
}
