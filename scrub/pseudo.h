/* SPDX-License-Identifier: MIT */
/*
 * The neutral core of scrub that every format's plug-in calls: the pseudonyms (keyed, same
 * length, printable, one per word whatever the kind), the counts of the report, and the
 * dictionary of replaced words that a plug-in sweeps through bytes it cannot parse.
 */
#ifndef TFK_SCRUB_PSEUDO_H
#define TFK_SCRUB_PSEUDO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "tracefsck/scrub.h"

/* Words at least this long are remembered for the sweep: shorter ones would hit binary data. */
#define SC_SWEEP_MIN 4
#define SC_WORD_MAX 255
/* The dictionary's bound: distinct words remembered (more are replaced, not swept for). */
#define SC_DICT_SLOTS 65536u

struct sc_ctx {
	const struct tfk_scrub_options *opts;
	/* The most bytes a copy may hold (a decoded input grows): the input's size, or the limit on
	 * bytes decompressed from a compressed input when that is larger. */
	uint64_t max_out;
	struct tfk_scrub_report *rep;
	/* open addressing: slot -> (offset into words) + 1, 0 empty */
	uint32_t *slots;
	uint8_t *words;            /* each word: one length byte, then its bytes */
	size_t words_len, words_cap;
	size_t nwords;
	bool oom;
};

void sc_init(struct sc_ctx *sc, const struct tfk_scrub_options *opts, struct tfk_scrub_report *rep);
void sc_release(struct sc_ctx *sc);

/* Is kind asked for? */
bool sc_wants(const struct sc_ctx *sc, enum tfk_scrub_kind kind);

/*
 * Replace the words of the n bytes at p (a string of kind `kind`) by their pseudonyms, when
 * the kind is asked for: every run of letters, digits and non-ASCII bytes is a word;
 * separators (/ . - _ : spaces, NUL...) stay. Counts one string of the kind, replaced or kept.
 */
void sc_text(struct sc_ctx *sc, enum tfk_scrub_kind kind, uint8_t *p, size_t n);

/*
 * A NUL-terminated string in a field of cap bytes: its words replaced, and when the kind is
 * asked for, the bytes after its NUL (left-overs of an older string) zeroed. Empty strings are
 * not counted.
 */
void sc_cstr(struct sc_ctx *sc, enum tfk_scrub_kind kind, uint8_t *p, size_t cap);

/*
 * A NUL-terminated string at the start of a field of cap bytes that goes on after it (a perf
 * record's name, then its sample_id trailer): only the bytes up to the next multiple of align
 * past the NUL are zeroed.
 */
void sc_cstr_aligned(struct sc_ctx *sc, enum tfk_scrub_kind kind, uint8_t *p, size_t cap, size_t align);

/* Replace every word of the dictionary found (as a whole word) in n bytes of data. */
void sc_sweep(struct sc_ctx *sc, uint8_t *p, size_t n);

/* Note something kept on purpose (static text, once). */
void sc_kept(struct sc_ctx *sc, const char *why);

#endif
