/* SPDX-License-Identifier: MIT */
/*
 * The salvage report's totals and its JSON Lines form. Totals are summed here once, so that
 * the text report, the JSON and any program embedding the library say the same numbers.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "sinks/sink_common.h"
#include "tracefsck/check.h"
#include "tracefsck/repair.h"

void tfk_salvage_sum(const struct tfk_repair_report *rep, struct tfk_salvage_totals *t)
{
	memset(t, 0, sizeof(*t));
	t->no_buffer = rep->buffers == 0 && rep->outcome != TFK_REPAIR_NOTHING_TO_DO;
	/* A file cut short may have lost whole buffers, sections and CPUs past the cut that nothing
	 * left in it declares: the loss cannot be complete, whatever was counted. */
	for (size_t i = 0; i < rep->before.count && !t->cut_short; i++)
		t->cut_short = rep->before.findings[i].fault->repair == TFK_REPAIR_TRUNCATE;
	for (size_t i = 0; i < rep->ncpus; i++) {
		const struct tfk_salvage_cpu *c = &rep->cpus[i];
		t->events_kept += c->events_kept;
		t->events_lost += c->events_lost;
		t->pages_kept += c->pages_kept;
		t->pages_clipped += c->pages_clipped;
		t->pages_dropped += c->pages_dropped;
		t->pages_missing += c->pages_missing;
		if (c->compressed)
			t->compressed_bytes_missing += c->bytes_missing;
		t->cpus_with_loss += c->pages_clipped || c->pages_dropped || c->bytes_missing || c->events_lost;
	}
	/* Directory formats count per member; their plug-in sums the members that hold events. */
	const struct rp_format *fmt = rp_format_of_report(&rep->before);
	if (rep->ncpus == 0 && rep->nmembers && fmt && fmt->event_totals) {
		bool unknown = false;
		fmt->event_totals(rep, &t->events_kept, &t->events_lost, &unknown);
		t->members_loss_unknown = unknown;
	}
	/* The account by kind, over every part of every format. */
	uint64_t part_kept = 0, part_lost = 0;
	for (size_t i = 0; i < rep->nparts; i++) {
		const struct tfk_salvage_part *p = &rep->parts[i];
		const bool unit = p->kind == TFK_SALVAGE_UNIT;
		(*(unit ? &t->units : &t->metadata))++;
		if (p->state == TFK_SALVAGE_PART_LOST)
			(*(unit ? &t->units_part_lost : &t->metadata_part_lost))++;
		else if (p->state == TFK_SALVAGE_LOST)
			(*(unit ? &t->units_lost : &t->metadata_lost))++;
		if (!unit)
			continue;
		part_kept += p->kept;
		part_lost += p->lost;
		t->events_unknown_bytes += p->lost_unknown ? p->bytes_unknown : 0;
		t->events_lost_uncounted |= p->lost_unknown;
	}
	/* A format that counts neither CPUs nor members counts its events in its units alone. */
	if (!t->events_kept && !t->events_lost && (part_kept || part_lost)) {
		t->events_kept = part_kept;
		t->events_lost = part_lost;
	}
	if (t->events_lost_uncounted)
		t->members_loss_unknown = true;
	t->events_without_format = rep->after.stats.events_no_format;
}

bool tfk_salvage_loss_unknown(const struct tfk_salvage_totals *t)
{
	return t->pages_missing || t->pages_dropped || t->pages_clipped || t->compressed_bytes_missing || t->no_buffer ||
	       t->cut_short || t->members_loss_unknown;
}

const char *tfk_repair_outcome_name(enum tfk_repair_outcome o)
{
	switch (o) {
	case TFK_REPAIR_NOTHING_TO_DO: return "nothing-to-do";
	case TFK_REPAIR_DONE: return "repaired";
	case TFK_REPAIR_NOTHING_SALVAGED: return "nothing-salvaged";
	case TFK_REPAIR_UNSUPPORTED: return "unsupported";
	case TFK_REPAIR_FAILED: return "failed";
	}
	return "unknown";
}

static void key_name(struct tfk_line *l, const char *name)
{
	tfk_line_printf(l, "\"file\":");
	tfk_line_json_str(l, name, tfk_line_name_len(name));
}

