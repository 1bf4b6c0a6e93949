/* SPDX-License-Identifier: MIT */
/* Running a command for the benchmark: wall time and peak RSS of the process tree. */
#ifndef BENCH_RUN_H
#define BENCH_RUN_H

#include <stdint.h>

struct bench_result {
	double wall;       /* seconds */
	long max_rss_kib;  /* peak resident set of the command (and its waited-for children) */
	int status;        /* exit status, or 128 + signal */
	double cpu;        /* user + system seconds of the command and its waited-for children: on a
	                      shared machine the figure the others' load changes least */
};

/* Run argv with stdout to out_path (NULL: /dev/null) and stderr to /dev/null. */
int bench_run(char *const argv[], const char *out_path, struct bench_result *r);

/* The best (lowest wall) of n runs; peak RSS is the highest seen. */
int bench_best_of(int n, char *const argv[], const char *out_path, struct bench_result *r);

double bench_now(void);

#endif
