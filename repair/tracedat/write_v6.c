/* SPDX-License-Identifier: MIT */
/*
 * Serialising a salvage model as trace.dat version 6: every table and count regenerated from
 * what is kept, offsets recomputed, the layout trace-cmd's own writer produces.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "output.h"

static size_t align_up(size_t x, size_t a)
{
	return (x + a - 1) / a * a;
}

/* header_page / header_event texts for the page layout, when the input's were lost. */
static void default_header_page(const struct tfk_geometry *g, char *buf, size_t n)
{
	snprintf(buf, n,
		 "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		 "\tfield: local_t commit;\toffset:8;\tsize:%u;\tsigned:1;\n"
		 "\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		 "\tfield: char data;\toffset:%u;\tsize:%u;\tsigned:0;\n",
		 g->commit_size, g->data_offset, g->page_size - g->data_offset);
}

static const char default_header_event[] =
	"# compressed entry header\n\ttype_len    :    5 bits\n\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
	"\tpadding     : type == 29\n\ttime_extend : type == 30\n\ttime_stamp : type == 31\n\tdata max type_len  == 28\n";

/* Options trace-cmd v6 readers understand, minus those this writer regenerates. */
static bool keep_option(uint16_t id)
{
	return id != 0 && id != 3 && id != 8 && id <= 14;
}

/* CPUs in the tables: every CPU seen, and no fewer than a valid CPUCOUNT option said. */
static uint32_t cpu_count(const struct rp_model *m)
{
	uint32_t n = 0;
	for (size_t i = 0; i < m->noptions; i++) {
		const struct rp_blob *p = &m->options[i].payload;
		if (m->options[i].id != 8 || p->len != 4)
			continue;
		uint32_t v = 0;
		for (unsigned k = 0; k < 4; k++)
			v |= (uint32_t)p->data[k] << (m->geo.big_endian ? 8 * (3 - k) : 8 * k);
		if (v <= 8192 && v > n)
			n = v; /* the checker proved it against the table, or found no table to prove it by */
	}
	for (size_t i = 0; i < m->nbuffers; i++)
		for (size_t k = 0; k < m->buffers[i].ncpus; k++)
			if (m->buffers[i].cpus[k].cpu + 1 > n)
				n = m->buffers[i].cpus[k].cpu + 1;
	return n;
}

/* The kept pages of CPU `cpu` in buffer b, or NULL. */
static const struct rp_cpu *find_cpu(const struct rp_buffer *b, uint32_t cpu)
{
	for (size_t k = 0; k < b->ncpus; k++)
		if (b->cpus[k].cpu == cpu && b->cpus[k].npages)
			return &b->cpus[k];
	return NULL;
}

/*
 * One kept page at the file's page size: the input's own bytes when they are what the page
 * must hold, else rebuilt: the timestamp and header bytes, the commit word, the valid data,
 * the stored missed count, zeros. extra_flags are ORed into the commit.
 */
static void put_page(struct rp_out *o, const struct tfk_geometry *g, const uint8_t *src, const struct rp_page *p,
		     uint64_t extra_flags)
{
	const uint32_t ps = g->page_size, d = g->data_offset, cw = g->commit_size;
	if (p->verbatim && !extra_flags && p->size == ps) {
		rp_out_keep(o, src, ps);
		return;
	}
	uint8_t *page = rp_out_space(o, ps);
	if (!page)
		return;
	memcpy(page, src, 8); /* timestamp */
	rp_put_num(page + 8, p->commit | extra_flags, cw, o->be);
	if (d > 8 + cw)
		memcpy(page + 8 + cw, src + 8 + cw, d - 8 - cw);
	memcpy(page + d, src + d, p->len);
	if (p->commit & (1ull << 30))
		rp_put_num(page + d + p->len, p->missed_count, cw, o->be);
}

/*
 * A CPU's kept pages. v6 has one page size for every buffer (the file header's); a v7
 * instance may have used another. Smaller pages are zero-padded; a larger page is kept
 * when its data fits the file's page, else dropped with the loss flagged on the next page.
 */
static void put_pages(struct rp_out *o, const struct rp_model *m, const struct rp_cpu *cpu)
{
	const struct tfk_geometry *g = &m->geo;
	bool missed = false;
	for (size_t i = 0; i < cpu->npages; i++) {
		const struct rp_page *p = &cpu->pages[i];
		uint64_t used = g->data_offset + p->len + (p->commit & (1ull << 30) ? g->commit_size : 0);
		if (used > g->page_size) {
			missed = true;
			continue;
		}
		put_page(o, g, rp_page_bytes(cpu, p), p, missed ? 1ull << 31 : 0);
		missed = false;
	}
}

static void flyrecord(struct rp_out *o, const struct rp_model *m, const struct rp_buffer *b, uint32_t ncpus)
{
	rp_out_put(o, "flyrecord", 10);
	size_t table = rp_out_mark(o);
	for (uint32_t c = 0; c < ncpus; c++) {
		rp_out_num(o, 0, 8);
		rp_out_num(o, 0, 8);
	}
	const char *clock = b->clock[0] ? b->clock : m->trace_clock[0] ? m->trace_clock : "local";
	char trailer[40];
	int n = snprintf(trailer, sizeof(trailer), "[%s]", clock);
	rp_out_num(o, (uint64_t)n, 8);
	rp_out_put(o, trailer, (size_t)n);
	for (uint32_t c = 0; c < ncpus; c++) {
		rp_out_zeros_to(o, align_up(o->len, m->geo.page_size));
		const struct rp_cpu *cpu = find_cpu(b, c);
		uint64_t off = o->len;
		if (cpu)
			put_pages(o, m, cpu);
		rp_out_patch(o, table + 16 * c, off, 8);
		rp_out_patch(o, table + 16 * c + 8, o->len - off, 8);
	}
}

