/* SPDX-License-Identifier: MIT */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "context.h"
#include "grow.h"
#include "sanitize.h"
#include "test_hooks.h"
#include "tracefsck/policy.h"
#include "tracefsck/sink.h"

void tfk_ctx_init(struct tfk_ctx *ctx, const struct tfk_limits *limits, struct tfk_report *report)
{
	memset(ctx, 0, sizeof(*ctx));
	ctx->limits = limits;
	ctx->report = report;
	ctx->fd = -1;
	/* The gate's fail-on level travels with the report, so its verdict says "failed" too. */
	report->fail_on_warning = limits && tfk_policy_fail_on(limits->policy) == TFK_SEV_WARNING;
}

/* Do the n bytes at p lie in the file mapping? *at is then their offset in it. */
static bool in_map(const struct tfk_ctx *ctx, const uint8_t *p, uint64_t n, uint64_t *at)
{
	if (!ctx->map || !p || p < ctx->map || (uint64_t)(p - ctx->map) > ctx->map_size ||
	    n > ctx->map_size - (size_t)(p - ctx->map))
		return false;
	*at = (uint64_t)(p - ctx->map);
	return true;
}

bool tfk_file_offset(const struct tfk_ctx *ctx, const uint8_t *p, uint64_t n, int *fd, uint64_t *offset)
{
	uint64_t at;
	if (!in_map(ctx, p, n, &at))
		return false;
	if (ctx->fd >= 0) {
		*fd = ctx->fd;
		*offset = at;
		return true;
	}
	for (size_t i = 0; i < ctx->nsources; i++) {
		const struct tfk_mapped_source *s = &ctx->sources[i];
		if (s->fd >= 0 && at >= s->offset && at - s->offset <= s->length && n <= s->length - (at - s->offset)) {
			*fd = s->fd;
			*offset = s->file_offset + (at - s->offset);
			return true;
		}
	}
	return false;
}

bool tfk_read_mapped(const struct tfk_ctx *ctx, const uint8_t *p, uint64_t n, uint8_t *buf)
{
	int fd;
	uint64_t at;
	if (!buf || !tfk_file_offset(ctx, p, n, &fd, &at))
		return false;
	for (uint64_t got = 0; got < n;) {
		ssize_t r = pread(fd, buf + got, (size_t)(n - got), (off_t)(at + got));
		if (r <= 0 && !(r < 0 && errno == EINTR))
			return false; /* the file changed under the mapping */
		got += r > 0 ? (uint64_t)r : 0;
	}
	return true;
}

static bool alloc_allowed(struct tfk_ctx *ctx)
{
	ctx->allocations++;
	uint64_t after = TFK_HOOK(ctx->limits, fail_alloc_after);
	if (after && ctx->allocations > after)
		return false;
	return true;
}

void *tfk_calloc(struct tfk_ctx *ctx, size_t count, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(count, size, &bytes) || !alloc_allowed(ctx)) {
		ctx->report->incomplete = true;
		ctx->report->internal_error = true;
		return NULL;
	}
	void *p = calloc(count ? count : 1, size ? size : 1);
	if (!p) {
		ctx->report->incomplete = true;
		ctx->report->internal_error = true;
	}
	return p;
}

void *tfk_calloc_optional(const struct tfk_ctx *ctx, size_t count, size_t size)
{
	size_t bytes;
	if (__builtin_mul_overflow(count, size, &bytes) || TFK_HOOK(ctx->limits, fail_optional_alloc))
		return NULL;
	return calloc(count ? count : 1, size ? size : 1);
}

int tfk_grow(struct tfk_ctx *ctx, void **array, size_t *cap, size_t need, size_t elem_size)
{
	if (need <= *cap)
		return 1;
	if (alloc_allowed(ctx) && tfk_array_grow(array, cap, need, elem_size, 0))
		return 1;
	ctx->report->incomplete = true;
	ctx->report->internal_error = true;
	return 0;
}

