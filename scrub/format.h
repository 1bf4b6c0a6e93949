/* SPDX-License-Identifier: MIT */
/*
 * The scrub registry: one plug-in per format that can be scrubbed, each in its own folder
 * scrub/<fmt>/ (a format of validate/formats/formats.list with such a folder) defining
 * `const struct sc_format sc_format_<fmt>`, which points at the check's descriptor of its
 * format. The driver (scrub.c) knows no format: it checks the input while the plug-in's
 * observer builds its model, has the plug-in write the scrubbed copy, and checks that again.
 * A format without a folder here is refused ("scrub not supported for <format> yet").
 */
#ifndef TFK_SCRUB_FORMAT_H
#define TFK_SCRUB_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pseudo.h"
#include "tracefsck/observer.h"

struct rp_dir;
struct tfk_format;
struct tfk_input;

struct sc_format {
	const struct tfk_format *format;
	size_t model_size;         /* zeroed by the driver */
	/* The observer that fills model while the input (in, size bytes) is checked. */
	struct tfk_observer (*observer)(void *model, const uint8_t *in, size_t size);
	void (*model_free)(void *model);
	/*
	 * Write the scrubbed copy of the clean input into *out (malloc'd, *out_len bytes), its
	 * strings replaced through sc. 0; -1 out of memory; 1 when this input cannot be scrubbed
	 * (sc->rep->reason says why).
	 */
	int (*scrub)(void *model, struct sc_ctx *sc, const uint8_t *in, size_t size, uint8_t **out, size_t *out_len);
	/*
	 * Directory formats (scrub NULL): write the scrubbed members of the checked directory in
	 * into dir (rp_dir_member), renaming those whose names are private. The same returns.
	 */
	int (*scrub_dir)(void *model, struct sc_ctx *sc, const struct tfk_input *in, struct rp_dir *dir);
};

struct tfk_member;
/* A copy of a directory member's bytes to edit (*out malloc'd, *n bytes). 0, or -1 (errno). */
int sc_member_copy(const struct tfk_input *in, const struct tfk_member *m, uint8_t **out, size_t *n);
/* A member written as it is, or as the n bytes at p: into dir under name. 0, or -1 (errno). */
int sc_dir_put(struct rp_dir *dir, const char *name, const uint8_t *p, size_t n);

/* The plug-in scrubbing check format f (by the descriptor's identity), or NULL. */
const struct sc_format *sc_plugin_for(const struct tfk_format *f);
/* rep->format: what the check called the input, else the format's name. */
void sc_name_format(struct tfk_scrub_report *rep, const struct tfk_format *f);
/*
 * The refusals every scrub shares, before the input's verdict is looked at: not a trace, no
 * plug-in for its format, no memory for the model. True (rep's outcome and reason set) when
 * one applies.
 */
bool sc_cannot_start(struct tfk_scrub_report *rep, const struct tfk_format *f, const struct sc_format *sf,
		     const void *model);

/* One per folder of scrub/ named in formats.list (generated: sc_format_list.inc). */
#define SC_FORMAT(name) extern const struct sc_format sc_format_##name;
#include "sc_format_list.inc"
#undef SC_FORMAT

#endif
