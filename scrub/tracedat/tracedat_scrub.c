/* SPDX-License-Identifier: MIT */
/*
 * trace.dat's scrub plug-in. The check builds repair's model of the file (every page, the
 * decoded pages of a compressed v7 included; every option and metadata text); the strings in
 * it are replaced in place (same length, so no record or page changes size), and the model is
 * written as repair writes it: a trace.dat version 6 (a v7 input is converted, its compressed
 * sections written uncompressed, as `trace-cmd convert --file-version 6` would).
 *
 * Replaced: the host in UNAME and GUEST, task names in saved cmdlines and in every char[] /
 * __data_loc / __rel_loc string field named *comm*, paths (fields named *file* / *path*,
 * PROCMAPS), instance names, trace_marker text (ftrace print), every other string field of
 * the events; then every further whole-word occurrence of a replaced word anywhere in the
 * event data (bprint arguments, latency text). Kept: timestamps, every numeric field, event
 * names and formats, kernel symbols and printk formats, the trace-cmd version, the date offset.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../repair/output.h"
#include "../../repair/tracedat/model.h"
#include "format.h"
#include "formats/formats.h"
#include "td_formats.h"

struct td_scrub {
	struct rp_model m;     /* first: the observer fills it */
	struct td_events events;
	uint8_t *copy;         /* the input's bytes, whose kept pages are scrubbed in place */
};

static struct tfk_observer td_observer(void *model, const uint8_t *in, size_t size)
{
	struct td_scrub *s = model;
	s->m.input = in;
	s->m.input_size = size;
	s->m.defer_spill = false; /* a clean input is the only one scrubbed: keep decoded pages */
	return rp_model_observer(&s->m);
}

static void td_free(void *model)
{
	struct td_scrub *s = model;
	rp_model_free(&s->m);
	td_events_free(&s->events);
	free(s->copy);
}

static uint64_t get_num(const uint8_t *p, unsigned width, bool be)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < width; i++)
		v |= (uint64_t)p[i] << (be ? 8 * (width - 1 - i) : 8 * i);
	return v;
}

/* One record's string fields (rec, n bytes: the payload, common_type first). */
static void scrub_record(struct td_scrub *s, struct sc_ctx *sc, uint8_t *rec, size_t n)
{
	const struct td_events *t = &s->events;
	const bool be = s->m.geo.big_endian;
	if (t->type_size != 2 && t->type_size != 4)
		return;
	if (t->type_offset > n || t->type_size > n - t->type_offset)
		return;
	const struct td_event *ev = td_events_find(t, (uint32_t)get_num(rec + t->type_offset, t->type_size, be));
	for (size_t i = 0; ev && i < ev->nfields; i++) {
		const struct td_field *f = &ev->fields[i];
		if (f->offset > n)
			continue;
		switch (f->shape) {
		case TD_FIXED:
			if (f->size <= n - f->offset)
				sc_cstr(sc, f->kind, rec + f->offset, f->size);
			break;
		case TD_TRAILING:
			sc_cstr(sc, f->kind, rec + f->offset, n - f->offset);
			break;
		case TD_DATA_LOC:
		case TD_REL_LOC: {
			if (4 > n - f->offset)
				break;
			uint32_t v = (uint32_t)get_num(rec + f->offset, 4, be);
			uint64_t at = (v & 0xffff) + (f->shape == TD_REL_LOC ? (uint64_t)f->offset + 4 : 0);
			uint64_t len = v >> 16;
			if (at <= n && len <= n - at)
				sc_cstr(sc, f->kind, rec + at, (size_t)len);
			break;
		}
		}
	}
}

/*
 * Walk the events of a page's data (len valid bytes) and hand each record's payload to fn:
 * the ring buffer's event headers (type_len 29 padding, 30/31 time stamps, 0 a length word).
 */
static void walk_page(struct td_scrub *s, struct sc_ctx *sc, uint8_t *data, size_t len, bool sweep)
{
	const bool be = s->m.geo.big_endian;
	size_t pos = 0;
	while (len >= 4 && pos <= len - 4) {
		uint32_t h = (uint32_t)get_num(data + pos, 4, be);
		unsigned type_len = be ? h >> 27 : h & 31;
		size_t body = pos + 4, plen;
		if (type_len == 29 || type_len == 0) {
			if (len - body < 4)
				return;
			uint32_t w = (uint32_t)get_num(data + body, 4, be);
			if (type_len == 29) {
				if (w > len - body - 4)
					return;
				pos = body + 4 + w;
				continue;
			}
			if (w < 4)
				return;
			body += 4;
			plen = ((size_t)w - 4 + 3) & ~(size_t)3;
		} else if (type_len >= 30) {
			pos += 8;
			continue;
		} else {
			plen = (size_t)type_len * 4;
		}
		if (plen > len - body)
			return;
		if (sweep)
			sc_sweep(sc, data + body, plen);
		else
			scrub_record(s, sc, data + body, plen);
		pos = body + plen;
	}
}

static void each_page(struct td_scrub *s, struct sc_ctx *sc, bool sweep)
{
	const uint32_t d = s->m.geo.data_offset;
	for (size_t b = 0; b < s->m.nbuffers; b++) {
		struct rp_buffer *buf = &s->m.buffers[b];
		for (size_t c = 0; c < buf->ncpus; c++) {
			struct rp_cpu *cpu = &buf->cpus[c];
			for (size_t i = 0; i < cpu->npages; i++) {
				struct rp_page *p = &cpu->pages[i];
				uint8_t *page = (uint8_t *)rp_page_bytes(cpu, p);
				if (d > p->size || p->len > p->size - d)
					continue;
				walk_page(s, sc, page + d, p->len, sweep);
			}
		}
		if (sweep && buf->latency_text.len)
			sc_sweep(sc, buf->latency_text.data, buf->latency_text.len);
	}
}

