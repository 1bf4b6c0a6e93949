/* SPDX-License-Identifier: MIT */
/*
 * The TSDL blocks (trace, env, clock, stream, event, callsite): their attributes into the
 * model, and the semantic checks of spec 4.3 across them once the text is parsed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_parse.h"

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* A canonical 36-character UUID string into 16 bytes. */
static bool parse_uuid(const char *s, uint8_t out[16])
{
	if (strlen(s) != 36)
		return false;
	size_t k = 0;
	for (size_t i = 0; i < 36;) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
			i++;
			continue;
		}
		int hi = hexval(s[i]), lo = hexval(s[i + 1]);
		if (hi < 0 || lo < 0)
			return false;
		out[k++] = (uint8_t)(hi << 4 | lo);
		i += 2;
	}
	return k == 16;
}

static bool known(const char *name, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(name, *list))
			return true;
	return false;
}

static bool attr_uint(struct ctf_parser *p, const struct ctf_attr *a, uint64_t *v, const char *what)
{
	if (!a->is_int || a->negative_or_overflow) {
		ctf_semantic(p, a->tok, what, a->is_int ? "out of range" : a->text);
		return false;
	}
	*v = a->u;
	return true;
}

void ctf_block_attr(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b, const struct ctf_attr *a)
{
	struct ctf_meta *m = p->m;
	const char *n = a->name;
	static const char *const trace_attrs[] = { "major", "minor", "uuid", "byte_order", NULL };
	static const char *const clock_attrs[] = { "name", "uuid", "description", "freq", "precision", "offset_s",
						   "offset", "absolute", NULL };
	static const char *const stream_attrs[] = { "id", NULL };
	static const char *const event_attrs[] = { "name", "id", "stream_id", "loglevel", "model.emf.uri", NULL };
	static const char *const callsite_attrs[] = { "name", "func", "file", "line", "ip", NULL };
	const char *const *list = kind == CTF_B_TRACE ? trace_attrs : kind == CTF_B_CLOCK ? clock_attrs
				: kind == CTF_B_STREAM ? stream_attrs : kind == CTF_B_EVENT ? event_attrs
				: kind == CTF_B_CALLSITE ? callsite_attrs : NULL;
	if (list && !known(n, list))
		ctf_unknown_attribute(p, a->name_tok, n);
	switch (kind) {
	case CTF_B_TRACE:
		if (!strcmp(n, "major")) {
			b->have_major = attr_uint(p, a, &b->major, "trace major = 1");
		} else if (!strcmp(n, "minor")) {
			b->have_minor = attr_uint(p, a, &b->minor, "trace minor = 8");
		} else if (!strcmp(n, "uuid")) {
			if (!a->is_string || !parse_uuid(a->text, m->uuid))
				ctf_semantic(p, a->tok, "a UUID string of 36 canonical characters", a->text);
			else
				m->have_uuid = true;
		} else if (!strcmp(n, "byte_order")) {
			if (!a->is_int && (!strcmp(a->text, "le") || !strcmp(a->text, "little_endian"))) {
				m->big_endian = false;
				m->have_byte_order = true;
			} else if (!a->is_int && (!strcmp(a->text, "be") || !strcmp(a->text, "big_endian") ||
						  !strcmp(a->text, "network"))) {
				m->big_endian = true;
				m->have_byte_order = true;
			} else {
				ctf_semantic(p, a->tok, "trace byte_order = le or be", a->is_int ? "a number" : a->text);
			}
		}
		break;
	case CTF_B_ENV:
		if (!strcmp(n, "tracer_name") && a->is_string)
			snprintf(m->tracer_name, sizeof(m->tracer_name), "%s", a->text);
		else if (!strcmp(n, "tracer_major") && a->is_int)
			m->tracer_major = (int64_t)a->u;
		else if (!strcmp(n, "tracer_minor") && a->is_int)
			m->tracer_minor = (int64_t)a->u;
		else if (!strcmp(n, "tracer_patchlevel") && a->is_int)
			m->tracer_patch = (int64_t)a->u;
		break;
	case CTF_B_CLOCK:
		if (!strcmp(n, "name")) {
			b->have_name = true;
		} else if (!strcmp(n, "freq")) {
			uint64_t f;
			if (attr_uint(p, a, &f, "a clock frequency above 0 Hz") && f == 0)
				ctf_semantic(p, a->tok, "a clock frequency above 0 Hz", "0");
		} else if (!strcmp(n, "uuid")) {
			uint8_t u[16];
			if (!a->is_string || !parse_uuid(a->text, u))
				ctf_semantic(p, a->tok, "a UUID string of 36 canonical characters", a->text);
		}
		break;
	case CTF_B_STREAM:
		if (!strcmp(n, "id"))
			b->have_id = attr_uint(p, a, &b->id, "a stream id");
		break;
	case CTF_B_EVENT:
		if (!strcmp(n, "id"))
			b->have_id = attr_uint(p, a, &b->id, "an event id");
		else if (!strcmp(n, "stream_id"))
			b->have_stream_id = attr_uint(p, a, &b->stream_id, "a stream id");
		else if (!strcmp(n, "name"))
			b->name = ctf_strndup(&m->arena, a->text, strlen(a->text));
		break;
	case CTF_B_CALLSITE:
		break;
	}
}

