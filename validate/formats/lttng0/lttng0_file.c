/* SPDX-License-Identifier: MIT */
/*
 * One tracefile: a sequence of blocks (spec §3.2: equal-size blocks; §3.3: sub-buffers whose
 * size each header gives). Every block's size, fill, cycle counts, counters and header are
 * checked and its events walked; a block whose magic is gone is skipped to the next magic found
 * in the file. Each block is told to the observer's model, for repair.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lttng0.h"

struct file_walk {
	struct tfk_ctx *ctx;
	const struct tfk_cursor *c;
	struct l0_trace *t;
	uint8_t layout;
	bool be, compact;
	uint32_t block_size;       /* 1.x, 2.3, 2.4: the first sound block's buf_size (0 until known) */
	bool lost_form;            /* the block being told to the model has a 2.3/2.4 lost_size */
	bool have_prev;
	uint64_t prev_end;
	uint32_t prev_lost, prev_corrupt;
	uint64_t block;            /* blocks met so far */
	uint64_t events;           /* events walked in the tracefile */
	uint32_t lost;             /* events_lost of its last sound LTF 2.x block (cumulative) */
	uint8_t major, minor;      /* version of its first sound block */
};

struct tfk_finding *l0_emit(struct tfk_ctx *ctx, struct l0_trace *t, enum tfk_fault_code code, uint64_t offset,
			    uint64_t length)
{
	const struct tfk_pctx pc = { .place = &t->place };
	return tfk_raise(ctx, &pc, code, offset, length, NULL);
}

/* One summary for each code whose findings in the tracefile went past the quota; the next starts afresh. */
static void quota_flush(struct tfk_ctx *ctx, struct l0_trace *t)
{
	tfk_place_end(ctx, &t->place, "tracefile");
	tfk_place_begin(&t->place);
}

static void model(struct file_walk *fw, uint32_t state, uint64_t off, uint64_t size, uint64_t present,
		  const struct l0_walk *w, const struct l0_header *h, bool timed)
{
	const struct tfk_observer *obs = fw->ctx->obs;
	if (!obs || !obs->model)
		return;
	struct tfk_lttng0_block b = { state, fw->layout, fw->be, off, size, present, w ? w->good_end : 0,
				      w ? w->events : 0, fw->lost_form, h && timed, h ? h->tsc_begin : 0,
				      h ? h->tsc_end : 0, h ? h->events_lost : 0 };
	obs->model(obs->user, &tfk_format_lttng0, TFK_LTTNG0_MODEL_BLOCK, &b, sizeof b);
}

/* The next block at or after view-relative `from` whose magic reads in the file's order, or len. */
static uint64_t next_magic(const struct file_walk *fw, uint64_t from)
{
	const uint64_t mat = fw->layout == 1 ? L0_V1_MAGIC_AT : L0_V2_MAGIC_AT;
	uint8_t m[4];
	for (unsigned i = 0; i < 4; i++)
		m[i] = (uint8_t)(L0_MAGIC >> (fw->be ? 8 * (3 - i) : 8 * i));
	struct tfk_cursor s = *fw->c;
	if (!tfk_cur_seek(&s, from + mat > s.len ? s.len : from + mat))
		return fw->c->len;
	int64_t hit = tfk_cur_find(&s, m, 4);
	return hit < 0 ? fw->c->len : (uint64_t)hit - mat;
}

static void garbage(struct file_walk *fw, uint64_t off, uint64_t end)
{
	if (end > off)
		model(fw, TFK_LTTNG0_GARBAGE, off, end - off, end - off, NULL, NULL, false);
}

static bool is_pow2(uint32_t v)
{
	return v && !(v & (v - 1));
}

