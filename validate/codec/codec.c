/* SPDX-License-Identifier: MIT */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "codec.h"

enum tfk_codec tfk_codec_from_name(const char *name, size_t len)
{
	if (len == 4 && memcmp(name, "none", 4) == 0)
		return TFK_CODEC_NONE;
	if (len == 4 && memcmp(name, "zstd", 4) == 0)
		return TFK_CODEC_ZSTD;
	if (len == 4 && memcmp(name, "zlib", 4) == 0)
		return TFK_CODEC_ZLIB;
	return TFK_CODEC_UNKNOWN;
}

const char *tfk_codec_name(enum tfk_codec codec)
{
	switch (codec) {
	case TFK_CODEC_NONE: return "none";
	case TFK_CODEC_ZSTD: return "zstd";
	case TFK_CODEC_ZLIB: return "zlib";
	default: return "unknown";
	}
}

/*
 * The largest window a frame may ask to decode into n bytes. The streaming decoder allocates
 * the window a frame asks for, and what the output may hold bounds what it needs: twice the
 * output, but never below 8 MiB (the window zstd's format asks every decoder to support, which
 * streaming compressors use whatever the size) nor above 128 MiB. The output itself is bounded
 * by limits.max_decoded, a share of the memory budget, so the window follows the budget too.
 */
static int zstd_window_log(size_t n)
{
	int log = 23;
	while (log < 27 && ((size_t)1 << log) / 2 < n)
		log++;
	return log;
}

static enum tfk_decode_status decode_zstd(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
					 size_t *out_len)
{
	ZSTD_DCtx *dctx = ZSTD_createDCtx();
	if (!dctx)
		return TFK_DECODE_CORRUPT;
	/* Refuse frames that ask for a window the block's size does not need. */
	ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, zstd_window_log(dst_len));
	ZSTD_inBuffer in = { src, src_len, 0 };
	ZSTD_outBuffer out = { dst, dst_len, 0 };
	enum tfk_decode_status st = TFK_DECODE_OK;
	size_t rc;
	for (;;) {
		rc = ZSTD_decompressStream(dctx, &out, &in);
		if (ZSTD_isError(rc)) {
			st = TFK_DECODE_CORRUPT;
			break;
		}
		if (rc == 0 && in.pos == in.size)
			break; /* every frame ended and all input used */
		if (out.pos == out.size) {
			/* Output full: is there more to come? Probe with one spare byte. */
			uint8_t spare;
			ZSTD_outBuffer more = { &spare, 1, 0 };
			size_t r2 = ZSTD_decompressStream(dctx, &more, &in);
			if (ZSTD_isError(r2))
				st = TFK_DECODE_CORRUPT;
			else if (more.pos)
				st = TFK_DECODE_LONG;
			else if (r2 != 0 || in.pos != in.size)
				st = TFK_DECODE_CORRUPT; /* a frame cut short, or trailing bytes */
			break;
		}
		if (in.pos == in.size) {
			st = TFK_DECODE_CORRUPT; /* input ends inside a frame */
			break;
		}
	}
	*out_len = out.pos;
	ZSTD_freeDCtx(dctx);
	if (st == TFK_DECODE_OK && out.pos < dst_len)
		st = TFK_DECODE_SHORT;
	return st;
}

static enum tfk_decode_status decode_zlib(const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
					 size_t *out_len)
{
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) != Z_OK)
		return TFK_DECODE_CORRUPT;
	enum tfk_decode_status st = TFK_DECODE_OK;
	size_t in_left = src_len, out_left = dst_len;
	const uint8_t *in = src;
	uint8_t *out = dst;
	int rc = Z_OK;
	/* zlib counts in uInt: feed it in pieces so sizes above 4 GiB cannot wrap. */
	while (rc == Z_OK) {
		uInt in_chunk = in_left > 0x40000000u ? 0x40000000u : (uInt)in_left;
		uInt out_chunk = out_left > 0x40000000u ? 0x40000000u : (uInt)out_left;
		zs.next_in = (Bytef *)(uintptr_t)in;
		zs.avail_in = in_chunk;
		zs.next_out = out;
		zs.avail_out = out_chunk;
		rc = inflate(&zs, Z_NO_FLUSH);
		size_t used_in = in_chunk - zs.avail_in, made = out_chunk - zs.avail_out;
		in += used_in;
		in_left -= used_in;
		out += made;
		out_left -= made;
		if (rc == Z_OK && used_in == 0 && made == 0)
			break; /* no progress: input ended inside the stream, or output is full */
	}
	*out_len = dst_len - out_left;
	if (rc == Z_STREAM_END) {
		if (in_left != 0)
			st = TFK_DECODE_CORRUPT;
		else if (out_left != 0)
			st = TFK_DECODE_SHORT;
	} else if (rc == Z_OK || rc == Z_BUF_ERROR) {
		st = out_left == 0 ? TFK_DECODE_LONG : TFK_DECODE_CORRUPT;
	} else {
		st = TFK_DECODE_CORRUPT;
	}
	inflateEnd(&zs);
	return st;
}

enum tfk_decode_status tfk_decode(enum tfk_codec codec, const uint8_t *src, size_t src_len, uint8_t *dst, size_t dst_len,
				size_t *out_len)
{
	*out_len = 0;
	switch (codec) {
	case TFK_CODEC_ZSTD:
		return decode_zstd(src, src_len, dst, dst_len, out_len);
	case TFK_CODEC_ZLIB:
		return decode_zlib(src, src_len, dst, dst_len, out_len);
	case TFK_CODEC_NONE: {
		size_t n = src_len < dst_len ? src_len : dst_len;
		memcpy(dst, src, n);
		*out_len = n;
		return src_len == dst_len ? TFK_DECODE_OK : src_len < dst_len ? TFK_DECODE_SHORT : TFK_DECODE_LONG;
	}
	default:
		return TFK_DECODE_CORRUPT;
	}
}

