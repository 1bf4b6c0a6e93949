/* SPDX-License-Identifier: MIT */
/*
 * perf.data feature sections: each payload parsed inside its own bounds. perf reads these
 * straight from the file without checking the section size; here every string, count and
 * nested record must fit, and the first thing that does not is reported.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "shared/ftrace/ftrace_bundle.h"
#include "perfrec_state.h"
#include "tracefsck/sink.h"

static const char *const feature_names[] = {
	"RESERVED", "TRACING_DATA", "BUILD_ID", "HOSTNAME", "OSRELEASE", "VERSION", "ARCH", "NRCPUS",
	"CPUDESC", "CPUID", "TOTAL_MEM", "CMDLINE", "EVENT_DESC", "CPU_TOPOLOGY", "NUMA_TOPOLOGY",
	"BRANCH_STACK", "PMU_MAPPINGS", "GROUP_DESC", "AUXTRACE", "STAT", "CACHE", "SAMPLE_TIME",
	"MEM_TOPOLOGY", "CLOCKID", "DIR_FORMAT", "BPF_PROG_INFO", "BPF_BTF", "COMPRESSED", "CPU_PMU_CAPS",
	"CLOCK_DATA", "HYBRID_TOPOLOGY", "PMU_CAPS", "CPU_DOMAIN_INFO", "E_MACHINE",
};
#define NFEATURES (sizeof(feature_names) / sizeof(feature_names[0]))

const char *pf_feature_name(unsigned bit)
{
	return bit < NFEATURES ? feature_names[bit] : pf_simpleperf_feature_name(bit) ? pf_simpleperf_feature_name(bit) : "unknown feature";
}

/* One feature being parsed: the view, a position, and the first failure. */
struct fp {
	struct pf_check *pc;
	const struct tfk_cursor *v;
	unsigned bit;
	uint64_t pos;
	bool bad;
};

__attribute__((format(printf, 4, 5))) static void bad(struct fp *p, uint64_t at, const char *expected,
							const char *fmt, ...)
{
	if (p->bad)
		return;
	p->bad = true;
	struct tfk_finding *f = tfk_emit(p->pc->ctx, TFK_PERF_FEATURE_BAD_PAYLOAD, p->v->origin + at, 0);
	const char *sp = pf_simpleperf_feature_name(p->bit);
	tfk_set_path(f, "feature %s", p->bit < NFEATURES ? feature_names[p->bit] : sp ? sp : "unknown");
	tfk_set_expected(f, "%s", expected);
	char found[120];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(found, sizeof(found), fmt, ap);
	va_end(ap);
	tfk_set_found(f, "%s", found);
}

static bool u32(struct fp *p, uint32_t *v, const char *what)
{
	if (p->bad)
		return false;
	if (tfk_cur_u32_at(p->v, p->pos, v)) {
		p->pos += 4;
		return true;
	}
	bad(p, p->pos, what, "%llu bytes left of the section", (unsigned long long)(p->v->len - p->pos));
	return false;
}

static bool u64(struct fp *p, uint64_t *v, const char *what)
{
	if (p->bad)
		return false;
	if (tfk_cur_u64_at(p->v, p->pos, v)) {
		p->pos += 8;
		return true;
	}
	bad(p, p->pos, what, "%llu bytes left of the section", (unsigned long long)(p->v->len - p->pos));
	return false;
}

static bool skip(struct fp *p, uint64_t n, const char *what)
{
	if (p->bad)
		return false;
	if (tfk_range_fits(p->pos, n, p->v->len)) {
		p->pos += n;
		return true;
	}
	bad(p, p->pos, what, "%llu bytes, %llu left of the section", (unsigned long long)(n), (unsigned long long)(p->v->len - p->pos));
	return false;
}

/* u32 len (NUL included, padded), then len bytes holding a NUL. */
static bool string(struct fp *p)
{
	uint32_t len;
	uint64_t at = p->pos;
	if (!u32(p, &len, "a u32 string length"))
		return false;
	if (!tfk_range_fits(p->pos, len, p->v->len)) {
		bad(p, at, "a string inside the section", "length %llu, %llu bytes left", (unsigned long long)(len), (unsigned long long)(p->v->len - p->pos));
		return false;
	}
	const uint8_t *s;
	if (len == 0 || !tfk_cur_bytes_at(p->v, p->pos, len, &s) || !memchr(s, 0, len)) {
		bad(p, at, "a NUL-terminated string", "%llu bytes without a NUL", (unsigned long long)(len));
		return false;
	}
	p->pos += len;
	return true;
}

