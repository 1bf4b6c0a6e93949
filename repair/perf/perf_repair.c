/* SPDX-License-Identifier: MIT */
/*
 * perf.data's repair plug-in: the layout the check reports once it walked the whole file is
 * the model; perf_write.c lays the output out from it (records and sections kept by reference).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "formats/formats.h"
#include "perf_repair.h"
#include "shared/perfrec/perfrec_state.h" /* pf_feature_name: the account names features as check does */
#include "sinks/sink_common.h"

struct pf_model {
	bool have;                 /* the check reported a layout */
	struct tfk_perf_layout L;
};

static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	struct pf_model *m = user;
	if (format != &tfk_format_perf || kind != TFK_PERF_MODEL_LAYOUT || size != sizeof m->L)
		return;
	memcpy(&m->L, data, sizeof m->L);
	m->have = true;
}

static struct tfk_observer pf_observer(void *model, const uint8_t *in, size_t size, unsigned pass)
{
	(void)in;
	(void)size;
	(void)pass;
	return (struct tfk_observer){ .user = model, .model = on_model };
}

static void pf_model_free(void *model)
{
	(void)model;
}

/* Tracepoint events whose TRACING_DATA feature did not survive: perf will refuse the file. */
static bool tracing_lost(const struct tfk_perf_layout *L)
{
	if (!L->tracepoints || L->pipe)
		return false;
	for (uint32_t i = 0; i < L->nfeatures; i++)
		if (L->features[i].bit == 1 && (L->features[i].ok || L->tracing_rebuild))
			return false;
	return true;
}

/* What the salvage keeps and loses, from what the check walked. */
static void salvage(const struct tfk_perf_layout *L, struct tfk_salvage_perf *p)
{
	p->samples_kept = L->samples_kept;
	p->records_kept = L->records_kept;
	p->samples_left_out = L->samples_left_out;
	p->records_left_out = L->records_left_out;
	uint64_t s = L->samples_kept + L->samples_left_out, r = L->records_kept + L->records_left_out;
	p->samples_after_cut = L->samples_walked > s ? L->samples_walked - s : 0;
	p->records_after_cut = L->records_walked > r ? L->records_walked - r : 0;
	p->bytes_skipped = L->skipped_bytes;
	p->bytes_unread = L->unread_bytes;
	p->bytes_missing = L->missing_bytes;
	p->bytes_undecodable = L->undecodable_bytes;
}

static bool pf_lay_out(const void *model, const uint8_t *in, size_t size, struct tfk_repair_report *rep,
		       struct rp_out *out)
{
	const struct pf_model *m = model;
	const struct tfk_perf_layout *L = &m->L;
	/*
	 * A perf.data with no error (notes and warnings only, or a part this build could not check,
	 * such as another writer's dialect) is left as it is: repair never changes a good file.
	 */
	if (m->have && !rep->before.by_severity[TFK_SEV_ERROR] && !rep->before.internal_error && !L->nc2fix) {
		rep->outcome = TFK_REPAIR_NOTHING_TO_DO;
		return false;
	}
	if (m->have && rep->before.incomplete) {
		/* What was not checked would be copied unchecked: the output could not re-check clean. */
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "part of it could not be checked (another writer's own records or features, or a limit), "
			      "so no repaired copy could be proven";
		return false;
	}
	if (!m->have) {
		/* The check stopped before it could lay the file out (a PERFILE1 file). */
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "the perf.data layout could not be proven";
		return false;
	}
	if (rp_perf_write(in, size, L, out, &rep->options_dropped) != 0) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = !L->pipe && !L->attrs_ok ? "the event attributes could not be proven, and perf reads no record without them"
						       : "the perf.data layout could not be proven";
		return false;
	}
	rep->cpus = calloc(1, sizeof(*rep->cpus));
	if (rep->cpus) {
		rep->ncpus = 1;
		snprintf(rep->cpus[0].buffer, sizeof(rep->cpus[0].buffer), "perf.data records");
		rep->cpus[0].events_kept = L->samples_kept;
	}
	salvage(L, &rep->perf);
	rep->perf_data = true;
	return true;
}

/*
 * Without a sample the output holds nothing perf report or script would show, unless the
 * input held none either and every record it had was kept (a killed recording that never
 * sampled): then the salvage is complete.
 */
static bool pf_kept_any(const void *model, struct tfk_repair_report *rep)
{
	const struct tfk_perf_layout *L = &((const struct pf_model *)model)->L;
	rep->metadata_lost = tracing_lost(L);
	if (L->samples_kept)
		return true;
	return L->samples_walked == 0 && L->records_kept && L->records_kept == L->records_walked && !L->records_left_out &&
	       !L->skipped_bytes && !L->unread_bytes && !L->missing_bytes && !L->undecodable_bytes;
}

