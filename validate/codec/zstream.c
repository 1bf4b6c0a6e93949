/* SPDX-License-Identifier: MIT */
/*
 * A zstd stream decoded piece by piece (zstream.h); perf record -z writes one for the whole
 * recording (spec 7, errata), a piece in each COMPRESSED record.
 */
#include <stdlib.h>
#define ZSTD_STATIC_LINKING_ONLY /* ZSTD_nextInputType: where in a frame the decoder stands */
#include <zstd.h>

#include "zstream.h"

struct zs {
	ZSTD_DCtx *d;
	size_t last;  /* what the last ZSTD_decompressStream returned: bytes it wants next */
	bool fed;     /* input went in since the reset */
};

void *tfk_zstream_new(void)
{
	struct zs *z = calloc(1, sizeof(*z));
	if (!z)
		return NULL;
	z->d = ZSTD_createDCtx();
	if (!z->d) {
		free(z);
		return NULL;
	}
	ZSTD_DCtx_setParameter(z->d, ZSTD_d_windowLogMax, 27); /* perf's own windows are far smaller */
	return z;
}

void tfk_zstream_reset(void *zs)
{
	struct zs *z = zs;
	if (z) {
		ZSTD_DCtx_reset(z->d, ZSTD_reset_session_only);
		z->fed = false;
		z->last = 0;
	}
}

void tfk_zstream_free(void *zs)
{
	struct zs *z = zs;
	if (z)
		ZSTD_freeDCtx(z->d);
	free(z);
}

bool tfk_zstream_at_boundary(const void *zs)
{
	const struct zs *z = zs;
	if (!z || !z->fed || z->last == 0)
		return true; /* nothing read yet, or a frame ended */
	/* Waiting for a whole block header (3 bytes) with none of it read: a block just ended. */
	return z->last == 3 && ZSTD_nextInputType(z->d) == ZSTDnit_blockHeader;
}

bool tfk_zstream_is_frame_start(const uint8_t *src, size_t n)
{
	return n >= 4 && src[0] == 0x28 && src[1] == 0xb5 && src[2] == 0x2f && src[3] == 0xfd;
}

enum tfk_zs_status tfk_zstream_decode(void *zs, const uint8_t *src, size_t n, size_t *used, uint8_t *dst, size_t cap,
				    size_t *got)
{
	struct zs *z = zs;
	ZSTD_inBuffer in = { src, n, *used };
	ZSTD_outBuffer out = { dst, cap, *got };
	enum tfk_zs_status st = TFK_ZS_OK;
	z->fed |= n > *used;
	for (;;) {
		if (out.pos == out.size) {
			st = TFK_ZS_NEED_ROOM; /* the caller grows dst (keeping its bytes) and calls again */
			break;
		}
		size_t before_in = in.pos, before_out = out.pos;
		size_t rc = ZSTD_decompressStream(z->d, &out, &in);
		if (ZSTD_isError(rc)) {
			st = TFK_ZS_CORRUPT;
			break;
		}
		z->last = rc;
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
	struct zs *z = zs;
	uint8_t spare;
	ZSTD_inBuffer in = { src, n, *used };
	ZSTD_outBuffer probe = { &spare, 1, 0 };
	size_t rc = ZSTD_decompressStream(z->d, &probe, &in);
	if (!ZSTD_isError(rc))
		z->last = rc;
	*used = in.pos;
	return ZSTD_isError(rc) || probe.pos > 0;
}
