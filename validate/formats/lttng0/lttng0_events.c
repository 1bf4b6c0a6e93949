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
	uint64_t rebuilt;         /* the full TSC rebuilt from compact timestamps (from the block's begin) */
	bool back_reported;
	bool quiet;               /* measuring a record inside its declared size: no overrun findings */
};

static uint64_t align_up(uint64_t pos, unsigned a)
{
	return a <= 1 ? pos : (pos + a - 1) & ~(uint64_t)(a - 1);
}

/* Do n bytes at block-relative pos lie in the data and in the file? pos and n are below 2^33. */
static enum fit fits(struct walker *k, uint64_t pos, uint64_t n, const char *what)
{
	if (pos + n > k->fill && k->quiet)
		return FIT_OVERRUN;
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
	if (tsc > k->rebuilt && tsc <= h->tsc_end)
		k->rebuilt = tsc; /* compact timestamps after it count from it */
}

/*
 * A compact timestamp (bits bits of the TSC shifted right by shift) at block-relative pos: the
 * full count is rebuilt from the one before, with one wrap when the bits decrease; past the
 * block's end cycle count it went back or wrapped more than once (no heartbeat between).
 */
static void compact_tsc(struct walker *k, const struct l0_params *p, const struct l0_header *h, uint64_t low,
			unsigned bits, unsigned shift, uint64_t pos)
{
	const uint64_t span = 1ull << bits, mask = span - 1;
	const uint64_t before = k->rebuilt >> shift, end = h->tsc_end >> shift;
	if (!p->tsc_bounds || before > UINT64_MAX - span)
		return;
	uint64_t full = (before & ~mask) | (low & mask);
	if (full < before)
		full += span;
	if (full <= end) {
		k->rebuilt = full << shift; /* full <= tsc_end >> shift: no bit is lost */
		return;
	}
	if (k->back_reported)
		return;
	struct tfk_finding *f = l0_emit(k->ctx, k->t, TFK_LTTNG0_EVENT_TIME_BACKWARDS, k->c->origin + k->at + pos, 4);
	tfk_set_path(f, "block %llu event %llu timestamp", (unsigned long long)k->block, (unsigned long long)k->w->events);
	tfk_set_expected(f, "a %u-bit count at or after 0x%llx (the event before) that rebuilds to at most %llu (the "
			    "block's end)", bits, (unsigned long long)(before & mask), (unsigned long long)end);
	tfk_set_found(f, "0x%llx, rebuilt as %llu", (unsigned long long)(low & mask), (unsigned long long)full);
	k->back_reported = true;
}

/*
 * The marker that gives event id's fields: a core marker_id / marker_format in a metadata
 * tracefile, else the trace's marker of the tracefile's channel. NULL when there is none; when
 * the metadata defines the channel's markers, an id outside them is reported (once per event).
 */
static const struct l0_marker *marker_for(struct walker *k, const struct l0_params *p, uint16_t id, bool need)
{
	if (k->t->meta && id < 2)
		return l0_core_marker(p->layout, id);
	const char *channel = p->layout == 1 ? "" : k->t->channel;
	const struct l0_marker *m = l0_marker_find(&k->t->markers, channel, id);
	if (m && m->has_format)
		return m;
	if (m) {
		if (need)
			unknown_size(k, "the marker's format could not be read (reported with the metadata)");
		return NULL;
	}
	if (l0_markers_cover(&k->t->markers, channel)) {
		struct tfk_finding *f = l0_emit(k->ctx, k->t, TFK_LTTNG0_EVENT_UNKNOWN_ID,
						 k->c->origin + k->at + k->event_start, 4);
		tfk_set_path(f, "block %llu event %llu id", (unsigned long long)k->block, (unsigned long long)k->w->events);
		tfk_set_expected(f, "an id the metadata defines for channel \"%s\"", channel);
		tfk_set_found(f, "%u", id);
		if (need) {
			tfk_mark_incomplete(k->ctx);
			k->w->unknown = true;
		}
	} else if (need) {
		unknown_size(k, p->layout == 1 ? "event_size 0xFFFF and no marker metadata for the event"
					       : "no event size and no marker metadata for the channel");
	}
	return NULL;
}

