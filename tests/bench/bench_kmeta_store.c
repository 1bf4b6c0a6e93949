/* SPDX-License-Identifier: MIT */
/*
 * The stored copy of a kernel's metadata: one zstd frame of "name\0text\0" entries, in order:
 * origin, uname, header_page, header_event, one "format SYSTEM" per format, kallsyms,
 * printk_formats. Kernel texts hold no NUL byte, so none needs escaping.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "bench_kmeta.h"

struct entries {
	char *buf;
	size_t len, cap;
};

static int put(struct entries *e, const char *name, const char *text)
{
	size_t a = strlen(name) + 1, b = strlen(text) + 1;
	if (e->len + a + b > e->cap) {
		size_t cap = e->cap ? e->cap : 1u << 20;
		while (cap < e->len + a + b)
			cap *= 2;
		char *p = realloc(e->buf, cap);
		if (!p)
			return -1;
		e->buf = p;
		e->cap = cap;
	}
	memcpy(e->buf + e->len, name, a);
	memcpy(e->buf + e->len + a, text, b);
	e->len += a + b;
	return 0;
}

int kmeta_store(const struct kmeta *m, const char *path)
{
	struct entries e = { 0 };
	const char *const head[][2] = { { "origin", m->origin }, { "uname", m->uname },
					{ "header_page", m->header_page }, { "header_event", m->header_event } };
	int rc = 0;
	for (size_t i = 0; i < 4 && rc == 0; i++)
		rc = put(&e, head[i][0], head[i][1]);
	char name[256];
	for (size_t i = 0; i < m->nformats && rc == 0; i++) {
		snprintf(name, sizeof(name), "format %s", m->formats[i].system);
		rc = put(&e, name, m->formats[i].text);
	}
	if (rc == 0)
		rc = put(&e, "kallsyms", m->kallsyms);
	if (rc == 0)
		rc = put(&e, "printk_formats", m->printk);
	size_t bound = ZSTD_compressBound(e.len);
	char *z = rc == 0 ? malloc(bound) : NULL;
	size_t zlen = z ? ZSTD_compress(z, bound, e.buf, e.len, 19) : 0;
	FILE *f = z && !ZSTD_isError(zlen) ? fopen(path, "wb") : NULL;
	rc = f && fwrite(z, 1, zlen, f) == zlen ? 0 : -1;
	if (f && fclose(f) != 0)
		rc = -1;
	free(z);
	free(e.buf);
	return rc;
}

/* The text of an entry into *slot (a copy), when name is the one expected there. */
static int take(char **slot, const char *name, const char *want, const char *text)
{
	if (strcmp(name, want) != 0)
		return 0;
	free(*slot);
	*slot = strdup(text);
	return *slot ? 1 : -1;
}

static int parse(struct kmeta *m, const char *buf, size_t len)
{
	char *origin = NULL;
	size_t at = 0;
	while (at < len) {
		const char *name = buf + at, *nul = memchr(name, 0, len - at);
		if (!nul || (size_t)(nul + 1 - buf) >= len)
			return -1;
		const char *text = nul + 1, *end = memchr(text, 0, len - (size_t)(text - buf));
		if (!end)
			return -1;
		at = (size_t)(end + 1 - buf);
		int got = take(&origin, name, "origin", text);
		got = got ? got : take(&m->uname, name, "uname", text);
		got = got ? got : take(&m->header_page, name, "header_page", text);
		got = got ? got : take(&m->header_event, name, "header_event", text);
		got = got ? got : take(&m->kallsyms, name, "kallsyms", text);
		got = got ? got : take(&m->printk, name, "printk_formats", text);
		if (!got && strncmp(name, "format ", 7) == 0)
			got = kmeta_add_format(m, name + 7, text) == 0 ? 1 : -1;
		if (got < 0) {
			free(origin);
			return -1;
		}
	}
	snprintf(m->origin, sizeof(m->origin), "stored copy: %s", origin ? origin : "(no origin)");
	free(origin);
	return m->uname && m->header_page && m->header_event && m->kallsyms && m->printk && m->nformats ? 0 : -1;
}

int kmeta_load(struct kmeta *m, const char *path)
{
	memset(m, 0, sizeof(*m));
	size_t zlen;
	char *z = kmeta_read_file(path, &zlen);
	if (!z)
		return -1;
	unsigned long long len = ZSTD_getFrameContentSize(z, zlen);
	char *buf = len < (1ull << 31) ? malloc((size_t)len + 1) : NULL;
	int rc = -1;
	if (buf && ZSTD_decompress(buf, (size_t)len, z, zlen) == len)
		rc = parse(m, buf, (size_t)len);
	free(buf);
	free(z);
	if (rc != 0)
		kmeta_free(m);
	return rc;
}
