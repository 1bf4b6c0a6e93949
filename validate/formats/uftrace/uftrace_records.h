/* SPDX-License-Identifier: MIT */
/*
 * The layout of a <tid>.dat record (spec §2.6), shared by the check and by repair, which must
 * step over arguments and return values exactly as the check did.
 */
#ifndef TFK_UFTRACE_RECORDS_H
#define TFK_UFTRACE_RECORDS_H

#include <stdbool.h>
#include <stdint.h>

#include "cursor.h"

enum { UF_ENTRY = 0, UF_EXIT = 1, UF_LOST = 2, UF_EVENT = 3 };
#define UF_RECORD_MAGIC 5
#define UF_PAYLOAD_MAX 4096
#define UF_MORE_BIT (1ull << 2) /* in the second word: a payload follows */
#define UF_PAYLOAD_NONE UINT64_MAX /* uf_guess_payload found no length */

/*
 * The length of the arguments or return value after the record at member offset at (time t),
 * read from the bytes v views (v->origin is the member offset of its first byte; file_len the
 * member's size). See uftrace_dat.c: the shortest multiple of 8 (0 included: an argument of an
 * empty struct type stores nothing) after which a plausible record follows or the file ends;
 * depths: the depth rule of unfiltered recordings may judge the record after it; *by_tail
 * when only the end of the file suggests it; UF_PAYLOAD_NONE when none.
 */
uint64_t uf_guess_payload(const struct tfk_cursor *v, uint64_t file_len, uint64_t at, uint64_t t, bool depths,
			  bool *by_tail);

#endif
