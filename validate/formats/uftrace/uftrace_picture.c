/* SPDX-License-Identifier: MIT */
/*
 * uftrace data on a picture: a lane per task (<tid>.dat: its whole valid records kept, what
 * follows the first bad one lost, their time between the first and last valid record), per
 * perf-cpu<N>.dat (records) and per kernel-cpu<N>.dat (its ring pages, drawn as trace.dat's).
 */
#include <stdio.h>
#include <string.h>

#include "picture/picture.h"
#include "uftrace.h"

static const char *tail(const char *member)
{
	const char *s = strrchr(member, '/');
	return s ? s + 1 : member;
}

static void whole_then_lost(struct pic_lane *l, uint64_t good_end, uint64_t size)
{
	pic_lane_bytes(l, 0, good_end < size ? good_end : size, PIC_GOOD);
	if (good_end < size)
		pic_lane_bytes(l, good_end, size - good_end, PIC_BAD);
	l->size = size;
}

void uf_picture(struct tfk_picture *p, uint32_t kind, const void *data, size_t size)
{
	if (kind == TFK_UFTRACE_MODEL_TASK && size == sizeof(struct tfk_uftrace_task)) {
		const struct tfk_uftrace_task *t = data;
		char name[64];
		snprintf(name, sizeof(name), "tid %lld", (long long)t->tid);
		struct pic_lane *l = pic_lane(p, "task", name, t->member, 0);
		if (!l)
			return;
		l->part = "records";
		l->parts = t->records_good + t->records_after;
		l->parts_bad = t->records_after;
		whole_then_lost(l, t->good_end, t->size);
		const uint64_t first = t->min_time != UINT64_MAX && t->min_time < t->first_time ? t->min_time : t->first_time;
		if (t->records_good && t->last_time >= first)
			pic_lane_events(l, first, t->last_time, t->records_good, false);
		else
			l->total_events += t->records_good;
		if (t->cut != TFK_UFTRACE_CUT_NONE) {
			l->events_unknown = true;
			const uint64_t from = t->last_time ? t->last_time : t->cut_time;
			pic_lane_lost_time(l, from, t->cut_time > from ? t->cut_time : from);
		}
	} else if (kind == TFK_UFTRACE_MODEL_PERF && size == sizeof(struct tfk_uftrace_perf)) {
		const struct tfk_uftrace_perf *f = data;
		struct pic_lane *l = pic_lane(p, "perf", tail(f->member), f->member, 0);
		if (!l)
			return;
		l->part = "records";
		l->parts = l->total_events = f->records_good;
		whole_then_lost(l, f->good_end, f->size);
		l->events_unknown = f->good_end < f->size;
	} else if (kind == TFK_UFTRACE_MODEL_KERNEL && size == sizeof(struct tfk_uftrace_kernel)) {
		const struct tfk_uftrace_kernel *k = data;
		struct pic_lane *l = pic_lane(p, "cpu", tail(k->member), k->member, 0);
		if (l)
			l->size = k->size;
		pic_pages_to(p, l, k->page_size);
	}
}
