/* SPDX-License-Identifier: MIT */
/* perf.data checker: the file around the record walker (header, sections, attrs, features). */
#ifndef TFK_PERF_H
#define TFK_PERF_H

#include "shared/perfrec/perfrec_state.h"

/* The fuzzing dictionary's perf.data tokens: magics, header sizes, record types. */
typedef tfk_token_fn pf_token_fn;
void pf_dictionary(pf_token_fn emit, void *user);
/* Note a byte range for the overlap check. */
void pf_claim(struct pf_check *pc, uint64_t start, uint64_t size, const char *label);
/* Every claimed range against the others (one sweep); overlapping features are not kept. */
void pf_check_overlaps(struct pf_check *pc);
/* A perf.data directory (perf record --threads): the header file, then each data.N stream. */
void pf_check_dir(struct tfk_ctx *ctx, const struct tfk_cursor *header, const struct tfk_cursor *streams,
		  const char *const *names, const struct tfk_member_map *maps, size_t n);
/* The perf.data directory plug-in (perf_dir.c). */
int pf_sniff_directory(const struct tfk_input *in);
void pf_check_directory(struct tfk_ctx *ctx, const struct tfk_input *in);
/* The dialect's note, once the file is walked (and incomplete when parts were skipped). */
void pf_dialect_note(struct pf_check *pc);

struct tfk_picture;
/* The format's model messages drawn on a picture (perf_picture.c). */
void pf_picture(struct tfk_picture *picture, uint32_t kind, const void *data, size_t size);

#endif
