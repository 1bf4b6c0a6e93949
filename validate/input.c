/* SPDX-License-Identifier: MIT */
/* Directory inputs: listed without following links, members mapped beneath the directory. */
#include <dirent.h>
#include <errno.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "context.h"
#include "input.h"
#include "grow.h"
#include "load.h"
#include "mapguard.h"

struct tfk_input_change {
	atomic_bool changed, cut;
	atomic_flag naming;       /* the first to set it names the member */
	char name[TFK_MEMBER_NAME_MAX];
};

static void changed(struct tfk_input_change *c, const char *name, bool cut)
{
	if (!c)
		return;
	if (cut)
		atomic_store(&c->cut, true);
	if (!atomic_flag_test_and_set(&c->naming)) {
		snprintf(c->name, sizeof(c->name), "%s", name);
		atomic_store_explicit(&c->changed, true, memory_order_release);
	}
}

const char *tfk_input_changed(const struct tfk_input *in, bool *cut)
{
	struct tfk_input_change *c = in->change;
	if (!c || !atomic_load_explicit(&c->changed, memory_order_acquire))
		return NULL;
	*cut = atomic_load(&c->cut);
	return c->name;
}

static struct tfk_member *add(struct tfk_input *in, const char *prefix, const char *name)
{
	if (in->n == in->max_members) {
		in->too_many = true;
		return NULL;
	}
	void *v = in->members;
	bool grown = tfk_array_grow(&v, &in->cap, in->n + 1, sizeof(*in->members), in->max_members);
	in->members = v;
	if (!grown) {
		in->too_many = true; /* out of memory: what is listed is all that is checked */
		return NULL;
	}
	struct tfk_member *m = &in->members[in->n++];
	memset(m, 0, sizeof(*m));
	int len = snprintf(m->name, sizeof(m->name), "%s%s", prefix, name);
	if (len < 0 || (size_t)len >= sizeof(m->name)) {
		m->kind = TFK_MEMBER_ERROR;
		m->err = ENAMETOOLONG;
	}
	return m;
}

/*
 * Does a link at depth `depth` below the top (0: in the top directory) with this target point
 * outside the directory? Absolute targets do; relative ones do when their ".." climb higher
 * than the link's own depth at any point.
 */
static bool leaves(const char *target, unsigned depth)
{
	if (target[0] == '/')
		return true;
	long level = (long)depth;
	for (const char *p = target; *p;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 2 && p[0] == '.' && p[1] == '.') {
			if (--level < 0)
				return true;
		} else if (n && !(n == 1 && p[0] == '.')) {
			level++;
		}
		p += n + (slash ? 1 : 0);
	}
	return false;
}

static void list_dir(struct tfk_input *in, int fd, const char *prefix, unsigned depth)
{
	int copy = dup(fd);
	DIR *d = copy >= 0 ? fdopendir(copy) : NULL;
	if (!d) {
		if (copy >= 0)
			close(copy);
		struct tfk_member *m = add(in, prefix, "");
		if (m) {
			m->kind = TFK_MEMBER_ERROR;
			m->err = errno ? errno : EIO;
		}
		return;
	}
	struct dirent *e;
	while (!in->too_many && (e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct tfk_member *m = add(in, prefix, e->d_name);
		if (!m)
			break;
		if (m->kind == TFK_MEMBER_ERROR)
			continue;
		struct stat st;
		if (fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			m->kind = TFK_MEMBER_ERROR;
			m->err = errno;
		} else if (S_ISREG(st.st_mode)) {
			m->kind = TFK_MEMBER_FILE;
			m->size = (uint64_t)st.st_size;
			in->total_size += m->size;
		} else if (S_ISLNK(st.st_mode)) {
			m->kind = TFK_MEMBER_LINK;
			ssize_t n = readlinkat(fd, e->d_name, m->target, sizeof(m->target) - 1);
			m->target[n > 0 ? n : 0] = '\0';
			m->target_outside = n <= 0 || (size_t)n == sizeof(m->target) - 1 || leaves(m->target, depth);
		} else if (S_ISFIFO(st.st_mode)) {
			m->kind = TFK_MEMBER_FIFO;
		} else if (S_ISDIR(st.st_mode)) {
			m->kind = TFK_MEMBER_DIR;
		} else {
			m->kind = TFK_MEMBER_OTHER;
		}
		if (m->kind != TFK_MEMBER_DIR)
			continue;
		if (depth + 1 > TFK_INPUT_MAX_DEPTH) {
			in->too_deep = true;
			continue;
		}
		char sub_prefix[TFK_MEMBER_NAME_MAX];
		int len = snprintf(sub_prefix, sizeof(sub_prefix), "%s/", m->name);
		int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (len < 0 || (size_t)len >= sizeof(sub_prefix) || sub < 0) {
			m->kind = TFK_MEMBER_ERROR;
			m->err = sub < 0 ? errno : ENAMETOOLONG;
			if (sub >= 0)
				close(sub);
			continue;
		}
		list_dir(in, sub, sub_prefix, depth + 1);
		close(sub);
	}
	closedir(d);
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct tfk_member *)a)->name, ((const struct tfk_member *)b)->name);
}

