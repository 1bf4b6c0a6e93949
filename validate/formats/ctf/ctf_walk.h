/* SPDX-License-Identifier: MIT */
/* The walk of one data stream file, packet by packet (ctf_stream.c), and its walks ahead (ctf_ahead.c). */
#ifndef TFK_CTF_WALK_H
#define TFK_CTF_WALK_H

#include <stdbool.h>
#include <stdint.h>

#include "ctf.h"
#include "ctf_seen.h"

struct ctf_ahead;

struct walk {
	struct tfk_ctx *ctx;
	const struct ctf_meta *meta;
	struct ctf_decoder *d;
	uint64_t off;        /* packet start in the file */
	uint64_t index;      /* packet number */
	bool have_prev;
	bool prev_unset; /* the packet before left events_discarded at 0 (ctf_discarded_unset) */
	struct ctf_packet_info prev;
	unsigned enum_reports, outside_reports, instance_reports;
	bool quirk_after_end, quirk_before_begin;
	struct ctf_index *ix; /* compared packet by packet, or NULL */
	uint64_t events;      /* decoded whole in this file */
	uint64_t skipped;     /* packets stepped over (see step_over) */
	struct ctf_ahead *ahead; /* packets' events decoded on worker threads, or NULL */
	struct ctf_seen *seen;   /* packets counted before, for the trace's event count, or NULL */
	const uint8_t *trace;    /* the trace part of their keys (16 bytes) */
	/*
	 * A walker ahead decodes the events of its share of the packets only: those whose index
	 * is share_rem modulo share_mod (share_mod 0: every packet, the check's own walk).
	 */
	uint32_t share_mod, share_rem;
	/* The last packet walked: was it this walker's, its events, and the clock they began from. */
	bool mine, last_events_ok, clock_set_start;
	uint64_t last_events, clock_start;
};

/* The tracer bugs babeltrace2 corrects (fs.c fix_packet_index_tracer_bugs, spec 4.4). */
void ctf_tracer_quirks(struct walk *w);
/* One packet at w->off; false when the walk cannot go on. */
bool ctf_walk_packet(struct walk *w, const struct tfk_cursor *file, struct ctf_stream_result *res);

/* What a walker ahead found of one packet's events (ctf_ahead_take). */
struct ctf_ahead_events {
	uint64_t events;
	uint64_t clock_end;
	bool clock_set_end;
};

/*
 * Start walkers ahead for a stream file (limits.threads > 1 and a file large enough to share),
 * or NULL: the check then decodes every packet itself.
 */
struct ctf_ahead *ctf_ahead_start(struct tfk_ctx *ctx, const struct ctf_meta *meta, const struct tfk_cursor *file);
/*
 * The events of the packet `index` at `off`, when a walker decoded them with nothing to report
 * from the state d is in now (after the packet's header and context: the same clock); false
 * when the check must decode them itself. Waits for the walker whose share it is.
 */
bool ctf_ahead_take(struct ctf_ahead *a, uint64_t index, uint64_t off, const struct ctf_decoder *d,
		    struct ctf_ahead_events *out);
/* Stop the walkers and free them (a NULL a: nothing). */
void ctf_ahead_finish(struct ctf_ahead *a);

#endif
