/* SPDX-License-Identifier: MIT */
/*
 * The CPUs of one buffer walked ahead on worker threads (limits.threads > 1).
 *
 * Each CPU's pages are independent of every other CPU's, so their walks can run at once. A
 * worker walks against a private context that keeps everything; when the check reaches that
 * CPU in its own order it replays the walk's findings, counts and statistics through the real
 * context, where the policy and the findings cap apply as they would have. The report is the
 * same, finding for finding, as one thread's: threads change the time a check takes, nothing
 * else. An observer (repair's model, progress) is told what a walk saw when it is replayed, in
 * file order, from a log the walk kept; logs are bounded (OBSERVED_LOG_BUDGET), and ranges
 * beyond the budget are walked in turn. Only the ranges the buffer's own entry loop will ask
 * for are taken, so no page is walked twice.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "codec/codec.h"
#include "test_hooks.h"
#include "tracedat.h"
#include "../../workers.h"

/* Bytes of observer logs the walks of one buffer may keep at once (a page costs one entry). */
#define OBSERVED_LOG_BUDGET (64u << 20)

enum job_state { JOB_PENDING, JOB_RUNNING, JOB_DONE, JOB_TAKEN };

/* One observer call a walk made, to be made again to the real observer at replay. */
struct seen {
	enum { SEEN_CPU, SEEN_PAGE, SEEN_ITEM } kind;
	uint32_t cpu;
	const uint8_t *page;      /* in the file mapping: still there at replay; else `copy` */
	uint8_t *copy;            /* a page not in the file (the end of the file cut it): its bytes */
	struct tfk_page_info info;
	struct tfk_item *item;
};

struct seen_log {
	struct seen *v;
	size_t n, cap;
	const uint8_t *file;      /* the input: pages read into a buffer are replayed from here */
	uint64_t file_len;
	uint32_t page_size;
	bool lost;                /* out of memory: replay reports an internal error */
	struct tfk_ctx *ctx;      /* the walk's own context, while it runs: the log's memory comes from it */
};

struct job {
	struct td_walk_range r;
	char buffer[TD_LABEL_MAX];    /* r.buffer points here */
	enum job_state state;
	struct tfk_report rep;        /* what the walk found, unfiltered */
	uint64_t counted[TFK_FAULT_COUNT]; /* faults it only counted, by code */
	struct seen_log log;          /* what the walk told its observer */
};

struct td_prewalk {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct job *jobs;
	size_t n, next;               /* next: no pending job before it */
	size_t last_taken;
	struct tfk_workers workers;
	struct td_check snapshot;     /* td as the walks see it; each job gets its own context */
	struct td_file snapshot_dat;  /* and trace.dat's part of it (snapshot.dat points here) */
	struct tfk_limits limits;     /* everything kept: filtering happens at replay */
	const struct tfk_ctx *main;
};

static struct seen *log_next(struct seen_log *l)
{
	if (l->lost)
		return NULL;
	if (l->n == l->cap) {
		void *v = l->v;
		if (!tfk_grow(l->ctx, &v, &l->cap, l->n + 1, sizeof(*l->v))) {
			l->lost = true;
			return NULL;
		}
		l->v = v;
	}
	struct seen *e = &l->v[l->n++];
	memset(e, 0, sizeof(*e));
	return e;
}

static void seen_cpu(void *user, uint32_t cpu)
{
	struct seen *e = log_next(user);
	if (e) {
		e->kind = SEEN_CPU;
		e->cpu = cpu;
	}
}

static void seen_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	struct seen *e = log_next(user);
	if (e) {
		struct seen_log *l = user;
		bool in_file = info->file_offset != TFK_PAGE_DECODED && info->file_offset <= l->file_len &&
			       l->file_len - info->file_offset >= l->page_size;
		e->kind = SEEN_PAGE;
		e->page = in_file ? l->file + info->file_offset : page;
		e->info = *info;
		if (!in_file) {
			/* the walk's own copy of a cut page is gone by the replay: keep the bytes */
			e->copy = tfk_calloc(l->ctx, 1, l->page_size);
			if (!e->copy) {
				l->lost = true;
				return;
			}
			memcpy(e->copy, page, l->page_size);
			e->page = e->copy;
		}
	}
}

