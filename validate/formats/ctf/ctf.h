/* SPDX-License-Identifier: MIT */
/* CTF 1.8 trace directories (LTTng 2.x): the type model and what the passes share. */
#ifndef TFK_CTF_H
#define TFK_CTF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../formats.h"
#include "ctf_model.h"

#define CTF_PKT_MAGIC 0xC1FC1FC1u
#define CTF_META_MAGIC 0x75D11D57u
#define CTF_IDX_MAGIC 0xC1F1DCC1u

/* Bounds on what the metadata may declare. */
#define CTF_MAX_DEPTH 32           /* nesting of types and blocks */
#define CTF_MAX_TOKEN 4096         /* bytes of one identifier or literal */
#define CTF_MAX_TEXT (16u << 20)   /* bytes of TSDL text */
#define CTF_MAX_ARENA (64u << 20)  /* bytes of the type model */
#define CTF_MAX_DECODE_DEPTH 64    /* nested types while decoding */
#define CTF_MAX_VALUES 512         /* integer fields remembered per event (for lengths and tags) */

/* ---- a bump allocator over the context's allocator; freed as a whole ---- */
struct ctf_arena {
	struct tfk_ctx *ctx;
	struct ctf_chunk *chunks;
	size_t used_total;
	bool failed;
};
void *ctf_alloc(struct ctf_arena *a, size_t n);
char *ctf_strndup(struct ctf_arena *a, const char *s, size_t n);
void ctf_arena_free(struct ctf_arena *a);
/* Everything from holds now belongs to into (freed with it); from is left empty. */
void ctf_arena_adopt(struct ctf_arena *into, struct ctf_arena *from);

/* ---- the type model ---- */
/* CTF_VARINT: CTF 2's variable-length integer (LEB128), 1 to 10 bytes, up to 64 bits of value. */
enum ctf_kind { CTF_INT, CTF_FLOAT, CTF_ENUM, CTF_STRING, CTF_STRUCT, CTF_VARIANT, CTF_ARRAY, CTF_SEQ, CTF_VARINT };
enum ctf_order { CTF_BO_DEFAULT = 0, CTF_BO_LE, CTF_BO_BE };

struct ctf_type;
struct ctf_field {
	const char *name;
	size_t name_len;
	struct ctf_type *type;
	const char *json_name; /* CTF 2: the member's name in the metadata (name is the walker's) */
};
struct ctf_range {
	const char *label;
	int64_t lo, hi; /* signed or unsigned by the container */
};
struct ctf_type {
	enum ctf_kind kind;
	unsigned size;   /* bits (integers, floats) */
	unsigned align;  /* bits */
	bool is_signed;
	enum ctf_order order;
	bool clock;      /* integer mapped to a clock */
	struct ctf_type *container; /* enum */
	struct ctf_range *ranges;
	size_t nranges;
	struct ctf_field *fields;   /* struct and variant */
	size_t nfields;
	const char *tag;            /* variant */
	struct ctf_type *elem;      /* array, sequence */
	uint64_t length;            /* array */
	const char *length_name;    /* sequence */
	bool text;                  /* an integer encoded as UTF-8 or ASCII (TSDL), or a CTF 2 string of a length:
	                               arrays and sequences of it are text (scrub replaces what they say) */
};

struct ctf_lane;
struct ctf_plan; /* a scope's type as a flat plan (ctf_flat.c); NULL: the general decoder's */
struct ctf_event {
	uint64_t id, stream_id;
	const char *name;
	struct ctf_type *context, *fields;
	unsigned line;
	const struct ctf_plan *context_plan, *fields_plan;
};
struct ctf_stream_class {
	uint64_t id;
	struct ctf_type *packet_context, *event_header, *event_context;
	unsigned line;
	const struct ctf_plan *header_plan, *context_plan;
	const struct ctf_lane *lane; /* its events' byte layouts (ctf_lane.h), or NULL */
};

