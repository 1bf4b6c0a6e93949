/* SPDX-License-Identifier: MIT */
/*
 * A data stream file: packet after packet (they tile the file), each header and context
 * decoded through the metadata's types and checked (magic, uuid, stream class, sizes,
 * timestamps, sequence numbers, discarded counts), then every event inside the content:
 * header, contexts and payload, its id known to the stream class, its clock never going back.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf.h"
#include "ctf_lane.h"
#include "ctf_walk.h"
#include "test_hooks.h"

#define CTF_RELEASE_STEP (16u << 20)

#define MAX_ENUM_REPORTS 8

static bool version_below(const struct ctf_meta *m, int64_t major, int64_t minor, int64_t patch)
{
	if (m->tracer_major != major)
		return m->tracer_major < major;
	if (m->tracer_minor != minor)
		return m->tracer_minor < minor;
	return m->tracer_patch < patch;
}

void ctf_tracer_quirks(struct walk *w)
{
	const struct ctf_meta *m = w->meta;
	if (!strcmp(m->tracer_name, "lttng-ust"))
		w->quirk_after_end = version_below(m, 2, 11, 0);
	else if (!strcmp(m->tracer_name, "lttng-modules"))
		w->quirk_after_end = version_below(m, 2, 9, 13) ||
				     (m->tracer_major == 2 && m->tracer_minor == 10 && m->tracer_patch < 10);
	else if (!strcmp(m->tracer_name, "barectf"))
		w->quirk_before_begin = version_below(m, 2, 3, 1);
}

/*
 * An event id the metadata lacks that lttng-sessiond 2.14.0 or 2.14.1 left out (the writer
 * quirk of a user space field of empty name): CTF 1.8 metadata of lttng-ust 2.14 (the session
 * daemon's version is not in the metadata; the application's library is of its release line),
 * and an id within the stream class's own (the registry numbered the class before its
 * declaration failed), not one far past them as a damaged header would give.
 */
static bool dropped_class_quirk(const struct ctf_meta *m, uint64_t stream_id, uint64_t id)
{
	if (m->ctf2 || strcmp(m->tracer_name, "lttng-ust") != 0 || m->tracer_major != 2 || m->tracer_minor != 14)
		return false;
	uint64_t top = 0;
	bool any = false;
	for (size_t i = 0; i < m->nevents; i++)
		if (m->events[i].stream_id == stream_id) {
			any = true;
			if (m->events[i].id > top)
				top = m->events[i].id;
		}
	return any && (id <= top || id - top <= 16);
}

static struct tfk_finding *pkt_fault(struct walk *w, enum tfk_fault_code code, uint64_t bit, uint64_t len,
				     const char *field)
{
	const struct tfk_pctx pc = { .tmpl = "packet %u", .num = { w->index } };
	return tfk_raise(w->ctx, &pc, code, w->off + bit / 8, len, field);
}

static void dec_fault(struct walk *w, enum ctf_dec_status s, uint64_t event_index, const char *scope)
{
	struct ctf_decoder *d = w->d;
	enum tfk_fault_code code = TFK_CTF_EVENT_OVERRUN;
	const char *expected = "the event to end inside the packet content";
	if (s == CTF_DEC_BAD_STRING) {
		code = TFK_CTF_EVENT_BAD_STRING;
		expected = "a NUL before the end of the packet content";
	} else if (s == CTF_DEC_VARIANT) {
		code = TFK_CTF_EVENT_VARIANT_TAG;
		expected = "a variant tag whose label names an option";
	} else if (s == CTF_DEC_SEQ) {
		expected = "a sequence of an unsigned length field, inside the packet content";
	} else if (s == CTF_DEC_DEPTH) {
		expected = "types nested at most 64 deep";
	}
	struct tfk_finding *f = tfk_emit(w->ctx, code, w->off + d->fail_at / 8, 1);
	if (event_index == UINT64_MAX)
		tfk_set_path(f, "packet %llu %s %s", (unsigned long long)w->index, scope, d->fail_what ? d->fail_what : "");
	else
		tfk_set_path(f, "packet %llu event %llu %s %s", (unsigned long long)w->index,
			     (unsigned long long)event_index, scope, d->fail_what ? d->fail_what : "");
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "bit %llu of the packet, content ends at bit %llu", (unsigned long long)d->fail_at,
		      (unsigned long long)d->bits.limit);
}

