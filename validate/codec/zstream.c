/* SPDX-License-Identifier: MIT */
/*
 * A zstd stream decoded piece by piece (zstream.h); perf record -z writes one for the whole
 * recording (spec 7, errata), a piece in each COMPRESSED record.
 */
#include <zstd.h>

#include "zstream.h"

void *tfk_zstream_new(void)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	if (d)
		ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, 27); /* perf's own windows are far smaller */
	return d;
}

void tfk_zstream_reset(void *zs)
{
	if (zs)
		ZSTD_DCtx_reset(zs, ZSTD_reset_session_only);
}

void tfk_zstream_free(void *zs)
{
	ZSTD_freeDCtx(zs);
}

bool tfk_zstream_is_frame_start(const uint8_t *src, size_t n)
{
	return n >= 4 && src[0] == 0x28 && src[1] == 0xb5 && src[2] == 0x2f && src[3] == 0xfd;
}

enum tfk_zs_status tfk_zstream_decode(void *zs, const uint8_t *src, size_t n, size_t *used, uint8_t *dst, size_t cap,
				    size_t *got)
{
	ZSTD_inBuffer in = { src, n, *used };
	ZSTD_outBuffer out = { dst, cap, *got };
	enum tfk_zs_status st = TFK_ZS_OK;
	for (;;) {
		if (out.pos == out.size) {
			st = TFK_ZS_NEED_ROOM; /* the caller grows dst (keeping its bytes) and calls again */
			break;
		}
		size_t before_in = in.pos, before_out = out.pos;
		size_t rc = ZSTD_decompressStream(zs, &out, &in);
		if (ZSTD_isError(rc)) {
			st = TFK_ZS_CORRUPT;
			break;
		}
		if (in.pos == in.size && out.pos < out.size)
			break; /* every byte read and everything it held flushed */
		if (in.pos == before_in && out.pos == before_out)
			break;
	}
	*used = in.pos;
	*got = out.pos;
	return st;
}

bool tfk_zstream_more(void *zs, const uint8_t *src, size_t n, size_t *used)
{
	uint8_t spare;
	ZSTD_inBuffer in = { src, n, *used };
	ZSTD_outBuffer probe = { &spare, 1, 0 };
	size_t rc = ZSTD_decompressStream(zs, &probe, &in);
	*used = in.pos;
	return ZSTD_isError(rc) || probe.pos > 0;
}
