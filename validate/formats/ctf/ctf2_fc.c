/* SPDX-License-Identifier: MIT */
/*
 * CTF 2 field classes (CTF2-SPEC-2.0 section 5) into the type model: fixed- and variable-length
 * integers, booleans and bit maps as integers, floats, strings and blobs as strings or byte
 * arrays, structures, arrays, and optionals and variants as variants whose selector is made an
 * enumeration of the options' ranges (the model's variants select by a tag's label). Each use
 * of an alias is built anew (a role or selector changes its copy only), under a budget.
 * Field locations are resolved here, once, to the names the decoder looks up.
 */
#include <stdio.h>
#include <string.h>

#include "ctf2.h"

/* The member names roles stand for, by scope (ctf2.h). */
static const struct {
	enum ctf_scope scope;
	const char *role, *name;
	bool clock, top; /* clock: the field moves the clock; top: the walker finds it at the scope's top only */
} roles[] = {
	{ CTF_SC_PACKET_HEADER, "packet-magic-number", "magic", false, true },
	{ CTF_SC_PACKET_HEADER, "metadata-stream-uuid", "uuid", false, true },
	{ CTF_SC_PACKET_HEADER, "data-stream-class-id", "stream_id", false, true },
	{ CTF_SC_PACKET_HEADER, "data-stream-id", "stream_instance_id", false, true },
	{ CTF_SC_PACKET_CONTEXT, "packet-total-length", "packet_size", false, true },
	{ CTF_SC_PACKET_CONTEXT, "packet-content-length", "content_size", false, true },
	{ CTF_SC_PACKET_CONTEXT, "default-clock-timestamp", "timestamp_begin", true, true },
	{ CTF_SC_PACKET_CONTEXT, "packet-end-default-clock-timestamp", "timestamp_end", true, true },
	{ CTF_SC_PACKET_CONTEXT, "discarded-event-record-counter-snapshot", "events_discarded", false, true },
	{ CTF_SC_PACKET_CONTEXT, "packet-sequence-number", "packet_seq_num", false, true },
	{ CTF_SC_EVENT_HEADER, "event-record-class-id", "id", false, false },
	{ CTF_SC_EVENT_HEADER, "default-clock-timestamp", "timestamp", true, false },
};
#define NROLES (sizeof(roles) / sizeof(roles[0]))

static const char *const origins[] = {
	[CTF_SC_PACKET_HEADER] = "packet-header",
	[CTF_SC_PACKET_CONTEXT] = "packet-context",
	[CTF_SC_EVENT_HEADER] = "event-record-header",
	[CTF_SC_STREAM_EVENT_CONTEXT] = "event-record-common-context",
	[CTF_SC_EVENT_CONTEXT] = "event-record-specific-context",
	[CTF_SC_EVENT_FIELDS] = "event-record-payload",
};
/* The decoder's absolute prefixes (ctf_decode.c), by scope. */
static const char *const prefixes[] = {
	[CTF_SC_PACKET_HEADER] = "trace.packet.header.",
	[CTF_SC_PACKET_CONTEXT] = "stream.packet.context.",
	[CTF_SC_EVENT_HEADER] = "stream.event.header.",
	[CTF_SC_STREAM_EVENT_CONTEXT] = "stream.event.context.",
	[CTF_SC_EVENT_CONTEXT] = "event.context.",
	[CTF_SC_EVENT_FIELDS] = "event.fields.",
};

static struct ctf_type *new_type(struct ctf2 *b, enum ctf_kind k, const struct cj_value *at)
{
	if (b->types >= CTF2_MAX_TYPES) {
		if (!b->bad)
			tfk_limit_hit(b->ctx, ctf_text_file_offset(b->text, at->at), "CTF 2 field classes built",
				      b->types + 1, CTF2_MAX_TYPES);
		b->bad = true;
		return NULL;
	}
	struct ctf_type *t = ctf_alloc(&b->m->arena, sizeof(*t));
	if (!t) {
		if (!b->bad)
			tfk_limit_hit(b->ctx, ctf_text_file_offset(b->text, at->at), "CTF metadata model bytes",
				      b->m->arena.used_total, CTF_MAX_ARENA);
		b->bad = true;
		return NULL;
	}
	memset(t, 0, sizeof(*t));
	b->types++;
	t->kind = k;
	t->align = 8;
	return t;
}

static bool pow2(uint64_t v)
{
	return v && !(v & (v - 1));
}

static const char *const common[] = { "*type", "attributes", "extensions", NULL };
static const char *const draft_common[] = { "user-attributes", NULL };

