/* SPDX-License-Identifier: MIT */
/*
 * An index from 64-bit keys (tids, pids, ids a file names) to positions in the caller's own
 * array, so that a lookup per line or per member stays constant time however many a file
 * lists: a check never turns quadratic in a hostile count. The index is a speed-up only: its
 * memory is optional (tfk_calloc_optional), and once it could not grow it says so and the
 * caller searches its array as it would have without one. Open addressing, linear probing;
 * a key may be added once (the caller looks it up first).
 */
#ifndef TFK_KEYINDEX_H
#define TFK_KEYINDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfk_ctx;

struct tfk_keyindex {
	struct tfk_keyslot {
		uint64_t key;
		size_t pos_plus_one; /* 0: empty slot */
	} *slots;
	size_t cap; /* slots; a power of two, or 0 */
	size_t n;
	bool broken; /* could not grow: every lookup answers TFK_KEY_UNKNOWN */
};

enum tfk_key_found { TFK_KEY_ABSENT = 0, TFK_KEY_FOUND = 1, TFK_KEY_UNKNOWN = -1 };

/* Remember that key sits at pos of the caller's array. */
void tfk_keyindex_add(const struct tfk_ctx *ctx, struct tfk_keyindex *ix, uint64_t key, size_t pos);
/* Where key sits (*pos), TFK_KEY_ABSENT, or TFK_KEY_UNKNOWN: the index failed, search the array. */
enum tfk_key_found tfk_keyindex_find(const struct tfk_keyindex *ix, uint64_t key, size_t *pos);
void tfk_keyindex_free(struct tfk_keyindex *ix);

#endif
