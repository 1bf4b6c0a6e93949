/* SPDX-License-Identifier: MIT */
/*
 * Archives unpacked into a private directory, member by member, streamed: names are made safe
 * (no absolute path, no "..", no link, no device is ever written), and members, bytes, the
 * compression ratio and time are bounded; every bound reached is a finding.
 */
#include <archive.h>
#include <archive_entry.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../input.h"
#include "archive_unpack.h"
#include "tracefsck/units.h"

#define HEAD 512
#define CHUNK (64u << 10)
#define RATIO_FLOOR (64ull << 20) /* below this many bytes unpacked, any ratio is allowed */

/* Do the file's first bytes (c) hold magic at offset at? */
static bool has(const struct tfk_cursor *c, uint64_t at, const char *magic, size_t len)
{
	const uint8_t *p;
	return tfk_cur_bytes_at(c, at, len, &p) && memcmp(p, magic, len) == 0;
}

/* The filters and formats an upload may come in: no others (uuencode, rpm, cab, ...). */
static struct archive *reader(enum tfk_archive_kind kind)
{
	struct archive *a = archive_read_new();
	if (!a)
		return NULL;
	archive_read_support_filter_gzip(a);
	archive_read_support_filter_xz(a);
	archive_read_support_filter_zstd(a);
	archive_read_support_filter_bzip2(a);
	if (kind == TFK_ARCHIVE_BZIP2) {
		archive_read_support_format_raw(a);
	} else {
		archive_read_support_format_tar(a);
		archive_read_support_format_gnutar(a);
		archive_read_support_format_zip(a);
	}
	return a;
}

static const char *tar_kind(struct archive *a)
{
	switch (archive_filter_code(a, 0)) {
	case ARCHIVE_FILTER_GZIP: return "tar.gz";
	case ARCHIVE_FILTER_XZ: return "tar.xz";
	case ARCHIVE_FILTER_ZSTD: return "tar.zst";
	case ARCHIVE_FILTER_BZIP2: return "tar.bz2";
	default: return "tar";
	}
}

struct tfk_archive_info tfk_archive_probe(int fd)
{
	struct tfk_archive_info info = { TFK_ARCHIVE_NONE, "" };
	uint8_t head[HEAD];
	ssize_t got = pread(fd, head, sizeof(head), 0);
	struct tfk_cursor c = tfk_cur_make(head, got > 0 ? (size_t)got : 0, 0, false);
	if (has(&c, 0, "PK\3\4", 4) || has(&c, 0, "PK\5\6", 4)) {
		info.kind = TFK_ARCHIVE_ZIP;
		snprintf(info.kind_name, sizeof(info.kind_name), "zip");
		return info;
	}
	if (has(&c, 257, "ustar", 5)) {
		info.kind = TFK_ARCHIVE_TAR;
		snprintf(info.kind_name, sizeof(info.kind_name), "tar");
		return info;
	}
	bool bz2 = has(&c, 0, "BZh", 3);
	bool packed = bz2 || has(&c, 0, "\x1f\x8b", 2) || has(&c, 0, "\xfd" "7zXZ\0", 6) ||
		      has(&c, 0, "\x28\xb5\x2f\xfd", 4);
	if (!packed)
		return info;
	/* A compressed file: a tar inside, or a single trace (which the check decompresses itself). */
	struct archive *a = reader(TFK_ARCHIVE_TAR);
	struct archive_entry *e;
	if (a && lseek(fd, 0, SEEK_SET) == 0 && archive_read_open_fd(a, fd, CHUNK) == ARCHIVE_OK) {
		int r = archive_read_next_header(a, &e);
		if ((r == ARCHIVE_OK || r == ARCHIVE_WARN) &&
		    (archive_format(a) & ARCHIVE_FORMAT_BASE_MASK) == ARCHIVE_FORMAT_TAR) {
			info.kind = TFK_ARCHIVE_TAR;
			snprintf(info.kind_name, sizeof(info.kind_name), "%s", tar_kind(a));
		}
	}
	if (a)
		archive_read_free(a);
	if (info.kind == TFK_ARCHIVE_NONE && bz2) {
		/* bzip2 is the one compression the check does not read itself: unpacked as a folder of one */
		info.kind = TFK_ARCHIVE_BZIP2;
		snprintf(info.kind_name, sizeof(info.kind_name), "bz2");
	}
	return info;
}