/* The properties of a field class: the common ones and those of its type. */
static bool fc_props(struct ctf2 *b, const struct cj_value *fc, const char *const *own)
{
	const char *all[24];
	size_t n = 0;
	for (size_t i = 0; common[i]; i++)
		all[n++] = common[i];
	for (size_t i = 0; own[i] && n < 23; i++)
		all[n++] = own[i];
	all[n] = NULL;
	const struct cj_value *ext = cj_get(fc, "extensions");
	if (ext && ext->kind == CJ_OBJECT && ext->n)
		ctf2_unsupported(b, ext, "extensions");
	return ctf2_props(b, fc, all, draft_common);
}

static bool byte_order(struct ctf2 *b, const struct cj_value *fc, struct ctf_type *t)
{
	const char *bo = ctf2_str(b, fc, "byte-order");
	if (!bo)
		return false;
	if (!strcmp(bo, "little-endian"))
		t->order = CTF_BO_LE;
	else if (!strcmp(bo, "big-endian"))
		t->order = CTF_BO_BE;
	else {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "byte-order"), "\"little-endian\" or \"big-endian\"",
			 "\"%.40s\"", bo);
		return false;
	}
	if (!b->order_seen) {
		b->order_seen = true;
		b->m->big_endian = t->order == CTF_BO_BE;
		b->m->have_byte_order = true;
	}
	const char *bit = ctf2_str(b, fc, "bit-order");
	if (bit) {
		const char *natural = t->order == CTF_BO_LE ? "first-to-last" : "last-to-first";
		if (strcmp(bit, "first-to-last") && strcmp(bit, "last-to-first"))
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "bit-order"),
				 "\"first-to-last\" or \"last-to-first\"", "\"%.40s\"", bit);
		else if (strcmp(bit, natural))
			ctf2_unsupported(b, cj_get(fc, "bit-order"), "a bit order against the byte order");
	}
	return true;
}

/* alignment (fixed-length) or minimum-alignment: a power of two, default 1. */
static bool alignment(struct ctf2 *b, const struct cj_value *fc, const char *key, uint64_t *out)
{
	if (!ctf2_uint(b, fc, key, 1, out))
		return false;
	if (!pow2(*out) || *out > (1u << 20)) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, key), "a power of two", "%llu",
			 (unsigned long long)*out);
		return false;
	}
	return true;
}

/* A range set: an array of [lower, upper] pairs, lower <= upper, signed or not. */
static bool range_set(struct ctf2 *b, const struct cj_value *rs, bool is_signed, struct ctf_range **out, size_t *nout,
		      const char *label)
{
	if (!rs || rs->kind != CJ_ARRAY || rs->n == 0) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, rs, "a non-empty array of integer ranges", "%s",
			 rs ? "another value" : "none");
		return false;
	}
	struct ctf_range *r = ctf_alloc(&b->m->arena, rs->n * sizeof(*r));
	if (!r) {
		b->bad = true;
		return false;
	}
	size_t n = 0;
	for (const struct cj_value *p = rs->first; p; p = p->next) {
		const struct cj_value *lo = p->kind == CJ_ARRAY && p->n == 2 ? p->first : NULL, *hi = lo ? lo->next : NULL;
		bool ok = lo && hi && (lo->kind == CJ_UINT || lo->kind == CJ_INT) && (hi->kind == CJ_UINT || hi->kind == CJ_INT);
		int64_t l = 0, h = 0;
		if (ok && is_signed) {
			ok = (lo->kind == CJ_INT || lo->u <= INT64_MAX) && (hi->kind == CJ_INT || hi->u <= INT64_MAX);
			l = lo->kind == CJ_INT ? lo->i : (int64_t)lo->u;
			h = hi->kind == CJ_INT ? hi->i : (int64_t)hi->u;
			ok = ok && l <= h;
		} else if (ok) {
			ok = lo->kind == CJ_UINT && hi->kind == CJ_UINT && lo->u <= hi->u;
			l = (int64_t)lo->u;
			h = (int64_t)hi->u;
		}
		if (!ok) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, p,
				 is_signed ? "a range [lower, upper] of signed integers, lower <= upper"
					   : "a range [lower, upper] of unsigned integers, lower <= upper",
				 "another value");
			return false;
		}
		r[n].label = label;
		r[n].lo = l;
		r[n].hi = h;
		n++;
	}
	*out = r;
	*nout = n;
	return true;
}

/* mappings: an object of range sets (integers keep them only to be checked: nothing decodes by them). */
static bool mappings(struct ctf2 *b, const struct cj_value *fc, bool is_signed, bool required)
{
	const struct cj_value *mp = cj_get(fc, "mappings");
	if (!mp) {
		if (required)
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, fc, "a mappings property", "none");
		return !required;
	}
	if (mp->kind != CJ_OBJECT) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, mp, "an object of range sets", "another value");
		return false;
	}
	for (const struct cj_value *e = mp->first; e; e = e->next) {
		struct ctf_range *r;
		size_t n;
		if (!range_set(b, e, is_signed, &r, &n, NULL))
			return false;
	}
	return true;
}

