/* SPDX-License-Identifier: MIT */
/*
 * Data events in whole ftrace ring pages (64-bit commit words, little-endian), counted apart
 * from the checker, for tests to compare its counts with. Each event header's low 5 bits are
 * its type_len: 1-28 a data event of that many words, 0 a data event whose length is the next
 * word, 29 padding (its length next, or the rest of the page), 30-31 time events of 8 bytes.
 */
#ifndef TFK_TEST_RING_EVENTS_H
#define TFK_TEST_RING_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

static inline uint64_t ring_events(const uint8_t *d, size_t n, size_t page_size)
{
	uint64_t events = 0;
	for (size_t at = 0; at + page_size <= n; at += page_size) {
		uint64_t commit;
		memcpy(&commit, d + at + 8, 8);
		uint64_t len = commit & 0x7ffffff, pos = 0;
		if (len > page_size - 16)
			return UINT64_MAX; /* not a page of the kind this counts */
		const uint8_t *e = d + at + 16;
		while (pos + 4 <= len) {
			uint32_t h, w = 0;
			memcpy(&h, e + pos, 4);
			unsigned tl = h & 31;
			if (pos + 8 <= len)
				memcpy(&w, e + pos + 4, 4);
			if (tl <= 28) {
				pos += tl ? 4 + 4u * tl : 4 + (uint64_t)w;
				events++;
			} else if (tl == 29) {
				pos += h >> 5 ? 4 + (uint64_t)w : len - pos;
			} else {
				pos += 8;
			}
		}
	}
	return events;
}

#endif
