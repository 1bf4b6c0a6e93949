/* SPDX-License-Identifier: MIT */
/*
 * The legacy LTTng tracefile writer of the tests. Byte layouts, with the spec section each
 * comes from:
 *  - 2008 block header, 40 bytes (§3.2; the 2008 document's "block start/end header"):
 *    begin {cycle_count u64, freq u64}, end {cycle_count u64, freq u64}, lost_size u32,
 *    buf_size u32.
 *  - 2008 trace header at block offset 40, 69 bytes packed (§3.2 table, code struct
 *    ltt_trace_header_1_0; the 2008 document instead ends with start_time {u32 sec, u32 nsec},
 *    which would make it 61 bytes: the spec's table is followed).
 *  - 2008 event header (§3.2): aligned to min(alignment, arch_size) when alignment is on, then
 *    u32 (heartbeat) or u64 timestamp, u16 event_id (the document's u8 facility, u8 event), u16
 *    event_size; the payload aligned to arch_size when alignment is on. Compact tracefiles: one
 *    u32 {compact data, event id, TSC bits} per event, no size and no payload (our reading).
 *  - LTF 2.6 sub-buffer header, 68 bytes (§3.3 ltt_subbuffer_header_2_6).
 *  - LTF 2.6 event (§3.3): u32 {5-bit id << 27 | 27-bit TSC}, aligned to 4 when alignment is
 *    on; escape 30: u16 id, u16 size (0xFFFF: a u32 size follows); escape 29: the same, then a
 *    u64 TSC aligned to 8 (when alignment is on: our reading). The payload follows at once.
 * Positions are aligned relative to the block's start (sub-buffers were page aligned).
 *  - Marker metadata (§3.1, §3.3, the 2008 document's facilities files): core event 0
 *    marker_id {[channel string,] name string, u16 id, u8 int, long, pointer and size_t sizes,
 *    u8 alignment} and core event 1 marker_format {[channel string,] name string, format
 *    string}, the channel in LTF 2.x only (LTTng 0.x ltt-marker-control, our reading). A
 *    payload laid out from a format: strings with their NUL, numbers of their C type's size
 *    (or of the size an LTTng "#2u" prefix gives), each aligned to min(size, alignment) when
 *    alignment is on.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng0_fixture.h"

#define MAGIC 0x00D6B7EDu
#define BASE_TSC 5000000ull
#define TSC_STEP 1000ull
#define L0FX_FIELDS 16

void l0fx_put(uint8_t *p, uint64_t v, unsigned width, bool be)
{
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (be ? 8 * (width - 1 - i) : 8 * i));
}

struct l0fx_spec l0fx_default(uint8_t layout)
{
	struct l0fx_spec s = { 0 };
	s.layout = layout;
	s.arch_size = 8;
	s.block_size = layout == 1 ? 1024 : 4096;
	s.blocks = 3;
	s.events = 8;
	return s;
}

static size_t align_up(size_t pos, unsigned a)
{
	return a <= 1 ? pos : (pos + a - 1) / a * a;
}

static uint64_t base_tsc(const struct l0fx_spec *s)
{
	return s->tsc_base ? s->tsc_base : BASE_TSC;
}

static uint64_t ev_tsc(const struct l0fx_spec *s, uint64_t g)
{
	return base_tsc(s) + 100 + (s->tsc_step ? s->tsc_step : TSC_STEP) * g;
}

const struct l0fx_marker l0fx_markers[L0FX_NMARKERS] = {
	{ 10, "sched_switch", "prev %d next %d comm %s" },
	{ 11, "irq_entry", "ip %p irq #2u%u kernel #1u%hhu" },
	{ 12, "syscall_exit", "ts %llu c %c name %s ret %ld count %zu" },
	{ 40, "empty", "no fields %% at all" },
};

/* A field of a payload: a string (str set) or a number of size bytes. */
struct field {
	const char *str;
	unsigned size;
	uint64_t value;
};

const struct l0fx_marker l0fx_real_markers[L0FX_NMARKERS] = {
	{ 5, "syscall_entry", "ip #p%ld syscall_id #2u%u" },
	{ 9, "llseek", "fd %u offset %lld origin %u" },
	{ 43, "page_fault_get_user_entry", "address #p%lu write_access #1u%u" },
	{ 7, "idle_entry", "irqstate #1%d" },
};

static const struct l0fx_marker *markers_of(const struct l0fx_spec *s)
{
	return s->markers ? s->markers : l0fx_markers;
}