static const struct cj_value *alias_fc(struct ctf2 *b, const struct cj_value *name)
{
	const struct cj_value *fc = ctf2_names_get(&b->aliases, name->s, 0, 0);
	if (fc)
		return fc;
	ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DANGLING, name, "the name of an earlier field-class-alias fragment",
		 "\"%.60s\"", name->s);
	return NULL;
}

/* The field class object fc stands for (itself, or the alias it names). */
static const struct cj_value *resolve_fc(struct ctf2 *b, const struct cj_value *fc)
{
	if (!fc) {
		return NULL;
	}
	if (fc->kind == CJ_STRING)
		return alias_fc(b, fc);
	if (fc->kind != CJ_OBJECT) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, fc, "a field class object or an alias name", "another value");
		return NULL;
	}
	return fc;
}

/* ---- field locations ---- */

/* A member of st named (JSON) name among its first n fields. */
static struct ctf_field *member(struct ctf_type *st, size_t n, const char *name)
{
	for (size_t i = n; i-- > 0;)
		if (st->fields[i].json_name && !strcmp(st->fields[i].json_name, name))
			return &st->fields[i];
	return NULL;
}

struct located {
	struct ctf_type *type;
	char path[160];  /* the decoder's name for it */
};

/*
 * A field location (an object {origin?, path}, or the draft's array) to the field it names:
 * an earlier field of a structure being built or of an earlier scope, reached through
 * structures only. The decoder's name: a bare name for a sibling of the structure being built
 * (the flat plans take those), else the absolute dotted path.
 */
static bool locate(struct ctf2 *b, const struct cj_value *loc, struct located *out)
{
	const struct cj_value *path = NULL, *first;
	int origin = -1;
	if (loc && loc->kind == CJ_ARRAY) {
		/* the draft's form: [origin?, member...] */
		ctf2_draft(b, loc, "a field location as an array");
		path = loc;
		first = path->first;
		for (int s = 0; first && first->kind == CJ_STRING && s < CTF_SC_COUNT; s++)
			if (!strcmp(first->s, origins[s]))
				origin = s;
	} else if (loc && loc->kind == CJ_OBJECT) {
		static const char *const allowed[] = { "origin", "*path", NULL };
		if (!ctf2_props(b, loc, allowed, NULL))
			return false;
		const char *o = ctf2_str(b, loc, "origin");
		if (o) {
			for (int s = 0; s < CTF_SC_COUNT; s++)
				if (!strcmp(o, origins[s]))
					origin = s;
			if (origin < 0) {
				ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(loc, "origin"), "a scope name", "\"%.40s\"", o);
				return false;
			}
		}
		path = cj_get(loc, "path");
	}
	if (!path || path->kind != CJ_ARRAY || path->n == 0) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, path ? path : loc, "a field location with a non-empty path",
			 "another value");
		return false;
	}
	const struct cj_value *e = path->first;
	if (loc->kind == CJ_ARRAY && origin >= 0)
		e = e->next; /* past the origin */
	/* Where the walk starts: a frame of the scope being built, or an earlier scope's root. */
	struct ctf_type *st;
	size_t avail;
	int frame;
	char model[160] = "";
	if (origin >= 0) {
		if (origin > (int)b->scope) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, loc, "a location in this scope or an earlier one", "a later scope");
			return false;
		}
		if (origin == (int)b->scope) {
			frame = 0;
			st = b->nframes ? b->frames[0].st : NULL;
			avail = st ? st->nfields : 0;
		} else {
			frame = -1;
			st = b->roots[origin];
			avail = st ? st->nfields : 0;
		}
		if (!st) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, loc, "a location in a scope the class has", "an empty scope");
			return false;
		}
	} else {
		if (!b->nframes) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, loc, "a relative location inside a structure", "none");
			return false;
		}
		frame = (int)b->nframes - 1;
		st = b->frames[frame].st;
		avail = st->nfields;
		for (; e && e->kind == CJ_NULL; e = e->next) {
			if (frame == 0) {
				ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, e, "a parent to go up to", "the scope's top");
				return false;
			}
			frame--;
			st = b->frames[frame].st;
			avail = st->nfields;
		}
		origin = (int)b->scope;
	}
	/* the model path of st: the names of the members holding frames 1..frame */
	const bool sibling_start = frame == (int)b->nframes - 1;
	bool named = true;
	for (int k = 1; k <= frame; k++) {
		size_t l = strlen(model);
		if (!b->frames[k].model_name)
			named = false;
		else
			snprintf(model + l, sizeof(model) - l, "%s%s", l ? "." : "", b->frames[k].model_name);
	}
	if (b->in_array) {
		ctf2_unsupported(b, loc, "a length or selector read inside an array element");
		return false;
	}
	struct ctf_type *target = NULL;
	unsigned steps = 0;
	for (; e; e = e->next, steps++) {
		if (e->kind != CJ_STRING) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, e, "a member name", "another value");
			return false;
		}
		if (!st || st->kind != CTF_STRUCT) {
			ctf2_unsupported(b, e, "a field location through a variant, optional or array");
			return false;
		}
		struct ctf_field *f = member(st, avail, e->s);
		if (!f) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, e, "the name of an earlier member", "\"%.60s\"", e->s);
			return false;
		}
		size_t l = strlen(model);
		snprintf(model + l, sizeof(model) - l, "%s%s", l ? "." : "", f->name);
		target = f->type;
		st = f->type;
		avail = st ? st->nfields : 0;
	}
	if (!target) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, loc, "a location naming a field", "none");
		return false;
	}
	out->type = target;
	if (origin == (int)b->scope && sibling_start && steps == 1) {
		/* a sibling: found by its bare name, as the flat plans want */
		const char *dot = strrchr(model, '.');
		snprintf(out->path, sizeof(out->path), "%s", dot ? dot + 1 : model);
	} else if (!named) {
		ctf2_unsupported(b, loc, "a field location through a variant option or an array");
		return false;
	} else {
		snprintf(out->path, sizeof(out->path), "%s%s", prefixes[origin], model);
	}
	return true;
}