/* The block's size to advance by, or 0 when it cannot be known (the walk then resynchronises). */
static uint64_t block_step(struct file_walk *fw, uint64_t off, const struct l0_header *h, bool *sound)
{
	const uint64_t hdr = fw->layout == 1 ? L0_V1_HEADER : L0_V2_HEADER;
	const uint64_t abs = fw->c->origin + off + (fw->layout == 1 ? 36 : 56);
	const char *name = fw->layout == 1 || h->lost_form ? "buf_size" : "sb_size";
	if (h->size < hdr + 4) {
		/* §0 / §3.5: LTTV divides by buf_size, loops forever on sb_size 0 */
		struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_BLOCK_BAD_SIZE, abs, 4);
		tfk_set_path(f, "block %llu %s", (unsigned long long)fw->block, name);
		tfk_set_expected(f, "at least %llu (headers and one event header)", (unsigned long long)(hdr + 4));
		tfk_set_found(f, "%u", h->size);
		*sound = false;
		return fw->layout == 1 || h->lost_form ? fw->block_size : 0;
	}
	const bool fixed = fw->layout == 1 || h->lost_form; /* every block of the tracefile the same size */
	bool odd = fw->layout == 1 ? !is_pow2(h->size) : h->size % L0_V2_PAGE != 0;
	if (odd) {
		struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_BLOCK_ODD_SIZE, abs, 4);
		tfk_set_path(f, "block %llu %s", (unsigned long long)fw->block, name);
		tfk_set_expected(f, fw->layout == 1 ? "a power of two" : "a multiple of 4096");
		tfk_set_found(f, "%u", h->size);
	}
	if (fixed && fw->block_size && h->size != fw->block_size) {
		struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_BLOCK_INCONSISTENT, abs, 4);
		tfk_set_path(f, "block %llu buf_size", (unsigned long long)fw->block);
		tfk_set_expected(f, "%u, as the tracefile's first block", fw->block_size);
		tfk_set_found(f, "%u", h->size);
		*sound = false;
		return fw->block_size;
	}
	return h->size;
}

/* The end of the block's data (block-relative), or 0 when the fill field is impossible. */
static uint64_t block_fill(struct file_walk *fw, uint64_t off, uint64_t step, const struct l0_header *h)
{
	const uint64_t hdr = fw->layout == 1 ? L0_V1_HEADER : L0_V2_HEADER;
	const bool lost = fw->layout == 1 || h->lost_form;
	if (lost ? h->lost_size <= step - hdr : h->data_size >= hdr && h->data_size <= step)
		return lost ? step - h->lost_size : h->data_size;
	struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_BLOCK_BAD_FILL, fw->c->origin + off + (fw->layout == 1 ? 32 : 52), 4);
	tfk_set_path(f, "block %llu %s", (unsigned long long)fw->block, lost ? "lost_size" : "data_size");
	if (lost)
		tfk_set_expected(f, "at most %llu (the block size %llu less its headers)", (unsigned long long)(step - hdr),
				 (unsigned long long)step);
	else
		tfk_set_expected(f, "between %llu (the header) and %llu (sb_size)", (unsigned long long)hdr,
				 (unsigned long long)step);
	tfk_set_found(f, "%u", lost ? h->lost_size : h->data_size);
	return 0;
}

/* Cycle counts of the block and against the block before it; cumulative counters (2.x). */
static bool block_times(struct file_walk *fw, uint64_t off, const struct l0_header *h)
{
	bool sound = true;
	const uint64_t abs = fw->c->origin + off;
	if (h->tsc_end < h->tsc_begin) {
		struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_BLOCK_TSC_REVERSED, abs + (fw->layout == 1 ? 16 : 8), 8);
		tfk_set_path(f, "block %llu end cycle count", (unsigned long long)fw->block);
		tfk_set_expected(f, "at least the begin cycle count %llu", (unsigned long long)h->tsc_begin);
		tfk_set_found(f, "%llu", (unsigned long long)h->tsc_end);
		return false;
	}
	if (fw->have_prev && h->tsc_begin < fw->prev_end) {
		struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_BLOCK_TIME_BACKWARDS, abs, 8);
		tfk_set_path(f, "block %llu begin cycle count", (unsigned long long)fw->block);
		tfk_set_expected(f, "at least the previous block's end %llu", (unsigned long long)fw->prev_end);
		tfk_set_found(f, "%llu", (unsigned long long)h->tsc_begin);
	}
	if (fw->layout == 2 && fw->have_prev) {
		const uint32_t now[2] = { h->events_lost, h->subbuf_corrupt }, was[2] = { fw->prev_lost, fw->prev_corrupt };
		static const char *const names[2] = { "events_lost", "subbuf_corrupt" };
		for (unsigned i = 0; i < 2; i++) {
			if (now[i] >= was[i])
				continue;
			struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_COUNTERS_DECREASE, abs + 60 + 4 * i, 4);
			tfk_set_path(f, "block %llu %s", (unsigned long long)fw->block, names[i]);
			tfk_set_expected(f, "at least %u (cumulative)", was[i]);
			tfk_set_found(f, "%u", now[i]);
		}
	}
	return sound;
}

