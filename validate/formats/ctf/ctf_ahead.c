/* SPDX-License-Identifier: MIT */
/*
 * The events of a stream file's packets decoded ahead on worker threads (limits.threads > 1).
 *
 * Decoding the events is nearly all of a check's time, and a packet's events depend only on
 * the packet's own bytes and on the clock its header and context leave (LTTng's packets start
 * it again from timestamp_begin). Each walker walks the whole packet chain as the check does,
 * on a private context, but decodes the events of its share of the packets only (one packet in
 * every n). For each packet of its share whose walk had nothing at all to report, it keeps the
 * events' count and the clock before and after them. When the check reaches that packet, it
 * takes those instead of decoding the events itself if the packet starts at the same offset and
 * its own clock is the walker's: the same bytes from the same state decode the same way.
 * Anything else (a walker that lost the chain, a packet with a finding) the check decodes
 * itself, in its order, so the report is the same, finding for finding, as one thread's.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_walk.h"
#include "../../workers.h"
#include "test_hooks.h"

#define AHEAD_MIN_FILE (8u << 20) /* smaller streams are decoded by the check alone */
#define AHEAD_MAX_WALKERS 7
#define AHEAD_SLOTS 4             /* packets a walker keeps ready; it waits when they are not taken */

/* One packet of a walker's share, decoded with nothing to report. */
struct slot {
	uint64_t index, off, events, clock_start, clock_end;
	bool clock_set_start, clock_set_end;
};

struct walker {
	struct ctf_ahead *a;
	uint32_t rem;               /* its share: the packets whose index is rem modulo a->mod */
	struct slot ring[AHEAD_SLOTS];
	uint64_t head, tail;        /* slots taken from head, put at tail (counts) */
	uint64_t walked;            /* packets it has walked */
	bool stopped;               /* its walk has ended */
};

struct ctf_ahead {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool quit;
	const struct ctf_meta *meta;
	struct tfk_cursor file;
	struct tfk_limits limits;   /* the check's, with nothing kept: walkers only count */
	const struct tfk_ctx *main;
	uint32_t mod;               /* walkers wanted + 1, set before any starts: the check decodes remainder 0 */
	struct walker *walkers;
	struct tfk_workers threads; /* the walkers started */
	unsigned n;                 /* how many: walkers[0..n) */
};

static uint64_t faults(const struct tfk_ctx *ctx)
{
	uint64_t n = 0;
	for (size_t i = 0; i < sizeof(ctx->faults) / sizeof(ctx->faults[0]); i++)
		n += ctx->faults[i];
	return n;
}

/* Keep a clean packet of the walker's share; false when the check is finishing. */
static bool put(struct walker *k, const struct slot *s)
{
	struct ctf_ahead *a = k->a;
	pthread_mutex_lock(&a->mu);
	while (k->tail - k->head == AHEAD_SLOTS && !a->quit)
		pthread_cond_wait(&a->cv, &a->mu);
	bool go = !a->quit;
	if (go) {
		k->ring[k->tail % AHEAD_SLOTS] = *s;
		k->tail++;
		pthread_cond_broadcast(&a->cv);
	}
	pthread_mutex_unlock(&a->mu);
	return go;
}

static void *walk_ahead(void *arg)
{
	struct walker *k = arg;
	struct ctf_ahead *a = k->a;
	struct tfk_report rep;
	memset(&rep, 0, sizeof(rep));
	struct tfk_ctx ctx;
	tfk_ctx_init(&ctx, &a->limits, &rep);
	ctx.map = a->main->map;
	ctx.map_size = a->main->map_size;
	ctx.fd = a->main->fd;
	ctx.sources = a->main->sources;
	ctx.nsources = a->main->nsources;
	struct ctf_decoder *d = calloc(1, sizeof(*d));
	if (d) {
		d->ctx = &ctx;
		d->meta = a->meta;
		struct walk w = { 0 };
		w.ctx = &ctx;
		w.meta = a->meta;
		w.d = d;
		w.share_mod = a->mod;
		w.share_rem = k->rem;
		ctf_tracer_quirks(&w);
		struct ctf_stream_result res = { 0 };
		while (w.off < a->file.len) {
			const uint64_t off = w.off, index = w.index, before = faults(&ctx);
			if (!ctf_walk_packet(&w, &a->file, &res))
				break;
			if (w.mine && w.last_events_ok && faults(&ctx) == before) {
				struct slot s = { index, off, w.last_events, w.clock_start, d->clock, w.clock_set_start, d->clock_set };
				if (!put(k, &s))
					break;
			}
			w.index++;
			pthread_mutex_lock(&a->mu);
			k->walked = w.index;
			bool quit = a->quit;
			pthread_cond_broadcast(&a->cv);
			pthread_mutex_unlock(&a->mu);
			if (quit)
				break;
		}
		free(d);
	}
	tfk_report_free(&rep);
	pthread_mutex_lock(&a->mu);
	k->stopped = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	return NULL;
}

