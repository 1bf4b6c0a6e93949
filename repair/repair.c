/* SPDX-License-Identifier: MIT */
/*
 * Repair: check the input while the observer builds the salvage model, write a new file from
 * the model, and re-check it. An output that does not re-check clean is an internal error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "model.h"
#include "output.h"
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
		if (L->features[i].bit == 1 && (L->features[i].ok || L->tracing_rebuild))
			return false;
	return true;
}

/* What the salvage keeps and loses, from what the check walked. */
static void perf_salvage(const struct tfk_perf_layout *L, struct tfk_salvage_perf *p)
{
	p->samples_kept = L->samples_kept;
	p->records_kept = L->records_kept;
	p->samples_left_out = L->samples_left_out;
	p->records_left_out = L->records_left_out;
	uint64_t s = L->samples_kept + L->samples_left_out, r = L->records_kept + L->records_left_out;
	p->samples_after_cut = L->samples_walked > s ? L->samples_walked - s : 0;
	p->records_after_cut = L->records_walked > r ? L->records_walked - r : 0;
	p->bytes_skipped = L->skipped_bytes;
	p->bytes_unread = L->unread_bytes;
	p->bytes_missing = L->missing_bytes;
	p->bytes_undecodable = L->undecodable_bytes;
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
	perf_salvage(L, &rep->perf);
	rep->perf_data = true;
	return 0;
}

/* What a declared extent says was lost: the bytes (and, uncompressed, pages) not in the file. */
static void apply_extent(struct tfk_salvage_cpu *c, const struct rp_extent *e, uint32_t page_size)
{
	c->bytes_declared = e->declared;
	c->bytes_missing = e->declared - e->present;
	c->compressed = e->compressed;
	if (!e->compressed && page_size && c->bytes_missing) {
		/* pages declared, less the whole pages present: a partial page at the cut counts */
		uint64_t declared = e->declared / page_size + (e->declared % page_size != 0);
		uint64_t whole = e->present / page_size;
		c->pages_missing = declared > whole ? declared - whole : 0;
	}
}

static void collect_stats(struct tfk_repair_report *rep, const struct rp_model *m)
{
	size_t n = m->nextents;
	for (size_t i = 0; i < m->nbuffers; i++)
		n += m->buffers[i].ncpus;
	rep->cpus = n ? calloc(n, sizeof(*rep->cpus)) : NULL;
	rep->buffers = (uint32_t)m->nbuffers;
	if (!rep->cpus)
		return;
	size_t *first = calloc(m->nbuffers + 1, sizeof(*first)); /* each buffer's first entry in rep->cpus */
	for (size_t i = 0; i < m->nbuffers; i++) {
		if (first)
			first[i] = rep->ncpus;
		for (size_t k = 0; k < m->buffers[i].ncpus; k++)
			rep->cpus[rep->ncpus++] = m->buffers[i].cpus[k].stats;
	}
	if (!first)
		return;
	first[m->nbuffers] = rep->ncpus;
	/* Each declared extent goes to the CPU it describes; a CPU with no page kept gets an entry of its own. */
	for (size_t x = 0; x < m->nextents; x++) {
		const struct rp_extent *e = &m->extents[x];
		if (e->buffer >= m->nbuffers)
			continue;
		struct tfk_salvage_cpu *c = NULL;
		for (size_t k = first[e->buffer]; k < first[e->buffer + 1] && !c; k++)
			if (rep->cpus[k].cpu == e->cpu && !rep->cpus[k].bytes_declared)
				c = &rep->cpus[k];
		if (!c) {
			c = &rep->cpus[rep->ncpus++];
			memset(c, 0, sizeof(*c));
			c->cpu = e->cpu;
			snprintf(c->buffer, sizeof(c->buffer), "%s", m->buffers[e->buffer].name);
		}
		apply_extent(c, e, m->buffers[e->buffer].page_size);
	}
	free(first);
}

/* One repair: the model the input's check built, and the output laid out from it. */
struct job {
	struct rp_model m;
	struct rp_out out;         /* a trace.dat: segments */
	struct rp_blob perf;       /* a perf.data: made whole */
	bool laid_out;
};

/*
 * Check the input (a file mapping when mapped) while building the model, and lay out the
 * output. False when there is nothing to write; rep->outcome then says why.
 */
