/* SPDX-License-Identifier: MIT */
/*
 * The line builder shared by the report sinks: a line of fixed-size fields and a file name
 * (of any length: names are never cut) grows from a buffer of its own onto the heap when it
 * must. Declare it with TFK_LINE(name): the heap part is then freed however the scope is left.
 */
#ifndef TFK_SINK_COMMON_H
#define TFK_SINK_COMMON_H

#include <stdarg.h>
#include <stddef.h>

#include "tracefsck/sink.h"

struct tfk_line {
	char *buf;      /* small, or the heap once a line outgrew it */
	size_t len, cap;
	int truncated;  /* out of memory: the line is incomplete and must not be written */
	char small[8192];
};

/* Release the heap part (also what TFK_LINE's cleanup does). */
void tfk_line_free(struct tfk_line *l);
/* A string freed when its scope is left (names sanitised with tfk_sanitize_dup). */
void tfk_free_string(char **s);
#define TFK_OWNED_STRING(name, value) char *name __attribute__((cleanup(tfk_free_string))) = (value)
#define TFK_LINE(name) struct tfk_line name __attribute__((cleanup(tfk_line_free))) = { .buf = NULL }

/* Empty the line (call it first: it points the line at its own buffer). */
void tfk_line_reset(struct tfk_line *l);
__attribute__((format(printf, 2, 3))) void tfk_line_printf(struct tfk_line *l, const char *fmt, ...);
/* Append s (which may hold any bytes up to n) as a JSON string literal, quotes included. */
void tfk_line_json_str(struct tfk_line *l, const char *s, size_t n);
int tfk_line_flush(struct tfk_line *l, tfk_write_fn write, void *user);
/* The length of a file name as the sinks show it: all of it. */
size_t tfk_line_name_len(const char *name);
/* The JSON objects of check --json, shared by every sink that prints them (describe, repair). */
void tfk_line_json_finding(struct tfk_line *l, const struct tfk_finding *f, const char *name, size_t name_len);
/* The summary object; extra ("" or ",\"key\":value...") goes before its closing brace. */
void tfk_line_json_summary(struct tfk_line *l, const struct tfk_report *r, const char *name, size_t name_len,
			   const char *extra);
/* Reader hazards (sink_hazards.c): the findings whose hazards apply get a mark; others none. */
struct tfk_hazard;
void tfk_line_hazard_words(struct tfk_line *l, const struct tfk_hazard *h);
void tfk_line_text_hazards(struct tfk_line *l, const struct tfk_finding *f);
void tfk_line_json_hazard(struct tfk_line *l, const struct tfk_hazard *h);
/* ",\"hazards\":[...]" when some apply, nothing otherwise. */
void tfk_line_json_hazards(struct tfk_line *l, const struct tfk_finding *f);
/* Writer quirks (sink_quirks.c): " {writer quirk: ...}" / ",\"quirk\":{...}" for a quirk's code, else nothing. */
void tfk_line_text_quirk(struct tfk_line *l, const struct tfk_finding *f);
void tfk_line_json_quirk(struct tfk_line *l, const struct tfk_finding *f);

#endif
