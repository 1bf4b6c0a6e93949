/* SPDX-License-Identifier: MIT */
/* Per-run state of a check: limits, the report being filled, allocation accounting. */
#ifndef TFK_CONTEXT_H
#define TFK_CONTEXT_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"
#include "faults.h"
#include "tracefsck/check.h"
#include "tracefsck/observer.h"

#define TFK_DECODED_SLOTS 4

struct tfk_observer;

struct tfk_ctx {
	const struct tfk_limits *limits;
	const struct tfk_observer *obs; /* may be NULL */
	struct tfk_report *report;
	size_t capacity;        /* allocated slots in report->findings */
	uint64_t allocations;   /* made so far, for failure injection */
	uint64_t faults[3];     /* every fault by catalog severity, policy or not: what the checker decides on */
	uint64_t decoded_at[TFK_DECODED_SLOTS]; /* file offset of the block each decoded view came from */
	/* A file mapping tfk_check_file made: walked ranges may be handed back to the kernel. */
	const uint8_t *map;
	size_t map_size, sys_page;
	uint64_t *counted;      /* when set: tfk_count_only tallies by code here too (a prewalk's replay) */
	int fd;                 /* the mapped file, when tfk_check_file opened it; else -1 */
	const struct tfk_mapped_source *sources; /* other files' bytes in the mapping */
	size_t nsources;
	const char *member;     /* the member of a trace directory being checked (findings name it), or NULL */
};

/*
 * Decoded data gets cursor offsets outside any file: bit 62 set, the slot in bits 48-61, the
 * decoded position below. tfk_emit turns such an offset back into the block's file offset
 * plus finding.decoded_offset, so findings inside compressed data still point into the file.
 */
#define TFK_DECODED_BIT (1ull << 62)
#define TFK_DECODED_SLOT_SHIFT 48
#define TFK_DECODED_POS_MASK ((1ull << TFK_DECODED_SLOT_SHIFT) - 1)

/* A cursor over decoded bytes (slot < TFK_DECODED_SLOTS) that came from file_offset. */
struct tfk_cursor tfk_decoded_cursor(struct tfk_ctx *ctx, unsigned slot, uint64_t file_offset, const uint8_t *buf,
				     uint64_t len, bool big_endian);

void tfk_ctx_init(struct tfk_ctx *ctx, const struct tfk_limits *limits, struct tfk_report *report);

/*
 * The descriptor and file offset of the n bytes at p when they lie in the mapping of a file
 * the check can read (ctx->fd, or one of ctx->sources): they can then be read into a buffer
 * instead of through the mapping, which costs a fault and page-table work per small folio.
 */
bool tfk_file_offset(const struct tfk_ctx *ctx, const uint8_t *p, uint64_t n, int *fd, uint64_t *offset);
/* The n bytes at p read into buf that way; false when they cannot be (then read the mapping). */
bool tfk_read_mapped(const struct tfk_ctx *ctx, const uint8_t *p, uint64_t n, uint8_t *buf);

/*
 * Record a finding at its catalog severity, or as the policy in limits says (perhaps not at all). Returns the finding to fill with
 * tfk_set_path/expected/found, or NULL when it was only counted (findings cap, no memory);
 * the setters accept NULL.
 */
struct tfk_finding *tfk_emit(struct tfk_ctx *ctx, enum tfk_fault_code code, uint64_t offset, uint64_t length);
struct tfk_finding *tfk_emit_nooffset(struct tfk_ctx *ctx, enum tfk_fault_code code);
/* Count a fault without listing it (one of many alike, summarised elsewhere). */
void tfk_count_only(struct tfk_ctx *ctx, enum tfk_fault_code code);
/* The same, n times over. */
void tfk_count_only_n(struct tfk_ctx *ctx, enum tfk_fault_code code, uint64_t n);

