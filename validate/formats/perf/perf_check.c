/* SPDX-License-Identifier: MIT */
/*
 * perf.data entry point: sniffing (file, pipe, legacy, either byte order), the file header,
 * the attrs and their ids, the feature table and the order of the passes.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../formats.h"
#include "perf.h"
#include "tracefsck/sink.h"

/* One structure for the map (tracefsck describe). */
__attribute__((format(printf, 7, 8))) static void pf_item(const struct pf_check *pc, enum tfk_item_kind kind,
							   uint64_t offset, uint64_t length, uint32_t id, const char *name,
							   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tfk_observe_item(pc->ctx, kind, offset, length, id, name, fmt, ap);
	va_end(ap);
}

static const char magic_le[8] = { 'P', 'E', 'R', 'F', 'I', 'L', 'E', '2' };
static const char magic_be[8] = { '2', 'E', 'L', 'I', 'F', 'R', 'E', 'P' };
static const char magic_v1[8] = { 'P', 'E', 'R', 'F', 'F', 'I', 'L', 'E' };

static int same_bytes(const uint8_t *p, const char *m)
{
	int n = 0;
	for (int i = 0; i < 8; i++)
		n += p[i] == (uint8_t)m[i];
	return n;
}

/* The header size word read both ways: 104 or 16 in either order says perf. */
static bool size_says_perf(const struct tfk_cursor *file, bool *be)
{
	struct tfk_cursor c = *file;
	uint64_t v;
	for (int b = 0; b < 2; b++) {
		c.big_endian = b == 1;
		if (tfk_cur_u64_at(&c, 8, &v) && (v == PF_HEADER_SIZE || v == PF_PIPE_HEADER_SIZE)) {
			*be = b == 1;
			return true;
		}
	}
	return false;
}

static int pf_sniff(const struct tfk_cursor *file)
{
	const uint8_t *p;
	if (!tfk_cur_bytes_at(file, 0, 8, &p))
		return 0;
	if (memcmp(p, magic_le, 8) == 0 || memcmp(p, magic_be, 8) == 0 || memcmp(p, magic_v1, 8) == 0)
		return 100;
	bool be;
	int best = same_bytes(p, magic_le) > same_bytes(p, magic_be) ? same_bytes(p, magic_le) : same_bytes(p, magic_be);
	if (best >= 5 && size_says_perf(file, &be))
		return 60;
	return 0;
}

void pf_claim(struct pf_check *pc, uint64_t start, uint64_t size, const char *label)
{
	if (size == 0)
		return;
	uint64_t end = start + size < start ? UINT64_MAX : start + size;
	tfk_claims_add(pc->ctx, &pc->claims, start, end, true, "%s", label);
}

/* A feature whose section is [start, end): no longer one repair may keep. */
static void unkeep(struct pf_check *pc, uint64_t start, uint64_t end)
{
	for (uint32_t i = 0; i < pc->lay.nfeatures; i++)
		if (pc->lay.features[i].offset == start && pc->lay.features[i].offset + pc->lay.features[i].size == end)
			pc->lay.features[i].ok = false;
}

static void overlap(void *user, const struct tfk_claim *r, const struct tfk_claim *w)
{
	struct pf_check *pc = user;
	uint64_t end = r->end < w->end ? r->end : w->end;
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_SECTION_OVERLAP, r->start, end - r->start);
	tfk_set_path(f, "%s", r->label);
	tfk_set_expected(f, "bytes of its own, not [0x%llx, 0x%llx) of %s", (unsigned long long)w->start,
			 (unsigned long long)w->end, w->label);
	tfk_set_found(f, "[0x%llx, 0x%llx)", (unsigned long long)r->start, (unsigned long long)r->end);
	unkeep(pc, r->start, r->end);
	unkeep(pc, w->start, w->end);
	/* attrs or their ids sharing bytes with anything: repair cannot keep them as they are */
	if (strncmp(r->label, "attr", 4) == 0 || strncmp(w->label, "attr", 4) == 0)
		pc->lay.attrs_ok = false;
}

void pf_check_overlaps(struct pf_check *pc)
{
	tfk_claims_sweep(&pc->claims, overlap, pc);
}

