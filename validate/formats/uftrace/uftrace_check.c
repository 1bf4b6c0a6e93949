/* SPDX-License-Identifier: MIT */
/*
 * uftrace data directories (uftrace record -d DIR): info, task.txt, the session maps, the
 * symbol and debug files, one <tid>.dat of records per task and the perf-cpu<N>.dat side
 * files. Every member is checked; findings name it, with offsets inside it (text members: the
 * offset of the line, and its number in the path).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/ftrace/ftrace_rings.h"
#include "uftrace.h"
#include "uftrace_args.h"

static const uint8_t uf_magic[8] = { 'F', 't', 'r', 'a', 'c', 'e', '!', 0 };

bool uf_next_line(struct tfk_cursor *c, struct uf_line *line)
{
	if (tfk_cur_left(c) == 0)
		return false;
	line->offset = tfk_cur_abs(c);
	line->number++;
	int64_t nl = tfk_cur_find(c, "\n", 1);
	uint64_t len = nl < 0 ? tfk_cur_left(c) : (uint64_t)nl - c->pos;
	const uint8_t *p;
	if (!tfk_cur_bytes(c, len, &p))
		return false;
	line->s = (const char *)p;
	line->len = len;
	line->terminated = nl >= 0;
	if (nl >= 0)
		tfk_cur_skip(c, 1);
	return true;
}

void uf_send(struct tfk_ctx *ctx, uint32_t kind, const void *data, size_t size)
{
	if (ctx->obs && ctx->obs->model)
		ctx->obs->model(ctx->obs->user, &tfk_format_uftrace, kind, data, size);
}

struct tfk_finding *uf_line_fault(struct tfk_ctx *ctx, enum tfk_fault_code code, const struct uf_line *l,
				  const char *what, const char *expected)
{
	struct tfk_finding *f = tfk_raise(ctx, &UF_LINE_PCTX(l), code, l->offset, l->len, what);
	if (expected)
		tfk_set_expected(f, "%s", expected);
	return f;
}

void uf_send_line(struct tfk_ctx *ctx, enum tfk_fault_code code, const struct uf_line *line)
{
	if (!ctx->obs || !ctx->obs->model)
		return;
	struct tfk_uftrace_line m;
	memset(&m, 0, sizeof(m));
	snprintf(m.member, sizeof(m.member), "%s", ctx->member ? ctx->member : "");
	m.offset = line->offset;
	m.len = line->len;
	m.number = line->number;
	m.code = (uint32_t)code;
	uf_send(ctx, TFK_UFTRACE_MODEL_LINE, &m, sizeof(m));
}

void uf_state_free(struct uf_state *st)
{
	free(st->info_tids);
	free(st->task_tids);
	free(st->sids);
	free(st->sess_times);
	free(st->links);
	tfk_keyindex_free(&st->task_tid_ix);
	tfk_keyindex_free(&st->link_ix);
	tfk_keyindex_free(&st->sess_time_ix);
	tfk_keyindex_free(&st->sid_ix);
	td_rings_free(st->kernel.rings);
	for (int k = 0; k < UF_SPEC_KINDS; k++)
		free(st->spec_text[k].s);
	uf_args_free(st->args);
}

/* "NNN.dat" with a decimal tid: the tid, or -1. */
static int64_t dat_tid(const char *name)
{
	size_t n = strlen(name), i = 0;
	if (n < 5 || n > 24 || strcmp(name + n - 4, ".dat") != 0)
		return -1;
	int64_t v = 0;
	for (; i < n - 4; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (name[i] - '0');
		if (v > 0x7fffffff)
			return -1;
	}
	return v;
}

static bool has_prefix_suffix(const char *name, const char *pre, const char *suf)
{
	size_t n = strlen(name), p = strlen(pre), s = strlen(suf);
	return n >= p + s && strncmp(name, pre, p) == 0 && strcmp(name + n - s, suf) == 0;
}

static bool is_perf_cpu(const char *name)
{
	if (!has_prefix_suffix(name, "perf-cpu", ".dat"))
		return false;
	size_t n = strlen(name);
	for (size_t i = 8; i < n - 4; i++)
		if (name[i] < '0' || name[i] > '9')
			return false;
	return n > 12;
}

/* Is name a member uftrace reads (one its replay, dump or info opens)? */
static bool uf_reads(const char *name)
{
	static const char *const fixed[] = { "info", "task.txt", "task", "events.txt", "extern.dat", "default.opts",
					     "kernel_header" };
	for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
		if (strcmp(name, fixed[i]) == 0)
			return true;
	return has_prefix_suffix(name, "sid-", ".map") || has_prefix_suffix(name, "", ".sym") ||
	       has_prefix_suffix(name, "", ".dbg") || dat_tid(name) >= 0 || is_perf_cpu(name) ||
	       has_prefix_suffix(name, "kernel-cpu", ".dat");
}

