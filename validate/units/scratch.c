/* SPDX-License-Identifier: MIT */
/*
 * Removing the private temporary directory archives are unpacked into. Only system calls a
 * signal handler may make (openat, getdents64, unlinkat, close): an interrupted run removes
 * what it unpacked on its way out, as a finished one does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>
#include <unistd.h>

#include "tracefsck/units.h"

/* The layout getdents64 fills (struct linux_dirent64). */
struct dent64 {
	unsigned long long ino;
	long long off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Empty the directory open at fd; depth bounds the recursion (we made every level ourselves). */
static void empty_dir(int fd, unsigned depth)
{
	char buf[4096] __attribute__((aligned(8)));
	/* Removing entries while reading may hide others from the same read: read again until a
	 * pass removes nothing (each pass removes at least one entry, so this ends). */
	for (unsigned pass = 0; pass < 1u << 20; pass++) {
		bool removed = false;
		if (lseek(fd, 0, SEEK_SET) != 0)
			return;
		for (;;) {
			ssize_t n = getdents64(fd, buf, sizeof(buf));
			if (n <= 0)
				break;
			for (ssize_t at = 0; at < n;) {
				struct dent64 *d = (struct dent64 *)(buf + at);
				if (d->reclen == 0)
					return;
				at += d->reclen;
				if (strcmp(d->name, ".") == 0 || strcmp(d->name, "..") == 0)
					continue;
				if (unlinkat(fd, d->name, 0) == 0) {
					removed = true;
					continue;
				}
				if (depth >= 256)
					continue;
				int sub = openat(fd, d->name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
				if (sub < 0)
					continue;
				empty_dir(sub, depth + 1);
				close(sub);
				if (unlinkat(fd, d->name, AT_REMOVEDIR) == 0)
					removed = true;
			}
		}
		if (!removed)
			return;
	}
}

int tfk_scratch_remove(const char *path)
{
	if (!path || !path[0])
		return 0;
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	empty_dir(fd, 0);
	close(fd);
	return rmdir(path);
}
