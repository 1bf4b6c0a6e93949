/* SPDX-License-Identifier: MIT */
/*
 * libtraceevent in this process, for the fuzz harnesses only (the parse_in_process test hook,
 * never set by the command or by tfk_limits_default): the guarded child's questions
 * (ftrace_tep.c) answered without a fork per input. A fuzzer then runs at its own rate, and a
 * libtraceevent crash or leak on a text our grammar let through is the harness's own crash, a
 * grammar gap to close, where the child would have turned it into a tracedat.format.parser-crash
 * finding. No leash and no deadline: a hang is the fuzzer's timeout.
 */
#include <traceevent/event-parse.h>

#include "ftrace_tep.h"

void td_parse_in_process(struct td_check *td)
{
	if (!td->ctx->limits->parser_timeout_ms || !td->nfmt_refs)
		return;
	struct tep_handle *tep = td_tep_open(td);
	if (!tep) {
		td_tep_start_failed(td, 0);
		return;
	}
	for (size_t i = 0; i < td->nfmt_refs; i++)
		td->fmt_refs[i].rejected = !td_tep_parses(tep, td, &td->fmt_refs[i]);
	/* Everything libtraceevent allocated, freed with each check: LeakSanitizer in a fuzzer then
	 * reports only what libtraceevent itself loses. */
	tep_free(tep);
}
