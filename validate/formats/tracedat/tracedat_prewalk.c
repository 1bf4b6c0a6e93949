/* SPDX-License-Identifier: MIT */
/*
 * The CPUs of one buffer walked ahead on worker threads (limits.threads > 1).
 *
 * Each CPU's pages are independent of every other CPU's, so their walks can run at once. A
 * worker walks against a private context that keeps everything; when the check reaches that
 * CPU in its own order it replays the walk's findings, counts and statistics through the real
 * context, where the policy and the findings cap apply as they would have. The report is the
 * same, finding for finding, as one thread's: threads change the time a check takes, nothing
 * else. Only walks nobody observes are taken ahead (repair keeps its model in file order), and
 * only the ranges the buffer's own entry loop will ask for, so no page is walked twice.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat.h"

enum job_state { JOB_PENDING, JOB_RUNNING, JOB_DONE, JOB_TAKEN };

struct job {
	struct td_walk_range r;
	char buffer[TD_LABEL_MAX];    /* r.buffer points here */
	enum job_state state;
	struct tfk_report rep;        /* what the walk found, unfiltered */
	uint64_t counted[TFK_FAULT_COUNT]; /* faults it only counted, by code */
};

struct td_prewalk {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct job *jobs;
	size_t n, next;               /* next: no pending job before it */
	size_t last_taken;
	pthread_t *threads;
	unsigned nthreads;
	struct td_check snapshot;     /* td as the walks see it; each job gets its own context */
	struct tfk_limits limits;     /* everything kept: filtering happens at replay */
	const struct tfk_ctx *main;
};

static void run_job(struct td_prewalk *p, struct job *j)
{
	struct tfk_ctx ctx;
	tfk_ctx_init(&ctx, &p->limits, &j->rep);
	ctx.map = p->main->map;
	ctx.map_size = p->main->map_size;
	ctx.sys_page = p->main->sys_page;
	ctx.counted = j->counted;
	struct td_check td = p->snapshot;
	td.ctx = &ctx;
	td.prewalk = NULL;
	td_walk_range_here(&td, &j->r);
}

/* The first pending job, or NULL; called with the lock held. */
static struct job *next_pending(struct td_prewalk *p)
{
	while (p->next < p->n && p->jobs[p->next].state != JOB_PENDING)
		p->next++;
	return p->next < p->n ? &p->jobs[p->next] : NULL;
}

/* Run j on this thread; called with the lock held, returns with it held. */
static void run_locked(struct td_prewalk *p, struct job *j)
{
	j->state = JOB_RUNNING;
	pthread_mutex_unlock(&p->mu);
	run_job(p, j);
	pthread_mutex_lock(&p->mu);
	j->state = JOB_DONE;
	pthread_cond_broadcast(&p->cv);
}

static void *worker(void *arg)
{
	struct td_prewalk *p = arg;
	pthread_mutex_lock(&p->mu);
	for (struct job *j; (j = next_pending(p));)
		run_locked(p, j);
	pthread_mutex_unlock(&p->mu);
	return NULL;
}

void td_prewalk_start(struct td_check *td, const struct td_walk_range *ranges, size_t n)
{
	const struct tfk_limits *lim = td->ctx->limits;
	/* Injected allocation failures must fall where a single thread's would. */
	if (td->prewalk || lim->threads < 2 || n < 2 || td->ctx->obs || lim->fail_alloc_after)
		return;
	struct td_prewalk *p = calloc(1, sizeof(*p));
	if (!p)
		return; /* walked on this thread instead */
	p->jobs = calloc(n, sizeof(*p->jobs));
	unsigned want = lim->threads - 1 < n - 1 ? lim->threads - 1 : (unsigned)(n - 1);
	p->threads = calloc(want, sizeof(*p->threads));
	if (!p->jobs || !p->threads || pthread_mutex_init(&p->mu, NULL) != 0) {
		free(p->jobs);
		free(p->threads);
		free(p);
		return;
	}
	if (pthread_cond_init(&p->cv, NULL) != 0) {
		pthread_mutex_destroy(&p->mu);
		free(p->jobs);
		free(p->threads);
		free(p);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		struct job *j = &p->jobs[i];
		j->r = ranges[i];
		snprintf(j->buffer, sizeof(j->buffer), "%s", ranges[i].buffer);
		j->r.buffer = j->buffer;
	}
	p->n = n;
	p->snapshot = *td;
	p->limits = *lim;
	p->limits.policy = NULL;
	p->limits.max_findings = UINT32_MAX;
	p->main = td->ctx;
	td->prewalk = p;
	for (unsigned i = 0; i < want; i++) {
		if (pthread_create(&p->threads[p->nthreads], NULL, worker, p) != 0)
			break; /* fewer workers: the check's own thread takes the rest */
		p->nthreads++;
	}
}

