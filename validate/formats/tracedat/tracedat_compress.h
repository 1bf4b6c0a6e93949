/* SPDX-License-Identifier: MIT */
/* The codecs a v7 trace.dat may name: none, zstd, zlib. */
#ifndef TFK_TRACEDAT_COMPRESS_H
#define TFK_TRACEDAT_COMPRESS_H

#include <stddef.h>
#include <stdint.h>

enum td_codec {
	TD_CODEC_NONE = 0,
	TD_CODEC_ZSTD,
	TD_CODEC_ZLIB,
	TD_CODEC_UNKNOWN,
};

enum td_decode_status {
	TD_DECODE_OK = 0,
	TD_DECODE_CORRUPT,    /* the codec rejected the data */
	TD_DECODE_SHORT,      /* decoded fewer bytes than the block says */
	TD_DECODE_LONG,       /* the data decodes to more than the block says */
};

enum td_codec td_codec_from_name(const char *name, size_t len);
const char *td_codec_name(enum td_codec codec);

/*
 * Decode src into exactly dst_len bytes of dst. *out_len receives what was produced
 * (up to dst_len). Never writes past dst_len, never allocates more than the codec's
 * own bounded work space.
 */
enum td_decode_status td_decode(enum td_codec codec, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
				size_t *out_len);

/*
 * As td_decode, for the many small chunks of CPU data: *state keeps the codec's context
 * between calls (created on first use; release it with td_decode_state_free). Whole, valid
 * chunks decode straight into dst; anything else takes td_decode's careful path.
 */
enum td_decode_status td_decode_chunk(void **state, enum td_codec codec, const uint8_t *src, size_t src_len,
				      uint8_t *dst, size_t dst_len, size_t *out_len);
void td_decode_state_free(void *state);

/*
 * How many bytes src decodes to, decoding into a small scratch buffer and stopping past
 * limit. Lets a caller allocate for what the data holds, not for what a header claims.
 */
enum td_decode_status td_decoded_size(enum td_codec codec, const uint8_t *src, size_t src_len, size_t limit,
				      size_t *size);

#endif
