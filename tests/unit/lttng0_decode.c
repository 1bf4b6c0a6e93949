/* SPDX-License-Identifier: MIT */
/*
 * The tests' decoder of legacy LTTng tracefiles. From the 2008 document: "Each tracefile is
 * divided into equal size blocks with a header at the beginning of the block"; the block
 * start/end header {begin {cycle_count, freq}, end {cycle_count, freq}, lost_size, buf_size};
 * the trace header (arch_size, has_heartbeat, alignment); events packed from the end of the
 * headers, "lost_size: number of bytes of padding at the end of the buffer"; the event header
 * {timestamp u32 or u64, ids (16 bits), event_size u16}, aligned when alignment is on, the
 * payload aligned on the architecture size. LTF 2.6 from the spec's §3.3 (data_size, sb_size,
 * the 27/5-bit word and escapes 29 and 30). Events without a size are measured from their
 * marker's format as the 2008 document's facilities files give it: each conversion is a field,
 * a string up to its NUL, a number of its C type's size, aligned on that size (at most the
 * trace's alignment) when alignment is on.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lttng0_decode.h"

struct dec {
	struct l0dec_meta *meta;
	bool is_meta;
	const char *channel;
	uint8_t layout, arch, align;
	bool be;
	bool natural;           /* LTF 2.4, 2.5: a type aligns on its size */
	const uint8_t *file;    /* the tracefile, for event end offsets */
};

static uint64_t num(const uint8_t *p, unsigned width, bool be);
static size_t up(size_t x, unsigned a);

/* The core events' formats: marker_id and marker_format, with the channel in LTF 2.x. */
static const char *core_format(uint8_t layout, uint16_t id)
{
	if (id == 0)
		return layout == 1 ? "name %s event_id %hu int #1u%zu long #1u%zu pointer #1u%zu size_t #1u%zu alignment #1u%u"
				   : "channel %s name %s event_id %hu int #1u%zu long #1u%zu pointer #1u%zu size_t #1u%zu "
				     "alignment #1u%u";
	return layout == 1 ? "name %s format %s" : "channel %s name %s format %s";
}

/*
 * Walk the fields of fmt from block-relative pos (b is the block, end its data end): each
 * field's position into at[] (up to 16); the payload's end, or 0 when it does not fit.
 */
static size_t walk_format(const struct dec *d, const char *fmt, const uint8_t sizes[4], unsigned align,
			  const uint8_t *b, size_t pos, size_t end, size_t *at, unsigned *nat, unsigned *widest)
{
	unsigned n = 0, forced = 0;
	for (const char *c = fmt; *c; c++) {
		if (*c == '#') {
			/* A trace type: ## is text; n* then a size (1 2 4 8, h, l, ll, z, t) and a type. */
			c++;
			if (*c == '#')
				continue;
			while (*c == 'n')
				c++;
			unsigned q = 0;
			if (*c && strchr("1248", *c))
				q = (unsigned)(*c++ - '0');
			else if (*c == 'l' && c[1] == 'l')
				q = 8, c += 2;
			else if (*c == 'l' || *c == 'z' || *c == 'Z' || *c == 't')
				q = *c == 'l' ? sizes[1] : *c == 't' ? sizes[2] : sizes[3], c++;
			else if (*c == 'h')
				q = 2, c++;
			if (*c == 'p')
				forced = sizes[2];
			else if (*c == 'c')
				forced = 1;
			else if (*c && strchr("diouxX", *c))
				forced = q ? q : sizes[0];
			else
				forced = 0; /* not a type: the character is passed over ("#1%d" records nothing) */
			if (!*c)
				break;
			continue;
		}
		if (*c != '%')
			continue;
		c++;
		if (*c == '%')
			continue;
		while (*c && strchr("-+ #0123456789.", *c))
			c++;
		unsigned h = 0, l = 0;
		int z = 0;
		for (; *c && strchr("hlLqzZjt", *c); c++) {
			h += *c == 'h';
			l += *c == 'l';
			l += (*c == 'L' || *c == 'q' || *c == 'j') * 2;
			z |= *c == 'z' || *c == 'Z' || *c == 't';
		}
		if (!*c)
			return 0;
		unsigned size;
		if (*c == 's') {
			if (n < 16)
				at[n++] = pos;
			while (pos < end && b[pos])
				pos++;
			if (pos >= end)
				return 0;
			pos++;
			forced = 0;
			continue;
		}
		if (*c == 'p')
			size = sizes[2];
		else if (*c == 'c' && !h && !l && !z)
			size = 1;
		else if (!strchr("diouxX", *c))
			return 0;
		else
			size = z ? sizes[*c == 't' ? 1 : 3] : l >= 2 ? 8 : l ? sizes[1] : h >= 2 ? 1 : h ? 2 : sizes[0];
		if (forced)
			size = forced;
		forced = 0;
		if (widest && size > *widest)
			*widest = size;
		if (align && size > 1) {
			unsigned a = d->natural || size < align ? size : align;
			pos = (pos + a - 1) / a * a;
		}
		if (pos + size > end)
			return 0;
		if (n < 16)
			at[n++] = pos;
		pos += size;
	}
	*nat = n;
	return pos;
}

