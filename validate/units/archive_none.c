/* SPDX-License-Identifier: MIT */
/*
 * A build without libarchive (-DTFK_ARCHIVES=OFF: the fuzzers of OSS-Fuzz, whose runner image
 * has no libarchive): no file is taken for an archive, so each is checked as the file it is.
 */
#include "archive_unpack.h"

struct tfk_archive_info tfk_archive_probe(int fd)
{
	(void)fd;
	struct tfk_archive_info none = { TFK_ARCHIVE_NONE, "" };
	return none;
}

void tfk_archive_unpack(struct tfk_ctx *ctx, int fd, uint64_t packed_size, const struct tfk_archive_info *info,
			int dest, const char *single_name, uint64_t *entries, uint64_t max_entries,
			const struct timespec *deadline, struct tfk_archive_result *res)
{
	(void)ctx, (void)fd, (void)packed_size, (void)info, (void)dest, (void)single_name, (void)entries;
	(void)max_entries, (void)deadline;
	res->members = res->bytes = res->skipped = 0;
	res->cut = false;
}
