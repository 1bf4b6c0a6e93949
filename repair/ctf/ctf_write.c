/* SPDX-License-Identifier: MIT */
/*
 * Writing a repaired CTF trace directory (spec 4.8): each data stream keeps the packets the
 * check accepted whole (every event decoded, no error inside them), back to back, so a cut
 * last packet, trailing garbage or zeros, and a bad-magic or unknown-stream packet in the
 * middle (exactly its bytes) are dropped; every index of a stream is regenerated from the
 * packets kept; a packetized metadata cut inside a packet keeps its whole packets (or, when
 * the cut fell in the last packet's zero padding, gets that padding back); timestamps and
 * UUIDs are never rewritten. Every other member is copied byte for byte.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_repair.h"
#include "formats/ctf/ctf_seen.h"
#include "cursor.h"
#include "dir_output.h"
#include "input.h"

#define META_HEADER 37 /* bytes of a metadata packet header */

/* A new entry of rep->members for name, or NULL when out of memory. */
static struct tfk_salvage_member *salvage(struct tfk_repair_report *rep, size_t *cap, const char *name)
{
	if (!rp_grow((void **)&rep->members, cap, rep->nmembers + 1, sizeof(*rep->members)))
		return NULL;
	struct tfk_salvage_member *s = &rep->members[rep->nmembers++];
	memset(s, 0, sizeof(*s));
	snprintf(s->member, sizeof(s->member), "%s", name);
	s->action = rp_action_name(RP_ACTION_COPIED);
	return s;
}

static int put_member(struct rp_dir *dir, const char *name, struct rp_out *o)
{
	int rc = o->oom ? (errno = ENOMEM, -1) : rp_dir_member(dir, name, o);
	rp_out_free(o);
	return rc;
}

static bool all_zero(const uint8_t *p, uint64_t n)
{
	for (uint64_t i = 0; i < n; i++)
		if (p[i])
			return false;
	return true;
}

/* The directory part of a member name ("a/b/c" -> 4, "c" -> 0). */
static size_t dir_len(const char *name)
{
	const char *slash = strrchr(name, '/');
	return slash ? (size_t)(slash - name) + 1 : 0;
}

/* The stream an index member "<dir>index/<stream>.idx" belongs to, or NULL. */
static const struct cr_stream *indexed_stream(const struct cr_model *m, const char *name)
{
	size_t n = strlen(name), d = dir_len(name);
	if (n < 5 || strcmp(name + n - 4, ".idx") != 0 || d < 6 || strncmp(name + d - 6, "index/", 6) != 0)
		return NULL;
	char stream[TFK_CTF_MEMBER_MAX];
	if (snprintf(stream, sizeof(stream), "%.*s%.*s", (int)(d - 6), name, (int)(n - 4 - d), name + d) >=
	    (int)sizeof(stream))
		return NULL;
	return cr_stream(m, stream);
}

/*
 * Has a stream written before (a snapshot of the same trace, a file of the same instance) kept
 * this packet too? Readers that merge them (babeltrace2) show its events once: counted once.
 */
static bool kept_before(const struct cr_model *m, const struct cr_stream *cs, const struct cr_packet *p,
			struct ctf_seen *seen)
{
	if (!p->has_instance)
		return false;
	const char *name = cs->s.member;
	size_t d = dir_len(name);
	char meta[TFK_CTF_MEMBER_MAX];
	snprintf(meta, sizeof(meta), "%.*smetadata", (int)d, name);
	const struct tfk_ctf_metadata *md = cr_metadata(m, meta);
	uint8_t trace[16] = { 0 };
	ctf_seen_trace(trace, md && md->have_uuid, md ? md->uuid : trace, name, d);
	const struct ctf_seen_packet sp = { p->stream_id, p->instance_id, p->packet_size, p->ts_begin, p->ts_end,
					    p->seq, p->has_ts_begin, p->has_ts_end_raw, p->has_seq };
	struct ctf_seen_key k;
	ctf_seen_key_of(&k, trace, &sp);
	return ctf_seen_again(seen, &k);
}

