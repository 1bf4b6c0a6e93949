/* SPDX-License-Identifier: MIT */
/*
 * Inputs that are not plain trace files: a trace compressed whole (gzip, xz, zstd) is checked
 * as what it decompresses to, with the same findings at the same offsets; damaged compression,
 * pipes (whole, capped, silent) and devices each give their own finding.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <lzma.h>
#include <pthread.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <cmocka.h>

#include "codec/codec.h"
#include "load.h"
#include "raised.h"
#include "test_hooks.h"
#include "tracedat_helpers.h"
#include "under_valgrind.h"
#include "tracefsck/tracefsck.h"

static struct tfk_limits quick(void)
{
	struct tfk_limits l = tfk_limits_default();
	l.parser_timeout_ms = 0;
	return l;
}

/* The fixture compressed whole with packing p; *n receives its size. */
static uint8_t *pack(enum tfk_packing p, const uint8_t *in, size_t len, size_t *n)
{
	size_t cap = len + len / 2 + 4096;
	uint8_t *out = malloc(cap);
	assert_non_null(out);
	if (p == TFK_PACKING_ZSTD) {
		*n = ZSTD_compress(out, cap, in, len, 3);
		assert_false(ZSTD_isError(*n));
	} else if (p == TFK_PACKING_XZ) {
		*n = 0;
		assert_int_equal(lzma_easy_buffer_encode(6, LZMA_CHECK_CRC64, NULL, in, len, out, n, cap), LZMA_OK);
	} else {
		z_stream z;
		memset(&z, 0, sizeof(z));
		assert_int_equal(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
		z.next_in = (Bytef *)(uintptr_t)in;
		z.avail_in = (uInt)len;
		z.next_out = out;
		z.avail_out = (uInt)cap;
		assert_int_equal(deflate(&z, Z_FINISH), Z_STREAM_END);
		*n = z.total_out;
		deflateEnd(&z);
	}
	return out;
}

static void save(const char *path, const uint8_t *b, size_t n)
{
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(b, 1, n, f), n);
	fclose(f);
}

static void temp_path(char *path, size_t n, const char *name)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(path, n, "%s/tfk-load-%d-%s", tmp && *tmp ? tmp : "/tmp", (int)getpid(), name);
}

/* Two reports list the same findings (code, offset, length) in the same order. */
static void assert_same_findings(const struct tfk_report *a, const struct tfk_report *b, size_t skip_b)
{
	assert_int_equal(a->count + skip_b, b->count);
	for (size_t i = 0; i < a->count; i++) {
		assert_ptr_equal(a->findings[i].fault, b->findings[i + skip_b].fault);
		assert_int_equal(a->findings[i].offset, b->findings[i + skip_b].offset);
		assert_int_equal(a->findings[i].length, b->findings[i + skip_b].length);
	}
}

static const char *code(const struct tfk_finding *f)
{
	return f->fault->id;
}

