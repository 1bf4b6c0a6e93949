/* SPDX-License-Identifier: MIT */
/*
 * Writer versions as the writers print them ("3.3.1", "6.16.0", "v0.17", "2.14.0-rc1"):
 * compared as dotted numbers, which is what the writer-quirk table's ranges need.
 */
#ifndef TFK_WRITER_VERSION_H
#define TFK_WRITER_VERSION_H

#include <stdbool.h>

/*
 * <0, 0, >0 as a is below, equal to or above b. A leading 'v' is skipped; each dotted part is
 * its leading decimal digits (a missing part counts 0, so "3.3" equals "3.3.0"); what follows
 * the numbers ("-rc1", "+git") is ignored. Parts are capped, so hostile text cannot overflow.
 */
int tfk_version_cmp(const char *a, const char *b);

/* Whether min <= v <= max (NULL or "" bounds are open). */
bool tfk_version_between(const char *v, const char *min, const char *max);

#endif
