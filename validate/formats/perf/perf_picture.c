/* SPDX-License-Identifier: MIT */
/*
 * perf.data on a picture: its data section as a lane of records - kept up to the last record
 * the walk could locate, the damaged records repair leaves out, the rest lost - with the
 * samples kept and left out beside it; the features as a lane of sections.
 */
#include <stdio.h>

#include "perf.h"
#include "picture/picture.h"

/* A sample on the timelines of the data and of its CPU. */
static void sample(struct tfk_picture *p, const struct tfk_perf_sample *m)
{
	struct pic_lane *d = pic_lane(p, "records", "data", "", UINT64_MAX); /* first: the findings' lane */
	if (!m->has_time)
		return;
	pic_lane_events(d, m->time, m->time, 1, false);
	if (m->has_cpu) {
		char name[32];
		snprintf(name, sizeof(name), "cpu%u", m->cpu);
		struct pic_lane *l = pic_lane(p, "cpu", name, "", UINT64_MAX);
		if (l) {
			l->cpu = m->cpu;
			l->part = "samples";
		}
		pic_lane_events(l, m->time, m->time, 1, false);
	}
}

void pf_picture(struct tfk_picture *p, uint32_t kind, const void *data, size_t size)
{
	if (kind == TFK_PERF_MODEL_SAMPLE && size == sizeof(struct tfk_perf_sample))
		sample(p, data);
	if (kind != TFK_PERF_MODEL_LAYOUT || size != sizeof(struct tfk_perf_layout))
		return;
	const struct tfk_perf_layout *L = data;
	const uint64_t from = L->data_offset, end = L->data_offset + L->data_size;
	if (end < from)
		return;
	struct pic_lane *l = pic_lane(p, "records", "data", "", from);
	if (l && !l->has_bytes)
		l->span.origin = from;
	if (l) {
		l->part = "records";
		l->size = L->data_size;
		l->parts = L->records_walked;
		l->parts_bad = L->ndrops;
		l->total_events = L->samples_kept;
		l->events_lost = L->samples_left_out;
		l->events_unknown = L->unread_bytes || L->undecodable_bytes || L->missing_bytes || L->resyncs;
	}
	const uint64_t good = L->good_end > from && L->good_end <= end ? L->good_end : from;
	pic_band(p, from, good - from, PIC_GOOD);
	pic_lane_bytes(l, from, good - from, PIC_GOOD);
	for (uint32_t i = 0; i < L->ndrops && i < TFK_PERF_MAX_DROPS; i++) {
		pic_band(p, L->drops[i].offset, L->drops[i].size, PIC_BAD);
		pic_lane_bytes(l, L->drops[i].offset, L->drops[i].size, PIC_BAD);
	}
	if (!L->data_intact && end > good) {
		pic_band(p, good, end - good, PIC_BAD);
		pic_lane_bytes(l, good, end - good, PIC_BAD);
	}
	p->past_end += L->missing_bytes;
	struct pic_lane *f = L->nfeatures ? pic_lane(p, "sections", "features", "", UINT64_MAX) : NULL;
	if (!f)
		return;
	f->part = "features";
	for (uint32_t i = 0; i < L->nfeatures && i < TFK_PERF_MAX_FEATURES; i++) {
		if (!f->has_bytes && f->span.origin == UINT64_MAX)
			f->span.origin = L->features[i].offset;
		f->parts++;
		f->parts_bad += !L->features[i].ok;
		pic_lane_bytes(f, L->features[i].offset, L->features[i].size, L->features[i].ok ? PIC_META : PIC_BAD);
		if (!L->features[i].ok)
			pic_band(p, L->features[i].offset, L->features[i].size, PIC_BAD);
	}
}