static void time_outside(struct walk *w, const struct ctf_packet_info *pi, uint64_t start, uint64_t n, uint64_t ts)
{
	bool before = pi->has_ts_begin && ts < pi->ts_begin && !w->quirk_before_begin;
	bool after = pi->has_ts_end && pi->ts_end != 0 && ts > pi->ts_end && !w->quirk_after_end;
	if (!before && !after)
		return;
	if (w->outside_reports++ >= MAX_ENUM_REPORTS) {
		tfk_count_only(w->ctx, TFK_CTF_EVENT_TIME_OUTSIDE_PACKET);
		return;
	}
	struct tfk_finding *f = tfk_emit(w->ctx, TFK_CTF_EVENT_TIME_OUTSIDE_PACKET, w->off + start / 8, 1);
	tfk_set_path(f, "packet %llu event %llu", (unsigned long long)w->index, (unsigned long long)n);
	tfk_set_expected(f, "a timestamp in [%llu, %llu]", (unsigned long long)pi->ts_begin,
			 (unsigned long long)pi->ts_end);
	tfk_set_found(f, "%llu", (unsigned long long)ts);
}

/*
 * One event scope: from its plan when it has one, else (or when the plan fails) the general
 * way from where it began, with what the plan moved put back, so that every finding is the
 * general decoder's.
 */
static enum ctf_dec_status decode_scope(struct walk *w, enum ctf_scope scope, const struct ctf_type *t,
					const struct ctf_plan *pl)
{
	struct ctf_decoder *d = w->d;
	if (!pl || d->send_text || TFK_HOOK(w->ctx->limits, record_by_record))
		return ctf_decode_scope(d, scope, t);
	const uint64_t at = d->bits.pos, unmapped = d->unmapped_enum_at, clock = d->clock, id = d->event_id;
	const bool clock_set = d->clock_set, has_id = d->has_event_id;
	if (ctf_decode_plan(d, pl))
		return CTF_DEC_OK;
	d->bits.pos = at;
	d->unmapped_enum_at = unmapped;
	d->clock = clock;
	d->clock_set = clock_set;
	d->event_id = id;
	d->has_event_id = has_id;
	return ctf_decode_scope(d, scope, t);
}

/*
 * Every event of the packet's content; the events decoded whole go to *count. False when one
 * failed. The stream's lane takes the events it can prove clean; each one it stops in front of
 * is decoded here, the careful way, which reports what is wrong with it.
 */
