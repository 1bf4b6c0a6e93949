/* SPDX-License-Identifier: MIT */
/*
 * Kernel data of a uftrace recording (uftrace record -k, or a kernel event with -E ...@kernel):
 * kernel_header, what uftrace saved of the tracing directory, and kernel-cpu<N>.dat, the raw
 * ring pages it read from each CPU's trace_pipe_raw.
 *
 * kernel_header is "PAGE_SIZE: N", "LONG_SIZE: N" and "ENDIAN: LE|BE" lines, then blocks:
 * a line "TRACEFS: <name>: <len>" and len bytes of events/header_page or of an event's format
 * (events/ftrace/funcgraph_{entry,exit}/format, then events/<system>/<event>/format). The
 * texts and the pages go through the trace.dat checker's format grammar and page walker
 * (ftrace_rings.h), whose codes name what they find there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shared/ftrace/ftrace_rings.h"
#include "uftrace.h"

/*
 * uftrace 0.13 (load_kernel_files) reads each line with fgets into a PATH_MAX buffer, a key
 * with an unbounded %[^:] into name[128] and its value with %s into val[32], and a block's
 * len bytes with fread into that same PATH_MAX stack buffer: longer ones overflow its stack.
 */
#define UF_KERNEL_LINE_MAX 4095
#define UF_KERNEL_NAME_MAX 127
#define UF_KERNEL_VALUE_MAX 31
#define UF_KERNEL_BLOCK_MAX 4096

static bool decimal(const char *s, size_t n, uint64_t max, uint64_t *v)
{
	if (n == 0 || n > 19)
		return false;
	uint64_t x = 0;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return false;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	*v = x;
	return x <= max;
}

/* One of the PAGE_SIZE / LONG_SIZE / ENDIAN lines. */
static void key_line(struct tfk_ctx *ctx, struct uf_kernel *k, const struct uf_line *l)
{
	const char *colon = memchr(l->s, ':', l->len);
	if (!colon || colon == l->s) {
		uf_line_fault(ctx, TFK_UFTRACE_KERNEL_SYNTAX, l, "kernel_header line",
			   "'PAGE_SIZE: N', 'LONG_SIZE: N', 'ENDIAN: LE|BE' or 'TRACEFS: <name>: <length>'");
		return;
	}
	size_t klen = (size_t)(colon - l->s), vat = klen + 1;
	while (vat < l->len && l->s[vat] == ' ')
		vat++;
	const char *val = l->s + vat;
	size_t vlen = l->len - vat;
	if (klen > UF_KERNEL_NAME_MAX || vlen > UF_KERNEL_VALUE_MAX) {
		uf_line_fault(ctx, TFK_UFTRACE_KERNEL_TOO_LONG, l, "kernel_header key",
			   "a key of at most 127 bytes and a value of at most 31 (uftrace's stack buffers)");
		return;
	}
	uint64_t v = 0;
	if (klen == 9 && memcmp(l->s, "PAGE_SIZE", 9) == 0) {
		k->page_size_seen = true;
		if (!decimal(val, vlen, ctx->limits->max_page_size, &v) || v < 1024 || (v & (v - 1))) {
			uf_line_fault(ctx, TFK_UFTRACE_KERNEL_BAD_HEADER, l, "PAGE_SIZE",
				   "a decimal page size, a power of two of at least 1024");
			return;
		}
		k->page_size = (uint32_t)v;
	} else if (klen == 9 && memcmp(l->s, "LONG_SIZE", 9) == 0) {
		k->long_size_seen = true;
		if (!decimal(val, vlen, 8, &v) || (v != 4 && v != 8)) {
			uf_line_fault(ctx, TFK_UFTRACE_KERNEL_BAD_HEADER, l, "LONG_SIZE", "4 or 8");
			return;
		}
		k->long_size = (uint8_t)v;
	} else if (klen == 6 && memcmp(l->s, "ENDIAN", 6) == 0) {
		k->endian_seen = true;
		if (vlen != 2 || (memcmp(val, "LE", 2) != 0 && memcmp(val, "BE", 2) != 0)) {
			uf_line_fault(ctx, TFK_UFTRACE_KERNEL_BAD_HEADER, l, "ENDIAN", "LE or BE");
			return;
		}
		k->big_endian = val[0] == 'B';
		k->endian_ok = true;
	} else {
		uf_line_fault(ctx, TFK_UFTRACE_KERNEL_SYNTAX, l, "kernel_header key", "PAGE_SIZE, LONG_SIZE or ENDIAN");
	}
}