/* One {"type":"salvage_member",...} object for a member of a repaired directory. */
static int member_jsonl(const struct tfk_salvage_member *m, const char *name, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "{\"type\":\"salvage_member\",");
	key_name(&l, name);
	tfk_line_printf(&l, ",\"member\":");
	tfk_line_json_str(&l, m->member, strnlen(m->member, sizeof(m->member)));
	tfk_line_printf(&l, ",\"action\":");
	tfk_line_json_str(&l, m->action ? m->action : rp_action_name(RP_ACTION_COPIED),
			  strlen(m->action ? m->action : rp_action_name(RP_ACTION_COPIED)));
	tfk_line_printf(&l, ",\"unit\":");
	tfk_line_json_str(&l, m->unit, strnlen(m->unit, sizeof(m->unit)));
	tfk_line_printf(&l,
			",\"kept\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"lost_unknown\":%s,\"bytes_in\":%" PRIu64
			",\"bytes_out\":%" PRIu64 ",\"bytes_dropped\":%" PRIu64,
			m->kept, m->lost, m->lost_unknown ? "true" : "false", m->bytes_in, m->bytes_out, m->bytes_dropped);
	if (m->lost_time_known)
		tfk_line_printf(&l, ",\"lost_from\":%" PRIu64 ",\"lost_to\":%" PRIu64, m->lost_from, m->lost_to);
	else
		tfk_line_printf(&l, ",\"lost_from\":null,\"lost_to\":null");
	tfk_line_printf(&l, ",\"note\":");
	tfk_line_json_str(&l, m->note, strnlen(m->note, sizeof(m->note)));
	tfk_line_printf(&l, "}\n");
	if (l.truncated)
		return -1;
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

/* A member of a repaired directory as a text line: what was done, kept and lost. */
static int member_text(const struct tfk_salvage_member *m, const char *safe, tfk_write_fn write, void *user)
{
	char member[300], note[200];
	tfk_sanitize(member, sizeof(member), m->member, strnlen(m->member, sizeof(m->member)));
	tfk_sanitize(note, sizeof(note), m->note, strnlen(m->note, sizeof(m->note)));
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "%s/%s: %s", safe, member, m->action ? m->action : rp_action_name(RP_ACTION_COPIED));
	if (m->unit[0]) {
		tfk_line_printf(&l, "; kept %" PRIu64 " %s", m->kept, m->unit);
		if (m->lost_unknown && !m->lost)
			tfk_line_printf(&l, ", lost an unknown number of %s", m->unit);
		else if (m->lost)
			tfk_line_printf(&l, ", lost %" PRIu64 "%s %.*s", m->lost, m->lost_unknown ? " or more" : "",
					m->lost == 1 && !m->lost_unknown ? (int)strnlen(m->unit, sizeof(m->unit)) - 1 : (int)sizeof(m->unit),
					m->unit);
	}
	if (m->lost_time_known)
		tfk_line_printf(&l, " (time %" PRIu64 " to %" PRIu64 ")", m->lost_from, m->lost_to);
	if (m->bytes_dropped)
		tfk_line_printf(&l, "; %" PRIu64 " of %" PRIu64 " bytes dropped", m->bytes_dropped, m->bytes_in);
	if (note[0])
		tfk_line_printf(&l, "; %s", note);
	tfk_line_printf(&l, "\n");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

static const char *state_name(enum tfk_salvage_state s)
{
	switch (s) {
	case TFK_SALVAGE_KEPT: return "kept";
	case TFK_SALVAGE_PART_LOST: return "lost in part";
	case TFK_SALVAGE_LOST: return "lost";
	}
	return "kept";
}

/* One {"type":"salvage_part",...} object: a unit or metadata section of the account. */
static int part_jsonl(const struct tfk_salvage_part *p, const char *name, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "{\"type\":\"salvage_part\",");
	key_name(&l, name);
	tfk_line_printf(&l, ",\"kind\":\"%s\",\"part\":", p->kind == TFK_SALVAGE_UNIT ? "unit" : "metadata");
	tfk_line_json_str(&l, p->name, strnlen(p->name, sizeof(p->name)));
	tfk_line_printf(&l,
			",\"state\":\"%s\",\"kept\":%" PRIu64 ",\"lost\":%" PRIu64 ",\"lost_unknown\":%s,\"bytes_unknown\":%" PRIu64
			",\"note\":",
			state_name(p->state), p->kept, p->lost, p->lost_unknown ? "true" : "false", p->bytes_unknown);
	tfk_line_json_str(&l, p->note, strnlen(p->note, sizeof(p->note)));
	tfk_line_printf(&l, "}\n");
	if (l.truncated)
		return -1;
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

