/* SPDX-License-Identifier: MIT */
/*
 * The format memo: what libtraceevent said of each event-format text, remembered for a run of
 * many checks. A trace.dat carries its kernel's whole catalogue of event formats (thousands),
 * and libtraceevent's parse of them is most of a check's cost; files from one kernel carry the
 * same texts. Give the memo to every check of a run (tfk_limits.format_memo) and each distinct
 * text is parsed once: later files take the verdict remembered under a keyed 128-bit SipHash of
 * the text, its event system, the trace's byte order, long and page size, and the libtraceevent
 * version. A verdict is remembered only when libtraceevent answered (parsed or rejected); a
 * crash or a hang is never remembered, so the next file meets it again. The findings are the
 * same with the memo and without it.
 *
 * Optionally the memo keeps its verdicts in a cache directory between runs (a CI runner's
 * cache): tfk_format_memo_open_cache before the first check, tfk_format_memo_save after the
 * last. The directory is the caller's own (created 0700; refused when another user owns it or
 * others may write in it); its entries are written whole (a temporary file, renamed) and sealed
 * with a MAC under the directory's key, and an entry that does not verify is ignored and
 * listed (tfk_format_memo_ignored), never believed.
 *
 * One memo may serve checks on several threads at once (it locks inside).
 */
#ifndef TRACEFSCK_FORMAT_MEMO_H
#define TRACEFSCK_FORMAT_MEMO_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct tfk_format_memo;

/* An empty memo under a random key; NULL when memory or the system's randomness fails. */
struct tfk_format_memo *tfk_format_memo_new(void);
void tfk_format_memo_free(struct tfk_format_memo *memo);

/*
 * Use dir as the memo's cache (before any check has used the memo): created 0700 when missing
 * (its parent must exist), its key read or made, its verified entries loaded. Returns 0, or -1
 * with why filled (a directory owned by another user, writable by group or others, a symbolic
 * link, not a directory, a key file in the wrong hands ...): the memo then works for this run
 * only.
 */
int tfk_format_memo_open_cache(struct tfk_format_memo *memo, const char *dir, char *why, size_t why_len);

/*
 * The i-th cache entry that was ignored (corrupt, forged, of another key, unreadable): its
 * name in the directory and why. Returns 0, or -1 past the last.
 */
int tfk_format_memo_ignored(const struct tfk_format_memo *memo, size_t i, const char **name, const char **why);

/* Write the verdicts learnt this run to the cache as one new entry (nothing when none are new).
 * Returns 0, or -1 with why filled. */
int tfk_format_memo_save(struct tfk_format_memo *memo, char *why, size_t why_len);

struct tfk_format_memo_stats {
	uint64_t hits;      /* formats whose verdict came from the memo */
	uint64_t misses;    /* formats libtraceevent was asked about */
	uint64_t entries;   /* verdicts held */
	uint64_t loaded;    /* verdicts read from the cache */
};
struct tfk_format_memo_stats tfk_format_memo_stats(const struct tfk_format_memo *memo);

#ifdef __cplusplus
}
#endif
#endif
