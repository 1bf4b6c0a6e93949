/* SPDX-License-Identifier: MIT */
/* uftrace's binary members: <tid>.dat task records and perf-cpu<N>.dat perf records. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readahead.h"
#include "test_hooks.h"
#include "uftrace.h"
#include "uftrace_args.h"
#include "uftrace_records.h"

#define UF_RELEASE_STEP (16u << 20)
#define UF_LISTED_MAX 16 /* findings of one kind listed per task; the rest are counted */

/*
 * The task's bytes are read in windows: copied by descriptor when they lie in a member's
 * mapping, which spares a page fault per few pages of a large task, else viewed in place. The
 * copy is made a window ahead on a thread (tfk_readahead) where it can be, else here
 * (tfk_read_mapped). A record is walked only when the window holds UF_LOOK bytes from its
 * start (or the rest of the file): its header, an event's length and every candidate of a
 * payload guess.
 */
#define UF_WINDOW (256u << 10)
/*
 * Read-ahead windows are larger: each hand-over between the threads costs two wake-ups, which
 * at 256 KiB (a window walked in some 30 us) ate the gain; at 4 MiB they are lost in the walk.
 */
#define UF_AHEAD_WINDOW (4u << 20)
#define UF_LOOK (16 + UF_PAYLOAD_MAX + 64)

struct uf_window {
	struct tfk_cursor v;      /* origin: the member offset of v.base[0] */
	struct tfk_readahead *ra; /* reading ahead, or NULL */
	uint8_t *buf;             /* UF_WINDOW bytes, or NULL: view the mapping */
};

static void win_ensure(struct tfk_ctx *ctx, struct uf_window *w, const struct tfk_cursor *c, uint64_t pos)
{
	uint64_t end = w->v.origin + w->v.len;
	if (w->v.base && pos >= w->v.origin && (end == c->len || (end > pos && end - pos >= UF_LOOK)))
		return;
	if (w->ra && tfk_readahead_view(w->ra, pos, &w->v))
		return;
	uint64_t n = c->len - pos < UF_WINDOW ? c->len - pos : UF_WINDOW;
	if (w->buf && n && tfk_read_mapped(ctx, c->base + pos, n, w->buf)) {
		w->v = tfk_cur_make(w->buf, n, c->origin + pos, c->big_endian);
		return;
	}
	tfk_cur_sub(c, pos, n, &w->v);
}

/* A record header at member offset at of the bytes v views: time and second word. */
static bool view_record(const struct tfk_cursor *v, uint64_t at, uint64_t *time, uint64_t *word)
{
	return at >= v->origin && tfk_cur_u64_at(v, at - v->origin, time) && tfk_cur_u64_at(v, at - v->origin + 8, word);
}

static bool read_record(const struct uf_window *w, uint64_t at, uint64_t *time, uint64_t *word)
{
	return view_record(&w->v, at, time, word);
}

static unsigned rec_type(uint64_t w) { return (unsigned)(w & 3); }
static bool rec_more(uint64_t w) { return (w >> 2) & 1; }
static unsigned rec_magic(uint64_t w) { return (unsigned)((w >> 3) & 7); }
static unsigned rec_depth(uint64_t w) { return (unsigned)((w >> 6) & 0x3ff); }

/*
 * libmcount writes a LOST record, when it ran out of buffers, with time 0 (uftrace dump prints
 * it at 0.000000000), the depth it was at, no payload and the count lost in the address: no
 * time to compare, and none to compare with.
 */
static bool untimed_lost(uint64_t t, uint64_t w)
{
	return t == 0 && (w & 0x3f) == (UF_LOST | (uint64_t)UF_RECORD_MAGIC << 3);
}
static uint64_t rec_addr(uint64_t w) { return w >> 16; }

/* The payload length of a built-in event, or -1 (unknown), -2 (no fixed length). */
static int event_len(uint64_t id)
{
	if (id == 100001 || id == 100003)
		return 24;
	if (id == 100002 || id == 100004 || (id >= 100005 && id <= 100010))
		return 16;
	if (id == 100011)
		return 4;
	if (id == 100012)
		return -2;
	if (id == 100013)
		return 8;
	return -1;
}

/*
 * Could a whole record start at next, after the record at `at` (time t, second word w)? Its
 * magic is 5 and its time no earlier and within 2^40 ns (or it is an untimed LOST). Strictly,
 * also: with depths, an ENTRY or EXIT no deeper than the record at `at` allows; and when it has
 * no payload of its own, the record after it shows magic 5 too (or the file ends). Argument
 * bytes can pass the loose test by chance (a string's "o world" is a time of 431 s and a word
 * with magic 5); they rarely pass the strict one.
 */