enum tfk_decode_status tfk_decode_chunk(void **state, enum tfk_codec codec, const uint8_t *src, size_t src_len,
				      uint8_t *dst, size_t dst_len, size_t *out_len)
{
	if (codec == TFK_CODEC_ZSTD) {
		/* A context per call costs more than decoding a 40 KiB chunk: keep one. */
		if (!*state) {
			ZSTD_DCtx *dctx = ZSTD_createDCtx();
			if (dctx)
				ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, 27);
			*state = dctx;
		}
		if (*state) {
			size_t got = ZSTD_decompressDCtx(*state, dst, dst_len, src, src_len);
			if (!ZSTD_isError(got)) {
				*out_len = got;
				return got == dst_len ? TFK_DECODE_OK : TFK_DECODE_SHORT;
			}
		}
		/* Damaged, cut or too long: the streaming path says which and keeps what decoded. */
	}
	return tfk_decode(codec, src, src_len, dst, dst_len, out_len);
}

void tfk_decode_state_free(void *state)
{
	ZSTD_freeDCtx(state);
}

#define SCRATCH (64u << 10)

/* zlib: inflate one stream from src, counting what it produces and where it ends. */
static enum tfk_decode_status zlib_span(const uint8_t *src, size_t src_len, size_t limit, size_t *consumed,
					size_t *decoded)
{
	uint8_t *scratch = malloc(SCRATCH);
	if (!scratch)
		return TFK_DECODE_CORRUPT;
	enum tfk_decode_status st = TFK_DECODE_CORRUPT;
	z_stream zs;
	memset(&zs, 0, sizeof(zs));
	if (inflateInit(&zs) == Z_OK) {
		size_t left = src_len;
		const uint8_t *in = src;
		for (;;) {
			uInt chunk = left > 0x40000000u ? 0x40000000u : (uInt)left;
			zs.next_in = (Bytef *)(uintptr_t)in;
			zs.avail_in = chunk;
			zs.next_out = scratch;
			zs.avail_out = SCRATCH;
			int rc = inflate(&zs, Z_NO_FLUSH);
			size_t used = chunk - zs.avail_in, made = SCRATCH - zs.avail_out;
			in += used;
			left -= used;
			*decoded += made;
			if (*decoded > limit) {
				st = TFK_DECODE_LONG;
				break;
			}
			if (rc == Z_STREAM_END) {
				*consumed = src_len - left;
				st = TFK_DECODE_OK;
				break;
			}
			if (rc != Z_OK || (used == 0 && made == 0))
				break;
		}
		inflateEnd(&zs);
	}
	free(scratch);
	return st;
}

enum tfk_decode_status tfk_decoded_size(enum tfk_codec codec, const uint8_t *src, size_t src_len, size_t limit,
				      size_t *size)
{
	*size = 0;
	if (codec == TFK_CODEC_NONE) {
		*size = src_len;
		return TFK_DECODE_OK;
	}
	uint8_t *scratch = malloc(SCRATCH);
	if (!scratch)
		return TFK_DECODE_CORRUPT;
	enum tfk_decode_status st = TFK_DECODE_CORRUPT;
	if (codec == TFK_CODEC_ZSTD) {
		ZSTD_DCtx *dctx = ZSTD_createDCtx();
		if (dctx) {
			ZSTD_DCtx_setParameter(dctx, ZSTD_d_windowLogMax, zstd_window_log(limit));
			ZSTD_inBuffer in = { src, src_len, 0 };
			for (;;) {
				ZSTD_outBuffer out = { scratch, SCRATCH, 0 };
				size_t rc = ZSTD_decompressStream(dctx, &out, &in);
				if (ZSTD_isError(rc))
					break;
				*size += out.pos;
				if (*size > limit) {
					st = TFK_DECODE_LONG;
					break;
				}
				if (rc == 0 && in.pos == in.size) {
					st = TFK_DECODE_OK;
					break;
				}
				if (out.pos == 0 && in.pos == in.size)
					break; /* input ends inside a frame */
			}
			ZSTD_freeDCtx(dctx);
		}
	} else if (codec == TFK_CODEC_ZLIB) {
		size_t consumed = 0;
		st = zlib_span(src, src_len, limit, &consumed, size);
		if (st == TFK_DECODE_OK && consumed != src_len)
			st = TFK_DECODE_CORRUPT; /* bytes after the stream */
	}
	free(scratch);
	return st;
}

enum tfk_decode_status tfk_frame_span(enum tfk_codec codec, const uint8_t *src, size_t src_len, size_t limit,
				      size_t *consumed, size_t *decoded)
{
	*consumed = 0;
	*decoded = 0;
	if (codec == TFK_CODEC_ZSTD) {
		size_t n = ZSTD_findFrameCompressedSize(src, src_len);
		if (ZSTD_isError(n) || n == 0 || n > src_len)
			return TFK_DECODE_CORRUPT;
		enum tfk_decode_status st = tfk_decoded_size(codec, src, n, limit, decoded);
		if (st == TFK_DECODE_OK)
			*consumed = n;
		return st;
	}
	if (codec == TFK_CODEC_ZLIB)
		return zlib_span(src, src_len, limit, consumed, decoded);
	return TFK_DECODE_CORRUPT;
}
