/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: the report sinks fed hostile strings. The input is split at NUL bytes into a
 * file name and the path, expected and found texts of findings. Oracles (always on): output is
 * ASCII with no raw control byte but the line ends, text has one line per finding plus the
 * summary, and JSON Lines always parses.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "json_lines.h"
#include "fuzz_assert.h"
#include "tracefsck/tracefsck.h"


struct buf {
	char *p;
	size_t len, cap;
};

static int collect(void *user, const char *bytes, size_t len)
{
	struct buf *b = user;
	if (b->len + len > b->cap) {
		size_t cap = (b->len + len) * 2;
		char *p = realloc(b->p, cap);
		if (!p)
			return -1;
		b->p = p;
		b->cap = cap;
	}
	memcpy(b->p + b->len, bytes, len);
	b->len += len;
	return 0;
}

/* The next NUL-terminated piece of the input (may be empty), copied. */
static char *piece(const uint8_t **data, size_t *size)
{
	const uint8_t *nul = memchr(*data, 0, *size);
	size_t n = nul ? (size_t)(nul - *data) : *size;
	char *s = malloc(n + 1);
	memcpy(s, *data, n);
	s[n] = '\0';
	*data += nul ? n + 1 : n;
	*size -= nul ? n + 1 : n;
	return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tfk_limits lim = tfk_limits_default();
	lim.max_findings = 16;
	struct tfk_report r;
	memset(&r, 0, sizeof(r));
	struct tfk_ctx ctx;
	tfk_ctx_init(&ctx, &lim, &r);

	char *name = piece(&data, &size);
	/* Policy text from the user: only the three level names parse, and nothing else matches a code. */
	enum tfk_severity sev;
	bool named = tfk_severity_from_name(name, &sev);
	FUZZ_ASSERT(named == (strcmp(name, "note") == 0 || strcmp(name, "warning") == 0 || strcmp(name, "error") == 0));
	struct tfk_policy *pol = tfk_policy_new();
	FUZZ_ASSERT(pol);
	unsigned hits = tfk_policy_disable(pol, name);
	FUZZ_ASSERT(hits == 0 || tfk_catalog_find(name) || (strlen(name) > 2 && strcmp(name + strlen(name) - 2, ".*") == 0));
	tfk_policy_free(pol);
	for (unsigned i = 0; size > 0 && i < 32; i++) {
		char *path = piece(&data, &size), *expected = piece(&data, &size);
		size_t n = size < 40 ? size : 40;
		struct tfk_finding *f = tfk_emit(&ctx, (enum tfk_fault_code)(i % TFK_FAULT_COUNT), i * 4096ull, n);
		tfk_set_path(f, "%s", path);
		tfk_set_expected(f, "%s", expected);
		tfk_set_found_bytes(f, data, n);
		data += n;
		size -= n;
		free(path);
		free(expected);
	}
	struct buf text = { 0 }, json = { 0 };
	FUZZ_ASSERT(tfk_sink_text(&r, name, NULL, collect, &text) == 0);
	FUZZ_ASSERT(tfk_sink_jsonl(&r, name, NULL, collect, &json) == 0);
	size_t lines = 0;
	for (size_t i = 0; i < text.len; i++) {
		unsigned char c = (unsigned char)text.p[i];
		FUZZ_ASSERT(c == '\n' || (c >= 0x20 && c < 0x7f));
		lines += c == '\n';
	}
	FUZZ_ASSERT(lines == r.count + 1);
	size_t jl = 0;
	FUZZ_ASSERT(json_lines_valid(json.p ? json.p : "", json.len, &jl));
	FUZZ_ASSERT(jl == r.count + 1);
	free(text.p);
	free(json.p);
	free(name);
	tfk_report_free(&r);
	return 0;
}
