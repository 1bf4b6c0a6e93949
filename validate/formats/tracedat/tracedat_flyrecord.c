/* SPDX-License-Identifier: MIT */
/* A v6 flyrecord block: CPU table, clock trailer, and each CPU's data range. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat.h"
#include "shared/ftrace/ftrace_observe.h"
#include "tracedat_tokens.h"

/*
 * The clock trailer holds what the writer knew of the clock: "[local]" (trace-cmd 3.x), or the
 * whole trace_clock listing, "[local] global counter ... x86-tsc\n" (2.x), about 70 bytes.
 */
#define CLOCK_MAX 512

/* A byte of a trace_clock text: printable ASCII or a blank. */
static bool clock_char(uint8_t c)
{
	return (c >= 0x20 && c <= 0x7e) || c == '\t' || c == '\n';
}

/*
 * Is p[0, len) a trace_clock text: printable words separated by blanks, exactly one of them
 * the selected clock in brackets ("[local]")? *name and *name_len locate the name inside.
 * libtracecmd takes any length and the first word that starts with '['.
 */
static bool clock_text(const uint8_t *p, uint64_t len, uint64_t *name, uint64_t *name_len)
{
	uint64_t open = UINT64_MAX, close = UINT64_MAX;
	for (uint64_t i = 0; i < len; i++) {
		if (!clock_char(p[i]))
			return false;
		if (p[i] == '[') {
			if (open != UINT64_MAX || (i > 0 && p[i - 1] != ' ' && p[i - 1] != '\t' && p[i - 1] != '\n'))
				return false;
			open = i;
		} else if (p[i] == ']') {
			if (open == UINT64_MAX || close != UINT64_MAX || i == open + 1)
				return false;
			close = i;
		} else if (open != UINT64_MAX && close == UINT64_MAX && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n')) {
			return false; /* a blank inside the brackets */
		}
	}
	if (close == UINT64_MAX)
		return false;
	*name = open + 1;
	*name_len = close - open - 1;
	return true;
}

/* Is there a plausible clock trailer (u64 length, clock text) at abs? Returns its total size. */
static uint64_t clock_trailer_at(const struct td_check *td, uint64_t abs)
{
	uint64_t len, name, name_len;
	const uint8_t *p;
	if (!tfk_cur_u64_at(&td->file, abs, &len) || len < 3 || len > CLOCK_MAX)
		return 0;
	if (!tfk_cur_bytes_at(&td->file, abs + 8, len, &p) || !clock_text(p, len, &name, &name_len))
		return 0;
	return 8 + len;
}

static void count_mismatch(struct td_check *td, uint64_t at, uint32_t want, uint32_t found, const char *why,
			   const char *source)
{
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_COUNT_MISMATCH, at, 4);
	tfk_set_path(f, "%s", source);
	tfk_set_expected(f, "%u (%s)", want, why);
	tfk_set_found(f, "%u", found);
}

/*
 * The count of entries the clock trailer after the table proves: the declared count when the
 * trailer is where it says, else the first count (up to the CPU limit) with a trailer after it.
 * False, *count untouched, when no trailer proves one.
 */
static bool proven_cpus(const struct td_check *td, uint64_t table, uint32_t declared, uint32_t *count)
{
	uint32_t cap = td->ctx->limits->max_cpus;
	if (declared <= cap && clock_trailer_at(td, table + 16ull * declared)) {
		*count = declared;
		return true;
	}
	for (uint32_t k = 0; k <= cap && tfk_range_fits(table, 16ull * k + 8, td->size); k++) {
		if (clock_trailer_at(td, table + 16ull * k)) {
			*count = k;
			return true;
		}
	}
	return false;
}

/*
 * How many CPUs does the table hold? Readers use the last CPUCOUNT option, else the header.
 * The clock trailer right after the table proves the real count; each count that disagrees
 * with it (or, without proof, with the other) is reported once, for the top buffer.
 */
