/* SPDX-License-Identifier: MIT */
/*
 * Packets seen before: a reader that merges the traces of one UUID (babeltrace2 merges the
 * snapshots of a session, and the files of one stream instance) shows a packet that several
 * of them hold once, the one whose index entry equals it (size, both timestamps, sequence
 * number). The check counts its events once, and repair's salvage report too.
 */
#ifndef TFK_CTF_SEEN_H
#define TFK_CTF_SEEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* What makes two packets the same packet for such a reader. */
struct ctf_seen_key {
	uint8_t trace[16];   /* the trace's UUID; without one, a digest of its directory (no merge across traces) */
	uint64_t stream_id, instance_id, packet_size, ts_begin, ts_end, seq;
};

struct ctf_seen {
	struct ctf_seen_key *keys;
	size_t n, cap;
	uint32_t *slots;     /* open addressing: index into keys + 1, or 0 */
	size_t nslots;       /* a power of two, or 0 */
	bool broken;         /* out of memory: nothing more is remembered, every packet counts */
};

/* The timestamps and sequence number a packet may lack count as 0, as in babeltrace2's index. */
struct ctf_seen_packet {
	uint64_t stream_id, instance_id, packet_size, ts_begin, ts_end, seq;
	bool has_ts_begin, has_ts_end, has_seq;
};
/* The key of a packet of the trace whose part is trace (16 bytes). */
void ctf_seen_key_of(struct ctf_seen_key *k, const uint8_t trace[16], const struct ctf_seen_packet *p);
/* The trace part of a key: the UUID when the trace has one, else a digest of its directory name. */
void ctf_seen_trace(uint8_t out[16], bool have_uuid, const uint8_t uuid[16], const char *dir, size_t dir_len);
/* True when an equal key was given before; else remembers it and returns false. */
bool ctf_seen_again(struct ctf_seen *s, const struct ctf_seen_key *k);
void ctf_seen_free(struct ctf_seen *s);

#endif
