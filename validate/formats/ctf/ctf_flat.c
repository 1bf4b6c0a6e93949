/* SPDX-License-Identifier: MIT */
/*
 * Event scopes decoded from flat plans. Most events are a struct of integers, floats,
 * strings, arrays and sequences of those, after a header whose variant an enum selects: the
 * general decoder walks the type tree for each, builds every field's dotted path, and looks
 * lengths and tags up by name, which costs most of a check's time. A plan, made once per
 * scope type when the metadata is parsed, is the same walk unrolled: ops in field order, each
 * path written out once, every sequence length and variant tag the op of an earlier sibling.
 *
 * Decoding from a plan does exactly what the general decoder does when it succeeds: the same
 * values remembered in the same order under the same paths (none for an event's fields, the
 * last scope, which nothing after can name), the clock moved by the same fields, the event id
 * taken from the same one, the first unmapped enum value noted. It reports nothing: on any
 * failure the caller puts the decoder back and decodes the scope again with the general
 * decoder, which tells what failed. A type a plan cannot express (a tag or length that is not
 * an earlier sibling, a struct in an array, a path the general decoder would shorten) leaves
 * its scope on the general decoder.
 */
#include <stdlib.h>
#include <string.h>

#include "ctf.h"
#include "ctf_flat.h"
#include "ctf_nul.h"

#define FLAT_MAX_OPS 512  /* ops of one plan */
#define FLAT_MAX_NEST 8   /* structs and variants inside each other */
#define FLAT_PATH_MAX 127 /* the general decoder keeps paths shorter than this whole */

struct planner {
	struct ctf_meta *m;
	enum ctf_scope scope;
	struct ctf_flat_op *ops; /* FLAT_MAX_OPS */
	uint32_t n, ints;
	bool ok;
};

static struct ctf_flat_op *add(struct planner *p)
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

static void element(struct planner *p, struct ctf_flat_op *op, const struct ctf_type *e)
{
	op->type = e;
	op->size = e->size;
	op->align = e->align;
	op->big_endian = big(p->m, e);
	op->is_signed = e->is_signed;
	op->is_enum = e->kind == CTF_ENUM;
}

/* parent "." name (or name at the top), in the arena; NULL when the general decoder would cut it. */
static const char *path_of(struct planner *p, const char *parent, const char *name, size_t n)
{
	size_t plen = parent ? strlen(parent) : 0, len = plen + (plen ? 1 : 0) + n;
	if (len >= FLAT_PATH_MAX) {
		p->ok = false;
		return NULL;
	}
	char *s = ctf_alloc(&p->m->arena, len + 1);
	if (!s) {
		p->ok = false;
		return NULL;
	}
	if (plen) {
		memcpy(s, parent, plen);
		s[plen] = '.';
	}
	memcpy(s + len - n, name, n);
	s[len] = 0;
	return s;
}

/* Fields of a struct (or the one field of a variant option) in order: ops[] of each, by index. */
struct level {
	const struct ctf_field *fields;
	size_t nfields;
	uint32_t *op_of; /* the integer op of each field, or UINT32_MAX */
};

/* The op of an earlier field of this level named name: an integer (for lengths, unsigned). */
static bool sibling(const struct planner *p, const struct level *lv, size_t upto, const char *name, bool unsigned_only,
		    uint32_t *op)
{
	size_t n = strlen(name);
	for (size_t i = upto; i-- > 0;) {
		const struct ctf_field *f = &lv->fields[i];
		if (n != f->name_len || memcmp(f->name, name, n) != 0)
			continue;
		if (lv->op_of[i] == UINT32_MAX)
			return false;
		*op = lv->op_of[i];
		return !(unsigned_only && p->ops[*op].is_signed);
	}
	return false;
}

static void plan_field(struct planner *p, const struct level *lv, size_t i, const char *parent, unsigned nest);

