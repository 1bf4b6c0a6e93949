/* SPDX-License-Identifier: MIT */
/*
 * Repair: check the input while the observer builds the salvage model, write a new file from
 * the model, and re-check it. An output that does not re-check clean is an internal error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "perf_write.h"
#include "tracefsck/repair.h"

static bool repairable(const struct tfk_report *r)
{
	return r->stats.format && !r->not_checked &&
	       (strncmp(r->stats.format, "trace.dat", 9) == 0 || strncmp(r->stats.format, "perf.data", 9) == 0);
}

/* Tracepoint events whose TRACING_DATA feature did not survive: perf will refuse the file. */
static bool perf_tracing_lost(const struct tfk_perf_layout *L)
{
	if (!L->tracepoints || L->pipe)
		return false;
	for (uint32_t i = 0; i < L->nfeatures; i++)
		if (L->features[i].bit == 1 && L->features[i].ok)
			return false;
	return true;
}

/* Bytes of records repair keeps: the data up to good_end less the records it leaves out. */
static uint64_t perf_kept_bytes(const struct tfk_perf_layout *L)
{
	uint64_t n = L->good_end - L->data_offset;
	for (uint32_t i = 0; i < L->ndrops && i < TFK_PERF_MAX_DROPS; i++)
		n = L->drops[i].size < n ? n - L->drops[i].size : 0;
	return n;
}

/* The new perf.data from the layout, or -1 when it cannot be repaired. */
static int repair_perf(const uint8_t *in, size_t size, const struct rp_model *m, struct tfk_repair_report *rep,
		       struct rp_blob *result)
{
	if (!m->have_perf)
		return -1;
	const struct tfk_perf_layout *L = &m->perf;
	if (rp_perf_write(in, size, L, result, &rep->options_dropped) != 0)
		return -1;
	rep->cpus = calloc(1, sizeof(*rep->cpus));
	if (rep->cpus) {
		rep->ncpus = 1;
		snprintf(rep->cpus[0].buffer, sizeof(rep->cpus[0].buffer), "perf.data records");
		rep->cpus[0].events_kept = L->samples_kept;
	}
	return 0;
}

static void collect_stats(struct tfk_repair_report *rep, const struct rp_model *m)
{
	size_t n = 0;
	for (size_t i = 0; i < m->nbuffers; i++)
		n += m->buffers[i].ncpus;
	rep->cpus = n ? calloc(n, sizeof(*rep->cpus)) : NULL;
	rep->buffers = (uint32_t)m->nbuffers;
	if (!rep->cpus)
		return;
	for (size_t i = 0; i < m->nbuffers; i++)
		for (size_t k = 0; k < m->buffers[i].ncpus; k++)
			rep->cpus[rep->ncpus++] = m->buffers[i].cpus[k].stats;
}

void tfk_repair_buffer(const uint8_t *in, size_t size, const struct tfk_limits *limits, uint8_t **out, size_t *out_len,
		       struct tfk_repair_report *rep)
{
	struct rp_model m;
	memset(rep, 0, sizeof(*rep));
	memset(&m, 0, sizeof(m));
	*out = NULL;
	*out_len = 0;

	m.input = in;
	m.input_size = size;
	struct tfk_observer obs = rp_model_observer(&m);
	tfk_check_buffer_observed(in, size, limits, &obs, &rep->before);
	collect_stats(rep, &m);
	if (!repairable(&rep->before)) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		goto done;
	}
	if (tfk_report_verdict(&rep->before) == TFK_VERDICT_CLEAN) {
		rep->outcome = TFK_REPAIR_NOTHING_TO_DO;
		goto done;
	}
	struct rp_blob result;
	if (m.have_perf) {
		if (repair_perf(in, size, &m, rep, &result) != 0) {
			rep->outcome = TFK_REPAIR_UNSUPPORTED;
			goto done;
		}
		goto recheck;
	}
	if (!m.have_geometry || m.oom) {
		/* Nothing about the ring pages could be proven: there is nothing to write. */
		rep->outcome = m.oom ? TFK_REPAIR_FAILED : TFK_REPAIR_UNSUPPORTED;
		goto done;
	}
	if (m.geo.version == 7)
		snprintf(rep->converted, sizeof(rep->converted), "%s -> v6", rep->before.stats.format);

	if (rp_write_v6(&m, &result) != 0) {
		rep->outcome = TFK_REPAIR_FAILED;
		goto done;
	}
recheck:
	tfk_check_buffer(result.data, result.len, limits, &rep->after);
	if (tfk_report_verdict(&rep->after) != TFK_VERDICT_CLEAN) {
		rep->outcome = TFK_REPAIR_FAILED;
	} else {
		uint64_t events_in = 0;
		for (size_t i = 0; i < rep->ncpus; i++)
			events_in += rep->cpus[i].events_kept;
		bool had_data = rep->before.stats.pages > 0;
		bool none_kept = m.have_perf ? perf_kept_bytes(&m.perf) == 0 : had_data && events_in == 0;
		rep->outcome = none_kept ? TFK_REPAIR_NOTHING_SALVAGED : TFK_REPAIR_DONE;
	}
	rep->metadata_lost = m.have_perf ? perf_tracing_lost(&m.perf) : !m.have_header_page || !m.have_header_event;
	for (size_t i = 0; i < rep->before.count && !m.have_perf; i++)
		rep->options_dropped += strncmp(rep->before.findings[i].fault->id, "tracedat.option.", 16) == 0;
	*out = result.data;
	*out_len = result.len;
done:
	rp_model_free(&m);
}

void tfk_repair_report_free(struct tfk_repair_report *rep)
{
	tfk_report_free(&rep->before);
	tfk_report_free(&rep->after);
	free(rep->cpus);
	rep->cpus = NULL;
	rep->ncpus = 0;
}
