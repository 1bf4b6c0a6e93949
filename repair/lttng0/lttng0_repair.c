/* SPDX-License-Identifier: MIT */
/*
 * Legacy LTTng 0.x tracefiles' repair plug-in (spec other-formats.md §3.6): the blocks the check
 * found sound are kept as they are; a block whose events are whole only up to a point (an event
 * crossing its data, or the file cut inside it) is kept with its fill (2008 lost_size, LTF 2.x
 * data_size) ending at the last whole event, padded with zeros to its size when cut; blocks
 * whose header cannot be trusted, and bytes where no block was found, are dropped. There is no
 * index to regenerate. A trace directory goes through the directory driver (repair_dir.c):
 * each damaged tracefile is laid out by the same rules, the others copied as they are.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common.h"
#include "dir_output.h"
#include "format.h"
#include "formats/formats.h"
#include "input.h"
#include "sinks/sink_common.h"
#include "formats/lttng0/lttng0_model.h"

/* A tracefile of a directory: its blocks are blocks[first, first + n), its patches likewise. */
struct l0_member {
	char name[256];
	size_t first, n;
	size_t pfirst, pn;
};

struct l0_model {
	struct tfk_lttng0_block *blocks;
	size_t n, cap;
	struct l0_member *members;
	size_t nm, capm;
	struct tfk_lttng0_patch *patches; /* bytes the check proved, to write back */
	size_t np, capp;
	bool oom;
};

static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	struct l0_model *m = user;
	if (format != &tfk_format_lttng0)
		return;
	if (kind == TFK_LTTNG0_MODEL_MEMBER && size == sizeof(struct tfk_lttng0_member)) {
		if (!rp_grow((void **)&m->members, &m->capm, m->nm + 1, sizeof(*m->members))) {
			m->oom = true;
			return;
		}
		struct l0_member *mm = &m->members[m->nm++];
		memcpy(mm->name, ((const struct tfk_lttng0_member *)data)->name, sizeof(mm->name));
		mm->name[sizeof(mm->name) - 1] = 0;
		mm->first = m->n;
		mm->n = 0;
		mm->pfirst = m->np;
		mm->pn = 0;
		return;
	}
	if (kind == TFK_LTTNG0_MODEL_PATCH && size == sizeof(struct tfk_lttng0_patch)) {
		if (!rp_grow((void **)&m->patches, &m->capp, m->np + 1, sizeof(*m->patches))) {
			m->oom = true;
			return;
		}
		memcpy(&m->patches[m->np++], data, sizeof(*m->patches));
		if (m->nm)
			m->members[m->nm - 1].pn++;
		return;
	}
	if (kind != TFK_LTTNG0_MODEL_BLOCK || size != sizeof(*m->blocks))
		return;
	if (!rp_grow((void **)&m->blocks, &m->cap, m->n + 1, sizeof(*m->blocks))) {
		m->oom = true;
		return;
	}
	memcpy(&m->blocks[m->n++], data, sizeof(*m->blocks));
	if (m->nm)
		m->members[m->nm - 1].n++;
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
	free(m->members);
	free(m->patches);
	m->blocks = NULL;
	m->members = NULL;
	m->patches = NULL;
	m->n = m->cap = m->nm = m->capm = m->np = m->capp = 0;
}

/*
 * A block the end of the file cut is put back to its size with zeros. Its size is the file's
 * word: LTTng 0.x sub-buffers were kilobytes to a few megabytes, and a header that claims more
 * missing bytes than this would have a few kilobytes of input written out as gigabytes. Such a
 * block is not trusted: dropped, its events counted lost.
 */
#define L0_PAD_MAX (16u << 20)

static bool kept(const struct tfk_lttng0_block *b)
{
	if (b->present < b->size && b->size - b->present > L0_PAD_MAX)
		return false;
	return b->state == TFK_LTTNG0_KEEP || (b->state == TFK_LTTNG0_CLIP && b->events);
}

