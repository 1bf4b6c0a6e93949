/* SPDX-License-Identifier: MIT */
/*
 * The packets a stream keeps must follow one another as the check wants them to: timestamp_begin,
 * timestamp_end, packet_seq_num and events_discarded never going back. One damaged value makes
 * the check blame the packet *after* it (each packet is compared with its predecessor); dropping
 * that one only moves the break to the next. So, of the packets kept for their own contents,
 * the longest run ordered in each field is kept (one field after the other: each pass only
 * drops, so the orders already made hold): the outlier goes, not everything after it. Values
 * are never rewritten.
 */
#include <stdlib.h>

#include "ctf_repair.h"

enum key { KEY_TS_BEGIN, KEY_TS_END, KEY_SEQ, KEY_DISCARDED, KEYS };

static bool has(const struct cr_packet *p, enum key k)
{
	switch (k) {
	case KEY_TS_BEGIN: return p->has_ts_begin;
	case KEY_TS_END: return p->has_ts_end;
	case KEY_SEQ: return p->has_seq;
	default: return p->has_discarded;
	}
}

static uint64_t value(const struct cr_packet *p, enum key k)
{
	switch (k) {
	case KEY_TS_BEGIN: return p->ts_begin;
	case KEY_TS_END: return p->ts_end;
	case KEY_SEQ: return p->seq;
	default: return p->discarded_unwrapped;
	}
}

/*
 * Longest non-decreasing run of key k over the kept packets that have it (patience sorting:
 * tails[j] ends the best run of length j + 1 found so far); the others lose their keep.
 * at: the kept packets' indices; tails, back: scratch of n entries each.
 */
static void keep_longest(struct cr_packet *pk, const size_t *at, size_t n, enum key k, size_t *tails, size_t *back)
{
	size_t len = 0;
	for (size_t i = 0; i < n; i++) {
		const struct cr_packet *p = &pk[at[i]];
		if (!p->keep || !has(p, k))
			continue;
		uint64_t v = value(p, k);
		size_t lo = 0, hi = len; /* the first run whose end is greater than v */
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (value(&pk[at[tails[mid]]], k) <= v)
				lo = mid + 1;
			else
				hi = mid;
		}
		back[i] = lo ? tails[lo - 1] : SIZE_MAX;
		tails[lo] = i;
		if (lo == len)
			len++;
	}
	if (!len)
		return;
	/* Mark the run (back links), then drop the rest of the packets that have the key. */
	size_t run = tails[len - 1];
	for (size_t i = n; i-- > 0;) {
		struct cr_packet *p = &pk[at[i]];
		if (!p->keep || !has(p, k))
			continue;
		if (i == run)
			run = back[i];
		else
			p->keep = false;
	}
}

void cr_order_stream(struct cr_model *m, const struct cr_stream *s)
{
	struct cr_packet *pk = m->packets;
	size_t n = 0;
	for (size_t i = s->first; i < s->first + s->count; i++)
		n += pk[i].keep;
	if (n < 2)
		return;
	size_t *at = calloc(n, sizeof(*at)), *tails = calloc(n, sizeof(*tails)), *back = calloc(n, sizeof(*back));
	if (!at || !tails || !back) {
		m->oom = true; /* repair is refused rather than written out of order */
		free(at);
		free(tails);
		free(back);
		return;
	}
	size_t k = 0;
	for (size_t i = s->first; i < s->first + s->count; i++)
		if (pk[i].keep)
			at[k++] = i;
	for (enum key key = 0; key < KEYS; key++)
		keep_longest(pk, at, n, key, tails, back);
	/*
	 * The check reads a narrow events_discarded that drops by more than half its range as a
	 * wrap, between the packets it compares; after a drop, two packets that were not neighbours
	 * are. A kept packet the check would still call a regression goes too.
	 */
	const struct cr_packet *prev = NULL;
	for (size_t i = 0; i < n; i++) {
		struct cr_packet *p = &pk[at[i]];
		if (!p->keep)
			continue;
		if (prev && prev->has_discarded && p->has_discarded && p->discarded < prev->discarded) {
			unsigned bits = p->discarded_bits;
			bool wrapped = bits > 0 && bits < 64 && prev->discarded - p->discarded > (1ull << (bits - 1));
			if (!wrapped) {
				p->keep = false;
				continue;
			}
		}
		prev = p;
	}
	free(at);
	free(tails);
	free(back);
}