void tfk_observe_item(const struct tfk_ctx *ctx, enum tfk_item_kind kind, uint64_t offset, uint64_t length,
		      uint32_t id, const char *name, const char *fmt, va_list ap)
{
	if (!ctx->obs || !ctx->obs->item)
		return;
	struct tfk_item it;
	memset(&it, 0, sizeof(it));
	it.kind = kind;
	it.offset = offset;
	it.length = length;
	it.id = id;
	if (offset & TFK_DECODED_BIT) {
		unsigned slot = (unsigned)((offset & ~TFK_DECODED_BIT) >> TFK_DECODED_SLOT_SHIFT);
		it.decoded = true;
		it.offset = slot < TFK_DECODED_SLOTS ? ctx->decoded_at[slot] : 0;
	}
	tfk_sanitize(it.name, sizeof(it.name), name, strlen(name));
	char tmp[256];
	vsnprintf(tmp, sizeof(tmp), fmt, ap);
	tfk_sanitize(it.detail, sizeof(it.detail), tmp, strlen(tmp));
	ctx->obs->item(ctx->obs->user, &it);
}

void tfk_release(struct tfk_ctx *ctx, const uint8_t *p, uint64_t len)
{
	uint64_t at;
	if (!in_map(ctx, p, len, &at) || !ctx->sys_page)
		return;
	uintptr_t mask = (uintptr_t)ctx->sys_page - 1;
	uintptr_t a = ((uintptr_t)p + mask) & ~mask, b = ((uintptr_t)p + (uintptr_t)len) & ~mask;
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED); /* read-only mapping: nothing is lost */
}

struct tfk_finding *tfk_emit(struct tfk_ctx *ctx, enum tfk_fault_code code, uint64_t offset, uint64_t length)
{
	struct tfk_report *r = ctx->report;
	const struct tfk_fault *fault = tfk_fault_get(code);

	enum tfk_severity sev;
	ctx->faults[fault->severity]++;
	if (!tfk_policy_reports(ctx->limits->policy, fault, &sev)) {
		r->disabled++;
		return NULL;
	}
	r->total++;
	r->by_severity[sev]++;
	if (r->count >= ctx->limits->max_findings) {
		/* Counted, not kept: the verdict still sees it through by_severity. */
		r->incomplete = true;
		return NULL;
	}
	void *arr = r->findings;
	if (!tfk_grow(ctx, &arr, &ctx->capacity, r->count + 1, sizeof(struct tfk_finding)))
		return NULL;
	r->findings = arr;
	struct tfk_finding *f = &r->findings[r->count++];
	memset(f, 0, sizeof(*f));
	f->fault = fault;
	f->severity = sev;
	if (ctx->member)
		tfk_sanitize(f->member, sizeof(f->member), ctx->member, strlen(ctx->member));
	f->has_offset = true;
	f->offset = offset;
	f->length = length;
	if (offset & TFK_DECODED_BIT) {
		unsigned slot = (unsigned)((offset & ~TFK_DECODED_BIT) >> TFK_DECODED_SLOT_SHIFT);
		f->in_decoded = true;
		f->decoded_offset = offset & TFK_DECODED_POS_MASK;
		f->offset = slot < TFK_DECODED_SLOTS ? ctx->decoded_at[slot] : 0;
	}
	return f;
}

void tfk_count_only_n(struct tfk_ctx *ctx, enum tfk_fault_code code, uint64_t n)
{
	const struct tfk_fault *fault = tfk_fault_get(code);
	enum tfk_severity sev;
	if (ctx->counted)
		ctx->counted[code] += n;
	ctx->faults[fault->severity] += n;
	if (!tfk_policy_reports(ctx->limits->policy, fault, &sev)) {
		ctx->report->disabled += n;
		return;
	}
	ctx->report->total += n;
	ctx->report->by_severity[sev] += n;
}

void tfk_count_only(struct tfk_ctx *ctx, enum tfk_fault_code code)
{
	tfk_count_only_n(ctx, code, 1);
}

struct tfk_finding *tfk_emit_nooffset(struct tfk_ctx *ctx, enum tfk_fault_code code)
{
	struct tfk_finding *f = tfk_emit(ctx, code, 0, 0);
	if (f)
		f->has_offset = false;
	return f;
}

__attribute__((format(printf, 3, 0))) static void set_field(char *dst, size_t size, const char *fmt, va_list ap)
{
	char tmp[512];
	int n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	if (n < 0)
		n = 0;
	if ((size_t)n >= sizeof(tmp))
		n = sizeof(tmp) - 1;
	tfk_sanitize_text(dst, size, tmp, (size_t)n, false);
}

