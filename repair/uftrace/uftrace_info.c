/* SPDX-License-Identifier: MIT */
/*
 * The minimal info of a killed (or info-damaged) uftrace recording, as spec §2.10 verified
 * that uftrace replay, info and report accept it: a 40-byte header (magic, version 4, header
 * size 40, the byte order and class of the recording, features TASK_SESSION | SYM_REL_ADDR |
 * MAX_STACK, PERF_EVENT when perf-cpu files are kept, max_stack 1024; a damaged info's whole
 * header gives its own descriptive features instead of SYM_REL_ADDR), then the sections
 * EXE_NAME and TASKINFO, written as uftrace writes them (and CMDLINE, kept from a damaged info
 * when it holds filters, under which depth gaps are legitimate).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "uftrace_repair.h"

#define FEAT_TASK_SESSION (1ull << 1)
#define FEAT_SYM_REL_ADDR (1ull << 5)
#define FEAT_MAX_STACK (1ull << 6)
#define FEAT_PERF_EVENT (1ull << 8)
/* PLTHOOK, SYM_REL_ADDR, EVENT, DEBUG_INFO, ESTIMATE_RETURN, SYM_SIZE, CALLSITE */
#define FEAT_KEPT ((1ull << 0) | (1ull << 5) | (1ull << 7) | (1ull << 10) | (1ull << 11) | (1ull << 12) | (1ull << 13))
#define INFO_EXE_NAME (1ull << 0)
#define INFO_CMDLINE (1ull << 3)
#define INFO_TASKINFO (1ull << 7)

static bool put_text(struct rp_blob *b, const char *s)
{
	return rp_blob_append(b, (const uint8_t *)s, strlen(s));
}

bool ur_info_build(const struct ur_model *m, const int64_t *tids, size_t n, bool perf, struct rp_blob *out)
{
	/* The recording's byte order and class when the old header told them, else this host's (a
	 * killed recording was made here). Records are read in this order. */
	const bool be = m->have_info && m->info.header_ok ? m->info.big_endian : false;
	const uint8_t cls = m->have_info && m->info.header_ok && m->info.elf_class == 1 ? 1 : 2;
	uint8_t h[40];
	memset(h, 0, sizeof(h));
	memcpy(h, "Ftrace!", 8);
	rp_put_num(h + 8, 4, 4, be);
	rp_put_num(h + 12, 40, 2, be);
	h[14] = be ? 2 : 1;
	h[15] = cls;
	/*
	 * A damaged info whose header was whole keeps the features that describe the recording
	 * (PLTHOOK, SYM_REL_ADDR, EVENT, DEBUG_INFO, ESTIMATE_RETURN, SYM_SIZE: how the other
	 * members are written); never those whose data went with the text (ARGUMENT, RETVAL,
	 * AUTO_ARGS), nor KERNEL; PERF_EVENT as the files kept say.
	 */
	uint64_t feat = FEAT_SYM_REL_ADDR;
	if (m->have_info && m->info.header_ok)
		feat = m->info.feat & FEAT_KEPT;
	feat |= FEAT_TASK_SESSION | FEAT_MAX_STACK | (perf ? FEAT_PERF_EVENT : 0);
	rp_put_num(h + 16, feat, 8, be);
	/* The command line of a damaged info stays when it holds filters: depth gaps are read the same way. */
	const bool cmdline = m->have_info && m->info.filtered && strncmp(m->info.cmdline, "cmdline:", 8) == 0 &&
			     memchr(m->info.cmdline, '\0', sizeof(m->info.cmdline)) != NULL;
	rp_put_num(h + 24, INFO_EXE_NAME | (cmdline ? INFO_CMDLINE : 0) | INFO_TASKINFO, 8, be);
	rp_put_num(h + 32, 1024, 2, be);
	bool ok = rp_blob_append(out, h, sizeof(h));
	/* the first session's executable, else (task.txt made again) the one the old info named */
	ok &= put_text(out, "exename:") && put_text(out, m->exename[0] ? m->exename : m->info.exename) &&
	      put_text(out, "\n");
	if (cmdline)
		ok &= put_text(out, m->info.cmdline) && put_text(out, "\n");
	char num[32];
	snprintf(num, sizeof(num), "%zu\n", n);
	ok &= put_text(out, "taskinfo:lines=2\ntaskinfo:nr_tid=") && put_text(out, num) && put_text(out, "taskinfo:tids=");
	for (size_t i = 0; i < n; i++) {
		snprintf(num, sizeof(num), "%s%" PRId64, i ? "," : "", tids[i]);
		ok &= put_text(out, num);
	}
	ok &= put_text(out, "\n");
	return ok;
}
