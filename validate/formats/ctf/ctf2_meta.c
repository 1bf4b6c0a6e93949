/* SPDX-License-Identifier: MIT */
/*
 * CTF 2 metadata (CTF2-SPEC-2.0): the fragments of the JSON text sequence in order, each read
 * by the strict JSON reader (ctf_json.c), checked against the requirements of its type, and
 * built into the model: preamble first (version 2), at most one trace class (before any data
 * stream class), clock classes, data stream classes, event record classes, field class
 * aliases, every id unique and every reference to an earlier fragment. A fragment that breaks
 * a requirement is reported and left out; the rest still decode the streams.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf2.h"
#include "ctf_lane.h"
#include "tracefsck/catalog.h"
#include "tracefsck/quirk.h"
#include "writer_version.h"

static void said(struct ctf2 *b, struct tfk_finding *f)
{
	tfk_set_path(f, "metadata fragment %llu%s%s", (unsigned long long)b->frag, b->frag_type ? " " : "",
		     b->frag_type ? b->frag_type : "");
}

__attribute__((format(printf, 5, 0))) static void vbad(struct ctf2 *b, enum tfk_fault_code code, uint64_t at,
							       const char *expected, const char *found_fmt, va_list ap)
{
	b->bad = true;
	if (b->reports++ >= CTF2_MAX_REPORTS) {
		tfk_count_only(b->ctx, code);
		return;
	}
	struct tfk_finding *f = tfk_emit(b->ctx, code, ctf_text_file_offset(b->text, at), 1);
	said(b, f);
	tfk_set_expected(f, "%s", expected);
	char found[160];
	vsnprintf(found, sizeof(found), found_fmt, ap);
	tfk_set_found(f, "%s", found);
}

/* At a value's first byte. */
void ctf2_bad(struct ctf2 *b, enum tfk_fault_code code, const struct cj_value *v, const char *expected,
	      const char *found_fmt, ...)
{
	va_list ap;
	va_start(ap, found_fmt);
	vbad(b, code, v ? v->at : 0, expected, found_fmt, ap);
	va_end(ap);
}

/* At a member's key (a property that should not be there). */
__attribute__((format(printf, 4, 5))) static void bad_key(struct ctf2 *b, const struct cj_value *m,
							   const char *expected, const char *found_fmt, ...)
{
	va_list ap;
	va_start(ap, found_fmt);
	vbad(b, TFK_CTF_METADATA_FRAGMENT_BAD, m->key_at, expected, found_fmt, ap);
	va_end(ap);
}

void ctf2_draft(struct ctf2 *b, const struct cj_value *v, const char *what)
{
	b->draft = true;
	if (b->draft_said)
		return;
	b->draft_said = true;
	struct tfk_finding *f = tfk_emit(b->ctx, TFK_CTF_METADATA_CTF2_DRAFT, ctf_text_file_offset(b->text, v ? v->at : 0), 1);
	said(b, f);
	tfk_set_expected(f, "CTF2-SPEC-2.0 metadata");
	tfk_set_found(f, "%s, of a pre-release draft", what);
}

void ctf2_unsupported(struct ctf2 *b, const struct cj_value *v, const char *what)
{
	if (b->unsupported)
		return;
	b->unsupported = true;
	struct tfk_finding *f = tfk_emit(b->ctx, TFK_CTF_METADATA_CTF2, ctf_text_file_offset(b->text, v ? v->at : 0), 1);
	said(b, f);
	tfk_set_expected(f, "field classes this build decodes");
	tfk_set_found(f, "%s", what);
	b->ctx->report->incomplete = true;
}

static bool listed(const char *const *list, const char *key, bool *required)
{
	for (size_t i = 0; list && list[i]; i++) {
		const char *k = list[i][0] == '*' ? list[i] + 1 : list[i];
		if (!strcmp(k, key)) {
			if (required)
				*required = list[i][0] == '*';
			return true;
		}
	}
	return false;
}

