/* SPDX-License-Identifier: MIT */
/*
 * Legacy LTTng 0.x tracefiles for the tests, written from the spec (other-formats.md §3.2 and
 * §3.3), the 2008 format document (spec/seeds/lttng-trace-format-2008.txt) and what the LTF
 * 2.3 to 2.6 tracers really wrote (validate/formats/lttng0/REAL-TRACES.md): several blocks of
 * events, either layout, either byte order.
 */
#ifndef TFK_LTTNG0_FIXTURE_H
#define TFK_LTTNG0_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define L0FX_MAX_BLOCKS 16
#define L0FX_MAX_EVENTS 256

struct l0fx_spec {
	uint8_t layout;          /* 1: the 2008 layout (LTF 1.0); 2: LTF 2.6 sub-buffers */
	bool big_endian;
	uint8_t arch_size;       /* 4 or 8 */
	uint8_t alignment;       /* 0 (packed) or 1, 2, 4, 8 */
	bool heartbeat;          /* 1.x: 32-bit event timestamps (else 64-bit) */
	bool compact;            /* 1.x: a compact tracefile (one u32 per event) */
	uint32_t block_size;     /* every block's size */
	unsigned blocks;         /* at most L0FX_MAX_BLOCKS */
	unsigned events;         /* per block, as many as fit */
	bool unknown_sizes;      /* 1.x: event_size 0xFFFF; 2.x: compact 5-bit ids (sizes from formats) */
	bool big_sizes;          /* 2.x: every size through the 0xFFFF escape and its u32 */
	uint64_t start_time;     /* start_time_sec (trace-wide; 0: a default) */
	uint64_t tsc_base;       /* the trace's start TSC (0: a default far from any wrap) */
	uint64_t tsc_step;       /* cycles between events (0: a default of 1000) */
	/*
	 * Events whose sizes only the marker metadata gives: event g is of marker
	 * l0fx_markers[g % L0FX_NMARKERS], its payload laid out from the marker's format; 1.x
	 * event_size 0xFFFF; 2.x the compact id (ids below 29) or the id-only escape 31, but the
	 * first event of each block an escape 29 with its size and full TSC.
	 */
	bool formats;
	/* A metadata tracefile (control/facilities_N, metadata_N): core marker_id and
	 * marker_format events (ids 0 and 1, sizes from their core formats) defining every
	 * marker of l0fx_markers and the plain ids of the default events, for channel. */
	bool meta;
	const char *channel;     /* 2.x meta: the channel its markers belong to */
	/*
	 * As LTTng 0.x tracers really wrote LTF 2.x (validate/formats/lttng0/REAL-TRACES.md):
	 * minor 3 or 4 write lost_size and buf_size at 52 and 56 (fixed-size sub-buffers), 5 and 6
	 * data_size and sb_size (0: 6); 4 and 5 align a type on its own size, 3 and 6 on
	 * min(size, alignment). trim: each sub-buffer written only up to the page holding its last
	 * byte, as 2.5+ lttd did (sb_size varies from block to block).
	 */
	uint8_t minor;
	bool trim;
	/* The markers of formats and meta tracefiles (NULL: l0fx_markers; l0fx_real_markers). */
	const struct l0fx_marker *markers;
};

/* The markers of `formats` events. Ids below 29 are compact in LTF 2.x; 40 takes escape 31. */
struct l0fx_marker {
	uint16_t id;
	const char *name, *format;
};
#define L0FX_NMARKERS 4
extern const struct l0fx_marker l0fx_markers[L0FX_NMARKERS];
/*
 * Markers with the formats of the real 2009-2011 kernels' (metadata of the Eclipse test traces):
 * the tracer's "#" types ("#p%ld" pointer-sized, "#2u%u" two bytes), a 64-bit field after a
 * 32-bit one, an id past 28 (escape 31) and "irqstate #1%d", which records no field at all.
 */
extern const struct l0fx_marker l0fx_real_markers[L0FX_NMARKERS];

struct l0fx_layout {
	size_t block_off[L0FX_MAX_BLOCKS];
	size_t event_off[L0FX_MAX_BLOCKS];   /* file offset of the block's first event */
	size_t last_off[L0FX_MAX_BLOCKS];    /* file offset of the block's last event */
	size_t data_end[L0FX_MAX_BLOCKS];    /* file offset where the block's events end */
	unsigned events[L0FX_MAX_BLOCKS];
	uint64_t first_event[L0FX_MAX_BLOCKS]; /* number of the block's first event in the file */
	uint64_t total_events;
	size_t ev_off[L0FX_MAX_EVENTS];      /* file offset of event g (the first L0FX_MAX_EVENTS) */
	unsigned blocks;                     /* written (a meta tracefile stops after its last marker) */
};

/* A default spec for a layout: 3 blocks, 8 events each, little-endian, arch 8, no alignment. */
struct l0fx_spec l0fx_default(uint8_t layout);

/* Write the tracefile into *out (free() it). 0, or -1 on a bad spec or no memory. */
int l0fx_write(const struct l0fx_spec *s, uint8_t **out, size_t *len, struct l0fx_layout *L);

/* What the writer puts in event number g of the file: its id, payload size and cycle count. */
void l0fx_event(const struct l0fx_spec *s, uint64_t g, uint16_t *id, uint32_t *size, uint64_t *tsc);

/* A number of width bytes at p in the spec's byte order (for mutations). */
void l0fx_put(uint8_t *p, uint64_t v, unsigned width, bool big_endian);

#endif
