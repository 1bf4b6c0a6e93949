/* SPDX-License-Identifier: MIT */
/*
 * LTTng index files regenerated from the packets kept (spec 4.5): always big-endian, a 16-byte
 * header (magic, major 1, minor, entry length) and one entry per packet. LTTng's entries repeat
 * the packet contexts, so for a stream kept whole the file is byte for byte LTTng's own.
 */
#include "ctf_repair.h"
#include "output.h"

#define IDX_MAGIC 0xC1F1DCC1u

unsigned cr_index_minor(const uint8_t *p, size_t n)
{
	if (!p || n < 16)
		return 1;
	uint32_t w[4];
	for (unsigned k = 0; k < 4; k++)
		w[k] = (uint32_t)p[4 * k] << 24 | (uint32_t)p[4 * k + 1] << 16 | (uint32_t)p[4 * k + 2] << 8 | p[4 * k + 3];
	if (w[0] != IDX_MAGIC || w[1] != 1 || w[2] > 1)
		return 1;
	/* 1.0 entries are 56 bytes; 1.1 adds the instance id and sequence number (72). */
	return w[2] == 1 && w[3] >= 72 ? 1 : w[2] == 0 && w[3] >= 56 ? 0 : 1;
}

void cr_index_build(const struct cr_model *m, const struct cr_stream *s, unsigned minor, struct rp_out *out)
{
	out->be = true;
	rp_out_num(out, IDX_MAGIC, 4);
	rp_out_num(out, 1, 4);
	rp_out_num(out, minor, 4);
	rp_out_num(out, minor ? 72 : 56, 4);
	uint64_t at = 0; /* the packet's offset in the output: kept packets are written back to back */
	for (size_t i = s->first; i < s->first + s->count; i++) {
		const struct cr_packet *p = &m->packets[i];
		if (!p->keep)
			continue;
		const uint64_t e[9] = { at, p->packet_size, p->content_size, p->ts_begin, p->ts_end,
					p->discarded, p->stream_id, p->instance_id, p->seq };
		for (unsigned k = 0; k < (minor ? 9u : 7u); k++)
			rp_out_num(out, e[k], 8);
		at += p->packet_size / 8;
	}
}