/*
 * The fields of a format, by the tracer's grammar (the conversions the fixture's markers and
 * the core formats use): a "#" trace type ([n] then 1 2 4 8 and a type, or p) gives the size of
 * the "%" conversion after it; a "#" not followed by a type ("#1%d") makes the tracer pass over
 * the next character, here the '%', so that nothing is recorded.
 */
static unsigned format_fields(const char *fmt, unsigned arch, struct field *f)
{
	unsigned n = 0, forced = 0;
	for (const char *p = fmt; *p; p++) {
		if (*p == '#') {
			p++;
			if (*p == '#')
				continue;
			while (*p == 'n')
				p++;
			unsigned q = 0;
			if (*p && strchr("1248", *p))
				q = (unsigned)(*p++ - '0');
			if (*p == 'p')
				forced = arch;
			else if (*p == 'c')
				forced = 1;
			else if (*p && strchr("diouxX", *p))
				forced = q ? q : 4;
			else
				forced = 0;
			if (!*p)
				break;
			continue;
		}
		if (*p != '%')
			continue;
		p++;
		if (*p == '%')
			continue;
		unsigned size = 4;
		bool str = false;
		if (strncmp(p, "ll", 2) == 0) {
			size = 8;
			p += 2;
		} else if (strncmp(p, "hh", 2) == 0) {
			size = 1;
			p += 2;
		} else if (*p == 'h') {
			size = 2;
			p++;
		} else if (*p == 'l' || *p == 'z') {
			size = arch;
			p++;
		} else if (*p == 'p') {
			size = arch;
		} else if (*p == 'c') {
			size = 1;
		} else if (*p == 's') {
			str = true;
		}
		f[n].str = str ? "" : NULL;
		f[n].size = forced && !str ? forced : size;
		forced = 0;
		n++;
	}
	return n;
}

/* LTF 2.4 and 2.5 aligned a type on its own size; 2.3 and 2.6 on min(size, alignment). */
static bool natural(const struct l0fx_spec *s)
{
	return s->layout == 2 && (s->minor == 4 || s->minor == 5);
}

/* Where a type of size bytes aligns (1: packed). */
static unsigned type_align(const struct l0fx_spec *s, unsigned size)
{
	if (!s->alignment || !size)
		return 1;
	return natural(s) || size < s->alignment ? size : s->alignment;
}

/* Lay out fields at block-relative position at into tmp (from offset n); the new n. */
static size_t put_fields(const struct l0fx_spec *s, uint8_t *tmp, size_t at, size_t n, const struct field *f, unsigned nf)
{
	if (s->layout == 2) {
		/* The tracer began the payload aligned on its widest number (LTTV's largest_align). */
		unsigned widest = 1;
		for (unsigned i = 0; i < nf; i++)
			if (!f[i].str && type_align(s, f[i].size) > widest)
				widest = type_align(s, f[i].size);
		size_t pad = align_up(at + n, widest) - (at + n);
		memset(tmp + n, 0, pad);
		n += pad;
	}
	for (unsigned i = 0; i < nf; i++) {
		if (f[i].str) {
			size_t len = strlen(f[i].str) + 1;
			memcpy(tmp + n, f[i].str, len);
			n += len;
			continue;
		}
		size_t pad = align_up(at + n, type_align(s, f[i].size)) - (at + n);
		memset(tmp + n, 0, pad);
		n += pad;
		l0fx_put(tmp + n, f[i].value, f[i].size, s->big_endian);
		n += f[i].size;
	}
	return n;
}

static const char *const comms[5] = { "init", "bash", "kworker/0:1", "", "sshd" };

/* The payload of formats event g: values from g, strings from comms. */
static unsigned format_payload(const struct l0fx_spec *s, uint64_t g, struct field *f)
{
	unsigned nf = format_fields(markers_of(s)[g % L0FX_NMARKERS].format, s->arch_size, f);
	for (unsigned i = 0; i < nf; i++) {
		if (f[i].str)
			f[i].str = comms[(g + i) % 5];
		else
			f[i].value = (g * 7 + i) & (f[i].size == 8 ? ~0ull : (1ull << (8 * f[i].size)) - 1);
	}
	return nf;
}

/* The plain ids of the default events, which the metadata also defines (any format). */
static unsigned plain_ids(const struct l0fx_spec *s, uint16_t *ids)
{
	unsigned n = 0;
	for (unsigned i = 0; i < (s->layout == 1 ? 7u : 5u); i++)
		ids[n++] = (uint16_t)(s->layout == 1 ? 1 + i : 100 + i);
	return n;
}

