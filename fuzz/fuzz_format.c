/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: event format text. The input becomes the one event format of a minimal v6
 * trace; our grammar checks it and, when it passes, libtraceevent parses it in this process (the
 * parse_in_process hook: no fork per input, and a libtraceevent crash or leak on a text our
 * grammar let through is this harness's crash). Oracles (always on): this process never crashes;
 * a text that breaks our grammar never reaches libtraceevent (so it cannot be a parser crash);
 * the guarded child, given the same trace, reports exactly the same findings (checked on an
 * eighth of the inputs, and on every input of a corpus replay).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "test_hooks.h"
#include "tracefsck/tracefsck.h"


struct out {
	uint8_t *p;
	size_t len;
};

static void put(struct out *o, const void *d, size_t n)
{
	memcpy(o->p + o->len, d, n);
	o->len += n;
}

static void u32(struct out *o, uint32_t v)
{
	put(o, &v, 4);
}

static void u64(struct out *o, uint64_t v)
{
	put(o, &v, 8);
}

static void blob(struct out *o, const void *d, size_t n)
{
	u64(o, n);
	put(o, d, n);
}

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
	"\ttype_len : 5 bits\n\ttime_delta : 27 bits\n\tarray : 32 bits\n\tpadding : type == 29\n"
	"\ttime_extend : type == 30\n\ttime_stamp : type == 31\n\tdata max type_len == 28\n";

/* Both a syntax finding and a parser crash: a text that broke our grammar reached libtraceevent. */
static bool grammar_broken_yet_parsed(const struct tfk_report *r)
{
	bool syntax = false, crash = false;
	for (size_t i = 0; i < r->count; i++) {
		syntax |= strcmp(r->findings[i].fault->id, "tracedat.format.syntax") == 0;
		crash |= strcmp(r->findings[i].fault->id, "tracedat.format.parser-crash") == 0;
	}
	return syntax && crash;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 16384)
		return 0;
	/* Little-endian host assumed for the numbers below, as the harness runs on x86-64. */
	struct out o = { malloc(size + 1024), 0 };
	put(&o, "\x17\x08\x44tracing6", 12);
	put(&o, "\x00\x08\x00\x10\x00\x00", 6);
	put(&o, "header_page", 12);
	blob(&o, header_page, sizeof(header_page) - 1);
	put(&o, "header_event", 13);
	blob(&o, header_event, sizeof(header_event) - 1);
	u32(&o, 0);         /* ftrace formats */
	u32(&o, 1);         /* systems */
	put(&o, "fuzz", 5);
	u32(&o, 1);
	blob(&o, data, size);
	u32(&o, 0);         /* kallsyms */
	u32(&o, 0);         /* printk */
	u64(&o, 0);         /* cmdlines */
	u32(&o, 0);         /* CPUs */
	put(&o, "options  ", 10);
	put(&o, "\0\0", 2);
	put(&o, "flyrecord", 10);
	u64(&o, 7);
	put(&o, "[local]", 7);

	struct tfk_limits lim = tfk_limits_default();
	lim.parser_timeout_ms = 2000;
	struct tfk_test_hooks in_process = { .parse_in_process = 1 };
	lim.test_hooks = &in_process;
	struct tfk_report a, b;
	tfk_check_buffer(o.p, o.len, &lim, &a); /* a libtraceevent crash here is this harness's */
	/* The child's parse, the one untrusted files get, gives the same findings as this process's,
	 * field for field, in the same order (and so they are deterministic too): on an eighth of the
	 * inputs (drawn from a hash of the input) and on every input of a corpus replay. */
	if (fuzz_sampled(fuzz_input_hash(data, size), 0, 8)) {
		struct tfk_limits guarded = lim;
		guarded.test_hooks = NULL;
		tfk_check_buffer(o.p, o.len, &guarded, &b);
		FUZZ_ASSERT(!grammar_broken_yet_parsed(&b));
		FUZZ_ASSERT(a.count == b.count && a.total == b.total && a.incomplete == b.incomplete);
		FUZZ_ASSERT(memcmp(a.by_severity, b.by_severity, sizeof(a.by_severity)) == 0);
		FUZZ_ASSERT(memcmp(&a.stats, &b.stats, sizeof(a.stats)) == 0);
		FUZZ_ASSERT(a.count == 0 || memcmp(a.findings, b.findings, a.count * sizeof(*a.findings)) == 0);
		tfk_report_free(&b);
	}
	tfk_report_free(&a);
	free(o.p);
	return 0;
}