static int uf_sniff_dir(const struct tfk_input *in)
{
	const struct tfk_member *info = tfk_input_find(in, "info");
	bool task = tfk_input_find(in, "task.txt") != NULL;
	if (info && info->kind == TFK_MEMBER_FILE) {
		struct tfk_member_map map;
		if (tfk_member_open(in, info, &map) == 0) {
			struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
			bool magic = tfk_cur_has(&c, uf_magic, 8);
			tfk_member_close(&map);
			if (magic)
				return 100;
		}
	}
	/* A killed recording: no info, but the task list, a map or task data. */
	bool map = false, dat = false;
	for (size_t i = 0; i < in->n; i++) {
		const char *name = in->members[i].name;
		if (strchr(name, '/'))
			continue;
		if (has_prefix_suffix(name, "sid-", ".map"))
			map = true;
		if (dat_tid(name) >= 0)
			dat = true;
	}
	int score = (task ? 40 : 0) + (map ? 20 : 0) + (dat ? 20 : 0) + (info ? 10 : 0);
	if (!task && !(map && dat))
		return 0;
	return score > 90 ? 90 : score;
}

/* ---- info ---------------------------------------------------------------------------- */

struct section {
	const char *prefix;
	int kind; /* 0: one line; 1: "lines=N" then N lines of the prefix; 2: lines=N, any prefix; 3: record date */
};

static const struct section sections[] = {
	{ "exename:", 0 }, { "build_id:", 0 }, { "exit_status:", 0 }, { "cmdline:", 0 },
	{ "cpuinfo:", 1 }, { "meminfo:", 0 }, { "osinfo:", 1 }, { "taskinfo:", 1 },
	{ "usageinfo:", 1 }, { "loadinfo:", 0 }, { "argspec:", 2 }, { "record_date:", 3 },
	{ "pattern_type:", 0 }, { "uftrace_version:", 0 }, { "utc_offset:", 0 }, /* bit 14: uftrace 0.17 */
};
#define N_SECTIONS (sizeof(sections) / sizeof(sections[0]))

static bool starts(const struct uf_line *l, const char *p)
{
	size_t n = strlen(p);
	return l->len >= n && memcmp(l->s, p, n) == 0;
}

/* A decimal number of at most 18 digits (optionally negative) filling [s, s+n). */
static bool parse_dec(const char *s, size_t n, int64_t *v)
{
	bool neg = n > 0 && s[0] == '-';
	size_t i = neg ? 1 : 0;
	if (n <= i || n - i > 18)
		return false;
	int64_t r = 0;
	for (; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		r = r * 10 + (s[i] - '0');
	}
	*v = neg ? -r : r;
	return true;
}

/*
 * Actions of a -T trigger that change no record's place: arguments and return values, counters
 * read into EVENT records, colours for replay (utils/filter.c's action table). Any other action
 * (depth=, filter, notrace, trace_on/off, time=, finish, recover, backtrace, hide, caller, ...)
 * can leave depth gaps or unmatched records.
 */
static bool trigger_keeps_depths(const char *s, size_t n)
{
	static const char *const quiet[] = { "arg", "fparg", "retval", "read=", "color=" };
	size_t i = 0;
	while (i < n) {
		/* PATTERN@ACTION,ACTION...;PATTERN@... */
		size_t j = i;
		while (j < n && s[j] != ';')
			j++;
		const char *at = memchr(s + i, '@', j - i);
		if (!at)
			return false;
		size_t k = (size_t)(at - s) + 1;
		while (k < j) {
			size_t e = k;
			while (e < j && s[e] != ',')
				e++;
			bool ok = false;
			for (size_t q = 0; q < sizeof(quiet) / sizeof(quiet[0]) && !ok; q++) {
				size_t len = strlen(quiet[q]);
				ok = e - k >= len && memcmp(s + k, quiet[q], len) == 0;
			}
			if (!ok)
				return false;
			k = e + 1;
		}
		i = j + 1;
	}
	return true;
}

/*
 * What the options of uftrace record say about the records (info's cmdline: the arguments joined
 * by spaces). *gaps: options that legitimately leave depth gaps or unmatched exits (filters,
 * triggers that act on tracing); *none: options under which a recording may hold no record at
 * all (those, --trace=off and its older name --disable), where a directory without any task
 * data is what uftrace leaves ("No data available"), not a copy that lost it.
 */