static bool is_int(const struct ctf_type *t)
{
	return t && (t->kind == CTF_INT || t->kind == CTF_ENUM || t->kind == CTF_VARINT);
}

static bool same_ranges(const struct ctf_type *t, const struct ctf_range *r, size_t n)
{
	if (t->nranges != n)
		return false;
	for (size_t i = 0; i < n; i++)
		if (t->ranges[i].lo != r[i].lo || t->ranges[i].hi != r[i].hi || strcmp(t->ranges[i].label, r[i].label))
			return false;
	return true;
}

/* The selector becomes an enumeration of the options' ranges (or already is that one). */
static bool make_selector(struct ctf2 *b, const struct cj_value *at, struct ctf_type *sel, struct ctf_range *r, size_t n)
{
	if (sel->kind == CTF_ENUM) {
		if (same_ranges(sel, r, n))
			return true;
		ctf2_unsupported(b, at, "a selector two variants or optionals read differently");
		return false;
	}
	if (sel->kind == CTF_VARINT) {
		ctf2_unsupported(b, at, "a variable-length integer selector");
		return false;
	}
	sel->kind = CTF_ENUM;
	sel->ranges = r;
	sel->nranges = n;
	return true;
}

/* ---- the field classes ---- */

static struct ctf_type *byte_elem(struct ctf2 *b, const struct cj_value *at)
{
	struct ctf_type *e = new_type(b, CTF_INT, at);
	if (e) {
		e->size = 8;
		e->align = 8;
	}
	return e;
}

static struct ctf_type *fixed_int(struct ctf2 *b, const struct cj_value *fc, bool is_signed, bool draft_enum,
				  const char *const *own)
{
	if (!fc_props(b, fc, own))
		return NULL;
	struct ctf_type *t = new_type(b, CTF_INT, fc);
	uint64_t len, align, base;
	if (!t || !ctf2_uint(b, fc, "length", 0, &len) || !alignment(b, fc, "alignment", &align) || !byte_order(b, fc, t) ||
	    !ctf2_uint(b, fc, "preferred-display-base", 10, &base))
		return NULL;
	if (len < 1 || len > 64) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "length") ? cj_get(fc, "length") : fc,
			 "a length of 1 to 64 bits", "%llu", (unsigned long long)len);
		return NULL;
	}
	if (base != 2 && base != 8 && base != 10 && base != 16) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "preferred-display-base"), "2, 8, 10 or 16", "%llu",
			 (unsigned long long)base);
		return NULL;
	}
	if (!mappings(b, fc, is_signed, draft_enum))
		return NULL;
	t->size = (unsigned)len;
	t->align = (unsigned)align;
	t->is_signed = is_signed;
	return t;
}

static struct ctf_type *var_int(struct ctf2 *b, const struct cj_value *fc, bool is_signed, bool draft_enum)
{
	static const char *const own[] = { "preferred-display-base", "mappings", "roles", NULL };
	if (!fc_props(b, fc, own))
		return NULL;
	uint64_t base;
	if (!ctf2_uint(b, fc, "preferred-display-base", 10, &base) || !mappings(b, fc, is_signed, draft_enum))
		return NULL;
	struct ctf_type *t = new_type(b, CTF_VARINT, fc);
	if (t) {
		t->size = 64;
		t->align = 8;
		t->is_signed = is_signed;
	}
	return t;
}

static struct ctf_type *structure(struct ctf2 *b, const struct cj_value *fc, unsigned depth, const char *model_name);

