/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "bench_gen.h"
#include "bench_run.h"
#include "tdw.h"

#define BENCH_CPUS 4
#define BENCH_PAGE 4096

const char *bench_kind_name(enum bench_kind k)
{
	static const char *const names[BENCH_KINDS] = { "v6", "v7-none", "v7-zstd" };
	return k < BENCH_KINDS ? names[k] : "?";
}

static int write_chunks(const char *path, const struct tdw_layout *L, uint32_t ncpus)
{
	char side[4096];
	snprintf(side, sizeof(side), "%s.chunks", path);
	FILE *f = fopen(side, "w");
	if (!f)
		return -1;
	for (uint32_t c = 0; c < ncpus; c++)
		fprintf(f, "%llu\n", (unsigned long long)L->cpu_chunk[c]);
	return fclose(f);
}

static int write_table_offset(const char *path, const struct tdw_layout *L, uint32_t ncpus)
{
	char side[4096];
	snprintf(side, sizeof(side), "%s.table", path);
	FILE *f = fopen(side, "w");
	if (!f)
		return -1;
	fprintf(f, "%llu %u\n", (unsigned long long)L->table, ncpus);
	return fclose(f);
}

int bench_make_damaged(const char *path, const char *damaged)
{
	char side[4096], cmd[8400];
	snprintf(side, sizeof(side), "%s.table", path);
	FILE *f = fopen(side, "r");
	unsigned long long table;
	int cpus;
	if (!f)
		return -1;
	int got = fscanf(f, "%llu %d", &table, &cpus);
	fclose(f);
	if (got != 2)
		return -1;
	snprintf(cmd, sizeof(cmd), "cp '%s' '%s'", path, damaged);
	if (system(cmd) != 0)
		return -1;
	/* Zero the flyrecord CPU table: repair must find every CPU's pages by scanning. */
	FILE *d = fopen(damaged, "r+b");
	if (!d)
		return -1;
	static const uint8_t zeros[16 * 64];
	int rc = fseek(d, (long)table, SEEK_SET) == 0 && fwrite(zeros, 16, (size_t)cpus, d) == (size_t)cpus ? 0 : -1;
	return fclose(d) == 0 ? rc : -1;
}

int bench_make(enum bench_kind kind, uint64_t mib, const char *path)
{
	char stamp[4096];
	snprintf(stamp, sizeof(stamp), "%s.made", path);
	struct stat st;
	if (stat(path, &st) == 0 && stat(stamp, &st) == 0)
		return 0; /* made by an earlier run with the same name, which encodes the request */

	struct tdw_spec s = tdw_default_spec();
	s.ncpus = BENCH_CPUS;
	s.page_size = BENCH_PAGE;
	s.pages_per_cpu = (uint32_t)(mib * 1024 * 1024 / BENCH_PAGE / BENCH_CPUS);
	s.events_per_page = 4096; /* as many as fit: kernel pages are full */
	s.mix_seed = 0x5eed;
	s.kallsyms_len = 2u << 20; /* real kallsyms texts run to megabytes */
	bench_spec_kind(&s, kind);
	struct tdw_buf b = { 0 };
	struct tdw_layout L;
	fprintf(stderr, "making %s (%s, %llu MiB of pages)...\n", path, bench_kind_name(kind), (unsigned long long)mib);
	if (tdw_build(&s, &b, &L) != 0 || tdw_save(&b, path) != 0) {
		tdw_free(&b);
		return -1;
	}
	tdw_free(&b);
	return bench_write_sides(kind, path, &L, BENCH_CPUS);
}

int bench_write_sides(enum bench_kind kind, const char *path, const struct tdw_layout *L, uint32_t ncpus)
{
	if (kind == BENCH_V7_ZSTD && write_chunks(path, L, ncpus) != 0)
		return -1;
	if (kind == BENCH_V6 && write_table_offset(path, L, ncpus) != 0)
		return -1;
	char stamp[4096];
	snprintf(stamp, sizeof(stamp), "%s.made", path);
	FILE *f = fopen(stamp, "w");
	return f && fclose(f) == 0 ? 0 : -1;
}

void bench_spec_kind(struct tdw_spec *s, enum bench_kind kind)
{
	if (kind != BENCH_V6) {
		s->version = 7;
		s->codec = kind == BENCH_V7_ZSTD ? TDW_ZSTD : TDW_NONE;
		s->pages_per_chunk = 10; /* as trace-cmd writes */
	}
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

int bench_zstd_decode_only(const char *path, double *seconds, uint64_t *decoded_bytes)
{
	char side[4096];
	snprintf(side, sizeof(side), "%s.chunks", path);
	FILE *f = fopen(side, "r");
	if (!f)
		return -1;
	uint64_t at[TDW_MAX_CPUS];
	int n = 0;
	unsigned long long v;
	while (n < TDW_MAX_CPUS && fscanf(f, "%llu", &v) == 1)
		at[n++] = v;
	fclose(f);
	int fd = open(path, O_RDONLY);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	size_t size = (size_t)st.st_size;
	const uint8_t *map = mmap(NULL, size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return -1;
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	uint8_t *scratch = NULL;
	size_t cap = 0;
	int rc = 0;
	*decoded_bytes = 0;
	double t0 = bench_now();
	for (int c = 0; c < n && rc == 0; c++) {
		uint64_t pos = at[c];
		if (pos + 4 > size) {
			rc = -1;
			break;
		}
		uint32_t chunks = le32(map + pos);
		pos += 4;
		for (uint32_t k = 0; k < chunks; k++) {
			if (pos + 8 > size) {
				rc = -1;
				break;
			}
			uint32_t zs = le32(map + pos), us = le32(map + pos + 4);
			pos += 8;
			if (zs > size - pos) {
				rc = -1;
				break;
			}
			if (us > cap) {
				free(scratch);
				cap = us;
				scratch = malloc(cap);
				if (!scratch) {
					rc = -1;
					break;
				}
			}
			size_t got = ZSTD_decompressDCtx(dctx, scratch, us, map + pos, zs);
			if (ZSTD_isError(got)) {
				rc = -1;
				break;
			}
			*decoded_bytes += got;
			pos += zs;
		}
	}
	*seconds = bench_now() - t0;
	free(scratch);
	ZSTD_freeDCtx(dctx);
	munmap((void *)map, size);
	return rc;
}