/* Meta event g: marker_id (even g) or marker_format (odd g) of marker g / 2; false past the last. */
static bool meta_payload(const struct l0fx_spec *s, uint64_t g, struct field *f, unsigned *nf, uint16_t *core)
{
	uint16_t plain[8];
	const unsigned np = plain_ids(s, plain), m = (unsigned)(g / 2);
	if (m >= L0FX_NMARKERS + np)
		return false;
	static char names[8][16];
	const char *name, *format;
	uint16_t id;
	if (m < L0FX_NMARKERS) {
		name = markers_of(s)[m].name;
		format = markers_of(s)[m].format;
		id = markers_of(s)[m].id;
	} else {
		snprintf(names[m - L0FX_NMARKERS], sizeof names[0], "plain_%u", m - L0FX_NMARKERS);
		name = names[m - L0FX_NMARKERS];
		format = "data %d";
		id = plain[m - L0FX_NMARKERS];
	}
	unsigned n = 0;
	if (s->layout == 2)
		f[n++] = (struct field){ s->channel ? s->channel : "kernel", 0, 0 };
	f[n++] = (struct field){ name, 0, 0 };
	*core = (uint16_t)(g % 2);
	if (g % 2 == 0) {
		f[n++] = (struct field){ NULL, 2, id };
		const unsigned sizes[5] = { 4, s->arch_size, s->arch_size, s->arch_size, s->alignment };
		for (unsigned i = 0; i < 5; i++)
			f[n++] = (struct field){ NULL, 1, sizes[i] };
	} else {
		f[n++] = (struct field){ format, 0, 0 };
	}
	*nf = n;
	return true;
}

static unsigned ev_size(const struct l0fx_spec *s, uint64_t g)
{
	return s->layout == 1 ? (unsigned)(g * 3 % 13) : (unsigned)(g * 5 % 21);
}

void l0fx_event(const struct l0fx_spec *s, uint64_t g, uint16_t *id, uint32_t *size, uint64_t *tsc)
{
	*id = (uint16_t)(s->layout == 1 ? 1 + g % 7 : 100 + g % 5);
	*size = ev_size(s, g);
	*tsc = ev_tsc(s, g);
}

/* An event whose payload is laid out from fields (formats and meta modes); its end, or 0. */
static size_t put_sized_by_format(const struct l0fx_spec *s, uint8_t *blk, size_t pos, uint64_t g, bool first,
				  size_t *start)
{
	const bool be = s->big_endian;
	const uint64_t tsc = ev_tsc(s, g);
	struct field f[L0FX_FIELDS];
	unsigned nf;
	uint16_t id;
	if (s->meta) {
		if (!meta_payload(s, g, f, &nf, &id))
			return 0;
	} else {
		nf = format_payload(s, g, f);
		id = markers_of(s)[g % L0FX_NMARKERS].id;
	}
	uint8_t tmp[256];
	size_t n = 0, at;
	if (s->layout == 1) {
		unsigned a = s->alignment ? (s->alignment < s->arch_size ? s->alignment : s->arch_size) : 1;
		at = align_up(pos, a);
		unsigned ts = s->heartbeat ? 4 : 8;
		l0fx_put(tmp, s->heartbeat ? (tsc & 0xFFFFFFFFu) : tsc, ts, be);
		l0fx_put(tmp + ts, id, 2, be);
		l0fx_put(tmp + ts + 2, 0xFFFF, 2, be);
		n = ts + 4;
		size_t payload = s->alignment ? align_up(at + n, s->arch_size) - at : n;
		memset(tmp + n, 0, payload - n);
		n = put_fields(s, tmp, at, payload, f, nf);
	} else {
		at = align_up(pos, type_align(s, 4));
		if (first && !s->meta) {
			/* escape 29: u16 id, u16 size, the u64 TSC aligned as a u64, then the payload */
			l0fx_put(tmp, 29u << 27 | (uint32_t)(tsc & 0x7FFFFFF), 4, be);
			l0fx_put(tmp + 4, id, 2, be);
			n = 8;
			size_t t = align_up(at + n, type_align(s, 8)) - at;
			memset(tmp + n, 0, t - n);
			l0fx_put(tmp + t, tsc, 8, be);
			size_t body = t + 8;
			n = put_fields(s, tmp, at, body, f, nf);
			l0fx_put(tmp + 6, n - body, 2, be);
		} else if (id < 29) {
			l0fx_put(tmp, (uint32_t)id << 27 | (uint32_t)(tsc & 0x7FFFFFF), 4, be);
			n = put_fields(s, tmp, at, 4, f, nf);
		} else {
			l0fx_put(tmp, 31u << 27 | (uint32_t)(tsc & 0x7FFFFFF), 4, be);
			l0fx_put(tmp + 4, id, 2, be);
			n = put_fields(s, tmp, at, 6, f, nf);
		}
	}
	if (at + n > s->block_size)
		return 0;
	memcpy(blk + at, tmp, n);
	*start = at;
	return at + n;
}

