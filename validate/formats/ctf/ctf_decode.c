/* SPDX-License-Identifier: MIT */
/*
 * Decoding fields through the type model: alignment from the packet start, integers of any
 * width and byte order, strings ending inside the content, arrays, sequences sized by an
 * earlier field, variants selected by an enumeration tag. Integer fields are remembered (by
 * scope and dotted path) for the sequence lengths and variant tags that name them; fields
 * mapped to a clock move the stream's clock forward (CTF 1.8 section 8).
 */
#include <stdio.h>
#include <string.h>

#include "ctf.h"

static const struct {
	const char *prefix;
	enum ctf_scope scope;
} absolute[] = {
	{ "trace.packet.header.", CTF_SC_PACKET_HEADER },   { "stream.packet.context.", CTF_SC_PACKET_CONTEXT },
	{ "stream.event.header.", CTF_SC_EVENT_HEADER },    { "stream.event.context.", CTF_SC_STREAM_EVENT_CONTEXT },
	{ "event.context.", CTF_SC_EVENT_CONTEXT },         { "event.fields.", CTF_SC_EVENT_FIELDS },
};

void ctf_values_drop(struct ctf_decoder *d, enum ctf_scope from)
{
	while (d->nvalues && d->values[d->nvalues - 1].scope >= from)
		d->nvalues--;
}

static const struct ctf_value *find_value(const struct ctf_decoder *d, enum ctf_scope scope, const char *path)
{
	for (size_t i = d->nvalues; i-- > 0;)
		if (d->values[i].scope == scope && strcmp(d->values[i].path, path) == 0)
			return &d->values[i];
	return NULL;
}

bool ctf_value_get(const struct ctf_decoder *d, enum ctf_scope scope, const char *path, uint64_t *v)
{
	const struct ctf_value *x = find_value(d, scope, path);
	if (x)
		*v = x->v;
	return x != NULL;
}

unsigned ctf_value_bits(const struct ctf_decoder *d, enum ctf_scope scope, const char *path)
{
	const struct ctf_value *x = find_value(d, scope, path);
	return x ? x->type->size : 0;
}

/* A length or tag named from inside `prefix` of `scope`: relative names look outward. */
static const struct ctf_value *resolve(const struct ctf_decoder *d, enum ctf_scope scope, const char *prefix,
				       const char *name)
{
	const bool dotted = strchr(name, '.') != NULL; /* only a dotted name can be absolute */
	for (size_t i = 0; dotted && i < sizeof(absolute) / sizeof(absolute[0]); i++) {
		size_t n = strlen(absolute[i].prefix);
		if (strncmp(name, absolute[i].prefix, n) == 0)
			return find_value(d, absolute[i].scope, name + n);
	}
	size_t plen = strlen(prefix);
	for (;;) {
		/* The latest value of that scope whose path is prefix[0, plen) "." name. */
		for (size_t i = d->nvalues; i-- > 0;) {
			const struct ctf_value *x = &d->values[i];
			if (x->scope != scope)
				continue;
			const char *vp = x->path;
			if (plen) {
				if (strncmp(vp, prefix, plen) != 0 || vp[plen] != '.')
					continue;
				vp += plen + 1;
			}
			if (strcmp(vp, name) == 0)
				return x;
		}
		if (!plen)
			break;
		while (plen && prefix[plen - 1] != '.')
			plen--;
		if (plen)
			plen--;
	}
	for (int s = (int)scope - 1; s >= 0; s--) {
		const struct ctf_value *v = find_value(d, (enum ctf_scope)s, name);
		if (v)
			return v;
	}
	return NULL;
}

static bool order_be(const struct ctf_decoder *d, const struct ctf_type *t)
{
	return t->order == CTF_BO_DEFAULT ? d->meta->big_endian : t->order == CTF_BO_BE;
}

void ctf_update_clock(struct ctf_decoder *d, uint64_t v, unsigned size)
{
	d->clock = ctf_clock_next(d->clock, d->clock_set, v, size);
	d->clock_set = true;
}

long ctf_enum_range(const struct ctf_type *t, uint64_t v)
{
	for (size_t i = 0; i < t->nranges; i++) {
		const struct ctf_range *r = &t->ranges[i];
		bool in = t->is_signed ? ((int64_t)v >= r->lo && (int64_t)v <= r->hi)
				       : (v >= (uint64_t)r->lo && v <= (uint64_t)r->hi);
		if (in)
			return (long)i;
	}
	return -1;
}

static bool enum_maps(const struct ctf_type *t, uint64_t v, const char **label)
{
	long i = ctf_enum_range(t, v);
	if (i >= 0)
		*label = t->ranges[i].label;
	return i >= 0;
}