static bool plausible_next(const struct tfk_cursor *v, uint64_t file_len, uint64_t next, uint64_t t, uint64_t w,
			   bool strict, bool depths)
{
	uint64_t nt, nw;
	if (!view_record(v, next, &nt, &nw) || rec_magic(nw) != UF_RECORD_MAGIC)
		return false;
	if (rec_type(nw) == UF_LOST && rec_more(nw))
		return false; /* libmcount never writes one */
	if (!untimed_lost(nt, nw) && (nt < t || nt - t >= (1ull << 40)))
		return false;
	if (!strict)
		return true;
	const unsigned type = rec_type(w), ntype = rec_type(nw);
	if (depths && ntype != UF_EVENT && (type == UF_ENTRY || type == UF_EXIT)) {
		/* a LOST record carries the depth it was lost at: at most one below an ENTRY */
		unsigned allowed = type == UF_ENTRY && ntype != UF_EXIT ? rec_depth(w) + 1 : rec_depth(w);
		if (rec_depth(nw) > allowed)
			return false;
	}
	uint64_t t2, w2;
	if (!rec_more(nw) && file_len - next >= 32 && view_record(v, next + 16, &t2, &w2) &&
	    rec_magic(w2) != UF_RECORD_MAGIC)
		return false;
	return true;
}

/*
 * A payload guessed len bytes long (a strictly plausible record after it) may hold a damaged
 * record: the record after a shorter payload, damaged in one of its fields, then its own
 * payload up to the record found. Such a slot keeps what that damage leaves intact, and ends
 * (its more bit giving up to 64 bytes of payload) exactly at the record found:
 *   - its magic or its type and more bits damaged (a LOST record with the more flag): a time
 *     no earlier than t and within 2^40 ns, and a depth the record at `at` allows;
 *   - its depth damaged: magic 5, an ENTRY or EXIT, that time, a depth beyond the allowed;
 *   - its time damaged (earlier than t): magic 5, an ENTRY or EXIT, an allowed depth;
 * the last two with a function address in the same 16 MiB as the record at `at` (argument
 * values are rarely such an address, nor a time that close after the record's own). The
 * shorter length, so that the walk reports that record where it is; else len.
 */
static uint64_t damaged_slot_before(const struct tfk_cursor *v, uint64_t at, uint64_t t, uint64_t w, uint64_t len,
				    bool depths)
{
	const uint64_t found = at + 16 + len;
	const unsigned type = rec_type(w);
	for (uint64_t k = 0; k + 16 <= len; k += 8) {
		uint64_t slot = at + 16 + k, st, sw;
		if (!view_record(v, slot, &st, &sw) || found - (slot + 16) > (rec_more(sw) ? 64u : 0u))
			continue;
		const bool timed = st >= t && st - t < (1ull << 40);
		const unsigned stype = rec_type(sw);
		const unsigned allowed = type == UF_ENTRY && stype != UF_EXIT ? rec_depth(w) + 1 : rec_depth(w);
		const bool header = rec_magic(sw) == UF_RECORD_MAGIC && !(stype == UF_LOST && rec_more(sw));
		const bool near = (rec_addr(sw) >> 24) == (rec_addr(w) >> 24) && rec_addr(sw) != 0 && stype <= UF_EXIT;
		bool damaged;
		if (!header)
			damaged = timed && (!depths || rec_depth(sw) <= rec_depth(w) + 1);
		else if (stype > UF_EXIT || !near)
			damaged = false;
		else if (timed)
			damaged = depths && rec_depth(sw) > allowed;
		else
			damaged = st < t && (!depths || rec_depth(sw) <= allowed);
		if (damaged)
			return k;
	}
	return len;
}

/*
 * The length of the arguments or return value after the record at `at` (time t): the shortest
 * multiple of 8 after which a record strictly plausible follows (plausible_next), else the file
 * ends exactly, else the shortest after which a loosely plausible one follows. Failing all,
 * the file ends inside the record after the payload: the shortest length after which a cut
 * record shows a plausible time, else the shortest after which fewer than 16 bytes are left,
 * and then *by_tail is set (a guess repair cannot trust). UF_PAYLOAD_NONE when none within
 * UF_PAYLOAD_MAX.
 *
 * The length may be 0: uftrace sets the more flag and stores nothing for a return value or
 * argument of an empty struct type (auto-args with DWARF: `retval length = 0` in uftrace dump,
 * e.g. std::__iterator_category). A zero length is taken only when a whole plausible record
 * follows: a more flag at the very end of the file is a payload cut off, not an empty one.
 */
