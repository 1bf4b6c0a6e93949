/* SPDX-License-Identifier: MIT */
/*
 * Building the salvage model from the checker's observer stream. Each kept page is noted with
 * its rebuilt commit word (the valid length and the kernel's loss flags; stray bits cleared)
 * and written later with zeros after its data; pages of the input are referenced, not copied.
 * Bad pages are dropped with the loss flagged on the next kept page of that CPU.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"

static bool blob_set(struct rp_model *m, struct rp_blob *b, const uint8_t *p, size_t n)
{
	uint8_t *d = malloc(n ? n : 1);
	if (!d) {
		m->oom = true;
		return false;
	}
	memcpy(d, p, n);
	free(b->data);
	b->data = d;
	b->len = n;
	b->cap = n ? n : 1;
	return true;
}

/* rp_blob_append, marking the model out of memory when it fails. */
static bool blob_append(struct rp_model *m, struct rp_blob *b, const uint8_t *p, size_t n)
{
	if (rp_blob_append(b, p, n))
		return true;
	m->oom = true;
	return false;
}

static void *grow(struct rp_model *m, void *arr, size_t *cap, size_t need, size_t elem)
{
	if (!rp_grow(&arr, cap, need, elem)) {
		m->oom = true;
		return NULL;
	}
	return arr;
}

static bool list_add(struct rp_model *m, struct rp_list *l, const uint8_t *p, size_t n)
{
	struct rp_blob *items = grow(m, l->items, &l->cap, l->n + 1, sizeof(*items));
	if (!items)
		return false;
	l->items = items;
	memset(&l->items[l->n], 0, sizeof(l->items[0]));
	if (!blob_set(m, &l->items[l->n], p, n))
		return false;
	l->n++;
	return true;
}

static void on_geometry(void *user, const struct tfk_geometry *g)
{
	struct rp_model *m = user;
	m->geo = *g;
	m->have_geometry = true;
}

/* Copy a line-based text, leaving out the lines the checker calls malformed. */
static void keep_good_lines(struct rp_model *m, struct rp_blob *b, enum tfk_meta_kind kind, const uint8_t *p, uint64_t n)
{
	if (!rp_good_lines(kind, p, n, b))
		m->oom = true;
}

static void on_meta(void *user, enum tfk_meta_kind kind, const uint8_t *p, uint64_t n)
{
	struct rp_model *m = user;
	if ((unsigned)kind <= TFK_META_LATENCY) {
		m->meta_seen[kind] = true;
		m->meta_bytes[kind] += n;
	}
	switch (kind) {
	case TFK_META_HEADER_PAGE: m->have_header_page = blob_set(m, &m->header_page, p, n); break;
	case TFK_META_HEADER_EVENT: m->have_header_event = blob_set(m, &m->header_event, p, n); break;
	case TFK_META_FTRACE_FORMAT: list_add(m, &m->ftrace, p, n); break;
	case TFK_META_SYSTEM: {
		struct rp_system *s = grow(m, m->systems, &m->systems_cap, m->nsystems + 1, sizeof(*s));
		if (!s)
			return;
		m->systems = s;
		memset(&s[m->nsystems], 0, sizeof(*s));
		/* A damaged system name is rewritten into one the checker accepts; its formats stay. */
		char name[64];
		size_t k = 0;
		for (uint64_t i = 0; i < n && k + 1 < sizeof(name); i++) {
			char c = (char)p[i];
			bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
				  c == '-' || c == '.';
			name[k++] = ok ? c : '_';
		}
		if (!k) {
			memcpy(name, "unknown", 7);
			k = 7;
		}
		if (blob_set(m, &s[m->nsystems].name, (const uint8_t *)name, k))
			m->nsystems++;
		break;
	}
	case TFK_META_EVENT_FORMAT:
		if (m->nsystems && list_add(m, &m->systems[m->nsystems - 1].formats, p, n))
			m->nformats++;
		break;
	case TFK_META_KALLSYMS: keep_good_lines(m, &m->kallsyms, kind, p, n); break;
	case TFK_META_PRINTK: keep_good_lines(m, &m->printk, kind, p, n); break;
	case TFK_META_CMDLINES: keep_good_lines(m, &m->cmdlines, kind, p, n); break;
	case TFK_META_LATENCY:
		if (m->nbuffers)
			blob_append(m, &m->buffers[m->nbuffers - 1].latency_text, p, n);
		break;
	}
}