static void seen_item(void *user, const struct tfk_item *item)
{
	struct seen_log *l = user;
	struct seen *e = log_next(l);
	if (!e)
		return;
	e->kind = SEEN_ITEM;
	e->item = tfk_calloc(l->ctx, 1, sizeof(*e->item));
	if (e->item)
		*e->item = *item;
	else
		l->lost = true;
}

static void log_free(struct seen_log *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].item);
		free(l->v[i].copy);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static void run_job(struct td_prewalk *p, struct job *j)
{
	struct tfk_ctx ctx;
	struct tfk_observer recorder = { .user = &j->log, .cpu = seen_cpu, .page = seen_page, .item = seen_item };
	tfk_ctx_init(&ctx, &p->limits, &j->rep);
	if (p->main->obs)
		ctx.obs = &recorder;
	j->log.file = p->snapshot.file.base;
	j->log.file_len = p->snapshot.file.len;
	j->log.page_size = p->snapshot.geo.page_size;
	j->log.ctx = &ctx;
	ctx.map = p->main->map;
	ctx.map_size = p->main->map_size;
	ctx.sys_page = p->main->sys_page;
	ctx.fd = p->main->fd;
	ctx.sources = p->main->sources;
	ctx.nsources = p->main->nsources;
	ctx.counted = j->counted;
	struct td_check td = p->snapshot;
	td.ctx = &ctx;
	struct td_file dat = p->snapshot_dat;
	dat.prewalk = NULL;
	td.dat = &dat;
	td.chunk_buf = NULL; /* a compressed CPU is decoded with this walk's own buffer and decoder */
	td.chunk_cap = 0;
	td.decode_state = NULL;
	td_walk_range_here(&td, &j->r);
	free(td.chunk_buf);
	tfk_decode_state_free(td.decode_state);
	j->log.ctx = NULL;
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
	if (td->dat->prewalk || lim->threads < 2 || n < 2 || TFK_HOOK(lim, fail_alloc_after))
		return;
	struct td_prewalk *p = tfk_calloc_optional(td->ctx, 1, sizeof(*p));
	if (!p)
		return; /* walked on this thread instead */
	p->jobs = tfk_calloc_optional(td->ctx, n, sizeof(*p->jobs));
	unsigned want = lim->threads - 1 < n - 1 ? lim->threads - 1 : (unsigned)(n - 1);
	bool mu = p->jobs && pthread_mutex_init(&p->mu, NULL) == 0;
	if (!mu || pthread_cond_init(&p->cv, NULL) != 0) {
		if (mu)
			pthread_mutex_destroy(&p->mu);
		free(p->jobs);
		free(p);
		return;
	}
	/* With an observer, each page walked ahead costs a log entry until its replay. */
	uint64_t budget = OBSERVED_LOG_BUDGET / sizeof(struct seen), ps = td->geo.page_size ? td->geo.page_size : 1;
	size_t k = 0;
	for (size_t i = 0; i < n; i++) {
		uint64_t pages = ranges[i].data.len / ps + 2;
		/* Decoded pages are not in the file: their log entries would hold copies of them all. */
		if (td->ctx->obs && ranges[i].chunks)
			continue;
		if (td->ctx->obs && !ranges[i].unobserved) {
			if (pages > budget)
				continue; /* walked in turn, on the check's own thread */
			budget -= pages;
		}
		struct job *j = &p->jobs[k++];
		j->r = ranges[i];
		snprintf(j->buffer, sizeof(j->buffer), "%s", ranges[i].buffer);
		j->r.buffer = j->buffer;
	}
	p->n = k;
	p->snapshot = *td;
	p->snapshot_dat = *td->dat;
	p->snapshot.dat = &p->snapshot_dat;
	p->limits = *lim;
	p->limits.policy = NULL;
	p->limits.max_findings = UINT32_MAX;
	p->main = td->ctx;
	td->dat->prewalk = p;
	tfk_workers_start(&p->workers, td->ctx, want, worker, p, 0); /* fewer: the check's own thread takes the rest */
}

