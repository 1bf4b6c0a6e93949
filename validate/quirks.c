/* SPDX-License-Identifier: MIT */
/* The writer-quirk table, from each format's quirks.def (see formats/formats.list). */
#include <stdint.h>

#include "faults.h"
#include "tracefsck/catalog.h"
#include "tracefsck/quirk.h"

/*
 * TFK_QUIRK(fault symbol, writer, first bad version, last bad version, fixed in, effect, repair)
 * The symbol is the catalog's enum constant, so a row naming a code that does not exist does
 * not compile; a slice lists its rows in catalog order (a unit test holds it to that).
 */
static const enum tfk_fault_code quirk_code[] = {
#define TFK_QUIRK(sym, ...) TFK_##sym,
#include "tfk_quirk_slices.inc" /* generated from formats/formats.list */
#undef TFK_QUIRK
	TFK_FAULT_COUNT /* a sentinel: keeps the array non-empty when no format has quirks */
};

static const struct tfk_quirk quirks[] = {
#define TFK_QUIRK(sym, writer_, first_, last_, fixed_, effect_, repair_)                                  \
	{ .writer = writer_, .first_bad = first_, .last_bad = last_, .fixed_in = fixed_, .effect = effect_, \
	  .repair = repair_ },
#include "tfk_quirk_slices.inc"
#undef TFK_QUIRK
	{ .writer = NULL }
};

#define NQUIRKS (sizeof quirks / sizeof quirks[0] - 1)

const struct tfk_quirk *tfk_fault_quirk(const struct tfk_fault *fault)
{
	size_t n;
	const struct tfk_fault *all = tfk_catalog(&n);
	const size_t nq = NQUIRKS; /* a variable: a build whose formats have no quirks has 0 */
	if (!fault || fault < all || fault >= all + n)
		return NULL;
	size_t code = (size_t)(fault - all);
	/* A code has at most one row, and the table is short: a scan is enough. */
	for (size_t i = 0; i < nq; i++)
		if ((size_t)quirk_code[i] == code)
			return &quirks[i];
	return NULL;
}

const struct tfk_quirk *tfk_quirk_catalog(size_t *count)
{
	*count = NQUIRKS;
	return quirks;
}

const struct tfk_fault *tfk_quirk_fault(const struct tfk_quirk *quirk)
{
	const size_t nq = NQUIRKS;
	if (!quirk || quirk < quirks || quirk >= quirks + nq)
		return NULL;
	return tfk_fault_get(quirk_code[quirk - quirks]);
}
