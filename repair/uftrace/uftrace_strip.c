/* SPDX-License-Identifier: MIT */
/*
 * A task whose arguments and return values cannot be read any more: a killed recording left
 * no info, and with it went the argument spec, without which uftrace cannot step over them.
 * Rather than cut the task before its first such record, every record is kept and only the
 * values are left out: the more flag cleared, the bytes after it skipped, by the same length
 * rule the check walked with (formats/uftrace/uftrace_records.h). Events keep their data
 * (its length is in it), LOST records are copied as they are.
 */
#include "uftrace_repair.h"

#include <string.h>

#include "formats/uftrace/uftrace_records.h"

int ur_strip_payloads(const uint8_t *data, uint64_t size, uint64_t cut, bool big_endian, struct rp_out *o,
		      uint64_t *records, uint64_t *stripped)
{
	const struct tfk_cursor v = tfk_cur_make(data, size, 0, big_endian);
	const bool swap = tfk_cur_swap(&v);
	uint64_t pos = 0, run = 0; /* the kept bytes not yet added start at run */
	*records = *stripped = 0;
	if (cut > size)
		cut = size;
	while (pos < cut && cut - pos >= 16) {
		uint64_t t, w;
		if (!tfk_cur_u64_at(&v, pos, &t) || !tfk_cur_u64_at(&v, pos + 8, &w))
			break;
		unsigned type = (unsigned)(w & 3);
		uint64_t next = pos + 16;
		bool drop = false;
		if (w & UF_MORE_BIT) {
			if (type == UF_EVENT) {
				uint16_t len;
				if (!tfk_cur_u16_at(&v, next, &len))
					break;
				next += ((uint64_t)len + 2 + 7) & ~7ull;
			} else if (type == UF_ENTRY || type == UF_EXIT) {
				bool by_tail;
				/* no info: whether filters made depth gaps is not known, and a gap only makes
				 * the guess fall back to the loose test */
				uint64_t len = uf_guess_payload(&v, size, pos, t, true, &by_tail);
				if (len == UF_PAYLOAD_NONE)
					break;
				next += len;
				drop = true;
			}
		}
		if (next > cut)
			break;
		(*records)++;
		if (drop) {
			if (pos > run)
				rp_out_keep(o, data + run, (size_t)(pos - run));
			/* The header again from the words read through the cursor, the more flag cleared. */
			uint8_t hdr[16];
			uint64_t words[2] = { tfk_bswap64_if(t, swap), tfk_bswap64_if(w & ~UF_MORE_BIT, swap) };
			memcpy(hdr, words, sizeof(hdr));
			rp_out_put(o, hdr, sizeof(hdr));
			run = next;
			(*stripped)++;
		}
		pos = next;
	}
	if (pos > run)
		rp_out_keep(o, data + run, (size_t)(pos - run));
	return o->oom ? -1 : 0;
}