static void on_option(void *user, uint16_t id, const uint8_t *p, uint32_t n)
{
	struct rp_model *m = user;
	struct rp_option *o = grow(m, m->options, &m->options_cap, m->noptions + 1, sizeof(*o));
	if (!o)
		return;
	m->options = o;
	memset(&o[m->noptions], 0, sizeof(*o));
	o[m->noptions].id = id;
	if (blob_set(m, &o[m->noptions].payload, p, n))
		m->noptions++;
	if (id == 4 && n) {
		/* TRACECLOCK: remember the bracketed clock, as the checker reads it (up to the NUL). */
		size_t len = strnlen((const char *)p, n);
		const char *lb = memchr(p, '[', len);
		const char *rb = lb ? memchr(lb, ']', len - (size_t)((const uint8_t *)lb - p)) : NULL;
		size_t k = 0;
		for (const char *c = lb ? lb + 1 : NULL; c && c < rb && k + 1 < sizeof(m->trace_clock); c++)
			if (*c > 0x20 && *c < 0x7f && *c != '[')
				m->trace_clock[k++] = *c;
		m->trace_clock[k] = '\0';
	}
}

static void on_buffer(void *user, const char *name, const char *clock, uint32_t page_size, bool latency)
{
	struct rp_model *m = user;
	struct rp_buffer *b = grow(m, m->buffers, &m->buffers_cap, m->nbuffers + 1, sizeof(*b));
	if (!b)
		return;
	m->buffers = b;
	b = &b[m->nbuffers];
	memset(b, 0, sizeof(*b));
	/* Buffer names become option strings: keep them printable; one top buffer only. */
	size_t k = 0;
	for (const char *c = name; *c && k + 1 < sizeof(b->name); c++)
		if (*c > 0x20 && *c < 0x7f && *c != '\\')
			b->name[k++] = *c;
	for (size_t i = 0; i < m->nbuffers; i++)
		if (strcmp(m->buffers[i].name, b->name) == 0) {
			snprintf(b->name, sizeof(b->name), "recovered%zu", m->nbuffers);
			break;
		}
	k = 0;
	for (const char *c = clock; *c && k + 1 < sizeof(b->clock); c++)
		if (*c > 0x20 && *c < 0x7f && *c != '[' && *c != ']')
			b->clock[k++] = *c;
	b->page_size = page_size;
	b->latency = latency;
	m->nbuffers++;
}

static struct rp_buffer *cur_buffer(struct rp_model *m)
{
	return m->nbuffers ? &m->buffers[m->nbuffers - 1] : NULL;
}

static void on_cpu(void *user, uint32_t cpu)
{
	struct rp_model *m = user;
	struct rp_buffer *b = cur_buffer(m);
	if (!b)
		return;
	struct rp_cpu *c = grow(m, b->cpus, &b->cap, b->ncpus + 1, sizeof(*c));
	if (!c)
		return;
	b->cpus = c;
	c = &c[b->ncpus++];
	memset(c, 0, sizeof(*c));
	c->cpu = cpu;
	c->stats.cpu = cpu;
	snprintf(c->stats.buffer, sizeof(c->stats.buffer), "%s", b->name);
}

static void on_cpu_extent(void *user, uint32_t cpu, uint64_t declared, uint64_t present, bool compressed)
{
	struct rp_model *m = user;
	if (!m->nbuffers)
		return;
	struct rp_extent *e = grow(m, m->extents, &m->extents_cap, m->nextents + 1, sizeof(*e));
	if (!e)
		return;
	m->extents = e;
	e = &e[m->nextents++];
	e->buffer = m->nbuffers - 1;
	e->cpu = cpu;
	e->declared = declared;
	e->present = present < declared ? present : declared;
	e->compressed = compressed;
}

