/* SPDX-License-Identifier: MIT */
/*
 * perf.data's model for repair, sent through tfk_observer.model (format: &tfk_format_perf; private to the record walker, perf.data's check and its repair): where
 * its parts are and which of them the check found whole.
 */
#ifndef TRACEFSCK_FORMATS_PERF_H
#define TRACEFSCK_FORMATS_PERF_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* kind: data is a struct tfk_perf_layout, once the whole file has been checked. */
#define TFK_PERF_MODEL_LAYOUT 1u
/* kind: data is a struct tfk_perf_sample, for each sample whose fields walked whole (before the layout). */
#define TFK_PERF_MODEL_SAMPLE 2u

struct tfk_perf_sample {
	uint64_t offset;        /* of its record (of the COMPRESSED record holding it) */
	uint64_t time;
	uint32_t cpu;
	bool has_time, has_cpu; /* sample_type has PERF_SAMPLE_TIME, PERF_SAMPLE_CPU */
};

#define TFK_PERF_MAX_FEATURES 64
#define TFK_PERF_MAX_DROPS 256
#define TFK_PERF_MAX_FIXES 64
#define TFK_PERF_MAX_PIECES 256

struct tfk_perf_layout {
	bool big_endian, pipe;
	uint64_t header_size;        /* 104, 72 or 16 */
	uint64_t attr_size;          /* as the header says */
	uint64_t attr_size_proven;   /* attr.size + 16 of the attrs, when they all agree; else 0 */
	bool attrs_ok;               /* attrs and ids whole, inside the file, before the data */
	uint64_t data_offset, data_size;
	uint64_t good_end;           /* file offset where the data stops being usable (the last record it can locate) */
	uint64_t samples_kept;       /* samples before good_end, those in dropped records not counted */
	uint64_t records_kept;       /* records the same way (those inside COMPRESSED records counted) */
	uint64_t samples_walked, records_walked; /* all the walk found, kept or not */
	uint64_t samples_left_out, records_left_out; /* in the damaged records repair leaves out */
	uint64_t unread_bytes;       /* data in the file the walk could not get past: content unknown */
	uint64_t missing_bytes;      /* data the header declares past the end of the file */
	uint64_t undecodable_bytes;  /* COMPRESSED payloads after the zstd stream broke */
	/* Damaged records before good_end whose size could still be trusted: repair leaves them out. */
	uint32_t ndrops;
	struct {
		uint64_t offset, size;
	} drops[TFK_PERF_MAX_DROPS];
	bool data_intact;            /* the data walked to its declared end without an error */
	uint32_t resyncs;            /* records whose impossible size was walked past by a scan */
	uint64_t skipped_bytes;      /* bytes those scans skipped to the next plausible record */
	/*
	 * The COMPRESSED record at zsalvage_at (= good_end) is damaged, but its payload's first
	 * zsalvage_len decoded bytes (the zstd stream decoded from the data's start) are whole,
	 * valid records: repair writes them after the data it keeps, decoded.
	 */
	uint64_t zsalvage_at, zsalvage_len;
	bool tracepoints;            /* an attr is a tracepoint: perf needs TRACING_DATA to read it */
	bool compressed;             /* the data holds COMPRESSED records */
	uint64_t decoded_max;        /* the most bytes one of them decoded to */
	/*
	 * HEADER_TRACING_DATA whose only damage is malformed lines in its kallsyms, printk formats
	 * or saved cmdlines: where those texts lie (file offsets; 0 when absent) and the byte order
	 * of their size fields, so repair can rebuild the feature from the good lines.
	 */
	bool tracing_rebuild, tracing_big_endian;
	uint64_t tracing_text_at[3], tracing_text_len[3];
	/*
	 * perf 6.16's COMPRESSED2 blobs whose first header.size overflowed its 16 bits: the blob
	 * at offset is extent bytes and holds the zstd bytes of pieces [first, first + count) of
	 * c2piece (file offset and length of each record's payload, in order). Repair writes each
	 * blob as COMPRESSED2 records whose sizes fit, the same zstd bytes in the same order.
	 */
	uint32_t nc2fix, nc2piece;
	struct {
		uint64_t offset, extent;
		uint32_t first, count;
	} c2fix[TFK_PERF_MAX_FIXES];
	struct {
		uint64_t offset, len;
	} c2piece[TFK_PERF_MAX_PIECES];
	/* Values the file proves, written back in place (file offset, width in bytes, value). */
	uint32_t npatches;
	struct {
		uint64_t offset, value;
		uint8_t width;
	} patches[TFK_PERF_MAX_FIXES];
	uint32_t nfeatures;
	struct {
		uint16_t bit;
		bool ok;                 /* inside the file, no overlap, its payload parsed */
		uint64_t offset, size;
	} features[TFK_PERF_MAX_FEATURES];
};

#ifdef __cplusplus
}
#endif
#endif
