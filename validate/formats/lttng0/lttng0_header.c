/* SPDX-License-Identifier: MIT */
/*
 * Block headers of both legacy layouts: detection and byte order (spec §3.4), the fields
 * (§3.2 table, §3.3 ltt_subbuffer_header_2_6), their ranges (§3.5 LTT0-HEADER-FIELDS) and their
 * sameness across blocks and tracefiles (§3.5 LTT0-HEADER-VARIES).
 */
#include <string.h>

#include "lttng0.h"

/* The magic at view-relative `at`, in either byte order. */
static bool magic_at(const struct tfk_cursor *c, uint64_t at, bool *be)
{
	const uint8_t *p;
	if (!tfk_cur_bytes_at(c, at, 4, &p))
		return false;
	uint32_t le = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	if (le == L0_MAGIC) {
		*be = false;
		return true;
	}
	if (__builtin_bswap32(le) == L0_MAGIC) {
		*be = true;
		return true;
	}
	return false;
}

int l0_detect(const struct tfk_cursor *c, uint64_t at, bool *big_endian)
{
	bool be1 = false, be2 = false;
	bool v1 = at <= UINT64_MAX - L0_V1_MAGIC_AT && magic_at(c, at + L0_V1_MAGIC_AT, &be1);
	bool v2 = at <= UINT64_MAX - L0_V2_MAGIC_AT && magic_at(c, at + L0_V2_MAGIC_AT, &be2);
	if (v1 && v2) {
		/* Both read as the magic: the major version beside each decides (1.x at 57, 2.x at 20). */
		uint8_t major2 = 0;
		if (tfk_cur_u8_at(c, at + 20, &major2) && major2 == 2)
			v1 = false;
	}
	if (v1) {
		*big_endian = be1;
		return 1;
	}
	if (v2) {
		*big_endian = be2;
		return 2;
	}
	return 0;
}

static uint64_t u64_at(const struct tfk_cursor *c, uint64_t at)
{
	uint64_t v = 0;
	tfk_cur_u64_at(c, at, &v);
	return v;
}

static uint32_t u32_at(const struct tfk_cursor *c, uint64_t at)
{
	uint32_t v = 0;
	tfk_cur_u32_at(c, at, &v);
	return v;
}

static uint8_t u8_at(const struct tfk_cursor *c, uint64_t at)
{
	uint8_t v = 0;
	tfk_cur_u8_at(c, at, &v);
	return v;
}

void l0_read_header(const struct tfk_cursor *c, uint64_t at, uint8_t layout, struct l0_header *h)
{
	memset(h, 0, sizeof(*h));
	h->tsc_begin = u64_at(c, at);
	if (layout == 1) {
		/* §3.2 block header: begin {cycle_count, freq}, end {cycle_count, freq}, lost_size, buf_size */
		h->tsc_end = u64_at(c, at + 16);
		h->lost_size = u32_at(c, at + 32);
		h->size = u32_at(c, at + 36);
		/* §3.2 trace header at 40 (packed): the single bytes at 56..64, freq_scale at 65, start_freq at 69 */
		h->arch_size = u8_at(c, at + 56);
		h->major = u8_at(c, at + 57);
		h->minor = u8_at(c, at + 58);
		h->flight_recorder = u8_at(c, at + 59);
		h->has_heartbeat = u8_at(c, at + 60);
		h->alignment = u8_at(c, at + 61);
		h->tsc_lsb_truncate = u8_at(c, at + 62);
		h->tscbits = u8_at(c, at + 63);
		h->compact_data_shift = u8_at(c, at + 64);
		h->freq_scale = u32_at(c, at + 65);
		h->start_freq = u64_at(c, at + 69);
	} else {
		/* §3.3 ltt_subbuffer_header_2_6 */
		h->tsc_end = u64_at(c, at + 8);
		h->major = u8_at(c, at + 20);
		h->minor = u8_at(c, at + 21);
		h->arch_size = u8_at(c, at + 22);
		h->alignment = u8_at(c, at + 23);
		h->start_freq = u64_at(c, at + 40);
		h->freq_scale = u32_at(c, at + 48);
		h->size = u32_at(c, at + 56);
		if (l0_lost_form(h->minor)) {
			/* LTF 2.3 / 2.4: lost_size and buf_size (LTTV 0.12's ltt_subbuffer_header_2_3) */
			h->lost_form = true;
			h->lost_size = u32_at(c, at + 52);
			h->data_size = h->lost_size <= h->size ? h->size - h->lost_size : 0;
		} else {
			h->data_size = u32_at(c, at + 52);
		}
		h->events_lost = u32_at(c, at + 60);
		h->subbuf_corrupt = u32_at(c, at + 64);
	}
}

