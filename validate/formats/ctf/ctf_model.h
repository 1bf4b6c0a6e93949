/* SPDX-License-Identifier: MIT */
/*
 * CTF trace directories' model for repair, sent through tfk_observer.model (format:
 * &tfk_format_ctf; private to CTF's check and repair) as the check walks: the metadata of
 * each trace, every packet of every data stream, and each stream's summary. Member names are relative to the directory
 * checked. Nothing is kept by the check: an observer that wants the whole model keeps it.
 */
#ifndef TRACEFSCK_FORMATS_CTF_H
#define TRACEFSCK_FORMATS_CTF_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* kind: data is a struct tfk_ctf_metadata, once per trace, after its metadata is checked. */
#define TFK_CTF_MODEL_METADATA 1u
/* kind: data is a struct tfk_ctf_packet, for every packet whose header and context decoded. */
#define TFK_CTF_MODEL_PACKET 2u
/* kind: data is a struct tfk_ctf_stream, once per data stream, after its walk. */
#define TFK_CTF_MODEL_STREAM 3u
/*
 * kind: data is a struct tfk_ctf_text, for every text field of an event (a string, or an array
 * or sequence of UTF-8 or ASCII bytes) the check decodes, when the observer asks for
 * payload_text. Sent before the PACKET message of its packet.
 */
#define TFK_CTF_MODEL_TEXT 4u

#define TFK_CTF_MEMBER_MAX 256
#define TFK_CTF_MAX_DROPS 16

struct tfk_ctf_metadata {
	char member[TFK_CTF_MEMBER_MAX]; /* ".../metadata" */
	bool packetized, big_endian;
	uint64_t size;                   /* of the file */
	uint64_t whole_end;              /* packetized: end of the last whole packet (the file cut there keeps them) */
	uint64_t packets;                /* packetized: whole packets */
	bool usable;                     /* the TSDL parsed well enough to decode the streams */
	bool have_uuid;
	uint8_t uuid[16];                /* trace.uuid */
	uint64_t text_whole_end;         /* plain text cut inside a declaration: where its last whole one ends, else 0 */
	/*
	 * CTF 2 (JSON fragments): the byte ranges [drop_from, drop_to) repair leaves out: a fragment
	 * that is not a JSON object, the bytes after a fragment's object, the fragment the end of
	 * the file cuts. drops_overflow: more of them than listed (repair then refuses).
	 */
	bool ctf2;
	uint32_t ndrops;
	bool drops_overflow;
	uint64_t drop_from[TFK_CTF_MAX_DROPS], drop_to[TFK_CTF_MAX_DROPS];
	/* The TSDL text lacks its signature line, an LTTng 2.14.0 quirk that repair puts back. */
	bool no_signature_quirk;
};

struct tfk_ctf_packet {
	char member[TFK_CTF_MEMBER_MAX]; /* the stream file */
	uint64_t index;                  /* packet number in the file */
	uint64_t offset, packet_size, content_size; /* bytes; bits; bits */
	uint64_t stream_id, instance_id, seq, ts_begin, ts_end, discarded;
	bool has_instance, has_seq, has_ts_begin, has_ts_end, has_discarded;
	uint64_t events;                 /* events decoded whole */
	bool events_ok;                  /* every event of the content decoded */
	bool faulty;                     /* the check raised an error inside this packet (its index entry and its
	                                    order against the packet before aside) */
	uint32_t discarded_bits;         /* width of events_discarded: a narrower counter wraps */
	bool magic_restored;             /* its magic (the header's first 4 bytes) was damaged: repair writes */
	bool magic_big_endian;           /* 0xc1fc1fc1 back there, in this byte order */
};

struct tfk_ctf_stream {
	char member[TFK_CTF_MEMBER_MAX];
	uint64_t size;                   /* of the file */
	uint64_t good_end;               /* end of the last packet the walk accepted (<= size) */
	uint64_t packets, events;        /* packets accepted and events decoded whole */
	bool walked_whole;               /* the packets tile the whole file */
	/*
	 * Packets stepped over in the middle of the file (a bad magic or an unknown stream id,
	 * their size told by their own context or by the packet before): no PACKET message for
	 * them, and what events they held is unknown.
	 */
	uint64_t skipped;
};

struct tfk_ctf_text {
	const char *member;              /* the stream file (valid during the call) */
	uint64_t offset, len;            /* in the member: the text's bytes (a string's NUL not counted) */
	const char *field;               /* its dotted path inside its scope (valid during the call) */
	bool context;                    /* a context field (procname, ...), not one of the event's own */
};

#ifdef __cplusplus
}
#endif
#endif
