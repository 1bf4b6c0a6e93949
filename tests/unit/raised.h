/* SPDX-License-Identifier: MIT */
/*
 * Codes the unit tests raised, gathered across test programs: each appends the ids it saw to
 * $TFK_RAISED_DIR/codes, and the catalog_coverage test proves every catalog code is among
 * them, whatever format it belongs to. Without the variable, nothing is written.
 */
#ifndef TFK_TEST_RAISED_H
#define TFK_TEST_RAISED_H

#include "tracefsck/check.h"

void raised_note(const struct tfk_report *r);

#endif
