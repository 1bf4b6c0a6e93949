/* SPDX-License-Identifier: MIT */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "raised.h"

void raised_note(const struct tfk_report *r)
{
	const char *dir = getenv("TFK_RAISED_DIR");
	if (!dir || !*dir || !r->count)
		return;
	char path[4096];
	snprintf(path, sizeof(path), "%s/codes", dir);
	int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return;
	/* one line a write: O_APPEND keeps lines whole when test programs run side by side */
	for (size_t i = 0; i < r->count; i++) {
		char line[128];
		int n = snprintf(line, sizeof(line), "%s\n", r->findings[i].fault->id);
		if (n > 0 && (size_t)n < sizeof(line) && write(fd, line, (size_t)n) != n)
			break;
	}
	close(fd);
}
