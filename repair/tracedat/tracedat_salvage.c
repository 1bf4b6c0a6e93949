/* SPDX-License-Identifier: MIT */
/* trace.dat's salvage report as text: pages and events kept and lost, per CPU and in total. */
#include <inttypes.h>
#include <string.h>

#include "format.h"
#include "model.h"
#include "sinks/sink_common.h"

/* What one CPU lost, after "lost ": the parts whose events cannot be counted say why. */
static void cpu_loss(struct tfk_line *l, const struct tfk_salvage_cpu *c)
{
	const char *sep = "";
	if (c->events_lost) {
		tfk_line_printf(l, "%" PRIu64 " events (walked, then left out as damaged)", c->events_lost);
		sep = ", ";
	}
	if (c->pages_dropped) {
		tfk_line_printf(l, "%s%" PRIu64 " damaged page%s dropped", sep, c->pages_dropped, c->pages_dropped == 1 ? "" : "s");
		sep = ", ";
	}
	if (c->pages_clipped) {
		tfk_line_printf(l, "%sthe rest of %" PRIu64 " clipped page%s", sep, c->pages_clipped,
				c->pages_clipped == 1 ? "" : "s");
		sep = ", ";
	}
	if (c->bytes_missing && !c->compressed) {
		tfk_line_printf(l, "%s%" PRIu64 " page%s past the end of the file (%" PRIu64 " of %" PRIu64 " bytes missing)",
				sep, c->pages_missing, c->pages_missing == 1 ? "" : "s", c->bytes_missing, c->bytes_declared);
		sep = ", ";
	} else if (c->bytes_missing) {
		tfk_line_printf(l, "%s%" PRIu64 " of %" PRIu64 " bytes of compressed data past the end of the file", sep,
				c->bytes_missing, c->bytes_declared);
		sep = ", ";
	}
	if (c->pages_dropped || c->pages_clipped || c->bytes_missing)
		tfk_line_printf(l, "; events in %s unknown (their bytes are gone or untrusted)",
				c->events_lost ? "the rest" : "them");
}

int rp_tracedat_salvage_text(const struct tfk_repair_report *rep, const char *safe, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	tfk_line_reset(&l);
	struct tfk_salvage_totals t;
	tfk_salvage_sum(rep, &t);
	tfk_line_printf(&l,
			"%s: salvage: %u buffer%s, %zu CPU%s; kept %" PRIu64 " pages (%" PRIu64 " events), clipped %" PRIu64
			", dropped %" PRIu64 "%s%s%s\n",
			safe, rep->buffers, rep->buffers == 1 ? "" : "s", rep->ncpus, rep->ncpus == 1 ? "" : "s", t.pages_kept,
			t.events_kept, t.pages_clipped, t.pages_dropped, rep->metadata_lost ? "; header texts regenerated" : "",
			rep->converted[0] ? "; written as " : "", rep->converted[0] ? "trace.dat v6" : "");
	if (tfk_line_flush(&l, write, user))
		return -1;
	for (size_t i = 0; i < rep->ncpus; i++) {
		const struct tfk_salvage_cpu *c = &rep->cpus[i];
		if (!c->pages_dropped && !c->pages_clipped && !c->bytes_missing && !c->events_lost)
			continue;
		tfk_line_printf(&l, "%s:   %s%s%scpu%u: kept %" PRIu64 " pages (%" PRIu64 " events); lost ", safe,
				c->buffer[0] ? "buffer " : "", c->buffer, c->buffer[0] ? " " : "", c->cpu, c->pages_kept,
				c->events_kept);
		cpu_loss(&l, c);
		if (c->lost_time_known)
			tfk_line_printf(&l, "; events lost between timestamps %" PRIu64 " and %" PRIu64, c->lost_from,
					c->lost_to);
		tfk_line_printf(&l, "\n");
		if (tfk_line_flush(&l, write, user))
			return -1;
	}
	/* The total: counted losses, then what cannot be counted and why. */
	tfk_line_printf(&l, "%s: total: kept %" PRIu64 " events; lost %" PRIu64, safe, t.events_kept, t.events_lost);
	if (tfk_salvage_loss_unknown(&t)) {
		const char *sep = " (+ an unknown number in ";
		if (t.pages_missing) {
			tfk_line_printf(&l, "%s%" PRIu64 " page%s past the end of the file", sep, t.pages_missing,
					t.pages_missing == 1 ? "" : "s");
			sep = ", ";
		}
		if (t.compressed_bytes_missing) {
			tfk_line_printf(&l, "%s%" PRIu64 " bytes of compressed data past the end of the file", sep,
					t.compressed_bytes_missing);
			sep = ", ";
		}
		if (t.pages_dropped) {
			tfk_line_printf(&l, "%s%" PRIu64 " damaged page%s dropped", sep, t.pages_dropped,
					t.pages_dropped == 1 ? "" : "s");
			sep = ", ";
		}
		if (t.pages_clipped) {
			tfk_line_printf(&l, "%sthe rest of %" PRIu64 " clipped page%s", sep, t.pages_clipped,
					t.pages_clipped == 1 ? "" : "s");
			sep = ", ";
		}
		if (t.no_buffer) {
			tfk_line_printf(&l, "%sthe data: no buffer's CPU table survived", sep);
			sep = ", ";
		}
		if (t.cut_short && !t.no_buffer) {
			tfk_line_printf(&l, "%swhat lay past the point the file was cut", sep);
			sep = ", ";
		}
		if (sep[0] == ' ' && t.events_lost_uncounted && t.events_unknown_bytes) /* nothing above: unreadable CPU data */
			tfk_line_printf(&l, "%s%" PRIu64 " bytes of CPU data that could not be read", sep, t.events_unknown_bytes);
		else if (sep[0] == ' ' && t.events_lost_uncounted)
			tfk_line_printf(&l, "%sCPU data that could not be found past the damage", sep);
		tfk_line_printf(&l, ")");
	}
	tfk_line_printf(&l, "\n");
	return tfk_line_flush(&l, write, user) ? -1 : 0;
}
