/* SPDX-License-Identifier: MIT */
/* Writing a repaired trace directory (see dir_output.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "dir_output.h"

/* Nesting a repaired directory may have: deeper trees are refused, not walked without end. */
#define MAX_DEPTH 16

/* The parent directory of path, into out. */
static void parent_of(const char *path, char *out, size_t n)
{
	char *copy = strdup(path);
	snprintf(out, n, "%s", copy ? dirname(copy) : ".");
	free(copy);
}

int rp_dir_begin(struct rp_dir *d, const char *target)
{
	char parent[4096];
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	if (snprintf(d->target, sizeof(d->target), "%s", target) >= (int)sizeof(d->target)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	parent_of(target, parent, sizeof(parent));
	if (snprintf(d->tmp, sizeof(d->tmp), "%s/.tracefsck-XXXXXX", parent) >= (int)sizeof(d->tmp)) {
		d->tmp[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	if (!mkdtemp(d->tmp)) {
		d->tmp[0] = '\0';
		return -1;
	}
	d->fd = open(d->tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (d->fd < 0) {
		int err = errno;
		rmdir(d->tmp);
		d->tmp[0] = '\0';
		errno = err;
		return -1;
	}
	return 0;
}

int rp_dir_member(struct rp_dir *d, const char *name, const struct rp_out *o)
{
	char path[4096];
	if (d->fd < 0 || snprintf(path, sizeof(path), "%s", name) >= (int)sizeof(path)) {
		errno = EINVAL;
		return -1;
	}
	int dirfd = dup(d->fd);
	if (dirfd < 0)
		return -1;
	char *part = path;
	for (int depth = 0;; depth++) {
		char *slash = strchr(part, '/');
		if (slash)
			*slash = '\0';
		if (!*part || strcmp(part, ".") == 0 || strcmp(part, "..") == 0 || depth >= MAX_DEPTH) {
			close(dirfd);
			errno = EINVAL;
			return -1;
		}
		if (!slash)
			break;
		if (mkdirat(dirfd, part, 0755) != 0 && errno != EEXIST) {
			int err = errno;
			close(dirfd);
			errno = err;
			return -1;
		}
		int next = openat(dirfd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		int err = errno;
		close(dirfd);
		if (next < 0) {
			errno = err;
			return -1;
		}
		dirfd = next;
		part = slash + 1;
	}
	int fd = openat(dirfd, part, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
	int err = errno;
	close(dirfd);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	int rc = rp_out_to_fd(o, fd) == 0 && fsync(fd) == 0 ? 0 : -1;
	err = errno;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		err = errno;
	}
	errno = err;
	return rc;
}

/*
 * Walk the tree under dirfd (which this call closes), depth first: fsync each directory after
 * its entries (sync), or remove every entry (remove). Links are never followed. 0, or -1.
 */
static int walk(int dirfd, bool remove, int depth)
{
	DIR *dir = depth <= MAX_DEPTH ? fdopendir(dirfd) : NULL;
	if (!dir) {
		close(dirfd);
		errno = depth > MAX_DEPTH ? ELOOP : errno;
		return -1;
	}
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(dir)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct stat st;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
			rc = -1;
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub < 0 || walk(sub, remove, depth + 1) != 0)
				rc = -1;
			if (remove && unlinkat(dirfd, e->d_name, AT_REMOVEDIR) != 0)
				rc = -1;
		} else if (remove) {
			if (unlinkat(dirfd, e->d_name, 0) != 0)
				rc = -1;
		} else if (S_ISREG(st.st_mode)) {
			int f = openat(dirfd, e->d_name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
			if (f < 0 || fsync(f) != 0)
				rc = -1;
			if (f >= 0)
				close(f);
		}
	}
	if (!remove && fsync(dirfd) != 0)
		rc = -1;
	closedir(dir);
	return rc;
}

/* Remove the tree at path (a directory), links not followed. */
static void remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		walk(fd, true, 0);
	rmdir(path);
}

void rp_dir_abort(struct rp_dir *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
	if (d->tmp[0])
		remove_tree(d->tmp);
	d->tmp[0] = '\0';
}

int rp_dir_commit(struct rp_dir *d)
{
	int err;
	int fd = d->fd >= 0 ? dup(d->fd) : -1;
	if (fd < 0 || fchmod(d->fd, 0755) != 0 || walk(fd, false, 0) != 0)
		goto fail;
	if (rename(d->tmp, d->target) != 0) {
		/* An existing directory in the way: exchange the two at once, then drop the old one. */
		if ((errno != ENOTEMPTY && errno != EEXIST) ||
		    renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_EXCHANGE) != 0)
			goto fail;
		remove_tree(d->tmp);
	}
	close(d->fd);
	d->fd = -1;
	d->tmp[0] = '\0';
	char parent[4096];
	parent_of(d->target, parent, sizeof(parent));
	int pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int rc = pfd >= 0 && fsync(pfd) == 0 ? 0 : -1;
	err = errno;
	if (pfd >= 0)
		close(pfd);
	errno = err;
	return rc;
fail:
	err = errno;
	rp_dir_abort(d);
	errno = err;
	return -1;
}
