/* SPDX-License-Identifier: MIT */
/*
 * tracefsck check -j N: workers take the next file, check it and mark it ready; the calling
 * thread hands out reports strictly in file order, so output is per file and in order
 * whatever finishes first. The library keeps no global state, so checks run side by side.
 */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check_pool.h"

#define MAX_JOBS 64

/*
 * A check forks a child for libtraceevent once its own walks are done. With glibc's malloc a
 * fork beside busy threads is safe; the allocator of clang 14's AddressSanitizer is not: a
 * child forked while another thread holds its lock hangs at its first malloc (seen as a
 * "hang" of the first format under -j). Sanitized builds therefore check one file at a time:
 * the same output, as -j promises, with no thread allocating while one forks.
 */
#if defined(__SANITIZE_ADDRESS__)
#define FORK_UNSAFE_ALLOCATOR 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FORK_UNSAFE_ALLOCATOR 1
#endif
#endif

struct pool {
	struct tfk_unit *units;
	int n, next;
	const struct tfk_limits *limits;
	struct tfk_report *reports;
	bool *ready;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

void check_pool_one(const char *file, const struct tfk_limits *limits, const struct tfk_observer *observer,
		    struct tfk_report *r)
{
	if (strcmp(file, "-") == 0)
		tfk_check_fd(STDIN_FILENO, limits, observer, r);
	else
		tfk_check_file_observed(file, limits, observer, r);
}

static void *worker(void *arg)
{
	struct pool *p = arg;
	for (;;) {
		pthread_mutex_lock(&p->mu);
		int i = p->next < p->n ? p->next++ : -1;
		pthread_mutex_unlock(&p->mu);
		if (i < 0)
			return NULL;
		tfk_check_unit(&p->units[i], p->limits, NULL, &p->reports[i]);
		pthread_mutex_lock(&p->mu);
		p->ready[i] = true;
		pthread_cond_broadcast(&p->cv);
		pthread_mutex_unlock(&p->mu);
	}
}

static void run_here(struct tfk_unit *units, int from, int n, const struct tfk_limits *limits,
		     const struct tfk_observer *observer, check_pool_done done, void *user)
{
	for (int i = from; i < n; i++) {
		struct tfk_report r;
		tfk_check_unit(&units[i], limits, observer, &r);
		done(user, i, &r);
	}
}

int check_pool_run(struct tfk_unit *units, int n, int jobs, const struct tfk_limits *limits,
		   const struct tfk_observer *observer, check_pool_done done, void *user)
{
	if (jobs > n)
		jobs = n;
	if (jobs > MAX_JOBS)
		jobs = MAX_JOBS;
#ifdef FORK_UNSAFE_ALLOCATOR
	jobs = 1;
#endif
	if (jobs <= 1) {
		run_here(units, 0, n, limits, observer, done, user);
		return 0;
	}
	struct pool p = { .units = units, .n = n, .limits = limits };
	p.reports = calloc((size_t)n, sizeof(*p.reports));
	p.ready = calloc((size_t)n, sizeof(*p.ready));
	pthread_t tid[MAX_JOBS];
	int started = 0;
	if (p.reports && p.ready && pthread_mutex_init(&p.mu, NULL) == 0) {
		if (pthread_cond_init(&p.cv, NULL) == 0) {
			while (started < jobs && pthread_create(&tid[started], NULL, worker, &p) == 0)
				started++;
			if (started == 0)
				pthread_cond_destroy(&p.cv);
		}
		if (started == 0)
			pthread_mutex_destroy(&p.mu);
	}
	if (started == 0) {
		free(p.reports);
		free(p.ready);
		run_here(units, 0, n, limits, NULL, done, user);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		pthread_mutex_lock(&p.mu);
		while (!p.ready[i])
			pthread_cond_wait(&p.cv, &p.mu);
		pthread_mutex_unlock(&p.mu);
		done(user, i, &p.reports[i]);
	}
	for (int t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	pthread_cond_destroy(&p.cv);
	pthread_mutex_destroy(&p.mu);
	free(p.reports);
	free(p.ready);
	return 0;
}
