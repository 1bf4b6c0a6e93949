/* SPDX-License-Identifier: MIT */
/*
 * The events of a real-shaped trace: records of a kernel's own formats in the proportions of a
 * recording with every event enabled (scheduler, syscalls, interrupts, timers and memory
 * events most of it, a long tail of everything else), from a pool of tasks, per CPU.
 */
#ifndef BENCH_MIX_H
#define BENCH_MIX_H

#include <stdint.h>

#include "bench_kmeta.h"
#include "tdw.h"

struct bench_mix;

/* A mix over m's formats (ftrace's own excluded) for ncpus CPUs; NULL if none is usable. */
struct bench_mix *bench_mix_new(const struct kmeta *m, uint32_t ncpus, uint64_t seed);

/* The event source for the fixture writer (valid while the mix lives). */
const struct tdw_event_source *bench_mix_source(struct bench_mix *x);

/* The saved cmdlines of the task pool ("PID COMM" lines). */
const char *bench_mix_cmdlines(const struct bench_mix *x);

/* How many formats the mix draws from, and how many of them are the common ones named in it. */
uint32_t bench_mix_formats(const struct bench_mix *x, uint32_t *common);

void bench_mix_free(struct bench_mix *x);

#endif
