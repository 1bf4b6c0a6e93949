/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: any bytes as a legacy LTTng 0.x trace directory, so that the marker metadata
 * (control/facilities_N, metadata_N), the events measured from it and the directory repair
 * see fuzzed bytes. The input is the container of fuzz_uftrace.c: members {u8 name length,
 * name, u8 kind, u32 little-endian size, bytes} (a size past the input is cut to what is
 * left); a name beginning "control." is written as control/<rest>. Oracles: the report stays
 * within its limits, the verdict agrees with the counts, every finding names a catalog code
 * and a member that was written (or the directory), checking twice gives the same findings,
 * and the repair round trip: a damaged directory repairs (tfk_repair_dir) to an output that
 * re-checks clean, or is refused, never FAILED, and the output repairs to nothing again.
 * Seeds: corpus/lttng0-dir, written by `test_lttng0 --dir-corpus DIR` from the fixture writer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_assert.h"
#include "tracefsck/tracefsck.h"

#define MAX_MEMBERS 64
#define NAME_MAX_LEN 64

static char dir[512];
static char names[MAX_MEMBERS][NAME_MAX_LEN + 1];
static size_t n_names;

static void clear_dir(void)
{
	for (size_t i = 0; i < n_names; i++) {
		char p[600];
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	n_names = 0;
}

static void remove_dir(void)
{
	clear_dir();
	if (dir[0]) {
		char sub[600];
		snprintf(sub, sizeof(sub), "%s/control", dir);
		rmdir(sub);
		rmdir(dir);
	}
}

static bool known(const char *name)
{
	for (size_t i = 0; i < n_names; i++)
		if (strcmp(names[i], name) == 0)
			return true;
	return false;
}

/* Unpack the container into the directory. */
static void unpack(const uint8_t *data, size_t size)
{
	size_t pos = 0;
	while (pos < size && n_names < MAX_MEMBERS) {
		size_t nlen = data[pos++];
		if (nlen == 0 || nlen > NAME_MAX_LEN || nlen > size - pos)
			break;
		char name[NAME_MAX_LEN + 1];
		for (size_t i = 0; i < nlen; i++) {
			char ch = (char)data[pos + i];
			bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
				  ch == '.' || ch == '-' || ch == '_';
			name[i] = ok ? ch : '_';
		}
		name[nlen] = 0;
		pos += nlen;
		if (size - pos < 5)
			break;
		uint8_t kind = data[pos];
		uint32_t len = (uint32_t)data[pos + 1] | (uint32_t)data[pos + 2] << 8 | (uint32_t)data[pos + 3] << 16 |
			       (uint32_t)data[pos + 4] << 24;
		pos += 5;
		if (len > size - pos)
			len = (uint32_t)(size - pos);
		/* "control" is kept for the directory; "control.." would name control/ itself. */
		if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0 || strcmp(name, "control") == 0 ||
		    strcmp(name, "control..") == 0 || strcmp(name, "control...") == 0 || known(name)) {
			pos += len;
			continue;
		}
		if (strncmp(name, "control.", 8) == 0 && nlen > 8) {
			char sub[600];
			snprintf(sub, sizeof(sub), "%s/control", dir);
			FUZZ_ASSERT(mkdir(sub, 0700) == 0 || errno == EEXIST);
			name[7] = '/';
			if (known(name)) {
				pos += len;
				continue;
			}
		}
		char p[600];
		snprintf(p, sizeof(p), "%s/%s", dir, name);
		if (kind == 1) {
			FUZZ_ASSERT(mkfifo(p, 0600) == 0);
		} else {
			int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			FUZZ_ASSERT(fd >= 0);
			FUZZ_ASSERT(len == 0 || write(fd, data + pos, len) == (ssize_t)len);
			close(fd);
		}
		memcpy(names[n_names++], name, nlen + 1);
		pos += len;
	}
}

/* Remove the repair output: members of the input, and control/ with its members. */
static void remove_flat(const char *path)
{
	DIR *d = opendir(path);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (strcmp(e->d_name, "control") == 0 && e->d_type == DT_DIR) {
			char sub[800];
			snprintf(sub, sizeof(sub), "%s/control", path);
			remove_flat(sub);
			continue;
		}
		FUZZ_ASSERT(unlinkat(dirfd(d), e->d_name, 0) == 0);
	}
	closedir(d);
	FUZZ_ASSERT(rmdir(path) == 0);
}

/* Repair the damaged directory: never FAILED; what it writes repairs to nothing again. */
static void repair_round_trip(const struct tfk_limits *lim)
{
	char out[600], again[700];
	snprintf(out, sizeof(out), "%s.out", dir);
	snprintf(again, sizeof(again), "%s.again", out);
	struct tfk_repair_report r;
	tfk_repair_dir(dir, out, lim, &r);
	FUZZ_ASSERT(r.outcome != TFK_REPAIR_FAILED);
	if (r.outcome == TFK_REPAIR_DONE || r.outcome == TFK_REPAIR_NOTHING_SALVAGED) {
		struct tfk_repair_report r2;
		tfk_repair_dir(out, again, lim, &r2);
		FUZZ_ASSERT(r2.outcome == TFK_REPAIR_NOTHING_TO_DO);
		tfk_repair_report_free(&r2);
	}
	tfk_repair_report_free(&r);
	remove_flat(again);
	remove_flat(out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		const char *tmp = getenv("TMPDIR");
		snprintf(dir, sizeof(dir), "%s/tfk-fuzz-lttng0-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		FUZZ_ASSERT(mkdtemp(dir) != NULL);
		atexit(remove_dir);
	}
	clear_dir();
	unpack(data, size);

	struct tfk_limits lim = tfk_limits_default();
	lim.parser_timeout_ms = 0;
	lim.max_decoded = 16u << 20;
	struct tfk_report a, b;
	tfk_check_file_observed(dir, &lim, NULL, &a);
	FUZZ_ASSERT(a.count <= lim.max_findings);
	FUZZ_ASSERT(a.total >= a.count);
	FUZZ_ASSERT(a.by_severity[0] + a.by_severity[1] + a.by_severity[2] == a.total);
	FUZZ_ASSERT((tfk_report_verdict(&a) == TFK_VERDICT_CLEAN) == (!a.incomplete && a.by_severity[TFK_SEV_ERROR] == 0));
	for (size_t i = 0; i < a.count; i++) {
		const struct tfk_finding *f = &a.findings[i];
		FUZZ_ASSERT(f->fault && tfk_catalog_find(f->fault->id) == f->fault);
		FUZZ_ASSERT(memchr(f->path, 0, sizeof(f->path)) && memchr(f->found, 0, sizeof(f->found)));
		FUZZ_ASSERT(f->member[0] == 0 || known(f->member));
	}
	tfk_check_file_observed(dir, &lim, NULL, &b);
	FUZZ_ASSERT(a.count == b.count && a.total == b.total);
	FUZZ_ASSERT(memcmp(a.by_severity, b.by_severity, sizeof(a.by_severity)) == 0);
	FUZZ_ASSERT(a.stats.events == b.stats.events);
	FUZZ_ASSERT(a.count == 0 || memcmp(a.findings, b.findings, a.count * sizeof(*a.findings)) == 0);
	if (tfk_report_verdict(&a) != TFK_VERDICT_CLEAN && a.stats.format)
		repair_round_trip(&lim);
	tfk_report_free(&a);
	tfk_report_free(&b);
	return 0;
}