/* One event of global number g at block-relative pos; its end, or 0 when it does not fit. */
static size_t put_event(const struct l0fx_spec *s, uint8_t *blk, size_t pos, uint64_t g, bool first, size_t *start)
{
	const bool be = s->big_endian;
	const uint64_t tsc = ev_tsc(s, g);
	const unsigned size = ev_size(s, g);
	uint8_t tmp[64];
	size_t n = 0, at;
	if (s->formats || s->meta)
		return put_sized_by_format(s, blk, pos, g, first, start);
	if (s->layout == 1) {
		if (s->compact) {
			at = align_up(pos, s->alignment ? 4 : 1);
			/* tscbits 24, compact_data_shift 29: data 3 bits | id 5 bits | 24 TSC bits */
			uint32_t word = (uint32_t)(g % 8) << 29 | (uint32_t)(1 + g % 30) << 24 | (uint32_t)(tsc & 0xFFFFFF);
			l0fx_put(tmp, word, 4, be);
			n = 4;
		} else {
			unsigned a = s->alignment ? (s->alignment < s->arch_size ? s->alignment : s->arch_size) : 1;
			at = align_up(pos, a);
			unsigned ts = s->heartbeat ? 4 : 8;
			l0fx_put(tmp, s->heartbeat ? (tsc & 0xFFFFFFFFu) : tsc, ts, be);
			l0fx_put(tmp + ts, 1 + g % 7, 2, be);
			l0fx_put(tmp + ts + 2, s->unknown_sizes ? 0xFFFF : size, 2, be);
			n = ts + 4;
			size_t payload = s->alignment ? align_up(at + n, s->arch_size) - at : n;
			memset(tmp + n, 0, payload - n);
			n = payload;
			if (!s->unknown_sizes) {
				for (unsigned k = 0; k < size; k++)
					tmp[n + k] = (uint8_t)(g + k);
				n += size;
			}
		}
	} else {
		at = align_up(pos, type_align(s, 4));
		unsigned id5 = s->unknown_sizes ? (unsigned)(g % 29) : first ? 29 : 30;
		l0fx_put(tmp, (uint32_t)id5 << 27 | (uint32_t)(tsc & 0x7FFFFFF), 4, be);
		n = 4;
		if (!s->unknown_sizes) {
			l0fx_put(tmp + n, 100 + g % 5, 2, be);
			l0fx_put(tmp + n + 2, s->big_sizes ? 0xFFFF : size, 2, be);
			n += 4;
			if (s->big_sizes) {
				l0fx_put(tmp + n, size, 4, be);
				n += 4;
			}
			if (id5 == 29) {
				size_t t = align_up(at + n, type_align(s, 8)) - at;
				memset(tmp + n, 0, t - n);
				n = t;
				l0fx_put(tmp + n, tsc, 8, be);
				n += 8;
			}
			for (unsigned k = 0; k < size; k++)
				tmp[n + k] = (uint8_t)(g + k);
			n += size;
		}
	}
	if (at + n > s->block_size)
		return 0;
	memcpy(blk + at, tmp, n);
	*start = at;
	return at + n;
}

