/* SPDX-License-Identifier: MIT */
/*
 * trace.dat's repair plug-in: the model (model.c) is built from the check's observer stream,
 * and written as a trace.dat version 6 (write_v6.c): regenerated tables, kept pages by
 * reference.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "formats/formats.h"
#include "model.h"

static struct tfk_observer td_observer(void *model, const uint8_t *in, size_t size, unsigned pass)
{
	struct rp_model *m = model;
	m->input = in;
	m->input_size = size;
	/*
	 * Pages out of a decoder (compressed v7) must be copied to be kept: gigabytes, for a file
	 * that may well be clean. The first pass keeps no copies; only when the input turns out
	 * damaged and had such pages is it checked again, copying them.
	 */
	m->defer_spill = pass == 0;
	return rp_model_observer(m);
}

static bool td_check_again(const void *model)
{
	return ((const struct rp_model *)model)->spill_deferred;
}

static void td_model_free(void *model)
{
	rp_model_free(model);
}

/* What a declared extent says was lost: the bytes (and, uncompressed, pages) not in the file. */
static void apply_extent(struct tfk_salvage_cpu *c, const struct rp_extent *e, uint32_t page_size)
{
	c->bytes_declared = e->declared;
	c->bytes_missing = e->declared - e->present;
	c->compressed = e->compressed;
	if (!e->compressed && page_size && c->bytes_missing) {
		/* pages declared, less the whole pages present: a partial page at the cut counts */
		uint64_t declared = e->declared / page_size + (e->declared % page_size != 0);
		uint64_t whole = e->present / page_size;
		c->pages_missing = declared > whole ? declared - whole : 0;
	}
}

static void td_stats(const void *model, struct tfk_repair_report *rep)
{
	const struct rp_model *m = model;
	size_t n = m->nextents;
	for (size_t i = 0; i < m->nbuffers; i++)
		n += m->buffers[i].ncpus;
	rep->cpus = n ? calloc(n, sizeof(*rep->cpus)) : NULL;
	rep->buffers = (uint32_t)m->nbuffers;
	if (!rep->cpus)
		return;
	size_t *first = calloc(m->nbuffers + 1, sizeof(*first)); /* each buffer's first entry in rep->cpus */
	for (size_t i = 0; i < m->nbuffers; i++) {
		if (first)
			first[i] = rep->ncpus;
		for (size_t k = 0; k < m->buffers[i].ncpus; k++)
			rep->cpus[rep->ncpus++] = m->buffers[i].cpus[k].stats;
	}
	if (!first)
		return;
	first[m->nbuffers] = rep->ncpus;
	/* Each declared extent goes to the CPU it describes; a CPU with no page kept gets an entry of its own. */
	for (size_t x = 0; x < m->nextents; x++) {
		const struct rp_extent *e = &m->extents[x];
		if (e->buffer >= m->nbuffers)
			continue;
		struct tfk_salvage_cpu *c = NULL;
		for (size_t k = first[e->buffer]; k < first[e->buffer + 1] && !c; k++)
			if (rep->cpus[k].cpu == e->cpu && !rep->cpus[k].bytes_declared)
				c = &rep->cpus[k];
		if (!c) {
			c = &rep->cpus[rep->ncpus++];
			memset(c, 0, sizeof(*c));
			c->cpu = e->cpu;
			snprintf(c->buffer, sizeof(c->buffer), "%s", m->buffers[e->buffer].name);
		}
		apply_extent(c, e, m->buffers[e->buffer].page_size);
	}
	free(first);
}

static bool td_lay_out(const void *model, const uint8_t *in, size_t size, struct tfk_repair_report *rep,
		       struct rp_out *out)
{
	const struct rp_model *m = model;
	(void)in;
	(void)size;
	if (!m->have_geometry || m->oom) {
		/* Nothing about the ring pages could be proven: there is nothing to write. */
		rep->outcome = m->oom ? TFK_REPAIR_FAILED : TFK_REPAIR_UNSUPPORTED;
		rep->reason = "no page layout could be proven";
		return false;
	}
	if (m->geo.version == 7)
		snprintf(rep->converted, sizeof(rep->converted), "%s -> v6", rep->before.stats.format);
	if (rp_write_v6(m, out) != 0) {
		rep->outcome = TFK_REPAIR_FAILED;
		return false;
	}
	return true;
}

static bool td_kept_any(const void *model, struct tfk_repair_report *rep)
{
	const struct rp_model *m = model;
	rep->metadata_lost = !m->have_header_page || !m->have_header_event;
	for (size_t i = 0; i < rep->before.count; i++)
		rep->options_dropped += strncmp(rep->before.findings[i].fault->id, "tracedat.option.", 16) == 0;
	/* An output without a single event (or latency text) is of no use to a reader, however
	 * much metadata it keeps: nothing was salvaged. */
	uint64_t events_in = 0;
	for (size_t i = 0; i < rep->ncpus; i++)
		events_in += rep->cpus[i].events_kept;
	bool latency_kept = false;
	for (size_t i = 0; i < m->nbuffers; i++)
		latency_kept |= m->buffers[i].latency && m->buffers[i].latency_text.len > 0;
	return events_in != 0 || latency_kept;
}

const struct rp_format rp_format_tracedat = {
	.format = &tfk_format_tracedat,
	.model_size = sizeof(struct rp_model),
	.observer = td_observer,
	.check_again = td_check_again,
	.model_free = td_model_free,
	.stats = td_stats,
	.lay_out = td_lay_out,
	.kept_any = td_kept_any,
	.salvage_text = rp_tracedat_salvage_text,
	.account = rp_tracedat_account,
};
