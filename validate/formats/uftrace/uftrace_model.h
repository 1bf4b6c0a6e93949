/* SPDX-License-Identifier: MIT */
/*
 * uftrace data directories: the model for repair, sent through tfk_observer.model (format:
 * &tfk_format_uftrace; private to uftrace's check and repair). Each struct is sent as its member has been
 * checked; names are member paths relative to the directory. Repair keeps what these say is
 * whole, cuts what they say is damaged, and rebuilds `info` when it is missing or damaged.
 */
#ifndef TRACEFSCK_FORMATS_UFTRACE_H
#define TRACEFSCK_FORMATS_UFTRACE_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define TFK_UFTRACE_MODEL_INFO 1u      /* struct tfk_uftrace_info, before any member (again at the end when a header fix was found late) */
#define TFK_UFTRACE_MODEL_MEMBER 2u    /* struct tfk_uftrace_member, after each member's check */
#define TFK_UFTRACE_MODEL_LINE 3u      /* struct tfk_uftrace_line, for each text line to drop */
#define TFK_UFTRACE_MODEL_TASK_LINE 4u /* struct tfk_uftrace_task_line, each valid line of task.txt */
#define TFK_UFTRACE_MODEL_TASK 5u      /* struct tfk_uftrace_task, after each <tid>.dat */
#define TFK_UFTRACE_MODEL_SYM 6u       /* struct tfk_uftrace_sym, after each .sym */
#define TFK_UFTRACE_MODEL_PERF 7u      /* struct tfk_uftrace_perf, after each perf-cpu<N>.dat */
/* struct tfk_uftrace_kernel, before each kernel-cpu<N>.dat's pages: those reach the observer's
 * page callback next, their file_offset inside that member. */
#define TFK_UFTRACE_MODEL_KERNEL 8u

#define TFK_UFTRACE_MEMBER_MAX 256
#define TFK_UFTRACE_PATH_MAX 4096
#define TFK_UFTRACE_INFO_TIDS 64

/* The info file as the check read it. */
struct tfk_uftrace_info {
	bool present;          /* a regular file named info */
	bool header_ok;        /* magic, version, header size, endian and class all valid */
	bool big_endian;
	uint8_t elf_class;     /* 1 or 2 (2 when unknown) */
	uint64_t feat, info_mask;
	uint16_t max_stack;
	/*
	 * The CMDLINE section's line ("cmdline:..."), when it was read whole and is shorter than
	 * the buffer, else "". filtered: it holds options (filters, depth limits) under which depth
	 * gaps are legitimate; a rebuilt info keeps the line so the records are read the same way.
	 */
	bool filtered;
	char cmdline[TFK_UFTRACE_PATH_MAX];
	/* The EXE_NAME section's path, when read whole, shorter than the buffer and free of quotes
	 * and control bytes (a task.txt SESS line can carry it), else "". */
	char exename[TFK_UFTRACE_PATH_MAX];
	/* taskinfo:tids, the first TFK_UFTRACE_INFO_TIDS of them; tids_all: that is all of them */
	int64_t tids[TFK_UFTRACE_INFO_TIDS];
	uint32_t ntids;
	bool tids_all;
	/*
	 * Header bytes the check found wrong and could tell right from the rest of the recording:
	 * the magic (the other fields read right), the endian byte (the order the header's version
	 * and size are written in), the ELF class (2 when the session maps hold addresses above
	 * 4 GiB); 0 or false: keep. header_fixes: info's error findings these bytes answer; when
	 * they are all its errors, repair writes info with them and keeps everything else.
	 */
	bool fix_magic;
	uint8_t fix_endian, fix_class;
	uint16_t fix_max_stack; /* records deeper than max_stack that follow from each other: raised */
	uint32_t header_fixes;
};

/* One member checked: errors counts the error findings raised at it (cross-checks included). */
struct tfk_uftrace_member {
	char member[TFK_UFTRACE_MEMBER_MAX];
	uint64_t size;
	uint32_t errors, warnings;
};