/* u32 nr, then nr of something at least min bytes long each: nr must fit before the loop. */
static bool count(struct fp *p, uint32_t *nr, uint64_t min, const char *what)
{
	uint64_t at = p->pos;
	if (!u32(p, nr, what))
		return false;
	if (min && *nr > (p->v->len - p->pos) / min) {
		bad(p, at, "a count whose elements fit in the section", "%llu elements of at least %llu bytes", (unsigned long long)(*nr), (unsigned long long)(min));
		return false;
	}
	return true;
}

static void string_list(struct fp *p)
{
	uint32_t nr;
	if (count(p, &nr, 5, "a u32 string count"))
		for (uint32_t i = 0; i < nr && string(p); i++)
			;
}

static void build_ids(struct fp *p)
{
	while (!p->bad && p->pos < p->v->len) {
		uint16_t size;
		uint64_t at = p->pos;
		if (!tfk_cur_u16_at(p->v, at + 6, &size)) {
			bad(p, at, "a build-id record header", "%llu bytes left", (unsigned long long)(p->v->len - at));
			return;
		}
		if (size < 36 || size > p->v->len - at) {
			bad(p, at, "a build-id record of 36 bytes or more inside the section", "size %llu, %llu bytes left", (unsigned long long)(size), (unsigned long long)(p->v->len - at));
			return;
		}
		const uint8_t *name;
		if (size > 36 && tfk_cur_bytes_at(p->v, at + 36, size - 36u, &name) && !memchr(name, 0, size - 36u)) {
			bad(p, at + 36, "a NUL-terminated file name in the record", "%llu bytes without a NUL", (unsigned long long)(size - 36u));
			return;
		}
		p->pos += size;
	}
}

static void event_desc(struct fp *p)
{
	uint32_t nre, attr_sz;
	if (!u32(p, &nre, "u32 number of events") || !u32(p, &attr_sz, "u32 attr size"))
		return;
	if (attr_sz < PF_ATTR_MIN || attr_sz % 8) {
		bad(p, 4, "an attr size of at least 64, a multiple of 8", "%llu", (unsigned long long)(attr_sz));
		return;
	}
	/* Each event holds at least its attr, nr_ids and an empty string (u32 + NUL, padded). */
	if (nre > (p->v->len - p->pos) / (attr_sz + 8ull)) {
		bad(p, 0, "events that fit in the section", "%llu events of at least %llu bytes", (unsigned long long)(nre), (unsigned long long)(attr_sz + 8ull));
		return;
	}
	for (uint32_t i = 0; i < nre && !p->bad; i++) {
		uint32_t nr_ids = 0;
		skip(p, attr_sz, "an event's attr");
		u32(p, &nr_ids, "the event's u32 id count");
		string(p);
		if (!p->bad)
			skip(p, 8ull * nr_ids, "the event's ids");
	}
}

static void numa(struct fp *p)
{
	uint32_t nr, node;
	uint64_t v;
	if (count(p, &nr, 24, "u32 number of nodes"))
		for (uint32_t i = 0; i < nr && !p->bad; i++)
			if (u32(p, &node, "node id") && u64(p, &v, "mem_total") && u64(p, &v, "mem_free"))
				string(p);
}

static void pairs_of_strings(struct fp *p)
{
	uint32_t nr;
	if (count(p, &nr, 10, "u32 count"))
		for (uint32_t i = 0; i < nr && string(p) && string(p); i++)
			;
}

static void pmu_caps(struct fp *p)
{
	uint32_t nr_pmu;
	if (!count(p, &nr_pmu, 9, "u32 number of PMUs"))
		return;
	for (uint32_t i = 0; i < nr_pmu && !p->bad; i++) {
		uint32_t nr_caps;
		if (!count(p, &nr_caps, 10, "u32 number of capabilities"))
			return;
		for (uint32_t k = 0; k < nr_caps && string(p) && string(p); k++)
			;
		string(p);
	}
}

static void mem_topology(struct fp *p)
{
	uint64_t version, block, nr, node, size, nbits;
	if (!u64(p, &version, "u64 version") || !u64(p, &block, "u64 block size") || !u64(p, &nr, "u64 count"))
		return;
	if (nr > (p->v->len - p->pos) / 24) {
		bad(p, 16, "memory nodes that fit in the section", "%llu nodes", (unsigned long long)(nr));
		return;
	}
	for (uint64_t i = 0; i < nr && !p->bad; i++)
		if (u64(p, &node, "node") && u64(p, &size, "size") && u64(p, &nbits, "bitmap bits"))
			skip(p, ((nbits / 64) + (nbits % 64 != 0)) * 8, "the node's bitmap");
}