uint64_t uf_guess_payload(const struct tfk_cursor *v, uint64_t file_len, uint64_t at, uint64_t t, bool depths,
			  bool *by_tail)
{
	uint64_t tail = UF_PAYLOAD_NONE, tail_timed = UF_PAYLOAD_NONE, loose = UF_PAYLOAD_NONE, t0, w = 0;
	*by_tail = false;
	if (!view_record(v, at, &t0, &w))
		depths = false;
	for (uint64_t len = 0; len <= UF_PAYLOAD_MAX; len += 8) {
		uint64_t next = at + 16 + len, nt;
		if (next > file_len)
			break;
		if (next == file_len) {
			if (len == 0)
				continue;
			return loose != UF_PAYLOAD_NONE ? loose : len; /* the payload ends the file */
		}
		if (file_len - next < 16) {
			if (len == 0)
				continue;
			/* A record cut by the end of the file after the payload, or a longer payload. */
			if (tail == UF_PAYLOAD_NONE)
				tail = len;
			if (tail_timed == UF_PAYLOAD_NONE && file_len - next >= 8 && next >= v->origin &&
			    tfk_cur_u64_at(v, next - v->origin, &nt) && nt >= t && nt - t < (1ull << 40))
				tail_timed = len;
			continue;
		}
		if (plausible_next(v, file_len, next, t, w, true, depths))
			return damaged_slot_before(v, at, t, w, len, depths);
		if (loose == UF_PAYLOAD_NONE && plausible_next(v, file_len, next, t, w, false, depths))
			loose = len;
	}
	if (loose != UF_PAYLOAD_NONE)
		return damaged_slot_before(v, at, t, w, loose, depths);
	if (tail_timed != UF_PAYLOAD_NONE)
		return tail_timed;
	*by_tail = tail != UF_PAYLOAD_NONE;
	return tail;
}

enum spec_verdict { SPEC_NONE, SPEC_TAKEN, SPEC_CUT };

/*
 * Is the payload right and the record after it (at next) the damaged one? The spec's length
 * ends at next, where no plausible record starts. Either the payload is not what the spec says
 * (a damaged string length: uftrace loses its place) or the payload is whole and the record at
 * next is bad in itself (its magic, its time, a LOST record with the more flag). The walk
 * decides by what follows that one record: the 16 bytes at next are a record slot when the
 * task goes on right after them (a loosely plausible record no earlier than t), or after a
 * payload of its own when its more bit is set (up to 64 bytes, then a strictly plausible
 * record), or when the file ends there and they carry a record's magic; the fault is then that
 * record's own and is reported at it. A wrong length lands inside a record or its payload,
 * where the bytes further on are not a record's start.
 */
static bool next_record_at_fault(const struct tfk_cursor *v, uint64_t file_len, uint64_t next, uint64_t t)
{
	uint64_t nt, nw;
	if (file_len - next < 16 || !view_record(v, next, &nt, &nw))
		return false;
	if (file_len - next == 16) /* the last record: its own magic must say it is one */
		return rec_magic(nw) == UF_RECORD_MAGIC;
	const uint64_t most = rec_more(nw) ? 64 : 0;
	for (uint64_t k = 0; k <= most; k += 8) {
		uint64_t after = next + 16 + k, at, aw;
		if (after > file_len || file_len - after < 16)
			break;
		if (!view_record(v, after, &at, &aw) || rec_magic(aw) != UF_RECORD_MAGIC)
			continue;
		if (k == 0 ? plausible_next(v, file_len, after, t, 0, false, false)
			   : plausible_next(v, file_len, after, t, 0, true, false))
			return true;
	}
	return false;
}

/*
 * The payload's length from the function's spec (uftrace_args.h), for the ENTRY or EXIT
 * record at pos - 16 (time t, second word w): SPEC_TAKEN (*len), SPEC_CUT (its strings run past
 * the end of the file: a partial record, reported), or SPEC_NONE: the length is to be guessed.
 * A spec that once fitted a record of its function and does not fit this one is a fault
 * (listed up to UF_LISTED_MAX per task: *mismatches); one that never fitted is not the spec
 * the recording was made with, and is left to the guess. Only records of the task's valid part
 * (valid: no invalid record before, none found in this one yet) confirm or refute a spec: they
 * are the ones a repaired copy keeps, so its check trusts the same specs.
 */