static bool walk_events(struct walk *w, const struct ctf_stream_class *sc, uint64_t stream_id,
			const struct ctf_packet_info *pi, uint64_t *count)
{
	struct ctf_decoder *d = w->d;
	/* the lane proves events clean without saying where their texts lie: not when they are wanted */
	const struct ctf_lane *lane = TFK_HOOK(w->ctx->limits, record_by_record) || d->send_text ? NULL : sc->lane;
	struct ctf_lane_walk ew = { 0 };
	ew.ts_lo = pi->has_ts_begin && !w->quirk_before_begin ? pi->ts_begin : 0;
	ew.ts_hi = pi->has_ts_end && pi->ts_end != 0 && !w->quirk_after_end ? pi->ts_end : UINT64_MAX;
	*count = 0;
	for (;;) {
		if (lane) {
			const uint64_t before = ew.n;
			ctf_lane_events(lane, d, &ew);
			*count = ew.n;
			uint64_t *counted = TFK_HOOK(w->ctx->limits, lane_events);
			if (counted && !w->share_mod) /* the check's own walk: walkers ahead share its hooks */
				*counted += ew.n - before;
		}
		if (d->bits.pos >= d->bits.limit)
			break;
		const uint64_t n = ew.n, start = d->bits.pos;
		d->unmapped_enum_at = UINT64_MAX;
		enum ctf_dec_status s = CTF_DEC_OK;
		ctf_values_drop(d, CTF_SC_EVENT_HEADER);
		d->has_event_id = false;
		if (sc->event_header &&
		    (s = decode_scope(w, CTF_SC_EVENT_HEADER, sc->event_header, sc->header_plan)) != CTF_DEC_OK) {
			dec_fault(w, s, n, "header");
			return false;
		}
		uint64_t id = d->has_event_id ? d->event_id : 0;
		const struct ctf_event *ev = ctf_find_event(w->meta, stream_id, id);
		if (!ev) {
			const bool quirk = dropped_class_quirk(w->meta, stream_id, id);
			struct tfk_finding *f = tfk_emit(
				w->ctx, quirk ? TFK_CTF_WRITER_LTTNG_DROPPED_EVENT_CLASS : TFK_CTF_EVENT_UNKNOWN_ID,
				w->off + start / 8, 1);
			tfk_set_path(f, "packet %llu event %llu header", (unsigned long long)w->index, (unsigned long long)n);
			tfk_set_expected(f, "an event id declared for stream %llu", (unsigned long long)stream_id);
			if (quirk)
				tfk_set_found(f, "id %llu, from lttng-ust %lld.%lld (its session daemon left the class out)",
					      (unsigned long long)id, (long long)w->meta->tracer_major,
					      (long long)w->meta->tracer_minor);
			else
				tfk_set_found(f, "id %llu", (unsigned long long)id);
			return false;
		}
		if (sc->event_context &&
		    (s = decode_scope(w, CTF_SC_STREAM_EVENT_CONTEXT, sc->event_context, sc->context_plan)) != CTF_DEC_OK) {
			dec_fault(w, s, n, "stream context");
			return false;
		}
		if (ev->context && (s = decode_scope(w, CTF_SC_EVENT_CONTEXT, ev->context, ev->context_plan)) != CTF_DEC_OK) {
			dec_fault(w, s, n, "context");
			return false;
		}
		if (ev->fields && (s = decode_scope(w, CTF_SC_EVENT_FIELDS, ev->fields, ev->fields_plan)) != CTF_DEC_OK) {
			dec_fault(w, s, n, "fields");
			return false;
		}
		if (d->bits.pos == start) {
			struct tfk_finding *f = tfk_emit(w->ctx, TFK_CTF_EVENT_ZERO_LENGTH, w->off + start / 8, 0);
			tfk_set_path(f, "packet %llu event %llu", (unsigned long long)w->index, (unsigned long long)n);
			tfk_set_expected(f, "an event of at least one bit");
			tfk_set_found(f, "event '%.60s' (id %llu) of no bits", ev->name ? ev->name : "", (unsigned long long)id);
			return false;
		}
		if (d->clock_set) {
			if (ew.have_prev_ts && d->clock < ew.prev_ts) {
				struct tfk_finding *f = tfk_emit(w->ctx, TFK_CTF_EVENT_TIME_BACK, w->off + start / 8, 1);
				tfk_set_path(f, "packet %llu event %llu", (unsigned long long)w->index, (unsigned long long)n);
				tfk_set_expected(f, "a timestamp of at least %llu", (unsigned long long)ew.prev_ts);
				tfk_set_found(f, "%llu", (unsigned long long)d->clock);
			}
			ew.prev_ts = d->clock;
			ew.have_prev_ts = true;
			time_outside(w, pi, start, n, d->clock);
		}
		if (d->unmapped_enum_at != UINT64_MAX) {
			if (w->enum_reports++ < MAX_ENUM_REPORTS) {
				struct tfk_finding *f = tfk_emit(w->ctx, TFK_CTF_EVENT_ENUM_UNMAPPED,
								 w->off + d->unmapped_enum_at / 8, 1);
				tfk_set_path(f, "packet %llu event %llu ('%.60s')", (unsigned long long)w->index,
					     (unsigned long long)n, ev->name ? ev->name : "");
				tfk_set_expected(f, "a value one of the enumeration's labels maps");
				tfk_set_found(f, "an unmapped value");
			} else {
				tfk_count_only(w->ctx, TFK_CTF_EVENT_ENUM_UNMAPPED);
			}
		}
		ew.n = n + 1;
		*count = ew.n;
	}
	return true;
}

static bool all_zero(const struct tfk_cursor *c, uint64_t from)
{
	const uint8_t *p;
	if (from >= c->len || !tfk_cur_bytes_at(c, from, c->len - from, &p))
		return false;
	for (uint64_t i = 0; i < c->len - from; i++)
		if (p[i])
			return false;
	return true;
}

/*
 * events_discarded left at 0 where the packet before counted some (ctf.packet.discarded-zero):
 * a counter lttng-ust did not set, not a regression. Once: a second 0 in a row is a count that
 * went down (or the one nonzero count before was the damaged one, which repair then drops).
 */
static bool ctf_discarded_unset(const struct walk *w, const struct ctf_packet_info *pi)
{
	const struct ctf_packet_info *pv = &w->prev;
	return w->have_prev && !w->prev_unset && pi->has_discarded && pv->has_discarded && pi->discarded == 0 &&
	       pv->discarded > 0;
}

/*
 * The packet's order against itself and against the packet before it. Returns the errors the
 * comparison with the packet before raised: they blame the pair, not this packet's own bytes
 * (repair keeps the longest ordered run of such packets, repair/ctf/ctf_order.c).
 */