/*
 * While the trace.dat checker reads HEADER_TRACING_DATA, its texts (kallsyms, printk formats,
 * saved cmdlines) are noted on the way to the caller's observer: where they lie, and whether
 * they hold malformed lines. When those lines are the bundle's only damage, repair can rebuild
 * the feature from the good lines.
 */
struct bundle_texts {
	const struct tfk_observer *next;
	const struct tfk_cursor *view;
	uint64_t at[3], len[3];
	unsigned bad;               /* texts with a malformed line */
};

static void texts_meta(void *user, enum tfk_meta_kind kind, const uint8_t *bytes, uint64_t len)
{
	struct bundle_texts *t = user;
	int k = kind == TFK_META_KALLSYMS ? 0 : kind == TFK_META_PRINTK ? 1 : kind == TFK_META_CMDLINES ? 2 : -1;
	const uint8_t *base = t->view->base;
	if (k >= 0 && bytes >= base && len <= t->view->len && (uint64_t)(bytes - base) <= t->view->len - len) {
		t->at[k] = t->view->origin + (uint64_t)(bytes - base);
		t->len[k] = len;
		bool bad = false;
		for (uint64_t pos = 0; pos < len && !bad;) {
			const uint8_t *nl = memchr(bytes + pos, '\n', (size_t)(len - pos));
			uint64_t n = nl ? (uint64_t)(nl - (bytes + pos)) : len - pos;
			bad = n && !tfk_meta_line_ok(kind, bytes + pos, (size_t)n);
			pos += n + 1;
		}
		t->bad += bad;
	}
	if (t->next && t->next->meta)
		t->next->meta(t->next->user, kind, bytes, len);
}

static void texts_item(void *user, const struct tfk_item *item)
{
	struct bundle_texts *t = user;
	if (t->next && t->next->item)
		t->next->item(t->next->user, item);
}

static void tracing_data(struct fp *p)
{
	struct tfk_ctx *ctx = p->pc->ctx;
	struct bundle_texts t = { .next = ctx->obs, .view = p->v };
	struct tfk_observer wrap = { .user = &t, .meta = texts_meta, .item = texts_item };
	const struct tfk_observer *saved = ctx->obs;
	uint64_t errors = ctx->faults[TFK_SEV_ERROR];
	ctx->obs = &wrap;
	struct tfk_cursor blob = *p->v;
	td_check_tracing_bundle(ctx, &blob, "feature TRACING_DATA");
	ctx->obs = saved;
	p->pos = p->v->len;
	errors = ctx->faults[TFK_SEV_ERROR] - errors;
	struct tfk_perf_layout *L = &p->pc->lay;
	if (p->pc->pipe || !errors || errors != t.bad || !t.at[0] || !t.at[1])
		return;
	/* Malformed lines were the only damage (one finding per text): the good lines can be kept. */
	L->tracing_rebuild = true;
	uint32_t v = 0;
	tfk_cur_u32_at(&p->pc->file, t.at[0] - 4, &v);
	L->tracing_big_endian = v == t.len[0] ? p->pc->file.big_endian : !p->pc->file.big_endian;
	memcpy(L->tracing_text_at, t.at, sizeof(t.at));
	memcpy(L->tracing_text_len, t.len, sizeof(t.len));
}

/*
 * CPU_DOMAIN_INFO (perf sched stats): u32 schedstat version, u32 max_sched_domains, then per
 * CPU {u32 cpu, u32 nr_domains, per domain {u32 domain, [string name from version 17],
 * string cpumask, string cpulist}} to the section's end. perf files each domain at
 * domains[domain] of an array of max_sched_domains: a larger number writes past it.
 */
static void cpu_domain_info(struct fp *p)
{
	uint32_t version, max_domains, cpu, nr, domain;
	if (!u32(p, &version, "u32 schedstat version") || !u32(p, &max_domains, "u32 max_sched_domains"))
		return;
	if (version < 15 || version > 17) {
		bad(p, 0, "schedstat version 15, 16 or 17", "%u", version);
		return;
	}
	while (!p->bad && p->pos < p->v->len) {
		if (!u32(p, &cpu, "u32 cpu") || !count(p, &nr, 4 + 5 + 5, "u32 nr_domains"))
			return;
		for (uint32_t i = 0; i < nr && !p->bad; i++) {
			uint64_t at = p->pos;
			if (!u32(p, &domain, "u32 domain"))
				return;
			if (domain >= max_domains) {
				bad(p, at, "a domain number below max_sched_domains", "domain %u, max_sched_domains %u", domain, max_domains);
				return;
			}
			if ((version < 17 || string(p)) && string(p))
				string(p);
		}
	}
}

