/* SPDX-License-Identifier: MIT */
/* A small bounded line builder shared by the report sinks. */
#ifndef TFK_SINK_COMMON_H
#define TFK_SINK_COMMON_H

#include <stdarg.h>
#include <stddef.h>

#include "tracefsck/sink.h"

struct tfk_line {
	char buf[8192]; /* a finding line: name <= 512 bytes escaped 6x, fields of bounded size */
	size_t len;
	int truncated;
};

void tfk_line_reset(struct tfk_line *l);
__attribute__((format(printf, 2, 3))) void tfk_line_printf(struct tfk_line *l, const char *fmt, ...);
/* Append s (which may hold any bytes up to n) as a JSON string literal, quotes included. */
void tfk_line_json_str(struct tfk_line *l, const char *s, size_t n);
int tfk_line_flush(struct tfk_line *l, tfk_write_fn write, void *user);

#endif
