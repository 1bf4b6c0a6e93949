/* SPDX-License-Identifier: MIT */
/*
 * The byte strings trace.dat is made of, in one place: the checker compares against these,
 * and the fuzzing dictionaries are generated from them (td_dictionary), so neither drifts.
 * The metadata texts' keywords are ftrace's (shared/ftrace/ftrace_tokens.h).
 */
#ifndef TFK_TRACEDAT_TOKENS_H
#define TFK_TRACEDAT_TOKENS_H

#include <stddef.h>
#include <stdint.h>

#include "shared/ftrace/ftrace_tokens.h"

/* Tags (their NUL is part of the tag on disk). */
#define TD_TAG_OPTIONS "options  "         /* 10 bytes, TD_TAG_LEN */
#define TD_TAG_LATENCY "latency  "
#define TD_TAG_FLYRECORD "flyrecord"

/* Option ids of the v6/v7 options chain, and names for messages. */
enum td_option_id {
	TD_OPT_DONE = 0, TD_OPT_DATE, TD_OPT_CPUSTAT, TD_OPT_BUFFER, TD_OPT_TRACECLOCK, TD_OPT_UNAME,
	TD_OPT_HOOK, TD_OPT_OFFSET, TD_OPT_CPUCOUNT, TD_OPT_VERSION, TD_OPT_PROCMAPS, TD_OPT_TRACEID,
	TD_OPT_TIME_SHIFT, TD_OPT_GUEST, TD_OPT_TSC2NSEC, TD_OPT_STRINGS, TD_OPT_HEADER_INFO,
	TD_OPT_FTRACE_EVENTS, TD_OPT_EVENT_FORMATS, TD_OPT_KALLSYMS, TD_OPT_PRINTK, TD_OPT_CMDLINES,
	TD_OPT_BUFFER_TEXT,
	/* trace-cmd 3.4: BTF_FILE and MODULES_FILE name sections, LAST_BOOT_INFO is a string */
	TD_OPT_BTF_FILE, TD_OPT_LAST_BOOT_INFO, TD_OPT_MODULES_FILE, TD_OPT_COUNT
};
const char *td_option_name(uint16_t id); /* "unknown" past the known ids */

/* Which 16-bit ids name a v7 section, and their names ("unknown" otherwise). */
const char *td_section_name(uint16_t id);

/*
 * Every token above and ftrace's, the option and section ids in both byte orders, the codec
 * names and header_page's field names, one call each. label is a short identifier for the token.
 */
void td_dictionary(td_token_fn emit, void *user);

#endif