static const char *const simpleperf_names[] = {
	"FILE", "META_INFO", "DEBUG_UNWIND", "DEBUG_UNWIND_FILE", "FILE2", "ETM_BRANCH_LIST", "INIT_MAP",
};

const char *pf_simpleperf_feature_name(unsigned bit)
{
	return bit >= PF_SP_FEAT_FIRST && bit <= PF_SP_FEAT_LAST ? simpleperf_names[bit - PF_SP_FEAT_FIRST] : NULL;
}

/* simpleperf META_INFO: NUL-terminated key and value strings, pair after pair, to the end. */
static void meta_info(struct fp *p)
{
	const uint8_t *b;
	if (!tfk_cur_bytes_at(p->v, 0, p->v->len, &b))
		return;
	for (unsigned k = 0; p->pos < p->v->len; k++) {
		const uint8_t *nul = memchr(b + p->pos, 0, (size_t)(p->v->len - p->pos));
		if (!nul) {
			bad(p, p->pos, "NUL-terminated key and value strings", "%llu bytes without a NUL",
			    (unsigned long long)(p->v->len - p->pos));
			return;
		}
		uint64_t n = (uint64_t)(nul - (b + p->pos));
		if (k % 2 == 1 && p->pos >= 19 && memcmp(b + p->pos - 19, "simpleperf_version", 18) == 0 && !b[p->pos - 1])
			tfk_sanitize(p->pc->dialect_version, sizeof(p->pc->dialect_version), (const char *)b + p->pos, (size_t)n);
		p->pos += n + 1;
	}
}

/* simpleperf's own features (bits 128 and up): META_INFO parsed, the rest bounds-checked only. */
static void simpleperf_feature(struct fp *p)
{
	p->pc->dialect_features++;
	if (p->bit == PF_SP_FEAT_FIRST + 1)
		meta_info(p);
	else
		p->pc->dialect_unchecked_features++;
}

