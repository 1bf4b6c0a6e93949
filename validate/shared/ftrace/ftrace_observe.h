/* SPDX-License-Identifier: MIT */
/* Telling the observer (if any) what the trace.dat walk read whole. */
#ifndef TFK_FTRACE_OBSERVE_H
#define TFK_FTRACE_OBSERVE_H

#include "ftrace.h"
#include "tracefsck/observer.h"

static inline const struct tfk_observer *td_obs(const struct td_check *td)
{
	return td->ctx->obs;
}

static inline void td_obs_meta(const struct td_check *td, enum tfk_meta_kind kind, const struct tfk_cursor *blob)
{
	const uint8_t *p;
	if (td_obs(td) && td_obs(td)->meta && tfk_cur_bytes_at(blob, 0, blob->len, &p))
		td_obs(td)->meta(td_obs(td)->user, kind, p, blob->len);
}

static inline void td_obs_buffer(const struct td_check *td, const char *name, const char *clock, uint32_t page_size,
				 bool latency)
{
	if (td_obs(td) && td_obs(td)->buffer)
		td_obs(td)->buffer(td_obs(td)->user, name, clock, page_size, latency);
}

static inline void td_obs_cpu(const struct td_check *td, uint32_t cpu)
{
	if (td_obs(td) && td_obs(td)->cpu)
		td_obs(td)->cpu(td_obs(td)->user, cpu);
}

static inline void td_obs_cpu_extent(const struct td_check *td, uint32_t cpu, uint64_t declared, uint64_t present,
				     bool compressed)
{
	if (td_obs(td) && td_obs(td)->cpu_extent)
		td_obs(td)->cpu_extent(td_obs(td)->user, cpu, declared, present, compressed);
}

static inline uint64_t td_errors(const struct td_check *td)
{
	return td->ctx->faults[TFK_SEV_ERROR] + td->ctx->faults[TFK_SEV_WARNING];
}

void td_obs_geometry(const struct td_check *td);

/* A structure for the map: offset may be a decoded-view offset (translated here). */
__attribute__((format(printf, 7, 8))) void td_obs_item(const struct td_check *td, enum tfk_item_kind kind, uint64_t offset,
						      uint64_t length, uint32_t id, const char *name, const char *fmt, ...);

#endif
