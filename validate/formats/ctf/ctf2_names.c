/* SPDX-License-Identifier: MIT */
/*
 * The names and ids CTF 2 fragments declare (aliases, clock classes, data stream classes,
 * event record classes), looked up in a hash table: a metadata of hundreds of thousands of
 * fragments costs a constant per declaration and use, not a scan of all those before it.
 * Entries live in the metadata's arena; the table doubles when half full.
 */
#include <string.h>

#include "ctf2.h"

static uint64_t hash_of(const char *s, uint64_t a, uint64_t b)
{
	uint64_t h = 0xcbf29ce484222325ull;
	if (s)
		for (; *s; s++)
			h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	h = (h ^ a) * 0x100000001b3ull;
	h = (h ^ (a >> 32)) * 0x100000001b3ull;
	h = (h ^ b) * 0x100000001b3ull;
	return h ^ (h >> 29);
}

static bool same(const struct ctf2_entry *e, const char *s, uint64_t a, uint64_t b)
{
	if (e->a != a || e->b != b || !e->s != !s)
		return false;
	return !s || !strcmp(e->s, s);
}

const void *ctf2_names_get(const struct ctf2_names *t, const char *s, uint64_t a, uint64_t b)
{
	if (!t->cap)
		return NULL;
	for (size_t i = hash_of(s, a, b) & (t->cap - 1), k = 0; k < t->cap; i = (i + 1) & (t->cap - 1), k++) {
		const struct ctf2_entry *e = &t->e[i];
		if (!e->used)
			return NULL;
		if (same(e, s, a, b))
			return e->val;
	}
	return NULL;
}

bool ctf2_names_put(struct ctf2_names *t, struct ctf_arena *arena, const char *s, uint64_t a, uint64_t b,
		    const void *val)
{
	if (2 * (t->n + 1) > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct ctf2_entry *ne = ctf_alloc(arena, cap * sizeof(*ne));
		if (!ne)
			return false;
		memset(ne, 0, cap * sizeof(*ne));
		for (size_t i = 0; i < t->cap; i++) {
			if (!t->e[i].used)
				continue;
			size_t j = hash_of(t->e[i].s, t->e[i].a, t->e[i].b) & (cap - 1);
			while (ne[j].used)
				j = (j + 1) & (cap - 1);
			ne[j] = t->e[i];
		}
		t->e = ne;
		t->cap = cap;
	}
	size_t i = hash_of(s, a, b) & (t->cap - 1);
	while (t->e[i].used)
		i = (i + 1) & (t->cap - 1);
	t->e[i] = (struct ctf2_entry){ s, a, b, val, true };
	t->n++;
	return true;
}