static enum spec_verdict spec_payload(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *v,
				      uint64_t file_len, uint64_t pos, uint64_t t, uint64_t w, uint64_t index, bool depths,
				      bool valid, uint64_t *len, uint64_t *mismatches, size_t *refute_fn)
{
	size_t fn;
	uint64_t n = 0;
	const bool ret = rec_type(w) == UF_EXIT;
	enum uf_arglen r = uf_args_length(ctx, st->args, rec_addr(w), ret, v, pos, file_len, &n, &fn);
	switch (r) {
	case UF_ARGLEN_GUESS:
		return SPEC_NONE;
	case UF_ARGLEN_NO_SYMBOL:
		/*
		 * The address lies in a module whose symbols were read, and none holds it (a symbol file
		 * cut, a name or line lost): uftrace finds no function, so no spec, and fails on the
		 * payload ('record missing argument info'). Reported at the record, its length guessed.
		 */
		uf_emit_record(ctx, TFK_UFTRACE_DAT_MORE_NOSPEC, pos - 8, 8, index,
			       "the more flag only on a function its module's symbol file holds",
			       "more = 1 at %#llx, which no symbol of its module holds",
			       (unsigned long long)rec_addr(w));
		return SPEC_NONE;
	case UF_ARGLEN_NO_SPEC:
		/*
		 * uftrace fails on it ('record missing argument info'). Damage that set the more flag
		 * of a record without a payload leaves the next record right after it; else the spec
		 * read here is not the recording's, and the length is guessed.
		 */
		if (!plausible_next(v, file_len, pos, t, w, true, depths))
			return SPEC_NONE;
		uf_emit_record(ctx, TFK_UFTRACE_DAT_MORE_NOSPEC, pos - 8, 8, index,
			       "the more flag only on a function with an argument spec",
			       "more = 1 on %s, which has no spec; the next record follows at once", uf_args_name(st->args, fn));
		*len = 0;
		return SPEC_TAKEN;
	case UF_ARGLEN_KNOWN:
		if (pos + n == file_len || (file_len - (pos + n) >= 16 && plausible_next(v, file_len, pos + n, t, w, false, depths))) {
			if (valid)
				uf_args_confirm(st->args, fn, ret);
			*len = n;
			return SPEC_TAKEN;
		}
		if (file_len - (pos + n) < 16) {
			/* a record cut after it: the spec's length if it is trusted, else the guess's */
			*len = n;
			return uf_args_trusted(st->args, fn, ret) ? SPEC_TAKEN : SPEC_NONE;
		}
		if (next_record_at_fault(v, file_len, pos + n, t)) {
			/* the payload is as the spec says: the record after it is reported where it is */
			*len = n;
			return SPEC_TAKEN;
		}
		break;
	case UF_ARGLEN_PAST_END:
		if (!uf_args_trusted(st->args, fn, ret))
			return SPEC_NONE;
		uf_emit_record(ctx, TFK_UFTRACE_DAT_PARTIAL_RECORD, pos, file_len - pos, index,
			       "whole arguments or return value", "%llu bytes at the end of the file, %s's spec needs more",
			       (unsigned long long)(file_len - pos), uf_args_name(st->args, fn));
		return SPEC_CUT;
	case UF_ARGLEN_TOO_LONG:
		break;
	}
	if (!uf_args_trusted(st->args, fn, ret)) {
		/* refuted once the guess walks on from this record (one repair keeps): see refute_fn */
		if (valid)
			*refute_fn = fn;
		return SPEC_NONE;
	}
	if ((*mismatches)++ >= UF_LISTED_MAX) {
		tfk_count_only(ctx, TFK_UFTRACE_DAT_ARGUMENT_MISMATCH);
		return SPEC_NONE;
	}
	if (r == UF_ARGLEN_TOO_LONG)
		uf_emit_record(ctx, TFK_UFTRACE_DAT_ARGUMENT_MISMATCH, pos, 0, index,
			       "arguments within libmcount's 1024-byte buffer", "%s's spec reads past it",
			       uf_args_name(st->args, fn));
	else
		uf_emit_record(ctx, TFK_UFTRACE_DAT_ARGUMENT_MISMATCH, pos, n, index,
			       "a record after the length the spec gives", "%llu bytes by %s's spec, then no record",
			       (unsigned long long)n, uf_args_name(st->args, fn));
	return SPEC_NONE;
}

void uf_emit_record(struct tfk_ctx *ctx, enum tfk_fault_code code, uint64_t off, uint64_t len, uint64_t index,
		    const char *expected, const char *fmt, ...)
{
	char found[160];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(found, sizeof(found), fmt, ap);
	va_end(ap);
	struct tfk_finding *f = tfk_emit(ctx, code, off, len);
	tfk_set_path(f, "record %llu", (unsigned long long)index);
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "%s", found);
}

/*
 * A record walked whole, [at, end): the first one with an error ends the task's valid records
 * (repair cuts there); the first ENTRY/EXIT with a payload is where repair cuts when the
 * argument spec is lost.
 */
static void task_record(struct tfk_ctx *ctx, struct tfk_uftrace_task *m, uint64_t errors_at, uint64_t at, uint64_t end,
			uint64_t t, uint64_t *whole, unsigned type, uint64_t w, unsigned depth)
{
	(*whole)++;
	if (m->good_end != UINT64_MAX)
		return;
	if (ctx->report->by_severity[TFK_SEV_ERROR] != errors_at) {
		m->good_end = at;
		m->records_good = *whole - 1;
		m->cut = TFK_UFTRACE_CUT_INVALID;
		m->cut_time = t;
		return;
	}
	if (m->payload_at == UINT64_MAX && rec_more(w) && (type == UF_ENTRY || type == UF_EXIT)) {
		m->payload_at = at;
		m->records_before_payload = *whole - 1;
		m->payload_time = t;
	}
	if (!untimed_lost(t, w)) {
		if (m->first_time == 0)
			m->first_time = t;
		m->last_time = t;
		if (t < m->min_time)
			m->min_time = t;
	}
	if (depth > m->max_depth && type != UF_LOST && type != UF_EVENT)
		m->max_depth = depth;
	(void)end;
}