__attribute__((format(printf, 2, 3))) void tfk_set_path(struct tfk_finding *f, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void tfk_set_expected(struct tfk_finding *f, const char *fmt, ...);
__attribute__((format(printf, 2, 3))) void tfk_set_found(struct tfk_finding *f, const char *fmt, ...);
/* found = the bytes, quoted and sanitised */
void tfk_set_found_bytes(struct tfk_finding *f, const void *bytes, size_t len);

/* A limit from tfk_limits was hit: report it and mark the check incomplete. */
void tfk_limit_hit(struct tfk_ctx *ctx, uint64_t offset, const char *what, uint64_t value, uint64_t cap);

/*
 * The check is done with these bytes for now. When they lie in the file mapping of
 * tfk_check_file, the whole pages among them leave the process (they stay in the page cache
 * and fault back in if read again), so resident memory stays flat however large the file.
 * Anything else (a caller's buffer, decoded data) is left alone.
 */
void tfk_release(struct tfk_ctx *ctx, const uint8_t *p, uint64_t len);

/* Tell the observer (if it wants items) about one structure of the map; names are sanitised. */
__attribute__((format(printf, 7, 0))) void tfk_observe_item(const struct tfk_ctx *ctx, enum tfk_item_kind kind,
							    uint64_t offset, uint64_t length, uint32_t id,
							    const char *name, const char *fmt, va_list ap);

/* Mark the check incomplete (a part was skipped) without a finding of its own. */
void tfk_mark_incomplete(struct tfk_ctx *ctx);

/*
 * One place of a trace (a CPU of a buffer, a stream, a member file): findings of one code in
 * it are listed up to limits.max_per_place, then only counted, and tfk_place_end sums the rest
 * up in one core.findings.suppressed note per code, as e2fsck's max_count does. A format opts
 * in by emitting a place's repeatable findings through tfk_emit_in.
 */
struct tfk_place {
	uint32_t per_code[TFK_FAULT_COUNT];
	uint64_t suppressed_at[TFK_FAULT_COUNT]; /* where the first finding only counted lies */
};
void tfk_place_begin(struct tfk_place *place);
/* tfk_emit, or NULL (the finding counted only) once the place listed max_per_place of code. */
struct tfk_finding *tfk_emit_in(struct tfk_ctx *ctx, struct tfk_place *place, enum tfk_fault_code code,
				uint64_t offset, uint64_t length);
/* One note per code the place suppressed, in catalog order, its path the place's (printf-style). */
__attribute__((format(printf, 3, 4))) void tfk_place_end(struct tfk_ctx *ctx, const struct tfk_place *place,
							 const char *path_fmt, ...);

/*
 * Where a format is in its structure, as e2fsck's problem context: the walk fills it as it
 * enters a structure (a path template and the values it names, stored, not formatted: a walk
 * of millions of pages pays nothing for it) and raises each fault with one call, tfk_raise.
 * The core renders the path only for a finding it keeps. In tmpl, %s takes the next of str,
 * %u the next of num in decimal, %x the next of num in hexadecimal, %% is a percent sign.
 */
struct tfk_pctx {
	const char *tmpl;         /* the structure's path; NULL: the finding has none */
	const char *str[3];
	uint64_t num[3];
	struct tfk_place *place;  /* the place whose quota the findings count against, or NULL */
	const void *found_bytes;  /* when set: the finding's found is these bytes, quoted (a line of text) */
	size_t found_len;
};

/*
 * The one way a format raises a fault: a finding of code at [offset, offset + length) in the
 * structure pc names (what, when not NULL, follows its path after a space), within the
 * place's quota. NULL as tfk_emit (only counted); expected and found are then the
 * caller's to add with the setters, which accept NULL.
 */
struct tfk_finding *tfk_raise(struct tfk_ctx *ctx, const struct tfk_pctx *pc, enum tfk_fault_code code,
			      uint64_t offset, uint64_t length, const char *what);

/* Allocation through the context: overflow-checked count * size, zeroed, failure injectable. */
void *tfk_calloc(struct tfk_ctx *ctx, size_t count, size_t size);
/* Grow *array (holding *cap elements) to at least need elements; false on failure. */
int tfk_grow(struct tfk_ctx *ctx, void **array, size_t *cap, size_t need, size_t elem_size);
/*
 * Memory for work that has a way round its absence (worker threads, read windows, the walk
 * ahead): overflow-checked and zeroed as tfk_calloc, but not counted for failure injection
 * (so the count falls where a single thread's would) and no internal error when it fails: the
 * caller takes the slower path and the report is the same. the test hook
 * fail_optional_alloc (test_hooks.h) makes every one fail, to prove it. Thread-safe: ctx is only read.
 */
void *tfk_calloc_optional(const struct tfk_ctx *ctx, size_t count, size_t size);

#endif