bool ctf2_props(struct ctf2 *b, const struct cj_value *obj, const char *const *allowed, const char *const *draft)
{
	if (!obj || obj->kind != CJ_OBJECT) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, obj, "a JSON object", "another value");
		return false;
	}
	bool ok = true;
	for (const struct cj_value *m = obj->first; m; m = m->next) {
		if (listed(allowed, m->key, NULL))
			continue;
		if (listed(draft, m->key, NULL)) {
			char what[96];
			snprintf(what, sizeof(what), "property \"%.40s\"", m->key);
			ctf2_draft(b, m, what);
			continue;
		}
		bad_key(b, m, "a property the specification defines here", "property \"%.60s\"", m->key);
		ok = false;
	}
	for (size_t i = 0; allowed && allowed[i]; i++) {
		if (allowed[i][0] != '*' || cj_get(obj, allowed[i] + 1))
			continue;
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, obj, "a required property", "no \"%s\"", allowed[i] + 1);
		ok = false;
	}
	return ok;
}

bool ctf2_uint(struct ctf2 *b, const struct cj_value *obj, const char *key, uint64_t dflt, uint64_t *out)
{
	const struct cj_value *v = cj_get(obj, key);
	*out = dflt;
	if (!v)
		return true;
	if (v->kind != CJ_UINT) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, v, "an unsigned integer", "\"%s\" of another type", key);
		return false;
	}
	*out = v->u;
	return true;
}

const char *ctf2_str(struct ctf2 *b, const struct cj_value *obj, const char *key)
{
	const struct cj_value *v = cj_get(obj, key);
	if (!v)
		return NULL;
	if (v->kind != CJ_STRING) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, v, "a string", "\"%s\" of another type", key);
		return NULL;
	}
	return v->s;
}

/* A UUID: an array of 16 integers of 0 to 255. */
static bool uuid(struct ctf2 *b, const struct cj_value *v, uint8_t out[16])
{
	bool ok = v && v->kind == CJ_ARRAY && v->n == 16;
	size_t k = 0;
	for (const struct cj_value *e = ok ? v->first : NULL; e && ok; e = e->next, k++) {
		ok = e->kind == CJ_UINT && e->u <= 255;
		out[k] = (uint8_t)e->u;
	}
	if (!ok)
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, v, "a UUID: an array of 16 integers of 0 to 255", "another value");
	return ok;
}

static const char *const common[] = { "*type", "attributes", "extensions" };
static const char *const draft_common[] = { "user-attributes", NULL };

/* The fragment's own properties with the common ones. */
static bool frag_props(struct ctf2 *b, const struct cj_value *obj, const char *const *own, const char *const *draft)
{
	const char *all[24], *dr[12];
	size_t n = 0, d = 0;
	for (size_t i = 0; i < 3; i++)
		all[n++] = common[i];
	for (size_t i = 0; own[i] && n < 23; i++)
		all[n++] = own[i];
	all[n] = NULL;
	for (size_t i = 0; draft_common[i]; i++)
		dr[d++] = draft_common[i];
	for (size_t i = 0; draft && draft[i] && d < 11; i++)
		dr[d++] = draft[i];
	dr[d] = NULL;
	const struct cj_value *ext = cj_get(obj, "extensions");
	if (ext && ext->kind == CJ_OBJECT && ext->n)
		ctf2_unsupported(b, ext, "extensions");
	return ctf2_props(b, obj, all, dr);
}

static bool grow(struct ctf2 *b, void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return true;
	size_t ncap = *cap ? *cap * 2 : 16;
	void *na = ctf_alloc(&b->m->arena, ncap * elem);
	if (!na) {
		b->bad = true;
		return false;
	}
	if (n)
		memcpy(na, *arr, n * elem);
	*arr = na;
	*cap = ncap;
	return true;
}

struct state {
	bool preamble, trace_class, any_stream, streams_ok;
	uint64_t fragments;
};

static void env_value(struct ctf_meta *m, const struct cj_value *e)
{
	if (!strcmp(e->key, "tracer_name") && e->kind == CJ_STRING)
		snprintf(m->tracer_name, sizeof(m->tracer_name), "%s", e->s);
	else if (e->kind == CJ_UINT && e->u <= INT64_MAX) {
		if (!strcmp(e->key, "tracer_major"))
			m->tracer_major = (int64_t)e->u;
		else if (!strcmp(e->key, "tracer_minor"))
			m->tracer_minor = (int64_t)e->u;
		else if (!strcmp(e->key, "tracer_patchlevel") || !strcmp(e->key, "tracer_patch"))
			m->tracer_patch = (int64_t)e->u;
	}
}