/* Where a field is: its dotted path inside the scope, and where the name of the field begins. */
struct where {
	const char *s;
	size_t len;    /* of the path */
	size_t parent; /* of the enclosing path (0 at the top) */
};

/*
 * The path of a member named name (n bytes) of the field at w. Every path lives in the one
 * buffer d->path: a member's path is its parent's with ".name" written after it, so nothing
 * is copied per field (siblings overwrite each other; the parent's part stays). A path is
 * therefore w->s[0, w->len), not NUL-terminated once a member of it was decoded.
 */
static struct where child(struct ctf_decoder *d, const struct where *w, const char *name, size_t n)
{
	char *buf = d->path;
	const size_t cap = sizeof(d->path);
	size_t at = 0;
	if (w->len) {
		at = w->len < cap - 2 ? w->len : cap - 2;
		buf[at++] = '.';
	}
	if (n > cap - 1 - at)
		n = cap - 1 - at;
	memcpy(buf + at, name, n);
	buf[at + n] = 0;
	struct where c = { buf, at + n, w->len < cap ? w->len : cap - 1 };
	return c;
}

/* A decoding failure at the current position, in the field at w (its path copied: w's buffer is reused). */
static enum ctf_dec_status fail(struct ctf_decoder *d, enum ctf_dec_status s, const struct where *w)
{
	d->fail_at = d->bits.pos;
	size_t n = w->len < sizeof(d->fail_path) - 1 ? w->len : sizeof(d->fail_path) - 1;
	memcpy(d->fail_path, w->s, n);
	d->fail_path[n] = 0;
	d->fail_what = d->fail_path;
	return s;
}

static enum ctf_dec_status decode(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t,
				  const struct where *w, bool in_array, unsigned depth);

static void remember_at(struct ctf_decoder *d, enum ctf_scope scope, const struct where *w, uint64_t v,
			const struct ctf_type *t)
{
	size_t i = d->nvalues;
	if (i == CTF_MAX_VALUES)
		return; /* lookups beyond fall back to "not found" */
	size_t n = w->len < sizeof(d->paths[i]) - 1 ? w->len : sizeof(d->paths[i]) - 1;
	memcpy(d->paths[i], w->s, n);
	d->paths[i][n] = 0;
	d->values[i].scope = scope;
	d->values[i].path = d->paths[i];
	d->values[i].v = v;
	d->values[i].type = t;
	d->nvalues++;
}

/* The name of the field at w (its last component). */
static const char *field_name(const struct where *w, size_t *n)
{
	size_t from = w->parent ? w->parent + 1 : 0;
	if (from > w->len)
		from = w->len;
	*n = w->len - from;
	return w->s + from;
}

static enum ctf_dec_status decode_int(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t,
				      const struct where *w, bool in_array)
{
	if (!ctf_bits_align(&d->bits, t->align))
		return fail(d, CTF_DEC_OVERRUN, w);
	if (t->size > 64) {
		/* Wider than any value kept (CTF 1.8 sets no limit): its bits are passed over, and
		 * nothing can refer to it as a length, tag or clock. */
		if (d->bits.pos > d->bits.limit || t->size > d->bits.limit - d->bits.pos)
			return fail(d, CTF_DEC_OVERRUN, w);
		d->bits.pos += t->size;
		return CTF_DEC_OK;
	}
	uint64_t v;
	if (!ctf_bits_read(&d->bits, t->size, order_be(d, t), &v))
		return fail(d, CTF_DEC_OVERRUN, w);
	if (t->is_signed && t->size < 64 && (v >> (t->size - 1)) & 1)
		v |= ~0ull << t->size;
	size_t nlen;
	const char *name = field_name(w, &nlen);
	if (t->clock && !(scope == CTF_SC_PACKET_CONTEXT && nlen == 13 && !memcmp(name, "timestamp_end", 13)))
		ctf_update_clock(d, t->is_signed && t->size < 64 ? v & ((1ull << t->size) - 1) : v, t->size);
	if (scope == CTF_SC_EVENT_HEADER && nlen == 2 && name[0] == 'i' && name[1] == 'd') {
		d->event_id = v; /* LTTng: the extended header's id comes after the compact one */
		d->has_event_id = true;
	}
	if (t->kind == CTF_ENUM) {
		const char *label;
		if (!enum_maps(t, v, &label) && d->unmapped_enum_at == UINT64_MAX)
			d->unmapped_enum_at = d->bits.pos - t->size;
	}
	if (!in_array)
		remember_at(d, scope, w, v, t);
	return CTF_DEC_OK;
}

/*
 * A CTF 2 variable-length integer: 7 bits a byte, least significant first, the high bit set on
 * every byte but the last (LEB128); signed ones sign-extended from the last byte's bit 6. More
 * than 64 bits of value (an eleventh byte, or a tenth with more than bit 63 in it) is not one
 * this decoder keeps: reported as the event's overrun of its bound.
 */