/* A data stream: its kept packets, back to back. */
static int write_stream(const struct cr_model *m, const struct cr_stream *cs, const struct tfk_member_map *map,
			struct rp_dir *dir, struct tfk_salvage_member *s, struct ctf_seen *seen)
{
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	uint64_t kept = 0, dropped = 0, events_lost = 0, first_drop = UINT64_MAX, repeated = 0, restored = 0;
	for (size_t i = cs->first; i < cs->first + cs->count; i++) {
		const struct cr_packet *p = &m->packets[i];
		const uint64_t n = p->packet_size / 8;
		if (p->offset > map->size || n > map->size - p->offset)
			continue; /* never: the check accepted it inside the file */
		if (p->keep && kept_before(m, cs, p, seen))
			repeated++; /* written, and counted where it was kept first */
		else if (p->keep)
			s->kept += p->events;
		if (p->keep && p->magic_restored && n >= 4) {
			/* the check proved its magic damaged: the packet copied, the magic written back */
			uint8_t *b = rp_out_space(&o, (size_t)n);
			if (b) {
				memcpy(b, map->data + p->offset, (size_t)n);
				rp_put_num(b, 0xc1fc1fc1u, 4, p->magic_big_endian);
			}
			kept++;
			restored++;
		} else if (p->keep) {
			rp_out_keep(&o, map->data + p->offset, (size_t)n);
			kept++;
		} else {
			events_lost += p->events;
			dropped++;
			if (first_drop == UINT64_MAX)
				first_drop = i - cs->first;
		}
	}
	const uint64_t end = cs->s.good_end < map->size ? cs->s.good_end : map->size;
	const bool tail = end < map->size;
	const bool zero_tail = tail && all_zero(map->data + end, map->size - end);
	rp_set_unit(s, RP_UNIT_EVENTS);
	s->lost = events_lost;
	s->lost_unknown = cs->s.skipped > 0 || (tail && !zero_tail) || dropped > 0;
	s->bytes_out = o.len;
	s->bytes_dropped = map->size - o.len;
	s->action = o.len == map->size ? rp_action_name(RP_ACTION_COPIED) : rp_action_name(RP_ACTION_TRUNCATED);
	if (cs->s.skipped || dropped || restored)
		s->action = rp_action_name(RP_ACTION_REWRITTEN);
	char why[120] = "";
	if (tail)
		snprintf(why, sizeof(why), "; %s after offset %" PRIu64 " dropped",
			 zero_tail ? "zero fill" : "a cut packet or garbage", end);
	snprintf(s->note, sizeof(s->note),
		 "kept %" PRIu64 " packet%s; dropped %" PRIu64 " damaged and %" PRIu64 " unreadable packet%s%s%s", kept,
		 kept == 1 ? "" : "s", dropped, cs->s.skipped, cs->s.skipped == 1 ? "" : "s",
		 cs->s.skipped ? " (a sequence gap)" : "", why);
	if (!tail && !dropped && !cs->s.skipped)
		snprintf(s->note, sizeof(s->note), "kept %" PRIu64 " packet%s", kept, kept == 1 ? "" : "s");
	if (restored) {
		size_t n = strlen(s->note);
		snprintf(s->note + n, sizeof(s->note) - n, "; the magic of %" PRIu64 " packet%s restored", restored,
			 restored == 1 ? "" : "s");
	}
	if (repeated) {
		size_t n = strlen(s->note);
		snprintf(s->note + n, sizeof(s->note) - n, "; %" PRIu64 " of them kept by another snapshot too, counted there",
			 repeated);
	}
	return put_member(dir, s->member, &o);
}

/*
 * A packetized metadata cut inside a packet: the whole packets, and the cut one too when all
 * of its text is there (the cut fell in its zero padding, which is put back). 1 with a reason
 * when nothing can be kept.
 */
/* Where the first error of the metadata's text lies in member (syntax, semantics), or UINT64_MAX. */
static uint64_t first_text_error(const struct tfk_report *before, const char *member)
{
	uint64_t first = UINT64_MAX;
	for (size_t i = 0; i < before->count; i++) {
		const struct tfk_finding *f = &before->findings[i];
		if (f->severity != TFK_SEV_ERROR || strcmp(f->member, member) != 0 ||
		    (strcmp(f->fault->id, "ctf.metadata.syntax") != 0 && strcmp(f->fault->id, "ctf.metadata.semantic") != 0 &&
		     strcmp(f->fault->id, "ctf.metadata.missing") != 0))
			continue;
		uint64_t at = f->has_offset ? f->offset : 0;
		if (at < first)
			first = at;
	}
	return first;
}

