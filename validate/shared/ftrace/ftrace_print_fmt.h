/* SPDX-License-Identifier: MIT */
/* The grammar of an event format's print fmt (ftrace_print_fmt.c). */
#ifndef TFK_FTRACE_PRINT_FMT_H
#define TFK_FTRACE_PRINT_FMT_H

#include <stdbool.h>
#include <stddef.h>

/* Does the format declare a field of this name (len bytes, not NUL-terminated)? */
typedef bool td_is_field_fn(const void *fields, const char *name, size_t len);

/*
 * Is the n bytes at p, the text after "print fmt:", well formed? When not, *bad is the offset
 * where it breaks (n: at its end) and *expected says what was expected there.
 */
bool td_print_fmt_ok(const char *p, size_t n, td_is_field_fn *is_field, const void *fields, size_t *bad,
		     const char **expected);

#endif
