/* SPDX-License-Identifier: MIT */
/*
 * trace.dat's salvage account: each CPU of each buffer a unit, each metadata text a section.
 * Every text trace-cmd writes is in every file it writes (an empty kallsyms is still there),
 * so a text the check never reached is lost, and one whose malformed lines were left out is
 * lost in part. Kept events whose format was lost are counted by the check of the output:
 * readers show them as unknown events.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "model.h"

/* The model's CPU a salvage entry describes (NULL for one no page or walk reached). */
static const struct rp_cpu *model_cpu(const struct rp_model *m, const struct tfk_salvage_cpu *c)
{
	for (size_t i = 0; i < m->nbuffers; i++) {
		if (strncmp(m->buffers[i].name, c->buffer, sizeof(c->buffer)) != 0)
			continue;
		for (size_t k = 0; k < m->buffers[i].ncpus; k++)
			if (m->buffers[i].cpus[k].cpu == c->cpu)
				return &m->buffers[i].cpus[k];
	}
	return NULL;
}

static void cpu_unit(const struct rp_model *m, const struct tfk_salvage_cpu *c, struct tfk_repair_report *rep)
{
	const struct rp_cpu *mc = model_cpu(m, c);
	/* data the walk covered but not one page of it could be read (a chunk that does not decode) */
	const bool unreadable = mc && mc->item_bytes && !mc->pages_seen;
	const bool uncounted = c->pages_dropped || c->pages_clipped || c->bytes_missing || unreadable;
	const bool loss = c->events_lost || uncounted;
	enum tfk_salvage_state st = !loss ? TFK_SALVAGE_KEPT : c->events_kept ? TFK_SALVAGE_PART_LOST : TFK_SALVAGE_LOST;
	struct tfk_salvage_part *p = c->buffer[0]
		? rp_part_add(rep, TFK_SALVAGE_UNIT, st, "buffer %s cpu%" PRIu32, c->buffer, c->cpu)
		: rp_part_add(rep, TFK_SALVAGE_UNIT, st, "cpu%" PRIu32, c->cpu);
	if (!p)
		return;
	p->kept = c->events_kept;
	p->lost = c->events_lost;
	p->lost_unknown = uncounted;
	if (unreadable) {
		p->bytes_unknown = mc->item_bytes;
		snprintf(p->note, sizeof(p->note), "not one page of its data could be read");
	} else if (c->bytes_missing) {
		p->bytes_unknown = c->bytes_missing;
		snprintf(p->note, sizeof(p->note), "cut short");
	} else if (c->pages_dropped || c->pages_clipped) {
		const uint32_t ps = m->nbuffers ? m->buffers[0].page_size : 0;
		p->bytes_unknown = ps ? c->pages_dropped * (uint64_t)ps : 0; /* clipped pages' tails are not counted */
		snprintf(p->note, sizeof(p->note), "damaged pages");
	}
}

/* A text trace-cmd always writes: lost when never reached, in part when lines were left out. */
static void text_section(const struct rp_model *m, enum tfk_meta_kind kind, const struct rp_blob *kept, const char *name,
			 struct tfk_repair_report *rep)
{
	if (!m->meta_seen[kind]) {
		struct tfk_salvage_part *p = rp_part_add(rep, TFK_SALVAGE_METADATA, TFK_SALVAGE_LOST, "%s", name);
		if (p)
			snprintf(p->note, sizeof(p->note), "not readable in the input");
		return;
	}
	const uint64_t in = m->meta_bytes[kind];
	const bool part = in > kept->len;
	struct tfk_salvage_part *p =
		rp_part_add(rep, TFK_SALVAGE_METADATA, part ? TFK_SALVAGE_PART_LOST : TFK_SALVAGE_KEPT, "%s", name);
	if (!p)
		return;
	p->kept = kept->len;
	p->lost = part ? in - kept->len : 0;
	if (part)
		snprintf(p->note, sizeof(p->note), "bytes of malformed lines left out");
}

