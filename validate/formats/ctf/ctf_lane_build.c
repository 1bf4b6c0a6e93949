/* SPDX-License-Identifier: MIT */
/*
 * Lanes compiled from the flat plans (see ctf_lane.h). A plan's ops become a lane when every
 * field keeps the position on a byte: integers and floats of whole bytes (aligned to a power
 * of two), strings, arrays of such numbers that need no padding between elements. What a
 * lane cannot do exactly as the plan does leaves the event (or the whole stream class) to the
 * careful walk: sequences, variants other than the header's, enumerations other than its tag,
 * clocks and event ids outside the header, signed tags, ids and clocks, a header whose fields
 * do not lie at fixed places from its start, or that has a string or two clock fields.
 */
#include <stdlib.h>
#include <string.h>

#include "ctf_flat.h"
#include "ctf_lane.h"
#include "../../grow.h"

#define LANE_MAX_IDS 65536u /* events of larger ids are the careful walk's */

/* An alignment in bits as bytes: 1 for a bit or a byte (a byte position keeps it), 0 when not a power of two. */
static uint32_t align_bytes(unsigned bits)
{
	if (bits && (bits & (bits - 1)))
		return 0;
	return bits > 8 ? bits / 8 : 1;
}

/* A number the lane may step over or read: whole bytes, and no padding inside an array of them. */
static bool whole(const struct ctf_flat_op *op)
{
	return op->size % 8 == 0 && align_bytes(op->align) &&
	       (op->kind != FLAT_ARRAY || ((op->align <= 8 || op->size % op->align == 0) && op->count <= UINT32_MAX / 8));
}

/* What a builder does with each kind of op: the one walk over a plan's ops (walk_ops). */
struct op_sink {
	void (*align)(void *b, unsigned bits);
	void (*bytes)(void *b, uint64_t n);
	void (*number)(void *b, const struct ctf_plan *pl, uint32_t i); /* an integer or float of whole bytes */
	void (*string)(void *b);                                        /* NULL: a string leaves the lane */
};

/* Ops [from, to) of a plan into a builder; *ok false: the lane cannot read them as the plan does. */
static void walk_ops(const struct op_sink *k, void *b, bool *ok, const struct ctf_plan *pl, uint32_t from, uint32_t to)
{
	for (uint32_t i = from; i < to && *ok; i++) {
		const struct ctf_flat_op *op = &pl->ops[i];
		switch ((enum flat_kind)op->kind) {
		case FLAT_ALIGN:
			k->align(b, op->align);
			break;
		case FLAT_INT:
		case FLAT_FLOAT:
			if (!whole(op))
				*ok = false;
			else
				k->number(b, pl, i);
			break;
		case FLAT_SKIP:
			k->align(b, op->align);
			k->bytes(b, op->count);
			i = op->end - 1;
			break;
		case FLAT_ARRAY:
			if (op->is_enum || !whole(op)) {
				*ok = false;
				break;
			}
			k->align(b, op->align);
			k->bytes(b, op->count * (op->size / 8));
			break;
		case FLAT_STRING:
			if (k->string)
				k->string(b);
			else
				*ok = false;
			break;
		case FLAT_SEQ:
		case FLAT_VARIANT:
			*ok = false;
			break;
		}
	}
}

/* ---- the header: one form per option of its variant ---- */

struct form_builder {
	struct ctf_lane_form form;
	uint32_t align;  /* the header's, grown while nothing is read */
	uint32_t tag;    /* the op of the variant's tag, or UINT32_MAX */
	struct ctf_lane_field tag_field;
	uint32_t values; /* integers the plan remembers */
	bool ok;
};

static void form_align(void *fb, unsigned bits)
{
	struct form_builder *b = fb;
	const uint32_t a = align_bytes(bits);
	if (!a) {
		b->ok = false;
	} else if (b->form.bytes == 0) {
		if (a > b->align)
			b->align = a; /* nothing read yet: the header starts at the stricter alignment */
	} else if (a > b->align) {
		b->ok = false; /* where the field lands depends on where the header began */
	} else {
		const uint32_t rem = b->form.bytes % a;
		if (rem)
			b->form.bytes += a - rem;
	}
}

static void form_bytes(void *fb, uint64_t n)
{
	struct form_builder *b = fb;
	if (n > UINT32_MAX - b->form.bytes)
		b->ok = false;
	else
		b->form.bytes += (uint32_t)n;
}

static void form_number(void *fb, const struct ctf_plan *pl, uint32_t i)
{
	struct form_builder *b = fb;
	const struct ctf_flat_op *op = &pl->ops[i];
	form_align(b, op->align);
	const struct ctf_lane_field f = { b->form.bytes, (uint8_t)(op->size / 8), (uint8_t)op->size, op->big_endian };
	if (op->kind == FLAT_INT) {
		if ((op->is_enum && i != b->tag) || (op->is_signed && (op->clock || op->is_id || op->is_enum)) ||
		    (op->clock && b->form.clock.bytes)) {
			b->ok = false; /* an enumeration to map, a signed role, or a second clock: the plan's */
			return;
		}
		if (op->clock)
			b->form.clock = f;
		if (op->is_id)
			b->form.id = f; /* the last field named id is the event's id */
		if (i == b->tag)
			b->tag_field = f;
		if (op->path)
			b->values++;
	}
	form_bytes(b, op->size / 8);
}

