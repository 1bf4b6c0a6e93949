/* SPDX-License-Identifier: MIT */
#include "keyindex.h"

#include <stdlib.h>

#include "context.h"

/* A key's first slot: the bits of a multiplicative hash that the table's size keeps. */
static size_t home(uint64_t key, size_t cap)
{
	return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

static void put(struct tfk_keyslot *slots, size_t cap, uint64_t key, size_t pos_plus_one)
{
	size_t i = home(key, cap);
	while (slots[i].pos_plus_one)
		i = (i + 1) & (cap - 1);
	slots[i].key = key;
	slots[i].pos_plus_one = pos_plus_one;
}

static void give_up(struct tfk_keyindex *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->cap = 0;
	ix->broken = true;
}

void tfk_keyindex_add(const struct tfk_ctx *ctx, struct tfk_keyindex *ix, uint64_t key, size_t pos)
{
	if (ix->broken || pos == SIZE_MAX)
		return;
	/* At most half full: probes stay short. */
	if ((ix->n + 1) * 2 > ix->cap) {
		size_t ncap = ix->cap ? ix->cap * 2 : 64;
		if (ncap < ix->cap) {
			give_up(ix);
			return;
		}
		struct tfk_keyslot *fresh = tfk_calloc_optional(ctx, ncap, sizeof(*fresh));
		if (!fresh) {
			give_up(ix);
			return;
		}
		for (size_t i = 0; i < ix->cap; i++)
			if (ix->slots[i].pos_plus_one)
				put(fresh, ncap, ix->slots[i].key, ix->slots[i].pos_plus_one);
		free(ix->slots);
		ix->slots = fresh;
		ix->cap = ncap;
	}
	put(ix->slots, ix->cap, key, pos + 1);
	ix->n++;
}

enum tfk_key_found tfk_keyindex_find(const struct tfk_keyindex *ix, uint64_t key, size_t *pos)
{
	if (ix->broken)
		return TFK_KEY_UNKNOWN;
	if (!ix->cap)
		return TFK_KEY_ABSENT;
	for (size_t i = home(key, ix->cap);; i = (i + 1) & (ix->cap - 1)) {
		if (!ix->slots[i].pos_plus_one)
			return TFK_KEY_ABSENT;
		if (ix->slots[i].key == key) {
			*pos = ix->slots[i].pos_plus_one - 1;
			return TFK_KEY_FOUND;
		}
	}
}

void tfk_keyindex_free(struct tfk_keyindex *ix)
{
	free(ix->slots);
	ix->slots = NULL;
	ix->cap = ix->n = 0;
}