/* Were formats left out by the check (a grammar it rejects), or a walk of them stopped? */
static bool formats_rejected(const struct tfk_repair_report *rep)
{
	for (size_t i = 0; i < rep->before.count; i++) {
		const char *id = rep->before.findings[i].fault->id;
		if (rep->before.findings[i].fault->severity == TFK_SEV_ERROR && strncmp(id, "tracedat.format.", 16) == 0)
			return true;
	}
	return false;
}

void rp_tracedat_account(const void *model, struct tfk_repair_report *rep)
{
	const struct rp_model *m = model;
	for (size_t i = 0; i < rep->ncpus; i++)
		cpu_unit(m, &rep->cpus[i], rep);
	struct tfk_salvage_part *p;
	bool latency = false;
	for (size_t i = 0; i < m->nbuffers; i++)
		latency |= m->buffers[i].latency;
	if (!rep->ncpus && !latency) {
		/* Not one CPU's data was reached: whatever the file recorded is lost, and uncounted. */
		p = rp_part_add(rep, TFK_SALVAGE_UNIT, TFK_SALVAGE_LOST, "CPU data");
		if (p) {
			p->lost_unknown = true;
			snprintf(p->note, sizeof(p->note), "no CPU's data could be found past the damage");
		}
	}
	p = rp_part_add(rep, TFK_SALVAGE_METADATA, m->have_header_page ? TFK_SALVAGE_KEPT : TFK_SALVAGE_PART_LOST,
			"header_page");
	if (p && !m->have_header_page)
		snprintf(p->note, sizeof(p->note), "regenerated from the page geometry");
	p = rp_part_add(rep, TFK_SALVAGE_METADATA, m->have_header_event ? TFK_SALVAGE_KEPT : TFK_SALVAGE_PART_LOST,
			"header_event");
	if (p && !m->have_header_event)
		snprintf(p->note, sizeof(p->note), "regenerated");
	/* ftrace formats: a walk stopped by damage lost those after it */
	const bool reached = m->meta_seen[TFK_META_FTRACE_FORMAT] || m->ftrace_stopped || m->meta_seen[TFK_META_SYSTEM] ||
			     m->meta_seen[TFK_META_KALLSYMS];
	enum tfk_salvage_state st = !reached ? TFK_SALVAGE_LOST
				    : m->ftrace_stopped ? (m->ftrace.n ? TFK_SALVAGE_PART_LOST : TFK_SALVAGE_LOST)
							: TFK_SALVAGE_KEPT;
	p = rp_part_add(rep, TFK_SALVAGE_METADATA, st, "ftrace formats");
	if (p)
		p->kept = m->ftrace.n;
	/*
	 * Event formats: lost in part when a walk of them stopped or formats were left out; lost when
	 * not one system was read though the texts after them (kallsyms, v6) or the section (v7)
	 * were never reached either.
	 */
	const bool stopped = m->formats_stopped || formats_rejected(rep);
	st = m->nsystems == 0 && (stopped || !m->meta_seen[TFK_META_KALLSYMS]) ? TFK_SALVAGE_LOST
	     : stopped							  ? TFK_SALVAGE_PART_LOST
									  : TFK_SALVAGE_KEPT;
	p = rp_part_add(rep, TFK_SALVAGE_METADATA, st, "event formats");
	if (p) {
		p->kept = m->nformats;
		p->lost_unknown = st != TFK_SALVAGE_KEPT;
		snprintf(p->note, sizeof(p->note), "%zu system%s kept%s", m->nsystems, m->nsystems == 1 ? "" : "s",
			 st != TFK_SALVAGE_KEPT ? "; the formats after the damage are lost" : "");
	}
	text_section(m, TFK_META_KALLSYMS, &m->kallsyms, "kallsyms", rep);
	text_section(m, TFK_META_PRINTK, &m->printk, "printk formats", rep);
	text_section(m, TFK_META_CMDLINES, &m->cmdlines, "saved cmdlines", rep);
	p = rp_part_add(rep, TFK_SALVAGE_METADATA, rep->options_dropped ? TFK_SALVAGE_PART_LOST : TFK_SALVAGE_KEPT,
			"options");
	if (p) {
		p->kept = m->noptions;
		p->lost = rep->options_dropped;
	}
}
