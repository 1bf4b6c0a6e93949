/* SPDX-License-Identifier: MIT */
/*
 * The tests' decoder of legacy LTTng tracefiles. From the 2008 document: "Each tracefile is
 * divided into equal size blocks with a header at the beginning of the block"; the block
 * start/end header {begin {cycle_count, freq}, end {cycle_count, freq}, lost_size, buf_size};
 * the trace header (arch_size, has_heartbeat, alignment); events packed from the end of the
 * headers, "lost_size: number of bytes of padding at the end of the buffer"; the event header
 * {timestamp u32 or u64, ids (16 bits), event_size u16}, aligned when alignment is on, the
 * payload aligned on the architecture size. LTF 2.6 from the spec's §3.3 (data_size, sb_size,
 * the 27/5-bit word and escapes 29 and 30).
 */
#include "lttng0_decode.h"

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

static long block_2008(const uint8_t *b, size_t size, bool be, unsigned block, struct l0dec_event *ev, size_t max,
		       size_t n)
{
	const uint8_t *th = b + 40;
	unsigned arch = th[16], hb = th[20], align = th[21];
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
		e->size = (uint32_t)num(b + pos + ts + 2, 2, be);
		pos += ts + 4;
		if (align)
			pos = up(pos, arch);
		if (e->size == 0xFFFF || pos + e->size > end)
			return -1;
		e->payload = b + pos;
		pos += e->size;
	}
	return (long)n;
}

static long block_ltf26(const uint8_t *b, size_t size, bool be, unsigned block, struct l0dec_event *ev, size_t max,
			size_t n)
{
	unsigned align = b[23];
	size_t end = (size_t)num(b + 52, 4, be), pos = 68;
	if (end > size)
		return -1;
	while (pos < end && up(pos, align ? 4 : 1) < end) {
		pos = up(pos, align ? 4 : 1);
		if (pos + 8 > end || n == max)
			return -1;
		uint32_t word = (uint32_t)num(b + pos, 4, be);
		if (word >> 27 != 29 && word >> 27 != 30)
			return -1;
		struct l0dec_event *e = &ev[n++];
		e->block = block;
		e->tsc = word & 0x7FFFFFF;
		e->id = (uint16_t)num(b + pos + 4, 2, be);
		e->size = (uint32_t)num(b + pos + 6, 2, be);
		pos += 8;
		if (e->size == 0xFFFF) {
			if (pos + 4 > end)
				return -1;
			e->size = (uint32_t)num(b + pos, 4, be);
			pos += 4;
		}
		if (word >> 27 == 29) {
			pos = align ? up(pos, 8) : pos;
			if (pos + 8 > end)
				return -1;
			e->tsc = num(b + pos, 8, be);
			pos += 8;
		}
		if (pos + e->size > end)
			return -1;
		e->payload = b + pos;
		pos += e->size;
	}
	return (long)n;
}

long l0dec_decode(const uint8_t *p, size_t len, uint8_t layout, bool be, struct l0dec_event *ev, size_t max)
{
	size_t off = 0, n = 0;
	for (unsigned block = 0; off < len; block++) {
		if (len - off < 109)
			return -1;
		const uint8_t *b = p + off;
		size_t size = (size_t)num(b + (layout == 1 ? 36 : 56), 4, be);
		if (num(b + (layout == 1 ? 40 : 16), 4, be) != 0x00D6B7ED || size < 109 || size > len - off)
			return -1;
		long r = layout == 1 ? block_2008(b, size, be, block, ev, max, n) : block_ltf26(b, size, be, block, ev, max, n);
		if (r < 0)
			return -1;
		n = (size_t)r;
		off += size;
	}
	return (long)n;
}
