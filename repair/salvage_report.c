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
	free(safe);
	return rc;
}