/* The names of the parts of one kind in one state, after "; ", up to a few. */
static void part_names(struct tfk_line *l, const struct tfk_repair_report *rep, enum tfk_salvage_kind kind,
		       enum tfk_salvage_state st)
{
	unsigned shown = 0, more = 0;
	for (size_t i = 0; i < rep->nparts; i++) {
		const struct tfk_salvage_part *p = &rep->parts[i];
		if (p->kind != kind || p->state != st)
			continue;
		if (shown == 6) {
			more++;
			continue;
		}
		char name[200];
		tfk_sanitize(name, sizeof(name), p->name, strnlen(p->name, sizeof(p->name)));
		tfk_line_printf(l, "%s%s", shown++ ? ", " : ": ", name);
	}
	if (more)
		tfk_line_printf(l, " and %u more", more);
}

/* One kind's line of the account: how many parts, kept, lost in part and lost, naming those lost. */
static void kind_counts(struct tfk_line *l, const struct tfk_repair_report *rep, enum tfk_salvage_kind kind, uint64_t all,
			uint64_t part, uint64_t lost, const char *what)
{
	tfk_line_printf(l, "%" PRIu64 " %s%s", all, what, all == 1 ? "" : "s");
	if (!all)
		return;
	tfk_line_printf(l, " (%" PRIu64 " kept", all - part - lost);
	if (part) {
		tfk_line_printf(l, "; %" PRIu64 " lost in part", part);
		part_names(l, rep, kind, TFK_SALVAGE_PART_LOST);
	}
	if (lost) {
		tfk_line_printf(l, "; %" PRIu64 " lost", lost);
		part_names(l, rep, kind, TFK_SALVAGE_LOST);
	}
	tfk_line_printf(l, ")");
}

/* Units listed one by one in the text account; the rest are counted. */
#define ACCOUNT_UNIT_LINES 20

/* The first metadata part that lost something in the same state for the same reason as part i. */
static size_t first_of_group(const struct tfk_repair_report *rep, size_t i)
{
	const struct tfk_salvage_part *p = &rep->parts[i];
	for (size_t k = 0; k < i; k++) {
		const struct tfk_salvage_part *q = &rep->parts[k];
		if (q->kind == TFK_SALVAGE_METADATA && q->state == p->state &&
		    strncmp(q->note, p->note, sizeof(q->note)) == 0)
			return k;
	}
	return i;
}