static void cmdline_options(const struct uf_line *l, bool *gaps, bool *none)
{
	static const char *const longs[] = { "--filter", "--notrace", "--time-filter", "--depth", "--caller-filter",
					     "--estimate-return", "--hide", "--loc-filter", "--size-filter" };
	*gaps = *none = false;
	const char *s = l->s;
	size_t i = 0, n = l->len;
	bool trigger_next = false;
	while (i < n) {
		while (i < n && s[i] == ' ')
			i++;
		size_t j = i;
		while (j < n && s[j] != ' ')
			j++;
		const char *w = s + i;
		size_t wn = j - i;
		i = j;
		if (wn == 0)
			break;
		if (trigger_next) {
			trigger_next = false;
			if (!trigger_keeps_depths(w, wn))
				*gaps = true;
			continue;
		}
		if (wn >= 2 && w[0] == '-' && w[1] == 'T') {
			if (wn == 2)
				trigger_next = true;
			else if (!trigger_keeps_depths(w + 2, wn - 2))
				*gaps = true;
			continue;
		}
		if (wn >= 9 && memcmp(w, "--trigger", 9) == 0) {
			if (wn == 9)
				trigger_next = true;
			else if (w[9] == '=' && !trigger_keeps_depths(w + 10, wn - 10))
				*gaps = true;
			continue;
		}
		if ((wn == 11 && memcmp(w, "--trace=off", 11) == 0) || (wn == 9 && memcmp(w, "--disable", 9) == 0))
			*none = true;
		for (size_t k = 0; k < sizeof(longs) / sizeof(longs[0]); k++) {
			size_t kn = strlen(longs[k]);
			if (wn >= kn && memcmp(w, longs[k], kn) == 0 && (wn == kn || w[kn] == '='))
				*gaps = true;
		}
		if (wn >= 2 && w[0] == '-' && w[1] != '-' && strchr("FNtDCZeHL", w[1]))
			*gaps = true;
	}
	*none = *none || *gaps;
}

static void check_taskinfo_line(struct tfk_ctx *ctx, struct uf_state *st, const struct uf_line *l, int64_t *nr)
{
	const char *s = l->s + 9;
	size_t n = l->len - 9;
	if (n >= 7 && memcmp(s, "nr_tid=", 7) == 0) {
		if (!parse_dec(s + 7, n - 7, nr) || *nr <= 0) {
			struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_INFO_BAD_TASKINFO, l, "taskinfo nr_tid", NULL);
			tfk_set_expected(f, "a positive number of tasks");
			*nr = -1;
		}
		return;
	}
	if (n >= 5 && memcmp(s, "tids=", 5) == 0) {
		size_t i = 5, count = 0;
		bool bad = false;
		while (i <= n) {
			size_t j = i;
			while (j < n && s[j] != ',')
				j++;
			int64_t tid;
			if (!parse_dec(s + i, j - i, &tid) || tid <= 0)
				bad = true;
			else if (tfk_grow(ctx, (void **)&st->info_tids, &st->cap_info_tids, st->n_info_tids + 1,
					  sizeof(int64_t)))
				st->info_tids[st->n_info_tids++] = tid;
			count++;
			i = j + 1;
		}
		if (bad) {
			struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_INFO_BAD_TASKINFO, l, "taskinfo tids", NULL);
			tfk_set_expected(f, "comma-separated positive decimal tids");
		} else if (*nr > 0 && (uint64_t)*nr != count) {
			struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_INFO_BAD_TASKINFO, l, "taskinfo tids", NULL);
			tfk_set_expected(f, "%lld tids (nr_tid)", (long long)*nr);
			tfk_set_found(f, "%zu tids", count);
		}
	}
}

/*
 * A line of the ARG_SPEC section, kept for the argument lengths (uftrace_args.c). False for a
 * line uftrace's read_arg_spec refuses (it then reads no spec at all) or memory running out.
 */
static bool keep_spec_line(struct tfk_ctx *ctx, struct uf_state *st, const struct uf_line *l)
{
	static const char *const keys[UF_SPEC_KINDS] = { "argspec:", "retspec:", "argauto:", "retauto:" };
	if (starts(l, "enumauto:"))
		return true;
	if (starts(l, "auto-args:1")) {
		st->auto_args = true;
		return true;
	}
	for (int k = 0; k < UF_SPEC_KINDS; k++) {
		if (!starts(l, keys[k]))
			continue;
		struct uf_text *t = &st->spec_text[k];
		free(t->s);
		t->n = l->len - 8;
		t->s = tfk_calloc(ctx, 1, t->n + 1);
		if (!t->s)
			return false;
		memcpy(t->s, l->s + 8, t->n);
		return !memchr(t->s, 0, t->n);
	}
	return false;
}

/* pattern_type:regex|glob|simple as uftrace's parse_filter_pattern reads it (uf_patt values). */
static int pattern_type(const struct uf_line *l)
{
	static const char *const names[] = { "simple", "regex", "glob" };
	for (int k = 0; k < 3; k++)
		if (l->len == 13 + strlen(names[k]) && memcmp(l->s + 13, names[k], l->len - 13) == 0)
			return k + 1;
	return 0;
}

/*
 * A development snapshot of uftrace's utc_offset (v0.16-2, in the Trace Compass test data)
 * wrote the line right after elapsed_time:, inside RECORD_DATE's section, with no bit of its
 * own; 0.17 gives it bit 14 (UTC_OFFSET) and the last place. Every uftrace release reads that
 * line where it expects pattern_type: and refuses the info ('cannot read uftrace header info').
 * A writer's quirk, named as such: the line is stepped over and the sections after it checked.
 */
