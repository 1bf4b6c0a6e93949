/* SPDX-License-Identifier: MIT */
/* Shared by the subcommands: standard output as a sink writer, and read-only file mapping. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

int cli_write_stdout(void *user, const char *bytes, size_t len)
{
	(void)user;
	return fwrite(bytes, 1, len, stdout) == len ? 0 : -1;
}

int cli_map_file(const char *cmd, const char *path, struct cli_map *m)
{
	m->data = NULL;
	m->size = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		fprintf(stderr, "tracefsck %s: %s: %s\n", cmd, path, fd < 0 ? strerror(errno) : "not a regular file");
		if (fd >= 0)
			close(fd);
		return -1;
	}
	m->size = (size_t)st.st_size;
	if (m->size) {
		void *p = mmap(NULL, m->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			fprintf(stderr, "tracefsck %s: %s: %s\n", cmd, path, strerror(errno));
			close(fd);
			return -1;
		}
		m->data = p;
	}
	close(fd);
	return 0;
}

void cli_unmap(struct cli_map *m)
{
	if (m->data)
		munmap((void *)(uintptr_t)m->data, m->size);
	m->data = NULL;
}
