/* SPDX-License-Identifier: MIT */
/*
 * A legacy LTTng trace directory (spec §3.1; the 2008 document's tree): cpu_N tracefiles (gaps
 * after hotplug are normal), control/ channels (facilities_N, processes_N, ...; LTF 2.x
 * metadata_N) and, in LTF 2.x, named channels beside them. Every tracefile is checked as a
 * member; the trace header must be the same in all of them.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lttng0.h"

static bool digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s < '0' || *s > '9')
			return false;
	return true;
}

static bool starts(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* cpu_N and flight-cpu_N: the per-CPU tracefiles. */
static bool cpu_name(const char *name)
{
	if (starts(name, "flight-"))
		name += 7;
	return starts(name, "cpu_") && digits(name + 4);
}

static const char *base_name(const char *name)
{
	const char *s = strrchr(name, '/');
	return s ? s + 1 : name;
}

/* Does the member begin with a block header (magic at 16 or 40, either order)? */
static bool has_magic(const struct tfk_input *in, const struct tfk_member *m)
{
	struct tfk_member_map map;
	if (m->kind != TFK_MEMBER_FILE || m->size < L0_V2_HEADER || tfk_member_open(in, m, &map) != 0)
		return false;
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
	bool be;
	bool yes = l0_detect(&c, 0, &be) != 0;
	tfk_member_close(&map);
	return yes;
}

/* An LTF 2.x channel tracefile's name: lower-case letters, digits and '_', ending "_N". */
static bool channel_name(const char *name)
{
	const char *us = strrchr(name, '_');
	if (!us || us == name || !digits(us + 1))
		return false;
	for (const char *p = name; p < us; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			return false;
	return true;
}

/*
 * Which members are tracefiles: 1 a per-CPU one, 2 another channel, 0 none. Beside an LTF 2.x
 * metadata_N (ltf2), a file named as a channel is one even when its first magic is gone (a
 * zeroed block is reported there, not taken for a stranger).
 */
static int tracefile_kind(const struct tfk_input *in, const struct tfk_member *m, bool probe, bool ltf2)
{
	if (m->kind != TFK_MEMBER_FILE)
		return 0;
	const char *slash = strchr(m->name, '/');
	if (!slash)
		return cpu_name(m->name) ? 1
		       : starts(m->name, "compact") || (probe && ((ltf2 && channel_name(m->name)) || has_magic(in, m))) ? 2
															: 0;
	return starts(m->name, "control/") && !strchr(slash + 1, '/') ? 2 : 0;
}

int l0_sniff_dir(const struct tfk_input *in)
{
	bool cpu = false, control = false;
	unsigned probed = 0;
	for (size_t i = 0; i < in->n; i++) {
		const struct tfk_member *m = &in->members[i];
		if (m->kind == TFK_MEMBER_DIR && strcmp(m->name, "control") == 0)
			control = true;
		int kind = tracefile_kind(in, m, false, false);
		cpu |= kind == 1;
		/* A few tracefiles (and top-level files, for LTF 2.x channel names) are enough to be sure. */
		if (probed < 8 && m->kind == TFK_MEMBER_FILE && (kind || !strchr(m->name, '/'))) {
			probed++;
			if (has_magic(in, m))
				return 100;
		}
	}
	return cpu && control ? 45 : 0;
}

static void io_error(struct tfk_ctx *ctx, const char *name, int err)
{
	tfk_member_unreadable(ctx, name, "LTTng 0.x tracefile", err);
}

/* A metadata tracefile: its core events define the markers of the others. */
static bool meta_name(const char *base)
{
	return starts(base, "facilities_") || starts(base, "metadata_");
}

/*
 * The LTF 2.x channel of a tracefile: its name less "flight-" and the "_N" CPU suffix
 * ("kernel_0" is channel "kernel"), as the marker_id events name it.
 */
static void channel_of(const char *base, char *out, size_t cap)
{
	if (starts(base, "flight-"))
		base += 7;
	size_t n = strlen(base);
	const char *us = strrchr(base, '_');
	if (us && digits(us + 1))
		n = (size_t)(us - base);
	if (n >= cap)
		n = cap - 1;
	memcpy(out, base, n);
	out[n] = 0;
}

/* Tell repair's model which tracefile the blocks that follow belong to. */
static void model_member(const struct tfk_ctx *ctx, const struct tfk_member *m)
{
	const struct tfk_observer *obs = ctx->obs;
	if (!obs || !obs->model)
		return;
	struct tfk_lttng0_member mm;
	memset(&mm, 0, sizeof(mm));
	snprintf(mm.name, sizeof(mm.name), "%s", m->name);
	mm.size = m->size;
	obs->model(obs->user, &tfk_format_lttng0, TFK_LTTNG0_MODEL_MEMBER, &mm, sizeof(mm));
}

/* The CPU of a tracefile: the number after its last '_' (kernel_3, cpu_3), else 0. */
static uint32_t cpu_of(const char *base)
{
	const char *us = strrchr(base, '_');
	if (!us || !digits(us + 1) || strlen(us + 1) > 6)
		return 0;
	return (uint32_t)strtoul(us + 1, NULL, 10);
}

static void one_member(struct tfk_ctx *ctx, const struct tfk_input *in, const struct tfk_member *m, struct l0_trace *t)
{
	model_member(ctx, m);
	char channel[L0_NAME_MAX];
	channel_of(base_name(m->name), channel, sizeof channel);
	t->channel = channel;
	t->meta = meta_name(base_name(m->name));
	t->member = m->name;
	t->cpu = cpu_of(base_name(m->name));
	if (m->size == 0) {
		struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, m->name, NULL);
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_LTTNG0_FILE_EMPTY);
		tfk_set_path(f, "tracefile");
		tfk_set_found(f, "0 bytes");
		tfk_ctx_return(ctx, was);
		return;
	}
	struct tfk_member_map map;
	if (tfk_member_open(in, m, &map) != 0) {
		io_error(ctx, m->name, errno);
		return;
	}
	struct tfk_ctx_place was = tfk_ctx_enter_member(ctx, m->name, &map);
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
	l0_check_tracefile(ctx, &c, t, starts(base_name(m->name), "compact"));
	if (!t->ref_member[0] && t->have_ref)
		t->ref_member = m->name;
	tfk_ctx_return(ctx, was);
	tfk_member_close(&map);
	t->channel = "";
	t->meta = false;
	t->member = "";
	t->cpu = 0;
}

