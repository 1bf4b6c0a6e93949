/* SPDX-License-Identifier: MIT */
/*
 * Finding the trace units of an operand. A directory is a unit when a directory format claims
 * it as a whole (its sniff_dir); otherwise it is a folder, searched entry by entry, sorted by
 * name, never through a link, bounded in depth, entries and time. Regular files are units of
 * their own, or archives, unpacked beneath the run's scratch directory and searched the same
 * way. What a folder or an archive itself says (bounds reached, members skipped, no trace in
 * it) is a container unit placed before its units.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "../context.h"
#include "../formats/formats.h"
#include "../grow.h"
#include "../input.h"
#include "../load.h"
#include "archive_unpack.h"
#include "tracefsck/units.h"

struct search {
	struct tfk_units *units;
	const struct tfk_limits *limits;
	uint64_t entries;
	struct timespec deadline;
	unsigned archives;     /* archives unpacked so far (names their scratch folders) */
	bool oom;
};

/* A folder's or an archive's own findings, made when the first one comes. */
struct container {
	size_t at;             /* where its unit goes: before the units found in it */
	const char *name;
	size_t traces_before;
	struct tfk_report *report;
	struct tfk_ctx ctx;
};

static char *join(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	char *s = malloc(la + lb + 2);
	if (!s)
		return NULL;
	memcpy(s, a, la);
	size_t at = la;
	if (la && a[la - 1] != '/')
		s[at++] = '/';
	memcpy(s + at, b, lb + 1);
	return s;
}

static struct tfk_unit *push(struct search *s, enum tfk_unit_kind kind, const char *name, const char *path)
{
	struct tfk_units *u = s->units;
	void *v = u->v;
	bool grown = tfk_array_grow(&v, &u->cap, u->n + 1, sizeof(*u->v), 0);
	u->v = v;
	if (!grown) {
		s->oom = true;
		return NULL;
	}
	struct tfk_unit *unit = &u->v[u->n];
	memset(unit, 0, sizeof(*unit));
	unit->kind = kind;
	unit->name = strdup(name);
	unit->path = path ? strdup(path) : NULL;
	if (!unit->name || (path && !unit->path)) {
		free(unit->name);
		free(unit->path);
		s->oom = true;
		return NULL;
	}
	u->n++;
	return unit;
}

static size_t traces(const struct search *s)
{
	size_t n = 0;
	for (size_t i = 0; i < s->units->n; i++)
		n += s->units->v[i].kind == TFK_UNIT_TRACE;
	return n;
}

static void container_begin(struct search *s, struct container *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	c->at = s->units->n;
	c->name = name;
	c->traces_before = traces(s);
}

/* The container's context, its report made on first use (NULL when memory ran out). */
static struct tfk_ctx *container_ctx(struct search *s, struct container *c)
{
	if (!c->report) {
		c->report = calloc(1, sizeof(*c->report));
		if (!c->report) {
			s->oom = true;
			return NULL;
		}
		tfk_ctx_init(&c->ctx, s->limits, c->report);
	}
	return &c->ctx;
}

/* Place the container's unit before the units found in it, if it has anything to say. */
static void container_end(struct search *s, struct container *c, bool always)
{
	if (!s->oom && traces(s) == c->traces_before) {
		struct tfk_ctx *ctx = container_ctx(s, c);
		struct tfk_finding *f = ctx ? tfk_emit_nooffset(ctx, TFK_CORE_INPUT_NO_TRACE) : NULL;
		tfk_set_path(f, "folder");
		tfk_set_expected(f, "at least one trace file or trace directory of a format this build knows");
		tfk_set_found(f, "none among %zu entries", s->units->n - c->at);
		if (ctx)
			ctx->report->incomplete = true;
	}
	if (!c->report && !always)
		return;
	if (!c->report && !container_ctx(s, c))
		return;
	struct tfk_unit *unit = push(s, TFK_UNIT_CONTAINER, c->name, NULL);
	if (!unit) {
		tfk_report_free(c->report);
		free(c->report);
		return;
	}
	struct tfk_unit made = *unit;
	made.report = c->report;
	struct tfk_unit *v = s->units->v;
	memmove(&v[c->at + 1], &v[c->at], (s->units->n - 1 - c->at) * sizeof(*v));
	v[c->at] = made;
}