/* Samples and records kept and lost; where the bytes are gone, that what they held is unknown. */
static int pf_salvage_text(const struct tfk_repair_report *rep, const char *safe, tfk_write_fn write, void *user)
{
	const struct tfk_salvage_perf *p = &rep->perf;
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "%s: salvage: kept %" PRIu64 " sample%s (%" PRIu64 " record%s)", safe, p->samples_kept,
			p->samples_kept == 1 ? "" : "s", p->records_kept, p->records_kept == 1 ? "" : "s");
	if (p->records_left_out)
		tfk_line_printf(&l, "; left out %" PRIu64 " damaged record%s (%" PRIu64 " sample%s)", p->records_left_out,
				p->records_left_out == 1 ? "" : "s", p->samples_left_out, p->samples_left_out == 1 ? "" : "s");
	if (p->records_after_cut)
		tfk_line_printf(&l, "; lost %" PRIu64 " sample%s (%" PRIu64 " record%s) after the point the data was cut",
				p->samples_after_cut, p->samples_after_cut == 1 ? "" : "s", p->records_after_cut,
				p->records_after_cut == 1 ? "" : "s");
	if (p->bytes_skipped)
		tfk_line_printf(&l, "; %" PRIu64 " bytes skipped to the next plausible record (what they held is unknown)",
				p->bytes_skipped);
	if (p->bytes_unread)
		tfk_line_printf(&l, "; %" PRIu64 " bytes after the last record found (what they held is unknown)",
				p->bytes_unread);
	if (p->bytes_undecodable)
		tfk_line_printf(&l, "; %" PRIu64 " bytes of COMPRESSED records that cannot be decoded once the zstd stream "
				    "broke (what they held is unknown)", p->bytes_undecodable);
	if (p->bytes_missing)
		tfk_line_printf(&l, "; %" PRIu64 " bytes of the data missing from the file, which was cut short (samples "
				    "there unknown)", p->bytes_missing);
	if (!p->records_left_out && !p->records_after_cut && !p->bytes_skipped && !p->bytes_unread && !p->bytes_missing &&
	    !p->bytes_undecodable)
		tfk_line_printf(&l, "; no record lost");
	tfk_line_printf(&l, "; %u feature section%s dropped%s\n", rep->options_dropped, rep->options_dropped == 1 ? "" : "s",
			rep->metadata_lost ? "; TRACING_DATA was lost, and perf refuses tracepoint events without it" : "");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

/*
 * The account: the records a unit (perf keeps no per-CPU data), each feature section a
 * metadata section, kept when it parsed, lost in part when rebuilt from its good lines (a
 * TRACING_DATA), lost otherwise (and all of them when the file had no room for them).
 */
static void pf_account(const void *model, struct tfk_repair_report *rep)
{
	const struct tfk_perf_layout *L = &((const struct pf_model *)model)->L;
	const struct tfk_salvage_perf *s = &rep->perf;
	const uint64_t lost = s->samples_left_out + s->samples_after_cut;
	const uint64_t unknown = s->bytes_skipped + s->bytes_unread + s->bytes_missing + s->bytes_undecodable;
	enum tfk_salvage_state st = !lost && !unknown ? TFK_SALVAGE_KEPT
				    : s->samples_kept	  ? TFK_SALVAGE_PART_LOST
							  : TFK_SALVAGE_LOST;
	struct tfk_salvage_part *p = rp_part_add(rep, TFK_SALVAGE_UNIT, st, "data (samples)");
	if (p) {
		p->kept = s->samples_kept;
		p->lost = lost;
		p->lost_unknown = unknown != 0;
		p->bytes_unknown = unknown;
		if (unknown)
			snprintf(p->note, sizeof(p->note), "bytes skipped, unreadable, undecodable or missing");
	}
	/* the writer drops every feature, parsed ones too, when the output would outgrow the input */
	uint32_t parsed = 0;
	for (uint32_t i = 0; i < L->nfeatures && i < TFK_PERF_MAX_FEATURES; i++)
		parsed += L->features[i].ok;
	const bool all_dropped = parsed && rep->options_dropped >= L->nfeatures;
	for (uint32_t i = 0; i < L->nfeatures && i < TFK_PERF_MAX_FEATURES; i++) {
		const bool rebuilt = !L->features[i].ok && L->features[i].bit == 1 && L->tracing_rebuild;
		st = all_dropped ? TFK_SALVAGE_LOST
		     : L->features[i].ok ? TFK_SALVAGE_KEPT
		     : rebuilt ? TFK_SALVAGE_PART_LOST
			       : TFK_SALVAGE_LOST;
		p = rp_part_add(rep, TFK_SALVAGE_METADATA, st, "feature %s", pf_feature_name(L->features[i].bit));
		if (p && rebuilt)
			snprintf(p->note, sizeof(p->note), "rebuilt from its good lines");
		else if (p && st == TFK_SALVAGE_LOST)
			snprintf(p->note, sizeof(p->note), "%s", all_dropped ? "no room for the features in the output"
										: "damaged, or past the end of the file");
	}
}

const struct rp_format rp_format_perf = {
	.format = &tfk_format_perf,
	.model_size = sizeof(struct pf_model),
	.observer = pf_observer,
	.model_free = pf_model_free,
	.lay_out = pf_lay_out,
	.kept_any = pf_kept_any,
	.salvage_text = pf_salvage_text,
	.account = pf_account,
};
