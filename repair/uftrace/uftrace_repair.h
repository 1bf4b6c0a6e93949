/* SPDX-License-Identifier: MIT */
/* uftrace data directories' repair: the model the check's messages build, and its writers. */
#ifndef TFK_REPAIR_UFTRACE_H
#define TFK_REPAIR_UFTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "output.h"
#include "tracefsck/formats/uftrace.h"
#include "tracefsck/repair.h"

struct tfk_input;
struct rp_dir;

/* Bounds on what the model keeps (the input's size does not size it): past them repair refuses. */
#define UR_MAX_LINES (1u << 22) /* malformed lines to drop, over every text member */
#define UR_MAX_TIDS (1u << 16)  /* distinct tasks of task.txt */

/* A line to drop: the member (an index into ur_model.names) and its bytes. */
struct ur_line {
	size_t name;
	uint64_t offset, len;
};

/* A page of a kernel-cpu<N>.dat that is not written as it is: dropped, or its commit word and
 * tail rebuilt (the events before len kept, the missed-events flags of commit). */
struct ur_page {
	uint64_t offset;
	bool drop;
	uint32_t len;          /* committed bytes kept */
	uint64_t commit;       /* the commit word written */
	uint64_t missed_count; /* written after the data when commit has bit 30 */
};

/* One kernel-cpu<N>.dat as walked: its layout, the pages to change (in file order), the salvage. */
struct ur_kernel {
	struct tfk_uftrace_kernel k;
	struct ur_page *pages;
	size_t npages, cap_pages;
	uint64_t whole_pages, pages_dropped, events_kept, events_lost;
	bool lost_unknown;
	bool have_ts, pending_missed;
	uint64_t last_ts;
};

struct ur_model {
	bool have_info;                   /* the check sent its view of info */
	struct tfk_uftrace_info info;
	struct tfk_uftrace_member *members;
	size_t nmembers, cap_members;
	struct ur_name {
		char name[TFK_UFTRACE_MEMBER_MAX];
		size_t first;             /* its first line in lines (a member's lines come together) */
	} *names;                         /* members that have lines to drop */
	size_t nnames, cap_names;
	struct ur_line *lines;
	size_t nlines, cap_lines;
	struct tfk_uftrace_task *tasks;
	size_t ntasks, cap_tasks;
	struct tfk_uftrace_sym *syms;
	size_t nsyms, cap_syms;
	struct tfk_uftrace_perf *perfs;
	size_t nperfs, cap_perfs;
	struct ur_kernel *kernels;        /* the kernel-cpu<N>.dat walked, the last one being walked */
	size_t nkernels, cap_kernels;
	int64_t *tids;                    /* TASK tids and FORK children of task.txt, in order */
	size_t ntids, cap_tids;
	char exename[TFK_UFTRACE_PATH_MAX]; /* of the first valid SESS line, "" when none */
	char (*sids)[17];                 /* the sids of task.txt's valid SESS lines */
	size_t nsids, cap_sids;
	int64_t sess_pid;                 /* the pid of the first valid SESS line (0 when none) */
	uint64_t sess_ns;                 /* and its time */
	bool oom;                         /* a message could not be kept: repair refuses */
	bool too_many;                    /* more lines to drop or tasks than the bounds below */
	/* Decided while writing: */
	bool rebuild_info;
	uint64_t records_kept, records_lost, members_left_out;
	bool loss_unknown;
};

/*
 * The records of a task's data (size bytes) before cut into o, the values of arguments and
 * return values left out (uftrace_strip.c): *records kept, *stripped of them lost their
 * values. 0, or -1 when out of memory.
 */
int ur_strip_payloads(const uint8_t *data, uint64_t size, uint64_t cut, bool big_endian, struct rp_out *o,
		      uint64_t *records, uint64_t *stripped);

struct tfk_observer ur_observer(void *model, const uint8_t *in, size_t size, unsigned pass);
void ur_model_free(void *model);


const struct tfk_uftrace_member *ur_member(const struct ur_model *m, const char *name);
const struct tfk_uftrace_task *ur_task(const struct ur_model *m, const char *name);
const struct tfk_uftrace_sym *ur_sym(const struct ur_model *m, const char *name);
const struct tfk_uftrace_perf *ur_perf(const struct ur_model *m, const char *name);
const struct ur_kernel *ur_kernel(const struct ur_model *m, const char *name);
/* Kernel pages: a kernel-cpu<N>.dat about to be walked, then each of its pages (uftrace_kernel_pages.c). */
void ur_kernel_begin(struct ur_model *m, const struct tfk_uftrace_kernel *k);
void ur_kernel_page(void *user, const uint8_t *page, const struct tfk_page_info *info);
/* Write the whole pages of a kernel-cpu<N>.dat with the changes its walk decided; 0 or -1 (ENOMEM). */
int ur_kernel_write(const struct ur_kernel *k, const uint8_t *data, uint64_t size, struct rp_out *o);
/* The index of name in m->names, or SIZE_MAX. */
size_t ur_name(const struct ur_model *m, const char *name);

/*
 * A minimal info for a recording whose info is missing or damaged (spec §2.10): the header,
 * exename from the first session, taskinfo from tids (n of them). perf: perf-cpu files kept.
 */
bool ur_info_build(const struct ur_model *m, const int64_t *tids, size_t n, bool perf, struct rp_blob *out);

/* The repaired directory: every member of in written into dir, what was done in rep->members. */
int ur_write_dir(const void *model, const struct tfk_input *in, struct rp_dir *dir, struct tfk_repair_report *rep);

#endif
