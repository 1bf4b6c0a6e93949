/* SPDX-License-Identifier: MIT */
/* The kernel metadata model shared by its two sources (tracefs, a stored copy). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_kmeta.h"

int kmeta_add_format(struct kmeta *m, const char *system, const char *text)
{
	if (m->nformats == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 256;
		struct kmeta_format *f = realloc(m->formats, cap * sizeof(*f));
		if (!f)
			return -1;
		m->formats = f;
		m->cap = cap;
	}
	char *s = strdup(system), *t = strdup(text);
	if (!s || !t) {
		free(s);
		free(t);
		return -1;
	}
	m->formats[m->nformats++] = (struct kmeta_format){ s, t };
	return 0;
}

void kmeta_free(struct kmeta *m)
{
	for (size_t i = 0; i < m->nformats; i++) {
		free(m->formats[i].system);
		free(m->formats[i].text);
	}
	free(m->formats);
	free(m->header_page);
	free(m->header_event);
	free(m->kallsyms);
	free(m->printk);
	free(m->uname);
	memset(m, 0, sizeof(*m));
}

char *kmeta_read_file(const char *path, size_t *len)
{
	/* tracefs files report no size: read to the end */
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap + 1);
	while (buf) {
		size_t got = fread(buf + n, 1, cap - n, f);
		n += got;
		if (n < cap) {
			if (ferror(f)) {
				free(buf);
				buf = NULL;
			}
			break;
		}
		char *bigger = realloc(buf, 2 * cap + 1);
		if (!bigger) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = bigger;
		cap *= 2;
	}
	fclose(f);
	if (buf) {
		buf[n] = 0;
		if (len)
			*len = n;
	}
	return buf;
}
