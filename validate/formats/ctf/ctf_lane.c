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
	uint64_t pos = d->bits.pos / 8, prev = ew->prev_ts, n = ew->n;
	bool have_prev = ew->have_prev_ts;
	const uint64_t a = ln->align;
	while (pos < end) {
		uint64_t p = (pos + a - 1) & ~(a - 1);
		if (p > end || ln->prefix_bytes > end - p)
			break;
		const uint8_t *h = base + p;
		const struct ctf_lane_form *fm = ln->tag.bytes ? form_of(ln, load(h + ln->tag.at, ln->tag.bytes, ln->tag.big_endian))
							       : ln->forms;
		if (!fm || fm->bytes > end - p)
			break;
		const uint64_t id = fm->id.bytes ? load(h + fm->id.at, fm->id.bytes, fm->id.big_endian) : 0;
		p += fm->bytes;
		if (id >= ln->nids || !ln->by_id[id].ok || !run(ln->steps + ln->by_id[id].first, ln->by_id[id].n, base, end, &p) ||
		    p == pos)
			break;
		const uint64_t clock = d->clock;
		const bool clock_set = d->clock_set;
		if (fm->clock.bytes)
			ctf_update_clock(d, load(h + fm->clock.at, fm->clock.bytes, fm->clock.big_endian), fm->clock.bits);
		if (d->clock_set) {
			if ((have_prev && d->clock < prev) || d->clock < ew->ts_lo || d->clock > ew->ts_hi) {
				d->clock = clock; /* the careful walk reports it, from the clock the event began with */
				d->clock_set = clock_set;
				break;
			}
			prev = d->clock;
			have_prev = true;
		}
		pos = p;
		n++;
	}
	d->bits.pos = pos * 8;
	ew->n = n;
	ew->prev_ts = prev;
	ew->have_prev_ts = have_prev;
}
