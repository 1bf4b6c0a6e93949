/* SPDX-License-Identifier: MIT */
/* The trace.dat metadata checker, offered to formats that embed its layout (perf.data). */
#ifndef TFK_FTRACE_BUNDLE_H
#define TFK_FTRACE_BUNDLE_H

#include "../../context.h"
#include "../../cursor.h"

/* Check a tracing-data bundle (blob->origin is its file offset); findings use tracedat codes. */
void td_check_tracing_bundle(struct tfk_ctx *ctx, const struct tfk_cursor *blob, const char *where);

#endif
