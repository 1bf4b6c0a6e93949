/* SPDX-License-Identifier: MIT */
/* tfk_raise: a fault raised from a format's problem context (context.h), its path rendered here. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "context.h"
#include "sanitize.h"

/* tmpl with its values, as snprintf would have written the same path (cut at size - 1). */
static size_t render(char *out, size_t size, const struct tfk_pctx *pc, const char *what)
{
	size_t n = 0, si = 0, ni = 0;
	const char *t = pc->tmpl;
#define PUT(...)                                                                  \
	do {                                                                      \
		int w_ = snprintf(out + n, size - n, __VA_ARGS__);                \
		n = w_ < 0 ? n : (size_t)w_ >= size - n ? size - 1 : n + (size_t)w_; \
	} while (0)
	for (; t && *t && n + 1 < size; t++) {
		if (t[0] != '%' || !t[1]) {
			out[n++] = *t;
			continue;
		}
		t++;
		if (*t == 's' && si < 3) {
			PUT("%s", pc->str[si] ? pc->str[si] : "");
			si++;
		} else if (*t == 'u' && ni < 3) {
			PUT("%" PRIu64, pc->num[ni]);
			ni++;
		} else if (*t == 'x' && ni < 3) {
			PUT("%" PRIx64, pc->num[ni]);
			ni++;
		} else {
			out[n++] = *t;
		}
	}
	if (what && n + 1 < size)
		PUT("%s%s", pc->tmpl ? " " : "", what);
#undef PUT
	out[n] = '\0';
	return n;
}

struct tfk_finding *tfk_raise(struct tfk_ctx *ctx, const struct tfk_pctx *pc, enum tfk_fault_code code,
			      uint64_t offset, uint64_t length, const char *what)
{
	struct tfk_finding *f = pc->place ? tfk_emit_in(ctx, pc->place, code, offset, length)
					  : tfk_emit(ctx, code, offset, length);
	if (!f)
		return NULL;
	if (pc->tmpl || what) {
		char tmp[512];
		size_t n = render(tmp, sizeof(tmp), pc, what);
		tfk_sanitize_text(f->path, sizeof(f->path), tmp, n, false);
	}
	if (pc->found_bytes)
		tfk_set_found_bytes(f, pc->found_bytes, pc->found_len);
	return f;
}