/* Is [offset, offset + size) inside the file? If not, say so for what. */
static bool section_in_file(struct pf_check *pc, uint64_t field_at, uint64_t offset, uint64_t size, const char *what)
{
	if (size == 0 || tfk_range_fits(offset, size, pc->size))
		return true; /* nothing is read from an empty section, wherever it points */
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_SECTION_OUT_OF_FILE, field_at, 16);
	tfk_set_path(f, "%s", what);
	tfk_set_expected(f, "a range inside the file (size 0x%llx)", (unsigned long long)pc->size);
	tfk_set_found(f, "offset 0x%llx size 0x%llx", (unsigned long long)offset, (unsigned long long)size);
	return false;
}

static void check_attrs_body(struct pf_check *pc, uint64_t attr_size, uint64_t offset, uint64_t size, uint64_t *fixable);

/* The attrs section: nr entries of {attr, ids {offset, size}}, each ids array of u64s. */
static void check_attrs(struct pf_check *pc, uint64_t attr_size, uint64_t offset, uint64_t size)
{
	struct tfk_finding *f;
	uint64_t errors_before = pc->ctx->faults[TFK_SEV_ERROR], fixable = 0;
	pc->lay.attr_size = attr_size;
	check_attrs_body(pc, attr_size, offset, size, &fixable);
	pc->lay.attrs_ok = pc->ctx->faults[TFK_SEV_ERROR] - errors_before == fixable && pc->nattrs > 0;
	(void)f;
}

static void check_attrs_body(struct pf_check *pc, uint64_t attr_size, uint64_t offset, uint64_t size, uint64_t *fixable)
{
	struct tfk_finding *f;
	const bool impossible = attr_size < PF_ATTR_MIN + 16 || attr_size > 4096;
	const uint64_t header_attr_size = attr_size;
	/*
	 * attr_size disagreeing with the attrs themselves (0 included): walk by what the first
	 * attr says when that divides the section; the loop below proves every other attr agrees.
	 */
	uint32_t first = 0;
	struct tfk_cursor attrs;
	if (tfk_cur_sub(&pc->file, offset, size, &attrs) == TFK_SUB_OK && tfk_cur_u32_at(&attrs, 4, &first) &&
	    first >= PF_ATTR_MIN && first % 8 == 0 && first + 16ull != attr_size && size % (first + 16ull) == 0) {
		f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, 16, 8);
		tfk_set_path(f, "file header attr_size");
		tfk_set_expected(f, "attr.size + 16 = %u (attr 0), which divides the attrs section", first + 16);
		tfk_set_found(f, "%llu", (unsigned long long)attr_size);
		attr_size = first + 16ull;
		(*fixable)++;
	} else if (impossible) {
		f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, 16, 8);
		tfk_set_path(f, "file header attr_size");
		tfk_set_expected(f, "attr.size + 16 (80 .. 152 for VER0 .. VER8)");
		tfk_set_found(f, "%llu", (unsigned long long)attr_size);
		return;
	}
	pc->lay.attr_size_proven = attr_size;
	if (size % attr_size) {
		f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, 32, 8);
		tfk_set_path(f, "file header attrs.size");
		tfk_set_expected(f, "a multiple of attr_size %llu", (unsigned long long)attr_size);
		tfk_set_found(f, "%llu (%llu bytes over)", (unsigned long long)size, (unsigned long long)(size % attr_size));
	}
	if (!section_in_file(pc, 24, offset, size, "attrs section"))
		return;
	pf_claim(pc, offset, size, "attrs section");
	uint64_t n = size / attr_size;
	for (uint64_t i = 0; i < n; i++) {
		char where[48];
		snprintf(where, sizeof(where), "attr %llu", (unsigned long long)i);
		struct tfk_cursor entry;
		tfk_cur_sub(&pc->file, offset + i * attr_size, attr_size, &entry);
		struct pf_attr *a = pf_new_attr(pc);
		if (!a)
			return;
		if (!pf_read_attr(pc, &entry, a, where))
			continue;
		uint64_t ids_at = 0, ids_len = 0;
		tfk_cur_u64_at(&entry, attr_size - 16, &ids_at);
		tfk_cur_u64_at(&entry, attr_size - 8, &ids_len);
		/* Only with the header's attr_size intact: two damaged sizes prove neither. */
		if (a->size + 16 != attr_size && attr_size == header_attr_size && size % attr_size == 0 &&
		    attr_size - 16 >= PF_ATTR_MIN && ids_len % 8 == 0 &&
		    tfk_range_fits(ids_at, ids_len, pc->size) && (ids_len == 0 || ids_at + ids_len <= offset || ids_at >= offset + size)) {
			/*
			 * The header's attr_size, the attrs section's spacing and this attr's ids (at the
			 * entry's end, inside the file) agree: the attr's own size is the damaged field.
			 */
			f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, entry.origin + 4, 4);
			tfk_set_path(f, "%s size", where);
			tfk_set_expected(f, "%llu (attr_size %llu - 16: the attrs' spacing and this attr's ids prove it)",
					 (unsigned long long)(attr_size - 16), (unsigned long long)attr_size);
			tfk_set_found(f, "%u", a->size);
			if (pc->lay.npatches < TFK_PERF_MAX_FIXES) {
				pc->lay.patches[pc->lay.npatches].offset = entry.origin + 4;
				pc->lay.patches[pc->lay.npatches].width = 4;
				pc->lay.patches[pc->lay.npatches++].value = attr_size - 16;
				(*fixable)++;
			}
			a->size = (uint32_t)(attr_size - 16);
			/* What the attr's fields say past its claimed size are read again at the proven size. */
			if (a->size >= 80)
				tfk_cur_u64_at(&entry, 72, &a->branch_sample_type);
			if (a->size >= 88)
				tfk_cur_u64_at(&entry, 80, &a->regs_user);
			if (a->size >= 104)
				tfk_cur_u64_at(&entry, 96, &a->regs_intr);
		}
		if (a->size + 16 != attr_size) {
			f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, 16, 8);
			tfk_set_path(f, "file header attr_size");
			tfk_set_expected(f, "attr.size + 16 = %u (%s)", a->size + 16, where);
			tfk_set_found(f, "%llu", (unsigned long long)attr_size);
			if (a->size + 16 > attr_size)
				continue;
		}
		uint32_t index = (uint32_t)pc->nattrs++;
		uint64_t ids_off = 0, ids_size = 0;
		tfk_cur_u64_at(&entry, attr_size - 16, &ids_off);
		tfk_cur_u64_at(&entry, attr_size - 8, &ids_size);
		snprintf(where, sizeof(where), "attr %llu ids", (unsigned long long)i);
		if (ids_size % 8) {
			f = tfk_emit(pc->ctx, TFK_PERF_ATTR_BAD_SIZE, entry.origin + attr_size - 8, 8);
			tfk_set_path(f, "%s", where);
			tfk_set_expected(f, "a size that is a multiple of 8 (u64 ids)");
			tfk_set_found(f, "%llu", (unsigned long long)ids_size);
		}
		if (!section_in_file(pc, entry.origin + attr_size - 16, ids_off, ids_size, where))
			continue;
		pf_claim(pc, ids_off, ids_size, where);
		for (uint64_t k = 0; k + 8 <= ids_size; k += 8) {
			uint64_t id;
			if (tfk_cur_u64_at(&pc->file, ids_off + k, &id))
				pf_add_id(pc, id, index);
		}
	}
}

