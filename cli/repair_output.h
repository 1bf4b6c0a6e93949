/* SPDX-License-Identifier: MIT */
/* The file tracefsck repair writes, safely: no name until it is whole (repair_output.c). */
#ifndef TFK_CLI_REPAIR_OUTPUT_H
#define TFK_CLI_REPAIR_OUTPUT_H

#include <stdbool.h>
#include <sys/types.h>

struct repair_output {
	int fd;               /* where the library writes the repaired trace */
	mode_t mode;          /* what the file gets once whole */
	bool unnamed;         /* O_TMPFILE: no name until commit */
	char dir[4096];       /* OUT's directory */
	char out[4096];
	char name[4200];      /* the hidden name beside OUT, when it has one */
};

/* A new, empty output for OUT; -1 with errno set. */
int repair_output_open(struct repair_output *o, const char *out, mode_t mode);
/* Mode, fsync, rename over OUT, fsync of the directory; -1 with errno set (nothing left behind). */
int repair_output_commit(struct repair_output *o);
/* Give it up: nothing is left behind. */
void repair_output_discard(struct repair_output *o);

#endif