static bool plan(const uint8_t *in, size_t size, const struct tfk_limits *limits, int in_fd, struct job *j,
		 struct tfk_repair_report *rep)
{
	const bool mapped = in_fd >= 0;
	struct tfk_mapped_source whole = { 0, size, in_fd, 0 };
	/*
	 * Pages out of a decoder (compressed v7) must be copied to be kept: gigabytes, for a file
	 * that may well be clean. The first pass keeps no copies; only when the input turns out
	 * damaged and had such pages is it checked again, copying them.
	 */
	for (int pass = 0; pass < 2; pass++) {
		j->m.input = in;
		j->m.input_size = size;
		j->m.defer_spill = pass == 0;
		struct tfk_observer obs = rp_model_observer(&j->m);
		if (mapped)
			tfk_check_mapping_sources(in, size, &whole, 1, limits, &obs, &rep->before);
		else
			tfk_check_buffer_observed(in, size, limits, &obs, &rep->before);
		if (!j->m.spill_deferred || tfk_report_verdict(&rep->before) == TFK_VERDICT_CLEAN)
			break;
		tfk_report_free(&rep->before);
		rp_model_free(&j->m);
		memset(&j->m, 0, sizeof(j->m));
	}
	collect_stats(rep, &j->m);
	if (!repairable(&rep->before)) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		return false;
	}
	/*
	 * A perf.data with no error (notes and warnings only, or a part this build could not check,
	 * such as another writer's dialect) is left as it is: repair never changes a good file.
	 */
	if (tfk_report_verdict(&rep->before) == TFK_VERDICT_CLEAN ||
	    (j->m.have_perf && !rep->before.by_severity[TFK_SEV_ERROR] && !rep->before.internal_error)) {
		rep->outcome = TFK_REPAIR_NOTHING_TO_DO;
		return false;
	}
	if (j->m.have_perf && rep->before.incomplete) {
		/* What was not checked would be copied unchecked: the output could not re-check clean. */
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "part of it could not be checked (another writer's own records or features, or a limit), "
			      "so no repaired copy could be proven";
		return false;
	}
	if (j->m.have_perf) {
		if (repair_perf(in, size, &j->m, rep, &j->perf) != 0) {
			rep->outcome = TFK_REPAIR_UNSUPPORTED;
			rep->reason = !j->m.perf.pipe && !j->m.perf.attrs_ok
					      ? "the event attributes could not be proven, and perf reads no record without them"
					      : "the perf.data layout could not be proven";
			return false;
		}
		return j->laid_out = true;
	}
	if (!j->m.have_geometry || j->m.oom) {
		/* Nothing about the ring pages could be proven: there is nothing to write. */
		rep->outcome = j->m.oom ? TFK_REPAIR_FAILED : TFK_REPAIR_UNSUPPORTED;
		rep->reason = "no page layout could be proven";
		return false;
	}
	if (j->m.geo.version == 7)
		snprintf(rep->converted, sizeof(rep->converted), "%s -> v6", rep->before.stats.format);
	if (rp_write_v6(&j->m, &j->out) != 0) {
		rep->outcome = TFK_REPAIR_FAILED;
		return false;
	}
	return j->laid_out = true;
}

/* After the re-check of the output (rep->after): the outcome and what the salvage report says. */
static void conclude(const struct job *j, struct tfk_repair_report *rep)
{
	const struct rp_model *m = &j->m;
	if (tfk_report_verdict(&rep->after) != TFK_VERDICT_CLEAN) {
		rep->outcome = TFK_REPAIR_FAILED;
	} else {
		uint64_t events_in = 0;
		for (size_t i = 0; i < rep->ncpus; i++)
			events_in += rep->cpus[i].events_kept;
		/* An output without a single event (or latency text) is of no use to a reader, however
		 * much metadata it keeps: nothing was salvaged. perf.data: without a sample it holds
		 * nothing perf report or script would show. */
		bool latency_kept = false;
		for (size_t i = 0; i < m->nbuffers; i++)
			latency_kept |= m->buffers[i].latency && m->buffers[i].latency_text.len > 0;
		bool none_kept = m->have_perf ? m->perf.samples_kept == 0 : events_in == 0 && !latency_kept;
		rep->outcome = none_kept ? TFK_REPAIR_NOTHING_SALVAGED : TFK_REPAIR_DONE;
	}
	rep->metadata_lost = m->have_perf ? perf_tracing_lost(&m->perf) : !m->have_header_page || !m->have_header_event;
	for (size_t i = 0; i < rep->before.count && !m->have_perf; i++)
		rep->options_dropped += strncmp(rep->before.findings[i].fault->id, "tracedat.option.", 16) == 0;
}

static void job_free(struct job *j)
{
	rp_out_free(&j->out);
	free(j->perf.data);
	rp_model_free(&j->m);
}

void tfk_repair_buffer(const uint8_t *in, size_t size, const struct tfk_limits *limits, uint8_t **out, size_t *out_len,
		       struct tfk_repair_report *rep)
{
	struct job j;
	memset(rep, 0, sizeof(*rep));
	memset(&j, 0, sizeof(j));
	*out = NULL;
	*out_len = 0;
	if (plan(in, size, limits, -1, &j, rep)) {
		uint8_t *data = NULL;
		size_t len = 0;
		if (j.m.have_perf) {
			data = j.perf.data;
			len = j.perf.len;
			j.perf.data = NULL;
		} else if (rp_out_to_buffer(&j.out, &data) == 0) {
			len = (size_t)j.out.len;
		}
		if (!data) {
			rep->outcome = TFK_REPAIR_FAILED;
		} else {
			tfk_check_buffer(data, len, limits, &rep->after);
			conclude(&j, rep);
			*out = data;
			*out_len = len;
		}
	}
	job_free(&j);
}

