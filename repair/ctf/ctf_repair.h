/* SPDX-License-Identifier: MIT */
/* CTF 1.8 trace directories' repair: the model the check's messages build, and its writers. */
#ifndef TFK_REPAIR_CTF_H
#define TFK_REPAIR_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "formats/ctf/ctf_model.h"
#include "tracefsck/repair.h"

struct tfk_input;
struct rp_dir;
struct rp_out;

/* Bounds on what the model keeps (the input's size does not size it): past them repair refuses. */
#define CR_MAX_PACKETS (1u << 22)
#define CR_MAX_STREAMS (1u << 16)

/* What the output needs of one packet (its member is the stream it is listed under). */
struct cr_packet {
	uint64_t offset, packet_size, content_size; /* bytes; bits; bits */
	uint64_t ts_begin, ts_end, discarded, stream_id, instance_id, seq, events;
	uint64_t discarded_unwrapped; /* events_discarded with the wraps of a narrow counter added */
	uint32_t discarded_bits;
	bool has_ts_begin, has_ts_end, has_discarded, has_seq, has_instance;
	bool has_ts_end_raw; /* a timestamp_end field, 0 or not (has_ts_end: one that is not 0) */
	bool keep; /* every event decoded and no error inside it (and in order: ctf_order.c) */
	bool magic_restored, magic_big_endian; /* its magic written back when kept (tfk_ctf_packet) */
};

/* A data stream: its summary and its packets (packets[first .. first + count)). */
struct cr_stream {
	struct tfk_ctf_stream s;
	bool have_summary;
	size_t first, count;
};

struct cr_model {
	struct tfk_ctf_metadata *metas;
	size_t nmetas, cap_metas;
	struct cr_stream *streams;
	size_t nstreams, cap_streams;
	struct cr_packet *packets;
	size_t npackets, cap_packets;
	bool oom, too_many;
};

struct tfk_observer cr_observer(void *model, const uint8_t *in, size_t size, unsigned pass);
/* Of the packets s keeps, drop those that break the order the check wants between packets. */
void cr_order_stream(struct cr_model *m, const struct cr_stream *s);
void cr_model_free(void *model);

const struct cr_stream *cr_stream(const struct cr_model *m, const char *member);
const struct tfk_ctf_metadata *cr_metadata(const struct cr_model *m, const char *member);

/*
 * An LTTng index (big-endian, spec 4.5) of the kept packets of s, at their offsets in the
 * output: version 1.minor (0: 56-byte entries, 1: 72-byte entries), into out.
 */
void cr_index_build(const struct cr_model *m, const struct cr_stream *s, unsigned minor, struct rp_out *out);
/* The minor version of an index file's header when it is a valid 1.0 or 1.1 header, else 1. */
unsigned cr_index_minor(const uint8_t *p, size_t n);

int cr_write_dir(const void *model, const struct tfk_input *in, struct rp_dir *dir, struct tfk_repair_report *rep);

/*
 * Does the TSDL text of the metadata packets in data's first end bytes end where a declaration
 * ends (ctf_meta_text.c)? False too when a packet header there cannot be read.
 */
bool cr_metadata_text_whole(const uint8_t *data, size_t size, uint64_t end, bool big_endian);
/*
 * A packetized metadata cut inside a packet, as plain text: every packet's text (the cut one's
 * up to the end of the file) to the end of its last whole declaration, after the CTF 1.8
 * signature comment, into o. Returns the bytes of text kept, 0 when no declaration is whole.
 */
/* Does the packet cut at whole_end hold whole declarations beyond the whole packets' text? */
bool cr_metadata_cut_holds_more(const uint8_t *data, size_t size, uint64_t whole_end, bool big_endian);
struct rp_out;
size_t cr_metadata_plain(const uint8_t *data, size_t size, bool big_endian, struct rp_out *o);

#endif