static int write_metadata(const struct tfk_ctf_metadata *md, const struct tfk_member_map *map, struct rp_dir *dir,
			  struct tfk_salvage_member *s, struct tfk_repair_report *rep)
{
	/* Text the output keeps must hold no error of its own: the whole packets keep what they hold. */
	const uint64_t text_error = first_text_error(&rep->before, s->member);
	struct tfk_cursor c = tfk_cur_make(map->data, map->size, 0, md->big_endian);
	const uint64_t at = md->whole_end;
	uint32_t content = 0, packet = 0;
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	const bool header = at <= map->size && map->size - at >= META_HEADER && tfk_cur_u32_at(&c, at + 24, &content) &&
			    tfk_cur_u32_at(&c, at + 28, &packet);
	if (header && content % 8 == 0 && packet % 8 == 0 && content >= META_HEADER * 8 && content <= packet &&
	    content / 8 <= map->size - at && packet / 8 > map->size - at && text_error > at + content / 8 &&
	    cr_metadata_text_whole(map->data, map->size, at + packet / 8, md->big_endian)) {
		rp_out_keep(&o, map->data, (size_t)(at + content / 8));
		rp_out_zeros_to(&o, at + packet / 8);
		s->action = rp_action_name(RP_ACTION_REWRITTEN);
		snprintf(s->note, sizeof(s->note), "cut in the zero padding of its last packet: the padding put back");
	} else if (at > 0 && text_error >= at && cr_metadata_text_whole(map->data, map->size, at, md->big_endian) &&
		   !cr_metadata_cut_holds_more(map->data, map->size, at, md->big_endian)) {
		rp_out_keep(&o, map->data, (size_t)at);
		s->action = rp_action_name(RP_ACTION_TRUNCATED);
		rep->metadata_lost = true;
		snprintf(s->note, sizeof(s->note), "cut at its last whole packet (%" PRIu64 "); the partial one dropped",
			 md->packets);
	} else if (text_error == UINT64_MAX && cr_metadata_plain(map->data, map->size, md->big_endian, &o)) {
		/*
		 * The whole packets end inside a declaration, or the cut packet holds more whole ones:
		 * the declarations the check parsed (every packet's text to the last whole one) as
		 * plain-text metadata, which babeltrace2 and LTTng's readers take as well.
		 */
		s->action = rp_action_name(RP_ACTION_REWRITTEN);
		rep->metadata_lost = true;
		snprintf(s->note, sizeof(s->note),
			 "cut inside packet %" PRIu64 ": its declarations up to the cut kept as plain-text metadata",
			 md->packets);
	} else {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = at > 0 ? "the metadata's whole packets end inside a declaration, or hold an error of their own: "
				       "dropping data cannot mend it"
				     : "the metadata's first packet is cut inside its text: no declaration is left whole";
		rp_out_free(&o);
		return 1;
	}
	s->bytes_out = o.len;
	s->bytes_dropped = o.len < map->size ? map->size - o.len : 0;
	return put_member(dir, s->member, &o);
}

/*
 * CTF 2 metadata (JSON fragments): the fragments that are not JSON objects, the bytes after a
 * fragment's object and the fragment the end of the file cut left out, the rest copied; each
 * range was found by the check, which reads what is kept the same way again.
 */