static void cut_block(struct file_walk *fw, uint64_t off, uint64_t want, uint64_t have)
{
	struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_BLOCK_CUT, fw->c->origin + off, have);
	tfk_set_path(f, "block %llu", (unsigned long long)fw->block);
	tfk_set_expected(f, "%llu bytes", (unsigned long long)want);
	tfk_set_found(f, "%llu bytes before the end of the file", (unsigned long long)have);
}

/* One block at off, its magic found. Returns the offset of the next block. */
static uint64_t one_block(struct file_walk *fw, uint64_t off)
{
	const struct tfk_cursor *c = fw->c;
	const uint64_t hdr = fw->layout == 1 ? L0_V1_HEADER : L0_V2_HEADER;
	const uint64_t avail = c->len - off;
	struct l0_header h;
	l0_read_header(c, off, fw->layout, &h);
	fw->lost_form = h.lost_form;
	bool sound = l0_check_fields(fw->ctx, fw->t, c, off, fw->layout, &h, fw->block);
	uint64_t step = block_step(fw, off, &h, &sound);
	if (!step) {
		/* No size to go by: the next magic decides where the next block begins. */
		uint64_t next = next_magic(fw, off + 1);
		model(fw, TFK_LTTNG0_DROP, off, next - off, next - off, NULL, NULL, false);
		return next;
	}
	if ((fw->layout == 1 || h.lost_form) && !fw->block_size && sound)
		fw->block_size = h.size;
	uint64_t fill = block_fill(fw, off, step, &h);
	sound &= fill != 0;
	const bool times = block_times(fw, off, &h);
	sound &= times;
	if (fw->t->have_ref) {
		if (fw->t->big_endian != fw->be || fw->t->layout != fw->layout) {
			if (fw->block == 0) {
				struct tfk_finding *f = l0_emit(fw->ctx, fw->t, TFK_LTTNG0_HEADER_VARIES, c->origin + off, hdr);
				tfk_set_path(f, "block 0 layout and byte order");
				tfk_set_expected(f, "LTF %u.x, %s-endian, as %s", fw->t->layout, fw->t->big_endian ? "big" : "little",
						 *fw->t->ref_member ? fw->t->ref_member : "the first tracefile");
				tfk_set_found(f, "LTF %u.x, %s-endian", fw->layout, fw->be ? "big" : "little");
			}
			sound = false;
		} else if (sound) {
			sound = l0_check_same(fw->ctx, c, off, fw->t, fw->block);
		}
	} else if (sound) {
		const uint8_t *p;
		if (tfk_cur_bytes_at(c, off, hdr, &p)) {
			memcpy(fw->t->ref, p, hdr);
			fw->t->have_ref = true;
			fw->t->layout = fw->layout;
			fw->t->big_endian = fw->be;
		}
	}
	const uint64_t present = step < avail ? step : avail;
	if (step > avail)
		cut_block(fw, off, step, avail);
	struct l0_walk w = { 0 };
	w.good_end = hdr;
	bool params = h.arch_size == 4 || h.arch_size == 8;
	params &= h.alignment == 0 || h.alignment == 1 || h.alignment == 2 || h.alignment == 4 || h.alignment == 8;
	if (fill && params) {
		struct l0_params p = { fw->layout, h.arch_size, h.alignment, fw->layout == 2 && l0_natural_align(h.minor),
				       h.has_heartbeat != 0, fw->compact, times, h.tscbits, h.tsc_lsb_truncate, sound };
		fw->t->alignment = h.alignment;
		fw->t->major = h.major;
		fw->t->minor = h.minor;
		l0_walk_events(fw->ctx, fw->t, c, off, fill, present, &p, &h, fw->block, &w);
		fw->ctx->report->stats.events += w.events;
		fw->t->events += w.events;
		fw->events += w.events;
	}
	if (sound) {
		if (!fw->have_prev) {
			fw->major = h.major;
			fw->minor = h.minor;
		}
		fw->lost = h.events_lost;
		fw->have_prev = true;
		fw->prev_end = h.tsc_end;
		fw->prev_lost = h.events_lost;
		fw->prev_corrupt = h.subbuf_corrupt;
	}
	fw->ctx->report->stats.pages++;
	uint32_t state = !sound ? TFK_LTTNG0_DROP : (w.overrun || step > avail) ? TFK_LTTNG0_CLIP : TFK_LTTNG0_KEEP;
	model(fw, state, off, step, present, &w, &h, times && sound);
	tfk_release(fw->ctx, c->base + off, present); /* the walk never comes back to a block */
	return step > avail ? c->len : off + step;
}