static uint32_t table_cpus(struct td_check *td, uint64_t table, bool top, bool *limited)
{
	uint32_t declared = td->dat->have_cpucount ? td->dat->cpucount : td->dat->hdr_cpus;
	uint32_t cap = td->ctx->limits->max_cpus;
	uint32_t count = declared;

	*limited = false;
	bool proven = proven_cpus(td, table, declared, &count);
	if (top) {
		if (proven) {
			if (td->dat->have_hdr_cpus && td->dat->hdr_cpus != count)
				count_mismatch(td, td->dat->hdr_cpus_offset, count, td->dat->hdr_cpus,
					       "where the flyrecord clock trailer is", "header CPU count");
			if (td->dat->have_cpucount && td->dat->cpucount != count)
				count_mismatch(td, td->dat->cpucount_offset, count, td->dat->cpucount,
					       "where the flyrecord clock trailer is", "option CPUCOUNT");
		} else if (td->dat->have_hdr_cpus && td->dat->have_cpucount && td->dat->hdr_cpus != td->dat->cpucount) {
			count_mismatch(td, td->dat->hdr_cpus_offset, td->dat->cpucount, td->dat->hdr_cpus, "the CPUCOUNT option",
				       "header CPU count");
		}
	}
	if (top && proven && td->dat->top_cpustats && td->dat->top_cpustats != count) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_STAT_COUNT_MISMATCH, td->dat->first_cpustat, 0);
		tfk_set_path(f, "options CPUSTAT");
		tfk_set_expected(f, "%u, one per CPU of the top buffer", count);
		tfk_set_found(f, "%u", td->dat->top_cpustats);
	}
	if (count > cap) {
		tfk_limit_hit(td->ctx, td->dat->have_cpucount ? td->dat->cpucount_offset : td->dat->hdr_cpus_offset,
			      "CPUs in a flyrecord table", count, cap);
		count = cap;
		*limited = true;
	}
	return count;
}

/*
 * How many entries the table at `table` holds, without reporting anything: the count the
 * clock trailer proves, else the declared count; at most the CPU limit and what the file holds.
 */
static uint32_t quiet_table_cpus(const struct td_check *td, uint64_t table)
{
	uint32_t declared = td->dat->have_cpucount ? td->dat->cpucount : td->dat->hdr_cpus;
	uint32_t cap = td->ctx->limits->max_cpus, count = declared;
	proven_cpus(td, table, declared, &count);
	if (count > cap)
		count = cap;
	uint64_t room = table < td->size ? (td->size - table) / 16 : 0;
	return count < room ? count : (uint32_t)room;
}

/*
 * Append to *used the data ranges that the flyrecord tables of the other buffers declare
 * (the top buffer's and every instance's, whether checked yet or not): the page scan of one
 * buffer must never take another buffer's pages for its own lost CPUs. A table whose tag is
 * damaged declares nothing. Returns the new count; on allocation failure, what it had.
 */
static uint32_t other_buffers_claims(struct td_check *td, uint64_t table, struct td_used_range **used,
				     uint32_t nused, size_t *cap)
{
	static const char fly[] = TD_TAG_FLYRECORD;
	uint32_t max_buffers = td->ctx->limits->max_buffers;
	for (size_t b = 0; b <= td->dat->ninstances && b <= max_buffers; b++) {
		uint64_t tag = b == 0 ? td->dat->top_tag_offset : td->dat->instances[b - 1].offset;
		const uint8_t *bytes;
		if (tag == UINT64_MAX || tag > UINT64_MAX - TD_TAG_LEN || tag + TD_TAG_LEN == table ||
		    !tfk_cur_bytes_at(&td->file, tag, TD_TAG_LEN, &bytes) || memcmp(bytes, fly, TD_TAG_LEN) != 0)
			continue;
		uint64_t other = tag + TD_TAG_LEN;
		uint32_t n = quiet_table_cpus(td, other);
		for (uint32_t cpu = 0; cpu < n; cpu++) {
			uint64_t offset = 0, size = 0;
			if (!tfk_cur_u64_at(&td->file, other + 16ull * cpu, &offset) ||
			    !tfk_cur_u64_at(&td->file, other + 16ull * cpu + 8, &size) || size == 0 || offset >= td->size)
				continue;
			void *arr = *used;
			if (!tfk_grow(td->ctx, &arr, cap, (size_t)nused + 1, sizeof(**used)))
				return nused;
			*used = arr;
			(*used)[nused].start = offset;
			(*used)[nused++].end = size <= td->size - offset ? offset + size : td->size;
		}
	}
	return nused;
}