static bool same_range(const struct td_walk_range *a, const struct td_walk_range *b)
{
	return a->data.base == b->data.base && a->data.len == b->data.len && a->data.origin == b->data.origin &&
	       a->data.big_endian == b->data.big_endian && a->cpu == b->cpu && a->item_offset == b->item_offset &&
	       a->item_length == b->item_length && a->unobserved == b->unobserved && strcmp(a->buffer, b->buffer) == 0;
}

/* Everything the walk did to its private context, done again to the real one. */
static void replay(struct tfk_ctx *ctx, const struct job *j)
{
	const struct tfk_fault *first = tfk_fault_get(0);
	for (size_t i = 0; i < j->rep.count; i++) {
		const struct tfk_finding *s = &j->rep.findings[i];
		struct tfk_finding *f = tfk_emit(ctx, (enum tfk_fault_code)(s->fault - first), s->offset, s->length);
		if (!f)
			continue;
		enum tfk_severity sev = f->severity;
		*f = *s;
		f->severity = sev;
	}
	for (size_t code = 0; code < TFK_FAULT_COUNT; code++)
		if (j->counted[code])
			tfk_count_only_n(ctx, (enum tfk_fault_code)code, j->counted[code]);
	struct tfk_stats *st = &ctx->report->stats;
	st->pages += j->rep.stats.pages;
	st->events += j->rep.stats.events;
	st->events_lost += j->rep.stats.events_lost;
	st->cpus += j->rep.stats.cpus;
	if (j->rep.incomplete)
		ctx->report->incomplete = true;
	if (j->rep.internal_error)
		ctx->report->internal_error = true;
}

bool td_prewalk_take(struct td_check *td, const struct td_walk_range *r)
{
	struct td_prewalk *p = td->prewalk;
	if (!p)
		return false;
	struct job *j = NULL;
	for (size_t k = 0; k < p->n && !j; k++) {
		struct job *c = &p->jobs[(p->last_taken + k) % p->n];
		if (same_range(&c->r, r))
			j = c;
	}
	pthread_mutex_lock(&p->mu);
	if (!j || j->state == JOB_TAKEN) {
		pthread_mutex_unlock(&p->mu);
		return false;
	}
	while (j->state != JOB_DONE) {
		struct job *o = j->state == JOB_PENDING ? j : next_pending(p);
		if (o)
			run_locked(p, o); /* this CPU, or while a worker finishes it, the next one */
		else
			pthread_cond_wait(&p->cv, &p->mu);
	}
	j->state = JOB_TAKEN;
	pthread_mutex_unlock(&p->mu);
	p->last_taken = (size_t)(j - p->jobs);
	replay(td->ctx, j);
	tfk_report_free(&j->rep);
	return true;
}

void td_prewalk_finish(struct td_check *td)
{
	struct td_prewalk *p = td->prewalk;
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	for (size_t i = 0; i < p->n; i++)
		if (p->jobs[i].state == JOB_PENDING)
			p->jobs[i].state = JOB_TAKEN; /* never asked for: not walked */
	pthread_mutex_unlock(&p->mu);
	for (unsigned i = 0; i < p->nthreads; i++)
		pthread_join(p->threads[i], NULL);
	for (size_t i = 0; i < p->n; i++)
		tfk_report_free(&p->jobs[i].rep);
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p->jobs);
	free(p->threads);
	free(p);
	td->prewalk = NULL;
}