static enum ctf_dec_status decode_varint(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t,
					 const struct where *w, bool in_array)
{
	if (!ctf_bits_align(&d->bits, 8))
		return fail(d, CTF_DEC_OVERRUN, w);
	uint64_t v = 0;
	unsigned shift = 0;
	for (;;) {
		uint64_t byte;
		if (!ctf_bits_read(&d->bits, 8, false, &byte))
			return fail(d, CTF_DEC_OVERRUN, w);
		/* the tenth byte holds bit 63 only (and, signed, copies of it) */
		if (shift == 63 && (t->is_signed ? (byte & 0x7f) != 0 && (byte & 0x7f) != 0x7f : (byte & 0x7e) != 0))
			return fail(d, CTF_DEC_OVERRUN, w);
		v |= (byte & 0x7f) << shift;
		shift += 7;
		if (!(byte & 0x80)) {
			if (t->is_signed && shift < 64 && (byte & 0x40))
				v |= ~0ull << shift;
			break;
		}
		if (shift > 63)
			return fail(d, CTF_DEC_OVERRUN, w);
	}
	size_t nlen;
	const char *name = field_name(w, &nlen);
	if (t->clock && !(scope == CTF_SC_PACKET_CONTEXT && nlen == 13 && !memcmp(name, "timestamp_end", 13)))
		ctf_update_clock(d, v, 64);
	if (scope == CTF_SC_EVENT_HEADER && nlen == 2 && name[0] == 'i' && name[1] == 'd') {
		d->event_id = v;
		d->has_event_id = true;
	}
	if (!in_array)
		remember_at(d, scope, w, v, t);
	return CTF_DEC_OK;
}

/* A text field of an event, decoded whole at byte `at` of the packet, to the observer that asked (scrub). */
static void send_text(struct ctf_decoder *d, enum ctf_scope scope, const struct where *w, uint64_t at, uint64_t len)
{
	if (scope < CTF_SC_STREAM_EVENT_CONTEXT || !len)
		return; /* packet headers and contexts, event headers: structure, not what the events say */
	char field[sizeof(d->path)];
	const size_t n = w->len < sizeof(field) - 1 ? w->len : sizeof(field) - 1;
	memcpy(field, w->s, n);
	field[n] = 0;
	const struct tfk_ctf_text t = { d->ctx->member ? d->ctx->member : "", d->bits.c->origin + at, len, field,
					scope != CTF_SC_EVENT_FIELDS };
	d->ctx->obs->model(d->ctx->obs->user, &tfk_format_ctf, TFK_CTF_MODEL_TEXT, &t, sizeof t);
}

static enum ctf_dec_status decode_string(struct ctf_decoder *d, enum ctf_scope scope, const struct where *path)
{
	if (!ctf_bits_align(&d->bits, 8))
		return fail(d, CTF_DEC_OVERRUN, path);
	uint64_t at = d->bits.pos / 8, end = d->bits.limit / 8;
	const uint8_t *p;
	if (at > end || !tfk_cur_bytes_at(d->bits.c, at, end - at, &p))
		return fail(d, CTF_DEC_OVERRUN, path);
	const uint8_t *nul = memchr(p, 0, end - at);
	if (!nul)
		return fail(d, CTF_DEC_BAD_STRING, path);
	if (d->send_text)
		send_text(d, scope, path, at, (uint64_t)(nul - p));
	d->bits.pos = (at + (uint64_t)(nul - p) + 1) * 8;
	return CTF_DEC_OK;
}

static bool name_matches(const char *option, const char *label)
{
	if (!strcmp(option, label))
		return true;
	if (option[0] == '_' && !strcmp(option + 1, label))
		return true;
	if (label[0] == '_' && !strcmp(label + 1, option))
		return true;
	return false;
}

/* The enclosing path of the field at w, as a string in buf. */
static const char *parent_path(char *buf, size_t cap, const struct where *w)
{
	size_t n = w->parent < cap - 1 ? w->parent : cap - 1;
	memcpy(buf, w->s, n);
	buf[n] = 0;
	return buf;
}

static enum ctf_dec_status decode_variant(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t,
					  const struct where *w, unsigned depth)
{
	char prefix[160];
	const struct ctf_value *tag = t->tag ? resolve(d, scope, parent_path(prefix, sizeof(prefix), w), t->tag) : NULL;
	if (!tag || tag->type->kind != CTF_ENUM)
		return fail(d, CTF_DEC_VARIANT, w);
	const char *label;
	if (!enum_maps(tag->type, tag->v, &label))
		return fail(d, CTF_DEC_VARIANT, w);
	const struct ctf_field *opt = NULL;
	for (size_t i = 0; i < t->nfields && !opt; i++)
		if (!strcmp(t->fields[i].name, label))
			opt = &t->fields[i];
	for (size_t i = 0; i < t->nfields && !opt; i++)
		if (name_matches(t->fields[i].name, label))
			opt = &t->fields[i];
	if (!opt)
		return fail(d, CTF_DEC_VARIANT, w);
	struct where c = child(d, w, opt->name, opt->name_len);
	return decode(d, scope, opt->type, &c, false, depth + 1);
}