/* The feature table (at data.offset + data.size): one {offset, size} per set bit, ascending. */
static void check_features(struct pf_check *pc, const uint64_t *bits, uint64_t table)
{
	struct tfk_finding *f;
	if (bits[0] & 1) {
		f = tfk_emit(pc->ctx, TFK_PERF_FEATURE_RESERVED_BIT, 72, 8);
		tfk_set_path(f, "file header feature bits");
		tfk_set_expected(f, "bit 0 (reserved) clear");
		tfk_set_found(f, "0x%016llx", (unsigned long long)bits[0]);
	}
	unsigned n = 0;
	for (int w = 0; w < 4; w++)
		n += (unsigned)__builtin_popcountll(bits[w]);
	if (n == 0)
		return;
	uint64_t first = 0, mapped[4];
	memcpy(mapped, bits, sizeof(mapped));
	if ((bits[0] & 1) && n > 1 && tfk_cur_u64_at(&pc->file, table, &first) && first == table + 16ull * (n - 1)) {
		/*
		 * The sections begin right after a table of one entry fewer: the writer wrote none for
		 * bit 0, which damage set. The entries belong to the other bits (perf reads them one
		 * bit too early: the hostname section would hold the OS release).
		 */
		mapped[0] &= ~1ull;
		n--;
	}
	bits = mapped;
	if (table < pc->data_offset || !tfk_range_fits(table, 16ull * n, pc->size)) {
		f = tfk_emit(pc->ctx, TFK_PERF_FILE_TRUNCATED, table, 16ull * n);
		tfk_set_path(f, "feature table (%u features)", n);
		tfk_set_expected(f, "%u bytes at data.offset + data.size", 16 * n);
		tfk_set_found(f, "%llu bytes before end of file",
			      (unsigned long long)(table < pc->size ? pc->size - table : 0));
		for (unsigned bit = 0; bit < 256 && pc->lay.nfeatures < TFK_PERF_MAX_FEATURES; bit++)
			if (bits[bit / 64] >> (bit % 64) & 1)
				pc->lay.features[pc->lay.nfeatures++].bit = (uint16_t)bit; /* lost with the table */
		return;
	}
	pf_claim(pc, table, 16ull * n, "feature table");
	unsigned k = 0;
	for (unsigned bit = 0; bit < 256; bit++) {
		if (!(bits[bit / 64] >> (bit % 64) & 1))
			continue;
		uint64_t at = table + 16ull * k++, off = 0, size = 0;
		tfk_cur_u64_at(&pc->file, at, &off);
		tfk_cur_u64_at(&pc->file, at + 8, &size);
		char what[48];
		snprintf(what, sizeof(what), "feature %u section", bit);
		uint64_t errors_before = pc->ctx->faults[TFK_SEV_ERROR];
		bool inside = section_in_file(pc, at, off, size, what);
		if (inside) {
			pf_claim(pc, off, size, what);
			if (bit != 0) {
				struct tfk_cursor view;
				tfk_cur_sub(&pc->file, off, size, &view);
				pf_check_feature(pc, bit, &view);
			}
		}
		pf_item(pc, TFK_ITEM_SECTION, off, size, bit, pf_feature_name(bit), "feature %u, %llu bytes%s", bit,
			(unsigned long long)size, pc->ctx->faults[TFK_SEV_ERROR] == errors_before ? "" : " (damaged)");
		if (pc->lay.nfeatures < TFK_PERF_MAX_FEATURES) {
			uint32_t i = pc->lay.nfeatures++;
			pc->lay.features[i].bit = (uint16_t)bit;
			pc->lay.features[i].offset = off;
			pc->lay.features[i].size = size;
			pc->lay.features[i].ok = inside && bit != 0 && pc->ctx->faults[TFK_SEV_ERROR] == errors_before;
		}
	}
}