static void utc_offset_unmasked(struct tfk_ctx *ctx, struct uf_state *st, struct tfk_cursor *t, struct uf_line *l)
{
	struct tfk_cursor peek = *t;
	struct uf_line next = *l;
	if ((st->info_mask & (1ull << 14)) || !uf_next_line(&peek, &next) || !starts(&next, "utc_offset:"))
		return;
	*t = peek;
	*l = next;
	struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_WRITER_UTC_OFFSET_UNMASKED, l, "info section", NULL);
	tfk_set_expected(f, "utc_offset: as its own section, info bit 14, after uftrace_version: (uftrace 0.17)");
}

void uf_check_info(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file)
{
	bool spec_ok = true;
	struct tfk_cursor c = *file;
	bool magic_ok = true;
	if (!tfk_cur_has(&c, uf_magic, 8)) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_MAGIC, 0, 8);
		tfk_set_path(f, "info header magic");
		tfk_set_expected(f, "\"Ftrace!\\0\"");
		const uint8_t *p;
		uint64_t n = tfk_cur_left(&c) < 8 ? tfk_cur_left(&c) : 8;
		if (tfk_cur_bytes_at(&c, 0, n, &p))
			tfk_set_found_bytes(f, p, n);
		magic_ok = false;
	}
	uint8_t endian = 0, elf_class = 0;
	tfk_cur_u8_at(&c, 14, &endian);
	tfk_cur_u8_at(&c, 15, &elf_class);
	/*
	 * The byte order the header's own numbers are written in: version 3 or 4 and header size
	 * 40 read right in one order only (40 is 0x2800 the other way). It overrules a damaged
	 * endian byte, which would otherwise turn every record of every task around.
	 */
	int order = 0; /* 1 little, 2 big, 0 undecided */
	for (int o = 1; o <= 2 && tfk_cur_left(&c) >= 40; o++) {
		struct tfk_cursor h = c;
		h.big_endian = o == 2;
		uint32_t ver = 0;
		uint16_t hs = 0;
		tfk_cur_u32_at(&h, 8, &ver);
		tfk_cur_u16_at(&h, 12, &hs);
		if ((ver == 3 || ver == 4) && hs == 40)
			order = o;
	}
	if (!magic_ok && order == 0)
		return; /* not a header whose fields can be trusted: the features stay unknown */
	st->feat_known = true;
	if (!magic_ok) {
		/* the rest of the header reads right: the magic alone is damaged, repair writes it */
		st->fix_magic = true;
		st->header_fixes++;
		magic_ok = true;
	}
	if (tfk_cur_left(&c) < 40) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 0, tfk_cur_left(&c));
		tfk_set_path(f, "info header");
		tfk_set_expected(f, "40 bytes");
		tfk_set_found(f, "%llu bytes", (unsigned long long)tfk_cur_left(&c));
		return;
	}
	bool ok = magic_ok;
	if ((endian != 1 && endian != 2) || (order && endian != order)) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 14, 1);
		tfk_set_path(f, "info header endian");
		if (order)
			tfk_set_expected(f, "%d (%s endian: the header's version and size are written so)", order,
					 order == 1 ? "little" : "big");
		else
			tfk_set_expected(f, "1 (little) or 2 (big endian)");
		tfk_set_found(f, "%u", endian);
		if (order && magic_ok) {
			st->fix_endian = (uint8_t)order; /* repair writes the right byte */
			st->header_fixes++;
		} else {
			ok = false;
		}
		endian = order ? (uint8_t)order : 1;
	}
	c.big_endian = endian == 2;
	st->big_endian = c.big_endian;
	uint32_t version = 0;
	uint16_t hsize = 0, max_stack = 0;
	tfk_cur_u32_at(&c, 8, &version);
	tfk_cur_u16_at(&c, 12, &hsize);
	tfk_cur_u64_at(&c, 16, &st->feat);
	tfk_cur_u64_at(&c, 24, &st->info_mask);
	tfk_cur_u16_at(&c, 32, &max_stack);
	st->max_stack = max_stack;
	/* uftrace --max-stack above 1024 records depths its 10-bit field cannot hold: they wrap */
	st->depth_wraps = (st->feat & UF_FEAT_MAX_STACK) && max_stack > 1024;
	if (version < 3 || version > 4) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 8, 4);
		tfk_set_path(f, "info header version");
		tfk_set_expected(f, "3 or 4");
		tfk_set_found(f, "%u", version);
		ok = false;
	}
	if (hsize != 40) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 12, 2);
		tfk_set_path(f, "info header size");
		tfk_set_expected(f, "40");
		tfk_set_found(f, "%u", hsize);
		ok = false;
	}
	if (elf_class != 1 && elf_class != 2) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 15, 1);
		tfk_set_path(f, "info header ELF class");
		tfk_set_expected(f, "1 (32-bit) or 2 (64-bit)");
		tfk_set_found(f, "%u", elf_class);
		ok = false;
		elf_class = 2;
	}
	st->elf_class = elf_class;
	if (st->feat & ~UF_FEAT_KNOWN) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_UNKNOWN_FEATURE, 16, 8);
		tfk_set_path(f, "info header feature mask");
		unsigned bit = 0;
		while (!(st->feat & ~UF_FEAT_KNOWN & (1ull << bit)))
			bit++;
		tfk_set_expected(f, "bits 0-13 (PLTHOOK ... CALLSITE)");
		tfk_set_found(f, "bit %u (mask %#llx)", bit, (unsigned long long)st->feat);
	}
	if ((st->feat & UF_FEAT_MAX_STACK) && max_stack == 0) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 32, 2);
		tfk_set_path(f, "info header max_stack");
		tfk_set_expected(f, "a positive stack depth (feature MAX_STACK)");
		tfk_set_found(f, "0");
	}
	st->info_ok = ok;

	/* The text sections, in the order of the info mask's bits. */
	struct tfk_cursor t;
	tfk_cur_sub(&c, 40, tfk_cur_left(&c) - 40, &t);
	struct uf_line l = { 0 };
	int64_t nr_tid = 0;
	for (unsigned bit = 0; bit < 64; bit++) {
		if (!(st->info_mask & (1ull << bit)))
			continue;
		if (bit >= N_SECTIONS)
			break; /* newer sections: not known here, not checked */
		const struct section *sec = &sections[bit];
		if (!uf_next_line(&t, &l)) {
			struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_SECTION, tfk_cur_abs(&t), 0);
			tfk_set_path(f, "info section %u", bit);
			tfk_set_expected(f, "a line beginning %s (info mask %#llx)", sec->prefix,
					 (unsigned long long)st->info_mask);
			tfk_set_found(f, "the end of the file");
			return;
		}
		if (!starts(&l, sec->prefix)) {
			struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_INFO_BAD_SECTION, &l, "info section", NULL);
			tfk_set_expected(f, "a line beginning %s (bit %u of the info mask)", sec->prefix, bit);
			return;
		}
		if (sec->kind == 3) {
			if (!uf_next_line(&t, &l) || !starts(&l, "elapsed_time:")) {
				struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_SECTION, l.offset, l.len);
				tfk_set_path(f, "line %llu: info section", (unsigned long long)l.number);
				tfk_set_expected(f, "elapsed_time: after record_date:");
				return;
			}
			utc_offset_unmasked(ctx, st, &t, &l);
			continue;
		}
		if (bit == 0 && l.len > 8 && l.len - 8 < sizeof(st->exename)) {
			bool plain = true;
			for (size_t i = 8; i < l.len && plain; i++)
				plain = (unsigned char)l.s[i] >= 0x20 && l.s[i] != '"' && l.s[i] != 0x7f;
			if (plain) {
				memcpy(st->exename, l.s + 8, l.len - 8);
				st->exename[l.len - 8] = '\0';
			}
		}
		if (bit == 3) {
			cmdline_options(&l, &st->filtered, &st->may_be_empty);
			if (l.len < sizeof(st->cmdline) && !memchr(l.s, 0, l.len)) {
				memcpy(st->cmdline, l.s, l.len);
				st->cmdline[l.len] = '\0';
			}
		}
		if (bit == 12)
			st->patt_type = pattern_type(&l);
		if (sec->kind == 0)
			continue;
		size_t plen = strlen(sec->prefix);
		int64_t lines;
		if (l.len < plen + 6 || memcmp(l.s + plen, "lines=", 6) != 0 ||
		    !parse_dec(l.s + plen + 6, l.len - plen - 6, &lines) || lines < 0) {
			struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_INFO_BAD_SECTION, &l, "info section", NULL);
			tfk_set_expected(f, "%slines=N", sec->prefix);
			return;
		}
		for (int64_t i = 0; i < lines; i++) {
			if (!uf_next_line(&t, &l)) {
				struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_SECTION, tfk_cur_abs(&t), 0);
				tfk_set_path(f, "info section %s", sec->prefix);
				tfk_set_expected(f, "%lld lines", (long long)lines);
				tfk_set_found(f, "the end of the file after %lld", (long long)i);
				return;
			}
			if (sec->kind == 1 && !starts(&l, sec->prefix)) {
				struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_INFO_BAD_SECTION, &l, "info section", NULL);
				tfk_set_expected(f, "%lld lines beginning %s", (long long)lines, sec->prefix);
				return;
			}
			if (bit == 7)
				check_taskinfo_line(ctx, st, &l, &nr_tid);
			if (bit == 10)
				spec_ok = spec_ok && keep_spec_line(ctx, st, &l);
		}
		if (bit == 10)
			st->spec_section = spec_ok;
	}
}

