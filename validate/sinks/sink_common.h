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
/* How much of a file name the sinks show: names are not data, and every line stays in the builder. */
size_t tfk_line_name_len(const char *name);
/* The JSON objects of check --json, shared by every sink that prints them (describe, repair). */
void tfk_line_json_finding(struct tfk_line *l, const struct tfk_finding *f, const char *name, size_t name_len);
/* The summary object; extra ("" or ",\"key\":value...") goes before its closing brace. */
void tfk_line_json_summary(struct tfk_line *l, const struct tfk_report *r, const char *name, size_t name_len,
			   const char *extra);

#endif