/* The walk stops at `at` (why: cut); valid records end there unless an earlier one was invalid. */
static void task_cut(struct tfk_uftrace_task *m, enum tfk_uftrace_cut cut, uint64_t at, uint64_t whole, uint64_t t)
{
	if (m->good_end != UINT64_MAX)
		return;
	m->good_end = at;
	m->records_good = whole;
	m->cut = cut;
	m->cut_time = t;
}

/* What the walk of one task carries from record to record. */
struct uf_walk {
	uint64_t index, prev_time, whole;
	unsigned last_depth, last_type;
	bool first, after_lost;
};

/*
 * The steady part of a plain run: records after the first of the task and not right after a
 * LOST, no estimated returns. Each test of the general loop below in its cheapest form: type,
 * more flag and magic in one mask, the session start folded into the time floor (lo is never
 * below it), the depth allowance from the two types' bits. Returns how many records it took.
 */
static uint64_t plain_steady(const uint8_t *p, uint64_t n, bool swap, unsigned cap, bool filtered, uint64_t *lo,
			     unsigned *last_depth, unsigned *last_type, unsigned *max_depth)
{
	uint64_t floor = *lo;
	unsigned ld = *last_depth, lt = *last_type, md = *max_depth;
	const uint64_t want = (uint64_t)UF_RECORD_MAGIC << 3; /* magic 5, more 0, type ENTRY or EXIT */
	uint64_t i = 0;
	for (; i < n; i++, p += 16) {
		uint64_t t = tfk_lent_u64(p, swap), w = tfk_lent_u64(p + 8, swap);
		if ((w & 0x3e) != want || t < floor)
			break;
		unsigned type = (unsigned)(w & 1), depth = rec_depth(w);
		unsigned allowed = ld + ((lt | type) == UF_ENTRY);
		if ((!filtered && depth > allowed) || depth >= cap)
			break;
		floor = t;
		md = depth > md ? depth : md;
		ld = depth;
		lt = type;
	}
	*lo = floor;
	*last_depth = ld;
	*last_type = lt;
	*max_depth = md;
	return i;
}

/*
 * The records from pos on that need no finding and carry no payload (ENTRY or EXIT, magic 5,
 * no more flag, in time order, no earlier than the session, at a depth the record before
 * allows): walked in one run over the bytes the window lends, with exactly the state changes
 * the record-by-record walk makes. Almost every record of a healthy recording is one of
 * these. Returns the position after the last one taken (pos itself when the first is not).
 */
static uint64_t uf_plain_run(struct tfk_ctx *ctx, struct uf_state *st, const struct uf_window *win,
			     struct tfk_uftrace_task *m, struct uf_walk *wk, uint64_t pos, uint64_t session_ns,
			     const char *name)
{
	const uint8_t *p;
	if (pos < win->v.origin || TFK_HOOK(ctx->limits, record_by_record))
		return pos;
	uint64_t rel = pos - win->v.origin, n = (win->v.len - rel) / 16;
	if (n == 0 || !tfk_cur_bytes_at(&win->v, rel, n * 16, &p))
		return pos;
	const bool swap = tfk_cur_swap(&win->v);
	const unsigned cap = (st->feat & UF_FEAT_MAX_STACK) && st->max_stack ? st->max_stack : 1024; /* depth < 1024 */
	const bool estimates = st->feat & UF_FEAT_ESTIMATE_RETURN, filtered = st->filtered || st->depth_wraps;
	/*
	 * The walk's state in locals for the run (the calls and stores of the record-by-record walk
	 * would pin it in memory): no finding is made here, so the repair model's part of
	 * task_record reduces to the times and the depth, kept only while no record was invalid.
	 */
	uint64_t prev_time = wk->prev_time, whole = wk->whole, first_time = m->first_time, last_time = m->last_time;
	uint64_t min_time = m->min_time;
	unsigned last_depth = wk->last_depth, last_type = wk->last_type, max_depth = 0, model_depth = m->max_depth;
	bool first = wk->first, after_lost = wk->after_lost;
	const bool model = m->good_end == UINT64_MAX;
	uint64_t i = 0;
	for (; i < n; i++, p += 16) {
		if (!first && !after_lost && !estimates) {
			/* the rest of the run in the steady loop, its times only the last one's */
			uint64_t lo = prev_time > session_ns ? prev_time : session_ns;
			uint64_t k = plain_steady(p, n - i, swap, cap, filtered, &lo, &last_depth, &last_type, &max_depth);
			if (k) {
				prev_time = lo;
				whole += k;
				last_time = model ? lo : last_time;
				i += k;
			}
			break;
		}
		uint64_t t = tfk_lent_u64(p, swap), w = tfk_lent_u64(p + 8, swap);
		unsigned type = rec_type(w), depth = rec_depth(w);
		const bool estimate = estimates && type == UF_EXIT;
		if (rec_magic(w) != UF_RECORD_MAGIC || rec_more(w) || type > UF_EXIT || t < session_ns ||
		    (!first && t < prev_time && !estimate))
			break;
		unsigned allowed = last_type == UF_ENTRY && type == UF_ENTRY ? last_depth + 1 : last_depth;
		if ((!first && !after_lost && !filtered && depth > allowed) || depth >= cap)
			break;
		if (!estimate)
			prev_time = t;
		if (depth > max_depth)
			max_depth = depth;
		first = false;
		after_lost = false;
		last_depth = depth;
		last_type = type;
		whole++;
		if (model) {
			if (first_time == 0)
				first_time = t;
			last_time = t;
			if (t < min_time)
				min_time = t; /* an estimated return may come before */
		}
	}
	if (model && max_depth > model_depth)
		model_depth = max_depth;
	if (i == 0)
		return pos;
	wk->index += i;
	wk->prev_time = prev_time;
	wk->whole = whole;
	wk->last_depth = last_depth;
	wk->last_type = last_type;
	wk->first = first;
	wk->after_lost = after_lost;
	if (model) {
		/* the steady loop's records never go back: none is earlier than min_time */
		m->first_time = first_time;
		m->last_time = last_time;
		m->min_time = min_time;
		m->max_depth = model_depth;
	}
	if (max_depth > st->max_depth) {
		st->max_depth = max_depth;
		st->max_depth_member = name;
	}
	ctx->report->stats.events += i;
	return pos + i * 16;
}

