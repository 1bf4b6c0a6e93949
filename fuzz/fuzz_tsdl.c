/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: any bytes as the text of a CTF 1.8 metadata file (after the plain-text
 * signature), through the metadata check alone: the TSDL lexer, the parser with its
 * resynchronisation, the semantic checks and the model the streams would be decoded with.
 * No file, no directory: thousands of texts a second reach the grammar that fuzz_ctf's
 * containers reach only through their metadata member. Oracles: the report stays within its
 * limits and its counts agree; every finding is a CTF metadata code (or a core limit) at an
 * offset inside the text; the same text gives the same findings twice; a model said usable
 * (streams would be decoded with it) comes with no syntax finding.
 * Seeds: corpus/tsdl, the TSDL texts of fuzz/scripts/ctf_seeds.py's traces.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "formats/ctf/ctf.h"
#include "fuzz_assert.h"
#include "tracefsck/tracefsck.h"

static const char signature[] = "/* CTF 1.8 */\n";

static void check_text(const uint8_t *text, size_t len, struct tfk_report *r, bool *usable)
{
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_ctx ctx;
	memset(r, 0, sizeof(*r));
	tfk_ctx_init(&ctx, &lim, r);
	struct ctf_meta *meta = calloc(1, sizeof(*meta));
	FUZZ_ASSERT(meta);
	meta->arena.ctx = &ctx;
	struct tfk_cursor c = tfk_cur_make(text, len, 0, false);
	ctf_check_metadata(&ctx, &c, meta);
	*usable = meta->usable;
	ctf_meta_free(meta);
	free(meta);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size > 65536)
		return 0;
	const size_t n = sizeof(signature) - 1;
	uint8_t *text = malloc(n + size + 1);
	FUZZ_ASSERT(text);
	memcpy(text, signature, n);
	if (size)
		memcpy(text + n, data, size);
	struct tfk_report a, b;
	bool usable_a, usable_b;
	check_text(text, n + size, &a, &usable_a);
	const struct tfk_limits lim = tfk_limits_default();
	FUZZ_ASSERT(a.count <= lim.max_findings && a.total >= a.count);
	FUZZ_ASSERT(a.by_severity[0] + a.by_severity[1] + a.by_severity[2] == a.total);
	for (size_t i = 0; i < a.count; i++) {
		const struct tfk_finding *f = &a.findings[i];
		FUZZ_ASSERT(f->fault && tfk_catalog_find(f->fault->id) == f->fault);
		FUZZ_ASSERT(strncmp(f->fault->id, "ctf.metadata.", 13) == 0 || strncmp(f->fault->id, "core.", 5) == 0);
		FUZZ_ASSERT(!f->has_offset || f->offset <= n + size);
		FUZZ_ASSERT(memchr(f->path, 0, sizeof(f->path)) && memchr(f->found, 0, sizeof(f->found)));
		FUZZ_ASSERT(!usable_a || strcmp(f->fault->id, "ctf.metadata.syntax") != 0);
	}
	/* Deterministic: the same text, the same findings (on a quarter of the inputs, drawn from a
	 * hash of the input, and on every input of a corpus replay). */
	if (fuzz_sampled(fuzz_input_hash(data, size), 0, 4)) {
		check_text(text, n + size, &b, &usable_b);
		FUZZ_ASSERT(a.count == b.count && a.total == b.total && usable_a == usable_b);
		for (size_t i = 0; i < a.count; i++)
			FUZZ_ASSERT(a.findings[i].fault == b.findings[i].fault && a.findings[i].offset == b.findings[i].offset &&
				    strcmp(a.findings[i].found, b.findings[i].found) == 0);
		tfk_report_free(&b);
	}
	tfk_report_free(&a);
	free(text);
	return 0;
}