static void bad_field(struct tfk_ctx *ctx, struct l0_trace *t, uint64_t off, unsigned len, uint64_t block, const char *name,
		      const char *expected, uint64_t found)
{
	struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_HEADER_BAD_FIELD, off, len);
	tfk_set_path(f, "block %llu trace header %s", (unsigned long long)block, name);
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "%llu", (unsigned long long)found);
}

static bool align_ok(uint8_t a)
{
	return a == 0 || a == 1 || a == 2 || a == 4 || a == 8;
}

bool l0_check_fields(struct tfk_ctx *ctx, struct l0_trace *t, const struct tfk_cursor *c, uint64_t at, uint8_t layout,
		     const struct l0_header *h, uint64_t block)
{
	const uint64_t abs = c->origin + at;
	bool ok = true;
	const uint64_t o_arch = layout == 1 ? 56 : 22, o_align = layout == 1 ? 61 : 23;
	const uint64_t o_scale = layout == 1 ? 65 : 48, o_freq = layout == 1 ? 69 : 40;
	const uint64_t o_major = layout == 1 ? 57 : 20, o_minor = o_major + 1;
	const unsigned want_major = layout;
	const bool known_minor = layout == 1 ? h->minor == 0 : h->minor >= L0_V2_MINOR_MIN && h->minor <= L0_V2_MINOR_MAX;
	if (h->major != want_major) {
		struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_HEADER_BAD_VERSION, abs + o_major, 2);
		tfk_set_path(f, "block %llu trace header version", (unsigned long long)block);
		tfk_set_expected(f, "%u.x (magic at offset %u)", want_major, layout == 1 ? L0_V1_MAGIC_AT : L0_V2_MAGIC_AT);
		tfk_set_found(f, "%u.%u", h->major, h->minor);
		ok = false;
	} else if (!known_minor) {
		struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_HEADER_OTHER_MINOR, abs + o_minor, 1);
		tfk_set_path(f, "block %llu trace header version", (unsigned long long)block);
		if (layout == 1)
			tfk_set_expected(f, "1.0");
		else
			tfk_set_expected(f, "2.%u to 2.%u", L0_V2_MINOR_MIN, L0_V2_MINOR_MAX);
		tfk_set_found(f, "%u.%u", h->major, h->minor);
	}
	if (h->arch_size != 4 && h->arch_size != 8) {
		bad_field(ctx, t, abs + o_arch, 1, block, "arch_size", "4 or 8", h->arch_size);
		ok = false;
	}
	if (!align_ok(h->alignment)) {
		bad_field(ctx, t, abs + o_align, 1, block, "alignment", "0, 1, 2, 4 or 8", h->alignment);
		ok = false;
	}
	if (h->freq_scale == 0) {
		bad_field(ctx, t, abs + o_scale, 4, block, "freq_scale", "non-zero (event times divide by it)", 0);
		ok = false;
	}
	if (h->start_freq == 0) {
		bad_field(ctx, t, abs + o_freq, 8, block, "start_freq", "non-zero (event times divide by it)", 0);
		ok = false;
	}
	if (layout == 1) {
		if (h->flight_recorder > 1) {
			bad_field(ctx, t, abs + 59, 1, block, "flight_recorder", "0 or 1", h->flight_recorder);
			ok = false;
		}
		if (h->has_heartbeat > 1) {
			bad_field(ctx, t, abs + 60, 1, block, "has_heartbeat", "0 or 1", h->has_heartbeat);
			ok = false;
		}
		if (h->tscbits < 1 || h->tscbits > 32) {
			bad_field(ctx, t, abs + 63, 1, block, "tscbits", "1..32", h->tscbits);
			ok = false;
		}
		if (h->compact_data_shift < 1 || h->compact_data_shift > 32) {
			bad_field(ctx, t, abs + 64, 1, block, "compact_data_shift", "1..32", h->compact_data_shift);
			ok = false;
		}
	}
	(void)c;
	return ok;
}

