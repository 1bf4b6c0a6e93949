/* SPDX-License-Identifier: MIT */
/*
 * uftrace data directories' scrub plug-in. The checked directory's members are written anew:
 * info (exename, cmdline, the kernel release and host name of osinfo, the CPU description),
 * task.txt (exename and libname of SESS and DLOP lines), sid-*.map (the mapped files' paths),
 * the path headers of *.sym and *.dbg and their source file names, default.opts (a command
 * line), the task names of COMM records in perf-cpu*.dat; the .sym and .dbg files are renamed
 * as the pseudonym of the file they describe, so that uftrace still finds them from the map.
 * Task files and every other member are copied with every further whole-word occurrence of a
 * replaced word swept out. Kept: symbol names, build ids, times, arguments and return values
 * other than words replaced elsewhere. A recording with kernel tracing (uftrace -k) is refused
 * as not supported yet.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "formats/formats.h"
#include "input.h"

static struct tfk_observer uf_observer(void *model, const uint8_t *in, size_t size)
{
	(void)in;
	(void)size;
	return (struct tfk_observer){ .user = model };
}

static void uf_free(void *model)
{
	(void)model;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n >= k && strcmp(s + n - k, suffix) == 0;
}

static bool starts_with(const uint8_t *p, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && memcmp(p, prefix, k) == 0;
}

/* Each line of the text p[0, n): fn(line, len). */
#define FOR_LINES(p, n, line, len)                                                                      \
	for (size_t at_ = 0, len = 0; at_ < (n); at_ += len + 1)                                          \
		for (uint8_t *line = (p) + at_, *nl_ = memchr(line, '\n', (n) - at_), *once_ = line; once_;   \
		     once_ = NULL)                                                                          \
			if ((len = nl_ ? (size_t)(nl_ - line) : (n) - at_), true)

