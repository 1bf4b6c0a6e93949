/* SPDX-License-Identifier: MIT */
/*
 * What is inside a record whose size is sound: the counts it carries must fit in it, its
 * strings must end inside it, its ranges must be ordered. These are the classes of damage
 * perf's own reader learnt to refuse in 2026 (the perf-data-validation series: nr fields
 * against the record size, NUL-terminated strings, RANGE_CPUS start > end) and the records
 * perf 6.16 and later write (COMPRESSED2, BPF_METADATA, SCHEDSTAT_CPU / _DOMAIN, deferred
 * callchains). Layouts are those of tools/lib/perf/include/perf/event.h.
 */
#include <stdio.h>
#include <string.h>

#include "perfrec_state.h"

void pf_bad_body(struct pf_check *pc, uint64_t at, uint32_t type, const char *expected, const char *found)
{
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_RECORD_BAD_BODY, at, 0);
	tfk_set_path(f, "record type %u", type);
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "%s", found);
}

/* A NUL somewhere in [from, to) of the record (a file, command or program name). */
bool pf_needs_nul(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type, uint64_t from, uint64_t to)
{
	const uint8_t *p;
	if (to > from && tfk_cur_bytes_at(rec, from, to - from, &p) && memchr(p, 0, to - from))
		return true;
	char found[64];
	snprintf(found, sizeof(found), "%llu bytes without a NUL", (unsigned long long)(to > from ? to - from : 0));
	pf_bad_body(pc, rec->origin + from, type, "a NUL-terminated name", found);
	return false;
}

/* nr elements of elem bytes from byte `at` up to `end` of the record: false (reported) when they do not fit. */
static bool counted(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type, uint64_t nr_at, uint64_t nr,
		    uint64_t at, uint64_t end, uint64_t elem, const char *what)
{
	if (at <= end && nr <= (end - at) / elem)
		return true;
	char exp[96], found[96];
	snprintf(exp, sizeof(exp), "%s of %llu bytes each that fit the record", what, (unsigned long long)elem);
	snprintf(found, sizeof(found), "%llu of them, %llu bytes left", (unsigned long long)nr,
		 (unsigned long long)(end > at ? end - at : 0));
	pf_bad_body(pc, rec->origin + nr_at, type, exp, found);
	return false;
}

#define BPF_PROG_NAME_LEN 256   /* KSYM_NAME_LEN */
#define BPF_META_KEY_LEN 64
#define BPF_META_VALUE_LEN 256

/* BPF_METADATA (84, perf 6.16): prog_name[256], u64 nr_entries, entries {key[64], value[256]}. */
static void bpf_metadata(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type)
{
	const uint64_t fixed = 8 + BPF_PROG_NAME_LEN + 8, entry = BPF_META_KEY_LEN + BPF_META_VALUE_LEN;
	uint64_t nr = 0;
	if (!pf_needs_nul(pc, rec, type, 8, 8 + BPF_PROG_NAME_LEN))
		return;
	tfk_cur_u64_at(rec, 8 + BPF_PROG_NAME_LEN, &nr);
	if (!counted(pc, rec, type, 8 + BPF_PROG_NAME_LEN, nr, fixed, rec->len, entry, "metadata entries"))
		return;
	for (uint64_t i = 0; i < nr; i++) {
		const uint64_t e = fixed + i * entry;
		if (!pf_needs_nul(pc, rec, type, e, e + BPF_META_KEY_LEN) ||
		    !pf_needs_nul(pc, rec, type, e + BPF_META_KEY_LEN, e + entry))
			return;
	}
}

/*
 * SCHEDSTAT_CPU (85) and SCHEDSTAT_DOMAIN (86), perf sched stats: {u64 timestamp, u32 cpu,
 * u16 version, u16 pad or domain} and then the counters of that schedstat version (15, 16 or
 * 17). A version this build does not know is another perf's, not damage: a warning.
 */
static void schedstat(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type)
{
	uint16_t version = 0;
	tfk_cur_u16_at(rec, 20, &version);
	if (version >= 15 && version <= 17)
		return;
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_RECORD_UNKNOWN_TYPE, rec->origin + 20, 2);
	tfk_set_path(f, "record type %u (SCHEDSTAT_%s)", type, type == PF_REC_SCHEDSTAT_CPU ? "CPU" : "DOMAIN");
	tfk_set_expected(f, "schedstat version 15, 16 or 17");
	tfk_set_found(f, "version %u (its counters not checked)", version);
}