static void test_compressed_traces_check_as_decompressed(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	/* damage one page's commit, so that there is a finding with an offset to compare */
	tdw_put64(&x->b, x->L.cpu_offset[1] + 8, 1u << 20, false);
	struct tfk_limits lim = quick();
	struct tfk_report plain;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &plain);
	assert_true(plain.by_severity[TFK_SEV_ERROR] > 0);
	const enum tfk_packing kinds[] = { TFK_PACKING_GZIP, TFK_PACKING_XZ, TFK_PACKING_ZSTD };
	for (size_t k = 0; k < 3; k++) {
		size_t n;
		uint8_t *z = pack(kinds[k], x->b.data, x->b.len, &n);
		char path[512];
		temp_path(path, sizeof(path), tfk_packing_name(kinds[k]));
		save(path, z, n);
		struct tfk_report r;
		tfk_check_file(path, &lim, &r);
		raised_note(&r);
		assert_string_equal(code(&r.findings[0]), "core.input.compressed");
		assert_non_null(strstr(r.findings[0].found, tfk_packing_name(kinds[k])));
		assert_same_findings(&plain, &r, 1);
		assert_int_equal(r.stats.events, plain.stats.events);
		assert_int_equal(r.stats.file_size, x->b.len);
		tfk_report_free(&r);

		/* cut in two: the damage is reported, and the trace checked as far as it came */
		save(path, z, n / 2);
		tfk_check_file(path, &lim, &r);
		raised_note(&r);
		assert_string_equal(code(&r.findings[0]), "core.input.compressed");
		assert_string_equal(code(&r.findings[1]), "core.input.compression-damaged");
		assert_true(r.stats.file_size < x->b.len);
		assert_true(r.by_severity[TFK_SEV_ERROR] >= 2); /* the compression, and the trace cut short */
		assert_int_not_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
		tfk_report_free(&r);

		/* decompressing past the cap: a limit, never more memory */
		struct tfk_limits small = lim;
		small.max_input_bytes = 4096;
		save(path, z, n);
		tfk_check_file(path, &small, &r);
		raised_note(&r);
		assert_int_equal(r.stats.file_size, 4096);
		bool limit = false;
		for (size_t i = 0; i < r.count; i++)
			limit |= strcmp(code(&r.findings[i]), "core.limit.reached") == 0 &&
				 strcmp(r.findings[i].path, "bytes of a decompressed input") == 0;
		assert_true(limit);
		tfk_report_free(&r);
		unlink(path);
		free(z);
	}
	tfk_report_free(&plain);
	fx_free(x);
}

struct feed {
	int fd;
	const uint8_t *b;
	size_t n;
};

static void *feeder(void *arg)
{
	struct feed *f = arg;
	for (size_t done = 0; done < f->n;) {
		ssize_t w = write(f->fd, f->b + done, f->n - done);
		if (w <= 0)
			break;
		done += (size_t)w;
	}
	close(f->fd);
	return NULL;
}

/* A trace through a pipe: the same report as from memory; with a cap, a limit. */
static void test_pipes(void **state)
{
	(void)state;
	struct fx *x = fx_default();
	struct tfk_limits lim = quick();
	struct tfk_report mem;
	tfk_check_buffer(x->b.data, x->b.len, &lim, &mem);
	for (int capped = 0; capped < 2; capped++) {
		struct tfk_limits l = lim;
		if (capped)
			l.max_input_bytes = 8192;
		int p[2];
		assert_int_equal(pipe(p), 0);
		struct feed f = { p[1], x->b.data, x->b.len };
		pthread_t t;
		assert_int_equal(pthread_create(&t, NULL, feeder, &f), 0);
		struct tfk_report r;
		tfk_check_fd(p[0], &l, NULL, &r);
		raised_note(&r);
		close(p[0]); /* the writer may still be blocked on a full pipe: this ends it */
		pthread_join(t, NULL);
		if (!capped) {
			assert_same_findings(&mem, &r, 0);
			assert_int_equal(r.stats.events, mem.stats.events);
		} else {
			assert_int_equal(r.stats.file_size, 8192);
			assert_true(r.incomplete);
		}
		tfk_report_free(&r);
	}
	tfk_report_free(&mem);
	fx_free(x);
}

/* A writer that holds the pipe open and says nothing: the idle timeout ends the wait. */
static void test_silent_pipe(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "\x17\x08\x44tracing", 10), 10);
	struct tfk_limits l = quick();
	l.input_idle_ms = 50;
	struct tfk_report r;
	tfk_check_fd(p[0], &l, NULL, &r);
	raised_note(&r);
	bool stalled = false;
	for (size_t i = 0; i < r.count; i++)
		if (strcmp(code(&r.findings[i]), "core.input.stream-stalled") == 0) {
			stalled = true;
			assert_int_equal(r.findings[i].offset, 10);
		}
	assert_true(stalled);
	assert_int_equal(r.stats.file_size, 10);
	assert_int_not_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	tfk_report_free(&r);
	close(p[0]);
	close(p[1]);
}

/* What another process does to the input once it is mapped: truncate it, or append to it. */
struct change {
	const char *path;
	off_t size;   /* truncated to this, or -1: four bytes appended */
};

