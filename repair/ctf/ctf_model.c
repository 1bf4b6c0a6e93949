/* SPDX-License-Identifier: MIT */
/* CTF repair's model: what the check's messages (validate/formats/ctf/ctf_model.h) say, kept compactly. */
#include <stdlib.h>
#include <string.h>

#include "ctf_repair.h"
#include "formats/formats.h"

const struct cr_stream *cr_stream(const struct cr_model *m, const char *member)
{
	for (size_t i = 0; i < m->nstreams; i++)
		if (m->streams[i].have_summary && strncmp(m->streams[i].s.member, member, TFK_CTF_MEMBER_MAX) == 0)
			return &m->streams[i];
	return NULL;
}

const struct tfk_ctf_metadata *cr_metadata(const struct cr_model *m, const char *member)
{
	for (size_t i = 0; i < m->nmetas; i++)
		if (strncmp(m->metas[i].member, member, TFK_CTF_MEMBER_MAX) == 0)
			return &m->metas[i];
	return NULL;
}

/*
 * The stream a message of member belongs to: the check walks one stream at a time, its packets
 * then its summary, so it is the last one unless that one is already summed up or another.
 */
static struct cr_stream *current(struct cr_model *m, const char *member)
{
	if (m->nstreams) {
		struct cr_stream *s = &m->streams[m->nstreams - 1];
		if (!s->have_summary && strncmp(s->s.member, member, TFK_CTF_MEMBER_MAX) == 0)
			return s;
	}
	if (m->nstreams >= CR_MAX_STREAMS) {
		m->too_many = true;
		return NULL;
	}
	if (!rp_grow((void **)&m->streams, &m->cap_streams, m->nstreams + 1, sizeof(*m->streams))) {
		m->oom = true;
		return NULL;
	}
	struct cr_stream *s = &m->streams[m->nstreams++];
	memset(s, 0, sizeof(*s));
	memcpy(s->s.member, member, TFK_CTF_MEMBER_MAX);
	s->s.member[TFK_CTF_MEMBER_MAX - 1] = '\0';
	s->first = m->npackets;
	return s;
}

static void add_packet(struct cr_model *m, const struct tfk_ctf_packet *p)
{
	struct cr_stream *s = current(m, p->member);
	if (!s)
		return;
	if (m->npackets >= CR_MAX_PACKETS) {
		m->too_many = true;
		return;
	}
	if (!rp_grow((void **)&m->packets, &m->cap_packets, m->npackets + 1, sizeof(*m->packets))) {
		m->oom = true;
		return;
	}
	/* A narrow events_discarded that drops by more than half its range wrapped, as the check
	 * reads it: counted on from the packet before, so that the order is one of numbers. */
	uint64_t unwrapped = p->discarded;
	const struct cr_packet *prev = s->count ? &m->packets[m->npackets - 1] : NULL;
	if (prev && prev->has_discarded && p->has_discarded) {
		uint64_t base = prev->discarded_unwrapped - prev->discarded; /* the wraps so far */
		unsigned bits = p->discarded_bits;
		if (bits > 0 && bits < 64 && prev->discarded > p->discarded &&
		    prev->discarded - p->discarded > (1ull << (bits - 1)))
			base += 1ull << bits;
		unwrapped = base + p->discarded < base ? UINT64_MAX : base + p->discarded;
	}
	m->packets[m->npackets++] = (struct cr_packet){
		.offset = p->offset, .packet_size = p->packet_size, .content_size = p->content_size,
		.ts_begin = p->ts_begin, .ts_end = p->ts_end, .discarded = p->discarded, .stream_id = p->stream_id,
		.instance_id = p->instance_id, .seq = p->seq, .events = p->events,
		.discarded_unwrapped = unwrapped, .discarded_bits = p->discarded_bits, .has_ts_begin = p->has_ts_begin,
		.has_ts_end = p->has_ts_end && p->ts_end != 0, .has_discarded = p->has_discarded, .has_seq = p->has_seq,
		.has_instance = p->has_instance, .has_ts_end_raw = p->has_ts_end,
		.keep = p->events_ok && !p->faulty,
		.magic_restored = p->magic_restored, .magic_big_endian = p->magic_big_endian,
	};
	s->count++;
}

static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	struct cr_model *m = user;
	if (format != &tfk_format_ctf)
		return;
	if (kind == TFK_CTF_MODEL_METADATA && size == sizeof(struct tfk_ctf_metadata)) {
		if (!rp_grow((void **)&m->metas, &m->cap_metas, m->nmetas + 1, sizeof(*m->metas)))
			m->oom = true;
		else
			memcpy(&m->metas[m->nmetas++], data, size);
	} else if (kind == TFK_CTF_MODEL_PACKET && size == sizeof(struct tfk_ctf_packet)) {
		add_packet(m, data);
	} else if (kind == TFK_CTF_MODEL_STREAM && size == sizeof(struct tfk_ctf_stream)) {
		const struct tfk_ctf_stream *st = data;
		struct cr_stream *s = current(m, st->member);
		if (s) {
			s->s = *st;
			s->s.member[TFK_CTF_MEMBER_MAX - 1] = '\0';
			s->have_summary = true;
			cr_order_stream(m, s); /* the stream's last word: all its packets are known */
		}
	}
}

struct tfk_observer cr_observer(void *model, const uint8_t *in, size_t size, unsigned pass)
{
	(void)in, (void)size, (void)pass;
	return (struct tfk_observer){ .user = model, .model = on_model };
}

void cr_model_free(void *model)
{
	struct cr_model *m = model;
	free(m->metas);
	free(m->streams);
	free(m->packets);
}