/* Re-check what out_fd now holds, through a mapping of it. */
static void recheck_fd(int fd, uint64_t len, const struct tfk_limits *limits, struct tfk_report *after)
{
	void *p = len && len <= SIZE_MAX ? mmap(NULL, (size_t)len, PROT_READ, MAP_SHARED, fd, 0) : MAP_FAILED;
	if (p == MAP_FAILED) {
		tfk_check_buffer(NULL, 0, limits, after); /* not a trace: the outcome is FAILED */
		return;
	}
	struct tfk_mapped_source self = { 0, len, fd, 0 }; /* ring pages are read back by descriptor */
	tfk_check_mapping_sources(p, (size_t)len, &self, 1, limits, NULL, after);
	munmap(p, (size_t)len);
}

/* Check the laid-out output without storing it. */
static void recheck_view(const struct job *j, const uint8_t *in, size_t size, int in_fd,
			 const struct tfk_limits *limits, struct tfk_report *after)
{
	if (j->m.have_perf) {
		tfk_check_buffer(j->perf.data, j->perf.len, limits, after);
		return;
	}
	struct tfk_mapped_source *sources;
	size_t nsources;
	const uint8_t *view = rp_out_view(&j->out, in, size, in_fd, &sources, &nsources);
	if (view) {
		tfk_check_mapping_sources(view, (size_t)j->out.len, sources, nsources, limits, NULL, after);
		rp_out_view_free(view, j->out.len);
		free(sources);
		return;
	}
	uint8_t *data; /* no memory file here: the plain way */
	if (rp_out_to_buffer(&j->out, &data) == 0) {
		tfk_check_buffer(data, (size_t)j->out.len, limits, after);
		free(data);
	} else {
		tfk_check_buffer(NULL, 0, limits, after);
	}
}

void tfk_repair_file(const char *path, int out_fd, const struct tfk_limits *limits, uint64_t *out_len,
		     struct tfk_repair_report *rep)
{
	struct job j;
	memset(rep, 0, sizeof(*rep));
	memset(&j, 0, sizeof(j));
	*out_len = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *in = MAP_FAILED;
	if (fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 && (uint64_t)st.st_size <= SIZE_MAX)
		in = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (in == MAP_FAILED) {
		/* Unreadable, empty, or a directory: the check says which; nothing can be written. A
		 * directory that checks clean has nothing to repair (and nothing is copied). */
		tfk_check_file(path, limits, &rep->before);
		bool dir = fd >= 0 && S_ISDIR(st.st_mode);
		rep->outcome = dir && tfk_report_verdict(&rep->before) == TFK_VERDICT_CLEAN ? TFK_REPAIR_NOTHING_TO_DO
											: TFK_REPAIR_UNSUPPORTED;
		if (dir && rep->outcome == TFK_REPAIR_UNSUPPORTED)
			rep->reason = "the repair of a trace directory is not built yet";
		if (fd >= 0)
			close(fd);
		return;
	}
	const size_t size = (size_t)st.st_size;
	const uint8_t *data = in;
	if (plan(data, size, limits, fd, &j, rep)) {
		if (out_fd < 0) {
			recheck_view(&j, data, size, fd, limits, &rep->after);
			*out_len = j.m.have_perf ? j.perf.len : j.out.len;
			conclude(&j, rep);
		} else {
			int rc = j.m.have_perf ? rp_write_all(out_fd, j.perf.data, j.perf.len) : rp_out_to_fd(&j.out, out_fd);
			*out_len = j.m.have_perf ? j.perf.len : j.out.len;
			if (rc != 0) {
				rep->outcome = TFK_REPAIR_FAILED;
				rep->write_error = errno ? errno : EIO;
			} else {
				recheck_fd(out_fd, *out_len, limits, &rep->after);
				conclude(&j, rep);
			}
		}
	} else if (rep->outcome == TFK_REPAIR_NOTHING_TO_DO && out_fd >= 0) {
		if (rp_write_all(out_fd, data, size) != 0) {
			rep->outcome = TFK_REPAIR_FAILED;
			rep->write_error = errno ? errno : EIO;
		}
		*out_len = size;
	}
	job_free(&j);
	munmap(in, size);
	close(fd);
}

void tfk_repair_report_free(struct tfk_repair_report *rep)
{
	tfk_report_free(&rep->before);
	tfk_report_free(&rep->after);
	free(rep->cpus);
	rep->cpus = NULL;
	rep->ncpus = 0;
}
