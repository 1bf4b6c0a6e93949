/* SPDX-License-Identifier: MIT */
/* Benchmark traces made with the fixture writer, and the decode-only baseline for v7 zstd. */
#ifndef BENCH_GEN_H
#define BENCH_GEN_H

#include <stdint.h>

enum bench_kind { BENCH_V6, BENCH_V7_NONE, BENCH_V7_ZSTD, BENCH_KINDS };

const char *bench_kind_name(enum bench_kind k);

/*
 * Write a trace of about mib MiB (ring pages; 4 CPUs, 4 KiB pages, a realistic event mix)
 * to path, unless a file made by the same request is already there. For v7 zstd the offsets
 * of each CPU's chunk list go to path + ".chunks". Returns 0 on success.
 */
int bench_make(enum bench_kind kind, uint64_t mib, const char *path);

/* A copy of a v6 trace made by bench_make with its CPU table zeroed (repair scans the pages). */
int bench_make_damaged(const char *path, const char *damaged);

/*
 * Decode every chunk listed in path + ".chunks" with libzstd into one scratch buffer, as a
 * reader that did nothing else would. Returns 0 and the seconds taken, -1 if there is no list.
 */
int bench_zstd_decode_only(const char *path, double *seconds, uint64_t *decoded_bytes);

#endif