static bool type_is_struct(struct ctf_parser *p, const struct ctf_type *t, const struct ctf_token *at, const char *lhs)
{
	if (t->kind == CTF_STRUCT)
		return true;
	ctf_semantic(p, at, "a structure type", lhs);
	return false;
}

void ctf_block_type(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b, const char *lhs,
		    struct ctf_type *t, const struct ctf_token *at)
{
	if (kind == CTF_B_TRACE && !strcmp(lhs, "packet.header")) {
		if (type_is_struct(p, t, at, lhs))
			p->m->packet_header = t;
	} else if (kind == CTF_B_STREAM && !strcmp(lhs, "packet.context")) {
		if (type_is_struct(p, t, at, lhs))
			b->packet_context = t;
	} else if (kind == CTF_B_STREAM && !strcmp(lhs, "event.header")) {
		if (type_is_struct(p, t, at, lhs))
			b->event_header = t;
	} else if (kind == CTF_B_STREAM && !strcmp(lhs, "event.context")) {
		if (type_is_struct(p, t, at, lhs))
			b->event_context = t;
	} else if (kind == CTF_B_EVENT && !strcmp(lhs, "context")) {
		if (type_is_struct(p, t, at, lhs))
			b->context = t;
	} else if (kind == CTF_B_EVENT && !strcmp(lhs, "fields")) {
		if (type_is_struct(p, t, at, lhs))
			b->fields = t;
	} else {
		ctf_unknown_attribute(p, at, lhs);
	}
}

void ctf_unknown_attribute(struct ctf_parser *p, const struct ctf_token *at, const char *name)
{
	if (p->unknown_attributes++ >= 16) {
		tfk_count_only(p->ctx, TFK_CTF_METADATA_UNKNOWN_ATTRIBUTE);
		return;
	}
	struct tfk_finding *f = tfk_emit(p->ctx, TFK_CTF_METADATA_UNKNOWN_ATTRIBUTE, ctf_text_file_offset(p->text, at->at),
					 at->len ? at->len : 1);
	tfk_set_path(f, "metadata line %u, column %u", at->line, at->col);
	tfk_set_expected(f, "an attribute of the block");
	tfk_set_found(f, "%.60s", name);
}



static bool grow(struct ctf_parser *p, void **arr, size_t *cap, size_t n, size_t elem)
{
	if (n < *cap)
		return true;
	size_t ncap = *cap ? *cap * 2 : 16;
	void *na = ctf_alloc(&p->m->arena, ncap * elem);
	if (!na) {
		p->oom = p->err = true;
		return false;
	}
	if (n)
		memcpy(na, *arr, n * elem);
	*arr = na;
	*cap = ncap;
	return true;
}

void ctf_block_end(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b)
{
	struct ctf_meta *m = p->m;
	if (kind == CTF_B_TRACE) {
		if (p->have_trace)
			ctf_semantic(p, &b->start, "one trace block", "another one");
		p->have_trace = true;
		p->trace_tok = b->start;
		if (!b->have_major || !b->have_minor || b->major != 1 || b->minor != 8) {
			char found[64];
			snprintf(found, sizeof(found), "%s%llu.%s%llu", b->have_major ? "" : "no major ",
				 (unsigned long long)b->major, b->have_minor ? "" : "no minor ", (unsigned long long)b->minor);
			ctf_semantic(p, &b->start, "trace major = 1 and minor = 8", found);
		}
		m->major = b->major;
		m->minor = b->minor;
	} else if (kind == CTF_B_STREAM) {
		if (!grow(p, (void **)&m->streams, &m->cap_streams, m->nstreams, sizeof(*m->streams)))
			return;
		struct ctf_stream_class *s = &m->streams[m->nstreams];
		memset(s, 0, sizeof(*s));
		s->id = b->have_id ? b->id : 0;
		s->packet_context = b->packet_context;
		s->event_header = b->event_header;
		s->event_context = b->event_context;
		s->line = b->start.line;
		for (size_t i = 0; i < m->nstreams; i++) {
			if (m->streams[i].id == s->id) {
				char found[64];
				snprintf(found, sizeof(found), "stream id %llu declared again", (unsigned long long)s->id);
				ctf_semantic(p, &b->start, "unique stream ids", found);
				return;
			}
		}
		m->nstreams++;
	} else if (kind == CTF_B_EVENT) {
		if (!grow(p, (void **)&m->events, &m->cap_events, m->nevents, sizeof(*m->events)))
			return;
		struct ctf_event *e = &m->events[m->nevents];
		memset(e, 0, sizeof(*e));
		e->id = b->have_id ? b->id : 0;
		e->stream_id = b->have_stream_id ? b->stream_id : UINT64_MAX; /* resolved at the end */
		e->name = b->name;
		e->context = b->context;
		e->fields = b->fields;
		e->line = b->start.line;
		if (!b->name)
			ctf_semantic(p, &b->start, "an event name", "none");
		m->nevents++;
	} else if (kind == CTF_B_CLOCK) {
		if (!b->have_name)
			ctf_semantic(p, &b->start, "a clock name", "none");
	}
}

