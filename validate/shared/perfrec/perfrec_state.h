/* SPDX-License-Identifier: MIT */
/*
 * The perf record walker's state: what the walk of a record stream, the attrs it resolves
 * samples against and the feature payloads (in a file's table or a pipe's records) share.
 * perf.data's checker owns the file around it (formats/perf/perf.h); other formats walk perf
 * records through the opaque interface of perfrec.h alone.
 */
#ifndef TFK_PERFREC_STATE_H
#define TFK_PERFREC_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../context.h"
#include "../../claims.h"
#include "../../cursor.h"
#include "formats/token.h"
#include "../../input.h"
#include "codec/zstream.h"
#include "perf_model.h"
#include "tracefsck/observer.h"

#define PF_HEADER_SIZE 104
#define PF_PIPE_HEADER_SIZE 16
#define PF_ATTR_MIN 64      /* PERF_ATTR_SIZE_VER0 */
#define PF_ATTR_NEWEST 136  /* VER8 */
#define PF_C2_MAX_PIECES 64 /* records in one perf 6.16 COMPRESSED2 blob (one buffer flush) */

/* sample_type bits */
enum {
	PF_S_IP = 1 << 0, PF_S_TID = 1 << 1, PF_S_TIME = 1 << 2, PF_S_ADDR = 1 << 3, PF_S_READ = 1 << 4,
	PF_S_CALLCHAIN = 1 << 5, PF_S_ID = 1 << 6, PF_S_CPU = 1 << 7, PF_S_PERIOD = 1 << 8,
	PF_S_STREAM_ID = 1 << 9, PF_S_RAW = 1 << 10, PF_S_BRANCH_STACK = 1 << 11, PF_S_REGS_USER = 1 << 12,
	PF_S_STACK_USER = 1 << 13, PF_S_WEIGHT = 1 << 14, PF_S_DATA_SRC = 1 << 15, PF_S_IDENTIFIER = 1 << 16,
	PF_S_TRANSACTION = 1 << 17, PF_S_REGS_INTR = 1 << 18, PF_S_PHYS_ADDR = 1 << 19, PF_S_AUX = 1 << 20,
	PF_S_CGROUP = 1 << 21, PF_S_DATA_PAGE_SIZE = 1 << 22, PF_S_CODE_PAGE_SIZE = 1 << 23,
	PF_S_WEIGHT_STRUCT = 1 << 24,
};
/* read_format bits */
enum { PF_R_TIME_ENABLED = 1, PF_R_TIME_RUNNING = 2, PF_R_ID = 4, PF_R_GROUP = 8, PF_R_LOST = 16 };
#define PF_FLAG_SAMPLE_ID_ALL (1ull << 18)
#define PF_BRANCH_HW_INDEX (1ull << 17)

/* Other writers' variants of the format (perf.dialect.*). */
enum pf_dialect { PF_DIALECT_NONE = 0, PF_DIALECT_SIMPLEPERF, PF_DIALECT_GOOGLE_PIPE };
#define PF_SP_RECORD_START 0x8000  /* simpleperf's own record types (32-bit sizes) */
#define PF_SP_TRACING_DATA 0x8009  /* SIMPLE_PERF_RECORD_TRACING_DATA: {u32 size, data} inside */
#define PF_SP_RECORD_LAST 0x800a   /* SIMPLE_PERF_RECORD_DEBUG */
#define PF_SP_FEAT_FIRST 128       /* FILE, META_INFO, DEBUG_UNWIND, DEBUG_UNWIND_FILE, FILE2, */
#define PF_SP_FEAT_LAST 134        /* ETM_BRANCH_LIST, INIT_MAP */

/* Record types this checker knows. */
enum {
	PF_REC_MMAP = 1, PF_REC_COMM = 3, PF_REC_SAMPLE = 9, PF_REC_MMAP2 = 10, PF_REC_CALLCHAIN_DEFERRED = 22,
	PF_REC_KERNEL_MAX = 22,
	PF_REC_HEADER_ATTR = 64, PF_REC_TRACING_DATA = 66, PF_REC_FINISHED_ROUND = 68, PF_REC_ID_INDEX = 69,
	PF_REC_AUXTRACE = 71,
	PF_REC_HEADER_FEATURE = 80, PF_REC_COMPRESSED = 81, PF_REC_COMPRESSED2 = 83, PF_REC_BPF_METADATA = 84,
	PF_REC_SCHEDSTAT_CPU = 85, PF_REC_SCHEDSTAT_DOMAIN = 86, PF_REC_USER_MAX = 86,
};

struct pf_attr {
	uint64_t at;            /* file offset of the attr */
	uint32_t type, size;
	uint64_t sample_type, read_format, flags, branch_sample_type, regs_user, regs_intr;
};

/* A sample id and the attr it belongs to. */
struct pf_id {
	uint64_t id;
	uint32_t attr;
};

