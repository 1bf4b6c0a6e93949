/* SPDX-License-Identifier: MIT */
/* Umbrella header for the tracefsck library. */
#ifndef TRACEFSCK_H
#define TRACEFSCK_H

#include "tracefsck/catalog.h"
#include "tracefsck/check.h"
#include "tracefsck/finding.h"
#include "tracefsck/format_memo.h"
#include "tracefsck/hazard.h"
#include "tracefsck/quirk.h"
#include "tracefsck/limits.h"
#include "tracefsck/observer.h"
#include "tracefsck/picture.h"
#include "tracefsck/policy.h"
#include "tracefsck/repair.h"
#include "tracefsck/sink.h"
#include "tracefsck/units.h"

/* The version these headers belong to; tfk_version() says which library a program runs with. */
#define TRACEFSCK_VERSION "0.1.0"
#define TRACEFSCK_VERSION_MAJOR 0
#define TRACEFSCK_VERSION_MINOR 1
#define TRACEFSCK_VERSION_PATCH 0
/* One number to compare: (major << 16) | (minor << 8) | patch. */
#define TRACEFSCK_VERSION_NUMBER ((TRACEFSCK_VERSION_MAJOR << 16) | (TRACEFSCK_VERSION_MINOR << 8) | TRACEFSCK_VERSION_PATCH)

#ifdef __cplusplus
extern "C" {
#endif
/* The library's version string ("0.1.0"); *number (if not NULL) gets its TRACEFSCK_VERSION_NUMBER. */
const char *tfk_version(unsigned *number);
/*
 * What the build reads with, one line each: libtraceevent's version, the codecs' (as linked),
 * the compressions and the formats it checks. Written to buf as snprintf does (always
 * terminated when n > 0); returns the length the whole text needs.
 */
size_t tfk_build_features(char *buf, size_t n);
#ifdef __cplusplus
}
#endif

#endif
