/* SPDX-License-Identifier: MIT */
/* Helpers shared by the trace.dat tests. */
#ifndef TRACEDAT_HELPERS_H
#define TRACEDAT_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tdw.h"
#include "tracefsck/tracefsck.h"

struct fx {
	struct tdw_spec spec;
	struct tdw_buf b;
	struct tdw_layout L;
	struct tfk_report r;
};

/* Remember the codes a report raised (for the catalog coverage test, raised.h). */
void note_raised(const struct tfk_report *r);
void dump(const struct tfk_report *r);
/* Default limits without the libtraceevent child (tested on its own). */
const struct tfk_limits *fast_limits(void);
/* Check a buffer with fast_limits() and remember the codes raised. */
void check(const struct tdw_buf *b, struct tfk_report *r);
const struct tfk_finding *find(const struct tfk_report *r, const char *code, uint64_t offset);
size_t count_code(const struct tfk_report *r, const char *code);
void assert_errors(const struct tfk_report *r, uint64_t n);
struct fx *fx_new(void);
void fx_build(struct fx *x);
struct fx *fx_default(void);
void fx_free(struct fx *x);
/* Offset of page p of CPU c of the top buffer (uncompressed files). */
uint64_t page_at(const struct fx *x, unsigned c, unsigned p);
void put_commit(struct fx *x, uint64_t page, uint64_t commit);
/* How many times slower than a plain run this test runs (Valgrind, sanitizers): timeouts in
 * tests are multiplied by it, so that a loaded or instrumented run never races them. */
unsigned test_slowdown(void);

/* The common fields of every fixture format, for an extra_format text. */
#define FX_COMMON_FIELDS                                                                           \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"                          \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"                          \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"                  \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
/* ftrace's kernel_stack as 6.x kernels print it (ID 302 here): 8 entries declared, `size` written. */
extern const char kernel_stack_fmt[];
/*
 * Payload offset of record i (0..4) of cpu0 page 0 of a fixture (tdw_w_page): payloads of 12,
 * 16, 20, 24 and 160 bytes; the last has a type_len 0 header (8 bytes), the others 4.
 */
uint64_t record_at(const struct fx *x, unsigned i);

struct CMUnitTest;
const struct CMUnitTest *tracedat_v6_tests(size_t *n);
const struct CMUnitTest *tracedat_v7_tests(size_t *n);
const struct CMUnitTest *tracedat_quirks_tests(size_t *n);
const struct CMUnitTest *perf_tests(size_t *n);

#define assert_code_at(r, code, off)                                                                     \
	do {                                                                                             \
		if (!find((r), (code), (off))) {                                                         \
			dump(r);                                                                         \
			fail_msg("expected %s at 0x%llx", (code), (unsigned long long)(off));            \
		}                                                                                        \
	} while (0)


#endif
