/* SPDX-License-Identifier: MIT */
/*
 * A decoder of legacy LTTng tracefiles for the tests' oracle, written from the 2008 format
 * document (spec/seeds/lttng-trace-format-2008.txt), the spec's §3.3 and what LTF 2.3 to 2.6
 * tracers wrote (validate/formats/lttng0/REAL-TRACES.md), apart from the checker: it walks
 * every block and returns the events it holds.
 */
#ifndef TFK_LTTNG0_DECODE_H
#define TFK_LTTNG0_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct l0dec_event {
	unsigned block;
	uint16_t id;
	uint32_t size;
	uint64_t tsc;           /* as recorded: 32 (heartbeat), 27 (LTF 2.6 compact word) or 64 bits */
	uint64_t full;          /* LTF 2.x: the full cycle count, rebuilt from the block's begin as LTTV does */
	const uint8_t *payload;
	size_t end;             /* offset in the tracefile where the event ends */
};

/* Decode every event; their number, or -1 when a block cannot be decoded. */
long l0dec_decode(const uint8_t *p, size_t len, uint8_t layout, bool big_endian, struct l0dec_event *ev, size_t max);

/* Markers read from a metadata tracefile's core marker_id (0) and marker_format (1) events. */
#define L0DEC_MARKERS 512
struct l0dec_marker {
	char channel[64], name[64], format[256];
	uint16_t id;
	uint8_t sizes[4];        /* int, long, pointer, size_t */
	uint8_t align;           /* the marker's alignment (marker_id's last byte) */
	bool has_id, has_format;
};
struct l0dec_meta {
	struct l0dec_marker m[L0DEC_MARKERS];
	size_t n;
};

/*
 * The same, measuring events that carry no size (2008 event_size 0xFFFF; LTF 2.x compact ids
 * and escape 31) from the markers of channel in meta. With is_meta, ids 0 and 1 are the core
 * marker events, read into meta as they come.
 */
long l0dec_decode_meta(const uint8_t *p, size_t len, uint8_t layout, bool big_endian, struct l0dec_meta *meta,
		       bool is_meta, const char *channel, struct l0dec_event *ev, size_t max);

#endif
