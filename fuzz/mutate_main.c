/* SPDX-License-Identifier: MIT */
/*
 * Deterministic mutation runs of a harness over real files: flips bits, writes interesting
 * numbers into header fields, sizes and ring pages, and cuts the file short, then hands every
 * mutant to the harness (whose oracles abort on any violation; run it under sanitizers).
 * usage: MUTATE FILE COUNT SEED
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static uint64_t rng_state;

static uint64_t next(void)
{
	/* splitmix64: small, seedable, the same on every machine */
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

/* Offsets near the structure-dense head and tail of a trace are chosen more often. */
static size_t pick(size_t size)
{
	uint64_t r = next();
	size_t window = size < 65536 ? size : 65536;
	switch (r % 4) {
	case 0: return (size_t)(next() % window);
	case 1: return size - 1 - (size_t)(next() % window);
	default: return (size_t)(next() % size);
	}
}

static void mutate(uint8_t *d, size_t *size)
{
	static const uint64_t interesting[] = { 0, 1, 3, 4, 7, 8, 0x10, 0x7f, 0x80, 0xff, 0xfff, 0x1000, 0x1001,
						0x7fffffff, 0x80000000, 0xfffffffc, 0xffffffff, 0xc0000ff0,
						0xffffffffffffffffull, 0x8000000000000000ull };
	int n = 1 + (int)(next() % 4);
	for (int i = 0; i < n && *size > 8; i++) {
		size_t at = pick(*size);
		switch (next() % 5) {
		case 0: d[at] ^= (uint8_t)(1u << (next() % 8)); break;
		case 1: d[at] = (uint8_t)next(); break;
		case 2:
		case 3: {
			uint64_t v = interesting[next() % (sizeof(interesting) / sizeof(interesting[0]))];
			size_t w = (next() % 2) ? 4 : 8;
			if (at + w > *size)
				at = *size - w;
			memcpy(d + at, &v, w);
			break;
		}
		default: *size = at; break;
		}
	}
}

int main(int argc, char **argv)
{
	if (argc != 4) {
		fprintf(stderr, "usage: %s FILE COUNT SEED\n", argv[0]);
		return 2;
	}
	FILE *f = fopen(argv[1], "rb");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fseek(f, 0, SEEK_END);
	long len = ftell(f);
	fseek(f, 0, SEEK_SET);
	if (len <= 0) {
		fclose(f);
		return 1;
	}
	uint8_t *orig = malloc((size_t)len);
	if (!orig || fread(orig, 1, (size_t)len, f) != (size_t)len) {
		fclose(f);
		return 1;
	}
	fclose(f);
	long count = strtol(argv[2], NULL, 10);
	rng_state = strtoull(argv[3], NULL, 10);
	for (long i = 0; i < count; i++) {
		size_t size = (size_t)len;
		uint8_t *m = malloc(size);
		memcpy(m, orig, size);
		mutate(m, &size);
		/* An exact-size copy, so a read one byte past the mutant is caught. */
		uint8_t *exact = malloc(size ? size : 1);
		memcpy(exact, m, size);
		free(m);
		LLVMFuzzerTestOneInput(exact, size);
		free(exact);
	}
	free(orig);
	printf("%ld mutants of %s checked\n", count, argv[1]);
	return 0;
}