static void note_loss(struct rp_cpu *c, uint64_t from, uint64_t to)
{
	if (!c->stats.lost_time_known || from < c->stats.lost_from)
		c->stats.lost_from = from;
	if (!c->stats.lost_time_known || to > c->stats.lost_to)
		c->stats.lost_to = to;
	c->stats.lost_time_known = true;
}

/*
 * Would rebuilding the page give its own bytes back (commit word, stored missed count, zeros
 * after the data)? Then the writer keeps the input's page as it is instead of copying it.
 * The checker says what the page holds, so its bytes need not be read again here.
 */
static bool page_is_rebuilt_page(const struct tfk_geometry *g, const struct tfk_page_info *info, uint32_t ps,
				 const struct rp_page *p)
{
	if (8 + g->commit_size > ps || p->len > ps - g->data_offset || !info->tail_zero)
		return false;
	/* the count after the data, when kept, is the one the checker read there */
	return info->commit_word == p->commit && (!(p->commit & (1ull << 30)) || p->missed_count == info->missed_count);
}

static void on_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	struct rp_model *m = user;
	struct rp_buffer *b = cur_buffer(m);
	if (!b || !b->ncpus || !m->have_geometry)
		return;
	struct rp_cpu *c = &b->cpus[b->ncpus - 1];
	c->pages_seen++;
	const struct tfk_geometry *g = &m->geo;
	uint32_t ps = b->page_size;
	/* A damaged page whose surviving events lie before what this CPU already has is garbage too. */
	bool backwards = info->state == TFK_PAGE_CLIPPED && info->events && c->stats.pages_kept && info->first_ts < c->last_ts;
	if (info->state == TFK_PAGE_BAD || backwards) {
		c->stats.pages_dropped++;
		if (backwards)
			c->stats.events_lost += info->events; /* walked, so counted */
		c->pending_missed = true;
		if (!c->in_loss) {
			c->in_loss = true;
			c->loss_start = c->last_ts;
		}
		return;
	}
	/*
	 * A damaged page (clipped) whose surviving events lie after this page's first event is
	 * not trustworthy either: garbage that decodes (zstd has no checksum here) often walks
	 * for a while. Drop it, so timestamps stay in order and readers keep reading this CPU.
	 */
	if (info->events && c->last_clipped && c->npages && info->first_ts < c->last_ts) {
		c->npages--;
		if (!c->pages[c->npages].src && !m->defer_spill)
			c->spill.len -= ps;
		c->stats.pages_kept--;
		c->stats.pages_clipped--;
		c->stats.pages_dropped++;
		c->stats.events_kept -= c->last_events;
		c->stats.events_lost += c->last_events;
		c->last_ts = c->ts_before_last;
		c->pending_missed = true;
		c->in_loss = true;
		c->loss_start = c->last_ts;
		c->last_clipped = false;
	}
	if (c->in_loss && info->state != TFK_PAGE_EMPTY) {
		/* The lost events lie between the last kept event and this page's first. */
		note_loss(c, c->loss_start, info->first_ts);
		c->in_loss = false;
	}
	struct rp_page *kept = grow(m, c->pages, &c->pages_cap, c->npages + 1, sizeof(*c->pages));
	if (!kept)
		return;
	c->pages = kept;
	kept = &c->pages[c->npages];
	memset(kept, 0, sizeof(*kept));
	/* The input's own bytes are kept by reference; `page` may be a copy valid for this call. */
	if (m->input && info->file_offset != TFK_PAGE_DECODED && info->file_offset <= m->input_size &&
	    ps <= m->input_size - info->file_offset) {
		kept->src = m->input + info->file_offset;
	} else {
		kept->spill_at = c->spill.len; /* decoded into a buffer the checker reuses: copy it */
		/* A page the end of the input cut is one page a CPU at most: copied now, never deferred. */
		bool cut = info->file_offset != TFK_PAGE_DECODED;
		if (m->defer_spill && !cut) {
			m->spill_deferred = true; /* unless the input is clean, it is read again to keep them */
		} else if (!blob_append(m, &c->spill, page, ps)) {
			return;
		}
	}
	c->npages++;
	c->ts_before_last = c->last_ts;
	c->last_events = info->events;
	c->last_clipped = info->state == TFK_PAGE_CLIPPED;
	/* Rebuild the commit word from what is valid; keep the kernel's loss markers. */
	uint64_t len = info->state == TFK_PAGE_EMPTY ? 0 : info->good_len;
	uint64_t commit = len;
	bool missed = info->missed_events || c->pending_missed;
	if (missed)
		commit |= 1ull << 31;
	if (info->missed_stored && !c->pending_missed && info->state == TFK_PAGE_GOOD &&
	    g->data_offset + len + g->commit_size <= ps) {
		commit |= 1ull << 30;
		kept->missed_count = info->missed_count;
	}
	kept->commit = commit;
	kept->len = (uint32_t)len;
	kept->size = ps;
	kept->verbatim = kept->src && page_is_rebuilt_page(g, info, ps, kept); /* only the input's own bytes are kept as they are */
	c->pending_missed = info->state == TFK_PAGE_CLIPPED;
	if (info->events)
		c->last_ts = info->last_ts;
	if (info->state == TFK_PAGE_CLIPPED) {
		c->stats.pages_clipped++;
		c->in_loss = true;
		c->loss_start = info->last_ts;
	}
	c->stats.pages_kept++;
	c->stats.events_kept += info->events;
}