static void change_input(void *arg)
{
	const struct change *c = arg;
	if (c->size >= 0) {
		assert_int_equal(truncate(c->path, c->size), 0);
	} else {
		FILE *f = fopen(c->path, "ab");
		assert_non_null(f);
		fputs("more", f);
		fclose(f);
	}
}

/*
 * An input shrunk under its mapping (a log rotated, truncate from elsewhere) never ends the run
 * with SIGBUS: the pages past the new end read as zeros, and core.input.changed says the check
 * read two versions, the verdict incomplete. One grown meanwhile says so too. Compressed whole,
 * the compressed bytes shrunk while they are decompressed, likewise.
 */
static void test_input_changed_under_check(void **state)
{
	(void)state;
	/*
	 * Under Valgrind the guard never sees the read past a shrunk file's end as its own: Valgrind
	 * reports an invalid read of address 0 and the run ends. The property is proven by the
	 * native and ASan runs of this test, not under Valgrind's signal emulation.
	 */
	if (RUNNING_ON_VALGRIND) {
		skip();
		return;
	}
	struct fx *x = fx_default();
	char path[512];
	temp_path(path, sizeof(path), "changing.dat");
	const off_t sizes[] = { 4096, (off_t)x->L.cpu_offset[1] + 100, -1 };
	for (size_t k = 0; k < 3; k++) {
		save(path, x->b.data, x->b.len);
		struct change c = { path, sizes[k] };
		struct tfk_test_hooks hooks = { .loaded = change_input, .loaded_arg = &c };
		struct tfk_limits lim = quick();
		lim.test_hooks = &hooks;
		struct tfk_report r;
		tfk_check_file(path, &lim, &r);
		raised_note(&r);
		const struct tfk_finding *f = NULL;
		for (size_t i = 0; i < r.count; i++)
			if (strcmp(code(&r.findings[i]), "core.input.changed") == 0)
				f = &r.findings[i];
		assert_non_null(f);
		if (sizes[k] >= 0)
			assert_non_null(strstr(f->found, "read as zeros"));
		assert_true(r.incomplete);
		assert_int_not_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
		tfk_report_free(&r);
	}
	/* unchanged: no such finding */
	save(path, x->b.data, x->b.len);
	struct tfk_limits lim = quick();
	struct tfk_report r;
	tfk_check_file(path, &lim, &r);
	for (size_t i = 0; i < r.count; i++)
		assert_string_not_equal(code(&r.findings[i]), "core.input.changed");
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	tfk_report_free(&r);
	/* zstd: the compressed input cut to a tenth while it is read */
	size_t n;
	uint8_t *z = pack(TFK_PACKING_ZSTD, x->b.data, x->b.len, &n);
	save(path, z, n);
	struct change c = { path, (off_t)(n / 10) };
	struct tfk_test_hooks hooks = { .loaded = change_input, .loaded_arg = &c };
	lim.test_hooks = &hooks;
	tfk_check_file(path, &lim, &r);
	raised_note(&r);
	bool changed = false;
	for (size_t i = 0; i < r.count; i++)
		changed |= strcmp(code(&r.findings[i]), "core.input.changed") == 0;
	assert_true(changed);
	tfk_report_free(&r);
	free(z);
	unlink(path);
	fx_free(x);
}

static void test_devices_are_not_read(void **state)
{
	(void)state;
	struct tfk_limits l = quick();
	struct tfk_report r;
	tfk_check_file("/dev/zero", &l, &r);
	raised_note(&r);
	assert_int_equal(r.count, 1);
	assert_string_equal(code(&r.findings[0]), "core.input.not-a-file");
	assert_string_equal(r.findings[0].found, "a character device");
	assert_true(r.not_checked);
	tfk_report_free(&r);
}

/* The finding of code with that path, or NULL. */
static const struct tfk_finding *find_finding(const struct tfk_report *r, const char *id, const char *path)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(code(&r->findings[i]), id) == 0 && strcmp(r->findings[i].path, path) == 0)
			return &r->findings[i];
	return NULL;
}