/* info: the text after its binary header ("key:value" lines). */
static void info(struct sc_ctx *sc, uint8_t *p, size_t n)
{
	if (n < 14)
		return;
	size_t hdr = (size_t)p[12] | (size_t)p[13] << 8; /* header size (little-endian writers only) */
	if (hdr > n)
		return;
	uint8_t *t = p + hdr;
	size_t tn = n - hdr;
	FOR_LINES(t, tn, line, len) {
		static const struct {
			const char *key;
			enum tfk_scrub_kind kind;
		} keys[] = {
			{ "exename:", TFK_SCRUB_PATH },          { "cmdline:", TFK_SCRUB_CMDLINE },
			{ "osinfo:kernel=", TFK_SCRUB_HOST },    { "osinfo:hostname=", TFK_SCRUB_HOST },
			{ "cpuinfo:desc=", TFK_SCRUB_HOST },
		};
		for (size_t k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (starts_with(line, len, keys[k].key)) {
				size_t kl = strlen(keys[k].key);
				sc_text(sc, keys[k].kind, line + kl, len - kl);
			}
		if (starts_with(line, len, "record_date:"))
			sc_kept(sc, "the record date and the elapsed time");
	}
}

/* task.txt: the quoted exename="..." and libname="..." of SESS and DLOP lines. */
static void task_txt(struct sc_ctx *sc, uint8_t *p, size_t n)
{
	FOR_LINES(p, n, line, len) {
		static const char *const keys[] = { "exename=\"", "libname=\"" };
		for (size_t k = 0; k < 2; k++) {
			size_t kl = strlen(keys[k]);
			for (size_t i = 0; i + kl <= len; i++) {
				if (memcmp(line + i, keys[k], kl) != 0)
					continue;
				uint8_t *v = line + i + kl;
				const uint8_t *q = memchr(v, '"', len - i - kl);
				sc_text(sc, TFK_SCRUB_PATH, v, q ? (size_t)(q - v) : len - i - kl);
				break;
			}
		}
	}
}

/* sid-*.map: the path of each mapping, from its first '/' to " build-id:" or the line's end. */
static void map(struct sc_ctx *sc, uint8_t *p, size_t n)
{
	FOR_LINES(p, n, line, len) {
		uint8_t *slash = memchr(line, '/', len);
		if (!slash)
			continue;
		size_t rest = len - (size_t)(slash - line), end = rest;
		for (size_t i = 0; i + 10 <= rest; i++)
			if (memcmp(slash + i, " build-id:", 10) == 0) {
				end = i;
				break;
			}
		sc_text(sc, TFK_SCRUB_PATH, slash, end);
	}
}

/* *.sym, *.dbg: "# path name: ..." headers; dbg's "L: line file" source files. */
static void sym(struct sc_ctx *sc, uint8_t *p, size_t n, bool dbg)
{
	FOR_LINES(p, n, line, len) {
		if (starts_with(line, len, "# path name: "))
			sc_text(sc, TFK_SCRUB_PATH, line + 13, len - 13);
		else if (dbg && starts_with(line, len, "L: ")) {
			uint8_t *sp = memchr(line + 3, ' ', len - 3);
			if (sp)
				sc_text(sc, TFK_SCRUB_PATH, sp + 1, len - (size_t)(sp + 1 - line));
		}
	}
	if (!dbg)
		sc_kept(sc, "symbol names (*.sym)");
}

/* perf-cpu*.dat: perf records; COMM (type 3) carries a task name at 16. */
static void perf_cpu(struct sc_ctx *sc, uint8_t *p, size_t n)
{
	for (size_t at = 0; n - at >= 8;) {
		uint32_t type = (uint32_t)p[at] | (uint32_t)p[at + 1] << 8 | (uint32_t)p[at + 2] << 16 | (uint32_t)p[at + 3] << 24;
		size_t size = (size_t)p[at + 6] | (size_t)p[at + 7] << 8;
		if (size < 8 || size > n - at)
			return;
		if (type == 3 && size > 16)
			sc_cstr_aligned(sc, TFK_SCRUB_TASK, p + at + 16, size - 16, 8);
		at += size;
	}
}

/* The member's name in the output: *.sym and *.dbg named after the pseudonym of their file. */
static void out_name(struct sc_ctx *sc, const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s", name);
	if (strchr(out, '/') || !(ends_with(out, ".sym") || ends_with(out, ".dbg")))
		return;
	size_t n = strlen(out) - 4;
	struct tfk_scrub_count saved = sc->rep->counts[TFK_SCRUB_PATH];
	sc_text(sc, TFK_SCRUB_PATH, (uint8_t *)out, n);
	sc->rep->counts[TFK_SCRUB_PATH] = saved; /* the file's path was counted where it is named */
}

static bool is_kernel(const char *name)
{
	return strncmp(name, "kernel", 6) == 0;
}

static int member(struct sc_ctx *sc, const struct tfk_input *in, const struct tfk_member *m, struct rp_dir *dir, bool text)
{
	const char *name = m->name;
	const bool is_text = strcmp(name, "info") == 0 || strcmp(name, "task.txt") == 0 || strcmp(name, "default.opts") == 0 ||
			     (strncmp(name, "sid-", 4) == 0 && ends_with(name, ".map")) || ends_with(name, ".sym") ||
			     ends_with(name, ".dbg") || strncmp(name, "perf-cpu", 8) == 0;
	if (is_text != text)
		return 0;
	uint8_t *w;
	size_t n;
	if (sc_member_copy(in, m, &w, &n) != 0)
		return -1;
	if (strcmp(name, "info") == 0)
		info(sc, w, n);
	else if (strcmp(name, "task.txt") == 0)
		task_txt(sc, w, n);
	else if (strcmp(name, "default.opts") == 0)
		sc_text(sc, TFK_SCRUB_CMDLINE, w, n);
	else if (strncmp(name, "sid-", 4) == 0)
		map(sc, w, n);
	else if (ends_with(name, ".sym") || ends_with(name, ".dbg"))
		sym(sc, w, n, ends_with(name, ".dbg"));
	else if (strncmp(name, "perf-cpu", 8) == 0)
		perf_cpu(sc, w, n);
	else
		sc_sweep(sc, w, n);
	char out[TFK_MEMBER_NAME_MAX];
	out_name(sc, name, out, sizeof(out));
	int rc = sc_dir_put(dir, out, w, n);
	free(w);
	return rc;
}

static int uf_scrub_dir(void *model, struct sc_ctx *sc, const struct tfk_input *in, struct rp_dir *dir)
{
	(void)model;
	for (size_t i = 0; i < in->n; i++)
		if (in->members[i].kind != TFK_MEMBER_FILE || is_kernel(in->members[i].name)) {
			sc->rep->reason = in->members[i].kind == TFK_MEMBER_FILE
						  ? "scrub not supported for uftrace data with kernel tracing (uftrace -k) yet"
						  : "scrub not supported for uftrace data holding links or subdirectories yet";
			return 1;
		}
	/* the texts first, whose words the task files are then swept for */
	for (int text = 1; text >= 0; text--)
		for (size_t i = 0; i < in->n; i++)
			if (member(sc, in, &in->members[i], dir, text != 0) != 0)
				return -1;
	sc_kept(sc, "times, build ids, numeric arguments and return values");
	return 0;
}

const struct sc_format sc_format_uftrace = {
	.format = &tfk_format_uftrace,
	.model_size = 1,
	.observer = uf_observer,
	.model_free = uf_free,
	.scrub_dir = uf_scrub_dir,
};