static bool over_deadline(const struct search *s)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return now.tv_sec > s->deadline.tv_sec || (now.tv_sec == s->deadline.tv_sec && now.tv_nsec >= s->deadline.tv_nsec);
}

/* Does a directory format claim the directory open at fd (taken over) as one trace? */
static bool is_trace_dir(const struct search *s, int fd)
{
	struct tfk_input in;
	if (tfk_input_list(&in, fd, s->limits->max_members) != 0)
		return false;
	bool yes = tfk_format_of(NULL, &in) != NULL;
	tfk_input_close(&in);
	return yes;
}

static void search_dir(struct search *s, struct container *c, int fd, const char *path, const char *name,
		       unsigned depth, unsigned nesting);

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Scratch folder for the next archive, beneath the run's private directory (made on first use). */
static int scratch_dir(struct search *s, char *out, size_t cap)
{
	struct tfk_units *u = s->units;
	if (!u->scratch[0]) {
		const char *tmp = getenv("TMPDIR");
		int n = snprintf(u->scratch, sizeof(u->scratch), "%s/tracefsck-XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (n < 0 || (size_t)n >= sizeof(u->scratch) || !mkdtemp(u->scratch)) {
			u->scratch[0] = '\0';
			return -1;
		}
	}
	int n = snprintf(out, cap, "%s/a%u", u->scratch, ++s->archives);
	if (n < 0 || (size_t)n >= cap || mkdir(out, 0700) != 0)
		return -1;
	return open(out, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* The name a bzip2-compressed file unpacks to: its own, less the suffix. */
static void single_name(const char *name, char *out, size_t cap)
{
	const char *base = strrchr(name, '/');
	base = base ? base + 1 : name;
	size_t n = strlen(base);
	if (n > 4 && strcmp(base + n - 4, ".bz2") == 0)
		n -= 4;
	else if (n > 4 && strcmp(base + n - 4, ".tbz") == 0)
		n -= 4;
	snprintf(out, cap, "%.*s", (int)(n ? n : 1), n ? base : "_");
}

/*
 * An archive open at fd: unpacked and searched. Its container unit says what it held; its
 * units are named ARCHIVE/MEMBER (or ARCHIVE, when the archive holds one trace directory's
 * members at its top, or is one compressed file).
 */
static void search_archive(struct search *s, int fd, const struct tfk_archive_info *info, const char *name,
			   unsigned nesting)
{
	struct container c;
	container_begin(s, &c, name);
	struct tfk_ctx *ctx = container_ctx(s, &c);
	char dir[4096 + 32];
	int dest = ctx ? scratch_dir(s, dir, sizeof(dir)) : -1;
	if (dest < 0) {
		struct tfk_finding *f = ctx ? tfk_emit_nooffset(ctx, TFK_CORE_INPUT_IO_ERROR) : NULL;
		tfk_set_path(f, "a private temporary directory to unpack the archive into");
		tfk_set_found(f, "%s", strerror(errno));
		if (ctx)
			ctx->report->incomplete = true;
		container_end(s, &c, true);
		return;
	}
	struct stat st;
	uint64_t packed = fstat(fd, &st) == 0 ? (uint64_t)st.st_size : 0;
	char single[TFK_MEMBER_NAME_MAX];
	single_name(name, single, sizeof(single));
	struct tfk_archive_result res;
	tfk_archive_unpack(ctx, fd, packed, info, dest, single, &s->entries, TFK_UNITS_MAX_ENTRIES, &s->deadline, &res);
	struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_ARCHIVE);
	tfk_set_path(f, "%s archive", info->kind_name);
	tfk_set_found(f, "%llu members, %llu bytes unpacked%s", (unsigned long long)res.members,
		      (unsigned long long)res.bytes, res.skipped ? ", some skipped" : "");
	ctx->report->stats.file_size = packed;
	if (info->kind == TFK_ARCHIVE_BZIP2) {
		/* one file: the unit is the archive itself, checked as what it decompresses to */
		char *path = join(dir, single);
		if (path && res.members) {
			struct tfk_unit *u = push(s, TFK_UNIT_TRACE, name, path);
			if (u)
				u->in_folder = true;
		}
		free(path);
		close(dest);
		container_end(s, &c, true);
		return;
	}
	if (is_trace_dir(s, dup(dest))) {
		push(s, TFK_UNIT_TRACE, name, dir);
	} else {
		search_dir(s, &c, dest, dir, name, 0, nesting);
	}
	close(dest);
	container_end(s, &c, true);
}

/*
 * Could the regular file open at fd be a trace: a format's sniff claims it, or it is compressed
 * whole (the check decompresses it)? A folder's junk is told apart here, so that a folder of
 * nothing but junk holds no trace (core.input.no-trace).
 */
static bool sniffed(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size <= 0 || (uint64_t)st.st_size > SIZE_MAX)
		return false;
	void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (p == MAP_FAILED)
		return true; /* its check says why it cannot be read */
	struct tfk_cursor c = tfk_cur_make(p, (size_t)st.st_size, 0, false);
	bool yes = tfk_packing_of(p, (size_t)st.st_size) != TFK_PACKING_NONE || tfk_format_of(&c, NULL) != NULL;
	munmap(p, (size_t)st.st_size);
	return yes;
}

