/* SPDX-License-Identifier: MIT */
/*
 * Two slots, each keep + window bytes. The reader thread fills chunk k (region bytes
 * [k*window, (k+1)*window)) into slot k % 2 after its keep-byte prefix, once the slot is free;
 * the caller, moving on to chunk k, copies the last keep bytes of chunk k-1 into that prefix
 * and frees chunk k-1's slot for chunk k+1. So the copy of one chunk overlaps the walk of the
 * one before, and memory is two windows whatever the region's size.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "readahead.h"
#include "../../workers.h"

#include "test_hooks.h"

enum slot_state { SLOT_FREE, SLOT_READY };

struct ra_slot {
	uint8_t *buf;   /* keep bytes of the chunk before, then the chunk */
	uint64_t chunk; /* the chunk it holds, when ready */
	bool ok;        /* its read succeeded */
	enum slot_state state;
};

struct tfk_readahead {
	const struct tfk_ctx *ctx;
	struct tfk_cursor region;
	uint64_t window, keep, nchunks;
	struct ra_slot slot[2];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct tfk_workers thread; /* the one reader */
	bool stop;      /* under mu: the reader is to finish */
	bool broken;    /* a read failed: no more views */
	bool started;   /* the caller holds a chunk: cur */
	uint64_t cur;
};

static uint64_t chunk_len(const struct tfk_readahead *ra, uint64_t k)
{
	uint64_t at = k * ra->window;
	return ra->region.len - at < ra->window ? ra->region.len - at : ra->window;
}

static void *reader(void *arg)
{
	struct tfk_readahead *ra = arg;
	for (uint64_t k = 0; k < ra->nchunks; k++) {
		struct ra_slot *s = &ra->slot[k % 2];
		pthread_mutex_lock(&ra->mu);
		while (!ra->stop && s->state != SLOT_FREE)
			pthread_cond_wait(&ra->cv, &ra->mu);
		const bool stop = ra->stop;
		pthread_mutex_unlock(&ra->mu);
		if (stop)
			break;
		/* the slot is the reader's until marked ready: the caller does not touch a free one */
		bool ok = tfk_read_mapped(ra->ctx, ra->region.base + k * ra->window, chunk_len(ra, k), s->buf + ra->keep);
		pthread_mutex_lock(&ra->mu);
		s->chunk = k;
		s->ok = ok;
		s->state = SLOT_READY;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
	return NULL;
}

struct tfk_readahead *tfk_readahead_start(const struct tfk_ctx *ctx, const struct tfk_cursor *region, size_t window,
					  size_t keep)
{
	int fd;
	uint64_t at;
	if (ctx->limits->threads < 2 || window == 0 || keep > window || region->len <= window ||
	    !tfk_file_offset(ctx, region->base, region->len, &fd, &at))
		return NULL;
	struct tfk_readahead *ra = tfk_calloc_optional(ctx, 1, sizeof(*ra));
	if (!ra)
		return NULL;
	ra->ctx = ctx;
	ra->region = *region;
	ra->window = window;
	ra->keep = keep;
	ra->nchunks = (region->len + window - 1) / window;
	for (int i = 0; i < 2; i++)
		ra->slot[i].buf = tfk_calloc_optional(ctx, 1, keep + window);
	bool mu = false, cv = false;
	if (ra->slot[0].buf && ra->slot[1].buf && (mu = pthread_mutex_init(&ra->mu, NULL) == 0) &&
	    (cv = pthread_cond_init(&ra->cv, NULL) == 0) && tfk_workers_start(&ra->thread, ctx, 1, reader, ra, 0) == 1)
		return ra;
	if (cv)
		pthread_cond_destroy(&ra->cv);
	if (mu)
		pthread_mutex_destroy(&ra->mu);
	free(ra->slot[0].buf);
	free(ra->slot[1].buf);
	free(ra);
	return NULL;
}

/* Make chunk k the caller's (k is 0 or cur + 1), the tail of chunk k-1 before it. */
static bool take(struct tfk_readahead *ra, uint64_t k)
{
	struct ra_slot *s = &ra->slot[k % 2], *prev = &ra->slot[(k + 1) % 2];
	pthread_mutex_lock(&ra->mu);
	while (!(s->state == SLOT_READY && s->chunk == k))
		pthread_cond_wait(&ra->cv, &ra->mu);
	pthread_mutex_unlock(&ra->mu);
	if (!s->ok) {
		ra->broken = true;
		return false;
	}
	if (k > 0) {
		/* chunk k-1 was whole (only the last is short): its last keep bytes end its buffer */
		memcpy(s->buf, prev->buf + ra->window, ra->keep);
		pthread_mutex_lock(&ra->mu);
		prev->state = SLOT_FREE;
		pthread_cond_broadcast(&ra->cv);
		pthread_mutex_unlock(&ra->mu);
	}
	ra->cur = k;
	ra->started = true;
	uint64_t *counted = TFK_HOOK(ra->ctx->limits, read_ahead);
	if (counted)
		++*counted;
	return true;
}

bool tfk_readahead_view(struct tfk_readahead *ra, uint64_t pos, struct tfk_cursor *view)
{
	if (!ra || ra->broken || pos >= ra->region.len)
		return false;
	if (!ra->started && !take(ra, 0))
		return false;
	for (;;) {
		const uint64_t k = ra->cur, lead = k ? ra->keep : 0;
		const uint64_t start = k * ra->window - lead, end = k * ra->window + chunk_len(ra, k);
		if (pos < start)
			return false;
		if (end == ra->region.len || (end > pos && end - pos >= ra->keep)) {
			const struct ra_slot *s = &ra->slot[k % 2];
			*view = tfk_cur_make(s->buf + ra->keep - lead, end - start, ra->region.origin + start,
					     ra->region.big_endian);
			return true;
		}
		if (!take(ra, k + 1)) /* the loop ends: every turn takes a later chunk, the last ends the region */
			return false;
	}
}

void tfk_readahead_stop(struct tfk_readahead *ra)
{
	if (!ra)
		return;
	pthread_mutex_lock(&ra->mu);
	ra->stop = true;
	pthread_cond_broadcast(&ra->cv);
	pthread_mutex_unlock(&ra->mu);
	tfk_workers_join(&ra->thread);
	pthread_cond_destroy(&ra->cv);
	pthread_mutex_destroy(&ra->mu);
	free(ra->slot[0].buf);
	free(ra->slot[1].buf);
	free(ra);
}
