/* SPDX-License-Identifier: MIT */
/*
 * Pseudonyms: a word becomes a word of the same length and the same shape (lower case stays
 * lower case, upper upper, digits digits, other bytes become lower-case letters), drawn from
 * its SipHash under the run's key. The same word gets the same pseudonym in every place and
 * kind, so a trace stays consistent (the comm of a task in its events and in the cmdlines, a
 * user's name in a path and in a host name), and no byte length changes.
 */
#include <stdlib.h>
#include <string.h>

#include "pseudo.h"

void sc_init(struct sc_ctx *sc, const struct tfk_scrub_options *opts, struct tfk_scrub_report *rep)
{
	memset(sc, 0, sizeof(*sc));
	sc->opts = opts;
	sc->rep = rep;
}

void sc_release(struct sc_ctx *sc)
{
	free(sc->slots);
	free(sc->words);
	sc->slots = NULL;
	sc->words = NULL;
}

bool sc_wants(const struct sc_ctx *sc, enum tfk_scrub_kind kind)
{
	return (sc->opts->kinds & TFK_SCRUB_BIT(kind)) != 0;
}

void sc_kept(struct sc_ctx *sc, const char *why)
{
	struct tfk_scrub_report *r = sc->rep;
	for (size_t i = 0; i < r->nkept; i++)
		if (r->kept_on_purpose[i] == why)
			return;
	if (r->nkept < TFK_SCRUB_MAX_NOTES)
		r->kept_on_purpose[r->nkept++] = why;
}

static bool word_byte(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c >= 0x80;
}

/* The sweep looks for ASCII words only: a byte of 0x80 and above in binary data is no letter. */
static bool sweep_byte(uint8_t c)
{
	return c < 0x80 && word_byte(c);
}

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static uint8_t draw(uint8_t shape, uint64_t r)
{
	if (shape >= 'A' && shape <= 'Z')
		return (uint8_t)('A' + r % 26);
	if (shape >= '0' && shape <= '9')
		return (uint8_t)('0' + r % 10);
	return (uint8_t)('a' + r % 26);
}

/* The pseudonym of the word w (n bytes, n <= SC_WORD_MAX) into out: never the word itself. */
static void pseudonym(const struct sc_ctx *sc, const uint8_t *w, size_t n, uint8_t *out)
{
	uint64_t state = tfk_siphash(sc->opts->key, w, n);
	for (unsigned attempt = 0; attempt < 4; attempt++) {
		for (size_t i = 0; i < n; i++)
			out[i] = draw(w[i], splitmix(&state));
		if (memcmp(out, w, n) != 0)
			return;
	}
	/* a one-letter word can map to itself by chance: move it one step within its class */
	uint8_t c = out[0];
	if (c >= '0' && c <= '9')
		out[0] = c == '9' ? '0' : (uint8_t)(c + 1);
	else if (c >= 'A' && c <= 'Z')
		out[0] = c == 'Z' ? 'A' : (uint8_t)(c + 1);
	else
		out[0] = c == 'z' ? 'a' : (uint8_t)(c + 1);
}

static uint32_t slot_of(const uint8_t *w, size_t n)
{
	uint32_t h = 2166136261u; /* FNV-1a: the dictionary's own table, not the secret hash */
	for (size_t i = 0; i < n; i++)
		h = (h ^ w[i]) * 16777619u;
	return h & (SC_DICT_SLOTS - 1);
}

static bool dict_has(const struct sc_ctx *sc, const uint8_t *w, size_t n)
{
	if (!sc->slots)
		return false;
	for (uint32_t s = slot_of(w, n), i = 0; i < SC_DICT_SLOTS; i++, s = (s + 1) & (SC_DICT_SLOTS - 1)) {
		uint32_t v = sc->slots[s];
		if (!v)
			return false;
		const uint8_t *e = sc->words + v - 1;
		if (e[0] == n && memcmp(e + 1, w, n) == 0)
			return true;
	}
	return false;
}

