/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: scrub any bytes, with a fixed key. Oracles: scrub never fails its own
 * re-check (an output that does not check clean is an internal error); a scrubbed output
 * checks clean as the input did, and its size stays bounded by the input's or the limit on
 * decompressed input (a compressed trace.dat or perf.data is written decoded); scrubbing the
 * output again gives an output of the same size (the same shape, only other pseudonyms'
 * inputs); the same input under the same key gives the same bytes; on an eighth of the inputs
 * (every one of a replay), --repair first: a damaged input repaired, then scrubbed.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_assert.h"
#include "tracefsck/scrub.h"
#include "tracefsck/tracefsck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int discard(void *user, const char *bytes, size_t len)
{
	(void)user;
	(void)bytes;
	(void)len;
	return 0;
}

static void scrub_once(const uint8_t *data, size_t size, const struct tfk_limits *lim, bool repair)
{
	struct tfk_scrub_options opts;
	memset(&opts, 0, sizeof(opts));
	opts.kinds = TFK_SCRUB_PUBLIC;
	memcpy(opts.key, "fuzzing key 0123", TFK_SCRUB_KEY_BYTES);
	opts.repair_first = repair;
	struct tfk_scrub_report rep;
	uint8_t *out;
	size_t len;
	tfk_scrub_buffer(data, size, &opts, lim, &out, &len, &rep);
	FUZZ_ASSERT(rep.outcome != TFK_SCRUB_FAILED || rep.before.internal_error);
	if (rep.outcome == TFK_SCRUB_DONE) {
		FUZZ_ASSERT(out != NULL);
		FUZZ_ASSERT(tfk_report_verdict(&rep.after) == TFK_VERDICT_CLEAN);
		/* never grows without bound: no larger than an input the limits let in (or the input) */
		FUZZ_ASSERT(len <= (size > lim->max_input_bytes ? size : lim->max_input_bytes));
		if (!repair) {
			FUZZ_ASSERT(tfk_report_verdict(&rep.before) == TFK_VERDICT_CLEAN);
			struct tfk_scrub_report again;
			uint8_t *out2;
			size_t len2;
			tfk_scrub_buffer(out, len, &opts, lim, &out2, &len2, &again);
			FUZZ_ASSERT(again.outcome == TFK_SCRUB_DONE || again.before.internal_error);
			FUZZ_ASSERT(again.outcome != TFK_SCRUB_DONE || len2 == len);
			free(out2);
			tfk_scrub_report_free(&again);
			/* one key, one output */
			struct tfk_scrub_report same;
			uint8_t *out3;
			size_t len3;
			tfk_scrub_buffer(data, size, &opts, lim, &out3, &len3, &same);
			FUZZ_ASSERT(same.outcome == TFK_SCRUB_DONE && len3 == len && memcmp(out3, out, len) == 0);
			free(out3);
			tfk_scrub_report_free(&same);
		}
	} else {
		FUZZ_ASSERT(out == NULL && len == 0);
	}
	/* the report renders whatever happened */
	FUZZ_ASSERT(tfk_scrub_report_text(&rep, "fuzz", discard, NULL) == 0);
	FUZZ_ASSERT(tfk_scrub_report_jsonl(&rep, "fuzz", discard, NULL) == 0);
	free(out);
	tfk_scrub_report_free(&rep);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tfk_limits lim = tfk_limits_default();
	lim.max_decoded = 16u << 20;
	lim.max_input_bytes = 64u << 20; /* the most a scrubbed copy may hold */
	lim.parser_timeout_ms = 0; /* libtraceevent has its own harness (fuzz_format) */
	const uint64_t h = fuzz_input_hash(data, size);
	scrub_once(data, size, &lim, false);
	if (fuzz_sampled(h, 2, 8))
		scrub_once(data, size, &lim, true);
	return 0;
}
