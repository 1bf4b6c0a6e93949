/* SPDX-License-Identifier: MIT */
/* The format registry: how a check finds the checker for the bytes it was given. */
#ifndef TFK_FORMATS_H
#define TFK_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "../context.h"
#include "../cursor.h"
#include "token.h"

struct tfk_format {
	const char *name;
	/* 0: not this format; 100: certain; in between: a damaged file of this format. */
	int (*sniff)(const struct tfk_cursor *file);
	void (*check)(struct tfk_ctx *ctx, const struct tfk_cursor *file);
	/* The format's magic numbers, tags and keywords, for the fuzzing dictionaries (gen_dict). */
	void (*dictionary)(tfk_token_fn emit, void *user);
};

/* Scores at or above this are checked as the format (and may report a damaged magic). */
#define TFK_SNIFF_DAMAGED 40


/* One per line of formats/formats.list (each format's folder defines its own). */
#define TFK_FORMAT(name) extern const struct tfk_format tfk_format_##name;
#include "tfk_format_list.inc"
#undef TFK_FORMAT

/* Every format of the build, in the list's order; *n receives how many. */
const struct tfk_format *const *tfk_formats(size_t *n);

#endif
