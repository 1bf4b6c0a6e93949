/* SPDX-License-Identifier: MIT */
/* uftrace data directories: what the member checks share. */
#ifndef TFK_UFTRACE_H
#define TFK_UFTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../formats.h"
#include "keyindex.h"
#include "uftrace_model.h"

#define UF_FEAT_TASK_SESSION (1ull << 1)
#define UF_FEAT_KERNEL (1ull << 2)
#define UF_FEAT_ARGUMENT (1ull << 3)
#define UF_FEAT_RETVAL (1ull << 4)
#define UF_FEAT_MAX_STACK (1ull << 6)
#define UF_FEAT_PERF_EVENT (1ull << 8)
#define UF_FEAT_AUTO_ARGS (1ull << 9)
#define UF_FEAT_DEBUG_INFO (1ull << 10)
#define UF_FEAT_ESTIMATE_RETURN (1ull << 11) /* --estimate-return: exit times are estimates */
#define UF_FEAT_SYM_SIZE (1ull << 12)
#define UF_FEAT_KNOWN ((1ull << 14) - 1)

#define UF_SID_LEN 16

struct uf_sid {
	char sid[UF_SID_LEN + 1];
};

struct td_rings;
struct uf_args;

/* kernel_header as read, and what the kernel-cpu<N>.dat walks need of it (uftrace_kernel.c). */
struct uf_kernel {
	bool present;          /* kernel_header was read */
	bool page_size_seen, long_size_seen, endian_seen, endian_ok;
	bool keys_reported;    /* the keys were missing or invalid at the first block: said once */
	bool header_page;      /* an events/header_page block */
	bool cut;              /* a block runs past the end of the file */
	uint32_t page_size;    /* PAGE_SIZE, 0 when missing or invalid */
	uint8_t long_size;     /* LONG_SIZE, 0 when missing or invalid */
	bool big_endian;
	size_t formats;
	struct td_rings *rings; /* formats and page geometry for the walks, NULL when unknown */
};

/* A text copied from a member (NULL when absent). */
struct uf_text {
	char *s;
	size_t n;
};

/* info's argument spec lines: argspec:, retspec:, argauto:, retauto:. */
enum { UF_SPEC_ARG, UF_SPEC_RET, UF_SPEC_ARGAUTO, UF_SPEC_RETAUTO, UF_SPEC_KINDS };

/* What one member's check tells the others. */
struct uf_state {
	bool has_info, info_ok, big_endian;
	bool feat_known;      /* info's header was read (its magic, or its numbers, intact): feat is the recording's */
	uint8_t fix_endian, fix_class; /* the header byte repair writes instead (0: keep), found by the data */
	bool fix_magic;       /* the magic alone is damaged: repair writes it */
	unsigned header_fixes; /* info's error findings that those bytes fix */
	uint64_t map_addr_max; /* the highest address of the session maps (for the ELF class) */
	char map_addr_member[64]; /* the map that holds it */
	bool filtered;        /* recorded with filters (cmdline): depth gaps are legitimate */
	bool may_be_empty;    /* recorded with filters or --trace=off: no task data at all is legitimate */
	bool depth_wraps;     /* max_stack above 1024: depths past 1023 wrap in the record's field */
	char cmdline[TFK_UFTRACE_PATH_MAX]; /* info's cmdline line, when it fits, for repair */
	char exename[TFK_UFTRACE_PATH_MAX]; /* info's exename, when it fits and has no quote or control byte */
	uint64_t feat, info_mask;
	unsigned max_stack;
	int elf_class;
	int64_t *info_tids;   /* taskinfo:tids */
	size_t n_info_tids, cap_info_tids;
	int64_t *task_tids;   /* TASK tids and FORK children of task.txt */
	size_t n_task_tids, cap_task_tids;
	/* Where a tid, pid or sid sits in the arrays here: lookups per line stay constant time. */
	struct tfk_keyindex task_tid_ix, link_ix, sess_time_ix, sid_ix;
	struct uf_sid *sids;  /* SESS sids */
	size_t n_sids, cap_sids;
	struct uf_sess_time { int64_t pid; uint64_t ns; } *sess_times; /* earliest SESS per pid */
	size_t n_sess_times, cap_sess_times;
	struct uf_task_link { int64_t tid, pid, ppid; } *links; /* TASK tid -> pid, FORK child -> parent */
	size_t n_links, cap_links;
	uint64_t member_errors, member_warnings; /* raised at the member checked last */
	struct uf_kernel kernel;
	struct uf_text spec_text[UF_SPEC_KINDS];
	bool spec_section;    /* the ARG_SPEC section was read whole */
	bool auto_args;       /* its auto-args:1 line */
	int patt_type;        /* pattern_type: as enum uf_patt (uftrace_argspec.h); 0 without the line */
	struct uf_args *args; /* payload lengths from the spec (uftrace_args.h), or NULL: guessed */
	unsigned max_depth;   /* deepest depth recorded */
	unsigned over_depth;  /* the deepest record at or past max_stack that its task's records allow, or 0 */
	const char *over_member;
	uint16_t fix_max_stack; /* the max_stack repair writes (0: keep) */
	const char *max_depth_member;
};

