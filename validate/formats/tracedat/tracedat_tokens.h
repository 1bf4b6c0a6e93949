/* SPDX-License-Identifier: MIT */
/*
 * The byte strings trace.dat is made of, in one place: the checker compares against these,
 * and the fuzzing dictionaries are generated from them (td_dictionary), so neither drifts.
 */
#ifndef TFK_TRACEDAT_TOKENS_H
#define TFK_TRACEDAT_TOKENS_H

#include <stddef.h>
#include <stdint.h>

#include "../token.h"

/* Tags (their NUL is part of the tag on disk). */
#define TD_TAG_HEADER_PAGE "header_page"   /* 12 bytes */
#define TD_TAG_HEADER_EVENT "header_event" /* 13 bytes */
#define TD_TAG_OPTIONS "options  "         /* 10 bytes, TD_TAG_LEN */
#define TD_TAG_LATENCY "latency  "
#define TD_TAG_FLYRECORD "flyrecord"

/* Event format text keywords. */
#define TD_KW_NAME "name:"
#define TD_KW_ID "ID:"
#define TD_KW_FORMAT "format:"
#define TD_KW_FIELD "field:"
#define TD_KW_FIELD_SPECIAL "field special:"
#define TD_KW_PRINT_FMT "print fmt:"
#define TD_KW_DATA_LOC "__data_loc"
#define TD_KW_REL_LOC "__rel_loc"
#define TD_KW_OFFSET "offset"
#define TD_KW_SIZE "size"
#define TD_KW_SIGNED "signed"
#define TD_KW_COMMON "common_"

/* Option ids of the v6/v7 options chain, and names for messages. */
enum td_option_id {
	TD_OPT_DONE = 0, TD_OPT_DATE, TD_OPT_CPUSTAT, TD_OPT_BUFFER, TD_OPT_TRACECLOCK, TD_OPT_UNAME,
	TD_OPT_HOOK, TD_OPT_OFFSET, TD_OPT_CPUCOUNT, TD_OPT_VERSION, TD_OPT_PROCMAPS, TD_OPT_TRACEID,
	TD_OPT_TIME_SHIFT, TD_OPT_GUEST, TD_OPT_TSC2NSEC, TD_OPT_STRINGS, TD_OPT_HEADER_INFO,
	TD_OPT_FTRACE_EVENTS, TD_OPT_EVENT_FORMATS, TD_OPT_KALLSYMS, TD_OPT_PRINTK, TD_OPT_CMDLINES,
	TD_OPT_BUFFER_TEXT, TD_OPT_COUNT
};
const char *td_option_name(uint16_t id); /* "unknown" past the known ids */

/* Which 16-bit ids name a v7 section, and their names ("unknown" otherwise). */
const char *td_section_name(uint16_t id);

/*
 * Every token above, the option and section ids in both byte orders, the codec names and
 * header_page's field names, one call each. label is a short identifier for the token.
 */
typedef tfk_token_fn td_token_fn;
void td_dictionary(td_token_fn emit, void *user);
void td_header_page_tokens(td_token_fn emit, void *user); /* field names, header_event phrases */

#endif