/* The account as text: a line of totals by kind, then the units and metadata that lost anything. */
static int account_text(const struct tfk_repair_report *rep, const char *safe, tfk_write_fn write, void *user)
{
	if (!rep->nparts)
		return 0;
	struct tfk_salvage_totals t;
	tfk_salvage_sum(rep, &t);
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "%s: account: events kept %" PRIu64 ", lost %" PRIu64, safe, t.events_kept, t.events_lost);
	if (t.events_lost_uncounted && t.events_unknown_bytes)
		tfk_line_printf(&l, " + an unknown number in %" PRIu64 " bytes", t.events_unknown_bytes);
	else if (t.events_lost_uncounted)
		tfk_line_printf(&l, " + an unknown number");
	if (t.events_without_format)
		tfk_line_printf(&l, "; %" PRIu64 " kept event%s without %s format (readers show them as unknown events)",
				t.events_without_format, t.events_without_format == 1 ? "" : "s",
				t.events_without_format == 1 ? "its" : "their");
	tfk_line_printf(&l, "; ");
	kind_counts(&l, rep, TFK_SALVAGE_UNIT, t.units, t.units_part_lost, t.units_lost, "unit");
	tfk_line_printf(&l, "; ");
	kind_counts(&l, rep, TFK_SALVAGE_METADATA, t.metadata, t.metadata_part_lost, t.metadata_lost, "metadata section");
	tfk_line_printf(&l, "\n");
	if (tfk_line_flush(&l, write, user))
		return -1;
	/* Units that lost anything, one line each (the JSON Lines list them all). */
	uint64_t shown = 0;
	for (size_t i = 0; i < rep->nparts; i++) {
		const struct tfk_salvage_part *p = &rep->parts[i];
		if (p->kind != TFK_SALVAGE_UNIT || p->state == TFK_SALVAGE_KEPT || shown++ >= ACCOUNT_UNIT_LINES)
			continue;
		char name[200], note[260];
		tfk_sanitize(name, sizeof(name), p->name, strnlen(p->name, sizeof(p->name)));
		tfk_sanitize(note, sizeof(note), p->note, strnlen(p->note, sizeof(p->note)));
		tfk_line_printf(&l, "%s:   unit %s: %s; events kept %" PRIu64 ", lost %" PRIu64, safe, name, state_name(p->state),
				p->kept, p->lost);
		if (p->lost_unknown && p->bytes_unknown)
			tfk_line_printf(&l, " + an unknown number in %" PRIu64 " bytes", p->bytes_unknown);
		else if (p->lost_unknown)
			tfk_line_printf(&l, " + an unknown number");
		tfk_line_printf(&l, "%s%s\n", note[0] ? "; " : "", note);
		if (tfk_line_flush(&l, write, user))
			return -1;
	}
	if (shown > ACCOUNT_UNIT_LINES) {
		tfk_line_printf(&l, "%s:   and %" PRIu64 " more units with losses\n", safe, shown - ACCOUNT_UNIT_LINES);
		if (tfk_line_flush(&l, write, user))
			return -1;
	}
	/* Metadata that lost anything, one line per state and reason (twenty features past a cut are one line). */
	for (size_t i = 0; i < rep->nparts; i++) {
		const struct tfk_salvage_part *p = &rep->parts[i];
		if (p->kind != TFK_SALVAGE_METADATA || p->state == TFK_SALVAGE_KEPT || first_of_group(rep, i) != i)
			continue;
		char note[260];
		tfk_sanitize(note, sizeof(note), p->note, strnlen(p->note, sizeof(p->note)));
		tfk_line_printf(&l, "%s:   metadata %s", safe, state_name(p->state));
		unsigned n = 0, more = 0;
		for (size_t k = i; k < rep->nparts; k++) {
			if (first_of_group(rep, k) != i)
				continue;
			if (n == 8) {
				more++;
				continue;
			}
			char name[200];
			const struct tfk_salvage_part *q = &rep->parts[k];
			tfk_sanitize(name, sizeof(name), q->name, strnlen(q->name, sizeof(q->name)));
			tfk_line_printf(&l, "%s%s", n++ ? ", " : ": ", name);
		}
		if (more)
			tfk_line_printf(&l, " and %u more", more);
		tfk_line_printf(&l, "%s%s\n", note[0] ? "; " : "", note);
		if (tfk_line_flush(&l, write, user))
			return -1;
	}
	return 0;
}