/* The three keys come before the first block: uftrace parses the blocks with them. */
static bool keys_ready(struct tfk_ctx *ctx, struct uf_kernel *k, const struct uf_line *l)
{
	if (k->rings || k->keys_reported)
		return k->rings != NULL;
	if (!k->page_size || !k->long_size || !k->endian_ok) {
		k->keys_reported = true;
		struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_KERNEL_BAD_HEADER, l, "first block",
						   "valid PAGE_SIZE, LONG_SIZE and ENDIAN lines before the first block");
		tfk_set_found(f, "%s%s%s before it", k->page_size ? "" : "no valid PAGE_SIZE ",
			      k->long_size ? "" : "no valid LONG_SIZE ", k->endian_ok ? "" : "no valid ENDIAN ");
		return false;
	}
	k->rings = td_rings_new(ctx, k->big_endian, k->long_size, k->page_size);
	if (k->rings)
		td_rings_count_unknown(k->rings); /* formats left out are uftrace's habit: one note a file */
	return k->rings != NULL;
}

/* "TRACEFS: <name>: <len>" and its block; false when the blocks after it cannot be found. */
static bool block(struct tfk_ctx *ctx, struct uf_kernel *k, struct tfk_cursor *c, const struct uf_line *l)
{
	size_t at = 9; /* after "TRACEFS: " */
	const char *name = l->s + at;
	const char *sep = NULL;
	for (size_t i = at; i + 1 < l->len; i++)
		if (l->s[i] == ':' && l->s[i + 1] == ' ')
			sep = l->s + i;
	uint64_t len = 0;
	if (l->len < at || memcmp(l->s, "TRACEFS: ", 9) != 0 || !sep || sep == name ||
	    !decimal(sep + 2, l->len - (size_t)(sep + 2 - l->s), UINT64_MAX, &len) || memchr(name, ':', (size_t)(sep - name))) {
		uf_line_fault(ctx, TFK_UFTRACE_KERNEL_SYNTAX, l, "block header", "'TRACEFS: <name>: <decimal length>'");
		return false; /* uftrace stops reading kernel_header here */
	}
	size_t nlen = (size_t)(sep - name);
	char nm[UF_KERNEL_NAME_MAX + 1];
	snprintf(nm, sizeof(nm), "%.*s", (int)(nlen < UF_KERNEL_NAME_MAX ? nlen : UF_KERNEL_NAME_MAX), name);
	if (nlen > UF_KERNEL_NAME_MAX || len > UF_KERNEL_BLOCK_MAX) {
		struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_KERNEL_TOO_LONG, l, "block header",
						   "a name of at most 127 bytes and a block of at most 4096 (uftrace's stack buffers)");
		tfk_set_found(f, "a %zu-byte name, a %llu-byte block", nlen, (unsigned long long)len);
	}
	nlen = strlen(nm); /* the name as kept (cut to the buffer): what the checks below read */
	if (len > tfk_cur_left(c)) {
		struct tfk_finding *f = uf_line_fault(ctx, TFK_UFTRACE_KERNEL_SYNTAX, l, "block", "the block's bytes after its line");
		tfk_set_found(f, "%llu bytes announced, %llu left in the file", (unsigned long long)len,
			      (unsigned long long)tfk_cur_left(c));
		k->cut = true;
		return false;
	}
	struct tfk_cursor text;
	tfk_cur_sub(c, c->pos, len, &text);
	tfk_cur_skip(c, len);
	bool ready = keys_ready(ctx, k, l);
	if (strcmp(nm, "events/header_page") == 0) {
		if (ready)
			td_rings_header_page(k->rings, &text);
		k->header_page = true;
		return true;
	}
	/* events/<system>/<event>/format */
	const char *sys = nm + 7, *slash = strchr(sys, '/');
	size_t slen = slash ? (size_t)(slash - sys) : 0;
	if (strncmp(nm, "events/", 7) != 0 || !slash || slen == 0 || slen >= 48 || nlen < 14 ||
	    strcmp(nm + nlen - 7, "/format") != 0 || slash + 1 >= nm + nlen - 7) {
		uf_line_fault(ctx, TFK_UFTRACE_KERNEL_SYNTAX, l, "block name",
			   "events/header_page or events/<system>/<event>/format");
		return false; /* "unknown data": uftrace stops reading kernel_header, and ignores the kernel data */
	}
	char system[48];
	snprintf(system, sizeof(system), "%.*s", (int)slen, sys);
	if (ready)
		td_rings_format(k->rings, &text, system);
	k->formats++;
	return true;
}