static void trace_class(struct ctf2 *b, struct state *st, const struct cj_value *o)
{
	static const char *const own[] = { "namespace", "name", "uid", "environment", "packet-header-field-class", NULL },
				 *const draft[] = { "uuid", NULL };
	if (st->trace_class || st->any_stream) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_ORDER, o,
			 "one trace class, before every data stream class",
			 st->trace_class ? "a second trace class" : "a trace class after a data stream class");
		return;
	}
	st->trace_class = true;
	if (!frag_props(b, o, own, draft))
		return;
	(void)ctf2_str(b, o, "namespace");
	(void)ctf2_str(b, o, "name");
	(void)ctf2_str(b, o, "uid");
	const struct cj_value *u = cj_get(o, "uuid");
	uint8_t id[16];
	if (u && uuid(b, u, id) && !b->m->have_uuid) {
		memcpy(b->m->uuid, id, 16);
		b->m->have_uuid = true;
	}
	const struct cj_value *env = cj_get(o, "environment");
	if (env) {
		if (env->kind != CJ_OBJECT) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, env, "an object of strings and integers", "another value");
			return;
		}
		for (const struct cj_value *e = env->first; e; e = e->next) {
			if (e->kind != CJ_STRING && e->kind != CJ_UINT && e->kind != CJ_INT) {
				ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, e, "a string or integer environment entry",
					 "another value");
				return;
			}
			env_value(b->m, e);
		}
	}
	const struct cj_value *ph = cj_get(o, "packet-header-field-class");
	if (ph && !b->bad) {
		b->m->packet_header = ctf2_scope(b, CTF_SC_PACKET_HEADER, ph);
		if (!b->m->packet_header)
			b->bad = true;
	}
}

static void clock_class(struct ctf2 *b, const struct cj_value *o)
{
	static const char *const own[] = { "id", "namespace", "name", "uid", "*frequency", "description", "origin",
					   "offset-from-origin", "precision", "accuracy", NULL },
				 *const draft[] = { "uuid", "origin-is-unix-epoch", NULL };
	if (!frag_props(b, o, own, draft))
		return;
	const char *id = ctf2_str(b, o, "id");
	if (!id) {
		/* the draft named clock classes and had no id */
		id = ctf2_str(b, o, "name");
		if (!id || cj_get(o, "id")) {
			if (!b->bad)
				ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, o, "a required property", "no \"id\"");
			return;
		}
		ctf2_draft(b, o, "a clock class without an id");
	}
	uint64_t freq, prec;
	if (!ctf2_uint(b, o, "frequency", 0, &freq) || !ctf2_uint(b, o, "precision", 0, &prec) ||
	    !ctf2_uint(b, o, "accuracy", 0, &prec))
		return;
	if (freq == 0) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(o, "frequency"), "a frequency of at least 1 Hz", "0");
		return;
	}
	const struct cj_value *off = cj_get(o, "offset-from-origin");
	if (off) {
		static const char *const ok[] = { "seconds", "cycles", NULL };
		if (!ctf2_props(b, off, ok, NULL))
			return;
		const struct cj_value *s = cj_get(off, "seconds");
		if (s && s->kind != CJ_UINT && s->kind != CJ_INT) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, s, "an integer", "another value");
			return;
		}
		uint64_t cycles;
		if (!ctf2_uint(b, off, "cycles", 0, &cycles))
			return;
		if (cycles >= freq) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(off, "cycles"), "cycles below the frequency",
				 "%llu cycles at %llu Hz", (unsigned long long)cycles, (unsigned long long)freq);
			return;
		}
	}
	const struct cj_value *origin = cj_get(o, "origin");
	if (origin && !(origin->kind == CJ_STRING && !strcmp(origin->s, "unix-epoch"))) {
		static const char *const ok[] = { "namespace", "*name", "*uid", NULL };
		if (origin->kind != CJ_OBJECT) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, origin, "\"unix-epoch\" or an origin object", "another value");
			return;
		}
		if (!ctf2_props(b, origin, ok, NULL))
			return;
	}
	if (ctf2_names_get(&b->clocks, id, 0, 0)) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DUPLICATE, cj_get(o, "id") ? cj_get(o, "id") : o,
			 "a clock class id not declared before", "\"%.60s\" again", id);
		return;
	}
	const char *kept = b->bad ? NULL : ctf_strndup(&b->m->arena, id, strlen(id)); /* outlives the fragment's JSON */
	if (!b->bad && (!kept || !ctf2_names_put(&b->clocks, &b->m->arena, kept, 0, 0, kept)))
		b->bad = true;
}

