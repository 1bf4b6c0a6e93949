/* SPDX-License-Identifier: MIT */
/*
 * The one way the library starts threads: workers for work that has a way round their
 * absence. A check asks for up to N; any that cannot start (no memory, no thread) leave their
 * share to the check's own thread, so the report never depends on how many ran. Who shares
 * what, and how results come back, stays with the caller (a CPU walk ahead, a packet walk
 * ahead, a slice of a page scan, a read ahead).
 */
#ifndef TFK_WORKERS_H
#define TFK_WORKERS_H

#include <pthread.h>
#include <stddef.h>

struct tfk_ctx;

struct tfk_workers {
	pthread_t *threads;
	unsigned n; /* started: the first n of those asked for */
};

/*
 * Start up to want workers; the i-th runs fn(args + i * stride) (stride 0: all the same
 * argument). Their handles are optional memory (tfk_calloc_optional). Returns how many
 * started, 0 when none could: the caller then does the work itself.
 */
unsigned tfk_workers_start(struct tfk_workers *w, const struct tfk_ctx *ctx, unsigned want, void *(*fn)(void *),
			   void *args, size_t stride);
/* Wait for every worker that started, and free the handles. */
void tfk_workers_join(struct tfk_workers *w);

#endif