int tfk_repair_report_jsonl(const struct tfk_repair_report *rep, const char *name, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	for (size_t i = 0; i < rep->nmembers; i++)
		if (member_jsonl(&rep->members[i], name, write, user) != 0)
			return -1;
	for (size_t i = 0; i < rep->ncpus; i++) {
		const struct tfk_salvage_cpu *c = &rep->cpus[i];
		tfk_line_printf(&l, "{\"type\":\"salvage_cpu\",");
		key_name(&l, name);
		tfk_line_printf(&l, ",\"buffer\":");
		tfk_line_json_str(&l, c->buffer, strnlen(c->buffer, sizeof(c->buffer)));
		tfk_line_printf(&l,
				",\"cpu\":%" PRIu32 ",\"pages_kept\":%" PRIu64 ",\"pages_clipped\":%" PRIu64
				",\"pages_dropped\":%" PRIu64 ",\"events_kept\":%" PRIu64 ",\"events_lost\":%" PRIu64
				",\"bytes_declared\":%" PRIu64 ",\"bytes_missing\":%" PRIu64 ",\"pages_missing\":%" PRIu64
				",\"compressed\":%s,\"events_lost_unknown\":%s",
				c->cpu, c->pages_kept, c->pages_clipped, c->pages_dropped, c->events_kept, c->events_lost,
				c->bytes_declared, c->bytes_missing, c->pages_missing, c->compressed ? "true" : "false",
				c->pages_missing || c->pages_dropped || c->pages_clipped || (c->compressed && c->bytes_missing)
					? "true" : "false");
		if (c->lost_time_known)
			tfk_line_printf(&l, ",\"lost_from\":%" PRIu64 ",\"lost_to\":%" PRIu64 "}\n", c->lost_from, c->lost_to);
		else
			tfk_line_printf(&l, ",\"lost_from\":null,\"lost_to\":null}\n");
		if (l.truncated || tfk_line_flush(&l, write, user))
			return -1;
	}
	for (size_t i = 0; i < rep->nparts; i++)
		if (part_jsonl(&rep->parts[i], name, write, user) != 0)
			return -1;
	struct tfk_salvage_totals t;
	tfk_salvage_sum(rep, &t);
	tfk_line_printf(&l, "{\"type\":\"salvage\",");
	key_name(&l, name);
	tfk_line_printf(&l, ",\"outcome\":\"%s\",\"buffers\":%" PRIu32 ",\"cpus\":%zu", tfk_repair_outcome_name(rep->outcome),
			rep->buffers, rep->ncpus);
	tfk_line_printf(&l,
			",\"events_before\":%" PRIu64 ",\"events_kept\":%" PRIu64 ",\"events_lost\":%" PRIu64
			",\"events_lost_unknown\":%s,\"pages_kept\":%" PRIu64 ",\"pages_clipped\":%" PRIu64
			",\"pages_dropped\":%" PRIu64 ",\"pages_missing\":%" PRIu64 ",\"compressed_bytes_missing\":%" PRIu64
			",\"metadata_lost\":%s,\"options_dropped\":%" PRIu32 ",\"converted\":",
			rep->before.stats.events, t.events_kept, t.events_lost, tfk_salvage_loss_unknown(&t) ? "true" : "false",
			t.pages_kept, t.pages_clipped, t.pages_dropped, t.pages_missing, t.compressed_bytes_missing,
			rep->metadata_lost ? "true" : "false", rep->options_dropped);
	if (rep->converted[0])
		tfk_line_json_str(&l, rep->converted, strnlen(rep->converted, sizeof(rep->converted)));
	else
		tfk_line_printf(&l, "null");
	if (rep->perf_data) {
		const struct tfk_salvage_perf *p = &rep->perf;
		tfk_line_printf(&l,
				",\"perf\":{\"samples_kept\":%" PRIu64 ",\"records_kept\":%" PRIu64 ",\"samples_left_out\":%" PRIu64
				",\"records_left_out\":%" PRIu64 ",\"samples_after_cut\":%" PRIu64 ",\"records_after_cut\":%" PRIu64
				",\"bytes_skipped\":%" PRIu64 ",\"bytes_unread\":%" PRIu64 ",\"bytes_missing\":%" PRIu64
				",\"bytes_undecodable\":%" PRIu64 "}",
				p->samples_kept, p->records_kept, p->samples_left_out, p->records_left_out, p->samples_after_cut,
				p->records_after_cut, p->bytes_skipped, p->bytes_unread, p->bytes_missing, p->bytes_undecodable);
	}
	if (rep->nmembers)
		tfk_line_printf(&l, ",\"members\":%zu", rep->nmembers);
	tfk_line_printf(&l,
			",\"account\":{\"units\":%" PRIu64 ",\"units_lost_in_part\":%" PRIu64 ",\"units_lost\":%" PRIu64
			",\"metadata\":%" PRIu64 ",\"metadata_lost_in_part\":%" PRIu64 ",\"metadata_lost\":%" PRIu64
			",\"events_lost_uncounted\":%s,\"events_unknown_bytes\":%" PRIu64 ",\"events_without_format\":%" PRIu64 "}",
			t.units, t.units_part_lost, t.units_lost, t.metadata, t.metadata_part_lost, t.metadata_lost,
			t.events_lost_uncounted ? "true" : "false", t.events_unknown_bytes, t.events_without_format);
	if (rep->reason) {
		tfk_line_printf(&l, ",\"reason\":");
		tfk_line_json_str(&l, rep->reason, strlen(rep->reason));
	}
	tfk_line_printf(&l, "}\n");
	if (l.truncated)
		return -1;
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

int tfk_repair_report_text(const struct tfk_repair_report *rep, const char *name, tfk_write_fn write, void *user)
{
	const struct rp_format *fmt = rp_format_of_report(&rep->before);
	if (!fmt)
		return 0;
	char *safe = tfk_sanitize_dup(name, strlen(name));
	if (!safe)
		return -1;
	int rc = 0;
	if (fmt->salvage_text && fmt->salvage_text(rep, safe, write, user) != 0)
		rc = -1;
	/* Members copied whole go without a line (the JSON Lines list every member). */
	for (size_t i = 0; rc == 0 && i < rep->nmembers; i++) {
		const struct tfk_salvage_member *m = &rep->members[i];
		if ((!m->action || rp_action_is(m, RP_ACTION_COPIED)) && !m->lost && !m->lost_unknown)
			continue;
		if (member_text(m, safe, write, user) != 0)
			rc = -1;
	}
	if (rc == 0 && account_text(rep, safe, write, user) != 0)
		rc = -1;
	free(safe);
	return rc;
}
