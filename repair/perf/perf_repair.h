/* SPDX-License-Identifier: MIT */
/* perf.data's repair plug-in: its model is the layout the checker reports. */
#ifndef TFK_REPAIR_PERF_H
#define TFK_REPAIR_PERF_H

#include <stddef.h>
#include <stdint.h>

#include "common.h"
#include "output.h"
#include "shared/perfrec/perf_model.h"
#include "tracefsck/observer.h"

/* Lay the new perf.data out in out (rp_out_free it), or -1 when the layout cannot be repaired. */
int rp_perf_write(const uint8_t *in, size_t size, const struct tfk_perf_layout *L, struct rp_out *out,
		  uint32_t *features_dropped);

#endif