struct ctf_meta {
	struct ctf_arena arena;
	bool big_endian, have_byte_order, have_uuid;
	uint8_t uuid[16];
	uint64_t major, minor;
	struct ctf_type *packet_header;
	struct ctf_stream_class *streams;
	size_t nstreams, cap_streams;
	struct ctf_event *events;
	size_t nevents, cap_events;
	/* env, for the tracer quirks */
	char tracer_name[32];
	int64_t tracer_major, tracer_minor, tracer_patch;
	bool usable;   /* parsed well enough to decode streams */
	/* packetized metadata: how much of it is whole packets */
	bool packetized, packets_big_endian;
	uint64_t whole_end, whole_packets;
	bool cut; /* packetized, cut inside a packet's text: the text parsed ends at the last whole declaration */
	uint64_t text_whole_end; /* plain text cut inside a declaration: the text parsed ends here */
	/* CTF 2 (ctf2_meta.c) */
	bool ctf2, ctf2_draft;
	bool ctf2_cut;            /* the last fragment is cut by the end of the file, at ctf2_cut_at (its RS) */
	uint64_t ctf2_cut_at;
	uint64_t ctf2_whole_end;  /* the end of the last fragment read whole and used */
	uint64_t ctf2_bad_fragments; /* fragments not JSON objects */
	uint32_t ctf2_ndrops;     /* what repair leaves out (tfk_ctf_metadata.drop_from) */
	bool ctf2_drops_overflow, no_signature_quirk;
	uint64_t ctf2_drop_from[TFK_CTF_MAX_DROPS], ctf2_drop_to[TFK_CTF_MAX_DROPS];
	uint8_t packet_major, packet_minor; /* packetized: the first packet's version */
};

/* TSDL text -> model; reports syntax and semantic faults (line numbers, offsets in the file). */
struct ctf_text {
	const char *s;
	size_t len;
	/* Where text byte i lies in the member: piece boundaries of packetized metadata. */
	const uint64_t *piece_text, *piece_file;
	size_t npieces;
};
uint64_t ctf_text_file_offset(const struct ctf_text *t, size_t at);
void ctf_parse_tsdl(struct tfk_ctx *ctx, const struct ctf_text *text, struct ctf_meta *meta);

/* Metadata member (cursor over the whole file) -> text, then the model. */
void ctf_check_metadata(struct tfk_ctx *ctx, const struct tfk_cursor *file, struct ctf_meta *meta);
void ctf_meta_free(struct ctf_meta *meta);

const struct ctf_stream_class *ctf_find_stream(const struct ctf_meta *m, uint64_t id);
const struct ctf_event *ctf_find_event(const struct ctf_meta *m, uint64_t stream_id, uint64_t id);

/* ---- bit reading (through the cursor) ---- */
#include "ctf_bits.h"

/* ---- decoding ---- */
enum ctf_scope {
	CTF_SC_PACKET_HEADER, CTF_SC_PACKET_CONTEXT, CTF_SC_EVENT_HEADER, CTF_SC_STREAM_EVENT_CONTEXT,
	CTF_SC_EVENT_CONTEXT, CTF_SC_EVENT_FIELDS, CTF_SC_COUNT
};
struct ctf_value {
	enum ctf_scope scope;
	const char *path;   /* dotted, inside the scope; in the decoder's path buffer pool */
	uint64_t v;
	const struct ctf_type *type;
};
enum ctf_dec_status { CTF_DEC_OK = 0, CTF_DEC_OVERRUN, CTF_DEC_BAD_STRING, CTF_DEC_VARIANT, CTF_DEC_SEQ, CTF_DEC_DEPTH };
struct ctf_decoder {
	struct tfk_ctx *ctx;
	const struct ctf_meta *meta;
	struct ctf_bits bits;
	struct ctf_value values[CTF_MAX_VALUES];
	char paths[CTF_MAX_VALUES][128];
	size_t nvalues;
	/* What the walk watches while decoding. */
	uint64_t clock;        /* the stream's clock, rebuilt from every clock-mapped field */
	bool clock_set;
	uint64_t uuid_at;      /* bit position of the packet header's uuid, or UINT64_MAX */
	uint64_t event_id;     /* the last event header field named id (LTTng: v.extended.id after id) */
	bool has_event_id;
	uint64_t unmapped_enum_at; /* bit position of the first unmapped enum value of this event, or UINT64_MAX */
	uint64_t fail_at;      /* bit position of the failure */
	const char *fail_what; /* fail_path, or NULL */
	char fail_path[160];   /* a copy: the path buffer is reused by the fields decoded after */
	char path[160];        /* the dotted path of the field being decoded (ctf_decode.c child) */
	bool send_text;        /* every text field of an event goes to the observer (TFK_CTF_MODEL_TEXT) */
};
/* Flat plans of the event scopes' types, made once the metadata parsed (ctf_flat.c). */
void ctf_flat_plan(struct ctf_meta *m);
/* A scope from its plan: true when decoded whole as the general decoder would; else nothing is
 * reported and the decoder must be put back and the scope decoded the general way. */