/* The budget sets the caps: half of it for the input's copy, a 32nd for a decoded block. */
static void test_budget_sets_caps(void **state)
{
	(void)state;
	struct tfk_limits l = tfk_limits_default();
	assert_int_equal(l.max_memory, 1ull << 30);
	assert_int_equal(l.max_input_bytes, 512ull << 20);
	assert_int_equal(l.max_decoded, 32ull << 20);
	tfk_limits_set_memory(&l, 64ull << 20);
	assert_int_equal(l.max_input_bytes, 32ull << 20);
	assert_int_equal(l.max_decoded, 2ull << 20);
	tfk_limits_set_memory(&l, 64ull << 30); /* raised again: the caps follow, a block stays at 256 MiB */
	assert_int_equal(l.max_input_bytes, 32ull << 30);
	assert_int_equal(l.max_decoded, 256ull << 20);
	tfk_limits_set_memory(&l, 1000);
	assert_int_equal(l.max_memory, 1ull << 20);
}

/* A zstd stream of zeros, n bytes decompressed, as a file; window_log 0: zstd's own choice. */
static void zero_bomb(const char *path, size_t n, int window_log)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	assert_non_null(c);
	ZSTD_CCtx_setParameter(c, ZSTD_c_compressionLevel, 1);
	if (window_log)
		ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, window_log);
	static uint8_t zeros[1 << 16];
	size_t cap = ZSTD_CStreamOutSize();
	uint8_t *out = malloc(cap);
	assert_non_null(out);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	for (size_t done = 0; done < n;) {
		size_t k = n - done < sizeof(zeros) ? n - done : sizeof(zeros);
		done += k;
		ZSTD_inBuffer in = { zeros, k, 0 };
		ZSTD_EndDirective end = done == n ? ZSTD_e_end : ZSTD_e_continue;
		size_t left;
		do {
			ZSTD_outBuffer o = { out, cap, 0 };
			left = ZSTD_compressStream2(c, &o, &in, end);
			assert_false(ZSTD_isError(left));
			assert_int_equal(fwrite(out, 1, o.pos, f), o.pos);
		} while (end == ZSTD_e_end ? left != 0 : in.pos < in.size);
	}
	fclose(f);
	free(out);
	ZSTD_freeCCtx(c);
}

/* 8 MiB of zeros under a 1 MiB budget: half a MiB decompressed, then a limit, never the rest. */
static void test_bomb_stops_at_budget(void **state)
{
	(void)state;
	char path[512];
	temp_path(path, sizeof(path), "bomb.zst");
	zero_bomb(path, 8u << 20, 17);
	struct tfk_limits l = quick();
	tfk_limits_set_memory(&l, 1u << 20);
	struct tfk_report r;
	tfk_check_file(path, &l, &r);
	raised_note(&r);
	assert_int_equal(r.stats.file_size, 512u << 10);
	const struct tfk_finding *f = find_finding(&r, "core.limit.reached", "bytes of a decompressed input");
	assert_non_null(f);
	assert_int_equal(f->offset, 512u << 10);
	assert_non_null(strstr(f->expected, "half the memory budget of 1048576"));
	assert_true(r.incomplete);
	tfk_report_free(&r);

	/* a window (16 MiB) over the decoder's quarter of the budget: a limit, not damage */
	zero_bomb(path, 20u << 20, 24);
	tfk_check_file(path, &l, &r);
	raised_note(&r);
	f = find_finding(&r, "core.limit.reached", "bytes of the zstd window");
	assert_non_null(f);
	assert_non_null(strstr(f->expected, "at most 262144 (a quarter of the memory budget"));
	assert_null(find_finding(&r, "core.input.compression-damaged", "zstd data"));
	assert_int_equal(r.stats.file_size, 0);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
	tfk_report_free(&r);
	unlink(path);
}