static struct ctf_type *build(struct ctf2 *b, const struct cj_value *fc, unsigned depth, const char *model_name)
{
	if (depth > CTF_MAX_DECODE_DEPTH) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, fc, "field classes nested at most 64 deep", "deeper");
		return NULL;
	}
	fc = resolve_fc(b, fc);
	if (!fc)
		return NULL;
	const char *type = ctf2_str(b, fc, "type");
	if (!type) {
		if (!cj_get(fc, "type"))
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, fc, "a field class with a type", "none");
		return NULL;
	}
	static const char *const int_own[] = { "*length", "*byte-order", "bit-order", "alignment", "preferred-display-base",
					       "mappings", "roles", NULL };
	if (!strcmp(type, "fixed-length-unsigned-integer"))
		return fixed_int(b, fc, false, false, int_own);
	if (!strcmp(type, "fixed-length-signed-integer"))
		return fixed_int(b, fc, true, false, int_own);
	if (!strcmp(type, "fixed-length-unsigned-enumeration") || !strcmp(type, "fixed-length-signed-enumeration")) {
		ctf2_draft(b, cj_get(fc, "type"), "an enumeration field class type");
		return fixed_int(b, fc, type[13] == 's', true, int_own);
	}
	if (!strcmp(type, "fixed-length-bit-array") || !strcmp(type, "fixed-length-boolean")) {
		static const char *const own[] = { "*length", "*byte-order", "bit-order", "alignment", NULL };
		return fixed_int(b, fc, false, false, own);
	}
	if (!strcmp(type, "fixed-length-bit-map")) {
		static const char *const own[] = { "*length", "*byte-order", "bit-order", "alignment", "*flags", NULL };
		struct ctf_type *t = fixed_int(b, fc, false, false, own);
		const struct cj_value *flags = cj_get(fc, "flags");
		if (t && (!flags || flags->kind != CJ_OBJECT || flags->n == 0)) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, flags ? flags : fc, "an object of at least one flag",
				 "another value");
			return NULL;
		}
		for (const struct cj_value *f = flags ? flags->first : NULL; t && f; f = f->next) {
			struct ctf_range *r;
			size_t n;
			if (!range_set(b, f, false, &r, &n, NULL))
				return NULL;
		}
		return t;
	}
	if (!strcmp(type, "fixed-length-floating-point-number")) {
		static const char *const own[] = { "*length", "*byte-order", "bit-order", "alignment", NULL };
		struct ctf_type *t = fixed_int(b, fc, false, false, own);
		if (t && t->size != 16 && t->size != 32 && t->size != 64) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "length"), "a length of 16, 32, 64 or 128 bits",
				 "%u", t->size);
			return NULL;
		}
		if (t)
			t->kind = CTF_FLOAT;
		return t;
	}
	if (!strcmp(type, "variable-length-unsigned-integer"))
		return var_int(b, fc, false, false);
	if (!strcmp(type, "variable-length-signed-integer"))
		return var_int(b, fc, true, false);
	if (!strcmp(type, "variable-length-unsigned-enumeration") || !strcmp(type, "variable-length-signed-enumeration")) {
		ctf2_draft(b, cj_get(fc, "type"), "an enumeration field class type");
		return var_int(b, fc, type[16] == 's', true);
	}
	if (!strcmp(type, "null-terminated-string") || !strcmp(type, "static-length-string") ||
	    !strcmp(type, "dynamic-length-string")) {
		static const char *const nt[] = { "encoding", NULL }, *const sl[] = { "encoding", "*length", NULL },
					 *const dl[] = { "encoding", "*length-field-location", NULL };
		const bool is_nt = type[0] == 'n', is_sl = type[0] == 's';
		if (!fc_props(b, fc, is_nt ? nt : is_sl ? sl : dl))
			return NULL;
		const char *enc = ctf2_str(b, fc, "encoding");
		if (enc && strcmp(enc, "utf-8")) {
			if (strcmp(enc, "utf-16be") && strcmp(enc, "utf-16le") && strcmp(enc, "utf-32be") && strcmp(enc, "utf-32le")) {
				ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "encoding"), "a UTF-8, -16 or -32 encoding",
					 "\"%.40s\"", enc);
				return NULL;
			}
			if (is_nt) {
				ctf2_unsupported(b, cj_get(fc, "encoding"), "a null-terminated UTF-16 or UTF-32 string");
				return NULL;
			}
		}
		if (is_nt)
			return new_type(b, CTF_STRING, fc);
		goto bytes;
	}
	if (!strcmp(type, "static-length-blob") || !strcmp(type, "dynamic-length-blob")) {
		static const char *const sl[] = { "media-type", "*length", "roles", NULL },
					 *const dl[] = { "media-type", "*length-field-location", NULL };
		if (!fc_props(b, fc, type[0] == 's' ? sl : dl))
			return NULL;
		(void)ctf2_str(b, fc, "media-type");
		goto bytes;
	}
	if (!strcmp(type, "structure"))
		return structure(b, fc, depth, model_name);
	if (!strcmp(type, "static-length-array") || !strcmp(type, "dynamic-length-array")) {
		static const char *const sl[] = { "*element-field-class", "minimum-alignment", "*length", NULL },
					 *const dl[] = { "*element-field-class", "minimum-alignment", "*length-field-location", NULL };
		const bool is_sl = type[0] == 's';
		uint64_t min_align;
		if (!fc_props(b, fc, is_sl ? sl : dl) || !alignment(b, fc, "minimum-alignment", &min_align))
			return NULL;
		struct ctf_type *t = new_type(b, is_sl ? CTF_ARRAY : CTF_SEQ, fc);
		if (!t)
			return NULL;
		if (is_sl) {
			if (!ctf2_uint(b, fc, "length", 0, &t->length))
				return NULL;
		} else {
			struct located len;
			if (!locate(b, cj_get(fc, "length-field-location"), &len))
				return NULL;
			if (!is_int(len.type) || len.type->is_signed) {
				ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "length-field-location"),
					 "the location of an unsigned integer field", "another field");
				return NULL;
			}
			t->length_name = ctf_strndup(&b->m->arena, len.path, strlen(len.path));
		}
		b->in_array++;
		t->elem = build(b, cj_get(fc, "element-field-class"), depth + 1, NULL);
		b->in_array--;
		if (!t->elem)
			return NULL;
		t->align = t->elem->align;
		if (min_align > t->elem->align)
			ctf2_unsupported(b, cj_get(fc, "minimum-alignment"), "an array aligned more than its elements");
		return t;
	}
	if (!strcmp(type, "optional") || !strcmp(type, "variant")) {
		const bool opt = type[0] == 'o';
		static const char *const oprops[] = { "*field-class", "*selector-field-location", "selector-field-ranges", NULL },
					 *const v[] = { "*options", "*selector-field-location", NULL };
		if (!fc_props(b, fc, opt ? oprops : v))
			return NULL;
		struct located sel;
		if (!locate(b, cj_get(fc, "selector-field-location"), &sel))
			return NULL;
		const bool is_bool_sel = sel.type->kind == CTF_INT && !cj_get(fc, "selector-field-ranges") && opt;
		if (!is_int(sel.type)) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "selector-field-location"),
				 "the location of a boolean or integer field", "another field");
			return NULL;
		}
		struct ctf_type *t = new_type(b, CTF_VARIANT, fc);
		if (!t)
			return NULL;
		t->tag = ctf_strndup(&b->m->arena, sel.path, strlen(sel.path));
		struct ctf_range *all = NULL;
		size_t nall = 0;
		if (opt) {
			t->fields = ctf_alloc(&b->m->arena, 2 * sizeof(*t->fields));
			all = ctf_alloc(&b->m->arena, 64 * sizeof(*all));
			if (!t->fields || !all) {
				b->bad = true;
				return NULL;
			}
			memset(t->fields, 0, 2 * sizeof(*t->fields));
			t->nfields = 2;
			t->fields[0].name = "present";
			t->fields[0].name_len = 7;
			t->fields[1].name = "absent";
			t->fields[1].name_len = 6;
			t->fields[0].type = build(b, cj_get(fc, "field-class"), depth + 1, NULL);
			if (!t->fields[0].type)
				return NULL;
			if (is_bool_sel) {
				all[0] = (struct ctf_range){ "absent", 0, 0 };
				all[1] = (struct ctf_range){ "present", 1, -1 };
				nall = 2;
			} else {
				struct ctf_range *r;
				size_t n;
				if (!range_set(b, cj_get(fc, "selector-field-ranges"), sel.type->is_signed, &r, &n, "present"))
					return NULL;
				if (n > 63) {
					ctf2_unsupported(b, fc, "an optional of more than 63 selector ranges");
					return NULL;
				}
				memcpy(all, r, n * sizeof(*r));
				all[n] = sel.type->is_signed ? (struct ctf_range){ "absent", INT64_MIN, INT64_MAX }
							     : (struct ctf_range){ "absent", 0, -1 };
				nall = n + 1;
			}
		} else {
			const struct cj_value *opts = cj_get(fc, "options");
			if (!opts || opts->kind != CJ_ARRAY || opts->n == 0) {
				ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, opts ? opts : fc, "a non-empty array of options",
					 "another value");
				return NULL;
			}
			t->fields = ctf_alloc(&b->m->arena, opts->n * sizeof(*t->fields));
			if (!t->fields) {
				b->bad = true;
				return NULL;
			}
			memset(t->fields, 0, opts->n * sizeof(*t->fields));
			size_t k = 0, cap = 0;
			for (const struct cj_value *o = opts->first; o; o = o->next, k++) {
				static const char *const op[] = { "name", "*field-class", "*selector-field-ranges", "attributes",
								  "extensions", NULL };
				if (!ctf2_props(b, o, op, draft_common))
					return NULL;
				const char *name = ctf2_str(b, o, "name");
				char buf[32];
				if (!name) {
					snprintf(buf, sizeof(buf), "~%zu", k); /* unnamed: a name no label can clash with */
					name = buf;
				}
				for (size_t j = 0; j < k; j++)
					if (!strcmp(t->fields[j].name, name)) {
						ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(o, "name"), "option names unique",
							 "\"%.60s\" again", name);
						return NULL;
					}
				t->fields[k].name = ctf_strndup(&b->m->arena, name, strlen(name));
				t->fields[k].name_len = strlen(name);
				t->fields[k].json_name = t->fields[k].name;
				struct ctf_range *r;
				size_t n;
				if (!t->fields[k].name ||
				    !range_set(b, cj_get(o, "selector-field-ranges"), sel.type->is_signed, &r, &n, t->fields[k].name))
					return NULL;
				struct ctf_range *grown = ctf_alloc(&b->m->arena, (nall + n) * sizeof(*grown));
				if (!grown) {
					b->bad = true;
					return NULL;
				}
				if (nall)
					memcpy(grown, all, nall * sizeof(*all));
				memcpy(grown + nall, r, n * sizeof(*r));
				all = grown;
				nall += n;
				(void)cap;
				t->fields[k].type = build(b, cj_get(o, "field-class"), depth + 1, NULL);
				if (!t->fields[k].type)
					return NULL;
			}
			t->nfields = k;
			/* ranges of two options may not meet (the first 4096 compared: quadratic beyond) */
			for (size_t i = 0; i < nall && i < 4096; i++)
				for (size_t j = i + 1; j < nall && j < 4096; j++) {
					bool meet = sel.type->is_signed ? !(all[i].hi < all[j].lo || all[j].hi < all[i].lo)
									: !((uint64_t)all[i].hi < (uint64_t)all[j].lo ||
									    (uint64_t)all[j].hi < (uint64_t)all[i].lo);
					if (meet && strcmp(all[i].label, all[j].label)) {
						ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, opts, "options whose selector ranges do not meet",
							 "\"%.40s\" and \"%.40s\" share values", all[i].label, all[j].label);
						return NULL;
					}
				}
		}
		if (!make_selector(b, cj_get(fc, "selector-field-location"), sel.type, all, nall))
			return NULL;
		return t;
	}
	ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "type"), "a field class type of CTF 2", "\"%.60s\"", type);
	return NULL;