/* ---- the directory ------------------------------------------------------------------- */

static void send_member(struct tfk_ctx *ctx, const struct tfk_member *m, uint64_t errors, uint64_t warnings)
{
	struct tfk_uftrace_member um;
	memset(&um, 0, sizeof(um));
	snprintf(um.member, sizeof(um.member), "%s", m->name);
	um.size = m->size;
	um.errors = errors > UINT32_MAX ? UINT32_MAX : (uint32_t)errors;
	um.warnings = warnings > UINT32_MAX ? UINT32_MAX : (uint32_t)warnings;
	uf_send(ctx, TFK_UFTRACE_MODEL_MEMBER, &um, sizeof(um));
}

typedef void (*member_fn)(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in,
			  const struct tfk_member *m, const struct tfk_cursor *c);

static bool with_member(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in,
			const struct tfk_member *m, member_fn fn)
{
	struct tfk_member_map map;
	if (tfk_member_open(in, m, &map) != 0) {
		tfk_member_unreadable(ctx, m->name, "uftrace member", errno);
		return false;
	}
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, m->name, &map);
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, st->big_endian);
	uint64_t errors = ctx->report->by_severity[TFK_SEV_ERROR], warnings = ctx->report->by_severity[TFK_SEV_WARNING];
	fn(ctx, st, in, m, &c);
	tfk_ctx_return(ctx, was);
	tfk_member_close(&map);
	st->member_errors = ctx->report->by_severity[TFK_SEV_ERROR] - errors;
	st->member_warnings = ctx->report->by_severity[TFK_SEV_WARNING] - warnings;
	if (strcmp(m->name, "info") != 0) /* info's cross-checks come at the end */
		send_member(ctx, m, st->member_errors, st->member_warnings);
	return true;
}

