/* SPDX-License-Identifier: MIT */
/* The format registry: how a check finds the checker for the bytes it was given. */
#ifndef TFK_FORMATS_H
#define TFK_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "../context.h"
#include "../cursor.h"
#include "../input.h"
#include "token.h"

struct tfk_picture;

struct tfk_format {
	const char *name;
	/* 0: not this format; 100: certain; in between: a damaged file of this format. */
	int (*sniff)(const struct tfk_cursor *file);
	void (*check)(struct tfk_ctx *ctx, const struct tfk_cursor *file);
	/* The format's magic numbers, tags and keywords, for the fuzzing dictionaries (gen_dict). */
	void (*dictionary)(tfk_token_fn emit, void *user);
	/*
	 * Directory formats (NULL for single-file ones): how sure the listed directory is this
	 * format's (0..100, as sniff; it may map and read small members), and the check of it.
	 * Findings inside a member name it (tfk_ctx_enter_member); offsets are the member's.
	 */
	int (*sniff_dir)(const struct tfk_input *in);
	void (*check_dir)(struct tfk_ctx *ctx, const struct tfk_input *in);
	/*
	 * The format's own model messages (tfk_observer.model) drawn on a picture: its units as
	 * lanes (validate/picture/picture.h). NULL: the generic callbacks say all it draws.
	 */
	void (*picture)(struct tfk_picture *picture, uint32_t kind, const void *data, size_t size);
};

/* Scores at or above this are checked as the format (and may report a damaged magic). */
#define TFK_SNIFF_DAMAGED 40


/* One per line of formats/formats.list (each format's folder defines its own). */
#define TFK_FORMAT(name) extern const struct tfk_format tfk_format_##name;
#include "tfk_format_list.inc"
#undef TFK_FORMAT

/* Every format of the build, in the list's order; *n receives how many. */
const struct tfk_format *const *tfk_formats(size_t *n);

/*
 * The format surest of these bytes (or, with in, of this directory): the highest sniff score,
 * ties to the first listed. NULL when none reaches TFK_SNIFF_DAMAGED. The check and the repair
 * driver pick formats this one way.
 */
const struct tfk_format *tfk_format_of(const struct tfk_cursor *file, const struct tfk_input *in);

/* The format a check report came from (report->checked_by), or NULL when nothing was recognised. */
const struct tfk_format *tfk_format_of_report(const struct tfk_report *report);

#endif
