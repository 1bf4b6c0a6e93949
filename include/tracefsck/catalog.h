/* SPDX-License-Identifier: MIT */
/* The fault catalog: every code tracefsck can report, for docs, SARIF rules and `explain`. */
#ifndef TRACEFSCK_CATALOG_H
#define TRACEFSCK_CATALOG_H

#include <stddef.h>

#include "tracefsck/finding.h"

#ifdef __cplusplus
extern "C" {
#endif

/* The whole catalog, sorted by id. */
const struct tfk_fault *tfk_catalog(size_t *count);

/* Look a fault up by its exact id; NULL if there is none. */
const struct tfk_fault *tfk_catalog_find(const char *id);

#ifdef __cplusplus
}
#endif
#endif
