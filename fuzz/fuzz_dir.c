/* SPDX-License-Identifier: MIT */
#include "fuzz_dir.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_assert.h"
#include "test_hooks.h"

/* Remove path and what is below it (two levels: a directory format's subdirectory). */
static void remove_tree(const char *path, int depth)
{
	DIR *dir = opendir(path);
	if (!dir) {
		unlink(path);
		return;
	}
	for (struct dirent *e; (e = readdir(dir)) != NULL;) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		char p[1200];
		snprintf(p, sizeof(p), "%s/%s", path, e->d_name);
		if (e->d_type == DT_DIR && depth > 0)
			remove_tree(p, depth - 1);
		else
			FUZZ_ASSERT(unlink(p) == 0);
	}
	closedir(dir);
	FUZZ_ASSERT(rmdir(path) == 0);
}

static struct fz_dir *at_exit;

static void remove_at_exit(void)
{
	if (at_exit && at_exit->path[0])
		remove_tree(at_exit->path, 1);
}

bool fz_dir_known(const struct fz_dir *d, const char *member)
{
	for (size_t i = 0; i < d->n; i++)
		if (strcmp(d->names[i], member) == 0)
			return true;
	return false;
}

/* Is rel a path the harness writes: no empty, "." or ".." part, at most one '/' into subdir? */
static bool writable(const struct fz_dir *d, const char *rel)
{
	const char *slash = strchr(rel, '/');
	const char *leaf = slash ? slash + 1 : rel;
	if (slash && (!d->rules->subdir || strncmp(rel, d->rules->subdir, (size_t)(slash - rel)) != 0 ||
		      strlen(d->rules->subdir) != (size_t)(slash - rel) || strchr(leaf, '/')))
		return false;
	if (!slash && d->rules->subdir && strcmp(rel, d->rules->subdir) == 0)
		return false; /* the subdirectory's own name */
	return leaf[0] && strcmp(leaf, ".") != 0 && strcmp(leaf, "..") != 0 && !fz_dir_known(d, rel);
}

static void make_dir(struct fz_dir *d)
{
	/* In memory where the machine has it: every input writes its members, and repair writes
	 * and syncs a whole directory, which on a disk costs more than checking it. */
	const char *tmp = getenv("TMPDIR");
	if (!tmp || !*tmp)
		tmp = access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
	snprintf(d->path, sizeof(d->path), "%s/tfk-fuzz-%s-XXXXXX", tmp, d->rules->tag);
	FUZZ_ASSERT(mkdtemp(d->path) != NULL);
	at_exit = d;
	atexit(remove_at_exit);
}

void fz_dir_unpack(struct fz_dir *d, const uint8_t *data, size_t size)
{
	if (!d->path[0])
		make_dir(d);
	for (size_t i = 0; i < d->n; i++) {
		char p[700];
		snprintf(p, sizeof(p), "%s/%s", d->path, d->names[i]);
		unlink(p);
	}
	d->n = 0;
	d->hash = fuzz_input_hash(data, size);
	char sub[700] = "";
	if (d->rules->subdir) {
		snprintf(sub, sizeof(sub), "%s/%s", d->path, d->rules->subdir);
		if (d->rules->subdir_always)
			FUZZ_ASSERT(mkdir(sub, 0700) == 0 || errno == EEXIST);
		else
			rmdir(sub); /* emptied above: each input makes the directory it describes */
	}
	size_t pos = 0;
	while (pos < size && d->n < FZ_DIR_MEMBERS) {
		size_t nlen = data[pos++];
		if (nlen == 0 || nlen > FZ_DIR_NAME || nlen > size - pos)
			break;
		char name[FZ_DIR_NAME + 1], rel[FZ_DIR_NAME + 1];
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
		if (d->rules->place)
			d->rules->place(name, rel);
		else
			memcpy(rel, name, nlen + 1);
		if (!writable(d, rel)) {
			pos += len;
			continue;
		}
		if (strchr(rel, '/'))
			FUZZ_ASSERT(mkdir(sub, 0700) == 0 || errno == EEXIST);
		char p[700];
		snprintf(p, sizeof(p), "%s/%s", d->path, rel);
		if (kind == 1 && d->rules->fifos) {
			FUZZ_ASSERT(mkfifo(p, 0600) == 0);
		} else {
			int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
			FUZZ_ASSERT(fd >= 0);
			FUZZ_ASSERT(len == 0 || write(fd, data + pos, len) == (ssize_t)len);
			close(fd);
		}
		snprintf(d->names[d->n++], sizeof(d->names[0]), "%s", rel);
		pos += len;
	}
}