bool ctf_decode_plan(struct ctf_decoder *d, const struct ctf_plan *pl);
/* The first range of an enum holding v (sign-extended when signed), or -1. */
long ctf_enum_range(const struct ctf_type *t, uint64_t v);
/*
 * The stream's clock after a clock-mapped field of size bits (value v): a field narrower than
 * 64 bits replaces the clock's low bits, and carries into the bits above when its value is
 * below theirs (it wrapped round since the last one).
 */
static inline uint64_t ctf_clock_next(uint64_t clock, bool clock_set, uint64_t v, unsigned size)
{
	if (size >= 64 || !clock_set)
		return v;
	const uint64_t mask = (1ull << size) - 1;
	if (v < (clock & mask))
		clock += 1ull << size;
	return (clock & ~mask) | v;
}
/* Move the decoder's clock with such a field (ctf_clock_next). */
void ctf_update_clock(struct ctf_decoder *d, uint64_t v, unsigned size);
/* Decode one scope's type at the decoder's position; values are remembered for later lookups. */
enum ctf_dec_status ctf_decode_scope(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t);
/* The last remembered value of a field of that scope (dotted path), or false. */
bool ctf_value_get(const struct ctf_decoder *d, enum ctf_scope scope, const char *path, uint64_t *v);
/* Its declared width in bits, or 0. */
unsigned ctf_value_bits(const struct ctf_decoder *d, enum ctf_scope scope, const char *path);
/* Forget the values of scopes from `from` on. */
void ctf_values_drop(struct ctf_decoder *d, enum ctf_scope from);

/* ---- the data streams and their indexes ---- */
struct ctf_packet_info {
	uint64_t offset, packet_size, content_size, ts_begin, ts_end, discarded, stream_id, instance_id, seq;
	bool has_ts_begin, has_ts_end, has_discarded, has_instance, has_seq;
	unsigned discarded_bits; /* width of events_discarded: it may wrap there */
};
struct ctf_stream_result {
	uint64_t npackets;
	bool walked_whole;   /* every packet decoded up to the end of the file */
};
/* An LTTng index beside the stream (member name and mapping given), checked as it is walked. */
struct ctf_index {
	const char *member;
	const struct tfk_member_map *map;
	struct tfk_cursor c;
	uint64_t n, sum;
	uint32_t elen;
	bool v11, usable;
	unsigned reports;
};
bool ctf_index_open(struct tfk_ctx *ctx, struct ctf_index *ix);
void ctf_index_packet(struct tfk_ctx *ctx, struct ctf_index *ix, uint64_t i, const struct ctf_packet_info *p);
void ctf_index_finish(struct tfk_ctx *ctx, struct ctf_index *ix, const struct ctf_stream_result *res,
		      uint64_t stream_size);
struct ctf_seen;
/* seen: packets counted before (ctf_seen.h), trace the 16-byte trace part of their keys. */
void ctf_check_stream(struct tfk_ctx *ctx, const struct ctf_meta *meta, const struct tfk_cursor *file,
		      struct ctf_stream_result *res, struct ctf_index *ix, struct ctf_seen *seen, const uint8_t trace[16]);

/* Notes on valid metadata shapes that readers differ on (ctf_shapes.c). */
void ctf_note_shapes(struct tfk_ctx *ctx, const struct ctf_meta *m);
/* The format's model messages drawn on a picture (ctf_picture.c). */
void ctf_picture(struct tfk_picture *picture, uint32_t kind, const void *data, size_t size);

#endif
