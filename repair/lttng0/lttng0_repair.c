/* SPDX-License-Identifier: MIT */
/*
 * Legacy LTTng 0.x tracefiles' repair plug-in (spec other-formats.md §3.6): the blocks the check
 * found sound are kept as they are; a block whose events are whole only up to a point (an event
 * crossing its data, or the file cut inside it) is kept with its fill (2008 lost_size, LTF 2.x
 * data_size) ending at the last whole event, padded with zeros to its size when cut; blocks
 * whose header cannot be trusted, and bytes where no block was found, are dropped. There is no
 * index to regenerate. One tracefile at a time (a directory's repair needs the driver's
 * directory entry point).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "format.h"
#include "sinks/sink_common.h"
#include "tracefsck/formats/lttng0.h"

struct l0_model {
	struct tfk_lttng0_block *blocks;
	size_t n, cap;
	bool oom;
};

static void on_model(void *user, const char *format, uint32_t kind, const void *data, size_t size)
{
	struct l0_model *m = user;
	if (strcmp(format, rp_format_lttng0.checks) != 0 || kind != TFK_LTTNG0_MODEL_BLOCK || size != sizeof(*m->blocks))
		return;
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		struct tfk_lttng0_block *b = realloc(m->blocks, cap * sizeof(*b));
		if (!b) {
			m->oom = true;
			return;
		}
		m->blocks = b;
		m->cap = cap;
	}
	memcpy(&m->blocks[m->n++], data, sizeof(*m->blocks));
}

static struct tfk_observer l0_observer(void *model, const uint8_t *in, size_t size, unsigned pass)
{
	(void)in;
	(void)size;
	(void)pass;
	return (struct tfk_observer){ .user = model, .model = on_model };
}

static void l0_model_free(void *model)
{
	struct l0_model *m = model;
	free(m->blocks);
	m->blocks = NULL;
	m->n = m->cap = 0;
}

static bool kept(const struct tfk_lttng0_block *b)
{
	return b->state == TFK_LTTNG0_KEEP || (b->state == TFK_LTTNG0_CLIP && b->events);
}

/* A block clipped to its last whole event: its header with the fill rewritten, the events, zeros. */
static void clip(const struct tfk_lttng0_block *b, const uint8_t *in, struct rp_out *out)
{
	const size_t hdr = b->layout == 1 ? 109 : 68;
	uint8_t h[109];
	memcpy(h, in + b->offset, hdr);
	if (b->layout == 1)
		rp_put_num(h + 32, b->size - b->good_end, 4, b->big_endian); /* lost_size (§3.2) */
	else
		rp_put_num(h + 52, b->good_end, 4, b->big_endian);           /* data_size (§3.3) */
	const uint64_t start = out->len;
	rp_out_put(out, h, hdr);
	rp_out_keep(out, in + b->offset + hdr, (size_t)(b->good_end - hdr));
	rp_out_zeros_to(out, start + b->size);
}

static void salvage(const struct l0_model *m, struct tfk_salvage_cpu *c)
{
	snprintf(c->buffer, sizeof(c->buffer), "tracefile blocks");
	for (size_t i = 0; i < m->n; i++) {
		const struct tfk_lttng0_block *b = &m->blocks[i];
		if (b->state == TFK_LTTNG0_KEEP)
			c->pages_kept++;
		else if (kept(b))
			c->pages_clipped++;
		else
			c->pages_dropped++;
		if (kept(b))
			c->events_kept += b->events;
		else
			c->events_lost += b->events;
		if (b->state != TFK_LTTNG0_GARBAGE && b->present < b->size)
			c->bytes_missing += b->size - b->present;
	}
}

static bool l0_lay_out(const void *model, const uint8_t *in, size_t size, struct tfk_repair_report *rep,
		       struct rp_out *out)
{
	const struct l0_model *m = model;
	if (!rep->before.by_severity[TFK_SEV_ERROR] && !rep->before.internal_error) {
		rep->outcome = TFK_REPAIR_NOTHING_TO_DO;
		return false;
	}
	if (rep->before.incomplete || m->oom || !m->n) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = m->oom ? "out of memory"
				     : "part of it could not be checked (event sizes left to the marker formats, or a "
				       "limit), so no repaired copy could be proven";
		return false;
	}
	size_t keep = 0;
	for (size_t i = 0; i < m->n; i++)
		keep += kept(&m->blocks[i]);
	if (!keep) {
		/* An empty file is no tracefile: there is nothing a reader could be given. */
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "no block of the tracefile has a header that can be trusted";
		return false;
	}
	for (size_t i = 0; i < m->n; i++) {
		const struct tfk_lttng0_block *b = &m->blocks[i];
		if (b->offset > size || b->present > size - b->offset)
			continue;
		if (b->state == TFK_LTTNG0_KEEP && b->present == b->size)
			rp_out_keep(out, in + b->offset, (size_t)b->size);
		else if (kept(b))
			clip(b, in, out);
	}
	if (out->oom) {
		rep->outcome = TFK_REPAIR_FAILED;
		return false;
	}
	rep->cpus = calloc(1, sizeof(*rep->cpus));
	if (rep->cpus) {
		rep->ncpus = 1;
		salvage(m, &rep->cpus[0]);
	}
	rep->buffers = 1;
	return true;
}

static bool l0_kept_any(const void *model, struct tfk_repair_report *rep)
{
	(void)rep;
	const struct l0_model *m = model;
	for (size_t i = 0; i < m->n; i++)
		if (kept(&m->blocks[i]) && m->blocks[i].events)
			return true;
	return false;
}

static const char *s(uint64_t n)
{
	return n == 1 ? "" : "s";
}

static int l0_salvage_text(const struct tfk_repair_report *rep, const char *safe, tfk_write_fn write, void *user)
{
	struct tfk_salvage_cpu c = { 0 };
	if (rep->ncpus)
		c = rep->cpus[0];
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "%s: salvage: kept %" PRIu64 " block%s whole", safe, c.pages_kept, s(c.pages_kept));
	if (c.pages_clipped)
		tfk_line_printf(&l, " and %" PRIu64 " block%s up to the last whole event", c.pages_clipped,
				s(c.pages_clipped));
	tfk_line_printf(&l, " (%" PRIu64 " event%s)", c.events_kept, s(c.events_kept));
	if (c.pages_dropped)
		tfk_line_printf(&l, "; dropped %" PRIu64 " damaged block%s or run%s of garbage (%" PRIu64
				    " event%s walked in them)",
				c.pages_dropped, s(c.pages_dropped), s(c.pages_dropped), c.events_lost, s(c.events_lost));
	if (c.pages_clipped)
		tfk_line_printf(&l, "; the events after the damage in a clipped block are unknown");
	if (c.bytes_missing)
		tfk_line_printf(&l, "; %" PRIu64 " bytes of the last block missing from the file, which was cut short "
				    "(events there unknown)", c.bytes_missing);
	if (!c.pages_dropped && !c.pages_clipped && !c.bytes_missing)
		tfk_line_printf(&l, "; no block lost");
	tfk_line_printf(&l, "\n");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

const struct rp_format rp_format_lttng0 = {
	.checks = "LTTng 0.x",
	.model_size = sizeof(struct l0_model),
	.observer = l0_observer,
	.model_free = l0_model_free,
	.lay_out = l0_lay_out,
	.kept_any = l0_kept_any,
	.salvage_text = l0_salvage_text,
};
