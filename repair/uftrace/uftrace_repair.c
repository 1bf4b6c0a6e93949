/* SPDX-License-Identifier: MIT */
/*
 * uftrace data directories' repair plug-in: the check's messages are the model
 * (uftrace_model.c); the directory is written by uftrace_write.c; the salvage report says
 * what each task file kept and lost (the members' lines follow it, from the driver).
 */
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "formats/formats.h"
#include "sinks/sink_common.h"
#include "uftrace_repair.h"

/* Records kept, lost and whether more were lost uncounted, over the task files. */
static void totals(const struct tfk_repair_report *rep, uint64_t *tasks, uint64_t *kept, uint64_t *lost, bool *unknown,
		   uint64_t *left_out, bool *rebuilt)
{
	*tasks = *kept = *lost = *left_out = 0;
	*unknown = *rebuilt = false;
	for (size_t i = 0; i < rep->nmembers; i++) {
		const struct tfk_salvage_member *s = &rep->members[i];
		const bool task = rp_unit_is(s, RP_UNIT_RECORDS) && strncmp(s->member, "perf-cpu", 8) != 0;
		if (task) {
			(*tasks)++;
			*kept += rp_action_is(s, RP_ACTION_LEFT_OUT) ? 0 : s->kept;
			*lost += s->lost + (rp_action_is(s, RP_ACTION_LEFT_OUT) ? s->kept : 0);
			*unknown |= s->lost_unknown;
		}
		*left_out += rp_action_is(s, RP_ACTION_LEFT_OUT);
		*rebuilt |= strcmp(s->member, "info") == 0 && rp_action_is(s, RP_ACTION_REBUILT);
	}
}

static bool ur_kept_any(const void *model, struct tfk_repair_report *rep)
{
	(void)model;
	uint64_t tasks, kept, lost, left_out;
	bool unknown, rebuilt;
	totals(rep, &tasks, &kept, &lost, &unknown, &left_out, &rebuilt);
	rep->metadata_lost = rebuilt;
	return kept > 0;
}

static int ur_salvage_text(const struct tfk_repair_report *rep, const char *safe, tfk_write_fn write, void *user)
{
	uint64_t tasks, kept, lost, left_out;
	bool unknown, rebuilt;
	totals(rep, &tasks, &kept, &lost, &unknown, &left_out, &rebuilt);
	TFK_LINE(l);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "%s: salvage: %" PRIu64 " task file%s; kept %" PRIu64 " record%s, lost %" PRIu64 "%s", safe, tasks,
			tasks == 1 ? "" : "s", kept, kept == 1 ? "" : "s", lost,
			unknown ? " and what bytes that could not be walked held" : "");
	tfk_line_printf(&l, "; info %s; %" PRIu64 " member%s left out\n", rebuilt ? "rebuilt" : "kept", left_out,
			left_out == 1 ? "" : "s");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}

static void ur_event_totals(const struct tfk_repair_report *rep, uint64_t *kept, uint64_t *lost, bool *unknown)
{
	uint64_t tasks, left_out;
	bool rebuilt;
	totals(rep, &tasks, kept, lost, unknown, &left_out, &rebuilt);
}

const struct rp_format rp_format_uftrace = {
	.format = &tfk_format_uftrace,
	.model_size = sizeof(struct ur_model),
	.observer = ur_observer,
	.model_free = ur_model_free,
	.kept_any = ur_kept_any,
	.salvage_text = ur_salvage_text,
	.write_dir = ur_write_dir,
	.event_totals = ur_event_totals,
};
