/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_run.h"

double bench_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int bench_run(char *const argv[], const char *out_path, struct bench_result *r)
{
	double t0 = bench_now();
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		int out = open(out_path ? out_path : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int null = open("/dev/null", O_WRONLY);
		if (out < 0 || null < 0 || dup2(out, 1) < 0 || dup2(null, 2) < 0)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	int st;
	struct rusage ru;
	if (wait4(pid, &st, 0, &ru) < 0)
		return -1;
	r->wall = bench_now() - t0;
	r->max_rss_kib = ru.ru_maxrss;
	r->cpu = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
	r->status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

int bench_best_of(int n, char *const argv[], const char *out_path, struct bench_result *r)
{
	struct bench_result one;
	r->wall = 1e30;
	r->max_rss_kib = 0;
	r->status = 0;
	for (int i = 0; i < n; i++) {
		if (bench_run(argv, out_path, &one) != 0)
			return -1;
		if (one.wall < r->wall)
			r->wall = one.wall;
		if (i == 0 || one.cpu < r->cpu)
			r->cpu = one.cpu;
		if (one.max_rss_kib > r->max_rss_kib)
			r->max_rss_kib = one.max_rss_kib;
		if (one.status)
			r->status = one.status;
	}
	return 0;
}
