/* SPDX-License-Identifier: MIT */
/* SipHash-2-4, 64- and 128-bit outputs, fed in pieces (siphash.h). */
#include <string.h>

#include "siphash.h"

static inline uint64_t rotl(uint64_t x, unsigned b)
{
	return (x << b) | (x >> (64 - b));
}

static inline uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < 8; i++)
		v |= (uint64_t)p[i] << (8 * i);
	return v;
}

static inline void round2(struct tfk_sip *s, unsigned rounds)
{
	uint64_t v0 = s->v0, v1 = s->v1, v2 = s->v2, v3 = s->v3;
	for (unsigned r = 0; r < rounds; r++) {
		v0 += v1; v1 = rotl(v1, 13); v1 ^= v0; v0 = rotl(v0, 32);
		v2 += v3; v3 = rotl(v3, 16); v3 ^= v2;
		v0 += v3; v3 = rotl(v3, 21); v3 ^= v0;
		v2 += v1; v1 = rotl(v1, 17); v1 ^= v2; v2 = rotl(v2, 32);
	}
	s->v0 = v0, s->v1 = v1, s->v2 = v2, s->v3 = v3;
}

static inline void compress(struct tfk_sip *s, uint64_t m)
{
	s->v3 ^= m;
	round2(s, 2);
	s->v0 ^= m;
}

void tfk_sip_init(struct tfk_sip *s, const uint8_t key[TFK_SIP_KEY_BYTES], int wide)
{
	const uint64_t k0 = le64(key), k1 = le64(key + 8);
	s->v0 = 0x736f6d6570736575ull ^ k0;
	s->v1 = 0x646f72616e646f6dull ^ k1;
	s->v2 = 0x6c7967656e657261ull ^ k0;
	s->v3 = 0x7465646279746573ull ^ k1;
	if (wide)
		s->v1 ^= 0xee;
	s->tail = 0;
	s->len = 0;
	s->wide = wide;
}

void tfk_sip_update(struct tfk_sip *s, const void *data, size_t n)
{
	const uint8_t *p = data;
	/* finish the word a previous piece left open */
	while (n && s->len % 8) {
		s->tail |= (uint64_t)*p++ << (8 * (s->len % 8));
		n--;
		if (++s->len % 8 == 0) {
			compress(s, s->tail);
			s->tail = 0;
		}
	}
	for (; n >= 8; p += 8, n -= 8, s->len += 8)
		compress(s, le64(p));
	for (; n; n--, s->len++)
		s->tail |= (uint64_t)*p++ << (8 * (s->len % 8));
}

static void finish(struct tfk_sip *s)
{
	compress(s, s->tail | (uint64_t)s->len << 56);
	s->v2 ^= s->wide ? 0xee : 0xff;
	round2(s, 4);
}

uint64_t tfk_sip_final64(struct tfk_sip *s)
{
	finish(s);
	return s->v0 ^ s->v1 ^ s->v2 ^ s->v3;
}

static void put_le64(uint8_t *p, uint64_t v)
{
	for (unsigned i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

void tfk_sip_final128(struct tfk_sip *s, uint8_t out[TFK_SIP128_BYTES])
{
	finish(s);
	put_le64(out, s->v0 ^ s->v1 ^ s->v2 ^ s->v3);
	s->v1 ^= 0xdd;
	round2(s, 4);
	put_le64(out + 8, s->v0 ^ s->v1 ^ s->v2 ^ s->v3);
}