void uf_check_kernel_header(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file)
{
	struct uf_kernel *k = &st->kernel;
	k->present = true;
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	bool blocks = false;
	while (uf_next_line(&c, &l)) {
		if (l.len > UF_KERNEL_LINE_MAX) {
			uf_line_fault(ctx, TFK_UFTRACE_KERNEL_TOO_LONG, &l, "kernel_header line",
				   "a line of at most 4095 bytes (uftrace reads lines into a PATH_MAX buffer)");
			if (blocks)
				break;
			continue;
		}
		if (l.len >= 8 && memcmp(l.s, "TRACEFS:", 8) == 0) {
			blocks = true;
			if (!l.terminated || !block(ctx, k, &c, &l))
				break;
			continue;
		}
		if (blocks) {
			uf_line_fault(ctx, TFK_UFTRACE_KERNEL_SYNTAX, &l, "block header", "'TRACEFS: <name>: <length>'");
			break;
		}
		key_line(ctx, k, &l);
	}
	if (!blocks && !k->cut) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_KERNEL_SYNTAX, file->len, 0);
		tfk_set_path(f, "end of file");
		tfk_set_expected(f, "the events/header_page block and the event formats");
		tfk_set_found(f, "no TRACEFS block");
	} else if (blocks && k->rings && !k->header_page) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_KERNEL_BAD_HEADER, 0, file->len);
		tfk_set_path(f, "events/header_page");
		tfk_set_expected(f, "the ring page layout, the first block");
		tfk_set_found(f, "no such block");
	}
	if (k->rings) {
		uint32_t hp = 0;
		if (!td_rings_settle(k->rings, &hp)) {
			struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_KERNEL_BAD_HEADER, 0, file->len);
			tfk_set_path(f, "PAGE_SIZE");
			tfk_set_expected(f, "%u (header_page's data offset + size)", hp);
			tfk_set_found(f, "%u", k->page_size);
		}
	}
}

/* Without a kernel_header uftrace reads the pages with the formats of the machine it runs on. */
void uf_kernel_no_header(struct tfk_ctx *ctx, struct uf_state *st)
{
	struct uf_kernel *k = &st->kernel;
	struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_UFTRACE_KERNEL_HEADER_MISSING);
	tfk_set_path(f, "kernel_header");
	tfk_set_expected(f, "the page layout and event formats of the recording's kernel");
	tfk_set_found(f, "none: readers take the formats of the kernel they run on");
	/* The pages are walked with the usual layout of the recording's byte order, no formats. */
	k->rings = td_rings_new(ctx, st->big_endian, 8, 4096);
	uint32_t hp;
	if (k->rings) {
		td_rings_count_unknown(k->rings);
		td_rings_settle(k->rings, &hp);
	}
}

void uf_check_kernel_cpu(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file, const char *name)
{
	struct uf_kernel *k = &st->kernel;
	if (!k->rings)
		return; /* kernel_header says nothing usable of the pages: its own findings say why */
	uint32_t cpu = 0;
	for (const char *p = name + 10; *p >= '0' && *p <= '9' && cpu < 100000; p++)
		cpu = cpu * 10 + (uint32_t)(*p - '0');
	const uint32_t ps = td_rings_page_size(k->rings);
	struct tfk_uftrace_kernel m;
	memset(&m, 0, sizeof(m));
	snprintf(m.member, sizeof(m.member), "%s", name);
	m.size = file->len;
	m.page_size = ps;
	td_rings_layout(k->rings, &m.commit_size, &m.data_offset);
	m.big_endian = file->big_endian;
	uf_send(ctx, TFK_UFTRACE_MODEL_KERNEL, &m, sizeof(m)); /* its pages follow, through the observer */
	struct tfk_cursor pages = *file;
	pages.big_endian = td_rings_big_endian(k->rings);
	td_rings_walk(k->rings, &pages, cpu);
	uint16_t id;
	uint64_t at, unknown = td_rings_unknown(k->rings, &id, &at);
	if (unknown) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_KERNEL_UNKNOWN_EVENT, at, 0);
		tfk_set_path(f, "cpu%u", cpu);
		tfk_set_expected(f, "a format in kernel_header for every event id");
		tfk_set_found(f, "%llu events of ids without one, the first id %u", (unsigned long long)unknown, id);
	}
	uint64_t whole = ps ? file->len / ps * ps : file->len;
	if (whole < file->len) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_KERNEL_PARTIAL_PAGE, whole, file->len - whole);
		tfk_set_path(f, "cpu%u page %llu", cpu, (unsigned long long)(whole / ps));
		tfk_set_expected(f, "whole %u-byte pages", ps);
		tfk_set_found(f, "%llu bytes of a last page", (unsigned long long)(file->len - whole));
	}
}
