/* SPDX-License-Identifier: MIT */
/*
 * A BTF_FILE section (trace-cmd 3.4): the kernel's vmlinux BTF, decoded. Only its header is
 * checked: the magic, and that the type and string areas it names lie inside the data, which
 * is what libtraceevent 1.9's tep_load_btf needs before it reads a type.
 */
#include <stdio.h>

#include "tracedat.h"

#define BTF_MAGIC 0xeb9fu
#define BTF_MIN_HEADER 24u /* magic, version, flags, hdr_len, type_off/len, str_off/len */

static void bad_btf(struct td_check *td, uint64_t section_offset, const struct tfk_cursor *body, const char *found)
{
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_BTF_BAD_HEADER, body->origin, body->len < 24 ? body->len : 24);
	tfk_set_path(f, "section BTF_FILE at 0x%llx", (unsigned long long)section_offset);
	tfk_set_expected(f, "a BTF header (magic 0xeb9f, header length >= 24, type and string areas inside %llu bytes)",
			 (unsigned long long)body->len);
	tfk_set_found(f, "%s", found);
}

void td_check_btf(struct td_check *td, uint64_t section_offset, const struct tfk_cursor *body)
{
	uint16_t magic;
	uint32_t hdr_len, type_off, type_len, str_off, str_len;
	/* BTF is written in the byte order of the kernel that made it: the file's. */
	if (!tfk_cur_u16_at(body, 0, &magic) || !tfk_cur_u32_at(body, 4, &hdr_len) || !tfk_cur_u32_at(body, 8, &type_off) ||
	    !tfk_cur_u32_at(body, 12, &type_len) || !tfk_cur_u32_at(body, 16, &str_off) ||
	    !tfk_cur_u32_at(body, 20, &str_len)) {
		bad_btf(td, section_offset, body, "data shorter than a BTF header");
		return;
	}
	if (magic != BTF_MAGIC) {
		char found[48];
		snprintf(found, sizeof(found), "magic 0x%04x", magic);
		bad_btf(td, section_offset, body, found);
		return;
	}
	/* The areas start after the header: hdr_len + off + len within the data, in 64 bits. */
	uint64_t types_end = (uint64_t)hdr_len + type_off + type_len, strs_end = (uint64_t)hdr_len + str_off + str_len;
	if (hdr_len < BTF_MIN_HEADER || hdr_len > body->len || types_end > body->len || strs_end > body->len) {
		char found[128];
		snprintf(found, sizeof(found), "header length %u, types end at %llu, strings end at %llu", hdr_len,
			 (unsigned long long)types_end, (unsigned long long)strs_end);
		bad_btf(td, section_offset, body, found);
	}
}