/* Remember a replaced ASCII word for the sweep (bounded: past the bound the report says so). */
static void dict_add(struct sc_ctx *sc, const uint8_t *w, size_t n)
{
	if (n < SC_SWEEP_MIN || n > SC_WORD_MAX || sc->oom)
		return;
	for (size_t i = 0; i < n; i++)
		if (!sweep_byte(w[i]))
			return;
	if (dict_has(sc, w, n))
		return;
	if (sc->nwords >= SC_DICT_SLOTS / 2) {
		sc->rep->dictionary_full = true;
		return;
	}
	if (!sc->slots && !(sc->slots = calloc(SC_DICT_SLOTS, sizeof(*sc->slots)))) {
		sc->oom = true;
		return;
	}
	if (sc->words_len + n + 1 > sc->words_cap) {
		size_t cap = sc->words_cap ? sc->words_cap * 2 : 4096;
		while (cap < sc->words_len + n + 1)
			cap *= 2;
		uint8_t *p = realloc(sc->words, cap);
		if (!p) {
			sc->oom = true;
			return;
		}
		sc->words = p;
		sc->words_cap = cap;
	}
	uint32_t s = slot_of(w, n);
	while (sc->slots[s])
		s = (s + 1) & (SC_DICT_SLOTS - 1);
	sc->slots[s] = (uint32_t)sc->words_len + 1;
	sc->words[sc->words_len] = (uint8_t)n;
	memcpy(sc->words + sc->words_len + 1, w, n);
	sc->words_len += n + 1;
	sc->nwords++;
}

/* Replace the word at p in place; words longer than SC_WORD_MAX are hashed in pieces. */
static void replace_word(struct sc_ctx *sc, uint8_t *p, size_t n, bool remember)
{
	uint8_t out[SC_WORD_MAX];
	while (n) {
		size_t k = n < SC_WORD_MAX ? n : SC_WORD_MAX;
		if (remember)
			dict_add(sc, p, k);
		pseudonym(sc, p, k, out);
		memcpy(p, out, k);
		p += k;
		n -= k;
	}
}

void sc_text(struct sc_ctx *sc, enum tfk_scrub_kind kind, uint8_t *p, size_t n)
{
	bool any = false;
	for (size_t i = 0; i < n && !any; i++)
		any = word_byte(p[i]);
	if (!any)
		return;
	if (!sc_wants(sc, kind)) {
		sc->rep->counts[kind].kept++;
		return;
	}
	sc->rep->counts[kind].replaced++;
	for (size_t i = 0; i < n;) {
		if (!word_byte(p[i])) {
			i++;
			continue;
		}
		size_t j = i;
		bool digits = true;
		for (; j < n && word_byte(p[j]); j++)
			digits &= p[j] >= '0' && p[j] <= '9';
		/* one or two digits alone (the CPU of "kworker/1:2", "migration/0") name nobody */
		if (!digits || j - i > 2)
			replace_word(sc, p + i, j - i, true);
		i = j;
	}
}

void sc_cstr(struct sc_ctx *sc, enum tfk_scrub_kind kind, uint8_t *p, size_t cap)
{
	const uint8_t *nul = memchr(p, 0, cap);
	size_t n = nul ? (size_t)(nul - p) : cap;
	sc_text(sc, kind, p, n);
	if (nul && sc_wants(sc, kind))
		memset(p + n, 0, cap - n);
}

void sc_cstr_aligned(struct sc_ctx *sc, enum tfk_scrub_kind kind, uint8_t *p, size_t cap, size_t align)
{
	const uint8_t *nul = memchr(p, 0, cap);
	if (!nul || !align) {
		sc_text(sc, kind, p, nul ? (size_t)(nul - p) : cap);
		return;
	}
	size_t n = (size_t)(nul - p);
	size_t end = (n + 1 + align - 1) / align * align;
	sc_cstr(sc, kind, p, end < cap ? end : cap);
}

void sc_sweep(struct sc_ctx *sc, uint8_t *p, size_t n)
{
	if (!sc->nwords)
		return;
	for (size_t i = 0; i < n;) {
		if (!sweep_byte(p[i])) {
			i++;
			continue;
		}
		size_t j = i;
		while (j < n && sweep_byte(p[j]))
			j++;
		if (j - i >= SC_SWEEP_MIN && j - i <= SC_WORD_MAX && dict_has(sc, p + i, j - i)) {
			replace_word(sc, p + i, j - i, false);
			sc->rep->swept++;
		}
		i = j;
	}
}