struct ctf_ahead *ctf_ahead_start(struct tfk_ctx *ctx, const struct ctf_meta *meta, const struct tfk_cursor *file)
{
	const struct tfk_limits *lim = ctx->limits;
	/* Injected allocation failures must fall where a single thread's would. */
	if (lim->threads < 2 || file->len < AHEAD_MIN_FILE || !meta->usable || TFK_HOOK(lim, fail_alloc_after))
		return NULL;
	struct ctf_ahead *a = tfk_calloc_optional(ctx, 1, sizeof(*a));
	if (!a)
		return NULL;
	unsigned want = lim->threads - 1 < AHEAD_MAX_WALKERS ? lim->threads - 1 : AHEAD_MAX_WALKERS;
	a->walkers = tfk_calloc_optional(ctx, want, sizeof(*a->walkers));
	bool mu = a->walkers && pthread_mutex_init(&a->mu, NULL) == 0;
	if (!mu || pthread_cond_init(&a->cv, NULL) != 0) {
		if (mu)
			pthread_mutex_destroy(&a->mu);
		free(a->walkers);
		free(a);
		return NULL;
	}
	a->meta = meta;
	a->file = *file;
	a->limits = *lim;
	a->limits.policy = NULL;
	a->limits.max_findings = 0; /* counted only: a walker's packet with a finding is the check's to decode */
	a->main = ctx;
	a->mod = want + 1;
	for (unsigned i = 0; i < want; i++) {
		a->walkers[i].a = a;
		a->walkers[i].rem = i + 1;
	}
	/* fewer walkers: their shares are the check's */
	a->n = tfk_workers_start(&a->threads, ctx, want, walk_ahead, a->walkers, sizeof(*a->walkers));
	if (a->n == 0) {
		ctf_ahead_finish(a);
		return NULL;
	}
	return a; /* mod stays want + 1, as the walkers read it: a share whose walker did not start is the check's */
}

bool ctf_ahead_take(struct ctf_ahead *a, uint64_t index, uint64_t off, const struct ctf_decoder *d,
		    struct ctf_ahead_events *out)
{
	uint64_t r = index % a->mod;
	if (r == 0 || r > a->n)
		return false; /* the check's share, or a walker's that could not start */
	struct walker *k = &a->walkers[r - 1];
	struct slot s;
	bool found = false;
	pthread_mutex_lock(&a->mu);
	for (;;) {
		while (k->head != k->tail && k->ring[k->head % AHEAD_SLOTS].index < index) {
			k->head++; /* packets the check decoded itself: room for the walker */
			pthread_cond_broadcast(&a->cv);
		}
		if (k->head != k->tail && k->ring[k->head % AHEAD_SLOTS].index == index) {
			s = k->ring[k->head % AHEAD_SLOTS];
			k->head++;
			pthread_cond_broadcast(&a->cv);
			found = true;
			break;
		}
		if (k->stopped || k->walked > index)
			break; /* walked past it with something to report, or never reached it */
		pthread_cond_wait(&a->cv, &a->mu);
	}
	pthread_mutex_unlock(&a->mu);
	if (!found || s.off != off || s.clock_start != d->clock || s.clock_set_start != d->clock_set)
		return false;
	out->events = s.events;
	out->clock_end = s.clock_end;
	out->clock_set_end = s.clock_set_end;
	uint64_t *taken = TFK_HOOK(a->main->limits, taken_ahead);
	if (taken)
		(*taken)++;
	return true;
}

void ctf_ahead_finish(struct ctf_ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->mu);
	a->quit = true;
	pthread_cond_broadcast(&a->cv);
	pthread_mutex_unlock(&a->mu);
	tfk_workers_join(&a->threads);
	pthread_cond_destroy(&a->cv);
	pthread_mutex_destroy(&a->mu);
	free(a->walkers);
	free(a);
}
