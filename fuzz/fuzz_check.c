/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: check any bytes as a trace. Oracles (always on, also in release builds):
 * the report stays within its limits, the verdict agrees with the counts, checking is
 * deterministic and the same when CPUs are walked on worker threads, a policy that disables a
 * code removes exactly its findings (and re-grades another, the input's last byte choosing the
 * level), a failed allocation is reported and never leaves a clean verdict, and both sinks
 * render ASCII-only output whose JSON has one summary. Each check after the first is an oracle
 * of its own, run on a share of the inputs drawn from a hash of the input (fuzz_sampled), so
 * that the fuzzer spends most of its time on new inputs; a corpus replay runs all of them on
 * every input.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "test_hooks.h"
#include "tracefsck/tracefsck.h"


struct sink_check {
	size_t bytes, lines, summaries;
};

static int sink(void *user, const char *bytes, size_t len)
{
	struct sink_check *s = user;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)bytes[i];
		FUZZ_ASSERT(c == '\n' || (c >= 0x20 && c < 0x7f));
		s->lines += c == '\n';
	}
	if (len > 16 && memcmp(bytes, "{\"type\":\"summary", 16) == 0)
		s->summaries++;
	s->bytes += len;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_report a, b;

	/* A few KiB of zstd can legally decode to gigabytes: keep each input's work small. */
	lim.max_decoded = 16u << 20;
	lim.parser_timeout_ms = 0; /* libtraceevent has its own harness (fuzz_format); no fork per input here */

	tfk_check_buffer(data, size, &lim, &a);
	FUZZ_ASSERT(a.count <= lim.max_findings);
	FUZZ_ASSERT(a.total >= a.count);
	FUZZ_ASSERT(a.by_severity[0] + a.by_severity[1] + a.by_severity[2] == a.total);
	FUZZ_ASSERT((tfk_report_verdict(&a) == TFK_VERDICT_CLEAN) == (!a.incomplete && a.by_severity[TFK_SEV_ERROR] == 0));
	for (size_t i = 0; i < a.count; i++) {
		const struct tfk_finding *f = &a.findings[i];
		FUZZ_ASSERT(f->fault && tfk_catalog_find(f->fault->id) == f->fault);
		FUZZ_ASSERT(memchr(f->path, 0, sizeof(f->path)) && memchr(f->found, 0, sizeof(f->found)));
	}

	/*
	 * The other oracles each check the input again (or render it): each runs on an eighth of
	 * the inputs, drawn independently from the input's hash, and on every input of a replay.
	 */
	const uint64_t h = fuzz_input_hash(data, size);

	/* Deterministic, and the same with the CPUs walked on three threads. */
	if (fuzz_sampled(h, 0, 8)) {
		struct tfk_limits threaded = lim;
		threaded.threads = 3;
		tfk_check_buffer(data, size, &threaded, &b);
		FUZZ_ASSERT(a.count == b.count && a.total == b.total && a.disabled == b.disabled);
		FUZZ_ASSERT(memcmp(a.by_severity, b.by_severity, sizeof(a.by_severity)) == 0);
		FUZZ_ASSERT(memcmp(&a.stats, &b.stats, sizeof(a.stats)) == 0);
		FUZZ_ASSERT(a.count == 0 || memcmp(a.findings, b.findings, a.count * sizeof(*a.findings)) == 0);
		tfk_report_free(&b);
	}

	/* A policy that switches off the first code found moves exactly its findings out of the counts. */
	if (a.count && fuzz_sampled(h, 1, 8)) {
		struct tfk_policy *pol = tfk_policy_new();
		FUZZ_ASSERT(pol && tfk_policy_disable(pol, a.findings[0].fault->id) == 1);
		enum tfk_severity sev = size >= 2 && (data[size - 2] & 1) ? TFK_SEV_NOTE : TFK_SEV_ERROR;
		const struct tfk_fault *regrade = a.count > 1 ? a.findings[a.count - 1].fault : NULL;
		if (regrade && regrade != a.findings[0].fault)
			FUZZ_ASSERT(tfk_policy_set_severity(pol, regrade->id, sev) == 1);
		struct tfk_limits with = lim;
		with.policy = pol;
		tfk_check_buffer(data, size, &with, &b);
		FUZZ_ASSERT(b.total + b.disabled == a.total && b.disabled > 0);
		for (size_t i = 0; i < b.count; i++) {
			FUZZ_ASSERT(b.findings[i].fault != a.findings[0].fault);
			if (b.findings[i].fault == regrade && regrade != a.findings[0].fault)
				FUZZ_ASSERT(b.findings[i].severity == sev);
		}
		tfk_report_free(&b);
		tfk_policy_free(pol);
	}

	/* Allocation N fails (N from the input's second-to-last byte): reported, never a crash, never clean. */
	if (size >= 2 && fuzz_sampled(h, 2, 8)) {
		struct tfk_limits starved = lim;
		struct tfk_test_hooks hooks = { .fail_alloc_after = 1 + data[size - 2] % 16 };
		starved.test_hooks = &hooks;
		tfk_check_buffer(data, size, &starved, &b);
		FUZZ_ASSERT(b.count <= lim.max_findings);
		if (b.internal_error)
			FUZZ_ASSERT(tfk_report_verdict(&b) != TFK_VERDICT_CLEAN || b.incomplete || b.by_severity[TFK_SEV_ERROR]);
		tfk_report_free(&b);
	}

	/* Rendering costs as much as a check and has a harness of its own (fuzz_sinks). */
	if (fuzz_sampled(h, 3, 8)) {
		struct sink_check text = { 0 }, json = { 0 };
		FUZZ_ASSERT(tfk_sink_text(&a, "fuzz.dat", NULL, sink, &text) == 0);
		FUZZ_ASSERT(text.lines == a.count + 1);
		FUZZ_ASSERT(tfk_sink_jsonl(&a, "fuzz.dat", NULL, sink, &json) == 0);
		FUZZ_ASSERT(json.lines == a.count + 1 && json.summaries == 1);
	}
	tfk_report_free(&a);
	return 0;
}
