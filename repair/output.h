/* SPDX-License-Identifier: MIT */
/*
 * A repaired file as a list of segments: bytes the writer made (headers, tables, rebuilt
 * pages), bytes that stay where they are (input pages kept verbatim, decoded pages), and runs
 * of zeros. Nothing is copied until the file is stored: into one buffer, into a file
 * descriptor, or not at all, as a read-only view whose verbatim pages are the input file's own.
 */
#ifndef TFK_REPAIR_OUTPUT_H
#define TFK_REPAIR_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "cursor.h"

enum rp_seg_kind { RP_SEG_MADE, RP_SEG_KEPT, RP_SEG_ZERO };

struct rp_seg {
	enum rp_seg_kind kind;
	uint64_t len;
	size_t made_at;         /* RP_SEG_MADE: offset in rp_out.made */
	const uint8_t *kept;    /* RP_SEG_KEPT: the bytes, valid as long as the model */
};

struct rp_out {
	struct rp_blob made;    /* every byte the writer made, in output order */
	struct rp_seg *segs;
	size_t nsegs, segs_cap;
	uint64_t len;           /* bytes of output so far */
	bool be, oom;
};

void rp_out_put(struct rp_out *o, const void *p, size_t n);
/* A number of width bytes in the file's byte order. */
void rp_out_num(struct rp_out *o, uint64_t v, unsigned width);
/* n made bytes to fill in place (valid until the next call that adds to o), or NULL. */
uint8_t *rp_out_space(struct rp_out *o, size_t n);
/* Where the next made byte goes, for rp_out_patch once its value is known. */
size_t rp_out_mark(const struct rp_out *o);
void rp_out_patch(struct rp_out *o, size_t mark, uint64_t v, unsigned width);
/* Zeros up to output offset at. */
void rp_out_zeros_to(struct rp_out *o, uint64_t at);
/* n bytes at p, not copied: they must outlive o. */
void rp_out_keep(struct rp_out *o, const uint8_t *p, size_t n);
/*
 * The n input bytes at offset at of in, kept as rp_out_keep keeps them, read through the
 * cursor: a range the input does not hold (a model that disagrees with its file) leaves
 * nothing to write (the output fails as when memory runs out), never a read past the input.
 */
void rp_out_keep_at(struct rp_out *o, const struct tfk_cursor *in, uint64_t at, uint64_t n);
void rp_out_free(struct rp_out *o);
/*
 * Overwrite width made bytes at output offset at with v (in the file's byte order), wherever
 * they lie: in place when the first segment is made bytes that cover them, else after turning
 * the whole output into made bytes.
 */
void rp_out_patch_at(struct rp_out *o, uint64_t at, uint64_t v, unsigned width);
/* Overwrite n bytes at output offset at with p, the same way. */
void rp_out_overwrite(struct rp_out *o, uint64_t at, const void *p, size_t n);

/* The whole output in one new buffer (free() it). 0, or -1 when out of memory. */
int rp_out_to_buffer(const struct rp_out *o, uint8_t **data);
/* n bytes to fd (short writes and interruptions retried). 0, or -1 with errno set. */
int rp_write_all(int fd, const uint8_t *p, size_t n);
/*
 * Write the output to fd from its current position (empty beyond it), zeros as holes: runs of
 * zeros and all-zero blocks of kept bytes are seeked over. 0, or -1 with errno set.
 */
int rp_out_to_fd(const struct rp_out *o, int fd);
/*
 * A copy of the input file in_fd (size bytes, mapped at data) to the empty out_fd, its holes
 * kept holes (SEEK_DATA/SEEK_HOLE, copy_file_range; by the bytes where those fail). 0, or -1.
 */
int rp_copy_sparse(int out_fd, int in_fd, const uint8_t *data, size_t size);

/*
 * A read-only view of the output without storing it. Kept bytes inside the input mapping
 * [input, input + input_size), which is the file input_fd, are mapped from that file where
 * their offsets allow (the page cache already holds them); everything else lives in an
 * anonymous memory file, sparse where the output is zero. Every page of the view can be
 * dropped and read again, so a check may hand walked pages back. NULL on failure.
 */
struct tfk_mapped_source;
/* *sources (free() it) then says which parts of the view are the input file's, for reading. */
const uint8_t *rp_out_view(const struct rp_out *o, const uint8_t *input, size_t input_size, int input_fd,
			   struct tfk_mapped_source **sources, size_t *nsources);
void rp_out_view_free(const uint8_t *view, uint64_t len);

#endif
