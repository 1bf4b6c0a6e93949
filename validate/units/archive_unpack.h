/* SPDX-License-Identifier: MIT */
/*
 * Archives read as folders: tar (plain, gzip, xz, zstd, bzip2) and zip, and a single file
 * compressed with bzip2, through libarchive (Debian's libarchive13: one library for every
 * container and filter uploads arrive in, streaming, with no member ever held whole).
 */
#ifndef TFK_UNITS_ARCHIVE_UNPACK_H
#define TFK_UNITS_ARCHIVE_UNPACK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "../context.h"

enum tfk_archive_kind {
	TFK_ARCHIVE_NONE = 0,
	TFK_ARCHIVE_TAR,      /* a tar, perhaps compressed whole (kind_name says how) */
	TFK_ARCHIVE_ZIP,
	TFK_ARCHIVE_BZIP2,    /* one file compressed with bzip2 (not a tar inside) */
};

struct tfk_archive_info {
	enum tfk_archive_kind kind;
	char kind_name[16];   /* "tar", "tar.gz", "tar.xz", "tar.zst", "tar.bz2", "zip", "bz2" */
};

/* What the archive open at fd is (its position may move); TFK_ARCHIVE_NONE for anything else. */
struct tfk_archive_info tfk_archive_probe(int fd);

struct tfk_archive_result {
	uint64_t members;      /* regular files and folders written */
	uint64_t bytes;        /* bytes unpacked */
	uint64_t skipped;      /* members not written (each a core.archive.member-skipped finding) */
	bool cut;              /* a bound stopped the unpacking (a core.limit.reached finding) */
};

/*
 * Unpack the archive open at fd into the empty directory open at dest, within the bounds of
 * ctx->limits (members, bytes), a compression ratio and the deadline; every bound reached, every
 * member skipped and a damaged archive are findings in ctx. single_name names the file a
 * TFK_ARCHIVE_BZIP2 unpacks to. *entries counts every member examined against max_entries.
 */
void tfk_archive_unpack(struct tfk_ctx *ctx, int fd, uint64_t packed_size, const struct tfk_archive_info *info,
			int dest, const char *single_name, uint64_t *entries, uint64_t max_entries,
			const struct timespec *deadline, struct tfk_archive_result *res);

#endif
