/* SPDX-License-Identifier: MIT */
/*
 * A large region of the input read front to back one window ahead, on a helper thread: the
 * kernel's copy of the next window runs while the caller walks this one. For walks whose
 * cost is half copying (a uftrace task of fixed 16-byte records), this nearly halves the time.
 */
#ifndef TFK_READAHEAD_H
#define TFK_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "cursor.h"

struct tfk_readahead;

/*
 * Starts reading region (a view of the check's mapping) in windows of `window` bytes, each
 * viewed with the `keep` bytes before it (keep <= window), so that an item starting up to keep
 * bytes before a window's end is whole in the next view. NULL when it cannot help: the region
 * is not larger than one window, cannot be read by descriptor, limits.threads < 2, or a
 * thread or buffer is not to be had. The caller then reads as it would without.
 */
struct tfk_readahead *tfk_readahead_start(const struct tfk_ctx *ctx, const struct tfk_cursor *region, size_t window,
					  size_t keep);

/*
 * A view of the region's bytes from pos (relative to the region) on, holding at least keep
 * of them or all the rest, with the region's origin and byte order. False when it cannot
 * give one: pos went back before the current view, a read failed (the file changed), or pos
 * is past the end. Positions asked for must not decrease.
 */
bool tfk_readahead_view(struct tfk_readahead *ra, uint64_t pos, struct tfk_cursor *view);

/* Stops the thread and frees everything; NULL is fine. */
void tfk_readahead_stop(struct tfk_readahead *ra);

#endif