static uint64_t order_checks(struct walk *w, const struct ctf_packet_info *pi)
{
	if (pi->has_ts_begin && pi->has_ts_end && pi->ts_end != 0 && pi->ts_begin > pi->ts_end) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_TIME_ORDER, 0, 1, "context");
		tfk_set_expected(f, "timestamp_begin <= timestamp_end");
		tfk_set_found(f, "begin %llu, end %llu", (unsigned long long)pi->ts_begin, (unsigned long long)pi->ts_end);
	}
	if (!w->have_prev)
		return 0;
	const uint64_t errors_before = w->ctx->report->by_severity[TFK_SEV_ERROR];
	const struct ctf_packet_info *pv = &w->prev;
	if (pi->has_ts_begin && pv->has_ts_begin && pi->ts_begin < pv->ts_begin) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_TIME_ORDER, 0, 1, "context");
		tfk_set_expected(f, "timestamp_begin of at least the previous packet's, %llu", (unsigned long long)pv->ts_begin);
		tfk_set_found(f, "%llu", (unsigned long long)pi->ts_begin);
	} else if (pi->has_ts_end && pv->has_ts_end && pi->ts_end != 0 && pv->ts_end != 0 && pi->ts_end < pv->ts_end) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_TIME_ORDER, 0, 1, "context");
		tfk_set_expected(f, "timestamp_end of at least the previous packet's, %llu", (unsigned long long)pv->ts_end);
		tfk_set_found(f, "%llu", (unsigned long long)pi->ts_end);
	}
	if (pi->has_seq && pv->has_seq) {
		/* An equal number is let through: babeltrace's own lttng-ust 2.10 test trace repeats 0. */
		if (pi->seq < pv->seq) {
			struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_SEQ_REGRESS, 0, 1, "packet_seq_num");
			tfk_set_expected(f, "more than the previous packet's, %llu", (unsigned long long)pv->seq);
			tfk_set_found(f, "%llu", (unsigned long long)pi->seq);
		} else if (pi->seq > pv->seq && pi->seq - pv->seq > 1) {
			struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_SEQ_GAP, 0, 1, "packet_seq_num");
			tfk_set_expected(f, "%llu", (unsigned long long)pv->seq + 1);
			tfk_set_found(f, "%llu: %llu packets discarded", (unsigned long long)pi->seq,
				      (unsigned long long)(pi->seq - pv->seq - 1));
		}
	}
	/* A counter narrower than 64 bits may wrap: a drop of more than half its range is a wrap. */
	bool wrapped = pi->discarded_bits > 0 && pi->discarded_bits < 64 &&
		       pv->discarded - pi->discarded > (1ull << (pi->discarded_bits - 1));
	if (ctf_discarded_unset(w, pi)) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_DISCARDED_ZERO, 0, 1, "events_discarded");
		tfk_set_expected(f, "at least the previous packet's, %llu", (unsigned long long)pv->discarded);
		tfk_set_found(f, "0, as lttng-ust leaves it in some packets of a discarding channel");
	} else if (pi->has_discarded && pv->has_discarded && pi->discarded < pv->discarded && !wrapped) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_DISCARDED_REGRESS, 0, 1, "events_discarded");
		tfk_set_expected(f, "at least the previous packet's, %llu", (unsigned long long)pv->discarded);
		tfk_set_found(f, "%llu", (unsigned long long)pi->discarded);
	}
	return w->ctx->report->by_severity[TFK_SEV_ERROR] - errors_before;
}

/* Does a packet with the right magic (or a header without one) start at off? */
static bool packet_starts(struct walk *w, const struct tfk_cursor *file, uint64_t off)
{
	struct ctf_decoder *d = w->d;
	struct tfk_cursor pc;
	if (off >= file->len || file->len - off > UINT64_MAX / 8 ||
	    tfk_cur_sub(file, off, file->len - off, &pc) != TFK_SUB_OK)
		return false;
	if (!w->meta->packet_header)
		return true;
	d->bits.c = &pc;
	d->bits.pos = 0;
	d->bits.limit = (file->len - off) * 8;
	d->nvalues = 0;
	d->uuid_at = UINT64_MAX;
	uint64_t v;
	if (ctf_decode_scope(d, CTF_SC_PACKET_HEADER, w->meta->packet_header) != CTF_DEC_OK)
		return false;
	return !ctf_value_get(d, CTF_SC_PACKET_HEADER, "magic", &v) || v == CTF_PKT_MAGIC;
}

