/* SPDX-License-Identifier: MIT */
/* Writing a repaired trace directory (see dir_output.h). */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <signal.h>
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

int rp_dir_scratch_name(const char *target, char *buf, size_t n)
{
	char parent[4096];
	parent_of(target, parent, sizeof(parent));
	int len = snprintf(buf, n, "%s/.tracefsck-%ld.d", parent, (long)getpid());
	if (len < 0 || (size_t)len >= n) {
		if (n)
			buf[0] = '\0';
		errno = ENAMETOOLONG;
		return -1;
	}
	return 0;
}

static void remove_tree(const char *path);

/* The PID of a name .tracefsck-PID.*, or 0 when it is not one. */
static long leftover_pid(const char *name)
{
	static const char prefix[] = ".tracefsck-";
	if (strncmp(name, prefix, sizeof(prefix) - 1) != 0)
		return 0;
	const char *p = name + sizeof(prefix) - 1;
	long pid = 0;
	for (; *p >= '0' && *p <= '9' && pid < 1000000000L; p++)
		pid = pid * 10 + (*p - '0');
	return *p == '.' && pid > 0 ? pid : 0;
}

void rp_sweep_leftovers(const char *dir)
{
	DIR *dh = opendir(dir);
	if (!dh)
		return;
	int dfd = dirfd(dh);
	struct dirent *e;
	while ((e = readdir(dh)) != NULL) {
		long pid = leftover_pid(e->d_name);
		struct stat st;
		/* a run still going (this one included) keeps its own; another user's are theirs */
		if (!pid || pid == (long)getpid() || kill((pid_t)pid, 0) == 0 || errno != ESRCH ||
		    fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || st.st_uid != geteuid())
			continue;
		if (S_ISDIR(st.st_mode)) {
			char path[4096];
			if (snprintf(path, sizeof(path), "%s/%s", dir, e->d_name) < (int)sizeof(path))
				remove_tree(path);
		} else if (S_ISREG(st.st_mode)) {
			unlinkat(dfd, e->d_name, 0);
		}
	}
	closedir(dh);
}

int rp_dir_begin(struct rp_dir *d, const char *target, bool replace)
{
	char parent[4096];
	memset(d, 0, sizeof(*d));
	d->fd = -1;
	d->replace = replace;
	if (snprintf(d->target, sizeof(d->target), "%s", target) >= (int)sizeof(d->target)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	struct stat st;
	if (lstat(target, &st) == 0) {
		d->existed = true;
		d->dev = (uint64_t)st.st_dev;
		d->ino = (uint64_t)st.st_ino;
	}
	parent_of(target, parent, sizeof(parent));
	rp_sweep_leftovers(parent);
	if (rp_dir_scratch_name(target, d->tmp, sizeof(d->tmp)) != 0)
		return -1;
	/* the name is this process's: one there already is a dead namesake's, or an earlier call's */
	int rc = mkdir(d->tmp, 0700);
	if (rc != 0 && errno == EEXIST) {
		remove_tree(d->tmp);
		rc = mkdir(d->tmp, 0700);
	}
	if (rc != 0) {
		int err = errno;
		d->tmp[0] = '\0';
		errno = err;
		return -1;
	}
	d->fd = open(d->tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
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
	if (d->replace && d->existed) {
		/* In place: exchange the two at once, then drop the old one - once it is known to be
		 * the directory that was there at the start, never another that took its name. */
		if (renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_EXCHANGE) != 0)
			goto fail;
		struct stat st;
		if (lstat(d->tmp, &st) != 0 || (uint64_t)st.st_dev != d->dev || (uint64_t)st.st_ino != d->ino) {
			renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_EXCHANGE); /* put it back */
			errno = EEXIST;
			goto fail;
		}
		remove_tree(d->tmp);
	} else {
		/* An empty directory there at the start goes (rmdir removes nothing but an empty
		 * one); then the new one takes the name only if nothing else did meanwhile. */
		if (d->existed)
			rmdir(d->target);
		if (renameat2(AT_FDCWD, d->tmp, AT_FDCWD, d->target, RENAME_NOREPLACE) != 0) {
			if (errno == ENOTEMPTY)
				errno = EEXIST;
			goto fail;
		}
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