static void copy_str(char *out, size_t cap, const uint8_t *s)
{
	snprintf(out, cap, "%s", (const char *)s);
}

/* A core event's fields, read into the markers. */
static void read_record(struct dec *d, uint16_t id, const uint8_t *b, const size_t *at, unsigned nat)
{
	unsigned k = 0;
	char channel[64] = "", name[64];
	if (d->layout == 2)
		copy_str(channel, sizeof channel, b + at[k++]);
	copy_str(name, sizeof name, b + at[k++]);
	struct l0dec_marker *m = NULL;
	for (size_t i = 0; i < d->meta->n; i++)
		if (!strcmp(d->meta->m[i].channel, channel) && !strcmp(d->meta->m[i].name, name))
			m = &d->meta->m[i];
	if (!m) {
		if (d->meta->n == L0DEC_MARKERS)
			return;
		m = &d->meta->m[d->meta->n++];
		memset(m, 0, sizeof(*m));
		snprintf(m->channel, sizeof m->channel, "%s", channel);
		snprintf(m->name, sizeof m->name, "%s", name);
	}
	if (id == 0 && nat == k + 6) {
		m->id = (uint16_t)num(b + at[k], 2, d->be);
		for (unsigned i = 0; i < 4; i++)
			m->sizes[i] = b[at[k + 1 + i]];
		m->align = b[at[k + 5]];
		m->has_id = true;
	} else if (id == 1 && nat == k + 1) {
		copy_str(m->format, sizeof m->format, b + at[k]);
		m->has_format = true;
	}
}

/* The payload of event id at block-relative pos: its declared size, or (size < 0) measured. */
static bool payload(struct dec *d, const uint8_t *b, size_t pos, size_t end, uint16_t id, long size, struct l0dec_event *e,
		    size_t *next)
{
	const bool core = d->meta && d->is_meta && id < 2;
	const char *fmt = NULL;
	uint8_t sizes[4] = { 4, d->arch, d->arch, d->arch };
	unsigned align = d->align;
	if (core) {
		fmt = core_format(d->layout, id);
	} else if (d->meta) {
		for (size_t i = 0; i < d->meta->n; i++) {
			const struct l0dec_marker *m = &d->meta->m[i];
			if (m->has_id && m->has_format && m->id == id && !strcmp(m->channel, d->layout == 1 ? "" : d->channel)) {
				fmt = m->format;
				memcpy(sizes, m->sizes, 4);
				if (d->layout == 2)
					align = m->align; /* LTF 2.x: the marker's own alignment */
			}
		}
	}
	if (d->layout == 2 && fmt && align) {
		/* The payload begins aligned on its widest number (a first, unaligned pass finds it). */
		size_t at0[16];
		unsigned n0 = 0, widest = 1;
		(void)walk_format(d, fmt, sizes, 0, b, pos, end, at0, &n0, &widest);
		pos = up(pos, d->natural || widest < align ? widest : align);
	}
	size_t at[16];
	unsigned nat = 0;
	size_t fend = fmt ? walk_format(d, fmt, sizes, core ? d->align : align, b, pos, end, at, &nat, NULL) : 0;
	if (size < 0) {
		if (!fend)
			return false;
		size = (long)(fend - pos);
	}
	if (pos + (size_t)size > end)
		return false;
	if (core && fend && fend <= pos + (size_t)size)
		read_record(d, id, b, at, nat);
	e->size = (uint32_t)size;
	e->payload = b + pos;
	*next = pos + (size_t)size;
	return true;
}

static uint64_t num(const uint8_t *p, unsigned width, bool be)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++)
		v |= (uint64_t)p[i] << (be ? 8 * (width - 1 - i) : 8 * i);
	return v;
}

static size_t up(size_t x, unsigned a)
{
	return a > 1 ? (x + a - 1) / a * a : x;
}