/*
 * The member's name made relative and plain: "./" and empty parts dropped. False (why set)
 * for an absolute name, a ".." part or a name too long for a member.
 */
static bool safe_name(const char *name, char *out, size_t cap, const char **why)
{
	if (name[0] == '/') {
		*why = "an absolute name";
		return false;
	}
	size_t len = 0;
	for (const char *p = name; *p;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			*why = "a name that climbs out with ..";
			return false;
		}
		if (n && !(n == 1 && p[0] == '.')) {
			if (len + n + 2 > cap) {
				*why = "a name too long";
				return false;
			}
			if (len)
				out[len++] = '/';
			memcpy(out + len, p, n);
			len += n;
		}
		p += n + (slash ? 1 : 0);
	}
	out[len] = '\0';
	if (!len) {
		*why = "an empty name";
		return false;
	}
	return true;
}

/* Open (making it if need be) the folder of every part of name but the last, beneath dest. */
static int parent_of(int dest, const char *name, const char **base)
{
	char part[TFK_MEMBER_NAME_MAX];
	int cur = dest;
	const char *p = name;
	for (const char *slash; (slash = strchr(p, '/')) != NULL; p = slash + 1) {
		size_t n = (size_t)(slash - p);
		memcpy(part, p, n);
		part[n] = '\0';
		if (mkdirat(cur, part, 0700) != 0 && errno != EEXIST) {
			if (cur != dest)
				close(cur);
			return -1;
		}
		int next = openat(cur, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cur != dest)
			close(cur);
		if (next < 0)
			return -1;
		cur = next;
	}
	*base = p;
	return cur == dest ? dup(dest) : cur;
}

static void skipped(struct tfk_ctx *ctx, const char *name, const char *why, struct tfk_archive_result *res)
{
	const char *was = ctx->member;
	ctx->member = name;
	struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_ARCHIVE_MEMBER_SKIPPED);
	tfk_set_path(f, "archive member");
	tfk_set_expected(f, "a regular file or a folder, named inside the archive");
	tfk_set_found(f, "%s", why);
	ctx->member = was;
	res->skipped++;
}

static void damaged(struct tfk_ctx *ctx, struct archive *a, const char *name)
{
	const char *was = ctx->member;
	ctx->member = name;
	struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_COMPRESSION_DAMAGED);
	tfk_set_path(f, "archive");
	tfk_set_expected(f, "an archive that unpacks to its end");
	const char *msg = archive_error_string(a);
	tfk_set_found(f, "%s", msg ? msg : "a read error");
	ctx->member = was;
	ctx->report->incomplete = true;
}

static bool past(const struct timespec *deadline)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > deadline->tv_sec || (now.tv_sec == deadline->tv_sec && now.tv_nsec >= deadline->tv_nsec);
}

/* Copy the current member's data into out; false when the unpacking must stop. */
static bool copy_data(struct tfk_ctx *ctx, struct archive *a, int out, const char *name, uint64_t packed_size,
		      const struct timespec *deadline, struct tfk_archive_result *res)
{
	static const size_t chunk = CHUNK;
	uint8_t buf[CHUNK];
	uint64_t cap = ctx->limits->max_input_bytes;
	for (;;) {
		la_ssize_t n = archive_read_data(a, buf, chunk);
		if (n == 0)
			return true;
		if (n < 0) {
			damaged(ctx, a, name);
			return false;
		}
		size_t take = (size_t)n;
		bool over = res->bytes + take > cap;
		if (over)
			take = (size_t)(cap - res->bytes);
		for (size_t done = 0; done < take;) {
			ssize_t w = write(out, buf + done, take - done);
			if (w <= 0) {
				const char *was = ctx->member;
				ctx->member = name;
				struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_IO_ERROR);
				tfk_set_path(f, "unpacking into the temporary directory");
				tfk_set_found(f, "%s", strerror(w < 0 ? errno : ENOSPC));
				ctx->member = was;
				ctx->report->incomplete = true;
				return false;
			}
			done += (size_t)w;
		}
		res->bytes += take;
		if (over) {
			tfk_limit_hit(ctx, 0, "bytes unpacked from an archive", res->bytes + 1, cap);
			res->cut = true;
			return false;
		}
		uint64_t packed = packed_size ? packed_size : 1;
		if (res->bytes > RATIO_FLOOR && res->bytes / packed > TFK_ARCHIVE_MAX_RATIO) {
			tfk_limit_hit(ctx, 0, "bytes unpacked per byte of an archive", res->bytes / packed, TFK_ARCHIVE_MAX_RATIO);
			res->cut = true;
			return false;
		}
		if (past(deadline)) {
			tfk_limit_hit(ctx, 0, "milliseconds spent searching a folder", TFK_UNITS_DEADLINE_MS + 1,
				      TFK_UNITS_DEADLINE_MS);
			res->cut = true;
			return false;
		}
	}
}