/*
 * perf writes the records right after the attrs (data.offset = attrs.offset + attrs.size) and
 * the feature table right after the records. A data.offset that leaves no feature table at
 * data.offset + data.size, where attrs.offset + attrs.size finds one and a record begins, is a
 * damaged field: reported once and restored from the layout (repair writes it back), rather
 * than every feature section reported outside the file and the records read from nowhere.
 */
static void restore_data_offset(struct pf_check *pc, uint64_t attrs_off, uint64_t attrs_size)
{
	uint64_t want, table;
	uint32_t type;
	uint16_t size;
	if (pc->data_size == 0 || __builtin_add_overflow(attrs_off, attrs_size, &want) || want == pc->data_offset ||
	    want < PF_HEADER_SIZE || want % 8)
		return;
	if (!__builtin_add_overflow(pc->data_offset, pc->data_size, &table) && pf_feature_table_at(pc, table))
		return; /* the header's layout holds */
	if (__builtin_add_overflow(want, pc->data_size, &table) || !pf_feature_table_at(pc, table) ||
	    !tfk_cur_u32_at(&pc->file, want, &type) || !tfk_cur_u16_at(&pc->file, want + 6, &size) || type == 0 ||
	    type >= 0x8000 || size < 8 || size > pc->data_size)
		return;
	struct tfk_finding *f = tfk_emit(pc->ctx, TFK_PERF_HEADER_BAD_DATA_OFFSET, 40, 8);
	tfk_set_path(f, "file header data.offset");
	tfk_set_expected(f, "0x%llx (restored from attrs.offset + attrs.size: a record begins there, and the feature "
			 "table at data.size after it)", (unsigned long long)want);
	/* perf mmaps the data where the header says: past the end of the file that is a SIGBUS */
	uint64_t end;
	const bool past = __builtin_add_overflow(pc->data_offset, pc->data_size, &end) || end > pc->size;
	tfk_set_found(f, "0x%llx%s", (unsigned long long)pc->data_offset,
		      pc->data_offset >= pc->size ? ", past the end of the file"
		      : past                      ? ", the data then ending past the end of the file"
						  : "");
	if (pc->lay.npatches < TFK_PERF_MAX_FIXES) {
		pc->lay.patches[pc->lay.npatches].offset = 40;
		pc->lay.patches[pc->lay.npatches].width = 8;
		pc->lay.patches[pc->lay.npatches++].value = want;
	}
	pc->data_offset = want;
}