void pf_check_feature(struct pf_check *pc, unsigned bit, const struct tfk_cursor *view)
{
	struct fp p = { pc, view, bit, 0, false };
	uint32_t a, b, nr;
	uint64_t x, y;
	switch (bit) {
	case 1: tracing_data(&p); break;
	case 2: build_ids(&p); break;
	case 3: case 4: case 5: case 6: case 8: case 9:
		if (view->len == 0) { /* perf prints (null) and goes on */
			struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_FEATURE_EMPTY, view->origin, 0);
			tfk_set_path(f, "feature %s", feature_names[bit]);
			tfk_set_expected(f, "a u32 length and a NUL-terminated string");
			tfk_set_found(f, "an empty section");
			break;
		}
		if (string(&p) && bit == 5) { /* VERSION: the writer's perf version, for writer quirks */
			const uint8_t *v;
			uint32_t len = 0;
			tfk_cur_u32_at(view, 0, &len);
			if (tfk_cur_bytes_at(view, 4, len, &v)) {
				const uint8_t *nul = memchr(v, 0, len);
				tfk_sanitize(pc->writer_version, sizeof(pc->writer_version), v, nul ? (size_t)(nul - v) : len);
			}
		}
		break;
	case 7:
		if (u32(&p, &a, "u32 nr_cpus_avail") && u32(&p, &b, "u32 nr_cpus_online") && b > a)
			bad(&p, 0, "online CPUs no more than available CPUs", "%llu online, %llu available", (unsigned long long)(b), (unsigned long long)(a));
		break;
	case 10: case 23: case 24: u64(&p, &x, "a u64"); break;
	case 11: string_list(&p); break;
	case 12: event_desc(&p); break;
	case 13:
		string_list(&p); /* cores */
		string_list(&p); /* threads; the optional parts that follow depend on the size */
		p.pos = view->len;
		break;
	case 14: numa(&p); break;
	case 15: case 19: p.pos = view->len; break; /* flags without payload */
	case 16:
		if (count(&p, &nr, 9, "u32 number of PMUs"))
			for (uint32_t i = 0; i < nr && u32(&p, &a, "PMU type") && string(&p); i++)
				;
		break;
	case 17:
		if (count(&p, &nr, 13, "u32 number of groups"))
			for (uint32_t i = 0; i < nr && string(&p) && u32(&p, &a, "leader index") && u32(&p, &b, "member count"); i++)
				;
		break;
	case 18:
		if (pc->dialect == PF_DIALECT_SIMPLEPERF) {
			/* simpleperf's AUXTRACE (record_file_writer.cpp): {u64 file offset, u64 size} per
			   AUXTRACE record, no count; each offset is an AUXTRACE record's in this file. */
			if (view->len % 16)
				bad(&p, 0, "{u64 offset, u64 size} pairs", "%llu bytes", (unsigned long long)view->len);
			for (uint64_t at = 0; !p.bad && at + 16 <= view->len; at += 16) {
				tfk_cur_u64_at(view, at, &x);
				tfk_cur_u64_at(view, at + 8, &y);
				if (!tfk_range_fits(x, y, pc->size))
					bad(&p, at, "an AUXTRACE record inside the file", "offset 0x%llx size %llu", (unsigned long long)x,
					    (unsigned long long)y);
			}
			p.pos = view->len;
			break;
		}
		if (u64(&p, &x, "u64 number of entries") && x > (view->len - p.pos) / 16)
			bad(&p, 0, "entries that fit in the section", "%llu entries of 16 bytes", (unsigned long long)(x));
		p.pos = p.bad ? p.pos : view->len;
		break;
	case 20:
		if (u32(&p, &a, "u32 version") && count(&p, &nr, 31, "u32 number of caches"))
			for (uint32_t i = 0; i < nr && !p.bad; i++)
				if (skip(&p, 16, "level, line size, sets, ways") && string(&p) && string(&p))
					string(&p);
		break;
	case 21:
		if (u64(&p, &x, "u64 first sample time") && u64(&p, &y, "u64 last sample time") && x > y)
			bad(&p, 0, "first sample time <= last", "first %llu, last %llu", (unsigned long long)(x), (unsigned long long)(y));
		break;
	case 22: mem_topology(&p); break;
	case 25: /* BPF_PROG_INFO: u32 count; {u32 info_len, u32 data_len, u64 arrays, info_len + data_len bytes} */
		if (count(&p, &nr, 16, "u32 number of programs"))
			for (uint32_t i = 0; i < nr && u32(&p, &a, "u32 info_len") && u32(&p, &b, "u32 data_len") &&
					     u64(&p, &x, "u64 arrays"); i++)
				if (skip(&p, a, "the program's bpf_prog_info"))
					skip(&p, b, "the program's arrays");
		break;
	case 26: /* BPF_BTF: u32 count; {u32 id, u32 size, size bytes} */
		if (count(&p, &nr, 8, "u32 count"))
			for (uint32_t i = 0; i < nr && u32(&p, &a, "u32 id") && u32(&p, &b, "u32 size"); i++)
				skip(&p, b, "the BTF data");
		break;
	case 27:
		if (u32(&p, &a, "u32 version") && u32(&p, &pc->comp_type, "u32 type") && u32(&p, &b, "u32 level") &&
		    u32(&p, &b, "u32 ratio") && u32(&p, &b, "u32 mmap_len")) {
			/* perf decodes each payload into a buffer of mmap_len bytes: 0 decodes nothing
			   ("Couldn't decompress data"); a type other than zstd (1) it cannot decode. */
			if (pc->comp_type != 1)
				bad(&p, 4, "compression type 1 (zstd)", "type %u", pc->comp_type);
			else if (b == 0)
				bad(&p, 16, "an mmap_len that holds a decoded payload", "0");
			else {
				pc->have_comp = true;
				pc->comp_mmap_len = b;
			}
		}
		break;
	case 28: case 30: pairs_of_strings(&p); break;
	case 29: skip(&p, 24, "version, clockid and two u64 times"); break;
	case 31: pmu_caps(&p); break;
	case 32: cpu_domain_info(&p); break;
	case 33: /* E_MACHINE: u32 e_machine, u32 e_flags */
		if (view->len != 8)
			bad(&p, 0, "two u32 (e_machine, e_flags), 8 bytes", "%llu bytes", (unsigned long long)view->len);
		p.pos = view->len;
		break;
	default: {
		if (pc->dialect == PF_DIALECT_SIMPLEPERF && pf_simpleperf_feature_name(bit)) {
			simpleperf_feature(&p);
			return;
		}
		struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_FEATURE_UNKNOWN_BIT, view->origin, view->len);
		tfk_set_path(f, "feature %u", bit);
		tfk_set_expected(f, "a feature bit from 1 to %zu", NFEATURES - 2);
		tfk_set_found(f, "bit %u, %llu bytes (skipped)", bit, (unsigned long long)view->len);
		return;
	}
	}
}