static void put_header(const struct l0fx_spec *s, uint8_t *blk, uint64_t begin, uint64_t end, size_t used, unsigned b)
{
	const bool be = s->big_endian;
	const uint64_t start_sec = s->start_time ? s->start_time : 1212364800; /* 2008-06-02 */
	if (s->layout == 1) {
		l0fx_put(blk + 0, begin, 8, be);
		l0fx_put(blk + 8, 2000000000, 8, be);
		l0fx_put(blk + 16, end, 8, be);
		l0fx_put(blk + 24, 2000000000, 8, be);
		l0fx_put(blk + 32, s->block_size - used, 4, be);
		l0fx_put(blk + 36, s->block_size, 4, be);
		uint8_t *h = blk + 40;
		l0fx_put(h + 0, MAGIC, 4, be);
		l0fx_put(h + 4, s->arch_size == 8 ? 8 : 1, 4, be); /* x86_64 or i386 */
		l0fx_put(h + 8, 0, 4, be);
		l0fx_put(h + 12, 0, 4, be);
		h[16] = s->arch_size;
		h[17] = 1;
		h[18] = 0;
		h[19] = 0;
		h[20] = s->heartbeat;
		h[21] = s->alignment;
		h[22] = 0;
		h[23] = 24;
		h[24] = 29;
		l0fx_put(h + 25, 1, 4, be);
		l0fx_put(h + 29, 2000000000, 8, be);
		l0fx_put(h + 37, base_tsc(s), 8, be);
		l0fx_put(h + 45, 0, 8, be);
		l0fx_put(h + 53, start_sec, 8, be);
		l0fx_put(h + 61, 0, 8, be);
	} else {
		l0fx_put(blk + 0, begin, 8, be);
		l0fx_put(blk + 8, end, 8, be);
		l0fx_put(blk + 16, MAGIC, 4, be);
		blk[20] = 2;
		blk[21] = s->minor ? s->minor : 6;
		blk[22] = s->arch_size;
		blk[23] = s->alignment;
		l0fx_put(blk + 24, start_sec, 8, be);
		l0fx_put(blk + 32, 0, 8, be);
		l0fx_put(blk + 40, 2000000000, 8, be);
		l0fx_put(blk + 48, 1, 4, be);
		/* 2.3 and 2.4: lost_size (unused bytes at the end) and buf_size; then data_size, sb_size. */
		l0fx_put(blk + 52, s->minor && s->minor < 5 ? s->block_size - used : used, 4, be);
		l0fx_put(blk + 56, s->block_size, 4, be);
		l0fx_put(blk + 60, 2 * b, 4, be); /* cumulative events_lost */
		l0fx_put(blk + 64, 0, 4, be);
	}
}

/*
 * 2.5+ lttd wrote a sub-buffer only up to the page that holds its last byte: each block becomes
 * PAGE_ALIGN(data) long, its sb_size saying so, and the offsets of the layout move with it.
 */
static void trim(const struct l0fx_spec *s, uint8_t *buf, size_t *len, struct l0fx_layout *L)
{
	size_t out = 0;
	for (unsigned b = 0; b < L->blocks; b++) {
		const size_t from = L->block_off[b], size = align_up(L->data_end[b] - from, 4096);
		const size_t shift = from - out;
		memmove(buf + out, buf + from, size);
		l0fx_put(buf + out + 56, size, 4, s->big_endian);
		L->block_off[b] -= shift;
		L->event_off[b] -= shift;
		L->last_off[b] -= shift;
		L->data_end[b] -= shift;
		for (uint64_t g = L->first_event[b]; g < L->first_event[b] + L->events[b] && g < L0FX_MAX_EVENTS; g++)
			L->ev_off[g] -= shift;
		out += size;
	}
	*len = out;
}

int l0fx_write(const struct l0fx_spec *s, uint8_t **out, size_t *len, struct l0fx_layout *L)
{
	const size_t hdr = s->layout == 1 ? 109 : 68;
	if ((s->layout != 1 && s->layout != 2) || s->blocks > L0FX_MAX_BLOCKS || s->block_size < hdr + 64)
		return -1;
	memset(L, 0, sizeof(*L));
	uint8_t *buf = calloc(s->blocks ? s->blocks : 1, s->block_size);
	if (!buf)
		return -1;
	uint64_t g = 0;
	unsigned blocks = s->blocks;
	for (unsigned b = 0; b < blocks; b++) {
		uint8_t *blk = buf + (size_t)b * s->block_size;
		size_t pos = hdr, start = 0;
		uint64_t first_g = g;
		for (unsigned j = 0; j < (s->meta ? 1000u : s->events); j++) {
			size_t end = put_event(s, blk, pos, g, j == 0, &start);
			if (!end)
				break;
			if (j == 0)
				L->event_off[b] = (size_t)b * s->block_size + start;
			L->last_off[b] = (size_t)b * s->block_size + start;
			if (g < L0FX_MAX_EVENTS)
				L->ev_off[g] = L->last_off[b];
			pos = end;
			g++;
			L->events[b]++;
		}
		if (s->meta && b && !L->events[b]) {
			blocks = b; /* every marker is written: no empty block after them */
			break;
		}
		L->block_off[b] = (size_t)b * s->block_size;
		L->first_event[b] = first_g;
		L->data_end[b] = (size_t)b * s->block_size + pos;
		put_header(s, blk, ev_tsc(s, first_g) - 50, ev_tsc(s, g ? g - 1 : 0) + 50, pos, b);
		L->total_events += L->events[b];
	}
	*out = buf;
	L->blocks = blocks;
	*len = (size_t)blocks * s->block_size;
	if (s->trim && s->layout == 2)
		trim(s, buf, len, L);
	return 0;
}
