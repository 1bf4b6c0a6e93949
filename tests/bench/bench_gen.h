/* SPDX-License-Identifier: MIT */
/* Benchmark traces made with the fixture writer, and the decode-only baseline for v7 zstd. */
#ifndef BENCH_GEN_H
#define BENCH_GEN_H

#include <stdint.h>

#include "tdw.h"

enum bench_kind { BENCH_V6, BENCH_V7_NONE, BENCH_V7_ZSTD, BENCH_KINDS };

const char *bench_kind_name(enum bench_kind k);

/*
 * Write a trace of about mib MiB (ring pages; 4 CPUs, 4 KiB pages, a realistic event mix)
 * to path, unless a file made by the same request is already there. For v7 zstd the offsets
 * of each CPU's chunk list go to path + ".chunks". Returns 0 on success.
 */
int bench_make(enum bench_kind kind, uint64_t mib, const char *path);

/* The trace.dat version and codec of a kind, set in a writer's spec. */
void bench_spec_kind(struct tdw_spec *s, enum bench_kind kind);

/*
 * The files the timing reads beside a trace it made: the CPU table's offset (v6: for the copy
 * with the table zeroed), each CPU's chunk list (v7 zstd: for decoding alone), and the stamp
 * saying it was made whole. Returns 0 on success.
 */
int bench_write_sides(enum bench_kind kind, const char *path, const struct tdw_layout *L, uint32_t ncpus);

/* A copy of a v6 trace made by bench_make with its CPU table zeroed (repair scans the pages). */
int bench_make_damaged(const char *path, const char *damaged);

/*
 * Decode every chunk listed in path + ".chunks" with libzstd into one scratch buffer, as a
 * reader that did nothing else would. Returns 0 and the seconds taken, -1 if there is no list.
 */
int bench_zstd_decode_only(const char *path, double *seconds, uint64_t *decoded_bytes);

#endif
