/* SPDX-License-Identifier: MIT */
/*
 * One zstd stream decoded piece by piece through one decoder context, as perf record -z
 * writes it (flushed at each COMPRESSED record, never ended): an unfinished frame at the end
 * of a piece is the normal case. The window is capped, so a hostile frame cannot make the
 * decoder allocate more than 128 MiB.
 */
#ifndef TFK_CODEC_ZSTREAM_H
#define TFK_CODEC_ZSTREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum tfk_zs_status { TFK_ZS_OK = 0, TFK_ZS_CORRUPT, TFK_ZS_NEED_ROOM };
void *tfk_zstream_new(void);
void tfk_zstream_reset(void *zs);
void tfk_zstream_free(void *zs);
bool tfk_zstream_is_frame_start(const uint8_t *src, size_t n);
/*
 * Decode src[*used..n) into dst[*got..cap), moving both positions. NEED_ROOM: dst is full and
 * input or output remains; grow dst (its bytes kept) and call again.
 */
enum tfk_zs_status tfk_zstream_decode(void *zs, const uint8_t *src, size_t n, size_t *used, uint8_t *dst, size_t cap,
				    size_t *got);
/*
 * Does the input fed so far end where a writer's flush can end it: at a block's end (or a
 * frame's, or before any input)? False when the last piece stopped inside a block or a frame
 * header: the rest of that block never came.
 */
bool tfk_zstream_at_boundary(const void *zs);
/* With dst full at its cap: would the stream produce more? */
bool tfk_zstream_more(void *zs, const uint8_t *src, size_t n, size_t *used);

#endif
