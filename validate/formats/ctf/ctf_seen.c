/* SPDX-License-Identifier: MIT */
/* Packets seen before (ctf_seen.h): their keys, and a hash table over them. */
#include <stdlib.h>
#include <string.h>

#include "ctf_seen.h"
#include "../../grow.h"

#define SEEN_MAX (1u << 26) /* keys remembered at most: a stream of 64-byte packets of 4 GiB */

static uint64_t mix(uint64_t h, uint64_t v)
{
	h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
	return h * 0xff51afd7ed558ccdull;
}

static uint64_t hash(const struct ctf_seen_key *k)
{
	uint64_t a, b;
	memcpy(&a, k->trace, 8);
	memcpy(&b, k->trace + 8, 8);
	uint64_t h = mix(mix(0, a), b);
	h = mix(mix(mix(h, k->stream_id), k->instance_id), k->packet_size);
	return mix(mix(mix(h, k->ts_begin), k->ts_end), k->seq);
}

void ctf_seen_trace(uint8_t out[16], bool have_uuid, const uint8_t uuid[16], const char *dir, size_t dir_len)
{
	if (have_uuid) {
		memcpy(out, uuid, 16);
		return;
	}
	uint64_t a = 0x243f6a8885a308d3ull, b = 0x13198a2e03707344ull;
	for (size_t i = 0; i < dir_len; i++) {
		a = mix(a, (uint8_t)dir[i]);
		b = mix(b, (uint8_t)dir[i] ^ 0xa5u);
	}
	memcpy(out, &a, 8);
	memcpy(out + 8, &b, 8);
}

void ctf_seen_key_of(struct ctf_seen_key *k, const uint8_t trace[16], const struct ctf_seen_packet *p)
{
	memset(k, 0, sizeof(*k));
	memcpy(k->trace, trace, 16);
	k->stream_id = p->stream_id;
	k->instance_id = p->instance_id;
	k->packet_size = p->packet_size;
	k->ts_begin = p->has_ts_begin ? p->ts_begin : 0;
	k->ts_end = p->has_ts_end ? p->ts_end : 0;
	k->seq = p->has_seq ? p->seq : 0;
}

static bool same(const struct ctf_seen_key *x, const struct ctf_seen_key *y)
{
	return !memcmp(x->trace, y->trace, 16) && x->stream_id == y->stream_id && x->instance_id == y->instance_id &&
	       x->packet_size == y->packet_size && x->ts_begin == y->ts_begin && x->ts_end == y->ts_end && x->seq == y->seq;
}

/* Twice the slots, every key placed again; false when out of memory. */
static bool grow(struct ctf_seen *s)
{
	size_t n = s->nslots ? s->nslots * 2 : 1024;
	uint32_t *slots = calloc(n, sizeof(*slots));
	if (!slots)
		return false;
	for (size_t i = 0; i < s->n; i++) {
		size_t j = (size_t)hash(&s->keys[i]) & (n - 1);
		while (slots[j])
			j = (j + 1) & (n - 1);
		slots[j] = (uint32_t)i + 1;
	}
	free(s->slots);
	s->slots = slots;
	s->nslots = n;
	return true;
}

bool ctf_seen_again(struct ctf_seen *s, const struct ctf_seen_key *k)
{
	if (s->broken)
		return false;
	const uint64_t h = hash(k);
	for (size_t j = s->nslots ? (size_t)h & (s->nslots - 1) : 0; s->nslots && s->slots[j];
	     j = (j + 1) & (s->nslots - 1))
		if (same(&s->keys[s->slots[j] - 1], k))
			return true;
	if (s->n >= SEEN_MAX || ((s->n + 1) * 2 > s->nslots && !grow(s))) {
		s->broken = true;
		return false;
	}
	void *keys = s->keys;
	bool grown = tfk_array_grow(&keys, &s->cap, s->n + 1, sizeof(*s->keys), 0);
	s->keys = keys;
	if (!grown) {
		s->broken = true;
		return false;
	}
	s->keys[s->n] = *k;
	size_t j = (size_t)h & (s->nslots - 1);
	while (s->slots[j])
		j = (j + 1) & (s->nslots - 1);
	s->slots[j] = (uint32_t)++s->n;
	return false;
}

void ctf_seen_free(struct ctf_seen *s)
{
	free(s->keys);
	free(s->slots);
	memset(s, 0, sizeof(*s));
}