static long block_2008(struct dec *d, const uint8_t *b, size_t size, bool be, unsigned block, struct l0dec_event *ev,
		       size_t max, size_t n)
{
	const uint8_t *th = b + 40;
	unsigned arch = th[16], hb = th[20], align = th[21];
	d->arch = (uint8_t)arch;
	d->align = (uint8_t)align;
	size_t lost = (size_t)num(b + 32, 4, be), pos = 109;
	if (lost > size - 109)
		return -1;
	size_t end = size - lost;
	unsigned hdr_align = align ? (align < arch ? align : arch) : 1, ts = hb ? 4 : 8;
	while (pos < end && up(pos, hdr_align) < end) {
		pos = up(pos, hdr_align);
		if (pos + ts + 4 > end || n == max)
			return -1;
		struct l0dec_event *e = &ev[n++];
		e->block = block;
		e->tsc = num(b + pos, ts, be);
		e->id = (uint16_t)num(b + pos + ts, 2, be);
		const uint32_t declared = (uint32_t)num(b + pos + ts + 2, 2, be);
		pos += ts + 4;
		if (align)
			pos = up(pos, arch);
		if (!payload(d, b, pos, end, e->id, declared == 0xFFFF ? -1 : (long)declared, e, &pos))
			return -1;
		e->full = e->tsc;
		e->end = (size_t)(b - d->file) + pos;
	}
	return (long)n;
}

static long block_ltf26(struct dec *d, const uint8_t *b, size_t size, bool be, unsigned block, struct l0dec_event *ev,
			size_t max, size_t n)
{
	unsigned align = b[23];
	const unsigned minor = b[21];
	d->arch = b[22];
	d->align = (uint8_t)align;
	d->natural = minor == 4 || minor == 5;
	/* 2.3 and 2.4: lost_size at 52 (the fill is the size less it); 2.5 and 2.6: data_size. */
	size_t end = (size_t)num(b + 52, 4, be), pos = 68;
	if (minor < 5)
		end = end <= size ? size - end : SIZE_MAX;
	if (end > size)
		return -1;
	const unsigned hdr_a = !align ? 1 : d->natural || align >= 4 ? 4 : align;
	const unsigned tsc_a = !align ? 1 : d->natural || align >= 8 ? 8 : align;
	uint64_t cur = num(b, 8, be); /* the block's begin cycle count */
	const uint64_t mask = (1ull << 27) - 1;
	while (pos < end && up(pos, hdr_a) < end) {
		pos = up(pos, hdr_a);
		if (pos + 4 > end || n == max)
			return -1;
		uint32_t word = (uint32_t)num(b + pos, 4, be);
		const unsigned id5 = word >> 27;
		struct l0dec_event *e = &ev[n++];
		e->block = block;
		e->tsc = word & 0x7FFFFFF;
		pos += 4;
		if (id5 != 29) {
			/* LTTV: one wrap when the low bits decrease */
			uint64_t full = (cur & ~mask) | e->tsc;
			if (e->tsc < (cur & mask))
				full += mask + 1;
			cur = full;
		}
		bool ok;
		if (id5 < 29) {
			e->id = (uint16_t)id5; /* compact: the size comes from the marker's format */
			ok = payload(d, b, pos, end, e->id, -1, e, &pos);
		} else {
			if (pos + 2 > end)
				return -1;
			e->id = (uint16_t)num(b + pos, 2, be);
			if (id5 == 31) {
				ok = payload(d, b, pos + 2, end, e->id, -1, e, &pos);
			} else {
				if (pos + 4 > end)
					return -1;
				uint32_t declared = (uint32_t)num(b + pos + 2, 2, be);
				pos += 4;
				if (declared == 0xFFFF) {
					if (pos + 4 > end)
						return -1;
					declared = (uint32_t)num(b + pos, 4, be);
					pos += 4;
				}
				if (id5 == 29) {
					pos = up(pos, tsc_a);
					if (pos + 8 > end)
						return -1;
					e->tsc = num(b + pos, 8, be);
					cur = e->tsc;
					pos += 8;
				}
				ok = payload(d, b, pos, end, e->id, (long)declared, e, &pos);
			}
		}
		if (!ok)
			return -1;
		e->full = cur;
		e->end = (size_t)(b - d->file) + pos;
	}
	return (long)n;
}

long l0dec_decode_meta(const uint8_t *p, size_t len, uint8_t layout, bool be, struct l0dec_meta *meta, bool is_meta,
		       const char *channel, struct l0dec_event *ev, size_t max)
{
	struct dec d = { meta, is_meta, channel ? channel : "", layout, 0, 0, be, false, p };
	size_t off = 0, n = 0;
	for (unsigned block = 0; off < len; block++) {
		if (len - off < 109)
			return -1;
		const uint8_t *b = p + off;
		size_t size = (size_t)num(b + (layout == 1 ? 36 : 56), 4, be);
		if (num(b + (layout == 1 ? 40 : 16), 4, be) != 0x00D6B7ED || size < 109 || size > len - off)
			return -1;
		long r = layout == 1 ? block_2008(&d, b, size, be, block, ev, max, n)
				     : block_ltf26(&d, b, size, be, block, ev, max, n);
		if (r < 0)
			return -1;
		n = (size_t)r;
		off += size;
	}
	return (long)n;
}

long l0dec_decode(const uint8_t *p, size_t len, uint8_t layout, bool be, struct l0dec_event *ev, size_t max)
{
	return l0dec_decode_meta(p, len, layout, be, NULL, false, "", ev, max);
}
