/* SPDX-License-Identifier: MIT */
/*
 * Failure injection for tracefsck's own tests and fuzz harnesses: reached through the opaque
 * tfk_limits.test_hooks pointer, so that the public structs carry no testing fields and a
 * program embedding the library cannot set them by accident.
 */
#ifndef TFK_TEST_HOOKS_H
#define TFK_TEST_HOOKS_H

#include <stdint.h>

#include "tracefsck/limits.h"

struct tfk_test_hooks {
	uint64_t fail_alloc_after;    /* allocations after this many fail; 0 = never */
	uint32_t fail_optional_alloc; /* nonzero: every allocation with a slower way round it
	                                 (threads, read windows) fails; the report must not change */
	uint32_t parser_crash_at;     /* the parser child dies (SIGSEGV) on the Nth format; 0 = never */
	uint32_t parser_hang_at;      /* the parser child hangs (loops, burning CPU) on the Nth format; 0 = never */
	uint32_t parser_escape_at;    /* the parser child tries to open a socket on the Nth format, as a
	                                 subverted parser would: its leash must kill it; 0 = never */
	uint32_t parse_in_process;    /* nonzero: libtraceevent parses the kept formats in this process,
	                                 not in a guarded child (the fuzz harnesses: no fork per input,
	                                 a parser crash is theirs); the report must not change. The
	                                 parser_*_at hooks act on a child only */
	uint32_t parser_setup_ms;     /* nonzero: the parser child's start-up deadline, instead of 30 s */
	uint32_t parser_stall_at;     /* the parser child sleeps parser_stall_ms before the Nth format, as
	                                 a child the machine does not run would; the report must not change */
	uint32_t parser_stall_ms;
	uint32_t parse_collect_delay_ms; /* the parent collects the parser's answers this late, as after
	                                 a long page walk; the report must not change */
	void (*loaded)(void *arg);    /* non-NULL: called once the input is loaded (mapped) or a
	                                 directory listed, before it is checked: a test changes the
	                                 file there, as another process would */
	void *loaded_arg;
	uint64_t *taken_ahead;        /* non-NULL: counts the CPU walks a check took from worker threads,
	                                 so a test can tell that its ranges were walked ahead at all */
	uint64_t *read_ahead;         /* non-NULL: counts the windows a check read ahead on a thread */
	uint32_t record_by_record;    /* nonzero: the fast paths are off (runs of plain uftrace records
	                                 taken at once, CTF events through lanes and fields from flat
	                                 plans): each record and field goes the general way; the report
	                                 must not change */
	uint64_t *lane_events;        /* non-NULL: counts the CTF events a check decoded through lanes
	                                 (ctf_lane.h), so a test can tell that they were used at all */
};

/* A hook's value for these limits (0 when no hooks are set). */
#define TFK_HOOK(limits, field) ((limits)->test_hooks ? (limits)->test_hooks->field : 0)

#endif