/* Repair the damaged directory: never FAILED; what it writes repairs to nothing again. */
static void repair_round_trip(const struct fz_dir *d, const struct tfk_limits *lim)
{
	char out[600], again[700];
	snprintf(out, sizeof(out), "%s.out", d->path);
	snprintf(again, sizeof(again), "%s.again", out);
	struct tfk_repair_report r;
	tfk_repair_dir(d->path, out, lim, &r);
	FUZZ_ASSERT(r.outcome != TFK_REPAIR_FAILED);
	if (r.outcome == TFK_REPAIR_DONE || r.outcome == TFK_REPAIR_NOTHING_SALVAGED) {
		struct tfk_repair_report r2;
		tfk_repair_dir(out, again, lim, &r2);
		FUZZ_ASSERT(r2.outcome == TFK_REPAIR_NOTHING_TO_DO);
		tfk_repair_report_free(&r2);
	}
	tfk_repair_report_free(&r);
	remove_tree(again, 1);
	remove_tree(out, 1);
}

void fz_dir_check(struct fz_dir *d, bool repair)
{
	struct tfk_limits lim = tfk_limits_default();
	lim.parser_timeout_ms = 0;
	lim.max_decoded = 16u << 20;
	struct tfk_report a, b;
	tfk_check_file_observed(d->path, &lim, NULL, &a);
	FUZZ_ASSERT(a.count <= lim.max_findings);
	FUZZ_ASSERT(a.total >= a.count);
	FUZZ_ASSERT(a.by_severity[0] + a.by_severity[1] + a.by_severity[2] == a.total);
	FUZZ_ASSERT((tfk_report_verdict(&a) == TFK_VERDICT_CLEAN) == (!a.incomplete && a.by_severity[TFK_SEV_ERROR] == 0));
	for (size_t i = 0; i < a.count; i++) {
		const struct tfk_finding *f = &a.findings[i];
		FUZZ_ASSERT(f->fault && tfk_catalog_find(f->fault->id) == f->fault);
		FUZZ_ASSERT(memchr(f->path, 0, sizeof(f->path)) && memchr(f->found, 0, sizeof(f->found)));
		/* a member the directory requires and lacks is named by the file that should be there */
		FUZZ_ASSERT(f->member[0] == 0 || fz_dir_known(d, f->member) ||
			    strcmp(f->fault->id, "core.input.member-missing") == 0 ||
			    (d->rules->names_absent && d->rules->names_absent(f)));
	}
	/*
	 * The costly oracles on a share of the inputs each, drawn independently from the input's
	 * hash (fuzz_sampled): checking again (an eighth) and the repair round trip (an eighth: it
	 * writes, syncs and checks two more directories). The check again takes the general
	 * way everywhere (no runs of plain uftrace records, no flat plans of CTF fields, on one
	 * thread): the fast paths must find exactly what it finds.
	 */
	if (d->every || fuzz_sampled(d->hash, 0, 8)) {
		struct tfk_test_hooks general = { .record_by_record = 1 };
		struct tfk_limits slow = lim;
		slow.test_hooks = &general;
		slow.threads = 1;
		tfk_check_file_observed(d->path, &slow, NULL, &b);
		FUZZ_ASSERT(a.count == b.count && a.total == b.total);
		FUZZ_ASSERT(memcmp(a.by_severity, b.by_severity, sizeof(a.by_severity)) == 0);
		FUZZ_ASSERT(a.stats.events == b.stats.events);
		FUZZ_ASSERT(a.count == 0 || memcmp(a.findings, b.findings, a.count * sizeof(*a.findings)) == 0);
		tfk_report_free(&b);
	}
	if (repair && (d->every || fuzz_sampled(d->hash, 1, 8)) && tfk_report_verdict(&a) != TFK_VERDICT_CLEAN &&
	    a.stats.format)
		repair_round_trip(d, &lim);
	tfk_report_free(&a);
}