/* A pipe that keeps sending nothing, idle timeout off: the run's deadline ends the wait. */
static void test_pipe_deadline(void **state)
{
	(void)state;
	int p[2];
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "\x17\x08\x44tracing", 10), 10);
	struct tfk_limits l = quick();
	l.input_idle_ms = 0;
	l.timeout_ms = 300;
	uint64_t t0 = tfk_now_ms();
	struct tfk_report r;
	tfk_check_fd(p[0], &l, NULL, &r);
	raised_note(&r);
	uint64_t took = tfk_now_ms() - t0;
	const struct tfk_finding *f = find_finding(&r, "core.limit.reached", "milliseconds spent reading the input");
	assert_non_null(f);
	assert_int_equal(f->offset, 10);
	assert_null(find_finding(&r, "core.input.stream-stalled", "pipe"));
	assert_true(took >= 300 && took < 5000);
	assert_true(r.incomplete);
	tfk_report_free(&r);

	/* the deadline counts from the run's start: one already past reads nothing more */
	l.start_ms = tfk_now_ms() - 1000;
	tfk_check_fd(p[0], &l, NULL, &r);
	raised_note(&r);
	assert_non_null(find_finding(&r, "core.limit.reached", "milliseconds spent reading the input"));
	assert_int_equal(r.stats.file_size, 0);
	tfk_report_free(&r);
	close(p[0]);
	close(p[1]);
}

/* n zero bytes as one zstd frame of unknown size asking for a window of 2^window_log. */
static size_t zero_frame(uint8_t *out, size_t cap, size_t n, int window_log)
{
	ZSTD_CCtx *c = ZSTD_createCCtx();
	assert_non_null(c);
	ZSTD_CCtx_setParameter(c, ZSTD_c_windowLog, window_log);
	uint8_t *zeros = calloc(1, n);
	assert_non_null(zeros);
	ZSTD_inBuffer in = { zeros, n, 0 };
	ZSTD_outBuffer o = { out, cap, 0 };
	/* fed before it is ended, the frame's size is unknown: its header names the window */
	assert_false(ZSTD_isError(ZSTD_compressStream2(c, &o, &in, ZSTD_e_continue)));
	size_t left;
	do {
		left = ZSTD_compressStream2(c, &o, &in, ZSTD_e_end);
		assert_false(ZSTD_isError(left));
	} while (left);
	free(zeros);
	ZSTD_freeCCtx(c);
	return o.pos;
}

/*
 * A compressed block's zstd window is bounded by what the block decodes to (and so by the
 * budget's max_decoded): 64 KiB asking for a 64 MiB window is refused, 8 MiB always allowed.
 */
static void test_codec_window_follows_block_size(void **state)
{
	(void)state;
	static uint8_t z[1 << 16], out[1 << 16];
	size_t got, size;
	size_t n = zero_frame(z, sizeof(z), sizeof(out), 26);
	assert_int_equal(tfk_decode(TFK_CODEC_ZSTD, z, n, out, sizeof(out), &got), TFK_DECODE_CORRUPT);
	assert_int_equal(tfk_decoded_size(TFK_CODEC_ZSTD, z, n, sizeof(out), &size), TFK_DECODE_CORRUPT);
	n = zero_frame(z, sizeof(z), sizeof(out), 23);
	assert_int_equal(tfk_decode(TFK_CODEC_ZSTD, z, n, out, sizeof(out), &got), TFK_DECODE_OK);
	assert_int_equal(got, sizeof(out));
	assert_int_equal(tfk_decoded_size(TFK_CODEC_ZSTD, z, n, sizeof(out), &size), TFK_DECODE_OK);
	assert_int_equal(size, sizeof(out));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_compressed_traces_check_as_decompressed),
		cmocka_unit_test(test_pipes),
		cmocka_unit_test(test_silent_pipe),
		cmocka_unit_test(test_input_changed_under_check),
		cmocka_unit_test(test_devices_are_not_read),
		cmocka_unit_test(test_budget_sets_caps),
		cmocka_unit_test(test_bomb_stops_at_budget),
		cmocka_unit_test(test_pipe_deadline),
		cmocka_unit_test(test_codec_window_follows_block_size),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