/* A regular file found in a folder (or given): an archive to search, or a unit to check. */
static void found_file(struct search *s, int fd, const char *path, const char *name, unsigned nesting,
		       bool in_folder)
{
	struct tfk_archive_info info = tfk_archive_probe(fd);
	if (info.kind != TFK_ARCHIVE_NONE && nesting < TFK_UNITS_MAX_ARCHIVE_NESTING) {
		search_archive(s, fd, &info, name, nesting + 1);
		return;
	}
	if (in_folder && !sniffed(fd)) {
		struct tfk_unit *u = push(s, TFK_UNIT_NOT_A_TRACE, name, NULL);
		if (u)
			u->what = "a file that no format recognises";
		return;
	}
	struct tfk_unit *u = push(s, TFK_UNIT_TRACE, name, path);
	if (u)
		u->in_folder = in_folder;
}

static void not_a_trace(struct search *s, const char *name, const char *what)
{
	struct tfk_unit *u = push(s, TFK_UNIT_NOT_A_TRACE, name, NULL);
	if (u)
		u->what = what;
}

static void limit(struct search *s, struct container *c, const char *what, uint64_t value, uint64_t cap)
{
	struct tfk_ctx *ctx = container_ctx(s, c);
	if (ctx)
		tfk_limit_hit(ctx, 0, what, value, cap);
}