bytes:;
	/* strings of a length and blobs: bytes, as the model's arrays and sequences of bytes */
	struct ctf_type *t = new_type(b, type[0] == 's' ? CTF_ARRAY : CTF_SEQ, fc);
	if (!t)
		return NULL;
	if (type[0] == 's') {
		if (!ctf2_uint(b, fc, "length", 0, &t->length))
			return NULL;
	} else {
		struct located len;
		if (!locate(b, cj_get(fc, "length-field-location"), &len))
			return NULL;
		if (!is_int(len.type) || len.type->is_signed) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(fc, "length-field-location"),
				 "the location of an unsigned integer field", "another field");
			return NULL;
		}
		t->length_name = ctf_strndup(&b->m->arena, len.path, strlen(len.path));
	}
	t->elem = byte_elem(b, fc);
	t->text = strstr(type, "-string") != NULL; /* a string of a length, not a blob */
	return t->elem ? t : NULL;
}

/* The roles of a field class (object or alias): the first, or NULL; each must suit the scope. */
static const char *role_of(struct ctf2 *b, const struct cj_value *fc, bool *clock, bool *top)
{
	fc = fc && fc->kind == CJ_STRING ? alias_fc(b, fc) : fc;
	const struct cj_value *rs = cj_get(fc, "roles");
	if (!rs)
		return NULL;
	if (rs->kind != CJ_ARRAY) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, rs, "an array of roles", "another value");
		return NULL;
	}
	const char *name = NULL;
	for (const struct cj_value *r = rs->first; r; r = r->next) {
		size_t i = 0;
		while (i < NROLES && !(r->kind == CJ_STRING && roles[i].scope == b->scope && !strcmp(r->s, roles[i].role)))
			i++;
		if (i == NROLES) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, r, "a role of this scope's field classes", "\"%.60s\"",
				 r->kind == CJ_STRING ? r->s : "?");
			return NULL;
		}
		if (roles[i].clock && !b->has_clock) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, r, "a default clock class for a timestamp role",
				 "a data stream class without one");
			return NULL;
		}
		if (!name) {
			name = roles[i].name;
			*clock = roles[i].clock;
			*top = roles[i].top;
		}
	}
	return name;
}

