/* SPDX-License-Identifier: MIT */
/*
 * Real-shaped benchmark traces: the metadata of a real kernel (its every event format, its
 * kallsyms and printk formats) and ring pages of records of those formats, 2 CPUs as a recording
 * of a small machine has, written by the fixture writer as v6, v7 or v7 zstd.
 */
#ifndef BENCH_REAL_H
#define BENCH_REAL_H

#include <stdint.h>

#include "bench_gen.h"
#include "bench_kmeta.h"

struct bench_real_made {
	uint64_t events;      /* records written */
	uint32_t formats;     /* formats in the file's metadata */
	uint32_t mix_formats; /* formats the records were drawn from, and how many of them common ones */
	uint32_t mix_common;
};

/* Write a real-shaped trace of about mib MiB of ring pages to path (remade every time). */
int bench_make_real(enum bench_kind kind, uint64_t mib, const struct kmeta *m, const char *path,
		    struct bench_real_made *made);

/* The same with the records drawn under another seed: traces of one kernel with different data. */
int bench_make_real_seeded(enum bench_kind kind, uint64_t mib, const struct kmeta *m, const char *path,
			   uint64_t seed, struct bench_real_made *made);

#endif