static void item(const struct tfk_ctx *ctx, uint64_t off, uint64_t len, uint32_t id, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
static void item(const struct tfk_ctx *ctx, uint64_t off, uint64_t len, uint32_t id, const char *name, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	tfk_observe_item(ctx, TFK_ITEM_BUFFER, off, len, id, name, fmt, ap);
	va_end(ap);
}

/* The tracefile in the map (describe): its version, blocks, events walked and events lost. */
static void tracefile_item(const struct file_walk *fw, uint64_t off, uint64_t len)
{
	const char *name = *fw->t->member ? fw->t->member : "tracefile";
	if (!fw->have_prev) {
		item(fw->ctx, off, len, fw->t->cpu, name, "LTF %u.x, cpu %u: %llu block(s), none sound, %llu events",
		     fw->layout, fw->t->cpu, (unsigned long long)fw->block, (unsigned long long)fw->events);
		return;
	}
	char lost[32] = "";
	if (fw->layout == 2) /* the 2008 header has no lost-event counter */
		snprintf(lost, sizeof lost, ", %u lost", fw->lost);
	item(fw->ctx, off, len, fw->t->cpu, name, "LTF %u.%u%s%s, cpu %u: %llu block(s), %llu events%s", fw->major, fw->minor,
	     *fw->t->channel ? ", channel " : "", fw->t->channel, fw->t->cpu, (unsigned long long)fw->block,
	     (unsigned long long)fw->events, lost);
}

void l0_check_tracefile(struct tfk_ctx *ctx, const struct tfk_cursor *file, struct l0_trace *t, bool compact)
{
	struct file_walk fw = { 0 };
	fw.ctx = ctx;
	fw.t = t;
	fw.compact = compact;
	fw.layout = (uint8_t)l0_detect(file, 0, &fw.be);
	if (!fw.layout) {
		/* The first block's magic is gone: the trace's layout and byte order, then the next magic. */
		fw.layout = t->have_ref ? t->layout : 1;
		fw.be = t->have_ref && t->big_endian;
	}
	/* §3.4: every multi-byte field is in the byte order the magic reads in. */
	struct tfk_cursor view = *file;
	view.big_endian = fw.be;
	file = &view;
	fw.c = file;
	uint64_t off = 0;
	while (off < file->len) {
		const uint64_t hdr = fw.layout == 1 ? L0_V1_HEADER : L0_V2_HEADER;
		const uint64_t mat = fw.layout == 1 ? L0_V1_MAGIC_AT : L0_V2_MAGIC_AT;
		const uint64_t avail = file->len - off;
		if (avail < hdr) {
			cut_block(&fw, off, hdr, avail);
			model(&fw, TFK_LTTNG0_DROP, off, avail, avail, NULL, NULL, false);
			fw.block++;
			break;
		}
		uint32_t m = 0;
		tfk_cur_u32_at(file, off + mat, &m);
		/* Later blocks keep the tracefile's layout and byte order: only its magic place counts. */
		if (m != L0_MAGIC) {
			struct tfk_finding *f = l0_emit(ctx, t, TFK_LTTNG0_HEADER_BAD_MAGIC, file->origin + off + mat, 4);
			tfk_set_path(f, "block %llu magic_number", (unsigned long long)fw.block);
			tfk_set_expected(f, "0x00D6B7ED at block offset %llu", (unsigned long long)mat);
			tfk_set_found(f, "0x%08X", m);
			/* A block of the known fixed size (1.x, 2.3, 2.4) is skipped whole; otherwise to the next magic. */
			uint64_t next = fw.block_size ? off + fw.block_size : next_magic(&fw, off + 1);
			if (next > file->len || next <= off)
				next = file->len;
			garbage(&fw, off, next);
			fw.block++;
			off = next;
			continue;
		}
		uint64_t next = one_block(&fw, off);
		fw.block++;
		off = next > off ? next : file->len;
	}
	/* events_lost counts since the trace began, per tracefile: the last block's is the file's. */
	ctx->report->stats.events_lost += fw.lost;
	tracefile_item(&fw, file->origin, file->len);
	quota_flush(ctx, t);
}
