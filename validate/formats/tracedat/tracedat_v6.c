/* SPDX-License-Identifier: MIT */
/*
 * The version 6 walk after the metadata blocks (shared/ftrace/ftrace_meta.c): the CPU count,
 * then the tagged parts (options, latency, flyrecord) and buffer instances.
 */
#include <stdio.h>
#include <string.h>

#include "tracedat.h"
#include "tracedat_tokens.h"
#include "shared/ftrace/ftrace_observe.h"

bool td_check_v6_metadata(struct td_check *td, uint64_t *pos)
{
	const struct tfk_cursor *src = &td->file;
	if (!td_check_ftrace_formats(td, src, pos) || !td_check_event_systems(td, src, pos) ||
	    !td_check_text_blob(td, src, pos, 4, "kallsyms", TFK_META_KALLSYMS) ||
	    !td_check_text_blob(td, src, pos, 4, "printk formats", TFK_META_PRINTK) ||
	    !td_check_text_blob(td, src, pos, 8, "saved cmdlines", TFK_META_CMDLINES))
		return false;
	td->dat->hdr_cpus_offset = *pos;
	if (!td_read_u32(td, src, pos, &td->dat->hdr_cpus, "CPU count"))
		return false;
	td->dat->have_hdr_cpus = true;
	return true;
}

/* The v6 options block after its tag: {u16 id, u32 size, payload} until a bare u16 0. */
static bool walk_options(struct td_check *td, uint64_t *pos)
{
	uint32_t n = 0;
	for (;;) {
		uint16_t id;
		uint32_t size;
		uint64_t at = *pos;
		if (!tfk_cur_u16_at(&td->file, at, &id)) {
			td_truncated(td, at, 2, "options: option id");
			return false;
		}
		if (id == 0) {
			*pos = at + 2;
			return true;
		}
		if (++n > td->ctx->limits->max_options) {
			tfk_limit_hit(td->ctx, at, "options", n, td->ctx->limits->max_options);
			td->lost_at = at;
			return false;
		}
		if (!tfk_cur_u32_at(&td->file, at + 2, &size)) {
			td_truncated(td, at + 2, 4, "options: option size");
			return false;
		}
		struct tfk_cursor payload;
		if (tfk_cur_sub(&td->file, at + 6, size, &payload) != TFK_SUB_OK) {
			char path[64];
			snprintf(path, sizeof(path), "option %u payload", id);
			td_truncated(td, at + 6, size, path);
			return false;
		}
		td_check_option(td, id, at, &payload);
		*pos = at + 6 + (uint64_t)size;
	}
}

/*
 * After damage that loses the walk, look for the next tag trace-cmd writes so that the CPU
 * data can still be checked. The CPU count sits just before an options or flyrecord tag
 * that follows the metadata directly.
 */
static uint64_t resync(struct td_check *td, uint64_t from)
{
	static const char *const tags[] = { TD_TAG_OPTIONS, TD_TAG_FLYRECORD, TD_TAG_LATENCY };
	struct tfk_cursor c = td->file;
	if (from > td->size)
		return UINT64_MAX;
	tfk_cur_seek(&c, from);
	int64_t best = -1;
	for (size_t i = 0; i < 3; i++) {
		int64_t hit = tfk_cur_find(&c, tags[i], TD_TAG_LEN);
		if (hit >= 0 && (best < 0 || hit < best))
			best = hit;
	}
	if (best < 0)
		return UINT64_MAX;
	uint64_t at = (uint64_t)best;
	if (!td->dat->have_hdr_cpus && at >= 4 && tfk_cur_u32_at(&td->file, at - 4, &td->dat->hdr_cpus)) {
		td->dat->have_hdr_cpus = true;
		td->dat->hdr_cpus_offset = at - 4;
	}
	return at;
}

static const char tag_options[] = TD_TAG_OPTIONS;
static const char tag_latency[] = TD_TAG_LATENCY;
static const char tag_flyrecord[] = TD_TAG_FLYRECORD;

/* The tag a damaged 10-byte tag is closest to, if at least 7 of its bytes agree. */
static const char *closest_tag(const uint8_t *tag)
{
	static const char *const all[] = { tag_options, tag_latency, tag_flyrecord };
	const char *best = NULL;
	int best_same = 6;
	for (size_t i = 0; i < 3; i++) {
		int same = 0;
		for (size_t j = 0; j < TD_TAG_LEN; j++)
			same += tag[j] == (uint8_t)all[i][j];
		if (same > best_same) {
			best_same = same;
			best = all[i];
		}
	}
	return best;
}

static void check_latency(struct td_check *td, uint64_t text_start, const char *label, const char *name)
{
	/* Latency data is the text of tracing/trace up to the end of the file. */
	tfk_claims_add(td->ctx, &td->claims, text_start, td->size, false, "%slatency text", label);
	td->ctx->report->stats.buffers++;
	struct tfk_cursor text;
	tfk_cur_sub(&td->file, text_start, td->size - (text_start < td->size ? text_start : td->size), &text);
	td_obs_geometry(td);
	td_obs_buffer(td, name, "", td->geo.page_size, true);
	td_obs_meta(td, TFK_META_LATENCY, &text);
}

