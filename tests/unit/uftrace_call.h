/* SPDX-License-Identifier: MIT */
/*
 * A second printf call for the uftrace sample (fib-args): its ENTRY and EXIT with their
 * payloads (48 bytes), made from the sample's own call (records 359 and 360 at 5744), at depth
 * 0 and after the last record's time, the ENTRY's string length set to string_len. The spec
 * (auto-args printf@arg1/s, retval/d32) gives the 8-byte payloads for a length of 3.
 */
#ifndef TFK_TEST_UFTRACE_CALL_H
#define TFK_TEST_UFTRACE_CALL_H

#include <stdint.h>
#include <string.h>

#define UF_CALL_AT 5744
#define UF_CALL_LEN 48

static inline void uf_call_put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* call: the sample's 48 bytes at UF_CALL_AT, rewritten in place. */
static inline void uf_call_again(uint8_t *call, uint16_t string_len)
{
	const uint64_t addr = 0x555e12906040ull, magic = 5u << 3;
	uf_call_put64(call, 678882140100ull);
	uf_call_put64(call + 8, 0 | 1u << 2 | magic | addr << 16); /* ENTRY, more, depth 0 */
	call[16] = (uint8_t)string_len;
	call[17] = (uint8_t)(string_len >> 8);
	uf_call_put64(call + 24, 678882140200ull);
	uf_call_put64(call + 32, 1 | 1u << 2 | magic | addr << 16); /* EXIT, more, depth 0 */
}

#endif