static bool has_clock(const struct ctf2 *b, const char *id)
{
	return ctf2_names_get(&b->clocks, id, 0, 0) != NULL;
}

static void stream_class(struct ctf2 *b, struct state *st, const struct cj_value *o)
{
	static const char *const own[] = { "id", "namespace", "name", "uid", "default-clock-class-id",
					   "packet-context-field-class", "event-record-header-field-class",
					   "event-record-common-context-field-class", NULL },
				 *const draft[] = { "default-clock-class-name", NULL };
	st->any_stream = true;
	if (!frag_props(b, o, own, draft))
		return;
	uint64_t id;
	if (!ctf2_uint(b, o, "id", 0, &id))
		return;
	if (ctf2_names_get(&b->streams, NULL, id, 0)) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DUPLICATE, cj_get(o, "id") ? cj_get(o, "id") : o,
			 "a data stream class id not declared before", "id %llu again", (unsigned long long)id);
		return;
	}
	const char *clk = ctf2_str(b, o, "default-clock-class-id");
	const char *key = "default-clock-class-id";
	if (!clk && (clk = ctf2_str(b, o, "default-clock-class-name")) != NULL)
		key = "default-clock-class-name";
	if (clk && !has_clock(b, clk)) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DANGLING, cj_get(o, key), "the id of an earlier clock class",
		 "\"%.60s\"", clk);
		return;
	}
	if (b->bad)
		return;
	b->has_clock = clk != NULL;
	for (int s = CTF_SC_PACKET_CONTEXT; s < CTF_SC_COUNT; s++)
		b->roots[s] = NULL;
	struct ctf_stream_class sc = { 0 };
	sc.id = id;
	sc.line = (unsigned)b->frag;
	const struct cj_value *pc = cj_get(o, "packet-context-field-class"), *eh = cj_get(o, "event-record-header-field-class"),
		      *ec = cj_get(o, "event-record-common-context-field-class");
	if ((pc && !(sc.packet_context = ctf2_scope(b, CTF_SC_PACKET_CONTEXT, pc))) ||
	    (eh && !(sc.event_header = ctf2_scope(b, CTF_SC_EVENT_HEADER, eh))) ||
	    (ec && !(sc.event_context = ctf2_scope(b, CTF_SC_STREAM_EVENT_CONTEXT, ec))) || b->bad) {
		b->bad = true;
		st->streams_ok = false;
		return;
	}
	if (!grow(b, (void **)&b->m->streams, &b->m->cap_streams, b->m->nstreams, sizeof(*b->m->streams)) ||
	    !ctf2_names_put(&b->streams, &b->m->arena, NULL, id, 0, (const void *)(uintptr_t)(b->m->nstreams + 1))) {
		b->bad = true;
		return;
	}
	b->m->streams[b->m->nstreams++] = sc;
}

