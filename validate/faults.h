/* SPDX-License-Identifier: MIT */
/* Internal names for every catalog entry, generated from the .def slices. */
#ifndef TFK_FAULTS_H
#define TFK_FAULTS_H

#include "tracefsck/finding.h"

enum tfk_fault_code {
#define TFK_FAULT(sym, id, sev, repair, summary, help) TFK_##sym,
#include "tfk_catalog_slices.inc" /* core and every format's slice, in id order (formats/formats.list) */
#undef TFK_FAULT
	TFK_FAULT_COUNT
};

const struct tfk_fault *tfk_fault_get(enum tfk_fault_code code);

#endif
