/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: repair any bytes. Oracles (always on): repair never fails its own re-check,
 * its output checks clean, keeps the events it says it kept, repairing the output again
 * has nothing to do; on an eighth of the inputs each (drawn from a hash of the input; on every
 * input of a corpus replay), checking the output here finds what repair's own re-check found,
 * and walking CPUs on worker threads writes the same bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracefsck/repair.h"
#include "fuzz_assert.h"
#include "tracefsck/tracefsck.h"


int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tfk_limits lim = tfk_limits_default();
	lim.max_decoded = 16u << 20;
	lim.parser_timeout_ms = 0; /* libtraceevent has its own harness (fuzz_format); no fork per input here */
	struct tfk_repair_report rep;
	uint8_t *out;
	size_t len;

	const uint64_t h = fuzz_input_hash(data, size);

	tfk_repair_buffer(data, size, &lim, &out, &len, &rep);
	FUZZ_ASSERT(rep.outcome != TFK_REPAIR_FAILED || rep.before.internal_error);
	if (rep.outcome == TFK_REPAIR_DONE || rep.outcome == TFK_REPAIR_NOTHING_SALVAGED) {
		FUZZ_ASSERT(out != NULL);
		uint64_t kept = 0;
		for (size_t i = 0; i < rep.ncpus; i++)
			kept += rep.cpus[i].events_kept;
		/* rep.after is tfk_check_buffer of the output with these limits, made by repair itself. */
		FUZZ_ASSERT(tfk_report_verdict(&rep.after) == TFK_VERDICT_CLEAN);
		FUZZ_ASSERT(rep.after.stats.events == kept);
		if (fuzz_sampled(h, 1, 8)) {
			/* The output checked here, apart from repair: what repair's re-check said. */
			struct tfk_report chk;
			tfk_check_buffer(out, len, &lim, &chk);
			FUZZ_ASSERT(tfk_report_verdict(&chk) == TFK_VERDICT_CLEAN);
			FUZZ_ASSERT(chk.stats.events == kept);
			FUZZ_ASSERT(chk.total == rep.after.total && chk.count == rep.after.count);
			FUZZ_ASSERT(memcmp(&chk.stats, &rep.after.stats, sizeof(chk.stats)) == 0);
			tfk_report_free(&chk);
		}

		struct tfk_repair_report again;
		uint8_t *out2;
		size_t len2;
		tfk_repair_buffer(out, len, &lim, &out2, &len2, &again);
		FUZZ_ASSERT(again.outcome == TFK_REPAIR_NOTHING_TO_DO);
		free(out2);
		tfk_repair_report_free(&again);
	}
	/* On an eighth of the inputs (fuzz_sampled), every one of a replay: the same on three threads. */
	if (fuzz_sampled(h, 0, 8)) {
		struct tfk_limits threaded = lim;
		threaded.threads = 3;
		struct tfk_repair_report trep;
		uint8_t *tout;
		size_t tlen;
		tfk_repair_buffer(data, size, &threaded, &tout, &tlen, &trep);
		FUZZ_ASSERT(trep.outcome == rep.outcome && tlen == len);
		FUZZ_ASSERT(len == 0 || memcmp(out, tout, len) == 0);
		FUZZ_ASSERT(trep.before.total == rep.before.total && trep.before.count == rep.before.count);
		free(tout);
		tfk_repair_report_free(&trep);
	}
	free(out);
	tfk_repair_report_free(&rep);
	return 0;
}