void l0_check_dir(struct tfk_ctx *ctx, const struct tfk_input *in)
{
	struct l0_trace t = { 0 };
	tfk_place_begin(&t.place);
	t.ref_member = "";
	ctx->report->stats.format = "LTTng 0.x trace directory";
	ctx->report->stats.file_size = in->total_size;
	t.channel = "";
	t.member = "";
	bool data = false, meta = false;
	uint32_t cpus = 0;
	uint64_t seen[L0_MAX_CPUS / 64] = { 0 };
	/* An LTF 2.x trace: a top-level metadata_N that begins with a block header. */
	bool ltf2 = false;
	for (size_t i = 0; i < in->n && !ltf2; i++) {
		const struct tfk_member *m = &in->members[i];
		ltf2 = !strchr(m->name, '/') && starts(m->name, "metadata_") && digits(m->name + 9) && has_magic(in, m);
	}
	/* The metadata tracefiles first: the others' events are measured from their markers. */
	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < in->n; i++) {
			const struct tfk_member *m = &in->members[i];
			const char *b = base_name(m->name);
			if (meta_name(b) != (pass == 0))
				continue;
			int kind = tracefile_kind(in, m, true, ltf2);
			if (!kind)
				continue;
			meta |= pass == 0;
			data |= !strchr(m->name, '/') && !starts(b, "metadata_");
			/* The CPUs: the distinct _N suffixes (cpu_N in 2008, every channel_N in LTF 2.x). */
			const uint32_t cpu = cpu_of(b);
			if (cpu < L0_MAX_CPUS && !(seen[cpu / 64] >> (cpu % 64) & 1) && (kind == 1 || strcmp(m->name, b) == 0)) {
				seen[cpu / 64] |= 1ull << (cpu % 64);
				cpus++;
			}
			one_member(ctx, in, m, &t);
		}
	}
	l0_markers_free(&t.markers);
	ctx->report->stats.cpus = cpus;
	if (!data) {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_LTTNG0_DIR_NO_TRACEFILE);
		tfk_set_path(f, "trace directory");
		tfk_set_expected(f, "cpu_0, cpu_1, ... (one tracefile per CPU)");
		tfk_set_found(f, "none");
	}
	if (!meta) {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_LTTNG0_DIR_NO_METADATA);
		tfk_set_path(f, "trace directory");
		tfk_set_expected(f, "control/facilities_N (2008) or metadata_N (LTF 2.x)");
		tfk_set_found(f, "none");
	}
}
