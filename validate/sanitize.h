/* SPDX-License-Identifier: MIT */
/* Sanitising untrusted bytes for output (the public tfk_sanitize escapes backslashes too). */
#ifndef TFK_SANITIZE_H
#define TFK_SANITIZE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Printable ASCII passes; other bytes become \xNN. With escape_backslash false, a backslash
 * passes too: used for text tracefsck formats itself, whose pieces were sanitised already.
 */
void tfk_sanitize_text(char *dst, size_t dst_size, const void *src, size_t src_len, bool escape_backslash);

#endif