/* Does the NUL of the string at block-relative pos lie in the data? Its end after the NUL. */
static bool string_end(struct walker *k, uint64_t pos, uint64_t *end)
{
	const uint64_t lim = k->fill < k->avail ? k->fill : k->avail;
	struct tfk_cursor s;
	if (pos < lim && tfk_cur_sub(k->c, k->at + pos, lim - pos, &s) == TFK_SUB_OK) {
		int64_t nul = tfk_cur_find(&s, "", 1);
		if (nul >= 0) {
			*end = pos + (uint64_t)nul + 1;
			return true;
		}
	}
	/* No NUL before the limit: past the data (overrun) or past the file (cut). */
	fits(k, pos, (lim > pos ? lim - pos : 0) + 1, "string field");
	return false;
}

/* The size of a numeric field of the marker. */
static unsigned field_size(const struct l0_marker *m, uint8_t f)
{
	return L0F_CLASS(f) == L0F_FIXED ? L0F_SIZE(f) : m->sizes[L0F_CLASS(f) - L0F_INT];
}

/*
 * What a numeric field of size bytes aligns on. The 2008 layout and the core marker events use
 * the header's alignment; other LTF 2.x events their marker's own (marker_id's alignment byte,
 * which the tracer recorded per marker). 0 is packed; 2.4 and 2.5 aligned a type on its own size,
 * the others on min(size, alignment).
 */
static unsigned field_align(const struct l0_params *p, const struct l0_marker *m, unsigned size)
{
	const unsigned a = p->layout == 1 || m->core ? p->alignment : m->align;
	if (!a || !size)
		return 1;
	if (p->natural)
		return size;
	return size < a ? size : a;
}

/* LTF 2.x: an event's payload begins aligned on its widest field's alignment (LTTV largest_align). */
static uint64_t payload_start(const struct l0_params *p, const struct l0_marker *m, uint64_t pos)
{
	if (p->layout == 1 || !m)
		return pos;
	unsigned la = 1;
	for (unsigned i = 0; i < m->nfields; i++) {
		if (L0F_CLASS(m->fields[i]) == L0F_STRING)
			continue;
		const unsigned a = field_align(p, m, field_size(m, m->fields[i]));
		if (a > la)
			la = a;
	}
	return align_up(pos, la);
}

/*
 * Measure a payload at block-relative pos from the marker's fields: strings to their NUL,
 * numbers of their class's size, each aligned as field_align says (§3.2 "Event header
 * alignment"; LTTV's marker.c). offs receives each field's view-relative offset.
 */
static bool measure(struct walker *k, const struct l0_params *p, const struct l0_marker *m, uint64_t pos, uint64_t *end,
		    uint64_t *offs)
{
	for (unsigned i = 0; i < m->nfields; i++) {
		const uint8_t f = m->fields[i];
		if (L0F_CLASS(f) == L0F_STRING) {
			offs[i] = k->at + pos;
			if (!string_end(k, pos, &pos))
				return false;
			continue;
		}
		const unsigned size = field_size(m, f);
		pos = align_up(pos, field_align(p, m, size));
		if (fits(k, pos, size, "field") != FIT_OK)
			return false;
		offs[i] = k->at + pos;
		pos += size;
	}
	*end = pos;
	return true;
}

/*
 * The payload at block-relative pos of event id: size is its declared size, or -1 when the
 * event leaves it to the format. A core event of a metadata tracefile is read into the markers.
 */