static void do_info(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_member *m,
		    const struct tfk_cursor *c)
{
	(void)in, (void)m;
	uf_check_info(ctx, st, c);
}

static void do_task(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_member *m,
		    const struct tfk_cursor *c)
{
	(void)m;
	uf_check_task(ctx, st, in, c);
}

static void do_map(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_member *m,
		   const struct tfk_cursor *c)
{
	(void)in, (void)m;
	uf_check_map(ctx, st, c);
}

static void do_sym(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_member *m,
		   const struct tfk_cursor *c)
{
	(void)in, (void)m;
	uf_check_sym(ctx, st, c);
}

static void do_dbg(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_member *m,
		   const struct tfk_cursor *c)
{
	(void)st, (void)in, (void)m;
	uf_check_dbg(ctx, c);
}

static void do_events(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in,
		      const struct tfk_member *m, const struct tfk_cursor *c)
{
	(void)st, (void)in, (void)m;
	uf_check_events(ctx, c);
}

static void do_extern(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in,
		      const struct tfk_member *m, const struct tfk_cursor *c)
{
	(void)st, (void)in, (void)m;
	uf_check_extern(ctx, c);
}

static void do_dat(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_member *m,
		   const struct tfk_cursor *c)
{
	(void)in;
	uf_check_dat(ctx, st, c, m->name);
}

static void do_perf(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_member *m,
		    const struct tfk_cursor *c)
{
	(void)st, (void)in, (void)m;
	uf_check_perf(ctx, c);
}

static void do_kernel_header(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in,
			     const struct tfk_member *m, const struct tfk_cursor *c)
{
	(void)in, (void)m;
	uf_check_kernel_header(ctx, st, c);
}

static void do_kernel_cpu(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in,
			  const struct tfk_member *m, const struct tfk_cursor *c)
{
	(void)in;
	uf_check_kernel_cpu(ctx, st, c, m->name);
}

/* kernel_header first: every kernel-cpu<N>.dat is read with its layout and formats. */
static void kernel_first(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in)
{
	bool pages = false;
	for (size_t i = 0; i < in->n; i++)
		if (in->members[i].kind == TFK_MEMBER_FILE && in->members[i].size > 0 &&
		    has_prefix_suffix(in->members[i].name, "kernel-cpu", ".dat"))
			pages = true;
	const struct tfk_member *kh = tfk_input_find(in, "kernel_header");
	if (kh && kh->kind == TFK_MEMBER_FILE)
		with_member(ctx, st, in, kh, do_kernel_header);
	else if (!kh && pages)
		uf_kernel_no_header(ctx, st);
}

/*
 * The tasks' data: a task that called no traced function writes no <tid>.dat, and uftrace
 * replays the others, so one missing file proves nothing; none at all for a recording that
 * lists tasks is a copy that lost them (uftrace replay: "cannot open record data").
 */
static void missing_task_data(struct tfk_ctx *ctx, const struct uf_state *st, const struct tfk_input *in)
{
	for (size_t i = 0; i < in->n; i++)
		if (in->members[i].kind == TFK_MEMBER_FILE && dat_tid(in->members[i].name) >= 0)
			return;
	/* filters that matched nothing, or --trace=off: uftrace writes no task data ("No data available") */
	if (st->may_be_empty)
		return;
	const int64_t *tids = st->n_info_tids ? st->info_tids : st->task_tids;
	size_t n = st->n_info_tids ? st->n_info_tids : st->n_task_tids;
	for (size_t i = 0; i < n && i < 8; i++) {
		char name[32];
		snprintf(name, sizeof(name), "%lld.dat", (long long)tids[i]);
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, name, NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_MEMBER_MISSING);
		tfk_set_path(f, "task data");
		tfk_set_expected(f, "the data of task %lld (%zu tasks listed, no task data file present)", (long long)tids[i], n);
		tfk_set_found(f, "none");
		tfk_ctx_return(ctx, was);
	}
}

