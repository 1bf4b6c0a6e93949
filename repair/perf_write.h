/* SPDX-License-Identifier: MIT */
/* Writing a repaired perf.data from the checker's layout. */
#ifndef TFK_REPAIR_PERF_WRITE_H
#define TFK_REPAIR_PERF_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "model.h"
#include "tracefsck/observer.h"

/* 0 and the new file in out (free out->data), or -1 when the layout cannot be repaired. */
int rp_perf_write(const uint8_t *in, size_t size, const struct tfk_perf_layout *L, struct rp_blob *out,
		  uint32_t *features_dropped);

#endif
