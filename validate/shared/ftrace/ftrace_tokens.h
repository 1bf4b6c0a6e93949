/* SPDX-License-Identifier: MIT */
/*
 * The byte strings of ftrace's metadata texts, in one place: the header_page and event-format
 * checks compare against these, and the fuzzing dictionaries are generated from them, so
 * neither drifts. trace.dat's own tags and ids are in its folder (tracedat_tokens.h).
 */
#ifndef TFK_FTRACE_TOKENS_H
#define TFK_FTRACE_TOKENS_H

#include <stddef.h>
#include <stdint.h>

#include "formats/token.h"

/* Tags of the header texts (their NUL is part of the tag on disk). */
#define TD_TAG_HEADER_PAGE "header_page"   /* 12 bytes */
#define TD_TAG_HEADER_EVENT "header_event" /* 13 bytes */

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

typedef tfk_token_fn td_token_fn;
/* header_page's field names and header_event's phrases, one call each. */
void td_header_page_tokens(td_token_fn emit, void *user);

#endif