static bool same_range(const struct td_walk_range *a, const struct td_walk_range *b)
{
	return a->data.base == b->data.base && a->data.len == b->data.len && a->data.origin == b->data.origin &&
	       a->data.big_endian == b->data.big_endian && a->cpu == b->cpu && a->item_offset == b->item_offset &&
	       a->item_length == b->item_length && a->unobserved == b->unobserved && a->cut.len == b->cut.len &&
	       a->chunks == b->chunks && a->entry_at == b->entry_at && a->declared == b->declared &&
	       strcmp(a->buffer, b->buffer) == 0;
}

/* Everything the walk did to its private context, done again to the real one. */
static void replay(struct tfk_ctx *ctx, const struct job *j, uint32_t page_size)
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
	/* An observer may read the pages again: hand them back behind it, as the walk did. */
	const struct tfk_observer *obs = ctx->obs;
	struct td_behind behind = { NULL, 0 };
	for (size_t i = 0; obs && i < j->log.n; i++) {
		const struct seen *e = &j->log.v[i];
		if (e->kind == SEEN_CPU && obs->cpu) {
			obs->cpu(obs->user, e->cpu);
		} else if (e->kind == SEEN_PAGE && obs->page) {
			obs->page(obs->user, e->page, &e->info);
			td_behind(ctx, &behind, e->page, page_size);
		} else if (e->kind == SEEN_ITEM && e->item && obs->item) {
			obs->item(obs->user, e->item);
		}
	}
	td_behind(ctx, &behind, NULL, 0);
	if (j->log.lost) {
		ctx->report->incomplete = true;
		ctx->report->internal_error = true;
	}
	struct tfk_stats *st = &ctx->report->stats;
	st->pages += j->rep.stats.pages;
	st->events += j->rep.stats.events;
	st->events_lost += j->rep.stats.events_lost;
	st->events_no_format += j->rep.stats.events_no_format;
	st->cpus += j->rep.stats.cpus;
	if (j->rep.incomplete)
		ctx->report->incomplete = true;
	if (j->rep.internal_error)
		ctx->report->internal_error = true;
}

bool td_prewalk_take(struct td_check *td, const struct td_walk_range *r)
{
	struct td_prewalk *p = td->dat->prewalk;
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
	uint64_t *taken = TFK_HOOK(td->ctx->limits, taken_ahead);
	if (taken)
		(*taken)++;
	replay(td->ctx, j, p->snapshot.geo.page_size);
	tfk_report_free(&j->rep);
	log_free(&j->log);
	return true;
}

void td_prewalk_finish(struct td_check *td)
{
	struct td_prewalk *p = td->dat->prewalk;
	if (!p)
		return;
	pthread_mutex_lock(&p->mu);
	for (size_t i = 0; i < p->n; i++)
		if (p->jobs[i].state == JOB_PENDING)
			p->jobs[i].state = JOB_TAKEN; /* never asked for: not walked */
	pthread_mutex_unlock(&p->mu);
	tfk_workers_join(&p->workers);
	for (size_t i = 0; i < p->n; i++) {
		tfk_report_free(&p->jobs[i].rep);
		log_free(&p->jobs[i].log);
	}
	pthread_cond_destroy(&p->cv);
	pthread_mutex_destroy(&p->mu);
	free(p->jobs);
	free(p);
	td->dat->prewalk = NULL;
}

void td_walk_range(struct td_check *td, const struct td_walk_range *r)
{
	if (!td_prewalk_take(td, r))
		td_walk_range_here(td, r);
}