static int event_cmp(const void *a, const void *b)
{
	const struct ctf_event *x = a, *y = b;
	if (x->stream_id != y->stream_id)
		return x->stream_id < y->stream_id ? -1 : 1;
	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

static bool header_has_field(const struct ctf_type *t, const char *name)
{
	if (!t || t->kind != CTF_STRUCT)
		return false;
	for (size_t i = 0; i < t->nfields; i++)
		if (!strcmp(t->fields[i].name, name))
			return true;
	return false;
}

void ctf_semantic_end(struct ctf_parser *p)
{
	struct ctf_meta *m = p->m;
	if (p->oom || p->any_syntax)
		return;
	if (!p->have_trace) {
		ctf_semantic(p, NULL, "a trace block", "none");
		p->undefined = true;
	} else if (!m->have_byte_order) {
		ctf_semantic(p, &p->trace_tok, "trace byte_order = le or be", "none");
	}
	if (m->nstreams > 1 && !header_has_field(m->packet_header, "stream_id"))
		ctf_semantic(p, &p->trace_tok, "a stream_id field in the packet header (several stream classes)",
			     "none");
	if (m->nstreams == 0 && m->nevents > 0) {
		/* An implicit stream class 0, of no context. */
		if (grow(p, (void **)&m->streams, &m->cap_streams, 0, sizeof(*m->streams))) {
			memset(&m->streams[0], 0, sizeof(m->streams[0]));
			m->nstreams = 1;
		}
	}
	for (size_t i = 0; i < m->nevents; i++) {
		struct ctf_event *e = &m->events[i];
		if (e->stream_id == UINT64_MAX) {
			if (m->nstreams == 1) {
				e->stream_id = m->streams[0].id;
			} else {
				char found[64];
				snprintf(found, sizeof(found), "event '%.40s' without stream_id", e->name ? e->name : "");
				ctf_semantic(p, NULL, "a stream_id for each event (several stream classes)", found);
				continue;
			}
		}
		if (!ctf_find_stream(m, e->stream_id)) {
			char found[64];
			snprintf(found, sizeof(found), "stream_id %llu (line %u)", (unsigned long long)e->stream_id, e->line);
			ctf_semantic(p, NULL, "an event of a declared stream", found);
		}
	}
	if (m->nevents > 1)
		qsort(m->events, m->nevents, sizeof(*m->events), event_cmp);
	for (size_t i = 1; i < m->nevents; i++) {
		if (m->events[i].stream_id == m->events[i - 1].stream_id && m->events[i].id == m->events[i - 1].id &&
		    m->events[i].stream_id != UINT64_MAX) {
			char found[96];
			snprintf(found, sizeof(found), "event id %llu of stream %llu declared again (line %u)",
				 (unsigned long long)m->events[i].id, (unsigned long long)m->events[i].stream_id,
				 m->events[i].line);
			ctf_semantic(p, NULL, "unique event ids within a stream", found);
		}
	}
}

const struct ctf_stream_class *ctf_find_stream(const struct ctf_meta *m, uint64_t id)
{
	for (size_t i = 0; i < m->nstreams; i++)
		if (m->streams[i].id == id)
			return &m->streams[i];
	return NULL;
}

const struct ctf_event *ctf_find_event(const struct ctf_meta *m, uint64_t stream_id, uint64_t id)
{
	size_t lo = 0, hi = m->nevents;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ctf_event *e = &m->events[mid];
		if (e->stream_id < stream_id || (e->stream_id == stream_id && e->id < id))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < m->nevents && m->events[lo].stream_id == stream_id && m->events[lo].id == id)
		return &m->events[lo];
	return NULL;
}

uint64_t ctf_text_file_offset(const struct ctf_text *t, size_t at)
{
	if (!t->npieces)
		return at;
	size_t k = 0;
	for (size_t i = 0; i < t->npieces; i++)
		if (t->piece_text[i] <= at)
			k = i;
	return t->piece_file[k] + (at - t->piece_text[k]);
}
