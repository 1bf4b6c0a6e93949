/* SPDX-License-Identifier: MIT */
/*
 * CTF 1.8 trace directories' repair plug-in: the check's messages are the model
 * (ctf_model.c); the directory is written by ctf_write.c; the salvage report says what each
 * data stream kept and lost (the members' lines follow it, from the driver).
 */
#include <inttypes.h>
#include <string.h>

#include "ctf_repair.h"
#include "format.h"
#include "formats/formats.h"
#include "sinks/sink_common.h"

/* Events kept and lost over the data streams (the members counted in events). */
static void totals(const struct tfk_repair_report *rep, uint64_t *streams, uint64_t *kept, uint64_t *lost,
		   bool *unknown, uint64_t *touched)
{
	*streams = *kept = *lost = *touched = 0;
	*unknown = false;
	for (size_t i = 0; i < rep->nmembers; i++) {
		const struct tfk_salvage_member *s = &rep->members[i];
		if (!rp_unit_is(s, RP_UNIT_EVENTS))
			continue;
		(*streams)++;
		*kept += s->kept;
		*lost += s->lost;
		*unknown |= s->lost_unknown;
		*touched += !rp_action_is(s, RP_ACTION_COPIED);
	}
}

static bool cr_kept_any(const void *model, struct tfk_repair_report *rep)
{
	(void)model;
	uint64_t streams, kept, lost, touched;
	bool unknown;
	totals(rep, &streams, &kept, &lost, &unknown, &touched);
	return kept > 0;
}

static int cr_salvage_text(const struct tfk_repair_report *rep, const char *safe, tfk_write_fn write, void *user)
{
	uint64_t streams, kept, lost, touched;
	bool unknown;
	totals(rep, &streams, &kept, &lost, &unknown, &touched);
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l,
			"%s: salvage: %" PRIu64 " data stream%s, %" PRIu64 " cut or rewritten; kept %" PRIu64
			" event%s, lost %" PRIu64 "%s; metadata %s\n",
			safe, streams, streams == 1 ? "" : "s", touched, kept, kept == 1 ? "" : "s", lost,
			unknown ? " and what the dropped bytes held" : "", rep->metadata_lost ? "cut to its whole packets" : "kept");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

static void cr_event_totals(const struct tfk_repair_report *rep, uint64_t *kept, uint64_t *lost, bool *unknown)
{
	uint64_t streams, touched;
	totals(rep, &streams, kept, lost, unknown, &touched);
}

const struct rp_format rp_format_ctf = {
	.format = &tfk_format_ctf,
	.model_size = sizeof(struct cr_model),
	.observer = cr_observer,
	.model_free = cr_model_free,
	.kept_any = cr_kept_any,
	.salvage_text = cr_salvage_text,
	.write_dir = cr_write_dir,
	.event_totals = cr_event_totals,
};
