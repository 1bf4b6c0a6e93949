/* SPDX-License-Identifier: MIT */
/*
 * Event payloads decoded from a flat plan. Most events' fields are a struct of integers,
 * floats, strings, and arrays and sequences of those: the general decoder walks the type tree,
 * builds every field's dotted path and remembers every integer for the lengths and tags that
 * may name it, which costs most of a check's time. An event's fields are the last scope: no
 * later field can name them, so a plan of them needs no path and remembers only the sibling
 * integers its own sequences take their lengths from.
 *
 * The plan is made once per event class when the metadata is parsed; a type it cannot express
 * (a variant, a sequence whose length is not an earlier unsigned sibling, a clock-mapped
 * field, nesting past the bound) leaves the event on the general decoder. Decoding from a plan
 * only reports success or failure: on failure the caller decodes the fields again with the
 * general decoder from where they began, so every finding is the general decoder's own.
 */
#include <string.h>

#include "ctf.h"

#define FLAT_MAX_OPS 256   /* ops of one event's plan */
#define FLAT_MAX_NEST 8    /* structs inside structs */

enum flat_kind { FLAT_ALIGN, FLAT_INT, FLAT_ENUM, FLAT_STRING, FLAT_BYTES, FLAT_ARRAY, FLAT_SEQ };

struct ctf_flat_op {
	uint8_t kind;
	bool big_endian, is_signed, keep; /* keep: a sequence's length (remembered in the op's slot) */
	unsigned size, align;             /* bits; elements' for arrays and sequences */
	const struct ctf_type *type;      /* enums: their ranges; arrays and sequences: the element */
	uint64_t count;                   /* arrays: elements */
	uint32_t length_op;               /* sequences: the op holding the length */
	uint32_t ordinal;                 /* integers: how many integer fields of the event come before */
};

struct plan {
	const struct ctf_meta *m;
	struct ctf_flat_op ops[FLAT_MAX_OPS];
	uint32_t n, ints;
	bool ok;
};

static struct ctf_flat_op *add(struct plan *p)
{
	if (p->n == FLAT_MAX_OPS) {
		p->ok = false;
		return NULL;
	}
	struct ctf_flat_op *op = &p->ops[p->n++];
	memset(op, 0, sizeof(*op));
	return op;
}

static bool big(const struct ctf_meta *m, const struct ctf_type *t)
{
	return t->order == CTF_BO_DEFAULT ? m->big_endian : t->order == CTF_BO_BE;
}

/* An element of an array or sequence the plan reads itself: an integer, enum or float. */
static bool scalar(const struct ctf_type *t)
{
	return t && (t->kind == CTF_INT || t->kind == CTF_ENUM || t->kind == CTF_FLOAT) && !t->clock && t->size >= 1 &&
	       t->size <= 64;
}

static void element(struct plan *p, struct ctf_flat_op *op, const struct ctf_type *e)
{
	op->type = e;
	op->size = e->size;
	op->align = e->align;
	op->big_endian = big(p->m, e);
	op->is_signed = e->is_signed;
}

/* The index of the op of an earlier field of this struct named name: an unsigned integer. */
static bool sibling(const struct plan *p, const uint32_t *names_at, const struct ctf_type *t, size_t upto,
		    const char *name, uint32_t *op)
{
	for (size_t i = upto; i-- > 0;) {
		const struct ctf_field *f = &t->fields[i];
		if (strlen(name) != f->name_len || memcmp(f->name, name, f->name_len) != 0)
			continue;
		const struct ctf_type *ft = f->type;
		if (!ft || (ft->kind != CTF_INT && ft->kind != CTF_ENUM) || ft->is_signed || names_at[i] == UINT32_MAX)
			return false;
		*op = names_at[i];
		return p->ops[*op].kind == FLAT_INT || p->ops[*op].kind == FLAT_ENUM;
	}
	return false;
}

static void plan_struct(struct plan *p, const struct ctf_type *t, unsigned nest)
{
	if (!t || t->kind != CTF_STRUCT || nest > FLAT_MAX_NEST || t->nfields > FLAT_MAX_OPS) {
		p->ok = false;
		return;
	}
	struct ctf_flat_op *op = add(p);
	if (!op)
		return;
	op->kind = FLAT_ALIGN;
	op->align = t->align;
	uint32_t names_at[FLAT_MAX_OPS]; /* the op of each field that is an integer, else UINT32_MAX */
	for (size_t i = 0; i < t->nfields && p->ok; i++) {
		const struct ctf_type *ft = t->fields[i].type;
		names_at[i] = UINT32_MAX;
		if (!ft) {
			p->ok = false;
			break;
		}
		switch (ft->kind) {
		case CTF_INT:
		case CTF_ENUM:
		case CTF_FLOAT:
			if (!scalar(ft)) {
				p->ok = false;
				break;
			}
			if (!(op = add(p)))
				break;
			op->kind = ft->kind == CTF_ENUM ? FLAT_ENUM : FLAT_INT;
			element(p, op, ft);
			if (ft->kind != CTF_FLOAT) {
				names_at[i] = p->n - 1;
				op->ordinal = p->ints++; /* the general decoder remembers it in this order */
			}
			break;
		case CTF_STRING:
			if ((op = add(p)) != NULL)
				op->kind = FLAT_STRING;
			break;
		case CTF_STRUCT:
			plan_struct(p, ft, nest + 1);
			break;
		case CTF_ARRAY:
		case CTF_SEQ: {
			const struct ctf_type *e = ft->elem;
			if (!e) { /* no element type: nothing is read */
				break;
			}
			if (!scalar(e)) {
				p->ok = false;
				break;
			}
			uint32_t len_op = 0;
			if (ft->kind == CTF_SEQ &&
			    (!ft->length_name || strchr(ft->length_name, '.') ||
			     !sibling(p, names_at, t, i, ft->length_name, &len_op))) {
				p->ok = false;
				break;
			}
			if (!(op = add(p)))
				break;
			element(p, op, e);
			const bool bytes = e->kind == CTF_INT && e->size == 8 && e->align == 8;
			if (ft->kind == CTF_ARRAY) {
				op->kind = bytes ? FLAT_BYTES : FLAT_ARRAY;
				op->count = ft->length;
			} else {
				op->kind = FLAT_SEQ;
				op->length_op = len_op;
				p->ops[len_op].keep = true;
			}
			break;
		}
		case CTF_VARIANT:
			p->ok = false;
			break;
		}
	}
}