static void event_class(struct ctf2 *b, const struct cj_value *o)
{
	static const char *const own[] = { "id", "namespace", "name", "uid", "data-stream-class-id",
				   "specific-context-field-class", "payload-field-class", NULL };
	if (!frag_props(b, o, own, NULL))
		return;
	uint64_t id, sid;
	if (!ctf2_uint(b, o, "id", 0, &id) || !ctf2_uint(b, o, "data-stream-class-id", 0, &sid))
		return;
	const char *name = ctf2_str(b, o, "name");
	/* the table holds the class's index + 1 (the array of classes moves as it grows) */
	const uintptr_t at = (uintptr_t)ctf2_names_get(&b->streams, NULL, sid, 0);
	const struct ctf_stream_class *sc = at ? &b->m->streams[at - 1] : NULL;
	if (!sc) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DANGLING,
			 cj_get(o, "data-stream-class-id") ? cj_get(o, "data-stream-class-id") : o,
			 "the id of an earlier data stream class", "%llu", (unsigned long long)sid);
		return;
	}
	if (ctf2_names_get(&b->events, NULL, sid, id)) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DUPLICATE, cj_get(o, "id") ? cj_get(o, "id") : o,
			 "an event record class id not declared before in its data stream class",
			 "id %llu of data stream class %llu again", (unsigned long long)id, (unsigned long long)sid);
		return;
	}
	if (b->bad)
		return;
	/* the scopes before this one: the stream class's */
	b->roots[CTF_SC_PACKET_CONTEXT] = sc->packet_context;
	b->roots[CTF_SC_EVENT_HEADER] = sc->event_header;
	b->roots[CTF_SC_STREAM_EVENT_CONTEXT] = sc->event_context;
	b->roots[CTF_SC_EVENT_CONTEXT] = NULL;
	b->roots[CTF_SC_EVENT_FIELDS] = NULL;
	b->has_clock = false;
	struct ctf_event ev = { 0 };
	ev.id = id;
	ev.stream_id = sid;
	ev.line = (unsigned)b->frag;
	ev.name = name ? ctf_strndup(&b->m->arena, name, strlen(name)) : NULL;
	const struct cj_value *cx = cj_get(o, "specific-context-field-class"), *pl = cj_get(o, "payload-field-class");
	if ((cx && !(ev.context = ctf2_scope(b, CTF_SC_EVENT_CONTEXT, cx))) ||
	    (pl && !(ev.fields = ctf2_scope(b, CTF_SC_EVENT_FIELDS, pl))) || b->bad) {
		b->bad = true;
		return;
	}
	if (!grow(b, (void **)&b->m->events, &b->m->cap_events, b->m->nevents, sizeof(*b->m->events)) ||
	    !ctf2_names_put(&b->events, &b->m->arena, NULL, sid, id, "")) {
		b->bad = true;
		return;
	}
	b->m->events[b->m->nevents++] = ev;
}

static void alias(struct ctf2 *b, const struct cj_value *o)
{
	static const char *const own[] = { "*name", "*field-class", NULL };
	if (!frag_props(b, o, own, NULL))
		return;
	const char *name = ctf2_str(b, o, "name");
	if (!name)
		return;
	if (ctf2_names_get(&b->aliases, name, 0, 0)) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DUPLICATE, cj_get(o, "name"), "a field class alias name not declared before",
			 "\"%.60s\" again", name);
		return;
	}
	/* built once here to check it (in no scope: a role or location is checked where it is used) */
	const struct cj_value *fc = cj_get(o, "field-class");
	if (fc && fc->kind == CJ_STRING && !strcmp(fc->s, name)) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DANGLING, fc, "the name of an earlier alias", "itself");
		return;
	}
	if (fc && fc->kind == CJ_STRING) {
		if (!ctf2_names_get(&b->aliases, fc->s, 0, 0)) {
			ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_DANGLING, fc, "the name of an earlier field-class-alias fragment",
				 "\"%.60s\"", fc->s);
			return;
		}
	} else if (!fc || fc->kind != CJ_OBJECT) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, fc ? fc : o, "a field class object or an alias name", "another value");
		return;
	}
	if (!ctf2_names_put(&b->aliases, &b->m->arena, name, 0, 0, fc))
		b->bad = true;
}

static void preamble(struct ctf2 *b, struct state *st, const struct cj_value *o)
{
	static const char *const own[] = { "*version", "uuid", NULL };
	if (st->preamble || st->fragments != 0) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_ORDER, o, "the preamble as the first fragment, once",
			 st->preamble ? "a second preamble" : "a preamble after other fragments");
		return;
	}
	st->preamble = true;
	if (!frag_props(b, o, own, NULL))
		return;
	uint64_t version;
	if (!ctf2_uint(b, o, "version", 0, &version))
		return;
	if (version != 2) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, cj_get(o, "version"), "version 2", "%llu", (unsigned long long)version);
		return;
	}
	b->m->major = 2;
	b->m->minor = 0;
	const struct cj_value *u = cj_get(o, "uuid");
	if (u && uuid(b, u, b->m->uuid))
		b->m->have_uuid = true;
}

