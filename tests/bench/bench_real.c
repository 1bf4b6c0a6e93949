/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_mix.h"
#include "bench_real.h"

#define REAL_CPUS 2

/* The metadata of m in the fixture writer's terms: ftrace's formats apart, the rest by system. */
struct grouped {
	const char **texts; /* ftrace's first, then every system's in order */
	struct tdw_system *systems;
	struct tdw_metadata meta;
};

static int group(const struct kmeta *m, struct grouped *g)
{
	memset(g, 0, sizeof(*g));
	g->texts = calloc(m->nformats, sizeof(*g->texts));
	g->systems = calloc(m->nformats, sizeof(*g->systems));
	if (!g->texts || !g->systems)
		return -1;
	size_t n = 0;
	for (size_t i = 0; i < m->nformats; i++)
		if (strcmp(m->formats[i].system, "ftrace") == 0)
			g->texts[n++] = m->formats[i].text;
	g->meta.ftrace = g->texts;
	g->meta.nftrace = (uint32_t)n;
	/* the stored and the live copies keep a system's formats together */
	for (size_t i = 0; i < m->nformats; i++) {
		if (strcmp(m->formats[i].system, "ftrace") == 0)
			continue;
		struct tdw_system *last = g->meta.nsystems ? &g->systems[g->meta.nsystems - 1] : NULL;
		if (!last || strcmp(last->name, m->formats[i].system) != 0) {
			last = &g->systems[g->meta.nsystems++];
			last->name = m->formats[i].system;
			last->formats = g->texts + n;
		}
		g->texts[n++] = m->formats[i].text;
		last->nformats++;
	}
	g->meta.systems = g->systems;
	g->meta.header_page = m->header_page;
	g->meta.header_event = m->header_event;
	g->meta.kallsyms = m->kallsyms;
	g->meta.printk = m->printk;
	g->meta.uname = m->uname;
	return 0;
}

/* Page size and long size as the kernel's header_page says ("char data" after the commit word). */
static void page_geometry(const char *header_page, struct tdw_spec *s)
{
	const char *data = strstr(header_page, "char data;");
	const char *off = data ? strstr(data, "offset:") : NULL, *size = data ? strstr(data, "size:") : NULL;
	long o = off ? strtol(off + 7, NULL, 10) : 0, z = size ? strtol(size + 5, NULL, 10) : 0;
	if ((o == 12 || o == 16) && z > 0 && o + z <= 65536) {
		s->long_size = (uint8_t)(o - 8);
		s->page_size = (uint32_t)(o + z);
	}
}

int bench_make_real(enum bench_kind kind, uint64_t mib, const struct kmeta *m, const char *path,
		    struct bench_real_made *made)
{
	return bench_make_real_seeded(kind, mib, m, path, 0x5eed, made);
}

int bench_make_real_seeded(enum bench_kind kind, uint64_t mib, const struct kmeta *m, const char *path,
			   uint64_t seed, struct bench_real_made *made)
{
	struct grouped g = { 0 };
	struct bench_mix *mix = bench_mix_new(m, REAL_CPUS, seed);
	int rc = mix && group(m, &g) == 0 ? 0 : -1;
	if (rc == 0) {
		g.meta.cmdlines = bench_mix_cmdlines(mix);
		struct tdw_spec s = tdw_default_spec();
		s.ncpus = REAL_CPUS;
		page_geometry(m->header_page, &s);
		s.pages_per_cpu = (uint32_t)(mib * 1024 * 1024 / s.page_size / REAL_CPUS);
		s.events_per_page = UINT32_MAX; /* as many as fit: kernel pages are full */
		s.metadata = &g.meta;
		s.source = bench_mix_source(mix);
		bench_spec_kind(&s, kind);
		struct tdw_buf b = { 0 };
		struct tdw_layout L;
		if (seed == 0x5eed)
			fprintf(stderr, "making %s (real-shaped %s, %llu MiB of pages)...\n", path, bench_kind_name(kind),
				(unsigned long long)mib);
		rc = tdw_build(&s, &b, &L) == 0 && tdw_save(&b, path) == 0 ? 0 : -1;
		tdw_free(&b);
		if (rc == 0)
			rc = bench_write_sides(kind, path, &L, REAL_CPUS);
		made->events = L.events;
		made->formats = (uint32_t)m->nformats;
		made->mix_formats = bench_mix_formats(mix, &made->mix_common);
	}
	free(g.texts);
	free(g.systems);
	bench_mix_free(mix);
	return rc;
}