/*
 * A packet in the middle of the file that cannot be decoded (a bad magic, an unknown stream
 * id) but whose extent is known: packets tile the file, so the walk goes on after it when
 * `size` bytes (its own packet_size), or else the previous packet's size, lead to the end of
 * the file or to a packet with the right magic. Each step moves forward by at least a byte.
 */
static bool step_over(struct walk *w, const struct tfk_cursor *file, struct ctf_stream_result *res, uint64_t size)
{
	uint64_t left = file->len - w->off;
	uint64_t tries[2] = { size, w->have_prev ? w->prev.packet_size / 8 : 0 };
	for (unsigned i = 0; i < 2; i++) {
		uint64_t n = tries[i];
		if (n == 0 || n > left)
			continue;
		if (n < left && !packet_starts(w, file, w->off + n))
			continue;
		w->off += n;
		w->skipped++;
		res->npackets++; /* a tile of the file, indexed like the others */
		return true;
	}
	return false;
}

static uint64_t declared_size(struct walk *w);

/*
 * A packet magic that one damaged byte or two turned into v, proven by what surrounds it: the
 * magic is the header's first 4 bytes, the header's uuid is the metadata's, and the size its
 * own context declares ends at the end of the file or where a packet with the right magic
 * starts. The packet is then read as it is, its magic restored. The decoder is left elsewhere.
 */
static bool magic_proven(struct walk *w, const struct tfk_cursor *file, const struct tfk_cursor *pc, uint64_t v)
{
	struct ctf_decoder *d = w->d;
	uint32_t first;
	if (!w->meta->have_uuid || d->uuid_at == UINT64_MAX || !tfk_cur_u32_at(pc, 0, &first) || first != v)
		return false;
	unsigned same = 0;
	for (unsigned k = 0; k < 4; k++)
		same += ((v >> (8 * k)) & 0xff) == ((CTF_PKT_MAGIC >> (8 * k)) & 0xff);
	const uint8_t *u;
	if (same < 2 || !tfk_cur_bytes_at(pc, d->uuid_at / 8, 16, &u) || memcmp(u, w->meta->uuid, 16) != 0)
		return false;
	const uint64_t n = declared_size(w), left = file->len - w->off;
	return n && n <= left && (n == left || packet_starts(w, file, w->off + n));
}

/* The packet_size (bytes) a packet with a bad magic declares through its stream's context, or 0. */
static uint64_t declared_size(struct walk *w)
{
	struct ctf_decoder *d = w->d;
	uint64_t sid = 0, bits = 0;
	if (!ctf_value_get(d, CTF_SC_PACKET_HEADER, "stream_id", &sid) && w->meta->nstreams == 1)
		sid = w->meta->streams[0].id;
	const struct ctf_stream_class *sc = ctf_find_stream(w->meta, sid);
	if (!sc || !sc->packet_context || ctf_decode_scope(d, CTF_SC_PACKET_CONTEXT, sc->packet_context) != CTF_DEC_OK ||
	    !ctf_value_get(d, CTF_SC_PACKET_CONTEXT, "packet_size", &bits) || bits % 8)
		return 0;
	return bits / 8;
}

/* Has a trace of the same UUID (or this trace) held this packet of the instance before? */
static bool seen_again(struct walk *w, const struct ctf_packet_info *pi)
{
	const struct ctf_seen_packet p = { pi->stream_id, pi->instance_id, pi->packet_size, pi->ts_begin, pi->ts_end,
					   pi->seq, pi->has_ts_begin, pi->has_ts_end, pi->has_seq };
	struct ctf_seen_key k;
	ctf_seen_key_of(&k, w->trace, &p);
	return ctf_seen_again(w->seen, &k);
}

