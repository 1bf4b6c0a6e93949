/* SPDX-License-Identifier: MIT */
/* Compressed blocks (a v7 trace.dat names its codec: none, zstd, zlib), decoded with bounded work space. */
#ifndef TFK_CODEC_H
#define TFK_CODEC_H

#include <stddef.h>
#include <stdint.h>

enum tfk_codec {
	TFK_CODEC_NONE = 0,
	TFK_CODEC_ZSTD,
	TFK_CODEC_ZLIB,
	TFK_CODEC_UNKNOWN,
};

enum tfk_decode_status {
	TFK_DECODE_OK = 0,
	TFK_DECODE_CORRUPT,    /* the codec rejected the data */
	TFK_DECODE_SHORT,      /* decoded fewer bytes than the block says */
	TFK_DECODE_LONG,       /* the data decodes to more than the block says */
};

enum tfk_codec tfk_codec_from_name(const char *name, size_t len);
const char *tfk_codec_name(enum tfk_codec codec);

/*
 * Decode src into exactly dst_len bytes of dst. *out_len receives what was produced
 * (up to dst_len). Never writes past dst_len, never allocates more than the codec's
 * own bounded work space (a zstd window of at most twice dst_len, 8 MiB at least, 128 MiB
 * at most: a frame asking more is corrupt).
 */
enum tfk_decode_status tfk_decode(enum tfk_codec codec, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
				size_t *out_len);

/*
 * As tfk_decode, for the many small chunks of CPU data: *state keeps the codec's context
 * between calls (created on first use; release it with tfk_decode_state_free). Whole, valid
 * chunks decode straight into dst; anything else takes tfk_decode's careful path.
 */
enum tfk_decode_status tfk_decode_chunk(void **state, enum tfk_codec codec, const uint8_t *src, size_t src_len,
				      uint8_t *dst, size_t dst_len, size_t *out_len);
void tfk_decode_state_free(void *state);

/*
 * How many bytes src decodes to, decoding into a small scratch buffer and stopping past
 * limit. Lets a caller allocate for what the data holds, not for what a header claims.
 */
enum tfk_decode_status tfk_decoded_size(enum tfk_codec codec, const uint8_t *src, size_t src_len, size_t limit,
				      size_t *size);

/*
 * One frame (zstd) or stream (zlib) at the start of src, which may go on past it: *consumed
 * receives its compressed length, *decoded what it decodes to (stopping past limit). For data
 * whose sizes were lost (trace-cmd 3.3.1 on big-endian machines wrote them as 0).
 */
enum tfk_decode_status tfk_frame_span(enum tfk_codec codec, const uint8_t *src, size_t src_len, size_t limit,
				      size_t *consumed, size_t *decoded);

#endif
