/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: any bytes as CTF 2 metadata (an RS put first when they lack one), through the
 * JSON metadata reader and the fragment checks alone: the bounded JSON reader (depth, string
 * length, number range, duplicate keys, UTF-8, bytes after an object, a cut fragment), the
 * requirements of each fragment and the model built from them. No file, no directory.
 * Oracles: the report stays within its limits and its counts agree; every finding is a CTF
 * metadata code (or a core limit) at an offset inside the text; the ranges repair would leave
 * out lie inside the text, in order; every fragment the reader returns is a JSON object whose
 * values lie inside its fragment; the same text gives the same findings twice.
 * Seeds: corpus/ctf2json, small CTF 2 metadata written for it.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "formats/ctf/ctf.h"
#include "formats/ctf/ctf_json.h"
#include "fuzz_assert.h"
#include "tracefsck/tracefsck.h"

struct result {
	struct tfk_report r;
	bool usable;
	uint32_t ndrops;
	uint64_t drop_from[TFK_CTF_MAX_DROPS], drop_to[TFK_CTF_MAX_DROPS];
};

static void check_text(const uint8_t *text, size_t len, struct result *out)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_ctx ctx;
	memset(out, 0, sizeof(*out));
	tfk_ctx_init(&ctx, &lim, &out->r);
	struct ctf_meta *meta = calloc(1, sizeof(*meta));
	FUZZ_ASSERT(meta);
	meta->arena.ctx = &ctx;
	struct tfk_cursor c = tfk_cur_make(text, len, 0, false);
	ctf_check_metadata(&ctx, &c, meta);
	out->usable = meta->usable;
	out->ndrops = meta->ctf2_ndrops;
	memcpy(out->drop_from, meta->ctf2_drop_from, sizeof(out->drop_from));
	memcpy(out->drop_to, meta->ctf2_drop_to, sizeof(out->drop_to));
	ctf_meta_free(meta);
	free(meta);
}

/* Every value of a tree inside [from, to), depth bounded; the count of values. */
static uint64_t walk(const struct cj_value *v, size_t from, size_t to, unsigned depth)
{
	FUZZ_ASSERT(depth <= CJ_MAX_DEPTH + 1 && v->at >= from && v->at < to);
	FUZZ_ASSERT(v->kind != CJ_STRING || (v->s && v->len <= CJ_MAX_STRING && v->s[v->len] == 0));
	uint64_t n = 1, items = 0;
	for (const struct cj_value *c = v->first; c; c = c->next, items++) {
		FUZZ_ASSERT(v->kind == CJ_ARRAY || v->kind == CJ_OBJECT);
		FUZZ_ASSERT(v->kind != CJ_OBJECT || (c->key && c->key_at >= from && c->key_at < c->at));
		n += walk(c, from, to, depth + 1);
	}
	FUZZ_ASSERT(items == v->n);
	return n;
}

/* The reader alone on each fragment: an object or NULL, its values inside the fragment. */
static void fragments(const uint8_t *text, size_t len)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_report r;
	struct tfk_ctx ctx;
	memset(&r, 0, sizeof(r));
	tfk_ctx_init(&ctx, &lim, &r);
	struct ctf_arena arena = { 0 };
	arena.ctx = &ctx;
	const struct ctf_text t = { (const char *)text, len, NULL, NULL, 0 };
	struct cj_budget budget = { 0 };
	uint64_t values = 0;
	for (size_t at = 0, index = 0; at < len; index++) {
		const uint8_t *next = memchr(text + at + 1, 0x1e, len - at - 1);
		const size_t to = next ? (size_t)(next - text) : len;
		bool cut = false;
		size_t trailing = to;
		const struct cj_value *o = ctf_json_fragment(&ctx, &arena, &t, at + 1, to, index, &budget, &cut, &trailing);
		FUZZ_ASSERT(!cut || to == len);
		FUZZ_ASSERT(trailing <= to && trailing > at);
		if (o) {
			FUZZ_ASSERT(o->kind == CJ_OBJECT && !cut);
			values += walk(o, at + 1, trailing, 1);
		}
		at = to;
	}
	FUZZ_ASSERT(values <= budget.values && budget.values <= CJ_MAX_VALUES);
	free(budget.scratch);
	ctf_arena_free(&arena);
	tfk_report_free(&r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	const size_t n = size && data[0] == 0x1e ? 0 : 1;
	uint8_t *text = malloc(n + size + 1);
	FUZZ_ASSERT(text);
	text[0] = 0x1e;
	if (size)
		memcpy(text + n, data, size);
	const size_t len = n + size;
	fragments(text, len);
	struct result a, b;
	check_text(text, len, &a);
	const struct tfk_limits lim = tfk_limits_default();
	FUZZ_ASSERT(a.r.count <= lim.max_findings && a.r.total >= a.r.count);
	FUZZ_ASSERT(a.r.by_severity[0] + a.r.by_severity[1] + a.r.by_severity[2] == a.r.total);
	for (size_t i = 0; i < a.r.count; i++) {
		const struct tfk_finding *f = &a.r.findings[i];
		FUZZ_ASSERT(f->fault && tfk_catalog_find(f->fault->id) == f->fault);
		FUZZ_ASSERT(strncmp(f->fault->id, "ctf.metadata.", 13) == 0 || strncmp(f->fault->id, "core.", 5) == 0);
		FUZZ_ASSERT(!f->has_offset || f->offset <= len);
		FUZZ_ASSERT(memchr(f->path, 0, sizeof(f->path)) && memchr(f->found, 0, sizeof(f->found)));
	}
	uint64_t last = 0;
	for (uint32_t i = 0; i < a.ndrops; i++) {
		FUZZ_ASSERT(a.drop_from[i] >= last && a.drop_from[i] < a.drop_to[i] && a.drop_to[i] <= len);
		last = a.drop_to[i];
	}
	if (fuzz_sampled(fuzz_input_hash(data, size), 0, 4)) {
		check_text(text, len, &b);
		FUZZ_ASSERT(a.r.count == b.r.count && a.r.total == b.r.total && a.usable == b.usable && a.ndrops == b.ndrops);
		for (size_t i = 0; i < a.r.count; i++)
			FUZZ_ASSERT(a.r.findings[i].fault == b.r.findings[i].fault &&
				    a.r.findings[i].offset == b.r.findings[i].offset &&
				    strcmp(a.r.findings[i].found, b.r.findings[i].found) == 0);
		tfk_report_free(&b.r);
	}
	tfk_report_free(&a.r);
	free(text);
	return 0;
}