static void check_file(struct pf_check *pc, uint64_t header_size)
{
	struct tfk_finding *f;
	uint64_t attr_size = 0, attrs_off = 0, attrs_size = 0, bits[4] = { 0 };
	size_t killed_finding = SIZE_MAX;
	if (pc->size < PF_HEADER_SIZE) {
		f = tfk_emit(pc->ctx, TFK_PERF_FILE_TRUNCATED, 0, pc->size);
		tfk_set_path(f, "file header");
		tfk_set_expected(f, "%d bytes", PF_HEADER_SIZE);
		tfk_set_found(f, "%llu bytes", (unsigned long long)pc->size);
		return;
	}
	tfk_cur_u64_at(&pc->file, 16, &attr_size);
	tfk_cur_u64_at(&pc->file, 24, &attrs_off);
	tfk_cur_u64_at(&pc->file, 32, &attrs_size);
	tfk_cur_u64_at(&pc->file, 40, &pc->data_offset);
	tfk_cur_u64_at(&pc->file, 48, &pc->data_size);
	if (header_size != 72)
		for (int w = 0; w < 4; w++)
			tfk_cur_u64_at(&pc->file, 72 + 8u * w, &bits[w]);
	pf_claim(pc, 0, header_size == 72 ? 72 : PF_HEADER_SIZE, "file header");
	pf_item(pc, TFK_ITEM_FILE, 0, header_size, 0, "file header",
		"perf.data, %s-endian, attr_size %llu, data at 0x%llx size %llu, features 0x%llx", pc->file.big_endian ? "big" : "little",
		(unsigned long long)attr_size, (unsigned long long)pc->data_offset, (unsigned long long)pc->data_size,
		(unsigned long long)bits[0]);
	check_attrs(pc, attr_size, attrs_off, attrs_size);
	for (size_t i = 0; i < pc->nattrs; i++)
		pf_item(pc, TFK_ITEM_SECTION, pc->attrs[i].at, pc->attrs[i].size, (uint32_t)i, "attr",
			"type %u, size %u, sample_type 0x%llx, read_format 0x%llx, flags 0x%llx", pc->attrs[i].type,
			pc->attrs[i].size, (unsigned long long)pc->attrs[i].sample_type,
			(unsigned long long)pc->attrs[i].read_format, (unsigned long long)pc->attrs[i].flags);

	/* Features first: the COMPRESSED feature says how compressed records decode. */
	memcpy(pc->bits, bits, sizeof(pc->bits));
	/* simpleperf sets its own feature bits (FILE, META_INFO, ... from 128): its dialect. */
	for (unsigned bit = PF_SP_FEAT_FIRST; bit <= PF_SP_FEAT_LAST; bit++)
		if (bits[bit / 64] >> (bit % 64) & 1)
			pc->dialect = PF_DIALECT_SIMPLEPERF;
	restore_data_offset(pc, attrs_off, attrs_size);
	bool killed = pc->data_size == 0 && pc->data_offset < pc->size && pc->data_offset >= PF_HEADER_SIZE &&
		      !pf_feature_table_at(pc, pc->data_offset);
	if (killed) {
		killed_finding = pc->ctx->report->count;
		f = tfk_emit(pc->ctx, TFK_PERF_DATA_SIZE_ZERO, 48, 8);
		tfk_set_path(f, "file header data.size");
		tfk_set_expected(f, "the size of the records from data.offset 0x%llx", (unsigned long long)pc->data_offset);
		tfk_set_found(f, "0, with %llu bytes after data.offset (a killed recording)",
			      (unsigned long long)(pc->size - pc->data_offset));
		pc->killed = true; /* the walk looks for a feature table behind the last record */
	} else {
		check_features(pc, bits, pc->data_offset + pc->data_size);
	}
	uint64_t data_size = killed ? pc->size - pc->data_offset : pc->data_size;
	if (pc->data_offset > pc->size) {
		f = tfk_emit(pc->ctx, TFK_PERF_SECTION_OUT_OF_FILE, 40, 16);
		tfk_set_path(f, "data section");
		tfk_set_expected(f, "a range inside the file (size 0x%llx)", (unsigned long long)pc->size);
		tfk_set_found(f, "offset 0x%llx size 0x%llx", (unsigned long long)pc->data_offset,
			      (unsigned long long)pc->data_size);
		return;
	}
	if (!tfk_range_fits(pc->data_offset, data_size, pc->size)) {
		f = tfk_emit(pc->ctx, TFK_PERF_FILE_TRUNCATED, pc->data_offset, data_size);
		tfk_set_path(f, "data section");
		tfk_set_expected(f, "%llu bytes", (unsigned long long)data_size);
		tfk_set_found(f, "%llu bytes before end of file", (unsigned long long)(pc->size - pc->data_offset));
		pc->lay.missing_bytes = data_size - (pc->size - pc->data_offset);
		data_size = pc->size - pc->data_offset;
	}
	if (!killed)
		pf_claim(pc, pc->data_offset, data_size, "data section");
	for (size_t i = 0; i < pc->claims.n; i++)
		if (pc->claims.v[i].end > pc->data_offset && strncmp(pc->claims.v[i].label, "attr", 4) == 0)
			pc->lay.attrs_ok = false; /* repair keeps the bytes before the data: these are not */
	struct tfk_cursor data;
	tfk_cur_sub(&pc->file, pc->data_offset, data_size, &data);
	uint64_t errors_before = pc->ctx->faults[TFK_SEV_ERROR];
	pf_walk_records(pc, &data, 0);
	if (killed) {
		/* The records end where a feature table begins, if perf wrote one: its features are checked. */
		if (pc->killed_table) {
			data_size = pc->killed_table - pc->data_offset;
			/* Say so in the finding (still the one made above, unless the report was full). */
			struct tfk_report *r = pc->ctx->report;
			if (killed_finding < r->count && strcmp(r->findings[killed_finding].fault->id, "perf.data.size-zero") == 0)
				tfk_set_found(&r->findings[killed_finding],
					      "0; the records end at 0x%llx, where the feature table perf wrote at exit begins",
					      (unsigned long long)pc->killed_table);
		}
		pf_claim(pc, pc->data_offset, data_size, "data section");
		if (pc->killed_table)
			check_features(pc, bits, pc->killed_table);
	}
	pc->lay.data_intact = !killed && data_size == pc->data_size && pc->ctx->faults[TFK_SEV_ERROR] == errors_before;
	pf_item(pc, TFK_ITEM_SECTION, pc->data_offset, data_size, 0, "data",
		"%llu records, %llu samples; whole and valid up to 0x%llx%s", (unsigned long long)pc->records,
		(unsigned long long)pc->samples, (unsigned long long)pc->lay.good_end, killed ? " (data.size 0: killed)" : "");
	pf_finish_records(pc);
}