static void check_instances(struct td_check *td)
{
	uint32_t cap = td->ctx->limits->max_buffers;
	for (size_t i = 0; i < td->dat->ninstances; i++) {
		struct td_instance *in = &td->dat->instances[i];
		char what[96];
		if (i >= cap) {
			tfk_limit_hit(td->ctx, in->opt_offset, "buffer instances", td->dat->ninstances, cap);
			return;
		}
		snprintf(what, sizeof(what), "buffer %s tag", in->name);
		const uint8_t *tag;
		if (in->offset == td->dat->top_tag_offset) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTION_BAD_PAYLOAD, in->opt_offset, 0);
			tfk_set_path(f, "option BUFFER %s", in->name);
			tfk_set_expected(f, "the offset of the instance's own flyrecord block");
			tfk_set_found(f, "0x%llx, the top instance's block (events would be read twice)",
				      (unsigned long long)in->offset);
			continue;
		}
		if (!tfk_cur_bytes_at(&td->file, in->offset, TD_TAG_LEN, &tag)) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_OPTION_BAD_PAYLOAD, in->opt_offset, 0);
			tfk_set_path(f, "option BUFFER %s", in->name);
			tfk_set_expected(f, "an offset of a flyrecord tag inside the file (size 0x%llx)",
					 (unsigned long long)td->size);
			tfk_set_found(f, "0x%llx", (unsigned long long)in->offset);
			continue;
		}
		char name[80];
		snprintf(name, sizeof(name), "buffer %s ", in->name);
		if (memcmp(tag, tag_flyrecord, TD_TAG_LEN) == 0) {
			tfk_claims_add(td->ctx, &td->claims, in->offset, in->offset + TD_TAG_LEN, false, "buffer %s tag", in->name);
			td_check_flyrecord(td, in->offset + TD_TAG_LEN, in->name);
		} else if (memcmp(tag, tag_latency, TD_TAG_LEN) == 0) {
			check_latency(td, in->offset + TD_TAG_LEN, name, in->name);
		} else {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_SECTION_BAD_TAG, in->offset, TD_TAG_LEN);
			tfk_set_path(f, "%s", what);
			tfk_set_expected(f, "a \"flyrecord\" or \"latency\" tag");
			tfk_set_found_bytes(f, tag, TD_TAG_LEN);
		}
	}
}

void td_check_v6_tail(struct td_check *td, uint64_t pos)
{
	if (pos == UINT64_MAX) {
		/* The metadata walk was lost: resume at the next tag, if one can be found. */
		pos = resync(td, td->lost_at);
		if (pos == UINT64_MAX)
			goto done;
		td_settle_geometry(td);
	}
	td->dat->meta_end = pos;
	bool options_seen = false, continue_options = false;
	for (uint32_t guard = 0; guard < 64; guard++) {
		const uint8_t *tag;
		if (!tfk_cur_bytes_at(&td->file, pos, TD_TAG_LEN, &tag)) {
			td_truncated(td, pos, TD_TAG_LEN, options_seen ? "tag after options" : "tag after CPU count");
			goto done;
		}
		/* A damaged tag is read as the tag it is closest to, when it is close enough. */
		const char *kind = closest_tag(tag);
		if (kind == tag_options)
			continue_options = true;
		if (!kind || memcmp(tag, kind, TD_TAG_LEN) != 0) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_SECTION_BAD_TAG, pos, TD_TAG_LEN);
			tfk_set_path(f, "%s", options_seen ? "tag after options" : "tag after CPU count");
			tfk_set_expected(f, "an \"options\", \"latency\" or \"flyrecord\" tag");
			tfk_set_found_bytes(f, tag, TD_TAG_LEN);
			if (!kind) {
				uint64_t next = resync(td, pos + 1);
				if (next == UINT64_MAX)
					goto done;
				pos = next;
				continue;
			}
		}
		if (continue_options) {
			continue_options = false;
			options_seen = true;
			pos += TD_TAG_LEN;
			if (!walk_options(td, &pos)) {
				pos = resync(td, td->lost_at);
				if (pos == UINT64_MAX)
					goto done;
			}
			td->dat->meta_end = pos;
			continue;
		}
		td->dat->top_tag_offset = pos;
		if (kind == tag_flyrecord) {
			td_check_flyrecord(td, pos + TD_TAG_LEN, "");
		} else {
			tfk_claims_add(td->ctx, &td->claims, 0, pos + TD_TAG_LEN, false, "metadata");
			check_latency(td, pos + TD_TAG_LEN, "", "");
		}
		break;
	}
done:
	check_instances(td);
}