static void fragment(struct ctf2 *b, struct state *st, const struct cj_value *o)
{
	const char *type = NULL;
	const struct cj_value *t = cj_get(o, "type");
	if (!t || t->kind != CJ_STRING) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, t ? t : o, "a fragment type", t ? "a type of another JSON type" : "none");
		return;
	}
	type = t->s;
	b->frag_type = type;
	if (!st->preamble && strcmp(type, "preamble")) {
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_ORDER, o, "the preamble as the first fragment", "\"%.40s\" first", type);
		st->preamble = true; /* said once; the fragments are still read */
	}
	if (!strcmp(type, "preamble"))
		preamble(b, st, o);
	else if (!strcmp(type, "trace-class"))
		trace_class(b, st, o);
	else if (!strcmp(type, "clock-class"))
		clock_class(b, o);
	else if (!strcmp(type, "data-stream-class"))
		stream_class(b, st, o);
	else if (!strcmp(type, "event-record-class"))
		event_class(b, o);
	else if (!strcmp(type, "field-class-alias"))
		alias(b, o);
	else
		ctf2_bad(b, TFK_CTF_METADATA_FRAGMENT_BAD, t, "a fragment type of CTF 2", "\"%.60s\"", type);
}

/* Text [from, to) for repair to leave out (file offsets of plain metadata; packetized is not repaired so). */
static void drop(struct ctf_meta *m, const struct ctf_text *text, size_t from, size_t to)
{
	if (m->ctf2_ndrops == TFK_CTF_MAX_DROPS) {
		m->ctf2_drops_overflow = true;
		return;
	}
	m->ctf2_drop_from[m->ctf2_ndrops] = ctf_text_file_offset(text, from);
	m->ctf2_drop_to[m->ctf2_ndrops] = ctf_text_file_offset(text, to);
	m->ctf2_ndrops++;
}

static int event_cmp(const void *a, const void *b)
{
	const struct ctf_event *x = a, *y = b;
	if (x->stream_id != y->stream_id)
		return x->stream_id < y->stream_id ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return 0;
}