static const struct op_sink form_sink = { form_align, form_bytes, form_number, NULL };

/* Header ops [from, to) after what the form holds. */
static void form_ops(struct form_builder *b, const struct ctf_plan *pl, uint32_t from, uint32_t to)
{
	walk_ops(&form_sink, b, &b->ok, pl, from, to);
}

/* The header's variant (the last top-level op of its plan), UINT32_MAX when it has none, UINT32_MAX - 1 else. */
static uint32_t header_variant(const struct ctf_plan *pl)
{
	for (uint32_t i = 0; i < pl->n; i++) {
		const struct ctf_flat_op *op = &pl->ops[i];
		if (op->kind == FLAT_VARIANT)
			return op->end == pl->n ? i : UINT32_MAX - 1;
		if (op->kind == FLAT_SKIP)
			i = op->end - 1;
	}
	return UINT32_MAX;
}

/* The tag's ranges, in the order ctf_enum_range tries them. */
static bool tag_ranges(struct ctf_meta *m, struct ctf_lane *ln, const struct ctf_flat_op *v, const struct ctf_flat_op *tag)
{
	const struct ctf_type *tt = tag->type;
	if (tag->is_signed || !tt || tt->nranges == 0 || tt->nranges >= UINT32_MAX)
		return false;
	uint64_t *lo = ctf_alloc(&m->arena, tt->nranges * sizeof(*lo));
	uint64_t *hi = ctf_alloc(&m->arena, tt->nranges * sizeof(*hi));
	if (!lo || !hi)
		return false;
	for (size_t r = 0; r < tt->nranges; r++) {
		lo[r] = (uint64_t)tt->ranges[r].lo;
		hi[r] = (uint64_t)tt->ranges[r].hi;
	}
	ln->nranges = (uint32_t)tt->nranges;
	ln->lo = lo;
	ln->hi = hi;
	ln->range_form = v->range_option;
	return true;
}

/* The header's forms; false when the stream class has no lane. *values: what the header remembers at most. */
static bool header(struct ctf_meta *m, struct ctf_lane *ln, const struct ctf_stream_class *sc, uint32_t *values)
{
	struct form_builder b = { .align = 1, .tag = UINT32_MAX, .ok = true };
	const struct ctf_plan *pl = sc->header_plan;
	if (sc->event_header && !pl)
		return false;
	const uint32_t vi = pl ? header_variant(pl) : UINT32_MAX;
	if (vi == UINT32_MAX - 1)
		return false;
	const struct ctf_flat_op *v = vi == UINT32_MAX ? NULL : &pl->ops[vi];
	if (v)
		b.tag = v->ref;
	if (pl)
		form_ops(&b, pl, 0, v ? vi : pl->n);
	if (!b.ok || (v && (!b.tag_field.bytes || !tag_ranges(m, ln, v, &pl->ops[v->ref]))))
		return false;
	const uint32_t nforms = v ? v->noptions : 1;
	struct ctf_lane_form *forms = ctf_alloc(&m->arena, (nforms ? nforms : 1) * sizeof(*forms));
	if (!forms)
		return false;
	ln->align = b.align;
	ln->prefix_bytes = b.form.bytes;
	ln->tag = b.tag_field;
	*values = b.values;
	for (uint32_t k = 0; k < nforms; k++) {
		struct form_builder o = b; /* each option goes on from the prefix */
		if (v)
			form_ops(&o, pl, v->options[k].start, v->options[k].end);
		o.form.ok = o.ok && o.align == b.align;
		forms[k] = o.form;
		if (o.values > *values)
			*values = o.values;
	}
	ln->forms = forms;
	return true;
}

/* ---- the rest of each event: steps ---- */

struct step_builder {
	struct ctf_lane_step *steps;
	uint32_t n;
	size_t cap;
	bool open;       /* the last step takes more fixed bytes */
	bool ok;
	uint32_t values; /* integers the plans remember */
};

static struct ctf_lane_step *new_step(struct step_builder *b, uint32_t align)
{
	void *steps = b->steps;
	bool grown = b->n < UINT32_MAX && tfk_array_grow(&steps, &b->cap, (size_t)b->n + 1, sizeof(*b->steps), 0);
	b->steps = steps;
	if (!grown) {
		b->ok = false;
		return NULL;
	}
	struct ctf_lane_step *s = &b->steps[b->n++];
	memset(s, 0, sizeof(*s));
	s->align = align;
	b->open = true;
	return s;
}

/* The step more fixed bytes go to: the open one, or a new one. */
static struct ctf_lane_step *step(struct step_builder *b)
{
	return b->open ? &b->steps[b->n - 1] : new_step(b, 1);
}