bool ctf_walk_packet(struct walk *w, const struct tfk_cursor *file, struct ctf_stream_result *res)
{
	struct ctf_decoder *d = w->d;
	const struct ctf_meta *m = w->meta;
	uint64_t left = file->len - w->off;
	struct tfk_cursor pc;
	tfk_cur_sub(file, w->off, left, &pc);
	if (left > UINT64_MAX / 8)
		return false;
	d->bits.c = &pc;
	d->bits.pos = 0;
	d->bits.limit = left * 8;
	d->uuid_at = UINT64_MAX;
	d->nvalues = 0;
	const uint64_t errors_before = w->ctx->report->by_severity[TFK_SEV_ERROR];
	struct ctf_packet_info pi = { 0 };
	pi.offset = w->off;
	enum ctf_dec_status s = CTF_DEC_OK;
	if (m->packet_header && (s = ctf_decode_scope(d, CTF_SC_PACKET_HEADER, m->packet_header)) != CTF_DEC_OK &&
	    s != CTF_DEC_OVERRUN) {
		dec_fault(w, s, UINT64_MAX, "header");
		return false;
	}
	if (s == CTF_DEC_OVERRUN) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_TRUNCATED, 0, left, "header");
		tfk_set_expected(f, "a whole packet header");
		tfk_set_found(f, "%llu bytes before the end of the file", (unsigned long long)left);
		return false;
	}
	uint64_t v;
	bool magic_restored = false;
	if (ctf_value_get(d, CTF_SC_PACKET_HEADER, "magic", &v) && v != CTF_PKT_MAGIC) {
		magic_restored = magic_proven(w, file, &pc, v);
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_STREAM_BAD_MAGIC, 0, 4, "header magic");
		tfk_set_expected(f, "0xc1fc1fc1%s", magic_restored ? " (restored from the packets around it and the metadata: "
								     "its uuid is the trace's, its size leads to the next packet)"
								   : "");
		tfk_set_found(f, "0x%08llx", (unsigned long long)v);
		if (!magic_restored)
			return w->off > 0 && step_over(w, file, res, declared_size(w));
		/* decoded again from its start: the proof walked the decoder elsewhere */
		d->bits.c = &pc;
		d->bits.pos = 0;
		d->bits.limit = left * 8;
		d->uuid_at = UINT64_MAX;
		d->nvalues = 0;
		if (ctf_decode_scope(d, CTF_SC_PACKET_HEADER, m->packet_header) != CTF_DEC_OK)
			return false;
	}
	if (d->uuid_at != UINT64_MAX && m->have_uuid) {
		const uint8_t *u;
		if (tfk_cur_bytes_at(&pc, d->uuid_at / 8, 16, &u) && memcmp(u, m->uuid, 16) != 0) {
			/* CTF 1.8 readers decode the packet anyway: a warning, and the packet is kept */
			struct tfk_finding *f = pkt_fault(
				w, m->ctf2 ? TFK_CTF_STREAM_UUID_MISMATCH : TFK_CTF_STREAM_UUID_FOREIGN, d->uuid_at, 16,
				"header uuid");
			tfk_set_expected(f, "the trace's uuid");
			tfk_set_found_bytes(f, u, 16);
		}
	}
	uint64_t stream_id = 0;
	bool has_sid = ctf_value_get(d, CTF_SC_PACKET_HEADER, "stream_id", &stream_id);
	if (!has_sid && m->nstreams == 1)
		stream_id = m->streams[0].id;
	const struct ctf_stream_class *sc = ctf_find_stream(m, stream_id);
	if (!sc) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_STREAM_UNKNOWN_ID, 0, 1, "header stream_id");
		tfk_set_expected(f, "the id of a stream block of the metadata");
		tfk_set_found(f, "%llu", (unsigned long long)stream_id);
		return w->off > 0 && step_over(w, file, res, 0);
	}
	if (w->have_prev && w->prev.stream_id != stream_id) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_STREAM_CLASS_CHANGE, 0, 1, "header stream_id");
		tfk_set_expected(f, "stream %llu, the class of the file's first packet", (unsigned long long)w->prev.stream_id);
		tfk_set_found(f, "%llu", (unsigned long long)stream_id);
		return false;
	}
	pi.stream_id = stream_id;
	pi.has_instance = ctf_value_get(d, CTF_SC_PACKET_HEADER, "stream_instance_id", &pi.instance_id);
	if (w->have_prev && pi.has_instance && w->prev.has_instance && pi.instance_id != w->prev.instance_id &&
	    w->instance_reports++ < 8) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_STREAM_INSTANCE_CHANGE, 0, 1, "header stream_instance_id");
		tfk_set_expected(f, "%llu, the instance of the previous packet", (unsigned long long)w->prev.instance_id);
		tfk_set_found(f, "%llu", (unsigned long long)pi.instance_id);
	}
	uint64_t header_bits = d->bits.pos;
	if (sc->packet_context && (s = ctf_decode_scope(d, CTF_SC_PACKET_CONTEXT, sc->packet_context)) != CTF_DEC_OK &&
	    s != CTF_DEC_OVERRUN) {
		dec_fault(w, s, UINT64_MAX, "context");
		return false;
	}
	if (s == CTF_DEC_OVERRUN) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_TRUNCATED, header_bits, left - header_bits / 8, "context");
		tfk_set_expected(f, "a whole packet context");
		tfk_set_found(f, "%llu bytes before the end of the file", (unsigned long long)left);
		return false;
	}
	uint64_t ctx_end = d->bits.pos;
	bool has_psize = ctf_value_get(d, CTF_SC_PACKET_CONTEXT, "packet_size", &pi.packet_size);
	bool has_csize = ctf_value_get(d, CTF_SC_PACKET_CONTEXT, "content_size", &pi.content_size);
	if (!has_psize)
		pi.packet_size = left * 8; /* the whole file is one packet */
	if (!has_csize)
		pi.content_size = pi.packet_size;
	pi.has_ts_begin = ctf_value_get(d, CTF_SC_PACKET_CONTEXT, "timestamp_begin", &pi.ts_begin);
	pi.has_ts_end = ctf_value_get(d, CTF_SC_PACKET_CONTEXT, "timestamp_end", &pi.ts_end);
	pi.has_discarded = ctf_value_get(d, CTF_SC_PACKET_CONTEXT, "events_discarded", &pi.discarded);
	pi.discarded_bits = ctf_value_bits(d, CTF_SC_PACKET_CONTEXT, "events_discarded");
	pi.has_seq = ctf_value_get(d, CTF_SC_PACKET_CONTEXT, "packet_seq_num", &pi.seq);
	if (pi.packet_size == 0 || pi.packet_size % 8 || pi.content_size > pi.packet_size || pi.content_size < ctx_end) {
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_BAD_SIZE, header_bits, 1, "context");
		tfk_set_expected(f, "packet_size > 0, a multiple of 8; content_size <= packet_size and at least the "
				    "%llu bits of header and context", (unsigned long long)ctx_end);
		tfk_set_found(f, "packet_size %llu, content_size %llu", (unsigned long long)pi.packet_size,
			      (unsigned long long)pi.content_size);
		/* A damaged size in the middle: stepped over when the previous packet's size leads
		 * to a packet (the sizes of a stream's packets are its sub-buffer size, in LTTng). */
		return w->off > 0 && step_over(w, file, res, 0);
	}
	if (pi.packet_size / 8 > left) {
		/* a size damaged larger, or a packet the end of the file cut: only the first is
		 * followed by a packet where the previous packet's size says */
		if (w->off > 0 && w->have_prev && w->prev.packet_size / 8 < left &&
		    packet_starts(w, file, w->off + w->prev.packet_size / 8)) {
			struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_BAD_SIZE, header_bits, 1, "context");
			tfk_set_expected(f, "a packet_size within the %llu bytes left in the file", (unsigned long long)left);
			tfk_set_found(f, "packet_size %llu, content_size %llu", (unsigned long long)pi.packet_size,
				      (unsigned long long)pi.content_size);
			return step_over(w, file, res, 0);
		}
		struct tfk_finding *f = pkt_fault(w, TFK_CTF_PACKET_TRUNCATED, 0, left, NULL);
		tfk_set_expected(f, "a packet of %llu bytes", (unsigned long long)(pi.packet_size / 8));
		tfk_set_found(f, "%llu bytes before the end of the file", (unsigned long long)left);
		return false;
	}
	const uint64_t order_errors = order_checks(w, &pi);
	d->bits.limit = pi.content_size;
	uint64_t events = 0;
	bool events_ok = true;
	struct ctf_ahead_events taken;
	w->mine = !w->share_mod || w->index % w->share_mod == w->share_rem;
	if (!w->mine) {
		/* another walker's packet (ctf_ahead.c): its events are decoded there */
	} else if (w->ahead && ctf_ahead_take(w->ahead, w->index, w->off, d, &taken)) {
		/* decoded on a worker from the same bytes and the same clock, with nothing to report */
		events = taken.events;
		d->clock = taken.clock_end;
		d->clock_set = taken.clock_set_end;
		d->bits.pos = d->bits.limit;
	} else {
		w->clock_start = d->clock;
		w->clock_set_start = d->clock_set;
		events_ok = walk_events(w, sc, stream_id, &pi, &events);
	}
	w->last_events = events;
	w->last_events_ok = events_ok;
	w->events += events;
	/*
	 * The trace's event count is what a reader reaches: readers stop at a packet the walk had
	 * to step over, so the events after it are decoded (and modelled for repair) only; and a
	 * packet another trace of the same UUID (a snapshot) or file of the instance holds too is
	 * shown once (ctf_seen.h).
	 */
	if (!w->skipped && !(w->seen && pi.has_instance && seen_again(w, &pi)))
		w->ctx->report->stats.events += events;
	if (w->ctx->obs && w->ctx->obs->model) {
		struct tfk_ctf_packet mp = { 0 };
		snprintf(mp.member, sizeof(mp.member), "%s", w->ctx->member ? w->ctx->member : "");
		mp.index = w->index;
		mp.offset = pi.offset;
		mp.packet_size = pi.packet_size;
		mp.content_size = pi.content_size;
		mp.stream_id = pi.stream_id;
		mp.instance_id = pi.instance_id;
		mp.seq = pi.seq;
		mp.ts_begin = pi.ts_begin;
		mp.ts_end = pi.ts_end;
		mp.discarded = pi.discarded;
		mp.has_instance = pi.has_instance;
		mp.has_seq = pi.has_seq;
		mp.has_ts_begin = pi.has_ts_begin;
		mp.has_ts_end = pi.has_ts_end;
		/* a counter lttng-ust left at 0 orders nothing for repair either */
		mp.has_discarded = pi.has_discarded && !ctf_discarded_unset(w, &pi);
		mp.discarded_bits = pi.discarded_bits;
		mp.events = events;
		mp.events_ok = events_ok;
		mp.faulty = w->ctx->report->by_severity[TFK_SEV_ERROR] - errors_before > order_errors + magic_restored;
		mp.magic_restored = magic_restored;
		mp.magic_big_endian = pc.big_endian; /* the order the damaged magic was read in (magic_proven) */
		w->ctx->obs->model(w->ctx->obs->user, &tfk_format_ctf, TFK_CTF_MODEL_PACKET, &mp, sizeof mp);
	}
	ctf_index_packet(w->ctx, w->ix, w->index, &pi);
	res->npackets++;
	const bool unset = ctf_discarded_unset(w, &pi);
	if (unset)
		pi.discarded = w->prev.discarded; /* the next packet is compared with the last count */
	w->prev_unset = unset;
	w->prev = pi;
	w->have_prev = true;
	w->off += pi.packet_size / 8;
	return true;
}