static void uf_check_dir(struct tfk_ctx *ctx, const struct tfk_input *in)
{
	struct uf_state st = { 0 };
	st.elf_class = 2;
	ctx->report->stats.format = "uftrace data";
	ctx->report->stats.file_size = in->total_size;

	const struct tfk_member *info = tfk_input_find(in, "info");
	struct tfk_uftrace_info ui;
	memset(&ui, 0, sizeof(ui));
	uint64_t info_errors = 0, info_warnings = 0;
	if (info && info->kind == TFK_MEMBER_FILE) {
		st.has_info = true;
		if (with_member(ctx, &st, in, info, do_info)) {
			info_errors = st.member_errors;
			info_warnings = st.member_warnings;
		} else {
			info_errors = 1;
		}
		ui.present = true;
		ui.header_ok = st.info_ok;
		ui.big_endian = st.big_endian;
		ui.elf_class = (uint8_t)st.elf_class;
		ui.feat = st.feat;
		ui.info_mask = st.info_mask;
		ui.max_stack = (uint16_t)st.max_stack;
		ui.filtered = st.filtered;
		memcpy(ui.cmdline, st.cmdline, sizeof(ui.cmdline));
		memcpy(ui.exename, st.exename, sizeof(ui.exename));
		for (size_t i = 0; i < st.n_info_tids && i < TFK_UFTRACE_INFO_TIDS; i++)
			ui.tids[ui.ntids++] = st.info_tids[i];
		ui.tids_all = st.n_info_tids <= TFK_UFTRACE_INFO_TIDS;
	} else {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_UFTRACE_INFO_MISSING);
		tfk_set_path(f, "info");
		tfk_set_expected(f, "the info file uftrace record writes when it exits");
		tfk_set_found(f, "none: the recording was killed");
		ui.elf_class = 2;
	}
	/*
	 * The session maps first: the width of their addresses tells the class of the recording,
	 * which the argument lengths of the records depend on (a long is 4 or 8 bytes).
	 */
	for (size_t i = 0; i < in->n; i++)
		if (in->members[i].kind == TFK_MEMBER_FILE && !strchr(in->members[i].name, '/') &&
		    has_prefix_suffix(in->members[i].name, "sid-", ".map"))
			with_member(ctx, &st, in, &in->members[i], do_map);
	if (st.has_info && st.feat_known && st.elf_class == 1 && st.map_addr_max > 0xffffffffull) {
		/* uftrace would read every long of the arguments as 4 bytes: the data says 64-bit */
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, "info", NULL);
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 15, 1);
		tfk_set_path(f, "info header ELF class");
		tfk_set_expected(f, "2 (64-bit): %s maps addresses up to %#llx", st.map_addr_member,
				 (unsigned long long)st.map_addr_max);
		tfk_set_found(f, "1 (32-bit)");
		tfk_ctx_return(ctx, was);
		info_errors++;
		st.elf_class = 2;
		st.fix_class = 2;
		st.header_fixes++;
		ui.elf_class = 2;
	}
	ui.fix_magic = st.fix_magic;
	ui.fix_endian = st.fix_endian;
	ui.fix_class = st.fix_class;
	ui.header_fixes = st.header_fixes;
	uf_send(ctx, TFK_UFTRACE_MODEL_INFO, &ui, sizeof(ui));
	const struct tfk_member *task = tfk_input_find(in, "task.txt");
	if (task && task->kind == TFK_MEMBER_FILE) {
		with_member(ctx, &st, in, task, do_task);
	} else if (tfk_input_find(in, "task")) {
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, "task", NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_CHECK_UNSUPPORTED);
		tfk_set_path(f, "legacy binary task file");
		tfk_ctx_return(ctx, was);
		ctx->report->incomplete = true;
	} else {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_UFTRACE_TASK_MISSING);
		tfk_set_path(f, "task.txt");
		tfk_set_expected(f, "the sessions and tasks of the recording");
		tfk_set_found(f, "no task.txt");
	}

	st.args = uf_args_new(ctx, &st, in);
	kernel_first(ctx, &st, in);
	for (size_t i = 0; i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		const char *name = m->name;
		if (strchr(name, '/'))
			continue;
		if (m->kind == TFK_MEMBER_FIFO && strcmp(name, ".channel") == 0) {
			struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, name, NULL);
			struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_UFTRACE_CHANNEL_LEFTOVER);
			tfk_set_path(f, "FIFO of uftrace record");
			tfk_set_found(f, "left behind, not opened");
			tfk_ctx_return(ctx, was);
			continue;
		}
		if ((m->kind == TFK_MEMBER_FIFO || m->kind == TFK_MEMBER_OTHER) && uf_reads(name)) {
			struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, name, NULL);
			struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_UFTRACE_MEMBER_SPECIAL);
			tfk_set_path(f, "member uftrace reads");
			tfk_set_expected(f, "a regular file");
			tfk_set_found(f, "%s, not opened", m->kind == TFK_MEMBER_FIFO ? "a FIFO" : "a socket or device");
			tfk_ctx_return(ctx, was);
			continue;
		}
		if (m->kind != TFK_MEMBER_FILE)
			continue;
		if (has_prefix_suffix(name, "sid-", ".map"))
			continue; /* checked first */
		else if (has_prefix_suffix(name, "", ".sym"))
			with_member(ctx, &st, in, m, do_sym);
		else if (has_prefix_suffix(name, "", ".dbg"))
			with_member(ctx, &st, in, m, do_dbg);
		else if (strcmp(name, "events.txt") == 0)
			with_member(ctx, &st, in, m, do_events);
		else if (strcmp(name, "extern.dat") == 0)
			with_member(ctx, &st, in, m, do_extern);
		else if (dat_tid(name) >= 0)
			with_member(ctx, &st, in, m, do_dat);
		else if (is_perf_cpu(name))
			with_member(ctx, &st, in, m, do_perf);
		else if (has_prefix_suffix(name, "kernel-cpu", ".dat") && m->size > 0)
			with_member(ctx, &st, in, m, do_kernel_cpu);
	}

	/* Tasks: info's against task.txt's, and every task data file against task.txt. */
	if (task) {
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, "info", NULL);
		for (size_t i = 0; i < st.n_info_tids; i++) {
			if (uf_task_known(&st, st.info_tids[i]))
				continue;
			struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_UFTRACE_TASK_TID_MISMATCH);
			tfk_set_path(f, "taskinfo:tids");
			tfk_set_expected(f, "a TASK or FORK line of task.txt for tid %lld", (long long)st.info_tids[i]);
			tfk_set_found(f, "none");
			info_errors++;
		}
		tfk_ctx_return(ctx, was);
		for (size_t i = 0; i < in->n; i++) {
			int64_t tid = dat_tid(in->members[i].name);
			if (tid < 0 || in->members[i].kind != TFK_MEMBER_FILE ||
			    uf_task_known(&st, tid))
				continue;
			struct tfk_ctx_place w = tfk_ctx_enter_member(ctx, in->members[i].name, NULL);
			struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_UFTRACE_DAT_ORPHAN);
			tfk_set_path(f, "task data");
			tfk_set_expected(f, "a TASK or FORK line of task.txt for tid %lld", (long long)tid);
			tfk_set_found(f, "none");
			tfk_ctx_return(ctx, w);
		}
		missing_task_data(ctx, &st, in);
	}
	if (st.over_depth && st.info_ok && !st.depth_wraps) {
		/*
		 * Records deeper than max_stack that follow from the records before them: the header's
		 * limit was lowered (uftrace sizes each task's stack by it, and stops at the first
		 * deeper record), not every such record damaged. uftrace records with 1024 by default.
		 */
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, "info", NULL);
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_INFO_BAD_HEADER, 32, 2);
		tfk_set_path(f, "info header max_stack");
		tfk_set_expected(f, "more than %u, the depth %s's records reach", st.over_depth,
				 st.over_member ? st.over_member : "a task");
		tfk_set_found(f, "%u", st.max_stack);
		tfk_ctx_return(ctx, was);
		info_errors++;
		st.fix_max_stack = st.over_depth < 1024 ? 1024 : (uint16_t)(st.over_depth + 1);
		st.header_fixes++;
		ui.fix_max_stack = st.fix_max_stack;
		ui.header_fixes = st.header_fixes;
		uf_send(ctx, TFK_UFTRACE_MODEL_INFO, &ui, sizeof(ui)); /* the model again, with the fix */
	}
	if (info && info->kind == TFK_MEMBER_FILE)
		send_member(ctx, info, info_errors, info_warnings);
	uf_state_free(&st);
}