/* A malformed line of a text member (task.txt, sid-*.map, *.sym, events.txt) that repair drops. */
struct tfk_uftrace_line {
	char member[TFK_UFTRACE_MEMBER_MAX];
	uint64_t offset, len;  /* the line's bytes, without its newline */
	uint64_t number;       /* 1-based */
	uint32_t code;         /* the fault (enum tfk_fault_code) that condemns it */
};

enum tfk_uftrace_task_kind {
	TFK_UFTRACE_SESS = 0,
	TFK_UFTRACE_TASK,
	TFK_UFTRACE_FORK,
	TFK_UFTRACE_EXEC,
	TFK_UFTRACE_DLOP,
};

/* A line of task.txt that passed the grammar (and, for DLOP, names a known session). */
struct tfk_uftrace_task_line {
	enum tfk_uftrace_task_kind kind;
	uint64_t number;
	uint64_t ns;           /* its timestamp, 0 when malformed */
	int64_t tid, pid, ppid; /* TASK: tid, pid; FORK: pid (the child), ppid; SESS/EXEC: pid; DLOP: tid */
	char sid[17];          /* SESS, DLOP */
	char exename[TFK_UFTRACE_PATH_MAX]; /* SESS, EXEC: the path between the quotes */
};

/* Why a task's records stop being usable before the end of its file. */
enum tfk_uftrace_cut {
	TFK_UFTRACE_CUT_NONE = 0,  /* every record is whole and valid */
	TFK_UFTRACE_CUT_PARTIAL,   /* a record or payload cut by the end of the file */
	TFK_UFTRACE_CUT_MAGIC,     /* a record with a bad magic: nothing after it is walked */
	TFK_UFTRACE_CUT_PAYLOAD,   /* a payload whose length cannot be known */
	TFK_UFTRACE_CUT_INVALID,   /* a whole record the check calls an error (depth, time, event, more) */
};

/* One <tid>.dat as the check walked it. */
struct tfk_uftrace_task {
	char member[TFK_UFTRACE_MEMBER_MAX];
	int64_t tid;
	uint64_t size;
	/* Where the last whole valid record (with its payload) ends, and the records before it. */
	uint64_t good_end, records_good;
	enum tfk_uftrace_cut cut;
	/* Records walked past good_end (whole, but after the first invalid one). */
	uint64_t records_after;
	/*
	 * The first ENTRY or EXIT record carrying arguments or a return value (more = 1) before
	 * good_end, and the records before it: without a recovered argument spec, repair must cut
	 * there. payload_at == UINT64_MAX when there is none.
	 */
	uint64_t payload_at, records_before_payload;
	uint64_t payload_time;     /* the time of that record */
	uint64_t first_time, last_time; /* of the first and last valid record (0 when none) */
	uint64_t min_time;         /* the earliest time of a valid record (UINT64_MAX when none): records may go back */
	uint64_t cut_time;         /* the time of the first record after good_end, when readable, else 0 */
	unsigned max_depth;
};

/* One .sym file: its count line and how many symbol lines survive. */
struct tfk_uftrace_sym {
	char member[TFK_UFTRACE_MEMBER_MAX];
	bool count_ok;         /* one '# symbols: N' before every symbol line, N large enough */
	uint64_t counted;      /* valid symbol lines that are not '?' range ends and not all-ones */
};

/* One perf-cpu<N>.dat: where its last whole record that uftrace reads safely ends. */
struct tfk_uftrace_perf {
	char member[TFK_UFTRACE_MEMBER_MAX];
	uint64_t size, good_end, records_good;
	bool cut_tail;         /* what follows good_end is one record cut by the end of the file */
};

/* One kernel-cpu<N>.dat about to be walked: the layout of its ftrace ring pages. */
struct tfk_uftrace_kernel {
	char member[TFK_UFTRACE_MEMBER_MAX];
	uint64_t size;
	uint32_t page_size, commit_size, data_offset;
	bool big_endian;
};

#ifdef __cplusplus
}
#endif
#endif