/*
 * Google's internal perf 3.3 in pipe mode: the stream starts with a type-69 record (upstream's
 * ID_INDEX, {u64 nr, nr x 32 bytes}) that holds a perf feature string instead: {u32 len, a
 * printable NUL-terminated string of len bytes}, 12 + len bytes in all.
 */
static bool google_pipe(const struct tfk_cursor *stream)
{
	uint32_t type = 0, len = 0;
	uint16_t size = 0;
	const uint8_t *str;
	if (!tfk_cur_u32_at(stream, 0, &type) || !tfk_cur_u16_at(stream, 6, &size) || !tfk_cur_u32_at(stream, 8, &len))
		return false;
	if (type != PF_REC_ID_INDEX || len == 0 || size != 12ull + len || !tfk_cur_bytes_at(stream, 12, len, &str) ||
	    !memchr(str, 0, len))
		return false;
	for (uint32_t i = 0; i < len && str[i]; i++)
		if (str[i] < 0x20 || str[i] > 0x7e)
			return false;
	return str[0] != 0;
}

void pf_dialect_note(struct pf_check *pc)
{
	struct tfk_finding *f;
	char bits[160] = "";
	switch (pc->dialect) {
	case PF_DIALECT_NONE:
		return;
	case PF_DIALECT_SIMPLEPERF:
		for (unsigned bit = PF_SP_FEAT_FIRST, n = 0; bit <= PF_SP_FEAT_LAST; bit++)
			if (pc->bits[bit / 64] >> (bit % 64) & 1)
				n += (unsigned)snprintf(bits + n, n < sizeof(bits) ? sizeof(bits) - n : 0, "%s%u %s",
							n ? ", " : "", bit, pf_simpleperf_feature_name(bit));
		char version[96] = "";
		if (pc->dialect_version[0])
			snprintf(version, sizeof(version), " (META_INFO simpleperf_version %s)", pc->dialect_version);
		f = tfk_emit(pc->ctx, TFK_PERF_DIALECT_SIMPLEPERF, 72, 32);
		tfk_set_path(f, "file header feature bits");
		tfk_set_expected(f, "perf's feature bits (below 128)");
		tfk_set_found(f, "simpleperf's %s%s; %llu record%s of simpleperf's own types or layout (%llu not checked); "
			      "%llu of its features not checked",
			      bits, version, (unsigned long long)pc->dialect_records, pc->dialect_records == 1 ? "" : "s",
			      (unsigned long long)pc->dialect_skipped, (unsigned long long)pc->dialect_unchecked_features);
		break;
	case PF_DIALECT_GOOGLE_PIPE:
		f = tfk_emit(pc->ctx, TFK_PERF_DIALECT_GOOGLE_PIPE, PF_PIPE_HEADER_SIZE, 8);
		tfk_set_path(f, "pipe stream");
		tfk_set_expected(f, "upstream pipe mode: features as HEADER_FEATURE (80) records");
		tfk_set_found(f, "%llu header features as records of type 66 + their bit, from 69 (hostname), before the first attr",
			      (unsigned long long)pc->dialect_records);
		break;
	}
	if (pc->dialect_skipped || pc->dialect_unchecked_features)
		tfk_mark_incomplete(pc->ctx); /* a part this build cannot check: checked in part */
}