/* The whole pages a CPU's table entry locates; false when it locates none to walk. */
static bool cpu_range(const struct td_check *td, uint32_t cpu, uint64_t offset, uint64_t size, const char *buffer,
		      struct td_walk_range *r)
{
	if (size == 0 || !td_range_of(td, offset, size, buffer, cpu, r))
		return false; /* an empty CPU: nothing to walk, whatever its offset */
	r->item_length = r->data.len; /* the map shows a v6 CPU as the pages walked */
	r->unobserved = offset % td->geo.page_size != 0;
	return true;
}

/* Returns false when the table entry cannot locate the CPU's pages (out of file, misaligned). */
static bool check_cpu(struct td_check *td, uint64_t entry, uint32_t cpu, uint64_t offset, uint64_t size,
		      const char *buffer)
{
	uint32_t ps = td->geo.page_size;
	struct tfk_finding *f;

	if (size == 0)
		return true; /* an empty CPU may carry any offset, even one past the end of the file */
	td->ctx->report->stats.cpus++;
	uint64_t end;
	td_obs_cpu_extent(td, cpu, size, offset < td->size ? (size < td->size - offset ? size : td->size - offset) : 0,
			  false);
	if (!tfk_add_u64(offset, size, &end) || offset >= td->size) {
		f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_OUT_OF_FILE, entry, 16);
		tfk_set_path(f, "%scpu%u", buffer, cpu);
		tfk_set_expected(f, "a range inside the file (size 0x%llx)", (unsigned long long)td->size);
		tfk_set_found(f, "offset 0x%llx size 0x%llx", (unsigned long long)offset, (unsigned long long)size);
		return false;
	}
	bool usable = true;
	if (offset % ps) {
		usable = false;
		f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_MISALIGNED, offset, size);
		tfk_set_path(f, "%scpu%u", buffer, cpu);
		tfk_set_expected(f, "a multiple of the page size %u", ps);
		tfk_set_found(f, "offset 0x%llx (table entry at 0x%llx)", (unsigned long long)offset,
			      (unsigned long long)entry);
	}
	if (size % ps) {
		uint64_t whole = size - size % ps;
		f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_PARTIAL_PAGE, offset + whole, size % ps);
		tfk_set_path(f, "%scpu%u", buffer, cpu);
		tfk_set_expected(f, "a size that is a multiple of the page size %u", ps);
		tfk_set_found(f, "size 0x%llx (%llu bytes over)", (unsigned long long)size,
			      (unsigned long long)(size % ps));
	}
	struct tfk_cursor data;
	if (tfk_cur_sub(&td->file, offset, size, &data) == TFK_SUB_CLIPPED) {
		char what[64];
		snprintf(what, sizeof(what), "%scpu%u data", buffer, cpu);
		td_truncated(td, offset, size, what);
		end = td->size;
	}
	tfk_claims_add(td->ctx, &td->claims, offset, end, true, "%scpu%u data", buffer, cpu);
	struct td_walk_range r;
	if (cpu_range(td, cpu, offset, size, buffer, &r) && td_walk_allowed(td, r.data.len, offset))
		td_walk_range(td, &r);
	return usable;
}

/*
 * Where the first CPU's pages start, after the table at pos (its first fit entries), for the
 * clock trailer that must end before them: the lowest page-aligned offset, at or after from,
 * of an entry with data inside the file. UINT64_MAX when no entry says.
 */
static uint64_t first_data(const struct td_check *td, uint64_t pos, uint32_t fit, uint64_t from)
{
	uint64_t first = UINT64_MAX;
	for (uint32_t cpu = 0; cpu < fit; cpu++) {
		uint64_t offset = 0, size = 0;
		if (!tfk_cur_u64_at(&td->file, pos + 16ull * cpu, &offset) ||
		    !tfk_cur_u64_at(&td->file, pos + 16ull * cpu + 8, &size))
			continue;
		if (size && offset >= from && offset < td->size && offset % td->geo.page_size == 0 && offset < first)
			first = offset;
	}
	return first;
}