/* CPU_MAP (74): u16 type; CPUS {u16 nr, u16 cpu[]}, MASK {u16 nr, u16 long_size, mask[]}, RANGE_CPUS. */
static void cpu_map(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type)
{
	uint16_t kind = 0, nr = 0, long_size = 0, start = 0, end = 0;
	char found[96];
	tfk_cur_u16_at(rec, 8, &kind);
	tfk_cur_u16_at(rec, 10, &nr);
	switch (kind) {
	case 0: /* PERF_CPU_MAP__CPUS */
		counted(pc, rec, type, 10, nr, 12, rec->len, 2, "CPUs");
		break;
	case 1: /* PERF_CPU_MAP__MASK */
		tfk_cur_u16_at(rec, 12, &long_size);
		if (long_size == 4)
			counted(pc, rec, type, 10, nr, 14, rec->len, 4, "mask words");
		else if (long_size == 8)
			counted(pc, rec, type, 10, nr, 16, rec->len, 8, "mask words");
		else {
			snprintf(found, sizeof(found), "long_size %u", long_size);
			pf_bad_body(pc, rec->origin + 12, type, "a CPU mask of 4- or 8-byte words", found);
		}
		break;
	case 2: /* PERF_CPU_MAP__RANGE_CPUS: u8 any_cpu, u8 pad, u16 start_cpu, u16 end_cpu */
		tfk_cur_u16_at(rec, 12, &start);
		tfk_cur_u16_at(rec, 14, &end);
		if (start > end) {
			snprintf(found, sizeof(found), "start %u, end %u", start, end);
			pf_bad_body(pc, rec->origin + 12, type, "a CPU range whose start is not after its end", found);
		}
		break;
	default:
		break; /* a kind perf does not know: it skips the map */
	}
}

void pf_check_body(struct pf_check *pc, const struct tfk_cursor *rec, uint32_t type, uint32_t tr)
{
	const uint64_t size = rec->len, end = size - tr; /* the record's own fields end before the trailer */
	uint64_t nr = 0;
	uint16_t old_len = 0, new_len = 0;
	char found[96];
	switch (type) {
	case 16: /* NAMESPACES: u32 pid, tid, u64 nr_namespaces, {u64 dev, ino}[] */
		tfk_cur_u64_at(rec, 16, &nr);
		counted(pc, rec, type, 16, nr, 24, end, 16, "namespaces");
		break;
	case 17: /* KSYMBOL: u64 addr, u32 len, u16 ksym_type, u16 flags, name */
		pf_needs_nul(pc, rec, type, 24, end);
		break;
	case 19: /* CGROUP: u64 id, path */
		pf_needs_nul(pc, rec, type, 16, end);
		break;
	case 20: /* TEXT_POKE: u64 addr, u16 old_len, u16 new_len, bytes */
		tfk_cur_u16_at(rec, 16, &old_len);
		tfk_cur_u16_at(rec, 18, &new_len);
		if (20ull + old_len + new_len > end) {
			snprintf(found, sizeof(found), "%u + %u bytes, %llu left", old_len, new_len,
				 (unsigned long long)(end > 20 ? end - 20 : 0));
			pf_bad_body(pc, rec->origin + 16, type, "old and new bytes inside the record", found);
		}
		break;
	case PF_REC_CALLCHAIN_DEFERRED: /* u64 cookie, u64 nr, u64 ips[nr] */
		tfk_cur_u64_at(rec, 16, &nr);
		counted(pc, rec, type, 16, nr, 24, end, 8, "callchain entries");
		break;
	case 67: /* HEADER_BUILD_ID: s32 pid, build_id[24], filename (when it has one) */
		if (size > 36)
			pf_needs_nul(pc, rec, type, 36, size);
		break;
	case 72: /* AUXTRACE_ERROR: type, code, cpu, pid, tid, fmt, u64 ip, time, msg[64] (when it has one) */
		if (size > 48)
			pf_needs_nul(pc, rec, type, 48, size < 112 ? size : 112);
		break;
	case 73: /* THREAD_MAP: u64 nr, {u64 pid, comm[16]}[] */
		tfk_cur_u64_at(rec, 8, &nr);
		counted(pc, rec, type, 8, nr, 16, size, 24, "threads");
		break;
	case 74: cpu_map(pc, rec, type); break;
	case 75: /* STAT_CONFIG: u64 nr, {u64 tag, val}[] */
		tfk_cur_u64_at(rec, 8, &nr);
		counted(pc, rec, type, 8, nr, 16, size, 16, "config terms");
		break;
	case PF_REC_BPF_METADATA: bpf_metadata(pc, rec, type); break;
	case PF_REC_SCHEDSTAT_CPU: case PF_REC_SCHEDSTAT_DOMAIN: schedstat(pc, rec, type); break;
	default: break;
	}
}