/* A sample's place, time and CPU, for an observer that draws them (a picture's timelines). */
static void send_sample(struct pf_check *pc, uint64_t at, uint64_t time, bool has_time, uint32_t cpu, bool has_cpu)
{
	const struct tfk_observer *obs = pc->ctx->obs;
	struct tfk_perf_sample m = { at, time, cpu, has_time, has_cpu };
	obs->model(obs->user, &tfk_format_perf, TFK_PERF_MODEL_SAMPLE, &m, sizeof m);
}

static void pf_check_run(struct tfk_ctx *ctx, const struct tfk_cursor *file, const struct tfk_cursor *streams,
			 const char *const *names, const struct tfk_member_map *maps, size_t nstreams)
{
	struct pf_check pc;
	memset(&pc, 0, sizeof(pc));
	pc.ctx = ctx;
	if (ctx->obs && ctx->obs->model)
		pc.on_sample = send_sample;
	pc.file = *file;
	pc.size = file->len;
	const uint8_t *m = NULL;
	struct tfk_finding *f;
	if (!tfk_cur_bytes_at(file, 0, 8, &m))
		return; /* never: the sniff proved 8 bytes */
	if (memcmp(m, magic_v1, 8) == 0) {
		ctx->report->stats.format = "perf.data v1 (legacy)";
		f = tfk_emit(ctx, TFK_PERF_HEADER_LEGACY, 0, 8);
		tfk_set_path(f, "file header");
		tfk_set_expected(f, "PERFILE2");
		tfk_set_found_bytes(f, m, 8);
		tfk_mark_incomplete(ctx);
		return;
	}
	bool be = memcmp(m, magic_be, 8) == 0;
	if (!be && memcmp(m, magic_le, 8) != 0) {
		size_says_perf(file, &be);
		f = tfk_emit(ctx, TFK_PERF_HEADER_BAD_MAGIC, 0, 8);
		tfk_set_path(f, "file header");
		tfk_set_expected(f, "PERFILE2 (or 2ELIFREP, big-endian)");
		tfk_set_found_bytes(f, m, 8);
	}
	pc.file.big_endian = be;
	uint64_t header_size = 0;
	tfk_cur_u64_at(&pc.file, 8, &header_size);
	if (header_size == PF_PIPE_HEADER_SIZE) {
		pc.pipe = true;
		ctx->report->stats.format = be ? "perf.data pipe (big-endian)" : "perf.data pipe";
		struct tfk_cursor stream;
		tfk_cur_sub(&pc.file, PF_PIPE_HEADER_SIZE, pc.size > 16 ? pc.size - 16 : 0, &stream);
		if (google_pipe(&stream)) {
			pc.dialect = PF_DIALECT_GOOGLE_PIPE;
			pc.preamble = true;
		}
		pf_walk_records(&pc, &stream, 0);
		pf_finish_records(&pc);
	} else {
		ctx->report->stats.format = be ? "perf.data (big-endian)" : "perf.data";
		if (header_size != PF_HEADER_SIZE && header_size != 72) {
			f = tfk_emit(ctx, TFK_PERF_HEADER_BAD_SIZE, 8, 8);
			tfk_set_path(f, "file header size");
			tfk_set_expected(f, "104 (a file) or 16 (a pipe)");
			tfk_set_found(f, "%llu", (unsigned long long)header_size);
			header_size = PF_HEADER_SIZE;
		}
		check_file(&pc, header_size);
	}
	/* Directory mode: every data.N is a record stream of the same attrs, in the header's byte
	 * order; its findings name it as their member, at offsets inside it. */
	for (size_t i = 0; i < nstreams; i++) {
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, names[i], &maps[i]);
		pc.round_max = pc.prev_round_max = pc.flushed_to = pc.late_records = 0;
		struct tfk_cursor st = streams[i];
		st.big_endian = pc.file.big_endian;
		pf_walk_records(&pc, &st, 0);
		pf_finish_records(&pc);
		tfk_ctx_return(ctx, was);
	}
	if (nstreams) {
		ctx->report->stats.format = "perf.data directory";
		pc.lay.attrs_ok = false; /* repair works on one file; a directory is not one */
	}
	pf_check_overlaps(&pc);
	pf_dialect_note(&pc);
	ctx->report->stats.events = pc.samples;
	pc.lay.big_endian = be;
	pc.lay.pipe = pc.pipe;
	pc.lay.header_size = pc.pipe ? PF_PIPE_HEADER_SIZE : header_size;
	pc.lay.data_offset = pc.pipe ? PF_PIPE_HEADER_SIZE : pc.data_offset;
	pc.lay.data_size = pc.data_size;
	if (ctx->obs && ctx->obs->model)
		ctx->obs->model(ctx->obs->user, &tfk_format_perf, TFK_PERF_MODEL_LAYOUT, &pc.lay, sizeof pc.lay);
	pf_check_release(&pc);
}

