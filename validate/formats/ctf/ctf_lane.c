/* SPDX-License-Identifier: MIT */
/*
 * Events decoded through a stream class's lane (see ctf_lane.h). The content of the packet
 * is borrowed from the cursor once, as far as its last whole byte; every step then checks
 * its bytes against that end before reading them. An event is taken only when all of it
 * decoded and the walk has nothing to say about it (its id known, its clock neither going
 * back nor outside the packet's times, at least a byte long); else the walk stops in front of
 * it, as if the lane had never seen it.
 */
#include <string.h>

#include "ctf_lane.h"
#include "ctf_nul.h"

/* A field of 1 to 8 bytes at p, inside the borrowed content. */
static inline uint64_t load(const uint8_t *p, unsigned n, bool big_endian)
{
	const bool swap = big_endian != tfk_host_is_big_endian();
	switch (n) {
	case 1:
		return p[0];
	case 2:
		return tfk_lent_u16(p, swap);
	case 4:
		return tfk_lent_u32(p, swap);
	case 8:
		return tfk_lent_u64(p, swap);
	}
	uint64_t r = 0;
	if (big_endian) {
		for (unsigned i = 0; i < n; i++)
			r = (r << 8) | p[i];
	} else {
		for (unsigned i = n; i-- > 0;)
			r = (r << 8) | p[i];
	}
	return r;
}

/* The form of the header the tag selects (the first range holding it, as ctf_enum_range), or NULL. */
static inline const struct ctf_lane_form *form_of(const struct ctf_lane *ln, uint64_t tag)
{
	for (uint32_t r = 0; r < ln->nranges; r++) {
		if (tag >= ln->lo[r] && tag <= ln->hi[r]) {
			const int32_t k = ln->range_form[r];
			return k >= 0 && ln->forms[k].ok ? &ln->forms[k] : NULL;
		}
	}
	return NULL;
}

/* The steps of s from *pp; false when one does not fit the content. */
static inline bool run(const struct ctf_lane_step *st, uint32_t n, const uint8_t *base, uint64_t end, uint64_t *pp)
{
	uint64_t p = *pp;
	for (const struct ctf_lane_step *last = st + n; st < last; st++) {
		const uint64_t a = st->align;
		p = (p + a - 1) & ~(a - 1);
		if (p > end || st->bytes > end - p)
			return false;
		p += st->bytes;
		if (st->string) {
			const uint64_t k = ctf_nul_in(base + p, end - p);
			if (k == end - p)
				return false;
			p += k + 1;
		}
	}
	*pp = p;
	return true;
}

void ctf_lane_events(const struct ctf_lane *ln, struct ctf_decoder *d, struct ctf_lane_walk *ew)
{
	if (d->bits.pos % 8 || d->bits.pos >= d->bits.limit)
		return;
	/* the header values of an event decoded before: the careful walk drops them there too */
	ctf_values_drop(d, CTF_SC_EVENT_HEADER);
	if (d->nvalues + ln->max_values > CTF_MAX_VALUES)
		return; /* the plans would forget values: their way */
	const uint64_t end = d->bits.limit / 8; /* a field ends inside the content when its last byte does */
	const uint8_t *base;
	if (!tfk_cur_bytes_at(d->bits.c, 0, end, &base))
		return;
	/* The walk's state in locals, kept in registers across the events (stored once, at the end). */
	uint64_t pos = d->bits.pos / 8, prev = ew->prev_ts, n = ew->n, clock = d->clock;
	bool have_prev = ew->have_prev_ts, clock_set = d->clock_set;
	const uint64_t a = ln->align, ts_lo = ew->ts_lo, ts_hi = ew->ts_hi, nids = ln->nids;
	const struct ctf_lane_field tag = ln->tag;
	const struct ctf_lane_seq *by_id = ln->by_id;
	const struct ctf_lane_step *steps = ln->steps;
	uint64_t last_tag = 0, last_id = 0;
	const struct ctf_lane_form *last_fm = NULL;
	const struct ctf_lane_seq *last_seq = NULL;
	while (pos < end) {
		uint64_t p = (pos + a - 1) & ~(a - 1);
		if (p > end || ln->prefix_bytes > end - p)
			break;
		const uint8_t *h = base + p;
		/*
		 * The form and the steps of the event before are taken again when its tag and id come
		 * again, as they mostly do: a predicted branch instead of a chain of table loads
		 * between one event's end and the next one's.
		 */
		const uint64_t tv = tag.bytes ? load(h + tag.at, tag.bytes, tag.big_endian) : 0;
		if (tv != last_tag || !last_fm) {
			last_fm = tag.bytes ? form_of(ln, tv) : ln->forms;
			last_tag = tv;
			if (!last_fm)
				break;
		}
		const struct ctf_lane_form *fm = last_fm;
		if (fm->bytes > end - p)
			break;
		const uint64_t id = fm->id.bytes ? load(h + fm->id.at, fm->id.bytes, fm->id.big_endian) : 0;
		if (id != last_id || !last_seq) {
			if (id >= nids || !by_id[id].ok)
				break;
			last_seq = &by_id[id];
			last_id = id;
		}
		p += fm->bytes;
		if (!run(steps + last_seq->first, last_seq->n, base, end, &p) || p == pos)
			break;
		uint64_t c = clock;
		bool c_set = clock_set;
		if (fm->clock.bytes) {
			c = ctf_clock_next(c, c_set, load(h + fm->clock.at, fm->clock.bytes, fm->clock.big_endian), fm->clock.bits);
			c_set = true;
		}
		if (c_set) {
			if ((have_prev && c < prev) || c < ts_lo || c > ts_hi)
				break; /* the careful walk reports it, from the clock the event began with */
			prev = c;
			have_prev = true;
		}
		clock = c;
		clock_set = c_set;
		pos = p;
		n++;
	}
	d->clock = clock;
	d->clock_set = clock_set;
	d->bits.pos = pos * 8;
	ew->n = n;
	ew->prev_ts = prev;
	ew->have_prev_ts = have_prev;
}