/* A block clipped to its last whole event: its header with the fill rewritten, the events, zeros. */
static void clip(const struct tfk_lttng0_block *b, const struct tfk_cursor *in, struct rp_out *out)
{
	const size_t hdr = b->layout == 1 ? 109 : 68;
	uint8_t h[109];
	const uint8_t *was;
	if (b->good_end < hdr || !tfk_cur_bytes_at(in, b->offset, hdr, &was)) {
		out->oom = true; /* the model names bytes the input does not hold: nothing is written */
		return;
	}
	memcpy(h, was, hdr);
	if (b->layout == 1)
		rp_put_num(h + 32, b->size - b->good_end, 4, b->big_endian); /* lost_size (§3.2) */
	else if (b->lost_form)
		rp_put_num(h + 52, b->size - b->good_end, 4, b->big_endian); /* LTF 2.3/2.4 lost_size */
	else
		rp_put_num(h + 52, b->good_end, 4, b->big_endian);           /* data_size (§3.3) */
	const uint64_t start = out->len;
	rp_out_put(out, h, hdr);
	rp_out_keep_at(out, in, b->offset + hdr, b->good_end - hdr);
	rp_out_zeros_to(out, start + b->size);
}

/* Add what the blocks give to the salvage counts. */
static void salvage(const struct tfk_lttng0_block *blocks, size_t n, struct tfk_salvage_cpu *c)
{
	for (size_t i = 0; i < n; i++) {
		const struct tfk_lttng0_block *b = &blocks[i];
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

/* The kept blocks of a tracefile (in, size bytes) into out; how many were kept. */
static size_t lay_blocks(const struct tfk_lttng0_block *blocks, size_t n, const uint8_t *in, size_t size,
			 struct rp_out *out)
{
	size_t keep = 0;
	/* The blocks' offsets came from a hostile file: their bytes are read through the cursor. */
	const struct tfk_cursor file = tfk_cur_make(in, size, 0, false);
	for (size_t i = 0; i < n; i++) {
		const struct tfk_lttng0_block *b = &blocks[i];
		if (b->offset > size || b->present > size - b->offset || !kept(b))
			continue;
		keep++;
		if (b->state == TFK_LTTNG0_KEEP && b->present == b->size)
			rp_out_keep_at(out, &file, b->offset, b->size);
		else
			clip(b, &file, out);
	}
	return keep;
}

static const char *const incomplete_reason =
	"part of it could not be checked (event sizes left to marker formats the trace does not give, or a "
	"limit), so no repaired copy could be proven";

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
		rep->reason = m->oom ? "out of memory" : incomplete_reason;
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
	lay_blocks(m->blocks, m->n, in, size, out);
	if (out->oom) {
		rep->outcome = TFK_REPAIR_FAILED;
		return false;
	}
	rep->cpus = calloc(1, sizeof(*rep->cpus));
	if (rep->cpus) {
		rep->ncpus = 1;
		snprintf(rep->cpus[0].buffer, sizeof(rep->cpus[0].buffer), "tracefile blocks");
		salvage(m->blocks, m->n, &rep->cpus[0]);
	}
	rep->buffers = 1;
	return true;
}

/* ---- trace directories ---------------------------------------------------------------- */

static const struct l0_member *member_of(const struct l0_model *m, const char *name)
{
	for (size_t i = 0; i < m->nm; i++)
		if (strcmp(m->members[i].name, name) == 0)
			return &m->members[i];
	return NULL;
}

/* Is every block of the tracefile kept as it is (nothing cut, clipped, dropped, patched)? */
static bool whole(const struct l0_model *m, const struct l0_member *mm)
{
	if (mm->pn)
		return false;
	for (size_t i = mm->first; i < mm->first + mm->n; i++)
		if (m->blocks[i].state != TFK_LTTNG0_KEEP || m->blocks[i].present != m->blocks[i].size)
			return false;
	return true;
}

/* One member: copied as it is, or its kept blocks laid out, or left out when none is. */
static int write_member(const struct l0_model *m, const struct tfk_input *in, const struct tfk_member *mem,
			struct rp_dir *dir, struct tfk_salvage_member *s, struct tfk_salvage_cpu *total)
{
	struct tfk_member_map map = { 0 };
	if (mem->size && tfk_member_open(in, mem, &map) != 0)
		return -1;
	const struct l0_member *mm = member_of(m, mem->name);
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	struct tfk_salvage_cpu c = { 0 };
	if (mm) {
		salvage(m->blocks + mm->first, mm->n, &c);
		rp_set_unit(s, RP_UNIT_EVENTS);
		s->kept = c.events_kept;
		s->lost = c.events_lost;
		s->lost_unknown = c.pages_clipped || c.bytes_missing || c.pages_dropped;
	}
	int rc = 0;
	/* The bytes the check proved are written back in a copy, which the blocks are laid out from. */
	const uint8_t *data = map.data;
	uint8_t *patched = NULL;
	if (mm && mm->pn) {
		patched = malloc(map.size ? map.size : 1);
		if (!patched) {
			errno = ENOMEM;
			rc = -1;
			goto out;
		}
		memcpy(patched, map.data, map.size);
		for (size_t i = mm->pfirst; i < mm->pfirst + mm->pn; i++)
			if (m->patches[i].offset < map.size)
				patched[m->patches[i].offset] = m->patches[i].value;
		data = patched;
	}
	if (!mm || whole(m, mm)) {
		rp_out_keep(&o, data, map.size);
	} else if (lay_blocks(m->blocks + mm->first, mm->n, data, map.size, &o) == 0) {
		s->action = rp_action_name(RP_ACTION_LEFT_OUT);
		s->bytes_dropped = map.size;
		snprintf(s->note, sizeof(s->note), "no block whose header can be trusted");
		goto out;
	} else {
		s->action = rp_action_name(RP_ACTION_REWRITTEN);
		snprintf(s->note, sizeof(s->note), "%" PRIu64 " block%s kept whole, %" PRIu64 " clipped to the last whole event, %" PRIu64 " dropped%s",
			 c.pages_kept, c.pages_kept == 1 ? "" : "s", c.pages_clipped, c.pages_dropped,
			 mm->pn ? "; marker_id type sizes written back" : "");
	}
	s->bytes_out = o.len;
	s->bytes_dropped = map.size > o.len ? map.size - o.len : 0;
	rc = o.oom ? (errno = ENOMEM, -1) : rp_dir_member(dir, mem->name, &o);
out:
	if (mm) {
		total->pages_kept += c.pages_kept;
		total->pages_clipped += c.pages_clipped;
		total->pages_dropped += c.pages_dropped;
		total->events_kept += c.events_kept;
		total->events_lost += c.events_lost;
		total->bytes_missing += c.bytes_missing;
	}
	rp_out_free(&o);
	free(patched);
	if (mem->size)
		tfk_member_close(&map);
	return rc;
}

/*
 * An error no block rule addresses (no per-CPU tracefile, a damaged marker record): the
 * output could not check clean, so nothing is written. Its summary, or NULL.
 */
static const char *unrepairable(const struct tfk_report *before)
{
	for (size_t i = 0; i < before->count; i++) {
		const struct tfk_finding *f = &before->findings[i];
		if (f->severity == TFK_SEV_ERROR && f->fault->repair == TFK_REPAIR_NONE)
			return f->fault->summary;
	}
	return NULL;
}

/* Does a kept block remain in some per-CPU or channel tracefile (top level, not metadata_N)? */
static bool data_kept(const struct l0_model *m)
{
	for (size_t i = 0; i < m->nm; i++) {
		const struct l0_member *mm = &m->members[i];
		if (strchr(mm->name, '/') || strncmp(mm->name, "metadata_", 9) == 0)
			continue;
		for (size_t b = mm->first; b < mm->first + mm->n; b++)
			if (kept(&m->blocks[b]))
				return true;
	}
	return false;
}

/*
 * Does a marker metadata tracefile keep none of its blocks? Without it the events of every
 * channel have no size: no repaired copy could check clean. A metadata tracefile is named as
 * the check names it (lttng0_dir.c): its base name begins facilities_ (2008, in control/) or
 * metadata_ (LTF 2.x).
 */
static bool metadata_lost(const struct l0_model *m)
{
	for (size_t i = 0; i < m->nm; i++) {
		const struct l0_member *mm = &m->members[i];
		const char *slash = strrchr(mm->name, '/'), *base = slash ? slash + 1 : mm->name;
		if (!mm->n || (strncmp(base, "metadata_", 9) != 0 && strncmp(base, "facilities_", 11) != 0))
			continue;
		bool any = false;
		for (size_t b = mm->first; b < mm->first + mm->n && !any; b++)
			any = kept(&m->blocks[b]);
		if (!any)
			return true;
	}
	return false;
}

static int l0_write_dir(const void *model, const struct tfk_input *in, struct rp_dir *dir, struct tfk_repair_report *rep)
{
	const struct l0_model *m = model;
	const char *why = unrepairable(&rep->before);
	if (!why && !data_kept(m))
		why = "no block of any per-CPU tracefile has a header that can be trusted";
	if (!why && metadata_lost(m))
		why = "no block of a marker metadata tracefile has a header that can be trusted";
	if (rep->before.incomplete || m->oom || why) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = m->oom ? "out of memory" : why ? why : incomplete_reason;
		return 1;
	}
	rep->cpus = calloc(1, sizeof(*rep->cpus));
	rep->members = calloc(in->n ? in->n : 1, sizeof(*rep->members));
	if (!rep->cpus || !rep->members) {
		errno = ENOMEM;
		return -1;
	}
	rep->ncpus = 1;
	rep->buffers = 1;
	snprintf(rep->cpus[0].buffer, sizeof(rep->cpus[0].buffer), "tracefile blocks");
	for (size_t i = 0; i < in->n; i++) {
		const struct tfk_member *mem = &in->members[i];
		if (mem->kind == TFK_MEMBER_DIR)
			continue; /* made as its members are written */
		struct tfk_salvage_member *s = &rep->members[rep->nmembers++];
		snprintf(s->member, sizeof(s->member), "%s", mem->name);
		s->action = rp_action_name(RP_ACTION_COPIED);
		s->bytes_in = mem->size;
		if (mem->kind != TFK_MEMBER_FILE) {
			s->action = rp_action_name(RP_ACTION_LEFT_OUT);
			snprintf(s->note, sizeof(s->note), "not a regular file");
			continue;
		}
		if (write_member(m, in, mem, dir, s, &rep->cpus[0]) != 0)
			return -1;
	}
	return 0;
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

/* A marker metadata tracefile (metadata_N, facilities_N) describes the channels' events: metadata. */
static bool l0_member_is_metadata(const struct tfk_salvage_member *s)
{
	const char *slash = strrchr(s->member, '/');
	const char *base = slash ? slash + 1 : s->member;
	return strncmp(base, "metadata_", 9) == 0 || strncmp(base, "facilities_", 11) == 0;
}

/* A directory: by its members; a single tracefile: one unit, its blocks' events. */
static void l0_account(const void *model, struct tfk_repair_report *rep)
{
	(void)model;
	if (rep->nmembers) {
		rp_account_from_members(&rp_format_lttng0, rep);
		return;
	}
	if (!rep->ncpus)
		return;
	const struct tfk_salvage_cpu *c = &rep->cpus[0];
	const bool uncounted = c->pages_clipped || c->pages_dropped || c->bytes_missing;
	const bool loss = uncounted || c->events_lost;
	struct tfk_salvage_part *p = rp_part_add(rep, TFK_SALVAGE_UNIT,
						 !loss ? TFK_SALVAGE_KEPT : c->events_kept ? TFK_SALVAGE_PART_LOST : TFK_SALVAGE_LOST,
						 "tracefile");
	if (!p)
		return;
	p->kept = c->events_kept;
	p->lost = c->events_lost;
	p->lost_unknown = uncounted;
	p->bytes_unknown = c->bytes_missing;
	if (uncounted)
		snprintf(p->note, sizeof(p->note), "%" PRIu64 " block%s clipped, %" PRIu64 " dropped", c->pages_clipped,
			 s(c->pages_clipped), c->pages_dropped);
}

const struct rp_format rp_format_lttng0 = {
	.format = &tfk_format_lttng0,
	.model_size = sizeof(struct l0_model),
	.observer = l0_observer,
	.model_free = l0_model_free,
	.lay_out = l0_lay_out,
	.kept_any = l0_kept_any,
	.salvage_text = l0_salvage_text,
	.account = l0_account,
	.member_is_metadata = l0_member_is_metadata,
	.write_dir = l0_write_dir,
};
