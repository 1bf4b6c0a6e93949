/* SPDX-License-Identifier: MIT */
/* trace.dat's salvage model: what the checker's observer stream said the input still holds. */
#ifndef TFK_REPAIR_TRACEDAT_MODEL_H
#define TFK_REPAIR_TRACEDAT_MODEL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common.h"
#include "tracefsck/observer.h"
#include "tracefsck/repair.h"
#include "tracefsck/sink.h"

struct rp_list {
	struct rp_blob *items;
	size_t n, cap;
};

struct rp_system {
	struct rp_blob name;
	struct rp_list formats;
};

struct rp_option {
	uint16_t id;
	struct rp_blob payload;
};

/*
 * A kept page, rebuilt when written: its timestamp and header bytes, then len bytes of data
 * from src, the stored missed count when there is one, zeros to the end of the page.
 * src points into the input (uncompressed data is never copied) or is NULL when the page
 * came out of a decoder, whose bytes were copied to the CPU's spill blob at spill_at.
 */
struct rp_page {
	const uint8_t *src;
	size_t spill_at;
	uint64_t commit;           /* the commit word to write: len and the kernel's loss flags */
	uint64_t missed_count;     /* written after the data when commit has bit 30 */
	uint32_t len;
	uint32_t size;             /* the page size it was read with */
	bool verbatim;             /* rebuilding it gives its own bytes: it can be kept as it is */
};

struct rp_cpu {
	uint32_t cpu;
	struct rp_page *pages;     /* kept pages, in order */
	size_t npages, pages_cap;
	struct rp_blob spill;      /* copies of decoded pages */
	bool pending_missed;       /* events were lost before the next kept page */
	bool in_loss;              /* pages are being dropped since loss_start */
	uint64_t loss_start, last_ts;
	/* the last kept page, in case the next one proves it wrong */
	bool last_clipped;
	uint64_t last_events, ts_before_last;
	struct tfk_salvage_cpu stats;
	/* For the account: pages the check handed over, and the bytes its walk of the CPU covered. */
	uint64_t pages_seen, item_bytes;
};

struct rp_buffer {
	char name[64];
	char clock[32];
	uint32_t page_size;
	bool latency;
	struct rp_blob latency_text;
	struct rp_cpu *cpus;
	size_t ncpus, cap;
};

/* What a CPU's table entry declared, and how much of it the file holds. */
struct rp_extent {
	size_t buffer;             /* index into buffers */
	uint32_t cpu;
	uint64_t declared, present;
	bool compressed;
};

struct rp_model {
	bool have_geometry, oom;
	struct tfk_geometry geo;
	struct rp_blob header_page, header_event, kallsyms, printk, cmdlines;
	bool have_header_page, have_header_event;
	struct rp_list ftrace;
	struct rp_system *systems;
	size_t nsystems, systems_cap;
	struct rp_option *options;
	size_t noptions, options_cap;
	struct rp_buffer *buffers;
	size_t nbuffers, buffers_cap;
	struct rp_extent *extents;
	size_t nextents, extents_cap;
	char trace_clock[32];      /* from TRACECLOCK, for buffers that name none */
	/*
	 * For the salvage account: which metadata texts the check handed over (by tfk_meta_kind),
	 * their bytes as read, and whether a walk of formats stopped at damage.
	 */
	bool meta_seen[TFK_META_LATENCY + 1];
	uint64_t meta_bytes[TFK_META_LATENCY + 1];
	bool formats_stopped, ftrace_stopped;
	size_t nformats;           /* event formats kept, over all systems */
	const uint8_t *input;      /* the bytes being repaired: pages inside are kept by reference */
	/*
	 * Decoded pages are not copied (their bytes are wrong then) and spill_deferred says some
	 * were seen: a model for a first pass that only matters if the input proves clean.
	 */
	bool defer_spill, spill_deferred;
	size_t input_size;
};

/* Where a kept page's bytes are. */
static inline const uint8_t *rp_page_bytes(const struct rp_cpu *c, const struct rp_page *p)
{
	return p->src ? p->src : c->spill.data + p->spill_at;
}

/* The salvage report as text (format.h: salvage_text). */
int rp_tracedat_salvage_text(const struct tfk_repair_report *rep, const char *safe, tfk_write_fn write, void *user);

/* The salvage account by kind (format.h: account; tracedat_account.c). */
void rp_tracedat_account(const void *model, struct tfk_repair_report *rep);

/* The observer that fills a model. */
struct tfk_observer rp_model_observer(struct rp_model *m);
void rp_model_free(struct rp_model *m);

struct rp_out;
/* Lay the model out as a trace.dat version 6 file. Returns 0, or -1 when out of memory. */
int rp_write_v6(const struct rp_model *m, struct rp_out *out);

#endif