static void sized(struct rp_out *o, const struct rp_blob *b, unsigned width)
{
	rp_out_num(o, b->len, width);
	rp_out_put(o, b->data, b->len);
}

int rp_write_v6(const struct rp_model *m, struct rp_out *result)
{
	struct rp_out *o = result;
	const struct tfk_geometry *g = &m->geo;
	char text[512];
	memset(result, 0, sizeof(*result));
	o->be = g->big_endian;
	rp_out_put(o, "\x17\x08\x44tracing", 10);
	rp_out_put(o, "6", 2);
	uint8_t b = g->big_endian ? 1 : 0;
	rp_out_put(o, &b, 1);
	b = g->long_size == 4 ? 4 : 8;
	rp_out_put(o, &b, 1);
	rp_out_num(o, g->page_size, 4);

	rp_out_put(o, "header_page", 12);
	if (m->have_header_page) {
		sized(o, &m->header_page, 8);
	} else {
		default_header_page(g, text, sizeof(text));
		struct rp_blob t = { (uint8_t *)text, strlen(text), 0 };
		sized(o, &t, 8);
	}
	rp_out_put(o, "header_event", 13);
	if (m->have_header_event) {
		sized(o, &m->header_event, 8);
	} else {
		struct rp_blob t = { (uint8_t *)(uintptr_t)default_header_event, strlen(default_header_event), 0 };
		sized(o, &t, 8);
	}
	rp_out_num(o, m->ftrace.n, 4);
	for (size_t i = 0; i < m->ftrace.n; i++)
		sized(o, &m->ftrace.items[i], 8);
	rp_out_num(o, m->nsystems, 4);
	for (size_t i = 0; i < m->nsystems; i++) {
		rp_out_put(o, m->systems[i].name.data, m->systems[i].name.len);
		rp_out_put(o, "", 1);
		rp_out_num(o, m->systems[i].formats.n, 4);
		for (size_t k = 0; k < m->systems[i].formats.n; k++)
			sized(o, &m->systems[i].formats.items[k], 8);
	}
	sized(o, &m->kallsyms, 4);
	sized(o, &m->printk, 4);
	sized(o, &m->cmdlines, 8);

	uint32_t ncpus = cpu_count(m);
	rp_out_num(o, ncpus, 4);
	rp_out_put(o, "options  ", 10);
	for (size_t i = 0; i < m->noptions; i++) {
		if (!keep_option(m->options[i].id))
			continue;
		rp_out_num(o, m->options[i].id, 2);
		sized(o, &m->options[i].payload, 4);
	}
	rp_out_num(o, 8, 2);
	rp_out_num(o, 4, 4);
	rp_out_num(o, ncpus, 4);
	/* One BUFFER option per instance: offset patched once its flyrecord block is placed. */
	size_t *patch = calloc(m->nbuffers ? m->nbuffers : 1, sizeof(*patch));
	if (!patch) {
		rp_out_free(result);
		return -1;
	}
	/*
	 * v6 latency text runs to the end of the file, so it cannot share a file with ring
	 * pages: when any flyrecord buffer survives, latency buffers are left out.
	 */
	bool have_flyrecord = false;
	for (size_t i = 0; i < m->nbuffers; i++)
		have_flyrecord |= !m->buffers[i].latency;
	const struct rp_buffer *top = NULL;
	for (size_t i = 0; i < m->nbuffers; i++) {
		const struct rp_buffer *buf = &m->buffers[i];
		if (buf->latency && (have_flyrecord || top))
			continue;
		if (!buf->name[0] && !top) {
			top = buf;
			continue;
		}
		size_t nlen = strlen(buf->name);
		rp_out_num(o, 3, 2);
		rp_out_num(o, 8 + nlen + 1, 4);
		patch[i] = rp_out_mark(o);
		rp_out_num(o, 0, 8);
		rp_out_put(o, buf->name, nlen + 1);
	}
	rp_out_num(o, 0, 2);

	if (top && top->latency) {
		rp_out_put(o, "latency  ", 10);
		rp_out_put(o, top->latency_text.data, top->latency_text.len);
	} else {
		struct rp_buffer empty;
		memset(&empty, 0, sizeof(empty));
		flyrecord(o, m, top ? top : &empty, ncpus);
	}
	for (size_t i = 0; i < m->nbuffers; i++) {
		const struct rp_buffer *buf = &m->buffers[i];
		if (buf == top || (buf->latency && (have_flyrecord || top)))
			continue;
		rp_out_patch(o, patch[i], o->len, 8);
		if (buf->latency) {
			rp_out_put(o, "latency  ", 10);
			rp_out_put(o, buf->latency_text.data, buf->latency_text.len);
		} else {
			flyrecord(o, m, buf, ncpus);
		}
	}
	free(patch);
	if (o->oom) {
		rp_out_free(result);
		return -1;
	}
	return 0;
}