/*
 * The clock trailer at `at`, before the CPU data at data_at (UINT64_MAX: not known); returns
 * where it ends. Writers before 2013 wrote no trailer: the table is followed by zero padding
 * (a length of 0) or, with less than 8 bytes of padding, directly by the first CPU's pages.
 * Writers of 2013 wrote the trailer without making room for it, so the first CPU's pages
 * could overwrite its end (libtracecmd: "File has trace_clock bug", then the local clock).
 * libtracecmd reads the trailer only with a TRACECLOCK option (which writers from 2013 add):
 * without one, a file may also end with the table. None of these is damage.
 */
static uint64_t check_clock(struct td_check *td, uint64_t at, uint64_t data_at, const char *buffer)
{
	uint64_t len = 0;
	if (data_at != UINT64_MAX && (data_at < at || data_at - at < 8))
		return at; /* not even room for the length: no trailer */
	bool have_len = tfk_cur_u64_at(&td->file, at, &len);
	if (have_len && len == 0)
		return at; /* written without a clock */
	if (!have_len && !td->dat->have_traceclock)
		return at; /* the file ends with the table: no trailer, and no reader looks for one */
	uint64_t t = have_len ? clock_trailer_at(td, at) : 0;
	if (t && (data_at == UINT64_MAX || t <= data_at - at)) {
		const uint8_t *text;
		uint64_t name, name_len;
		if (tfk_cur_bytes_at(&td->file, at + 8, t - 8, &text) && clock_text(text, t - 8, &name, &name_len) &&
		    name_len < sizeof(td->dat->clock)) {
			memcpy(td->dat->clock, text + name, name_len);
			td->dat->clock[name_len] = '\0';
		}
		return at + t;
	}
	if (have_len && data_at != UINT64_MAX && len <= CLOCK_MAX && len > data_at - at - 8) {
		/* A trailer cut short by the CPU data written over it: what is left is clock text. */
		const uint8_t *left;
		uint64_t n = data_at - at - 8;
		bool text = tfk_cur_bytes_at(&td->file, at + 8, n, &left);
		for (uint64_t i = 0; text && i < n; i++)
			text = clock_char(left[i]);
		if (text)
			return data_at;
	}
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_FLYRECORD_BAD_CLOCK, at, 8);
	tfk_set_path(f, "%sflyrecord clock", buffer);
	if (data_at != UINT64_MAX)
		tfk_set_expected(f, "u64 length 3..%d then \"[clock]\" or the trace_clock listing, before the CPU data at 0x%llx",
				 CLOCK_MAX, (unsigned long long)data_at);
	else
		tfk_set_expected(f, "u64 length 3..%d then \"[clock]\" or the trace_clock listing", CLOCK_MAX);
	if (have_len)
		tfk_set_found(f, "length %llu", (unsigned long long)len);
	else
		tfk_set_found(f, "end of file");
	return at;
}