/* One type named name at path parent.name: its ops. op_of: where an integer's op goes. */
static void plan_type(struct planner *p, const struct level *lv, size_t i, const struct ctf_type *t, const char *parent,
		      const char *name, size_t name_len, unsigned nest)
{
	if (!t) /* the general decoder reads nothing for it */
		return;
	if (nest > FLAT_MAX_NEST) {
		p->ok = false;
		return;
	}
	struct ctf_flat_op *op;
	switch (t->kind) {
	case CTF_INT:
	case CTF_ENUM:
		if (t->size < 1 || t->size > 64 || !(op = add(p))) {
			p->ok = false;
			return;
		}
		element(p, op, t);
		op->kind = FLAT_INT;
		op->clock = t->clock;
		op->is_id = p->scope == CTF_SC_EVENT_HEADER && name_len == 2 && !memcmp(name, "id", 2);
		op->ordinal = p->ints++;
		if (p->scope != CTF_SC_EVENT_FIELDS)
			op->path = path_of(p, parent, name, name_len);
		else if (!path_of(p, parent, name, name_len)) /* no path kept, but one it could keep */
			return;
		if (lv)
			lv->op_of[i] = p->n - 1;
		return;
	case CTF_VARINT: /* CTF 2's variable-length integers: the general decoder's */
		p->ok = false;
		return;
	case CTF_FLOAT:
		if (!scalar(t) || !(op = add(p))) {
			p->ok = false;
			return;
		}
		element(p, op, t);
		op->kind = FLAT_FLOAT;
		return;
	case CTF_STRING:
		if ((op = add(p)) != NULL)
			op->kind = FLAT_STRING;
		return;
	case CTF_STRUCT: {
		if (!(op = add(p)))
			return;
		op->kind = FLAT_ALIGN;
		op->align = t->align;
		const char *here = parent || name_len ? path_of(p, parent, name, name_len) : NULL;
		if (!p->ok)
			return;
		uint32_t *op_of = calloc(t->nfields ? t->nfields : 1, sizeof(*op_of));
		if (!op_of) {
			p->ok = false;
			return;
		}
		struct level inner = { t->fields, t->nfields, op_of };
		for (size_t k = 0; k < t->nfields; k++)
			op_of[k] = UINT32_MAX;
		for (size_t k = 0; k < t->nfields && p->ok; k++)
			plan_field(p, &inner, k, here, nest + 1);
		free(op_of);
		return;
	}
	case CTF_ARRAY:
	case CTF_SEQ: {
		const struct ctf_type *e = t->elem;
		if (!e) /* no element type: nothing is read (no alignment either) */
			return;
		uint32_t len_op = 0;
		/* the general decoder takes an event id from any integer named id, array elements too */
		if (p->scope == CTF_SC_EVENT_HEADER && name_len == 2 && !memcmp(name, "id", 2)) {
			p->ok = false;
			return;
		}
		if (!scalar(e) || (t->kind == CTF_SEQ && (!lv || !t->length_name || strchr(t->length_name, '.') ||
							   !sibling(p, lv, i, t->length_name, true, &len_op)))) {
			p->ok = false;
			return;
		}
		if (!(op = add(p)))
			return;
		element(p, op, e);
		op->kind = t->kind == CTF_ARRAY ? FLAT_ARRAY : FLAT_SEQ;
		op->count = t->length;
		op->ref = len_op;
		if (t->kind == CTF_SEQ && p->scope == CTF_SC_EVENT_FIELDS)
			p->ops[len_op].path = ""; /* its value is wanted: see ctf_decode_plan */
		return;
	}
	case CTF_VARIANT: {
		uint32_t tag_op;
		if (!lv || !t->tag || strchr(t->tag, '.') || !sibling(p, lv, i, t->tag, false, &tag_op) ||
		    !p->ops[tag_op].is_enum || t->nfields == 0) {
			p->ok = false;
			return;
		}
		const struct ctf_type *tt = p->ops[tag_op].type;
		int32_t *range_option = ctf_alloc(&p->m->arena, (tt->nranges ? tt->nranges : 1) * sizeof(*range_option));
		struct flat_option *options = ctf_alloc(&p->m->arena, t->nfields * sizeof(*options));
		if (!range_option || !options || !(op = add(p))) {
			p->ok = false;
			return;
		}
		const uint32_t at = p->n - 1;
		if (p->scope == CTF_SC_EVENT_FIELDS)
			p->ops[tag_op].path = ""; /* its value is wanted: see integer() */
		op->kind = FLAT_VARIANT;
		op->ref = tag_op;
		op->range_option = range_option;
		op->options = options;
		op->noptions = (uint32_t)t->nfields;
		/* The option a label selects, as the general decoder chooses it: a name equal to the
		 * label, else one that differs from it by a leading underscore. */
		for (size_t r = 0; r < tt->nranges; r++) {
			const char *label = tt->ranges[r].label;
			int32_t pick = -1;
			for (size_t k = 0; k < t->nfields && pick < 0 && label; k++)
				if (!strcmp(t->fields[k].name, label))
					pick = (int32_t)k;
			for (size_t k = 0; k < t->nfields && pick < 0 && label; k++) {
				const char *o = t->fields[k].name;
				if ((o[0] == '_' && !strcmp(o + 1, label)) || (label[0] == '_' && !strcmp(label + 1, o)))
					pick = (int32_t)k;
			}
			range_option[r] = pick;
		}
		const char *here = path_of(p, parent, name, name_len);
		for (size_t k = 0; k < t->nfields && p->ok; k++) {
			options[k].start = p->n;
			/* an option is decoded as a field of the variant: its own level, for its siblings */
			uint32_t op_of = UINT32_MAX;
			struct level one = { &t->fields[k], 1, &op_of };
			plan_field(p, &one, 0, here, nest + 1);
			options[k].end = p->n;
		}
		p->ops[at].end = p->n;
		return;
	}
	}
}

