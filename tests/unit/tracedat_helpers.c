/* SPDX-License-Identifier: MIT */
/* Helpers shared by the trace.dat tests: fixtures, finding look-ups, the codes raised so far. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "raised.h"
#include "tracedat_helpers.h"
#include "under_valgrind.h"

#if defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define TFK_TEST_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define TFK_TEST_SANITIZED 1
#endif

/* The codes a report raised, for the catalog coverage test (raised.h). */
void note_raised(const struct tfk_report *r)
{
	raised_note(r);
}

void dump(const struct tfk_report *r)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		print_message("  0x%llx [%s] %s (expected %s, found %s)\n", (unsigned long long)f->offset, f->path,
			      f->fault->id, f->expected, f->found);
	}
}

const struct tfk_limits *fast_limits(void)
{
	/* libtraceevent in a child process is tested on its own; bulk tests skip the fork. */
	static struct tfk_limits lim;
	lim = tfk_limits_default();
	lim.parser_timeout_ms = 0;
	return &lim;
}

void check(const struct tdw_buf *b, struct tfk_report *r)
{
	tfk_check_buffer(b->data, b->len, fast_limits(), r);
	note_raised(r);
}

const struct tfk_finding *find(const struct tfk_report *r, const char *code, uint64_t offset)
{
	for (size_t i = 0; i < r->count; i++) {
		const struct tfk_finding *f = &r->findings[i];
		if (strcmp(f->fault->id, code) == 0 && f->has_offset && f->offset == offset)
			return f;
	}
	return NULL;
}

size_t count_code(const struct tfk_report *r, const char *code)
{
	size_t n = 0;
	for (size_t i = 0; i < r->count; i++)
		n += strcmp(r->findings[i].fault->id, code) == 0;
	return n;
}

void assert_errors(const struct tfk_report *r, uint64_t n)
{
	if (r->by_severity[TFK_SEV_ERROR] != n) {
		dump(r);
		fail_msg("expected %llu errors, found %llu", (unsigned long long)n,
			 (unsigned long long)r->by_severity[TFK_SEV_ERROR]);
	}
}

struct fx *fx_new(void)
{
	struct fx *x = calloc(1, sizeof(*x));
	x->spec = tdw_default_spec();
	return x;
}

void fx_build(struct fx *x)
{
	assert_int_equal(tdw_build(&x->spec, &x->b, &x->L), 0);
}

struct fx *fx_default(void)
{
	struct fx *x = fx_new();
	fx_build(x);
	return x;
}

void fx_free(struct fx *x)
{
	tfk_report_free(&x->r);
	tdw_free(&x->b);
	free(x);
}

/* Offset of page p of CPU c of the top buffer. */
uint64_t page_at(const struct fx *x, unsigned c, unsigned p)
{
	return x->L.cpu_offset[c] + (uint64_t)p * x->spec.page_size;
}

void put_commit(struct fx *x, uint64_t page, uint64_t commit)
{
	if (x->spec.long_size == 8)
		tdw_put64(&x->b, page + 8, commit, x->spec.big_endian);
	else
		tdw_put32(&x->b, page + 8, (uint32_t)commit, x->spec.big_endian);
}

const char kernel_stack_fmt[] = "name: kernel_stack\nID: 302\nformat:\n" FX_COMMON_FIELDS
				"\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;\n"
				"\tfield:unsigned long caller[8];\toffset:16;\tsize:64;\tsigned:0;\n\n"
				"print fmt: \"\\t=> %ps\\n\", (void *)REC->caller[0]\n";

uint64_t record_at(const struct fx *x, unsigned i)
{
	static const uint64_t at[] = { 4, 16 + 4, 36 + 4, 60 + 4, 88 + 8 };
	return x->L.first_event_at + at[i];
}

/* Every catalog code is produced by at least one test (run after all the others). */
unsigned test_slowdown(void)
{
	/* TFK_TEST_SLOWDOWN lets a known-slow machine ask for more (1..100). */
	const char *env = getenv("TFK_TEST_SLOWDOWN");
	unsigned k = 1;
	if (env && atoi(env) > 0 && atoi(env) <= 100)
		k = (unsigned)atoi(env);
	if (RUNNING_ON_VALGRIND)
		k *= 20;
#ifdef TFK_TEST_SANITIZED
	k *= 4;
#endif
	return k;
}