static int write_ctf2_metadata(const struct tfk_ctf_metadata *md, const struct tfk_member_map *map, struct rp_dir *dir,
			       struct tfk_salvage_member *s, struct tfk_repair_report *rep)
{
	/*
	 * The preamble must come first: when the first fragment is among the damaged ranges, what is
	 * left has none, and no reader can take the rest (nor our re-check): refuse instead.
	 */
	const uint8_t *first = memchr(map->data, 0x1e, (size_t)map->size);
	const uint64_t first_at = first ? (uint64_t)(first - map->data) : map->size;
	if (md->ndrops && md->drop_from[0] <= first_at && first_at < md->drop_to[0]) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "the CTF 2 metadata's first fragment (its preamble) is damaged: without it the rest cannot be read";
		return 1;
	}
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	uint64_t at = 0, dropped = 0;
	for (uint32_t i = 0; i < md->ndrops && i < TFK_CTF_MAX_DROPS; i++) {
		const uint64_t from = md->drop_from[i], to = md->drop_to[i];
		if (from < at || to < from || to > map->size) {
			rp_out_free(&o);
			rep->outcome = TFK_REPAIR_UNSUPPORTED;
			rep->reason = "the CTF 2 metadata's damaged ranges overlap";
			return 1;
		}
		if (from > at)
			rp_out_keep(&o, map->data + at, (size_t)(from - at));
		dropped += to - from;
		at = to;
	}
	if (map->size > at)
		rp_out_keep(&o, map->data + at, (size_t)(map->size - at));
	s->action = rp_action_name(RP_ACTION_REWRITTEN);
	s->bytes_out = o.len;
	s->bytes_dropped = dropped;
	rep->metadata_lost = true;
	snprintf(s->note, sizeof(s->note), "%" PRIu32 " damaged range%s of its JSON fragments left out (%" PRIu64 " bytes)",
		 md->ndrops, md->ndrops == 1 ? "" : "s", dropped);
	return put_member(dir, s->member, &o);
}

/*
 * TSDL text without its '/' '*' CTF 1.8 signature line (LTTng 2.14.0's kernel metadata): the
 * line put back. Plain text: before the text. Packetized: inside the first packet, whose
 * content and packet sizes grow by the line (the packets after it copied as they are).
 */
static int write_signature(const struct tfk_ctf_metadata *md, const struct tfk_member_map *map, struct rp_dir *dir,
			   struct tfk_salvage_member *s)
{
	static const char sig[] = "/* CTF 1.8 */\n";
	const size_t n = sizeof(sig) - 1;
	struct rp_out o;
	memset(&o, 0, sizeof(o));
	if (!md->packetized) {
		rp_out_put(&o, sig, n);
		rp_out_keep(&o, map->data, map->size);
	} else {
		struct tfk_cursor c = tfk_cur_make(map->data, map->size, 0, md->big_endian);
		uint32_t content = 0, packet = 0;
		const uint8_t *h;
		if (!tfk_cur_u32_at(&c, 24, &content) || !tfk_cur_u32_at(&c, 28, &packet) ||
		    !tfk_cur_bytes_at(&c, 0, META_HEADER, &h) || content / 8 < META_HEADER || content > packet ||
		    packet / 8 > map->size || packet > UINT32_MAX - 8 * n)
			return 1;
		uint8_t head[META_HEADER];
		memcpy(head, h, META_HEADER);
		const uint32_t nc = content + (uint32_t)(8 * n), np = packet + (uint32_t)(8 * n);
		for (unsigned k = 0; k < 4; k++) {
			unsigned sh = md->big_endian ? 24 - 8 * k : 8 * k;
			head[24 + k] = (uint8_t)(nc >> sh);
			head[28 + k] = (uint8_t)(np >> sh);
		}
		rp_out_put(&o, head, META_HEADER);
		rp_out_put(&o, sig, n);
		rp_out_keep(&o, map->data + META_HEADER, (size_t)(map->size - META_HEADER));
	}
	s->action = rp_action_name(RP_ACTION_REWRITTEN);
	s->bytes_out = o.len;
	snprintf(s->note, sizeof(s->note), "the '/" "* CTF 1.8 *" "/' line LTTng 2.14.0 left out put back");
	return put_member(dir, s->member, &o);
}