static void plan_field(struct planner *p, const struct level *lv, size_t i, const char *parent, unsigned nest)
{
	const struct ctf_field *f = &lv->fields[i];
	plan_type(p, lv, i, f->type, parent, f->name, f->name_len, nest);
}

/*
 * Can the op be stepped over with its neighbours? An integer or float of whole bytes whose
 * value nothing wants: no path kept (nor wanted as a length or tag), no clock, no event id, no
 * enumeration to map. first: it starts the run, and may align to any multiple of a byte; the
 * ops after it must need no padding (an alignment of at most a byte), so that the run's bytes
 * follow each other.
 */
static bool skippable(const struct ctf_flat_op *op, bool first)
{
	if ((op->kind != FLAT_INT && op->kind != FLAT_FLOAT) || op->path || op->clock || op->is_id || op->is_enum ||
	    op->size % 8 != 0)
		return false;
	return first ? op->align >= 8 && op->align % 8 == 0 : op->align <= 8;
}

/*
 * Runs of two or more skippable ops become one FLAT_SKIP (the first op rewritten; the others
 * stay, stepped over by its end), never across the start or end of a variant's option. Most
 * fields of most events are such integers: one bounds check for the run instead of one read each.
 */
static void merge_runs(struct ctf_flat_op *ops, uint32_t n)
{
	bool *edge = calloc(n + 1, sizeof(*edge));
	if (!edge)
		return; /* the ops as they are decode the same */
	for (uint32_t i = 0; i < n; i++) {
		if (ops[i].kind != FLAT_VARIANT)
			continue;
		edge[ops[i].end <= n ? ops[i].end : n] = true;
		for (uint32_t k = 0; k < ops[i].noptions; k++) {
			const struct flat_option *o = &ops[i].options[k];
			edge[o->start <= n ? o->start : n] = true;
			edge[o->end <= n ? o->end : n] = true;
		}
	}
	for (uint32_t i = 0; i < n;) {
		if (!skippable(&ops[i], true)) {
			i++;
			continue;
		}
		uint32_t j = i + 1;
		uint64_t bytes = ops[i].size / 8;
		while (j < n && !edge[j] && skippable(&ops[j], false)) {
			bytes += ops[j].size / 8;
			j++;
		}
		if (j - i >= 2) {
			ops[i].kind = FLAT_SKIP;
			ops[i].count = bytes;
			ops[i].end = j;
		}
		i = j;
	}
	free(edge);
}