/* One entry of a folder: a trace directory, a folder to search, a file, or not a trace. */
static void search_entry(struct search *s, struct container *c, int dirfd, const char *path, const char *name,
			 const char *entry, unsigned depth, unsigned nesting)
{
	struct stat st;
	char *cpath = join(path, entry), *cname = join(name, entry);
	if (!cpath || !cname) {
		s->oom = true;
		goto out;
	}
	if (fstatat(dirfd, entry, &st, AT_SYMLINK_NOFOLLOW) != 0) {
		struct tfk_ctx *ctx = container_ctx(s, c);
		const char *was = ctx ? ctx->member : NULL;
		if (ctx)
			ctx->member = entry;
		struct tfk_finding *f = ctx ? tfk_emit_nooffset(ctx, TFK_CORE_INPUT_IO_ERROR) : NULL;
		tfk_set_path(f, "an entry of the folder");
		tfk_set_found(f, "%s", strerror(errno));
		if (ctx) {
			ctx->member = was;
			ctx->report->incomplete = true;
		}
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		int sub = openat(dirfd, entry, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub < 0) {
			not_a_trace(s, cname, "a folder that cannot be opened");
		} else if (is_trace_dir(s, dup(sub))) {
			push(s, TFK_UNIT_TRACE, cname, cpath);
		} else if (depth + 1 > TFK_UNITS_MAX_DEPTH) {
			limit(s, c, "depth of folders searched for traces", depth + 1, TFK_UNITS_MAX_DEPTH);
		} else {
			search_dir(s, c, sub, cpath, cname, depth + 1, nesting);
		}
		if (sub >= 0)
			close(sub);
	} else if (S_ISREG(st.st_mode)) {
		int fd = openat(dirfd, entry, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0) {
			struct tfk_unit *u = push(s, TFK_UNIT_TRACE, cname, cpath); /* its check says why */
			if (u)
				u->in_folder = true;
		} else {
			found_file(s, fd, cpath, cname, nesting, true);
			close(fd);
		}
	} else {
		not_a_trace(s, cname, S_ISLNK(st.st_mode) ? "a symbolic link (links are not followed)"
				      : S_ISFIFO(st.st_mode) ? "a FIFO (not read inside a folder)"
							     : "a device or socket (not read)");
	}
out:
	free(cpath);
	free(cname);
}

/* The folder open at fd (kept by the caller): its entries in name order. */
static void search_dir(struct search *s, struct container *c, int fd, const char *path, const char *name,
		       unsigned depth, unsigned nesting)
{
	int copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	if (!d) {
		if (copy >= 0)
			close(copy);
		not_a_trace(s, name, "a folder that cannot be listed");
		return;
	}
	rewinddir(d); /* the descriptor's position is shared with the listing that sniffed it */
	char **names = NULL;
	size_t n = 0, cap = 0;
	struct dirent *e;
	bool cut = false;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (++s->entries > TFK_UNITS_MAX_ENTRIES) {
			cut = true;
			break;
		}
		void *v = names;
		bool grown = tfk_array_grow(&v, &cap, n + 1, sizeof(*names), 0);
		names = v;
		if (!grown)
			break;
		if (!(names[n] = strdup(e->d_name)))
			break;
		n++;
	}
	closedir(d);
	if (cut)
		limit(s, c, "entries examined in a folder and its archives", s->entries, TFK_UNITS_MAX_ENTRIES);
	if (n > 1)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		if (!s->oom && !over_deadline(s))
			search_entry(s, c, fd, path, name, names[i], depth, nesting);
		else if (!s->oom && i + 1 == n)
			limit(s, c, "milliseconds spent searching a folder", TFK_UNITS_DEADLINE_MS + 1, TFK_UNITS_DEADLINE_MS);
		free(names[i]);
	}
	free(names);
}

void tfk_units_init(struct tfk_units *units)
{
	memset(units, 0, sizeof(*units));
}

int tfk_units_add(struct tfk_units *units, const char *operand, const struct tfk_limits *limits)
{
	struct tfk_limits defaults = tfk_limits_default();
	struct search s = { .units = units, .limits = limits ? limits : &defaults };
	clock_gettime(CLOCK_MONOTONIC, &s.deadline);
	s.deadline.tv_sec += TFK_UNITS_DEADLINE_MS / 1000;
	struct stat st;
	/* An operand is what its user named: a link given on the command line is followed. */
	if (strcmp(operand, "-") == 0 || stat(operand, &st) != 0 || (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))) {
		push(&s, TFK_UNIT_TRACE, operand, operand); /* the check reports what it is */
		return s.oom ? -1 : 0;
	}
	int fd = open(operand, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
	if (fd < 0) {
		push(&s, TFK_UNIT_TRACE, operand, operand);
		return s.oom ? -1 : 0;
	}
	if (S_ISREG(st.st_mode)) {
		found_file(&s, fd, operand, operand, 0, false);
	} else if (is_trace_dir(&s, dup(fd))) {
		push(&s, TFK_UNIT_TRACE, operand, operand);
	} else {
		struct container c;
		container_begin(&s, &c, operand);
		search_dir(&s, &c, fd, operand, operand, 0, 0);
		container_end(&s, &c, false);
	}
	close(fd);
	return s.oom ? -1 : 0;
}