/*
 * The structural map's items, for the account alone: the bytes a CPU's walk covered (a CPU
 * whose data held no page the check could read is a unit lost whole, its bytes unknown) and
 * whether a walk of formats stopped at damage (the formats after it are lost).
 */
static void on_item(void *user, const struct tfk_item *it)
{
	struct rp_model *m = user;
	if (it->kind == TFK_ITEM_CPU) {
		struct rp_buffer *b = cur_buffer(m);
		for (size_t k = 0; b && k < b->ncpus; k++)
			if (b->cpus[k].cpu == it->id)
				b->cpus[k].item_bytes = it->length;
		return;
	}
	if (it->kind != TFK_ITEM_BLOB || !strstr(it->detail, "walk stopped by damage"))
		return;
	if (strncmp(it->name, "system ", 7) == 0)
		m->formats_stopped = true;
	else if (strcmp(it->name, "ftrace formats") == 0)
		m->ftrace_stopped = true;
}

struct tfk_observer rp_model_observer(struct rp_model *m)
{
	struct tfk_observer o = {
		.user = m,
		.geometry = on_geometry,
		.meta = on_meta,
		.option = on_option,
		.buffer = on_buffer,
		.cpu = on_cpu,
		.cpu_extent = on_cpu_extent,
		.page = on_page,
		.item = on_item,
	};
	return o;
}

static void list_free(struct rp_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i].data);
	free(l->items);
}

void rp_model_free(struct rp_model *m)
{
	free(m->header_page.data);
	free(m->header_event.data);
	free(m->kallsyms.data);
	free(m->printk.data);
	free(m->cmdlines.data);
	list_free(&m->ftrace);
	for (size_t i = 0; i < m->nsystems; i++) {
		free(m->systems[i].name.data);
		list_free(&m->systems[i].formats);
	}
	free(m->systems);
	for (size_t i = 0; i < m->noptions; i++)
		free(m->options[i].payload.data);
	free(m->options);
	for (size_t i = 0; i < m->nbuffers; i++) {
		for (size_t k = 0; k < m->buffers[i].ncpus; k++) {
			free(m->buffers[i].cpus[k].pages);
			free(m->buffers[i].cpus[k].spill.data);
		}
		free(m->buffers[i].cpus);
		free(m->buffers[i].latency_text.data);
	}
	free(m->buffers);
	free(m->extents);
	memset(m, 0, sizeof(*m));
}