/* A plan of a scope's type, in the arena; NULL when the type is not one a plan expresses. */
static const struct ctf_plan *plan(struct ctf_meta *m, struct ctf_flat_op *scratch, const struct ctf_type *t,
				   enum ctf_scope scope)
{
	if (!t || t->kind != CTF_STRUCT)
		return NULL;
	struct planner p = { m, scope, scratch, 0, 0, true };
	plan_type(&p, NULL, 0, t, NULL, "", 0, 0);
	if (!p.ok || p.n == 0)
		return NULL;
	struct ctf_plan *pl = ctf_alloc(&m->arena, sizeof(*pl));
	struct ctf_flat_op *ops = ctf_alloc(&m->arena, p.n * sizeof(*ops));
	if (!pl || !ops)
		return NULL;
	memcpy(ops, scratch, p.n * sizeof(*ops));
	merge_runs(ops, p.n);
	pl->ops = ops;
	pl->n = p.n;
	pl->scope = scope;
	return pl;
}

void ctf_flat_plan(struct ctf_meta *m)
{
	struct ctf_flat_op *scratch = malloc(FLAT_MAX_OPS * sizeof(*scratch));
	if (!scratch)
		return;
	for (size_t i = 0; i < m->nstreams; i++) {
		struct ctf_stream_class *s = &m->streams[i];
		s->header_plan = plan(m, scratch, s->event_header, CTF_SC_EVENT_HEADER);
		s->context_plan = plan(m, scratch, s->event_context, CTF_SC_STREAM_EVENT_CONTEXT);
	}
	for (size_t i = 0; i < m->nevents; i++) {
		struct ctf_event *ev = &m->events[i];
		ev->context_plan = plan(m, scratch, ev->context, CTF_SC_EVENT_CONTEXT);
		ev->fields_plan = plan(m, scratch, ev->fields, CTF_SC_EVENT_FIELDS);
	}
	free(scratch);
}

struct run {
	struct ctf_decoder *d;
	const struct ctf_plan *pl;
	uint64_t *vals; /* per op: the integer read */
	long *ranges;   /* per op of an enumeration: the range its value falls in, or -1 */
};

static bool integer(struct run *r, uint32_t i, const struct ctf_flat_op *op)
{
	struct ctf_decoder *d = r->d;
	uint64_t v;
	if (!ctf_bits_align(&d->bits, op->align) || !ctf_bits_read(&d->bits, op->size, op->big_endian, &v))
		return false;
	if (op->is_signed && op->size < 64 && (v >> (op->size - 1)) & 1)
		v |= ~0ull << op->size;
	if (op->clock)
		ctf_update_clock(d, op->is_signed && op->size < 64 ? v & ((1ull << op->size) - 1) : v, op->size);
	if (op->is_id) {
		d->event_id = v;
		d->has_event_id = true;
	}
	if (op->is_enum && (r->ranges[i] = ctf_enum_range(op->type, v)) < 0 && d->unmapped_enum_at == UINT64_MAX)
		d->unmapped_enum_at = d->bits.pos - op->size;
	r->vals[i] = v;
	if (r->pl->scope == CTF_SC_EVENT_FIELDS) {
		/* remembered by the general decoder, found there by a sequence: not past the bound */
		if (op->path && d->nvalues + op->ordinal >= CTF_MAX_VALUES)
			return false;
	} else if (op->path) {
		if (d->nvalues >= CTF_MAX_VALUES)
			return false; /* past the bound the general decoder forgets values: its way */
		struct ctf_value *x = &d->values[d->nvalues++];
		x->scope = r->pl->scope;
		x->path = op->path;
		x->v = v;
		x->type = op->type;
	}
	return true;
}