void td_check_flyrecord(struct td_check *td, uint64_t pos, const char *name)
{
	char buffer[80];
	buffer[0] = '\0';
	if (name[0])
		snprintf(buffer, sizeof(buffer), "buffer %s ", name);
	td->ctx->report->stats.buffers++;

	if (!name[0])
		tfk_claims_add(td->ctx, &td->claims, 0, pos, false, "metadata");
	bool limited;
	uint32_t ncpu = table_cpus(td, pos, !name[0], &limited);
	uint64_t table_end = pos + 16ull * ncpu;
	uint32_t fit = ncpu;
	if (!tfk_range_fits(pos, 16ull * ncpu, td->size)) {
		char what[96];
		snprintf(what, sizeof(what), "%sflyrecord table (%u CPUs)", buffer, ncpu);
		td_truncated(td, pos, 16ull * ncpu, what);
		fit = (uint32_t)((td->size - pos) / 16);
		table_end = td->size;
	}
	/* The clock trailer follows the table. */
	uint64_t trailer_end = table_end;
	if (fit == ncpu && !limited)
		trailer_end = check_clock(td, table_end, first_data(td, pos, fit, table_end), buffer);
	tfk_claims_add(td->ctx, &td->claims, pos - TD_TAG_LEN, trailer_end, false, "%sflyrecord table", buffer);
	td_obs_geometry(td);
	td_obs_buffer(td, name, td->dat->clock, td->geo.page_size, false);
	td_obs_item(td, TFK_ITEM_BUFFER, pos - TD_TAG_LEN, trailer_end - (pos - TD_TAG_LEN), 0, name[0] ? name : "(top)",
		    "flyrecord table of %u CPUs, clock [%s]", ncpu, td->dat->clock);

	struct td_used_range *used = tfk_calloc(td->ctx, fit ? fit : 1, sizeof(*used));
	uint32_t *lost = tfk_calloc(td->ctx, fit ? fit : 1, sizeof(*lost));
	uint32_t *empty = tfk_calloc(td->ctx, fit ? fit : 1, sizeof(*empty));
	uint32_t nused = 0, nlost = 0, nempty = 0;
	/* Every range the loop below walks, handed to worker threads first (when there are any). */
	struct td_walk_range *ahead = td->ctx->limits->threads > 1 ? tfk_calloc_optional(td->ctx, fit ? fit : 1, sizeof(*ahead)) : NULL;
	if (ahead) {
		size_t n = 0;
		uint64_t walked = td->walked; /* the loop's own decisions, made ahead */
		for (uint32_t cpu = 0; cpu < fit; cpu++) {
			uint64_t offset = 0, size = 0;
			tfk_cur_u64_at(&td->file, pos + 16ull * cpu, &offset);
			tfk_cur_u64_at(&td->file, pos + 16ull * cpu + 8, &size);
			if (cpu_range(td, cpu, offset, size, buffer, &ahead[n]) && td_walk_fits(td, &walked, ahead[n].data.len))
				n++;
		}
		td_prewalk_start(td, ahead, n);
		free(ahead);
	}
	for (uint32_t cpu = 0; cpu < fit; cpu++) {
		uint64_t entry = pos + 16ull * cpu, offset = 0, size = 0;
		tfk_cur_u64_at(&td->file, entry, &offset);
		tfk_cur_u64_at(&td->file, entry + 8, &size);
		bool usable = check_cpu(td, entry, cpu, offset, size, buffer);
		if (!used || !lost || !empty)
			continue;
		if (size == 0)
			empty[nempty++] = cpu;
		if (usable && size) {
			used[nused].start = offset;
			used[nused++].end = size <= td->size - offset ? offset + size : td->size;
		} else if (!usable) {
			lost[nlost++] = cpu;
		}
	}
	td_prewalk_finish(td);
	/*
	 * Entries that say "no data" are a CPU that recorded nothing, or a table that was zeroed:
	 * when pages lie in the data area outside every range, those CPUs may own them.
	 */
	bool only_empty = !nlost && nempty && used && lost && empty;
	if (only_empty) {
		memcpy(lost, empty, nempty * sizeof(*lost));
		nlost = nempty;
	}
	if (nlost && used && lost) {
		/* The data area: after the trailer, up to the next buffer's tag (or the end). */
		uint64_t to = td->size;
		for (size_t i = 0; i < td->dat->ninstances; i++)
			if (td->dat->instances[i].offset > trailer_end && td->dat->instances[i].offset < to)
				to = td->dat->instances[i].offset;
		size_t used_cap = fit ? fit : 1;
		nused = other_buffers_claims(td, pos, &used, nused, &used_cap);
		uint32_t found = td_scan_lost_pages(td, trailer_end, to, used, nused, lost, nlost, fit, buffer);
		if (only_empty && found) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_CPU_LOST_RANGE, pos + 16ull * empty[0], 16);
			tfk_set_path(f, "%scpu%u", buffer, empty[0]);
			tfk_set_expected(f, "a range for the %u valid pages no entry covers", found);
			tfk_set_found(f, "%u of %u entries with size 0", nempty, fit);
		}
	}
	free(used);
	free(lost);
	free(empty);
}
