/* SPDX-License-Identifier: MIT */
/*
 * Ftrace ring pages kept outside a trace.dat (uftrace's kernel-cpu<N>.dat files): the event
 * formats and header_page text the caller locates, then whole files of raw pages, walked by
 * the trace.dat page walker with its codes. Offered to the formats that store such pages.
 */
#ifndef TFK_FTRACE_RINGS_H
#define TFK_FTRACE_RINGS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../context.h"
#include "../../cursor.h"

struct td_rings;

/*
 * A new set of rings recorded with this byte order, kernel long size and page size (as the
 * files that hold the pages say), or NULL when out of memory.
 */
struct td_rings *td_rings_new(struct tfk_ctx *ctx, bool big_endian, uint8_t long_size, uint32_t page_size);
/* The events/header_page text (text->origin is its offset in the current member). */
void td_rings_header_page(struct td_rings *r, const struct tfk_cursor *text);
/* One events/<system>/<name>/format text. */
void td_rings_format(struct td_rings *r, const struct tfk_cursor *text, const char *system);
/*
 * Fix the page geometry from header_page (or, without a usable one, from the long size and
 * page size given). False when header_page's page size is not the one given: *hp_page_size
 * then says what header_page describes, and the pages are walked with header_page's layout.
 */
bool td_rings_settle(struct td_rings *r, uint32_t *hp_page_size);
/* The page size the walk uses (after td_rings_settle). */
uint32_t td_rings_page_size(const struct td_rings *r);
/* The width of the commit word and where events start in a page (after td_rings_settle). */
void td_rings_layout(const struct td_rings *r, uint32_t *commit_size, uint32_t *data_offset);
bool td_rings_big_endian(const struct td_rings *r);
/*
 * Walk the pages of one CPU's file (the current member of the context): its whole pages with
 * findings, then what the end of the file left of a last page, without findings (the caller
 * reports the cut). Returns the events counted.
 */
uint64_t td_rings_walk(struct td_rings *r, const struct tfk_cursor *file, uint32_t cpu);
/*
 * Count records of ids without a format instead of reporting each (for writers known to leave
 * formats out); after a walk, how many it met and the first of them (id, offset).
 */
void td_rings_count_unknown(struct td_rings *r);
uint64_t td_rings_unknown(const struct td_rings *r, uint16_t *first_id, uint64_t *first_at);
void td_rings_free(struct td_rings *r);

#endif