static void uf_check_single(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	(void)ctx, (void)file;
}

static int uf_sniff(const struct tfk_cursor *file)
{
	(void)file;
	return 0; /* a directory format */
}

static void uf_dictionary(tfk_token_fn emit, void *user)
{
	emit(user, "uftrace_magic", uf_magic, 8);
	static const char *const words[] = { "SESS ", "TASK ", "FORK ", "EXEC ", "DLOP ", "timestamp=", "tid=",
					     "pid=", "ppid=", "sid=", "exename=\"", "libname=\"", "base=",
					     "# symbols: ", "# path name: ", "taskinfo:lines=2", "taskinfo:nr_tid=",
					     "taskinfo:tids=", "lines=", "build-id:", "r-xp" };
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		emit(user, "uftrace_word", words[i], strlen(words[i]));
	static const uint8_t rec[8] = { 0x28, 0, 0, 0, 0, 0, 0, 0 };
	emit(user, "uftrace_record_entry", rec, 8);
}

const struct tfk_format tfk_format_uftrace = {
	.name = "uftrace data",
	.sniff = uf_sniff,
	.check = uf_check_single,
	.dictionary = uf_dictionary,
	.sniff_dir = uf_sniff_dir,
	.check_dir = uf_check_dir,
	.picture = uf_picture,
};