void ctf_flat_plan(struct ctf_meta *m)
{
	struct plan *p = ctf_alloc(&m->arena, sizeof(*p));
	if (!p)
		return;
	for (size_t i = 0; i < m->nevents; i++) {
		struct ctf_event *ev = &m->events[i];
		ev->flat = NULL;
		ev->nflat = 0;
		if (!ev->fields || ev->fields->kind != CTF_STRUCT)
			continue;
		p->m = m;
		p->n = 0;
		p->ints = 0;
		p->ok = true;
		plan_struct(p, ev->fields, 0);
		if (!p->ok || p->n == 0)
			continue;
		struct ctf_flat_op *ops = ctf_alloc(&m->arena, p->n * sizeof(*ops));
		if (!ops)
			return;
		memcpy(ops, p->ops, p->n * sizeof(*ops));
		ev->flat = ops;
		ev->nflat = p->n;
	}
}

static bool enum_maps(const struct ctf_type *t, uint64_t v)
{
	for (size_t i = 0; i < t->nranges; i++) {
		const struct ctf_range *r = &t->ranges[i];
		if (t->is_signed ? ((int64_t)v >= r->lo && (int64_t)v <= r->hi)
				 : (v >= (uint64_t)r->lo && v <= (uint64_t)r->hi))
			return true;
	}
	return false;
}

/* n elements of op's type, each aligned and read through the bounds-checked reader. */
static bool elements(struct ctf_decoder *d, const struct ctf_flat_op *op, uint64_t n)
{
	if (op->kind == FLAT_BYTES || (op->size == 8 && op->align == 8 && op->type->kind == CTF_INT)) {
		if (!ctf_bits_align(&d->bits, 8) || n > (d->bits.limit - d->bits.pos) / 8)
			return false;
		d->bits.pos += n * 8;
		return true;
	}
	for (uint64_t i = 0; i < n; i++) {
		uint64_t v;
		if (!ctf_bits_align(&d->bits, op->align) || !ctf_bits_read(&d->bits, op->size, op->big_endian, &v))
			return false;
		if (op->type->kind == CTF_ENUM) {
			if (op->is_signed && op->size < 64 && (v >> (op->size - 1)) & 1)
				v |= ~0ull << op->size;
			if (!enum_maps(op->type, v) && d->unmapped_enum_at == UINT64_MAX)
				d->unmapped_enum_at = d->bits.pos - op->size;
		}
	}
	return true;
}

bool ctf_decode_flat(struct ctf_decoder *d, const struct ctf_event *ev)
{
	uint64_t kept[FLAT_MAX_OPS];
	for (uint32_t i = 0; i < ev->nflat; i++) {
		const struct ctf_flat_op *op = &ev->flat[i];
		switch ((enum flat_kind)op->kind) {
		case FLAT_ALIGN:
			if (!ctf_bits_align(&d->bits, op->align))
				return false;
			break;
		case FLAT_INT:
		case FLAT_ENUM: {
			uint64_t v;
			if (!ctf_bits_align(&d->bits, op->align) || !ctf_bits_read(&d->bits, op->size, op->big_endian, &v))
				return false;
			if (op->keep) {
				/* the general decoder finds a length among the values it remembers: not
				 * past CTF_MAX_VALUES of them (it then fails, and so does this) */
				if (d->nvalues + op->ordinal >= CTF_MAX_VALUES)
					return false;
				kept[i] = v;
			}
			if (op->kind == FLAT_ENUM) {
				if (op->is_signed && op->size < 64 && (v >> (op->size - 1)) & 1)
					v |= ~0ull << op->size;
				if (!enum_maps(op->type, v) && d->unmapped_enum_at == UINT64_MAX)
					d->unmapped_enum_at = d->bits.pos - op->size;
			}
			break;
		}
		case FLAT_STRING: {
			if (!ctf_bits_align(&d->bits, 8))
				return false;
			uint64_t at = d->bits.pos / 8, end = d->bits.limit / 8;
			const uint8_t *p;
			if (at > end || !tfk_cur_bytes_at(d->bits.c, at, end - at, &p))
				return false;
			const uint8_t *nul = memchr(p, 0, end - at);
			if (!nul)
				return false;
			d->bits.pos = (at + (uint64_t)(nul - p) + 1) * 8;
			break;
		}
		case FLAT_BYTES:
		case FLAT_ARRAY:
			if (!ctf_bits_align(&d->bits, op->align) || !elements(d, op, op->count))
				return false;
			break;
		case FLAT_SEQ:
			if (!ctf_bits_align(&d->bits, op->align) || !elements(d, op, kept[op->length_op]))
				return false;
			break;
		}
	}
	return true;
}
