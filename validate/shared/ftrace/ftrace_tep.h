/* SPDX-License-Identifier: MIT */
/*
 * How the check asks libtraceevent whether a kept format parses: one set of questions, asked in
 * the guarded child (ftrace_tep_guard.c) or, for the fuzz harnesses, in this process
 * (ftrace_tep_inproc.c), so that both give the same answers by construction.
 */
#ifndef TFK_FTRACE_TEP_H
#define TFK_FTRACE_TEP_H

#include <stdbool.h>
#include <stddef.h>

#include "ftrace.h"

struct tep_handle;

/* A handle set up as trace-cmd's would be for this trace (byte order, long size, page size, the
 * print helpers of its plugins); NULL when libtraceevent cannot start. Freed with tep_free. */
struct tep_handle *td_tep_open(const struct td_check *td);

/* Does libtraceevent parse kept format r? False when it rejects it or keeps it flagged as failed. */
bool td_tep_parses(struct tep_handle *tep, const struct td_check *td, const struct td_fmt_ref *r);

/* libtraceevent did not start: the formats from `next` on are left to our grammar (a limit finding). */
void td_tep_start_failed(struct td_check *td, size_t next);

/* Every kept format parsed in this process, no child: the parse_in_process test hook (test_hooks.h). */
void td_parse_in_process(struct td_check *td);

#endif