/*
 * The outermost directory among path's own leading components (a relative path stays below
 * where it is relative to) that a directory format claims, or NULL.
 */
static char *enclosing_trace(const struct search *s, const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return NULL;
	size_t start = copy[0] == '/' ? 1 : 0;
	for (char *slash = strchr(copy + start, '/'); slash; slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		int fd = open(copy, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		bool yes = fd >= 0 && is_trace_dir(s, fd);
		if (yes)
			return copy;
		*slash = '/';
	}
	free(copy);
	return NULL;
}

int tfk_units_add_member(struct tfk_units *units, const char *path, const struct tfk_limits *limits)
{
	struct tfk_limits defaults = tfk_limits_default();
	struct search s = { .units = units, .limits = limits ? limits : &defaults };
	struct stat st;
	if (strcmp(path, "-") == 0 || lstat(path, &st) != 0 || !S_ISREG(st.st_mode))
		return tfk_units_add(units, path, limits);
	char *dir = enclosing_trace(&s, path);
	if (!dir) {
		/* a file named among others (staged, globbed): junk is a note, as in a folder */
		int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd < 0)
			return tfk_units_add(units, path, limits);
		clock_gettime(CLOCK_MONOTONIC, &s.deadline);
		s.deadline.tv_sec += TFK_UNITS_DEADLINE_MS / 1000;
		found_file(&s, fd, path, path, 0, true);
		close(fd);
		return s.oom ? -1 : 0;
	}
	for (size_t i = 0; i < units->n; i++)
		if (units->v[i].kind == TFK_UNIT_TRACE && units->v[i].path && strcmp(units->v[i].path, dir) == 0) {
			free(dir); /* that directory is a unit already: checked once */
			return 0;
		}
	push(&s, TFK_UNIT_TRACE, dir, dir);
	free(dir);
	return s.oom ? -1 : 0;
}

void tfk_units_free(struct tfk_units *units)
{
	for (size_t i = 0; i < units->n; i++) {
		struct tfk_unit *u = &units->v[i];
		free(u->name);
		free(u->path);
		if (u->report) {
			tfk_report_free(u->report);
			free(u->report);
		}
	}
	free(units->v);
	tfk_scratch_remove(units->scratch);
	memset(units, 0, sizeof(*units));
}

void tfk_check_unit(struct tfk_unit *unit, const struct tfk_limits *limits, const struct tfk_observer *observer,
		    struct tfk_report *report)
{
	struct tfk_limits defaults = tfk_limits_default();
	if (!limits)
		limits = &defaults;
	switch (unit->kind) {
	case TFK_UNIT_CONTAINER:
		if (unit->report) {
			*report = *unit->report;
			free(unit->report);
			unit->report = NULL;
		} else {
			memset(report, 0, sizeof(*report));
		}
		return;
	case TFK_UNIT_NOT_A_TRACE: {
		struct tfk_ctx ctx;
		memset(report, 0, sizeof(*report));
		tfk_ctx_init(&ctx, limits, report);
		struct tfk_finding *f = tfk_emit_nooffset(&ctx, TFK_CORE_INPUT_NOT_A_TRACE);
		tfk_set_path(f, "folder entry");
		tfk_set_expected(f, "a trace file, a trace directory or an archive");
		tfk_set_found(f, "%s", unit->what ? unit->what : "something else");
		return;
	}
	case TFK_UNIT_TRACE:
		break;
	}
	if (strcmp(unit->path, "-") == 0)
		tfk_check_fd(STDIN_FILENO, limits, observer, report);
	else
		tfk_check_found(unit->path, unit->in_folder, limits, observer, report);
}
