/* SPDX-License-Identifier: MIT */
#include <stddef.h>
#include <time.h>

#include "tracefsck/limits.h"

/* Below this a budget leaves no room to read even a trace's header sections. */
#define MIN_MEMORY (1ull << 20)
/* The largest block a budget lets decode: kallsyms, the largest, is a few MiB. */
#define DECODED_MAX (256ull << 20)

struct tfk_limits tfk_limits_default(void)
{
	struct tfk_limits l = {
		.max_findings = 10000,
		.max_cpus = 8192,          /* the kernel's largest NR_CPUS */
		.max_buffers = 1024,
		.max_options = 1u << 20,
		.max_format_blobs = 1u << 20,
		.max_string = 4096,
		.max_page_size = 1u << 27, /* commit lengths are 27 bits */
		.max_per_place = 20,
		.max_members = 100000,
		.input_idle_ms = 60000,
		.timeout_ms = 600000,
		.parser_timeout_ms = 10000,
		.test_hooks = NULL,
	};
	/* 1 GiB: a GitHub runner (7 GB) survives a decompression bomb even with several jobs */
	tfk_limits_set_memory(&l, 1ull << 30);
	return l;
}

void tfk_limits_set_memory(struct tfk_limits *l, uint64_t bytes)
{
	if (bytes < MIN_MEMORY)
		bytes = MIN_MEMORY;
	l->max_memory = bytes;
	l->max_input_bytes = bytes / 2;
	/* a budget above 8 GiB does not raise the block cap: no real block comes near it */
	l->max_decoded = bytes / 32 < DECODED_MAX ? bytes / 32 : DECODED_MAX;
}

uint64_t tfk_now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000u + (uint64_t)t.tv_nsec / 1000000u;
}