static void step_align(void *sb, unsigned bits)
{
	struct step_builder *b = sb;
	const uint32_t a = align_bytes(bits);
	if (!a) {
		b->ok = false;
		return;
	}
	if (a == 1)
		return;
	struct ctf_lane_step *s = b->open ? &b->steps[b->n - 1] : NULL;
	if (s && s->bytes == 0) {
		if (a > s->align)
			s->align = a; /* nothing read yet: the step starts at the stricter alignment */
	} else if (!s || s->align < a || s->bytes % a) {
		new_step(b, a); /* where this lands depends on where the step began */
	} /* else already on a multiple of a */
}

static void step_bytes(void *sb, uint64_t n)
{
	struct step_builder *b = sb;
	struct ctf_lane_step *s = step(b);
	if (!s || n > UINT32_MAX - s->bytes)
		b->ok = false;
	else
		s->bytes += (uint32_t)n;
}

/* The walk needs nothing from the rest of an event: a clock, an id or an enumeration there is the plan's. */
static void step_number(void *sb, const struct ctf_plan *pl, uint32_t i)
{
	struct step_builder *b = sb;
	const struct ctf_flat_op *op = &pl->ops[i];
	if (op->kind == FLAT_INT && (op->clock || op->is_id || op->is_enum)) {
		b->ok = false;
		return;
	}
	if (op->kind == FLAT_INT && op->path && pl->scope != CTF_SC_EVENT_FIELDS)
		b->values++;
	step_align(b, op->align);
	step_bytes(b, op->size / 8);
}

static void step_string(void *sb)
{
	struct step_builder *b = sb;
	struct ctf_lane_step *s = step(b);
	if (s)
		s->string = true;
	b->open = false; /* what follows starts wherever the string ends */
}

static const struct op_sink step_sink = { step_align, step_bytes, step_number, step_string };

/* A scope of an event's body: nothing without a type, else its plan's ops as steps. */
static void body_scope(struct step_builder *b, const struct ctf_type *t, const struct ctf_plan *pl)
{
	if (!t)
		return;
	if (!pl)
		b->ok = false;
	else
		walk_ops(&step_sink, b, &b->ok, pl, 0, pl->n);
}

/* The bodies of the stream class's events by id (the first event of an id, as ctf_find_event finds it). */
static bool bodies(struct ctf_meta *m, struct step_builder *b, struct ctf_lane *ln, const struct ctf_stream_class *sc,
		   uint32_t header_values)
{
	uint64_t nids = 0;
	for (size_t i = 0; i < m->nevents; i++)
		if (m->events[i].stream_id == sc->id && m->events[i].id < LANE_MAX_IDS && m->events[i].id + 1 > nids)
			nids = m->events[i].id + 1;
	const size_t slots = nids ? nids : 1;
	struct ctf_lane_seq *by_id = ctf_alloc(&m->arena, slots * sizeof(*by_id));
	bool *done = calloc(slots, sizeof(*done));
	if (!by_id || !done) {
		free(done);
		return false;
	}
	memset(by_id, 0, slots * sizeof(*by_id));
	uint32_t most = 0;
	for (size_t i = 0; i < m->nevents; i++) {
		const struct ctf_event *ev = &m->events[i];
		if (ev->stream_id != sc->id || ev->id >= nids || done[ev->id])
			continue;
		done[ev->id] = true;
		b->ok = true;
		b->open = false;
		b->values = 0;
		struct ctf_lane_seq s = { b->n, 0, false };
		body_scope(b, sc->event_context, sc->context_plan);
		body_scope(b, ev->context, ev->context_plan);
		body_scope(b, ev->fields, ev->fields_plan);
		s.n = b->n - s.first;
		s.ok = b->ok;
		if (!s.ok)
			b->n = s.first; /* its steps are of no use */
		else if (b->values > most)
			most = b->values;
		by_id[ev->id] = s;
	}
	free(done);
	ln->by_id = by_id;
	ln->nids = (uint32_t)nids;
	ln->max_values = header_values + most;
	return true;
}

static const struct ctf_lane *lane(struct ctf_meta *m, const struct ctf_stream_class *sc)
{
	struct ctf_lane *ln = ctf_alloc(&m->arena, sizeof(*ln));
	if (!ln)
		return NULL;
	memset(ln, 0, sizeof(*ln));
	uint32_t header_values = 0;
	struct step_builder b = { 0 };
	const struct ctf_lane *out = NULL;
	if (header(m, ln, sc, &header_values) && bodies(m, &b, ln, sc, header_values)) {
		struct ctf_lane_step *steps = ctf_alloc(&m->arena, (b.n ? b.n : 1) * sizeof(*steps));
		if (steps) {
			if (b.n)
				memcpy(steps, b.steps, b.n * sizeof(*steps));
			ln->steps = steps;
			out = ln;
		}
	}
	free(b.steps);
	return out;
}

void ctf_lane_build(struct ctf_meta *m)
{
	for (size_t i = 0; i < m->nstreams; i++)
		m->streams[i].lane = lane(m, &m->streams[i]);
}
