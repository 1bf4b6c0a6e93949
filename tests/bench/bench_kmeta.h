/* SPDX-License-Identifier: MIT */
/*
 * A kernel's tracing metadata as trace-cmd records it: header_page, header_event, every event
 * format (ftrace's apart), kallsyms and printk formats. Read from the running machine's tracefs
 * or from a stored copy (a zstd file of "name\0text\0" entries), and stored the same way.
 */
#ifndef BENCH_KMETA_H
#define BENCH_KMETA_H

#include <stddef.h>

struct kmeta_format {
	char *system; /* "ftrace" for ftrace's own formats */
	char *text;
};

struct kmeta {
	char *header_page, *header_event;
	struct kmeta_format *formats; /* sorted by system, then as listed */
	size_t nformats, cap;
	char *kallsyms, *printk, *uname; /* printk and uname may be "" */
	char origin[512];                /* where it was read from, for the benchmark's output */
};

/*
 * The running machine's: tracefs at /sys/kernel/tracing (or under debugfs), /proc/kallsyms,
 * uname. Every kallsyms_every-th symbol line is kept (1: all). Returns 0, or -1 when tracefs
 * or its formats cannot be read.
 */
int kmeta_from_tracefs(struct kmeta *m, unsigned kallsyms_every);

/* A stored copy written by kmeta_store. Returns 0, or -1 if it cannot be read whole. */
int kmeta_load(struct kmeta *m, const char *path);

/* Write m as a stored copy (zstd, level 19). Returns 0 on success. */
int kmeta_store(const struct kmeta *m, const char *path);

/* Add a format (copies made); returns 0 on success. */
int kmeta_add_format(struct kmeta *m, const char *system, const char *text);

void kmeta_free(struct kmeta *m);

/* A whole file, NUL-terminated, and its length (tracefs files report no size). NULL on error. */
char *kmeta_read_file(const char *path, size_t *len);

#endif