/* A text line of a member: its bytes (no newline), offset and 1-based number. */
struct uf_line {
	const char *s;
	size_t len;
	uint64_t offset;
	uint64_t number;
	bool terminated;
};

/* Are the n bytes at s hex digits (and n > 0)? Their value (n at most 16). */
bool uf_all_hex(const char *s, size_t n);
uint64_t uf_hex_value(const char *s, size_t n);

/* The next line of c (which advances past it); false at the end. */
bool uf_next_line(struct tfk_cursor *c, struct uf_line *line);

void uf_check_info(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file);
void uf_check_task(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_cursor *file);
void uf_check_map(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file);
/* What is wrong with a line of a session map (as uf_check_map reports it), or NULL. */
const char *uf_map_line_bad(const struct uf_line *l);
void uf_check_sym(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file);
void uf_check_dbg(struct tfk_ctx *ctx, const struct tfk_cursor *file);
void uf_check_events(struct tfk_ctx *ctx, const struct tfk_cursor *file);
void uf_check_extern(struct tfk_ctx *ctx, const struct tfk_cursor *file);
void uf_check_dat(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file, const char *name);
void uf_check_perf(struct tfk_ctx *ctx, const struct tfk_cursor *file);
void uf_check_kernel_header(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file);
/* kernel-cpu<N>.dat files and no kernel_header: a warning, and the pages walked with the usual layout. */
void uf_kernel_no_header(struct tfk_ctx *ctx, struct uf_state *st);
void uf_check_kernel_cpu(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file, const char *name);

/* Send one struct of the repair model (uftrace_model.h) to the observer, if any. */
void uf_send(struct tfk_ctx *ctx, uint32_t kind, const void *data, size_t size);
/* A line's problem context: its number in the path, its first 120 bytes as what was found. */
#define UF_LINE_PCTX(l)                                                                                   \
	((struct tfk_pctx){ .tmpl = "line %u:", .num = { (l)->number }, .found_bytes = (l)->s,                 \
			    .found_len = (l)->len > 120 ? 120 : (l)->len })
/* A finding about a text line (raised with its UF_LINE_PCTX): path "line N: what"; expected if not NULL. */
struct tfk_finding *uf_line_fault(struct tfk_ctx *ctx, enum tfk_fault_code code, const struct uf_line *l,
				  const char *what, const char *expected);
/* Tell repair to drop a malformed line of the member being checked (ctx->member). */
void uf_send_line(struct tfk_ctx *ctx, enum tfk_fault_code code, const struct uf_line *line);

/* Is tid a TASK or FORK child of task.txt? */
bool uf_task_known(const struct uf_state *st, int64_t tid);
/* Free what the state holds. */
void uf_state_free(struct uf_state *st);
/* The time of the earliest session a task's records may belong to (ns), or 0 when unknown. */
uint64_t uf_task_session_ns(const struct uf_state *st, int64_t tid);

/* A finding about record `index` of a task or perf-cpu file: path "record N", expected, found. */
__attribute__((format(printf, 7, 8))) void uf_emit_record(struct tfk_ctx *ctx, enum tfk_fault_code code, uint64_t off,
							  uint64_t len, uint64_t index, const char *expected,
							  const char *fmt, ...);

/* The format's model messages drawn on a picture (uftrace_picture.c). */
void uf_picture(struct tfk_picture *picture, uint32_t kind, const void *data, size_t size);

#endif