/* "pid comm" lines: the comm after the first space. */
static void scrub_cmdlines(struct sc_ctx *sc, struct rp_blob *b)
{
	for (size_t at = 0; at < b->len;) {
		uint8_t *line = b->data + at;
		const uint8_t *nl = memchr(line, '\n', b->len - at);
		size_t n = nl ? (size_t)(nl - line) : b->len - at;
		at += n + 1;
		const uint8_t *sp = memchr(line, ' ', n);
		if (sp)
			sc_text(sc, TFK_SCRUB_TASK, (uint8_t *)sp + 1, (size_t)(line + n - sp - 1));
	}
}

/* PROCMAPS: the last word of each line is a command (the first line) or a library's path. */
static void scrub_procmaps(struct sc_ctx *sc, struct rp_blob *b)
{
	bool first = true;
	size_t end = strnlen((const char *)b->data, b->len);
	for (size_t at = 0; at < end;) {
		uint8_t *line = b->data + at;
		const uint8_t *nl = memchr(line, '\n', end - at);
		size_t n = nl ? (size_t)(nl - line) : end - at;
		at += n + 1;
		size_t k = n;
		while (k && line[k - 1] != ' ')
			k--;
		if (k)
			sc_text(sc, first ? TFK_SCRUB_CMDLINE : TFK_SCRUB_PATH, line + k, n - k);
		first = false;
	}
}

static void scrub_options(struct td_scrub *s, struct sc_ctx *sc)
{
	for (size_t i = 0; i < s->m.noptions; i++) {
		struct rp_blob *p = &s->m.options[i].payload;
		if (!p->len)
			continue;
		switch (s->m.options[i].id) {
		case 1: sc_kept(sc, "the date offset (the times a reader prints depend on it)"); break;
		case 5: sc_cstr(sc, TFK_SCRUB_HOST, p->data, p->len); break;  /* UNAME */
		case 9: sc_kept(sc, "the version of trace-cmd that wrote the trace"); break;
		case 10: scrub_procmaps(sc, p); break;
		case 13: sc_cstr(sc, TFK_SCRUB_HOST, p->data, strnlen((const char *)p->data, p->len)); break; /* GUEST name */
		default: break;
		}
	}
}

/* Kept pages that are the input's own bytes move to the copy, which is scrubbed in place. */
static int own_pages(struct td_scrub *s, const uint8_t *in, size_t size)
{
	s->copy = malloc(size ? size : 1);
	if (!s->copy)
		return -1;
	memcpy(s->copy, in, size);
	for (size_t b = 0; b < s->m.nbuffers; b++)
		for (size_t c = 0; c < s->m.buffers[b].ncpus; c++) {
			struct rp_cpu *cpu = &s->m.buffers[b].cpus[c];
			for (size_t i = 0; i < cpu->npages; i++) {
				struct rp_page *p = &cpu->pages[i];
				if (p->src && p->src >= in && p->src < in + size)
					p->src = s->copy + (p->src - in);
			}
		}
	return 0;
}

static int td_scrub(void *model, struct sc_ctx *sc, const uint8_t *in, size_t size, uint8_t **out, size_t *out_len)
{
	struct td_scrub *s = model;
	struct rp_model *m = &s->m;
	if (!m->have_geometry || m->oom)
		return m->oom ? -1 : 1;
	if (own_pages(s, in, size) != 0)
		return -1;
	for (size_t i = 0; i < m->ftrace.n; i++)
		td_events_add(&s->events, m->ftrace.items[i].data, m->ftrace.items[i].len, "ftrace");
	for (size_t k = 0; k < m->nsystems; k++) {
		char sys[64];
		snprintf(sys, sizeof(sys), "%.*s", (int)m->systems[k].name.len, (const char *)m->systems[k].name.data);
		for (size_t i = 0; i < m->systems[k].formats.n; i++)
			td_events_add(&s->events, m->systems[k].formats.items[i].data, m->systems[k].formats.items[i].len, sys);
	}
	if (s->events.oom)
		return -1;
	td_events_sort(&s->events);
	scrub_options(s, sc);
	scrub_cmdlines(sc, &m->cmdlines);
	for (size_t b = 0; b < m->nbuffers; b++)
		sc_text(sc, TFK_SCRUB_INSTANCE, (uint8_t *)m->buffers[b].name, strnlen(m->buffers[b].name, sizeof(m->buffers[b].name)));
	each_page(s, sc, false);
	each_page(s, sc, true); /* the words replaced above, wherever else the event data holds them */
	if (m->kallsyms.len || m->printk.len)
		sc_kept(sc, "kernel symbols and printk formats (kallsyms, addresses included)");
	sc_kept(sc, "timestamps, numeric fields, event names and formats");
	if (m->geo.version == 7)
		snprintf(sc->rep->converted, sizeof(sc->rep->converted), "trace.dat v6");
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	o.be = m->geo.big_endian;
	int rc = rp_write_v6(m, &o);
	uint8_t *data = NULL;
	if (rc == 0 && !o.oom && rp_out_to_buffer(&o, &data) == 0) {
		*out = data;
		*out_len = (size_t)o.len;
	} else {
		rc = -1;
	}
	rp_out_free(&o);
	return rc;
}

const struct sc_format sc_format_tracedat = {
	.format = &tfk_format_tracedat,
	.model_size = sizeof(struct td_scrub),
	.observer = td_observer,
	.model_free = td_free,
	.scrub = td_scrub,
};