void ctf_check_stream(struct tfk_ctx *ctx, const struct ctf_meta *meta, const struct tfk_cursor *file,
		      struct ctf_stream_result *res, struct ctf_index *ix, struct ctf_seen *seen, const uint8_t trace[16])
{
	struct ctf_decoder *d = tfk_calloc(ctx, 1, sizeof(*d));
	if (!d) {
		ctx->report->incomplete = true;
		return;
	}
	d->ctx = ctx;
	d->meta = meta;
	d->send_text = ctx->obs && ctx->obs->model && ctx->obs->payload_text;
	struct walk w = { 0 };
	uint64_t released = 0;
	w.ctx = ctx;
	w.meta = meta;
	w.d = d;
	w.ix = ix;
	w.seen = seen;
	w.trace = trace;
	ctf_tracer_quirks(&w);
	w.ahead = d->send_text ? NULL : ctf_ahead_start(ctx, meta, file); /* texts are sent in order, by this thread */
	while (w.off < file->len) {
		if (w.off > 0 && all_zero(file, w.off)) {
			struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_PACKET_TRAILING, w.off, file->len - w.off);
			tfk_set_path(f, "after packet %llu", (unsigned long long)(w.index - 1));
			tfk_set_expected(f, "the end of the file after the last packet");
			tfk_set_found(f, "%llu zero bytes", (unsigned long long)(file->len - w.off));
			break;
		}
		if (!ctf_walk_packet(&w, file, res))
			break;
		w.index++;
		if (w.off - released >= CTF_RELEASE_STEP && w.off <= file->len) {
			/* Walked packets leave the process: memory stays flat however large the stream. */
			tfk_release(ctx, file->base + released, w.off - released);
			released = w.off;
		}
	}
	ctf_ahead_finish(w.ahead);
	if (file->len > released)
		tfk_release(ctx, file->base + released, file->len - released);
	res->walked_whole = w.off >= file->len;
	free(d);
	if (ctx->obs && ctx->obs->model) {
		struct tfk_ctf_stream ms = { 0 };
		snprintf(ms.member, sizeof(ms.member), "%s", ctx->member ? ctx->member : "");
		ms.size = file->len;
		ms.good_end = w.off <= file->len ? w.off : file->len;
		ms.packets = res->npackets - w.skipped;
		ms.events = w.events;
		ms.walked_whole = res->walked_whole;
		ms.skipped = w.skipped;
		ctx->obs->model(ctx->obs->user, &tfk_format_ctf, TFK_CTF_MODEL_STREAM, &ms, sizeof ms);
	}
}
