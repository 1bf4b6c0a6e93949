/* SPDX-License-Identifier: MIT */
/* uftrace's perf-cpu<N>.dat: the perf records of its per-CPU ring buffers, without a header. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/perfrec/perfrec.h"
#include "uftrace.h"

/* perf-cpu<N>.dat: raw perf records of uftrace's fixed attr (TID|TIME, sample_id_all). */
/*
 * uftrace's own rules first (the sizes its reader trusts: crasher #8), up to the first record
 * that breaks them; the whole records before it then go through the perf.data record walker
 * with the attr uftrace always uses (setup_perf_record(): TID|TIME, sample_id_all), which
 * checks each record's body and sample_id trailer as in a perf.data file.
 */
void uf_check_perf(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	const struct tfk_cursor c = *file;
	uint64_t pos = 0, index = 0;
	bool tail = false; /* the walk stopped at a record cut by the end of the file */
	while (pos < c.len) {
		uint32_t type;
		uint16_t size;
		uint64_t left = c.len - pos;
		if (left < 8 || !tfk_cur_u32_at(&c, pos, &type) || !tfk_cur_u16_at(&c, pos + 6, &size)) {
			uf_emit_record(ctx, TFK_UFTRACE_PERF_BAD_RECORD, pos, left, index, "an 8-byte record header",
				    "%llu bytes at the end of the file", (unsigned long long)left);
			tail = true;
			break;
		}
		int want = type == 14 ? 24 : type == 7 || type == 4 ? 48 : 0;
		const char *expected = NULL;
		if (size < 8)
			expected = "a size of at least 8";
		else if (want && size != want)
			expected = type == 14 ? "size 24 (SWITCH)" : "size 48 (FORK/EXIT)";
		else if (type == 3 && (size < 32 || size % 8))
			expected = "a size of at least 32, a multiple of 8 (COMM)";
		if (expected) {
			uf_emit_record(ctx, TFK_UFTRACE_PERF_BAD_RECORD, pos, 8, index, expected, "type %u size %u", type, size);
			break;
		}
		if (size > left) {
			uf_emit_record(ctx, TFK_UFTRACE_PERF_BAD_RECORD, pos, left, index, "the whole record",
				    "size %u, %llu bytes left", size,
				    (unsigned long long)left);
			tail = true;
			break;
		}
		pos += size;
		index++;
	}
	/* For repair: where the records uftrace reads safely end; none when the walker finds errors. */
	struct tfk_uftrace_perf m;
	memset(&m, 0, sizeof(m));
	snprintf(m.member, sizeof(m.member), "%s", ctx->member ? ctx->member : "");
	m.size = c.len;
	m.good_end = pos;
	m.records_good = index;
	m.cut_tail = tail;
	const uint64_t errors = ctx->report->by_severity[TFK_SEV_ERROR];
	if (pos == 0) {
		uf_send(ctx, TFK_UFTRACE_MODEL_PERF, &m, sizeof(m));
		return;
	}
	/* PERF_TYPE_SOFTWARE: the dummy event of setup_perf_record() */
	const struct perfrec_attr attr = { .type = 1, .sample_type = PERFREC_SAMPLE_TID | PERFREC_SAMPLE_TIME,
					   .flags = PERFREC_FLAG_SAMPLE_ID_ALL };
	struct perfrec *walker = perfrec_new(ctx, &c, &attr);
	if (!walker) {
		m.good_end = m.records_good = 0;
		m.cut_tail = false;
		uf_send(ctx, TFK_UFTRACE_MODEL_PERF, &m, sizeof(m));
		return;
	}
	struct tfk_cursor whole;
	tfk_cur_sub(&c, 0, pos, &whole);
	perfrec_walk(walker, &whole);
	if (ctx->report->by_severity[TFK_SEV_ERROR] != errors) {
		m.good_end = m.records_good = 0;
		m.cut_tail = false;
	}
	uf_send(ctx, TFK_UFTRACE_MODEL_PERF, &m, sizeof(m));
	perfrec_free(walker);
}