void tfk_archive_unpack(struct tfk_ctx *ctx, int fd, uint64_t packed_size, const struct tfk_archive_info *info,
			int dest, const char *single_name, uint64_t *entries, uint64_t max_entries,
			const struct timespec *deadline, struct tfk_archive_result *res)
{
	memset(res, 0, sizeof(*res));
	struct archive *a = reader(info->kind);
	if (!a || lseek(fd, 0, SEEK_SET) != 0 || archive_read_open_fd(a, fd, CHUNK) != ARCHIVE_OK) {
		if (a)
			damaged(ctx, a, NULL);
		if (a)
			archive_read_free(a);
		return;
	}
	char name[TFK_MEMBER_NAME_MAX];
	for (;;) {
		struct archive_entry *e;
		int r = archive_read_next_header(a, &e);
		if (r == ARCHIVE_EOF)
			break;
		if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
			damaged(ctx, a, NULL);
			break;
		}
		if (++*entries > max_entries) {
			tfk_limit_hit(ctx, 0, "entries examined in a folder and its archives", *entries, max_entries);
			res->cut = true;
			break;
		}
		if (res->members >= ctx->limits->max_members) {
			tfk_limit_hit(ctx, 0, "members of an archive", res->members + 1, ctx->limits->max_members);
			res->cut = true;
			break;
		}
		if (past(deadline)) {
			tfk_limit_hit(ctx, 0, "milliseconds spent searching a folder", TFK_UNITS_DEADLINE_MS + 1,
				      TFK_UNITS_DEADLINE_MS);
			res->cut = true;
			break;
		}
		const char *raw = info->kind == TFK_ARCHIVE_BZIP2 ? single_name : archive_entry_pathname(e);
		const char *why = NULL;
		if (!raw) {
			skipped(ctx, NULL, "a member without a name", res);
			continue;
		}
		if (!safe_name(raw, name, sizeof(name), &why)) {
			if (strcmp(why, "an empty name") != 0 || archive_entry_filetype(e) != AE_IFDIR)
				skipped(ctx, raw, why, res); /* "./", the archive's own top, is no member */
			continue;
		}
		mode_t type = info->kind == TFK_ARCHIVE_BZIP2 ? AE_IFREG : archive_entry_filetype(e);
		if (info->kind != TFK_ARCHIVE_BZIP2 && archive_entry_hardlink(e)) {
			skipped(ctx, name, "a hard link (links are never written)", res);
			continue;
		}
		if (type == AE_IFLNK) {
			skipped(ctx, name, "a symbolic link (links are never written)", res);
			continue;
		}
		if (type != AE_IFREG && type != AE_IFDIR) {
			skipped(ctx, name, "a device, FIFO or socket", res);
			continue;
		}
		const char *base;
		int parent = parent_of(dest, name, &base);
		int out = -1;
		if (parent >= 0) {
			if (type == AE_IFDIR)
				out = mkdirat(parent, base, 0700) == 0 || errno == EEXIST ? 0 : -1;
			else
				out = openat(parent, base, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
			close(parent);
		}
		if (out < 0) {
			/* a file where a folder of the same name was (or the reverse): the archive contradicts itself */
			skipped(ctx, name, "a name the archive uses for a file and a folder both", res);
			continue;
		}
		res->members++;
		if (type == AE_IFDIR)
			continue;
		bool go_on = copy_data(ctx, a, out, name, packed_size, deadline, res);
		close(out);
		if (!go_on)
			break;
	}
	archive_read_free(a);
}
