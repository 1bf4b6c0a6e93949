/* SPDX-License-Identifier: MIT */
/*
 * The events of one block: every event header and payload inside the block's data (spec §3.2
 * "Event header", §3.3 "Event header (2.6)"). Positions are block-relative: alignment is
 * counted from the start of the block, which the tracer kept page aligned in memory.
 */
#include "lttng0.h"

enum fit { FIT_OK = 0, FIT_OVERRUN, FIT_CUT };

struct walker {
	struct tfk_ctx *ctx;
	struct l0_trace *t;
	const struct tfk_cursor *c;
	uint64_t at, fill, avail, block;
	struct l0_walk *w;
	uint64_t event_start;
	uint64_t prev_tsc;
	bool tsc_reported;
};

static uint64_t align_up(uint64_t pos, unsigned a)
{
	return a <= 1 ? pos : (pos + a - 1) & ~(uint64_t)(a - 1);
}

/* Do n bytes at block-relative pos lie in the data and in the file? pos and n are below 2^33. */
static enum fit fits(struct walker *k, uint64_t pos, uint64_t n, const char *what)
{
	if (pos + n > k->fill) {
		struct tfk_finding *f = l0_emit(k->ctx, k->t, TFK_LTTNG0_EVENT_OVERRUN, k->c->origin + k->at + k->event_start,
						 k->fill > k->event_start ? k->fill - k->event_start : 0);
		tfk_set_path(f, "block %llu event %llu %s", (unsigned long long)k->block,
			     (unsigned long long)k->w->events, what);
		tfk_set_expected(f, "within the block's data, which ends at block offset %llu",
				 (unsigned long long)k->fill);
		tfk_set_found(f, "ends at block offset %llu", (unsigned long long)(pos + n));
		k->w->overrun = true;
		return FIT_OVERRUN;
	}
	if (pos + n > k->avail) {
		k->w->cut = true;
		return FIT_CUT;
	}
	return FIT_OK;
}

static void unknown_size(struct walker *k, const char *why)
{
	struct tfk_finding *f = l0_emit(k->ctx, k->t, TFK_LTTNG0_EVENT_SIZE_UNKNOWN, k->c->origin + k->at + k->event_start, 0);
	tfk_set_path(f, "block %llu event %llu", (unsigned long long)k->block, (unsigned long long)k->w->events);
	tfk_set_expected(f, "an explicit event size");
	tfk_set_found(f, "%s", why);
	tfk_mark_incomplete(k->ctx);
	k->w->unknown = true;
}

/* A full 64-bit TSC: inside the block's [begin, end], and not before the event before it. */
static void full_tsc(struct walker *k, const struct l0_params *p, const struct l0_header *h, uint64_t tsc, uint64_t pos)
{
	if (p->tsc_bounds && !k->tsc_reported && (tsc < h->tsc_begin || tsc > h->tsc_end || tsc < k->prev_tsc)) {
		struct tfk_finding *f = l0_emit(k->ctx, k->t, TFK_LTTNG0_EVENT_TSC_OUTSIDE, k->c->origin + k->at + pos, 8);
		tfk_set_path(f, "block %llu event %llu timestamp", (unsigned long long)k->block,
			     (unsigned long long)k->w->events);
		tfk_set_expected(f, "in [%llu, %llu], not below %llu", (unsigned long long)h->tsc_begin,
				 (unsigned long long)h->tsc_end, (unsigned long long)k->prev_tsc);
		tfk_set_found(f, "%llu", (unsigned long long)tsc);
		k->tsc_reported = true;
	}
	if (tsc > k->prev_tsc)
		k->prev_tsc = tsc;
}

#define READ_OR_STOP(pos, n, what)                                  \
	do {                                                        \
		if (fits(k, (pos), (n), (what)) != FIT_OK)          \
			return false;                               \
	} while (0)

