/* SPDX-License-Identifier: MIT */
/* The type model's memory: chunks from the context's allocator, released together. */
#include <stdlib.h>
#include <string.h>

#include "ctf.h"

#define CHUNK_SIZE (64u << 10)

struct ctf_chunk {
	struct ctf_chunk *next;
	size_t used, size;
	_Alignas(16) unsigned char data[];
};

void *ctf_alloc(struct ctf_arena *a, size_t n)
{
	if (a->failed)
		return NULL;
	n = (n + 15) & ~(size_t)15;
	if (n == 0)
		n = 16;
	struct ctf_chunk *c = a->chunks;
	if (!c || c->size - c->used < n) {
		size_t size = n > CHUNK_SIZE ? n : CHUNK_SIZE;
		if (a->used_total > CTF_MAX_ARENA || size > CTF_MAX_ARENA - a->used_total) {
			a->failed = true;
			return NULL;
		}
		c = tfk_calloc(a->ctx, 1, sizeof(*c) + size);
		if (!c) {
			a->failed = true;
			return NULL;
		}
		c->size = size;
		c->next = a->chunks;
		a->chunks = c;
		a->used_total += size;
	}
	void *p = c->data + c->used;
	c->used += n;
	return p;
}

char *ctf_strndup(struct ctf_arena *a, const char *s, size_t n)
{
	char *p = ctf_alloc(a, n + 1);
	if (!p)
		return NULL;
	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void ctf_arena_free(struct ctf_arena *a)
{
	struct ctf_chunk *c = a->chunks;
	while (c) {
		struct ctf_chunk *next = c->next;
		free(c);
		c = next;
	}
	a->chunks = NULL;
	a->used_total = 0;
}

void ctf_arena_adopt(struct ctf_arena *into, struct ctf_arena *from)
{
	struct ctf_chunk **tail = &from->chunks;
	while (*tail)
		tail = &(*tail)->next;
	*tail = into->chunks;
	into->chunks = from->chunks;
	into->used_total += from->used_total;
	into->failed |= from->failed;
	from->chunks = NULL;
	from->used_total = 0;
}
