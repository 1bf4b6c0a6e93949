/* SPDX-License-Identifier: MIT */
/*
 * CTF 2 metadata (CTF2-SPEC-2.0): JSON fragments into the same model the TSDL parser builds
 * (struct ctf_meta), so that the data streams, their packets, events and indexes are walked
 * by the same code (flat plans, lanes) whatever the metadata's version.
 *
 * Roles become the member names the walker looks for ("magic", "stream_id", "packet_size",
 * "timestamp_begin", "id", ...): a field's role is what CTF 1.8 said by its name. A member
 * without a role that bears one of those names in that scope is renamed (a '~' before it) so
 * that it means nothing to the walker, as its missing role says.
 */
#ifndef TFK_CTF2_H
#define TFK_CTF2_H

#include "ctf.h"
#include "ctf_json.h"

#define CTF2_MAX_TYPES (1u << 20) /* field classes built, aliases expanded (each use is a copy) */
#define CTF2_MAX_FRAME 64         /* structures being built inside each other */
#define CTF2_MAX_REPORTS 16       /* requirement faults listed per fragment */

/* A hash table of names (s) or ids (a, b) declared (ctf2_names.c). */
struct ctf2_entry {
	const char *s;
	uint64_t a, b;
	const void *val;
	bool used;
};
struct ctf2_names {
	struct ctf2_entry *e;
	size_t cap, n; /* cap a power of two, or 0 */
};
const void *ctf2_names_get(const struct ctf2_names *t, const char *s, uint64_t a, uint64_t b);
/* false: no memory (the arena's bound) */
bool ctf2_names_put(struct ctf2_names *t, struct ctf_arena *arena, const char *s, uint64_t a, uint64_t b,
		    const void *val);

/* A structure being built: its fields so far (the earlier ones a location may name). */
struct ctf2_frame {
	struct ctf_type *st;
	const char *model_name; /* the member holding it, as the walker names it; NULL: an option or element */
};

struct ctf2 {
	struct tfk_ctx *ctx;
	struct ctf_meta *m;
	const struct ctf_text *text;
	uint64_t frag;          /* index of the fragment being read */
	const char *frag_type;
	unsigned reports;       /* requirement faults of this fragment */
	bool bad;               /* this fragment broke a requirement: not used */
	bool draft, draft_said;
	bool unsupported;       /* something this build cannot decode: streams not walked */
	uint64_t types;
	struct ctf2_names aliases; /* name -> its field class (a cj_value) */
	struct ctf2_names clocks;  /* id -> itself */
	struct ctf2_names streams; /* data stream class id (a) */
	struct ctf2_names events;  /* (data stream class id a, event record class id b) */
	bool order_seen;        /* a fixed-length field set the trace's default byte order */
	/* the scope being built, and the roots of the scopes before it (for absolute locations) */
	enum ctf_scope scope;
	struct ctf_type *roots[CTF_SC_COUNT];
	struct ctf2_frame frames[CTF2_MAX_FRAME];
	unsigned nframes;
	unsigned in_array;      /* array elements being built */
	bool has_clock;         /* the data stream class being built has a default clock */
};

/* A requirement broken at v (a finding of code, at most CTF2_MAX_REPORTS a fragment); b->bad set. */
__attribute__((format(printf, 5, 6))) void ctf2_bad(struct ctf2 *b, enum tfk_fault_code code, const struct cj_value *v,
						    const char *expected, const char *found_fmt, ...);
/* A draft property or type at v: one warning for the whole metadata. */
void ctf2_draft(struct ctf2 *b, const struct cj_value *v, const char *what);
/* Something this build does not decode: one note, the check incomplete. */
void ctf2_unsupported(struct ctf2 *b, const struct cj_value *v, const char *what);

/*
 * Properties of an object: every key one of `allowed` (NULL-terminated; "*key" marks a
 * required one) or of `draft` (accepted, said once); false when one broke that.
 */
bool ctf2_props(struct ctf2 *b, const struct cj_value *obj, const char *const *allowed, const char *const *draft);
/* An unsigned integer property (absent: *out = dflt, true). */
bool ctf2_uint(struct ctf2 *b, const struct cj_value *obj, const char *key, uint64_t dflt, uint64_t *out);
/* A string property, or NULL (absent; wrong type reported). */
const char *ctf2_str(struct ctf2 *b, const struct cj_value *obj, const char *key);

/* A field class (object or alias name) of the scope being built; NULL when it broke a requirement. */
struct ctf_type *ctf2_field_class(struct ctf2 *b, const struct cj_value *fc, unsigned depth);
/* A scope's root field class (a structure): roles and locations resolved against it. */
struct ctf_type *ctf2_scope(struct ctf2 *b, enum ctf_scope scope, const struct cj_value *fc);

/* The metadata member's text (RS first) into the model. */
void ctf2_check_metadata(struct tfk_ctx *ctx, const struct ctf_text *text, struct ctf_meta *meta);

/* Packetized CTF 2 metadata: its packets' version (2.0; 1.8 is lttng-modules 2.14.0 to 2.14.2's quirk). */
void ctf2_packet_version(struct tfk_ctx *ctx, const struct ctf_meta *meta);

#endif