int tfk_input_list(struct tfk_input *in, int dirfd, size_t max_members)
{
	memset(in, 0, sizeof(*in));
	in->dirfd = dirfd;
	in->max_members = max_members ? max_members : 1;
	struct stat st;
	if (fstat(dirfd, &st) != 0 || !S_ISDIR(st.st_mode)) {
		int err = errno ? errno : ENOTDIR;
		tfk_input_close(in);
		errno = err;
		return -1;
	}
	in->change = calloc(1, sizeof(*in->change));
	if (in->change)
		atomic_flag_clear(&in->change->naming);
	list_dir(in, dirfd, "", 0);
	if (in->n > 1)
		qsort(in->members, in->n, sizeof(*in->members), by_name);
	return 0;
}

void tfk_input_close(struct tfk_input *in)
{
	if (in->dirfd >= 0)
		close(in->dirfd);
	free(in->members);
	free(in->change);
	memset(in, 0, sizeof(*in));
	in->dirfd = -1;
}

const struct tfk_member *tfk_input_find(const struct tfk_input *in, const char *name)
{
	size_t lo = 0, hi = in->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strcmp(name, in->members[mid].name);
		if (c == 0)
			return &in->members[mid];
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

/* Open the relative path beneath dirfd, every component without following a link. */
static int open_beneath(int dirfd, const char *path)
{
	char part[TFK_MEMBER_NAME_MAX];
	int cur = dirfd;
	for (const char *p = path;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if (n == 0 || n >= sizeof(part) || (n <= 2 && strncmp(p, "..", n) == 0)) {
			if (cur != dirfd)
				close(cur);
			errno = EINVAL;
			return -1;
		}
		memcpy(part, p, n);
		part[n] = '\0';
		int flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | (slash ? O_DIRECTORY : O_NONBLOCK | O_NOCTTY);
		int next = openat(cur, part, flags);
		int err = errno;
		if (cur != dirfd)
			close(cur);
		if (next < 0) {
			errno = err;
			return -1;
		}
		if (!slash)
			return next;
		cur = next;
		p = slash + 1;
	}
}

int tfk_member_open(const struct tfk_input *in, const struct tfk_member *m, struct tfk_member_map *map)
{
	memset(map, 0, sizeof(*map));
	map->fd = -1;
	map->guard = -1;
	if (m->kind != TFK_MEMBER_FILE) {
		errno = EINVAL;
		return -1;
	}
	int fd = open_beneath(in->dirfd, m->name);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		int err = errno && !S_ISREG(st.st_mode) ? errno : EINVAL;
		close(fd);
		errno = err;
		return -1;
	}
	map->size = (size_t)st.st_size;
	map->size0 = (uint64_t)st.st_size;
	map->mtime_s = (int64_t)st.st_mtim.tv_sec;
	map->mtime_ns = (int64_t)st.st_mtim.tv_nsec;
	map->change = in->change;
	if (map->size0 != m->size)
		changed(in->change, m->name, false); /* written to since it was listed */
	if (map->size) {
		void *p = mmap(NULL, map->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			int err = errno;
			close(fd);
			errno = err;
			return -1;
		}
		map->data = p;
		map->fd = fd;
		map->guard = tfk_mapguard_add(p, map->size); /* shrunk under it: zeros, not SIGBUS */
		snprintf(map->name, sizeof(map->name), "%s", m->name);
	} else {
		close(fd);
	}
	return 0;
}

void tfk_member_close(struct tfk_member_map *map)
{
	if (map->data) {
		bool cut = tfk_mapguard_remove(map->guard);
		if (cut || tfk_file_changed(map->fd, map->size0, map->mtime_s, map->mtime_ns))
			changed(map->change, map->name, cut);
		munmap((void *)map->data, map->size);
		close(map->fd);
	}
	memset(map, 0, sizeof(*map));
	map->fd = -1;
	map->guard = -1;
}

struct tfk_ctx_place tfk_ctx_enter_member(struct tfk_ctx *ctx, const char *name, const struct tfk_member_map *map)
{
	struct tfk_ctx_place before = { ctx->member, ctx->map, ctx->map_size, ctx->fd };
	ctx->member = name;
	ctx->map = map ? map->data : NULL;
	ctx->map_size = map ? map->size : 0;
	ctx->fd = map ? map->fd : -1;
	return before;
}

void tfk_ctx_return(struct tfk_ctx *ctx, struct tfk_ctx_place before)
{
	ctx->member = before.member;
	ctx->map = before.map;
	ctx->map_size = before.map_size;
	ctx->fd = before.fd;
}

void tfk_member_unreadable(struct tfk_ctx *ctx, const char *name, const char *what, int err)
{
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, name, NULL);
	if (err == ENAMETOOLONG) {
		/* a name this build cannot hold: its limit, not a fault of the trace */
		tfk_limit_hit(ctx, 0, "bytes in the path of a member of a trace directory", TFK_MEMBER_NAME_MAX,
			      TFK_MEMBER_NAME_MAX - 1);
	} else {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_MEMBER_UNREADABLE);
		tfk_set_path(f, "%s", what);
		tfk_set_found(f, "%s", strerror(err ? err : EIO));
		tfk_mark_incomplete(ctx);
	}
	tfk_ctx_return(ctx, was);
}