void ctf2_check_metadata(struct tfk_ctx *ctx, const struct ctf_text *text, struct ctf_meta *meta)
{
	struct ctf2 *b = tfk_calloc(ctx, 1, sizeof(*b));
	if (!b) {
		ctx->report->incomplete = true;
		return;
	}
	b->ctx = ctx;
	b->m = meta;
	b->text = text;
	meta->ctf2 = true;
	struct state st = { 0 };
	st.streams_ok = true;
	struct cj_budget budget = { 0 };
	bool fatal = false; /* a fragment the trace class or stream classes needed is gone */
	size_t at = 0;
	for (uint64_t index = 0; at < text->len && !meta->arena.failed; index++) {
		/* text[at] is an RS: the fragment runs to the next one */
		const char *next = memchr(text->s + at + 1, 0x1e, text->len - at - 1);
		const size_t to = next ? (size_t)(next - text->s) : text->len;
		bool cut = false;
		size_t trailing = to;
		b->frag = index;
		b->frag_type = NULL;
		b->reports = 0;
		b->bad = false;
		/*
		 * The fragment's JSON lives in an arena of its own, freed once the fragment is built
		 * into the model: only an alias's is kept (each use builds from it). The model's
		 * arena bound then counts the model, and the JSON of the largest fragment.
		 */
		const size_t base = meta->arena.used_total;
		struct ctf_arena json = { ctx, NULL, base, false };
		const struct cj_value *o = ctf_json_fragment(ctx, &json, text, at + 1, to, index, &budget, &cut, &trailing);
		if (cut) {
			meta->ctf2_cut_at = ctf_text_file_offset(text, at);
			meta->ctf2_cut = true;
		}
		if (!o)
			drop(meta, text, at, to); /* the whole fragment: nothing of it is read */
		else if (trailing < to)
			drop(meta, text, trailing, to);
		if (!o && index == 0)
			st.preamble = true; /* the first fragment is there, if not readable: not "missing" */
		const size_t aliases = b->aliases.n;
		if (o) {
			fragment(b, &st, o);
			if (b->bad && b->frag_type && strcmp(b->frag_type, "event-record-class") &&
			    strcmp(b->frag_type, "field-class-alias") && strcmp(b->frag_type, "clock-class"))
				fatal = true;
		} else if (!cut) {
			fatal = fatal || index == 0;
			meta->ctf2_bad_fragments++;
		}
		if (o && !b->bad)
			meta->ctf2_whole_end = ctf_text_file_offset(text, to);
		st.fragments++;
		at = to;
		if (json.failed)
			meta->arena.failed = true;
		json.used_total -= base; /* what its chunks hold (it began counting from the model's) */
		if (b->aliases.n != aliases)
			ctf_arena_adopt(&meta->arena, &json);
		else
			ctf_arena_free(&json);
	}
	free(budget.scratch);
	if (!st.preamble && !meta->arena.failed) {
		b->frag_type = NULL;
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_FRAGMENT_MISSING, 0, 1);
		tfk_set_path(f, "metadata");
		tfk_set_expected(f, "a preamble fragment first");
		tfk_set_found(f, "none");
		fatal = true;
	}
	if (meta->nstreams == 0 && st.streams_ok && !fatal) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_FRAGMENT_MISSING, text->len ? ctf_text_file_offset(text, 0) : 0, 1);
		tfk_set_path(f, "metadata");
		tfk_set_expected(f, "at least one data-stream-class fragment");
		tfk_set_found(f, "none");
		fatal = true;
	}
	if (meta->nstreams > 1 && meta->packet_header) {
		bool sid = false;
		for (size_t i = 0; i < meta->packet_header->nfields; i++)
			sid = sid || !strcmp(meta->packet_header->fields[i].name, "stream_id");
		if (!sid) {
			struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_FRAGMENT_BAD, ctf_text_file_offset(text, 0), 1);
			tfk_set_path(f, "metadata trace-class");
			tfk_set_expected(f, "a data-stream-class-id role in the packet header: there are %zu data stream classes",
					 meta->nstreams);
			tfk_set_found(f, "none");
			fatal = true;
		}
	}
	if (meta->arena.failed) {
		tfk_limit_hit(ctx, 0, "CTF metadata model bytes", meta->arena.used_total, CTF_MAX_ARENA);
		fatal = true;
	}
	if (meta->nevents > 1)
		qsort(meta->events, meta->nevents, sizeof(*meta->events), event_cmp);
	meta->ctf2_draft = b->draft;
	meta->usable = !fatal && !b->unsupported && st.streams_ok && meta->nstreams > 0;
	if (meta->usable) {
		ctf_flat_plan(meta);
		ctf_lane_build(meta);
	}
	free(b);
}

void ctf2_packet_version(struct tfk_ctx *ctx, const struct ctf_meta *meta)
{
	if (meta->packet_major == 2 && meta->packet_minor == 0)
		return;
	char version[48];
	snprintf(version, sizeof(version), "%lld.%lld.%lld", (long long)meta->tracer_major, (long long)meta->tracer_minor,
		 (long long)meta->tracer_patch);
	const struct tfk_quirk *q = tfk_fault_quirk(tfk_fault_get(TFK_CTF_WRITER_LTTNG_CTF2_PACKET_VERSION));
	if (q && !strcmp(meta->tracer_name, q->writer) && tfk_version_between(version, q->first_bad, q->last_bad)) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_WRITER_LTTNG_CTF2_PACKET_VERSION, 35, 2);
		tfk_set_path(f, "metadata packet 0");
		tfk_set_expected(f, "version 2.0 around CTF 2 fragments");
		tfk_set_found(f, "%u.%u, from %s %s", meta->packet_major, meta->packet_minor, meta->tracer_name, version);
		return;
	}
	struct tfk_finding *f = tfk_emit(ctx, TFK_CTF_METADATA_BAD_PACKET, 35, 2);
	tfk_set_path(f, "metadata packet 0");
	tfk_set_expected(f, "version 2.0 around CTF 2 fragments");
	tfk_set_found(f, "%u.%u", meta->packet_major, meta->packet_minor);
}