void uf_check_dat(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file, const char *name)
{
	const struct tfk_cursor c = *file;
	uint64_t pos = 0, index = 0, prev_time = 0, backwards = 0, depth_faults = 0, nospec = 0, bad_events = 0;
	uint64_t released = 0, early = 0, mismatches = 0;
	int64_t tid = 0;
	for (const char *p = name; *p >= '0' && *p <= '9' && tid < 0x7fffffff; p++)
		tid = tid * 10 + (*p - '0');
	const uint64_t session_ns = uf_task_session_ns(st, tid);
	struct uf_window win = { { 0 }, NULL, NULL };
	if (c.len > UF_WINDOW && !(win.ra = tfk_readahead_start(ctx, &c, UF_AHEAD_WINDOW, UF_LOOK)))
		win.buf = tfk_calloc(ctx, 1, UF_WINDOW);
	bool first = true, after_lost = false;
	unsigned last_depth = 0, last_type = UF_ENTRY;
	/* For repair: where the valid records end (the first invalid or cut one begins). */
	struct tfk_uftrace_task m;
	memset(&m, 0, sizeof(m));
	snprintf(m.member, sizeof(m.member), "%s", name);
	m.tid = tid;
	m.size = c.len;
	m.good_end = UINT64_MAX;
	m.payload_at = UINT64_MAX;
	m.min_time = UINT64_MAX;
	uint64_t whole = 0; /* records walked whole, payload included */
	while (pos < c.len) {
		uint64_t left = c.len - pos, t, w;
		const uint64_t rec_at = pos;
		const uint64_t errors_at = ctx->report->by_severity[TFK_SEV_ERROR];
		if (pos - released >= UF_RELEASE_STEP) {
			/* Walked bytes leave the process: memory stays flat however large the task. */
			tfk_release(ctx, c.base + released, pos - released);
			released = pos;
		}
		win_ensure(ctx, &win, &c, pos);
		struct uf_walk wk = { index, prev_time, whole, last_depth, last_type, first, after_lost };
		uint64_t run_end = uf_plain_run(ctx, st, &win, &m, &wk, pos, session_ns, name);
		if (run_end != pos) {
			index = wk.index;
			prev_time = wk.prev_time;
			whole = wk.whole;
			last_depth = wk.last_depth;
			last_type = wk.last_type;
			first = wk.first;
			after_lost = wk.after_lost;
			pos = run_end;
			continue;
		}
		if (left < 16 || !read_record(&win, pos, &t, &w)) {
			uf_emit_record(ctx, TFK_UFTRACE_DAT_PARTIAL_RECORD, pos, left, index, "a 16-byte record",
				    "%llu bytes at the end of the file", (unsigned long long)left);
			task_cut(&m, TFK_UFTRACE_CUT_PARTIAL, rec_at, whole, 0);
			break;
		}
		unsigned type = rec_type(w), depth = rec_depth(w);
		if (rec_magic(w) != UF_RECORD_MAGIC) {
			uf_emit_record(ctx, TFK_UFTRACE_DAT_BAD_MAGIC, pos + 8, 8, index, "record magic 5 (bits 3-5)",
				    "magic %u; %llu bytes after it are not walked", rec_magic(w),
				    (unsigned long long)(left - 16));
			task_cut(&m, TFK_UFTRACE_CUT_MAGIC, rec_at, whole, t);
			break;
		}
		index++;
		ctx->report->stats.events++;
		/*
		 * uftrace --estimate-return (feature 11) writes an EXIT with an estimated time, often
		 * earlier than the records before it (seen: 0.67 ms): not a fault, and not the time the
		 * records after it are compared with.
		 */
		const bool estimate = type == UF_EXIT && (st->feat & UF_FEAT_ESTIMATE_RETURN);
		const bool untimed = untimed_lost(t, w);
		if (!first && t < prev_time && !estimate && !untimed) {
			if (backwards++ == 0)
				uf_emit_record(ctx, TFK_UFTRACE_DAT_TIME_BACKWARDS, pos, 8, index - 1,
					    "a time no earlier than the record before", "%llu after %llu", (unsigned long long)t,
					    (unsigned long long)prev_time);
			else
				tfk_count_only(ctx, TFK_UFTRACE_DAT_TIME_BACKWARDS);
		}
		if (!estimate && !untimed)
			prev_time = t;
		if (t < session_ns && !untimed) {
			if (early++ == 0)
				uf_emit_record(ctx, TFK_UFTRACE_DAT_BEFORE_SESSION, pos, 8, index - 1,
					    "a time no earlier than the task's first session (task.txt SESS)",
					    "%llu, the session began at %llu", (unsigned long long)t,
					    (unsigned long long)session_ns);
			else
				tfk_count_only(ctx, TFK_UFTRACE_DAT_BEFORE_SESSION);
		}
		/* Depths: an ENTRY at most one below the running function, an EXIT no deeper. */
		if (type == UF_ENTRY || type == UF_EXIT) {
			unsigned allowed = last_type == UF_ENTRY && type == UF_ENTRY ? last_depth + 1 : last_depth;
			bool bad = !first && !after_lost && !st->filtered && !st->depth_wraps && depth > allowed;
			bool over = (st->feat & UF_FEAT_MAX_STACK) && st->max_stack && depth >= st->max_stack;
			if (over && !bad) {
				/*
				 * Deeper than info's max_stack, but as the records before allow: the records agree
				 * with each other, so the header's limit is what is wrong (reported once, at info,
				 * by the directory's check; repair raises it). Only a record that also breaks the
				 * depth chain is damaged itself.
				 */
				if (depth > st->over_depth) {
					st->over_depth = depth;
					st->over_member = name;
				}
				over = false;
			}
			if (bad || over) {
				if (depth_faults++ < UF_LISTED_MAX) {
					struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_DAT_DEPTH_MISMATCH, pos + 8, 8);
					tfk_set_path(f, "record %llu %s", (unsigned long long)index - 1,
						     type == UF_ENTRY ? "ENTRY" : "EXIT");
					if (over)
						tfk_set_expected(f, "a depth below max_stack %u", st->max_stack);
					else
						tfk_set_expected(f, "a depth of at most %u", allowed);
					tfk_set_found(f, "depth %u", depth);
				} else {
					tfk_count_only(ctx, TFK_UFTRACE_DAT_DEPTH_MISMATCH);
				}
			}
			if (depth > st->max_depth) {
				st->max_depth = depth;
				st->max_depth_member = name;
			}
			first = false;
			after_lost = false;
			last_depth = depth;
			last_type = type;
		} else if (type == UF_LOST) {
			after_lost = true;
		}
		pos += 16;
		if (!rec_more(w)) {
			task_record(ctx, &m, errors_at, rec_at, pos, t, &whole, type, w, depth);
			continue;
		}
		/* The payload after the record. */
		if (type == UF_LOST || (type == UF_ENTRY && !(st->feat & UF_FEAT_ARGUMENT) && st->feat_known) ||
		    (type == UF_EXIT && !(st->feat & UF_FEAT_RETVAL) && st->feat_known)) {
			static const char *const names[] = { "ENTRY", "EXIT", "LOST", "EVENT" };
			struct tfk_finding *f = NULL;
			if (nospec++ < UF_LISTED_MAX)
				f = tfk_emit(ctx, TFK_UFTRACE_DAT_MORE_NOSPEC, pos - 8, 8);
			else
				tfk_count_only(ctx, TFK_UFTRACE_DAT_MORE_NOSPEC);
			tfk_set_path(f, "record %llu %s", (unsigned long long)index - 1, names[type]);
			tfk_set_expected(f, type == UF_LOST ? "no more flag on a LOST record"
							    : "the more flag only with feature ARGUMENT (ENTRY) or RETVAL (EXIT)");
			tfk_set_found(f, "more = 1, features %#llx", (unsigned long long)st->feat);
			if (type == UF_LOST) {
				task_record(ctx, &m, errors_at, rec_at, pos, t, &whole, type, w, depth);
				continue;
			}
		}
		if (type == UF_EVENT) {
			uint16_t len;
			uint64_t id = rec_addr(w);
			if (pos < win.v.origin || !tfk_cur_u16_at(&win.v, pos - win.v.origin, &len)) {
				uf_emit_record(ctx, TFK_UFTRACE_DAT_PARTIAL_RECORD, pos, c.len - pos, index - 1,
					    "an event payload length", "%llu bytes at the end of the file", (unsigned long long)(c.len - pos));
				task_cut(&m, TFK_UFTRACE_CUT_PARTIAL, rec_at, whole, t);
				break;
			}
			uint64_t total = ((uint64_t)len + 2 + 7) & ~7ull;
			int want = event_len(id);
			if ((want == -1 || (want >= 0 && len != (unsigned)want)) && bad_events++ >= UF_LISTED_MAX) {
				tfk_count_only(ctx, TFK_UFTRACE_DAT_BAD_EVENT);
			} else if (want == -1 || (want >= 0 && len != (unsigned)want)) {
				struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_DAT_BAD_EVENT, pos - 16, 16);
				tfk_set_path(f, "record %llu EVENT %llu", (unsigned long long)index - 1, (unsigned long long)id);
				if (want == -1)
					tfk_set_expected(f, "a built-in event id (100001-100013) for an event with data");
				else
					tfk_set_expected(f, "a payload of %d bytes", want);
				tfk_set_found(f, "a payload of %u bytes", len);
			}
			if (total > c.len - pos) {
				uf_emit_record(ctx, TFK_UFTRACE_DAT_PARTIAL_RECORD, pos, c.len - pos, index - 1,
					    "the event's whole payload", "%llu of %llu bytes", (unsigned long long)(c.len - pos),
					    (unsigned long long)total);
				task_cut(&m, TFK_UFTRACE_CUT_PARTIAL, rec_at, whole, t);
				break;
			}
			pos += total;
			task_record(ctx, &m, errors_at, rec_at, pos, t, &whole, type, w, depth);
			continue;
		}
		bool by_tail = false;
		const bool depths = !st->filtered && !st->depth_wraps;
		const bool spec_kind = st->feat & (type == UF_ENTRY ? UF_FEAT_ARGUMENT : UF_FEAT_RETVAL);
		uint64_t len = 0;
		const bool valid = m.good_end == UINT64_MAX && ctx->report->by_severity[TFK_SEV_ERROR] == errors_at;
		size_t refute_fn = SIZE_MAX;
		enum spec_verdict sv = st->args && spec_kind ? spec_payload(ctx, st, &win.v, c.len, pos, t, w, index - 1,
									       depths, valid, &len, &mismatches, &refute_fn)
							     : SPEC_NONE;
		if (sv == SPEC_CUT) {
			task_cut(&m, TFK_UFTRACE_CUT_PARTIAL, rec_at, whole, t);
			break;
		}
		if (sv == SPEC_NONE)
			len = uf_guess_payload(&win.v, c.len, pos - 16, t, depths, &by_tail);
		/*
		 * A spec that never fitted is refuted only by a record the walk goes on from whole: one
		 * cut here is not in the repaired copy, whose check must trust the same specs.
		 */
		if (refute_fn != SIZE_MAX && len != UF_PAYLOAD_NONE && !by_tail)
			uf_args_refute(st->args, refute_fn, type == UF_EXIT);
		if (len == UF_PAYLOAD_NONE) {
			if (c.len - pos <= UF_PAYLOAD_MAX) {
				uf_emit_record(ctx, TFK_UFTRACE_DAT_PARTIAL_RECORD, pos, c.len - pos, index - 1,
					    "whole arguments or return value", "%llu bytes at the end of the file",
					    (unsigned long long)(c.len - pos));
			} else {
				struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_DAT_BAD_PAYLOAD, pos, UF_PAYLOAD_MAX);
				tfk_set_path(f, "record %llu payload", (unsigned long long)index - 1);
				tfk_set_expected(f, "a record within %d bytes", UF_PAYLOAD_MAX);
				tfk_set_found(f, "none; %llu bytes are not walked", (unsigned long long)(c.len - pos));
			}
			task_cut(&m, c.len - pos <= UF_PAYLOAD_MAX ? TFK_UFTRACE_CUT_PARTIAL : TFK_UFTRACE_CUT_PAYLOAD, rec_at,
				 whole, t);
			break;
		}
		pos += len;
		if (by_tail && m.good_end == UINT64_MAX) {
			/* Its payload's length is a guess: the valid records end before it. */
			task_cut(&m, TFK_UFTRACE_CUT_PARTIAL, rec_at, whole, t);
		}
		task_record(ctx, &m, errors_at, rec_at, pos, t, &whole, type, w, depth);
	}
	task_cut(&m, TFK_UFTRACE_CUT_NONE, pos, whole, 0);
	m.records_after = whole - m.records_good;
	if (m.payload_at >= m.good_end)
		m.payload_at = UINT64_MAX;
	uf_send(ctx, TFK_UFTRACE_MODEL_TASK, &m, sizeof(m));
	if (c.len > released)
		tfk_release(ctx, c.base + released, c.len - released);
	tfk_readahead_stop(win.ra);
	free(win.buf);
}