static int write_member(const struct cr_model *m, const struct tfk_input *in, const struct tfk_member *mem,
			struct rp_dir *dir, struct tfk_salvage_member *s, struct tfk_repair_report *rep,
			struct ctf_seen *seen)
{
	s->bytes_in = mem->size;
	const struct tfk_ctf_metadata *md = cr_metadata(m, mem->name);
	const struct cr_stream *cs = cr_stream(m, mem->name);
	const struct cr_stream *ixs = cs ? NULL : indexed_stream(m, mem->name);
	struct tfk_member_map map;
	if (tfk_member_open(in, mem, &map) != 0)
		return -1;
	int rc;
	if (md && md->ctf2 && md->drops_overflow) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "the CTF 2 metadata has more damaged fragments than repair keeps track of, or is packetized";
		rc = 1;
	} else if (md && md->ctf2 && md->ndrops) {
		rc = write_ctf2_metadata(md, &map, dir, s, rep);
	} else if (md && md->no_signature_quirk && !(md->packetized && md->whole_end < map.size) &&
		   write_signature(md, &map, dir, s) == 0) {
		rc = 0;
	} else if (md && md->packetized && md->whole_end < map.size) {
		rc = write_metadata(md, &map, dir, s, rep);
	} else if (md && !md->packetized && md->text_whole_end && md->text_whole_end < map.size &&
		   first_text_error(&rep->before, s->member) != UINT64_MAX) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = "the metadata text is cut, and holds an error of its own before the cut: dropping data "
			      "cannot mend it";
		rc = 1;
	} else if (md && !md->packetized && md->text_whole_end && md->text_whole_end < map.size) {
		/* plain text cut inside a declaration: its whole declarations, as the check parsed them */
		struct rp_out o;
		memset(&o, 0, sizeof(o));
		rp_out_keep(&o, map.data, (size_t)md->text_whole_end);
		rp_out_put(&o, "\n", 1);
		s->action = rp_action_name(RP_ACTION_TRUNCATED);
		s->bytes_out = o.len;
		s->bytes_dropped = map.size - md->text_whole_end;
		rep->metadata_lost = true;
		snprintf(s->note, sizeof(s->note), "cut at the end of its last whole declaration");
		rc = put_member(dir, s->member, &o);
	} else if (cs) {
		rc = write_stream(m, cs, &map, dir, s, seen);
	} else if (ixs) {
		struct rp_out o;
		memset(&o, 0, sizeof(o));
		cr_index_build(m, ixs, cr_index_minor(map.data, map.size), &o);
		s->bytes_out = o.len;
		s->bytes_dropped = map.size > o.len ? map.size - o.len : 0;
		s->action = o.len == map.size && (!o.len || memcmp(o.made.data, map.data, map.size) == 0) ? rp_action_name(RP_ACTION_COPIED) : rp_action_name(RP_ACTION_REBUILT);
		if (rp_action_is(s, RP_ACTION_REBUILT))
			snprintf(s->note, sizeof(s->note), "regenerated from the packets kept");
		rc = put_member(dir, s->member, &o);
	} else {
		struct rp_out o;
		memset(&o, 0, sizeof(o));
		rp_out_keep(&o, map.data, map.size);
		s->bytes_out = map.size;
		rc = put_member(dir, s->member, &o);
	}
	tfk_member_close(&map);
	return rc;
}

/* Streams of an indexed trace (an index/ beside them) without an index file get one. */
static int missing_indexes(const struct cr_model *m, const struct tfk_input *in, struct rp_dir *dir,
			   struct tfk_repair_report *rep, size_t *cap)
{
	for (size_t i = 0; i < m->nstreams; i++) {
		const struct cr_stream *cs = &m->streams[i];
		const char *name = cs->s.member;
		const size_t d = dir_len(name);
		char idx[TFK_CTF_MEMBER_MAX + 16], idxdir[TFK_CTF_MEMBER_MAX + 16];
		snprintf(idx, sizeof(idx), "%.*sindex/%s.idx", (int)d, name, name + d);
		snprintf(idxdir, sizeof(idxdir), "%.*sindex", (int)d, name);
		const struct tfk_member *id = tfk_input_find(in, idxdir);
		if (!cs->have_summary || tfk_input_find(in, idx) || !id || id->kind != TFK_MEMBER_DIR)
			continue;
		struct tfk_salvage_member *s = salvage(rep, cap, idx);
		if (!s)
			return errno = ENOMEM, -1;
		struct rp_out o;
		memset(&o, 0, sizeof(o));
		cr_index_build(m, cs, 1, &o);
		s->action = rp_action_name(RP_ACTION_REBUILT);
		s->bytes_out = o.len;
		snprintf(s->note, sizeof(s->note), "missing: made from the packets kept");
		if (put_member(dir, idx, &o) != 0)
			return -1;
	}
	return 0;
}