struct field {
	uint8_t at, len;
	const char *name;
};

/* §3.2: every trace header field after the magic; §3.3: the sub-buffer header's trace-wide fields. */
static const struct field v1_fields[] = {
	{ 44, 4, "arch_type" }, { 48, 4, "arch_variant" }, { 52, 4, "float_word_order" }, { 56, 1, "arch_size" },
	{ 57, 1, "major" }, { 58, 1, "minor" }, { 59, 1, "flight_recorder" }, { 60, 1, "has_heartbeat" },
	{ 61, 1, "alignment" }, { 62, 1, "tsc_lsb_truncate" }, { 63, 1, "tscbits" }, { 64, 1, "compact_data_shift" },
	{ 65, 4, "freq_scale" }, { 69, 8, "start_freq" }, { 77, 8, "start_tsc" }, { 85, 8, "start_monotonic" },
	{ 93, 8, "start_time_sec" }, { 101, 8, "start_time_usec" },
};
static const struct field v2_fields[] = {
	{ 20, 1, "major" }, { 21, 1, "minor" }, { 22, 1, "arch_size" }, { 23, 1, "alignment" },
	{ 24, 8, "start_time_sec" }, { 32, 8, "start_time_usec" }, { 40, 8, "start_freq" }, { 48, 4, "freq_scale" },
};

/* A header field of len bytes (1, 4 or 8) held in bytes the cursor lent. */
static uint64_t field(const uint8_t *p, unsigned len, bool be)
{
	uint64_t v = 0;
	for (unsigned i = 0; i < len; i++)
		v |= (uint64_t)p[i] << (be ? 8 * (len - 1 - i) : 8 * i);
	return v;
}

bool l0_check_same(struct tfk_ctx *ctx, const struct tfk_cursor *c, uint64_t at, struct l0_trace *t, uint64_t block)
{
	const struct field *fs = t->layout == 1 ? v1_fields : v2_fields;
	size_t n = t->layout == 1 ? sizeof(v1_fields) / sizeof(v1_fields[0]) : sizeof(v2_fields) / sizeof(v2_fields[0]);
	const uint8_t *p;
	if (!tfk_cur_bytes_at(c, at, t->layout == 1 ? L0_V1_HEADER : L0_V2_HEADER, &p))
		return true;
	for (size_t i = 0; i < n; i++) {
		if (memcmp(p + fs[i].at, t->ref + fs[i].at, fs[i].len) == 0)
			continue;
		struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_HEADER_VARIES, c->origin + at + fs[i].at, fs[i].len);
		tfk_set_path(f, "block %llu trace header %s", (unsigned long long)block, fs[i].name);
		tfk_set_expected(f, "%llu, as the trace's first sound block%s%s", (unsigned long long)field(t->ref + fs[i].at, fs[i].len, t->big_endian),
				 *t->ref_member ? " in " : "", t->ref_member);
		tfk_set_found(f, "%llu", (unsigned long long)field(p + fs[i].at, fs[i].len, t->big_endian));
		return false;
	}
	return true;
}