static enum ctf_dec_status decode_array(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t,
					const struct where *w, uint64_t n, unsigned depth)
{
	const struct ctf_type *e = t->elem;
	if (!e)
		return CTF_DEC_OK;
	if (!ctf_bits_align(&d->bits, e->align))
		return fail(d, CTF_DEC_OVERRUN, w);
	/* Byte integers (uuids, text): the whole run at once. */
	if ((e->kind == CTF_INT) && e->size == 8 && e->align == 8 && !e->clock) {
		if (n > (d->bits.limit - d->bits.pos) / 8)
			return fail(d, t->kind == CTF_SEQ ? CTF_DEC_SEQ : CTF_DEC_OVERRUN, w);
		if (scope == CTF_SC_PACKET_HEADER && n == 16 && w->len == 4 && !memcmp(w->s, "uuid", 4))
			d->uuid_at = d->bits.pos;
		if (d->send_text && (t->text || e->text)) {
			/* the text ends at its first NUL, if any (LTTng's procname pads with them) */
			const uint8_t *p;
			uint64_t k = 0;
			if (tfk_cur_bytes_at(d->bits.c, d->bits.pos / 8, n, &p))
				for (; k < n && p[k]; k++)
					;
			send_text(d, scope, w, d->bits.pos / 8, k);
		}
		d->bits.pos += n * 8;
		return CTF_DEC_OK;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t before = d->bits.pos;
		enum ctf_dec_status s = decode(d, scope, e, w, true, depth + 1);
		if (s != CTF_DEC_OK)
			return s == CTF_DEC_OVERRUN && t->kind == CTF_SEQ ? fail(d, CTF_DEC_SEQ, w) : s;
		if (d->bits.pos == before && i > 0)
			break; /* elements of no bits: nothing more to read */
	}
	return CTF_DEC_OK;
}

static enum ctf_dec_status decode(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t,
				  const struct where *w, bool in_array, unsigned depth)
{
	if (!t)
		return CTF_DEC_OK;
	if (depth > CTF_MAX_DECODE_DEPTH)
		return fail(d, CTF_DEC_DEPTH, w);
	switch (t->kind) {
	case CTF_INT:
	case CTF_ENUM:
		return decode_int(d, scope, t, w, in_array);
	case CTF_VARINT:
		return decode_varint(d, scope, t, w, in_array);
	case CTF_FLOAT: {
		uint64_t v;
		if (!ctf_bits_align(&d->bits, t->align) || !ctf_bits_read(&d->bits, t->size, order_be(d, t), &v))
			return fail(d, CTF_DEC_OVERRUN, w);
		return CTF_DEC_OK;
	}
	case CTF_STRING:
		return decode_string(d, scope, w);
	case CTF_STRUCT: {
		if (!ctf_bits_align(&d->bits, t->align))
			return fail(d, CTF_DEC_OVERRUN, w);
		for (size_t i = 0; i < t->nfields; i++) {
			struct where c = child(d, w, t->fields[i].name, t->fields[i].name_len);
			enum ctf_dec_status s = decode(d, scope, t->fields[i].type, &c, in_array, depth + 1);
			if (s != CTF_DEC_OK)
				return s;
		}
		return CTF_DEC_OK;
	}
	case CTF_VARIANT:
		return decode_variant(d, scope, t, w, depth);
	case CTF_ARRAY:
		return decode_array(d, scope, t, w, t->length, depth);
	case CTF_SEQ: {
		char prefix[160];
		const struct ctf_value *len =
			t->length_name ? resolve(d, scope, parent_path(prefix, sizeof(prefix), w), t->length_name) : NULL;
		if (!len || len->type->is_signed)
			return fail(d, CTF_DEC_SEQ, w);
		return decode_array(d, scope, t, w, len->v, depth);
	}
	}
	return CTF_DEC_OK;
}

enum ctf_dec_status ctf_decode_scope(struct ctf_decoder *d, enum ctf_scope scope, const struct ctf_type *t)
{
	ctf_values_drop(d, scope);
	if (scope == CTF_SC_EVENT_HEADER)
		d->has_event_id = false;
	struct where top = { "", 0, 0 };
	return decode(d, scope, t, &top, false, 0);
}
