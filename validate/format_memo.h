/* SPDX-License-Identifier: MIT */
/* The format memo's inside, for the checks that ask it (tracefsck/format_memo.h). */
#ifndef TFK_FORMAT_MEMO_INTERNAL_H
#define TFK_FORMAT_MEMO_INTERNAL_H

#include <stdint.h>

#include "siphash.h"
#include "tracefsck/format_memo.h"

#define TFK_MEMO_KEY_BYTES TFK_SIP128_BYTES
#define TFK_MEMO_PARSES 'o'
#define TFK_MEMO_REJECTS 'e'

/* Begin the key of a question: a wide SipHash under the memo's naming key; the caller feeds
 * every byte the answer depends on, then tfk_sip_final128. */
void tfk_memo_key_begin(const struct tfk_format_memo *memo, struct tfk_sip *s);

/* The verdict remembered under key (TFK_MEMO_PARSES or TFK_MEMO_REJECTS), or 0. */
int tfk_memo_get(struct tfk_format_memo *memo, const uint8_t key[TFK_MEMO_KEY_BYTES]);

/* Remember verdict (TFK_MEMO_PARSES or TFK_MEMO_REJECTS) under key; anything else is ignored. */
void tfk_memo_put(struct tfk_format_memo *memo, const uint8_t key[TFK_MEMO_KEY_BYTES], int verdict);

#endif