void pf_dictionary(pf_token_fn emit, void *user)
{
	emit(user, "perf_magic_le", magic_le, 8);
	emit(user, "perf_magic_be", magic_be, 8);
	emit(user, "perf_magic_v1", magic_v1, 8);
	static const uint8_t sizes[] = { PF_HEADER_SIZE, PF_PIPE_HEADER_SIZE, 72 };
	for (size_t i = 0; i < sizeof(sizes); i++) {
		uint8_t le[8] = { sizes[i] }, be[8] = { 0, 0, 0, 0, 0, 0, 0, sizes[i] };
		emit(user, "perf_header_size_le", le, 8);
		emit(user, "perf_header_size_be", be, 8);
	}
	static const uint8_t types[] = { 1, 3, 9, 10, PF_REC_CALLCHAIN_DEFERRED, PF_REC_HEADER_ATTR, PF_REC_TRACING_DATA,
					 PF_REC_FINISHED_ROUND, PF_REC_AUXTRACE, PF_REC_HEADER_FEATURE, PF_REC_COMPRESSED,
					 PF_REC_COMPRESSED2, PF_REC_BPF_METADATA, PF_REC_SCHEDSTAT_CPU, PF_REC_SCHEDSTAT_DOMAIN };
	for (size_t i = 0; i < sizeof(types); i++) {
		uint8_t le[4] = { types[i] }, be[4] = { 0, 0, 0, types[i] };
		emit(user, "perf_record_type_le", le, 4);
		emit(user, "perf_record_type_be", be, 4);
	}
	/* simpleperf's own record types (KERNEL_SYMBOL, TRACING_DATA) and its META_INFO key */
	static const uint8_t sp_types[] = { 0x01, 0x09 };
	for (size_t i = 0; i < sizeof(sp_types); i++) {
		uint8_t le[4] = { sp_types[i], 0x80 }, be[4] = { 0, 0, 0x80, sp_types[i] };
		emit(user, "simpleperf_record_type_le", le, 4);
		emit(user, "simpleperf_record_type_be", be, 4);
	}
	emit(user, "simpleperf_meta_key", "simpleperf_version", 18);
}

static void pf_check(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	pf_check_run(ctx, file, NULL, NULL, NULL, 0);
}

void pf_check_dir(struct tfk_ctx *ctx, const struct tfk_cursor *header, const struct tfk_cursor *streams,
		  const char *const *names, const struct tfk_member_map *maps, size_t n)
{
	pf_check_run(ctx, header, streams, names, maps, n);
}

const struct tfk_format tfk_format_perf = {
	.name = "perf.data",
	.sniff = pf_sniff,
	.check = pf_check,
	.dictionary = pf_dictionary,
	.sniff_dir = pf_sniff_directory,
	.check_dir = pf_check_directory,
	.picture = pf_picture,
};