static bool payload(struct walker *k, const struct l0_params *p, uint16_t id, uint64_t pos, int64_t size, uint64_t *end)
{
	const struct l0_marker *m = marker_for(k, p, id, size < 0);
	uint64_t offs[L0_MAX_FIELDS];
	pos = payload_start(p, m, pos);
	if (size >= 0) {
		if (fits(k, pos, (uint64_t)size, "payload") != FIT_OK)
			return false;
		*end = pos + (uint64_t)size;
		if (!(k->t->meta && id < 2))
			return true;
		uint64_t mend = 0;
		struct walker inner = *k;
		struct l0_walk scratch = *k->w;
		inner.fill = *end; /* the record's fields lie inside its declared size */
		inner.w = &scratch;
		inner.quiet = true;
		if (!measure(&inner, p, m, pos, &mend, offs)) {
			struct tfk_finding *f = l0_emit(k->ctx, k->t, TFK_LTTNG0_METADATA_BAD_RECORD,
							 k->c->origin + k->at + pos, (uint64_t)size);
			tfk_set_path(f, "block %llu event %llu %s", (unsigned long long)k->block,
				     (unsigned long long)k->w->events, m->name);
			tfk_set_expected(f, "its fields within its %lld bytes", (long long)size);
			tfk_set_found(f, "a field past them");
			return true;
		}
	} else {
		if (!m || !measure(k, p, m, pos, end, offs))
			return false;
		if (!(k->t->meta && id < 2))
			return true;
	}
	if (p->sound)
		l0_marker_record(k->ctx, k->t, k->c, p->layout, id, offs, p->arch_size);
	return true;
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
		/* §3.2 "Compact": one u32 {TSC bits, event id bits, compact data}, no size field, no payload;
		 * the TSC bits are the word's low tscbits (our reading), the count shifted by tsc_lsb_truncate. */
		READ_OR_STOP(pos, 4, "compact word");
		uint32_t word = 0;
		tfk_cur_u32_at(k->c, k->at + pos, &word);
		if (p->tscbits >= 1 && p->tscbits <= 32 && p->tsc_truncate < 32)
			compact_tsc(k, p, h, word, p->tscbits, p->tsc_truncate, pos);
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
	uint16_t id = 0;
	tfk_cur_u16_at(k->c, k->at + pos + ts, &id);
	tfk_cur_u16_at(k->c, k->at + pos + ts + 2, &size);
	if (!p->heartbeat)
		full_tsc(k, p, h, tsc, pos);
	else
		compact_tsc(k, p, h, tsc, 32, 0, pos);
	uint64_t at = pos + ts + 4;
	if (p->alignment)
		at = align_up(at, p->arch_size); /* §3.2: payload aligned to the arch size */
	/* §3.2: event_size 0xFFFF means "computed from the event's format". */
	return payload(k, p, id, at, size == 0xFFFF ? -1 : (int64_t)size, end);
}

/* One LTF 2.6 event: the u32 {27-bit TSC, 5-bit id} and its escapes (§3.3). */
static bool v2_event(struct walker *k, const struct l0_params *p, const struct l0_header *h, uint64_t *end)
{
	uint64_t pos = k->event_start;
	READ_OR_STOP(pos, 4, "header");
	uint32_t word = 0;
	tfk_cur_u32_at(k->c, k->at + pos, &word);
	const unsigned id5 = word >> 27;
	if (id5 != 29)
		compact_tsc(k, p, h, word & 0x7FFFFFF, 27, 0, pos); /* escape 29 carries the full count */
	pos += 4;
	if (id5 < 29)
		return payload(k, p, (uint16_t)id5, pos, -1, end); /* the compact id: size from the format */
	uint16_t id = 0;
	if (id5 == 31) {
		READ_OR_STOP(pos, 2, "extended id");
		tfk_cur_u16_at(k->c, k->at + pos, &id);
		return payload(k, p, id, pos + 2, -1, end);
	}
	READ_OR_STOP(pos, 4, "extended header");
	uint16_t small = 0;
	tfk_cur_u16_at(k->c, k->at + pos, &id);
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
			pos = align_up(pos, p->natural || p->alignment >= 8 ? 8 : p->alignment);
		READ_OR_STOP(pos, 8, "full timestamp");
		uint64_t tsc = 0;
		tfk_cur_u64_at(k->c, k->at + pos, &tsc);
		full_tsc(k, p, h, tsc, pos);
		pos += 8;
	}
	return payload(k, p, id, pos, (int64_t)size, end);
}

void l0_walk_events(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t at, uint64_t fill, uint64_t block_len,
		    const struct l0_params *p, const struct l0_header *h, uint64_t block, struct l0_walk *w)
{
	struct walker k = { ctx, t, c, at, fill, block_len, block, w, 0, 0, false, h->tsc_begin, false, false };
	uint64_t pos = p->layout == 1 ? L0_V1_HEADER : L0_V2_HEADER;
	unsigned a = 1;
	if (p->alignment && p->layout == 2)
		a = p->natural || p->alignment >= 4 ? 4 : p->alignment; /* the u32 event header */
	else if (p->alignment)
		a = p->compact ? 4 : (p->alignment < p->arch_size ? p->alignment : p->arch_size);
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