/*
 * Metadata that does not parse, or says what cannot be, is not repaired by dropping packets:
 * unless the metadata stream was cut (and its whole packets may hold all of it), the output
 * would say the same thing again. A metadata packet header that is wrong (magic, version,
 * schemes, or a UUID other than the trace block's) is beyond repair even then: repair never
 * rewrites UUIDs, and which of two UUIDs is the damaged one the bytes do not tell. Repair
 * refuses rather than write a copy that cannot check clean.
 */
static bool metadata_beyond_repair(const struct tfk_report *before)
{
	bool broken = false, cut = false, bad_header = false, rule = false;
	for (size_t i = 0; i < before->count; i++) {
		const char *id = before->findings[i].fault->id;
		if (before->findings[i].severity != TFK_SEV_ERROR)
			continue;
		cut |= strcmp(id, "ctf.metadata.truncated") == 0 || strcmp(id, "ctf.metadata.text-cut") == 0;
		broken |= strcmp(id, "ctf.metadata.missing") == 0 || strcmp(id, "ctf.metadata.syntax") == 0 ||
			  strcmp(id, "ctf.metadata.semantic") == 0 ||
			  /* CTF 2 fragments that say what cannot be (those that are not JSON are left out) */
			  (strncmp(id, "ctf.metadata.fragment-", 22) == 0 && strcmp(id, "ctf.metadata.fragment-cut") != 0);
		cut |= strcmp(id, "ctf.metadata.fragment-cut") == 0;
		bad_header |= strcmp(id, "ctf.metadata.bad-packet") == 0;
		/* TSDL's own rules broken in the declarations that are there (a name declared twice, a
		 * keyword as a name, an empty enum, ...): what a cut took away cannot mend them */
		rule |= strcmp(id, "ctf.metadata.redefinition") == 0 || strcmp(id, "ctf.metadata.duplicate-field") == 0 ||
			strcmp(id, "ctf.metadata.keyword-name") == 0 || strcmp(id, "ctf.metadata.array-length") == 0 ||
			strcmp(id, "ctf.metadata.enum-empty") == 0;
	}
	return (broken && !cut) || bad_header || rule;
}

int cr_write_dir(const void *model, const struct tfk_input *in, struct rp_dir *dir, struct tfk_repair_report *rep)
{
	const struct cr_model *m = model;
	const char *why = m->oom ? "out of memory while keeping the check's model"
			  : m->too_many ? "more packets or streams than repair keeps track of"
			  : rep->before.incomplete ? "part of it could not be checked (a limit, an unreadable member, or "
						     "metadata too damaged to decode the streams), so no repaired copy could be proven"
			  : metadata_beyond_repair(&rep->before)
				  ? "the metadata is missing, does not parse, or has a packet header that is wrong (a UUID "
				    "other than the trace block's among them), and dropping data cannot mend it"
				  : NULL;
	if (why) {
		rep->outcome = TFK_REPAIR_UNSUPPORTED;
		rep->reason = why;
		return 1;
	}
	size_t cap = 0;
	int rc = 0;
	struct ctf_seen seen = { 0 };
	for (size_t i = 0; rc == 0 && i < in->n; i++) {
		const struct tfk_member *mem = &in->members[i];
		if (mem->kind == TFK_MEMBER_DIR)
			continue; /* made as its members are written */
		struct tfk_salvage_member *s = salvage(rep, &cap, mem->name);
		if (!s) {
			ctf_seen_free(&seen);
			errno = ENOMEM;
			return -1;
		}
		if (mem->kind != TFK_MEMBER_FILE) {
			s->action = rp_action_name(RP_ACTION_LEFT_OUT);
			snprintf(s->note, sizeof(s->note), "%s",
				 mem->kind == TFK_MEMBER_LINK ? "a symbolic link (never followed)" : "not a regular file");
			continue;
		}
		rc = write_member(m, in, mem, dir, s, rep, &seen);
	}
	ctf_seen_free(&seen);
	if (rc == 0)
		rc = missing_indexes(m, in, dir, rep, &cap);
	return rc;
}