/* One 2008 event at k->event_start (already aligned); *end receives where it ends. */
static bool v1_event(struct walker *k, const struct l0_params *p, const struct l0_header *h, uint64_t *end)
{
	uint64_t pos = k->event_start;
	if (p->compact) {
		/* §3.2 "Compact": one u32 {TSC bits, event id bits, compact data}, no size field, no payload. */
		READ_OR_STOP(pos, 4, "compact word");
		*end = pos + 4;
		return true;
	}
	const unsigned ts = p->heartbeat ? 4 : 8;
	READ_OR_STOP(pos, ts + 4, "header");
	uint64_t tsc = 0;
	uint16_t size = 0;
	if (p->heartbeat) {
		uint32_t t32 = 0;
		tfk_cur_u32_at(k->c, k->at + pos, &t32);
		tsc = t32;
	} else {
		tfk_cur_u64_at(k->c, k->at + pos, &tsc);
	}
	tfk_cur_u16_at(k->c, k->at + pos + ts + 2, &size);
	if (size == 0xFFFF) {
		unknown_size(k, "event_size 0xFFFF: computed from the event's format");
		return false;
	}
	if (!p->heartbeat)
		full_tsc(k, p, h, tsc, pos);
	uint64_t payload = pos + ts + 4;
	if (p->alignment)
		payload = align_up(payload, p->arch_size); /* §3.2: payload aligned to the arch size */
	READ_OR_STOP(payload, size, "payload");
	*end = payload + size;
	return true;
}

/* One LTF 2.6 event: the u32 {27-bit TSC, 5-bit id} and its escapes (§3.3). */
static bool v2_event(struct walker *k, const struct l0_params *p, const struct l0_header *h, uint64_t *end)
{
	uint64_t pos = k->event_start;
	READ_OR_STOP(pos, 4, "header");
	uint32_t word = 0;
	tfk_cur_u32_at(k->c, k->at + pos, &word);
	const unsigned id5 = word >> 27;
	pos += 4;
	if (id5 < 29 || id5 == 31) {
		unknown_size(k, id5 == 31 ? "escape 31 (id only): size from the marker format"
					  : "compact event id: size from the marker format");
		return false;
	}
	READ_OR_STOP(pos, 4, "extended header");
	uint16_t small = 0;
	tfk_cur_u16_at(k->c, k->at + pos + 2, &small);
	uint64_t size = small;
	pos += 4;
	if (small == 0xFFFF) {
		READ_OR_STOP(pos, 4, "extended size");
		uint32_t big = 0;
		tfk_cur_u32_at(k->c, k->at + pos, &big);
		size = big;
		pos += 4;
	}
	if (id5 == 29) {
		if (p->alignment)
			pos = align_up(pos, 8);
		READ_OR_STOP(pos, 8, "full timestamp");
		uint64_t tsc = 0;
		tfk_cur_u64_at(k->c, k->at + pos, &tsc);
		full_tsc(k, p, h, tsc, pos);
		pos += 8;
	}
	READ_OR_STOP(pos, size, "payload");
	*end = pos + size;
	return true;
}

void l0_walk_events(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t at, uint64_t fill, uint64_t block_len,
		    const struct l0_params *p, const struct l0_header *h, uint64_t block, struct l0_walk *w)
{
	struct walker k = { ctx, t, c, at, fill, block_len, block, w, 0, 0, false };
	uint64_t pos = p->layout == 1 ? L0_V1_HEADER : L0_V2_HEADER;
	unsigned a = 1;
	if (p->alignment)
		a = p->layout == 2 || p->compact ? 4 : (p->alignment < p->arch_size ? p->alignment : p->arch_size);
	w->good_end = pos;
	/* Every event is at least 4 bytes, so the walk ends within the block's size. */
	for (;;) {
		if (pos >= fill)
			break;
		k.event_start = align_up(pos, a);
		if (k.event_start >= fill)
			break; /* alignment padding up to the end of the data */
		uint64_t end = 0;
		bool ok = p->layout == 1 ? v1_event(&k, p, h, &end) : v2_event(&k, p, h, &end);
		if (!ok)
			break;
		w->events++;
		w->good_end = end;
		pos = end;
	}
}