void tfk_set_path(struct tfk_finding *f, const char *fmt, ...)
{
	va_list ap;
	if (!f)
		return;
	va_start(ap, fmt);
	set_field(f->path, sizeof(f->path), fmt, ap);
	va_end(ap);
}

void tfk_set_expected(struct tfk_finding *f, const char *fmt, ...)
{
	va_list ap;
	if (!f)
		return;
	va_start(ap, fmt);
	set_field(f->expected, sizeof(f->expected), fmt, ap);
	va_end(ap);
}

void tfk_set_found(struct tfk_finding *f, const char *fmt, ...)
{
	va_list ap;
	if (!f)
		return;
	va_start(ap, fmt);
	set_field(f->found, sizeof(f->found), fmt, ap);
	va_end(ap);
}

void tfk_set_found_bytes(struct tfk_finding *f, const void *bytes, size_t len)
{
	if (!f)
		return;
	/* Quote by hand: the sanitised text fills at most size - 3 bytes, leaving room for two quotes. */
	f->found[0] = '"';
	tfk_sanitize(f->found + 1, sizeof(f->found) - 2, bytes, len);
	size_t n = strlen(f->found);
	f->found[n] = '"';
	f->found[n + 1] = '\0';
}

void tfk_limit_hit(struct tfk_ctx *ctx, uint64_t offset, const char *what, uint64_t value, uint64_t cap)
{
	struct tfk_finding *f = tfk_emit(ctx, TFK_CORE_LIMIT_REACHED, offset, 0);
	tfk_set_path(f, "%s", what);
	tfk_set_expected(f, "at most %llu", (unsigned long long)cap);
	tfk_set_found(f, "%llu", (unsigned long long)value);
	ctx->report->incomplete = true;
}

void tfk_mark_incomplete(struct tfk_ctx *ctx)
{
	ctx->report->incomplete = true;
}

struct tfk_cursor tfk_decoded_cursor(struct tfk_ctx *ctx, unsigned slot, uint64_t file_offset, const uint8_t *buf,
				     uint64_t len, bool big_endian)
{
	if (slot >= TFK_DECODED_SLOTS)
		slot = TFK_DECODED_SLOTS - 1;
	ctx->decoded_at[slot] = file_offset;
	if (len > TFK_DECODED_POS_MASK)
		len = TFK_DECODED_POS_MASK;
	return tfk_cur_make(buf, len, TFK_DECODED_BIT | ((uint64_t)slot << TFK_DECODED_SLOT_SHIFT), big_endian);
}

void tfk_place_begin(struct tfk_place *place)
{
	memset(place->per_code, 0, sizeof(place->per_code));
	for (size_t i = 0; i < TFK_FAULT_COUNT; i++)
		place->suppressed_at[i] = UINT64_MAX;
}

struct tfk_finding *tfk_emit_in(struct tfk_ctx *ctx, struct tfk_place *place, enum tfk_fault_code code,
				uint64_t offset, uint64_t length)
{
	if (place->per_code[code]++ >= ctx->limits->max_per_place) {
		tfk_count_only(ctx, code);
		if (place->suppressed_at[code] == UINT64_MAX)
			place->suppressed_at[code] = offset;
		return NULL;
	}
	return tfk_emit(ctx, code, offset, length);
}

void tfk_place_end(struct tfk_ctx *ctx, const struct tfk_place *place, const char *path_fmt, ...)
{
	const uint32_t max = ctx->limits->max_per_place;
	char path[TFK_FINDING_PATH_MAX];
	bool have_path = false;
	for (size_t code = 0; code < TFK_FAULT_COUNT; code++) {
		if (place->per_code[code] <= max)
			continue;
		if (!have_path) {
			va_list ap;
			va_start(ap, path_fmt);
			vsnprintf(path, sizeof(path), path_fmt, ap);
			va_end(ap);
			have_path = true;
		}
		struct tfk_finding *f = tfk_emit(ctx, TFK_CORE_FINDINGS_SUPPRESSED, place->suppressed_at[code], 0);
		tfk_set_path(f, "%s", path);
		tfk_set_found(f, "%u more %s findings", place->per_code[code] - max, tfk_fault_get((enum tfk_fault_code)code)->id);
	}
}