static bool reserved(enum ctf_scope scope, const char *name, bool at_top)
{
	for (size_t i = 0; i < NROLES; i++)
		if (roles[i].scope == scope && (at_top || !roles[i].top) && !strcmp(roles[i].name, name))
			return true;
	return false;
}

static struct ctf_type *structure(struct ctf2 *b, const struct cj_value *fc, unsigned depth, const char *model_name)
{
	static const char *const own[] = { "member-classes", "minimum-alignment", NULL };
	uint64_t min_align;
	if (!fc_props(b, fc, own) || !alignment(b, fc, "minimum-alignment", &min_align))
		return NULL;
	const struct cj_value *mc = cj_get(fc, "member-classes");
	if (mc && mc->kind != CJ_ARRAY) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, mc, "an array of member classes", "another value");
		return NULL;
	}
	struct ctf_type *t = new_type(b, CTF_STRUCT, fc);
	if (!t)
		return NULL;
	t->align = (unsigned)min_align;
	const uint32_t n = mc ? mc->n : 0;
	if (n) {
		t->fields = ctf_alloc(&b->m->arena, n * sizeof(*t->fields));
		if (!t->fields) {
			b->bad = true;
			return NULL;
		}
		memset(t->fields, 0, n * sizeof(*t->fields));
	}
	if (b->nframes == CTF2_MAX_FRAME) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, fc, "structures nested at most 64 deep", "deeper");
		return NULL;
	}
	const bool at_top = b->nframes == 0;
	b->frames[b->nframes].st = t;
	b->frames[b->nframes].model_name = model_name;
	b->nframes++;
	bool ok = true;
	for (const struct cj_value *m = mc ? mc->first : NULL; m && ok; m = m->next) {
		static const char *const mprops[] = { "*name", "*field-class", "attributes", "extensions", NULL };
		const char *name = NULL;
		if (!ctf2_props(b, m, mprops, draft_common) || !(name = ctf2_str(b, m, "name"))) {
			ok = false;
			break;
		}
		if (member(t, t->nfields, name)) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(m, "name"), "member names unique in a structure",
				 "\"%.60s\" again", name);
			ok = false;
			break;
		}
		bool clock = false, top = false;
		const char *role = role_of(b, cj_get(m, "field-class"), &clock, &top);
		if (b->bad) {
			ok = false;
			break;
		}
		if (role && top && !at_top) {
			ctf2_unsupported(b, m, "a packet role below the scope's top");
			ok = false;
			break;
		}
		/* the walker's name for it: its role's, or its own kept out of the roles' way */
		char model[CTF_MAX_TOKEN];
		if (role)
			snprintf(model, sizeof(model), "%s", role);
		else if (reserved(b->scope, name, at_top))
			snprintf(model, sizeof(model), "~%s", name);
		else
			snprintf(model, sizeof(model), "%s", name);
		for (char *c = model; *c; c++)
			if (*c == '.')
				*c = '_'; /* the decoder's paths are dotted */
		struct ctf_field *f = &t->fields[t->nfields];
		f->name = ctf_strndup(&b->m->arena, model, strlen(model));
		f->name_len = strlen(model);
		f->json_name = ctf_strndup(&b->m->arena, name, strlen(name)); /* the JSON is freed after its fragment */
		if (!f->name || !f->json_name) {
			b->bad = true;
			ok = false;
			break;
		}
		f->type = build(b, cj_get(m, "field-class"), depth + 1, f->name);
		if (!f->type) {
			ok = false;
			break;
		}
		if (clock)
			f->type->clock = true;
		if (role && !strcmp(role, "uuid") && !(f->type->kind == CTF_ARRAY && f->type->length == 16)) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, m, "a static-length blob of 16 bytes for the metadata stream UUID",
				 "another field class");
			ok = false;
			break;
		}
		if (role && strcmp(role, "uuid") && !(f->type->kind == CTF_INT || f->type->kind == CTF_ENUM ||
						      f->type->kind == CTF_VARINT) ) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, m, "an unsigned integer field class for this role",
				 "another field class");
			ok = false;
			break;
		}
		if (role && f->type->is_signed) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, m, "an unsigned integer field class for this role",
				 "a signed one");
			ok = false;
			break;
		}
		if (f->type->align > t->align)
			t->align = f->type->align;
		t->nfields++;
	}
	b->nframes--;
	return ok ? t : NULL;
}

struct ctf_type *ctf2_field_class(struct ctf2 *b, const struct cj_value *fc, unsigned depth)
{
	return build(b, fc, depth, "");
}

struct ctf_type *ctf2_scope(struct ctf2 *b, enum ctf_scope scope, const struct cj_value *fc)
{
	if (!fc)
		return NULL;
	b->scope = scope;
	b->nframes = 0;
	const struct cj_value *obj = resolve_fc(b, fc);
	const char *type = obj ? ctf2_str(b, obj, "type") : NULL;
	if (!obj || !type)
		return NULL;
	if (strcmp(type, "structure")) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(obj, "type"), "a structure field class for a scope",
			 "\"%.60s\"", type);
		return NULL;
	}
	struct ctf_type *t = structure(b, obj, 0, "");
	b->roots[scope] = t;
	return t;
}
