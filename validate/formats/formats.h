/* SPDX-License-Identifier: MIT */
/* The format registry: how a check finds the checker for the bytes it was given. */
#ifndef TFK_FORMATS_H
#define TFK_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "../context.h"
#include "../cursor.h"

struct tfk_format {
	const char *name;
	/* 0: not this format; 100: certain; in between: a damaged file of this format. */
	int (*sniff)(const struct tfk_cursor *file);
	void (*check)(struct tfk_ctx *ctx, const struct tfk_cursor *file);
};

/* Scores at or above this are checked as the format (and may report a damaged magic). */
#define TFK_SNIFF_DAMAGED 40


extern const struct tfk_format tfk_format_tracedat;
extern const struct tfk_format tfk_format_perf;

#endif
