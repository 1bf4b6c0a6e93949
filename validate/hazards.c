/* SPDX-License-Identifier: MIT */
/* The reader hazards of the catalog, from each format's hazards.def (see formats/formats.list). */
#include <fnmatch.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "faults.h"
#include "tracefsck/catalog.h"
#include "tracefsck/hazard.h"

/*
 * TFK_HAZARD(fault symbol, reader, min version, max version, effect, signal, condition,
 *            path glob, expected glob, found glob)
 * The symbol is the catalog's enum constant, so a hazard naming a code that does not exist
 * does not compile. NONE stands for "no signal", ANY for "no condition".
 */
#define NONE 0
#define ANY NULL
static const enum tfk_fault_code hazard_code[] = {
#define TFK_HAZARD(sym, ...) TFK_##sym,
#include "tfk_hazard_slices.inc" /* generated from formats/formats.list */
#undef TFK_HAZARD
	TFK_FAULT_COUNT /* a sentinel: keeps the array non-empty when no format has hazards */
};

static const struct tfk_hazard hazards[] = {
#define TFK_HAZARD(sym, reader_, min_, max_, effect_, sig_, cond_, path_, exp_, found_)                  \
	{ .reader = reader_, .min_version = min_, .max_version = max_, .effect = TFK_EFFECT_##effect_, \
	  .signal = sig_, .signal_name = (sig_) ? #sig_ : NULL, .condition = cond_,                       \
	  .path_glob = path_, .expected_glob = exp_, .found_glob = found_ },
#include "tfk_hazard_slices.inc"
#undef TFK_HAZARD
	{ .reader = NULL }
};
#undef NONE
#undef ANY

#define NHAZARDS (sizeof hazards / sizeof hazards[0] - 1)

static size_t code_of(const struct tfk_fault *fault)
{
	size_t n;
	const struct tfk_fault *all = tfk_catalog(&n);
	if (!fault || fault < all || fault >= all + n)
		return SIZE_MAX;
	return (size_t)(fault - all);
}

const struct tfk_hazard *tfk_fault_hazards(const struct tfk_fault *fault, size_t *count)
{
	/* A variable, not the constant: a build whose formats have no hazards has 0 of them. */
	const size_t n = NHAZARDS;
	size_t code = code_of(fault), lo = 0, hi = n;

	*count = 0;
	if (code == SIZE_MAX)
		return NULL;
	/* The slices keep their hazards in catalog order (a unit test holds them to it). */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if ((size_t)hazard_code[mid] < code)
			lo = mid + 1;
		else
			hi = mid;
	}
	size_t end = lo;
	while (end < n && (size_t)hazard_code[end] == code)
		end++;
	*count = end - lo;
	return *count ? &hazards[lo] : NULL;
}

const struct tfk_hazard *tfk_hazard_catalog(size_t *count)
{
	*count = NHAZARDS;
	return hazards;
}

const struct tfk_fault *tfk_hazard_fault(const struct tfk_hazard *hazard)
{
	if (!hazard || hazard < hazards || hazard >= hazards + NHAZARDS)
		return NULL;
	return tfk_fault_get(hazard_code[hazard - hazards]);
}

static bool glob_ok(const char *pattern, const char *text)
{
	return !pattern || fnmatch(pattern, text, 0) == 0;
}

static bool matches(const struct tfk_hazard *h, const struct tfk_finding *f)
{
	return tfk_hazard_fault(h) == f->fault && glob_ok(h->path_glob, f->path) && glob_ok(h->expected_glob, f->expected) &&
	       glob_ok(h->found_glob, f->found);
}

bool tfk_hazard_applies(const struct tfk_hazard *h, const struct tfk_finding *f)
{
	if (!h || !f || !matches(h, f))
		return false;
	if (h->effect != TFK_EFFECT_SILENT_LOSS)
		return true;
	/* A reader that dies or never returns does not exit 0: where the same finding proves a
	   crash or a hang of that reader, its silent loss (claimed for the gentler values) is not. */
	size_t n;
	const struct tfk_hazard *all = tfk_fault_hazards(f->fault, &n);
	for (size_t i = 0; i < n; i++)
		if ((all[i].effect == TFK_EFFECT_CRASH || all[i].effect == TFK_EFFECT_HANG) &&
		    strcmp(all[i].reader, h->reader) == 0 && matches(&all[i], f))
			return false;
	return true;
}

size_t tfk_finding_hazard_count(const struct tfk_finding *f)
{
	size_t n, hit = 0;
	const struct tfk_hazard *h = tfk_fault_hazards(f ? f->fault : NULL, &n);
	for (size_t i = 0; i < n; i++)
		hit += tfk_hazard_applies(&h[i], f);
	return hit;
}

const char *tfk_hazard_effect_name(enum tfk_hazard_effect effect)
{
	switch (effect) {
	case TFK_EFFECT_CRASH: return "crash";
	case TFK_EFFECT_HANG: return "hang";
	case TFK_EFFECT_UNBOUNDED_ALLOCATION: return "unbounded-allocation";
	case TFK_EFFECT_SILENT_LOSS: return "silent-loss";
	case TFK_EFFECT_MISREAD: return "misread";
	case TFK_EFFECT_REFUSES: return "refuses";
	}
	return "unknown";
}
