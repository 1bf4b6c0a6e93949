/* SPDX-License-Identifier: MIT */
/*
 * An input's bytes, however it comes: a regular file is mapped; a pipe, FIFO or socket is
 * read (bounded, with an idle timeout, never a hang) into an anonymous memory file; a file
 * compressed whole (xz, gzip, zstd) is decompressed, streamed and capped, into one. The
 * check then reads a mapping either way, and is told what happened (load_report).
 */
#ifndef TFK_LOAD_H
#define TFK_LOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "context.h"
#include "tracefsck/limits.h"

enum tfk_packing { TFK_PACKING_NONE = 0, TFK_PACKING_GZIP, TFK_PACKING_XZ, TFK_PACKING_ZSTD };

enum tfk_load_result {
	TFK_LOAD_OK = 0,
	TFK_LOAD_DIRECTORY,   /* a directory: listed and checked as one (check.c) */
	TFK_LOAD_NOT_A_FILE,  /* a device or another kind of file that holds no trace */
	TFK_LOAD_ERROR,       /* what and err say which step failed */
};

struct tfk_loaded {
	const uint8_t *data;  /* read-only mapping (NULL when empty) */
	size_t size;
	int fd;               /* the file or memory file the mapping shows, or -1 */
	bool owns_fd;         /* fd is ours to close */
	const char *kind;     /* NOT_A_FILE: "a character device", ... */
	/* read from a pipe or socket */
	bool streamed;
	bool stream_capped;   /* limits.max_input_bytes reached: what followed was not read */
	bool stream_idle;     /* no byte came for limits.input_idle_ms: what followed was not waited for */
	/* decompressed */
	enum tfk_packing packing;
	uint64_t packed_size;
	bool unpack_capped;   /* limits.max_input_bytes of decompressed bytes reached */
	bool unpack_broken;   /* the compressed data is damaged or cut: size bytes came out whole */
	const char *unpack_error;
	uint64_t unpack_error_at; /* offset in the compressed input where decoding stopped */
	bool unpack_over_budget;  /* the decoder needs more work space than the memory budget leaves */
	uint64_t unpack_work, unpack_work_cap; /* what it asked for (0: unknown), what it was allowed */
	/* either way */
	bool timed_out;           /* limits.timeout_ms passed: what followed was not read */
	uint64_t started_ms;      /* tfk_now_ms() the timeout counts from */
	/* a regular file: what it was when loaded, to tell whether it changed while it was read */
	int guard;                /* mapguard.h slot of the mapping, or -1 */
	int src_fd;               /* the caller's descriptor of the file, or -1 (not owned) */
	uint64_t src_size;
	int64_t src_mtime_s, src_mtime_ns;
	bool src_changed;         /* a read past its end was caught while decompressing it */
};

/*
 * Load what fd holds (the caller keeps fd; with a mapping loaded->fd may be a dup or a memory
 * file). On TFK_LOAD_ERROR *what names the failed step and *err the errno.
 */
enum tfk_load_result tfk_load_fd(int fd, const struct tfk_limits *limits, struct tfk_loaded *loaded,
				 const char **what, int *err);
void tfk_unload(struct tfk_loaded *loaded);

/* The packing whose magic begins data, or TFK_PACKING_NONE. */
enum tfk_packing tfk_packing_of(const uint8_t *data, size_t size);
const char *tfk_packing_name(enum tfk_packing packing);

/* The findings a load makes (compressed input, damaged compression, caps, idle pipe). */
void tfk_load_report(struct tfk_ctx *ctx, const struct tfk_loaded *loaded);
/*
 * After the check: core.input.changed (and the verdict incomplete) when the file shrank under
 * its mapping, or its size or modification time is not what they were when it was loaded.
 */
void tfk_load_report_changed(struct tfk_ctx *ctx, const struct tfk_loaded *loaded);
/* The same test for any file: was it (size, mtime) when first seen, and is it still? */
bool tfk_file_changed(int fd, uint64_t size, int64_t mtime_s, int64_t mtime_ns);

#endif