/* n elements of op's type, each aligned and read through the bounds-checked reader. */
static bool elements(struct ctf_decoder *d, const struct ctf_flat_op *op, uint64_t n)
{
	if (!ctf_bits_align(&d->bits, op->align))
		return false;
	if (op->type->kind == CTF_INT && op->size == 8 && op->align == 8) {
		if (n > (d->bits.limit - d->bits.pos) / 8)
			return false;
		d->bits.pos += n * 8;
		return true;
	}
	for (uint64_t k = 0; k < n; k++) {
		uint64_t before = d->bits.pos, v;
		if (!ctf_bits_align(&d->bits, op->align) || !ctf_bits_read(&d->bits, op->size, op->big_endian, &v))
			return false;
		if (op->is_enum) {
			if (op->is_signed && op->size < 64 && (v >> (op->size - 1)) & 1)
				v |= ~0ull << op->size;
			if (ctf_enum_range(op->type, v) < 0 && d->unmapped_enum_at == UINT64_MAX)
				d->unmapped_enum_at = d->bits.pos - op->size;
		}
		if (d->bits.pos == before && k > 0)
			break;
	}
	return true;
}

static bool exec(struct run *r, uint32_t from, uint32_t to)
{
	struct ctf_decoder *d = r->d;
	const struct ctf_flat_op *ops = r->pl->ops;
	for (uint32_t i = from; i < to; i++) {
		const struct ctf_flat_op *op = &ops[i];
		switch ((enum flat_kind)op->kind) {
		case FLAT_ALIGN:
			if (!ctf_bits_align(&d->bits, op->align))
				return false;
			break;
		case FLAT_INT:
			if (!integer(r, i, op))
				return false;
			break;
		case FLAT_FLOAT: {
			uint64_t v;
			if (!ctf_bits_align(&d->bits, op->align) || !ctf_bits_read(&d->bits, op->size, op->big_endian, &v))
				return false;
			break;
		}
		case FLAT_STRING: {
			if (!ctf_bits_align(&d->bits, 8))
				return false;
			uint64_t at = d->bits.pos / 8, end = d->bits.limit / 8;
			const uint8_t *p;
			if (at > end || !tfk_cur_bytes_at(d->bits.c, at, end - at, &p))
				return false;
			const uint64_t left = end - at, k = ctf_nul_in(p, left);
			if (k == left)
				return false;
			d->bits.pos = (at + k + 1) * 8;
			break;
		}
		case FLAT_SKIP: {
			if (!ctf_bits_align(&d->bits, op->align) || op->count > (d->bits.limit - d->bits.pos) / 8)
				return false;
			d->bits.pos += op->count * 8;
			i = op->end - 1; /* past the run */
			break;
		}
		case FLAT_ARRAY:
			if (!elements(d, op, op->count))
				return false;
			break;
		case FLAT_SEQ:
			if (!elements(d, op, r->vals[op->ref]))
				return false;
			break;
		case FLAT_VARIANT: {
			long range = r->ranges[op->ref]; /* the tag, an enumeration read before */
			if (range < 0 || op->range_option[range] < 0)
				return false;
			const struct flat_option *o = &op->options[op->range_option[range]];
			if (!exec(r, o->start, o->end))
				return false;
			i = op->end - 1; /* past every option */
			break;
		}
		}
	}
	return true;
}

bool ctf_decode_plan(struct ctf_decoder *d, const struct ctf_plan *pl)
{
	uint64_t vals[FLAT_MAX_OPS];
	long ranges[FLAT_MAX_OPS];
	struct run r = { d, pl, vals, ranges };
	ctf_values_drop(d, pl->scope);
	if (pl->scope == CTF_SC_EVENT_HEADER)
		d->has_event_id = false;
	return exec(&r, 0, pl->n);
}