struct pf_check {
	struct tfk_ctx *ctx;
	struct tfk_cursor file;     /* the whole file, in the writer's byte order */
	uint64_t size;
	bool pipe;
	struct pf_attr *attrs;
	size_t nattrs, attrs_cap;
	struct pf_id *ids;          /* sorted by id once the attrs are read */
	size_t nids, ids_cap;
	bool ids_sorted;
	struct tfk_claims claims;   /* claimed byte ranges, swept for overlaps once all are known */
	uint64_t data_offset, data_size;
	uint64_t bits[4];           /* the header's feature bits */
	bool killed;                /* data.size 0 with records after data.offset */
	uint64_t killed_table;      /* there: the feature table found behind the last record, or 0 */
	/* COMPRESSED feature */
	bool have_comp;
	uint32_t comp_type;
	uint64_t comp_mmap_len;
	/*
	 * perf record -z writes one zstd stream across its COMPRESSED records (spec 7): one
	 * decoder for a record stream, and the bytes of a record the previous payload ended
	 * inside (carry) go in front of the next payload's, as perf does.
	 */
	void *zs;
	uint8_t *zbuf;              /* carried bytes, then what the current payload decodes to */
	size_t zcap;
	size_t carry;               /* bytes at zbuf[0] waiting for the rest of their record */
	uint64_t carry_at;          /* file offset of the COMPRESSED record they came from */
	bool zbroken;               /* the stream broke: later payloads cannot be decoded */
	bool zfed;                  /* a top-level COMPRESSED payload went into the stream */
	bool zskipped;              /* and bytes were skipped after it (skip_range): in a repaired copy,
				       without them, no later COMPRESSED record continues that stream */
	bool zcapped;               /* the limit on decoded bytes was reached */
	bool znew;                  /* the decoder was reset: the next payload starts the stream */
	/* The pieces of the perf 6.16 COMPRESSED2 blob being walked (offsets in its stream). */
	uint64_t c2_off[PF_C2_MAX_PIECES], c2_len[PF_C2_MAX_PIECES];
	unsigned c2_n;
	uint64_t zlost_records, zlost_first, zdecoded;
	size_t zstart_carry;        /* carried bytes in front of the payload being walked */
	uint64_t dgood, dgood_samples, dgood_records; /* its whole, valid records before any damage */
	bool derr;
	bool partial_tail;          /* set by a walk of decoded bytes: carry its last bytes */
	uint64_t tail_at;           /* where that walk stopped (the carried record's start) */
	/* FINISHED_ROUND ordering: the last time of the two rounds before the current one */
	uint64_t round_max, prev_round_max, flushed_to;
	uint64_t late_records, first_late_at, first_late_time, first_late_limit;
	uint64_t records, samples;
	/* Another writer's dialect: what told it, and what of it could not be checked. */
	enum pf_dialect dialect;
	bool preamble;              /* google pipe: still in the feature records before the first attr */
	uint64_t dialect_records, dialect_skipped, dialect_features, dialect_unchecked_features;
	char dialect_version[64];   /* simpleperf_version from META_INFO, sanitised */
	char writer_version[32];    /* the VERSION feature's perf version, sanitised ("" unknown) */
	/* Errors whose fault repair undoes by writing back a value the file proves (a zstd frame's
	   magic, an attr's size): they do not end the part of the data repair keeps. */
	uint64_t fixable;
	/* for repair: the data up to good_end is whole and valid */
	struct tfk_perf_layout lay;
	bool frozen;                /* a damaged record ended the good part of the data */
	/* Told of every sample whose fields walked whole (NULL: nobody asks): its record's offset
	   (of the COMPRESSED record holding it, in compressed data), its time and CPU when it has them. */
	void (*on_sample)(struct pf_check *pc, uint64_t at, uint64_t time, bool has_time, uint32_t cpu, bool has_cpu);
};


/* Errors so far that leave what they damaged unrepairable. */
static inline uint64_t pf_errors(const struct pf_check *pc)
{
	return pc->ctx->faults[TFK_SEV_ERROR] - pc->fixable;
}

/* A record's body, its size already sound (tr: its sample_id trailer's bytes): counts, strings, ranges. */
void pf_check_body(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type, uint32_t tr);
void pf_bad_body(struct pf_check *pc, uint64_t at, uint32_t type, const char *expected, const char *found);
/* A NUL in [from, to) of the record, else a finding; false then. */
bool pf_needs_nul(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type, uint64_t from, uint64_t to);

/* The attr a sample or record belongs to (NULL: none could be found, already reported). */
const struct pf_attr *pf_attr_by_id(struct pf_check *pc, uint64_t id);
void pf_add_id(struct pf_check *pc, uint64_t id, uint32_t attr);
/* Room for one more attr at pc->attrs[pc->nattrs] (capped by the limits), or NULL. */
struct pf_attr *pf_new_attr(struct pf_check *pc);

const char *pf_feature_name(unsigned bit);
/* simpleperf's name for a feature bit from 128, or NULL. */
const char *pf_simpleperf_feature_name(unsigned bit);
/* Feature payload (bit) held by view, at file offset view->origin. */
void pf_check_feature(struct pf_check *pc, unsigned bit, const struct tfk_cursor *view);
/* A feature table for pc->bits at file offset table, every section inside the file after it? */
bool pf_feature_table_at(const struct pf_check *pc, uint64_t table);
/* Walk a record stream (the data section, a decoded COMPRESSED block, a pipe). */
void pf_walk_records(struct pf_check *pc, const struct tfk_cursor *stream, int depth);
/* Read a perf_event_attr at view offset 0 into a; false when it is too short. */
bool pf_read_attr(struct pf_check *pc, const struct tfk_cursor *view, struct pf_attr *a, const char *where);
/* After the walk: findings gathered over the whole stream. */
void pf_finish_records(struct pf_check *pc);
/* Free what a check allocated in pc (attrs, ids, claims, the zstd stream and its buffer). */
void pf_check_release(struct pf_check *pc);

#endif
