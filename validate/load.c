/* SPDX-License-Identifier: MIT */
/* An input's bytes from a file, a pipe or a compressed file (load.h). */
#include <errno.h>
#include <fcntl.h>
#include <lzma.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "load.h"
#include "mapguard.h"

/* Bytes moved per read or decode step: enough to stream fast, small enough to stay flat. */
#define CHUNK (1u << 20)
/* xz's decoder may need this much for its dictionary; more is a hostile header. */
#define XZ_MEMLIMIT (512ull << 20)
/* zstd's window: 2 GiB covers `zstd --long=31`; a frame asking more is refused. */
#define ZSTD_WINDOW_LOG_MAX 31
/* zstd's smallest window: every frame may ask this much (ZSTD_WINDOWLOG_ABSOLUTEMIN is 10). */
#define ZSTD_WINDOW_LOG_MIN 10

/*
 * A decoder's work space comes out of the check's memory budget beside the copy it writes
 * (half the budget, limits.c): a quarter is left for it, so the two together stay within.
 */
static uint64_t decoder_budget(const struct tfk_limits *lim)
{
	return lim->max_memory / 4;
}

/* The largest zstd window log whose window fits the decoder's share of the budget. */
static int zstd_window_log(const struct tfk_limits *lim)
{
	int log = ZSTD_WINDOW_LOG_MIN;
	while (log < ZSTD_WINDOW_LOG_MAX && (2ull << log) <= decoder_budget(lim))
		log++;
	return log;
}

/* When reading stops however the bytes come: timeout_ms after start_ms (or now); 0 = never. */
static uint64_t deadline_of(const struct tfk_limits *lim)
{
	if (!lim->timeout_ms)
		return 0;
	return (lim->start_ms ? lim->start_ms : tfk_now_ms()) + lim->timeout_ms;
}

enum tfk_packing tfk_packing_of(const uint8_t *d, size_t n)
{
	if (n >= 6 && memcmp(d, "\xfd" "7zXZ\0", 6) == 0)
		return TFK_PACKING_XZ;
	if (n >= 3 && d[0] == 0x1f && d[1] == 0x8b && d[2] == 8)
		return TFK_PACKING_GZIP;
	if (n >= 4 && d[0] == 0x28 && d[1] == 0xb5 && d[2] == 0x2f && d[3] == 0xfd)
		return TFK_PACKING_ZSTD;
	return TFK_PACKING_NONE;
}

const char *tfk_packing_name(enum tfk_packing p)
{
	switch (p) {
	case TFK_PACKING_GZIP: return "gzip";
	case TFK_PACKING_XZ: return "xz";
	case TFK_PACKING_ZSTD: return "zstd";
	case TFK_PACKING_NONE: break;
	}
	return "none";
}

/* A memory file that bytes are appended to, then mapped like a file. */
struct sink {
	int fd;
	uint64_t size, cap;
	uint64_t deadline;    /* tfk_now_ms() past which nothing more is taken, or 0 */
	bool capped, late;
	int err;
};

static bool sink_open(struct sink *s, const struct tfk_limits *lim)
{
	memset(s, 0, sizeof(*s));
	s->cap = lim->max_input_bytes;
	s->deadline = deadline_of(lim);
	s->fd = memfd_create("tracefsck-input", MFD_CLOEXEC);
	if (s->fd < 0)
		s->err = errno;
	return s->fd >= 0;
}

/* Append n bytes, up to the cap; false when no more should be written. */
static bool sink_put(struct sink *s, const uint8_t *p, size_t n)
{
	/* a decoder spinning out a bomb, or a pipe trickling, stops at the deadline too */
	if (s->deadline && tfk_now_ms() >= s->deadline) {
		s->late = true;
		return false;
	}
	if (s->cap - s->size < n) {
		n = (size_t)(s->cap - s->size);
		s->capped = true;
	}
	for (size_t done = 0; done < n;) {
		ssize_t w = write(s->fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			s->err = w < 0 ? errno : EIO;
			return false;
		}
		done += (size_t)w;
	}
	s->size += n;
	return !s->capped;
}

/* Map what the sink holds into loaded (which then owns the memory file). */
static enum tfk_load_result sink_map(struct sink *s, struct tfk_loaded *l, const char **what, int *err)
{
	if (s->err) {
		*what = "write to memory";
		*err = s->err;
		close(s->fd);
		return TFK_LOAD_ERROR;
	}
	l->fd = s->fd;
	l->owns_fd = true;
	l->size = (size_t)s->size;
	if (s->size) {
		void *p = mmap(NULL, l->size, PROT_READ, MAP_SHARED, s->fd, 0);
		if (p == MAP_FAILED) {
			*what = "mmap";
			*err = errno;
			close(s->fd);
			l->fd = -1;
			return TFK_LOAD_ERROR;
		}
		l->data = p;
	}
	return TFK_LOAD_OK;
}

/* A pipe, FIFO or socket, read to its end (or the cap, or an idle timeout). */
static enum tfk_load_result read_stream(int fd, const struct tfk_limits *lim, struct tfk_loaded *l, const char **what,
					int *err)
{
	struct sink s;
	if (!sink_open(&s, lim)) {
		*what = "memfd_create";
		*err = s.err;
		return TFK_LOAD_ERROR;
	}
	uint8_t *buf = malloc(CHUNK);
	if (!buf) {
		close(s.fd);
		*what = "read buffer";
		*err = ENOMEM;
		return TFK_LOAD_ERROR;
	}
	l->streamed = true;
	for (;;) {
		/* wait for the next byte as long as the idle timeout allows, and never past the deadline */
		int timeout = lim->input_idle_ms ? (lim->input_idle_ms > INT32_MAX ? INT32_MAX : (int)lim->input_idle_ms) : -1;
		if (s.deadline) {
			uint64_t now = tfk_now_ms();
			if (now >= s.deadline) {
				s.late = true;
				break;
			}
			if (timeout < 0 || s.deadline - now < (uint64_t)timeout)
				timeout = (int)(s.deadline - now);
		}
		/*
		 * Poll before each read: a FIFO opened without a writer reads as ended, but polls
		 * as waiting until a writer comes (and then as hung up when the last one goes).
		 */
		struct pollfd p = { .fd = fd, .events = POLLIN };
		int r = poll(&p, 1, timeout);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			*what = "poll";
			*err = errno;
			free(buf);
			close(s.fd);
			return TFK_LOAD_ERROR;
		}
		if (r == 0) {
			if (s.deadline && tfk_now_ms() >= s.deadline)
				s.late = true;
			else
				l->stream_idle = true;
			break;
		}
		ssize_t n = read(fd, buf, CHUNK);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n < 0) {
			*what = "read";
			*err = errno;
			free(buf);
			close(s.fd);
			return TFK_LOAD_ERROR;
		}
		if (n == 0 || !sink_put(&s, buf, (size_t)n))
			break;
	}
	free(buf);
	l->stream_capped = s.capped;
	l->timed_out = s.late;
	return sink_map(&s, l, what, err);
}

/* Decoders: each turns [in, in + n) into the sink, and says where it stopped if it broke. */
static void unpack_gzip(const uint8_t *in, size_t n, struct sink *s, uint8_t *buf, struct tfk_loaded *l)
{
	z_stream z;
	memset(&z, 0, sizeof(z));
	if (inflateInit2(&z, 15 + 16) != Z_OK) {
		l->unpack_error = "no memory for the gzip decoder";
		l->unpack_broken = true;
		return;
	}
	size_t at = 0;
	for (;;) {
		/* zlib counts in uInt: feed at most 1 GiB at a time */
		if (z.avail_in == 0 && at < n) {
			size_t feed = n - at < (1u << 30) ? n - at : (1u << 30);
			z.next_in = (Bytef *)(uintptr_t)(in + at);
			z.avail_in = (uInt)feed;
			at += feed;
		}
		z.next_out = buf;
		z.avail_out = CHUNK;
		int rc = inflate(&z, Z_NO_FLUSH);
		size_t got = CHUNK - z.avail_out;
		if (got && !sink_put(s, buf, got))
			break;
		if (rc == Z_STREAM_END) {
			/* gzip members may follow one another (cat a.gz b.gz); trailing zeros are padding */
			size_t pos = at - z.avail_in;
			while (pos < n && in[pos] == 0)
				pos++;
			if (pos >= n)
				break;
			inflateReset(&z);
			z.next_in = (Bytef *)(uintptr_t)(in + pos);
			size_t feed = n - pos < (1u << 30) ? n - pos : (1u << 30);
			z.avail_in = (uInt)feed;
			at = pos + feed;
			continue;
		}
		if (rc == Z_BUF_ERROR && z.avail_in == 0 && at >= n) {
			l->unpack_error = "the gzip data ends before its stream does";
			l->unpack_broken = true;
			l->unpack_error_at = n;
			break;
		}
		if (rc != Z_OK && rc != Z_BUF_ERROR) {
			l->unpack_error = z.msg ? "the gzip data is damaged" : "the gzip decoder failed";
			l->unpack_broken = true;
			l->unpack_error_at = at - z.avail_in;
			break;
		}
	}
	inflateEnd(&z);
}

static void unpack_xz(const uint8_t *in, size_t n, struct sink *s, uint8_t *buf, struct tfk_loaded *l,
		      const struct tfk_limits *lim)
{
	lzma_stream x = LZMA_STREAM_INIT;
	uint64_t memlimit = decoder_budget(lim) < XZ_MEMLIMIT ? decoder_budget(lim) : XZ_MEMLIMIT;
	l->unpack_work_cap = memlimit;
	if (lzma_stream_decoder(&x, memlimit, LZMA_CONCATENATED) != LZMA_OK) {
		l->unpack_error = "no memory for the xz decoder";
		l->unpack_broken = true;
		return;
	}
	x.next_in = in;
	x.avail_in = n;
	for (;;) {
		x.next_out = buf;
		x.avail_out = CHUNK;
		lzma_ret rc = lzma_code(&x, x.avail_in ? LZMA_RUN : LZMA_FINISH);
		size_t got = CHUNK - x.avail_out;
		if (got && !sink_put(s, buf, got))
			break;
		if (rc == LZMA_STREAM_END)
			break;
		if (rc == LZMA_MEMLIMIT_ERROR) {
			/* a dictionary the budget cannot pay for: not damage, a limit */
			l->unpack_over_budget = true;
			l->unpack_work = lzma_memusage(&x);
			break;
		}
		if (rc != LZMA_OK) {
			l->unpack_broken = true;
			l->unpack_error_at = n - x.avail_in;
			l->unpack_error = rc == LZMA_BUF_ERROR ? "the xz data ends before its stream does" : "the xz data is damaged";
			break;
		}
	}
	lzma_end(&x);
}

static void unpack_zstd(const uint8_t *in, size_t n, struct sink *s, uint8_t *buf, struct tfk_loaded *l,
			const struct tfk_limits *lim)
{
	ZSTD_DCtx *d = ZSTD_createDCtx();
	if (!d) {
		l->unpack_error = "no memory for the zstd decoder";
		l->unpack_broken = true;
		return;
	}
	int window_log = zstd_window_log(lim);
	l->unpack_work_cap = 1ull << window_log;
	ZSTD_DCtx_setParameter(d, ZSTD_d_windowLogMax, window_log);
	ZSTD_inBuffer ib = { in, n, 0 };
	size_t left = 1; /* ZSTD_decompressStream: 0 once a frame is whole */
	for (;;) {
		ZSTD_outBuffer ob = { buf, CHUNK, 0 };
		size_t before = ib.pos;
		left = ZSTD_decompressStream(d, &ob, &ib);
		if (ZSTD_isError(left) && ZSTD_getErrorCode(left) == ZSTD_error_frameParameter_windowTooLarge) {
			/* a window the budget cannot pay for: not damage, a limit */
			l->unpack_over_budget = true;
			break;
		}
		if (ZSTD_isError(left)) {
			l->unpack_broken = true;
			l->unpack_error_at = ib.pos;
			l->unpack_error = "the zstd data is damaged";
			break;
		}
		if (ob.pos && !sink_put(s, buf, ob.pos))
			break;
		if (ib.pos == ib.size && ob.pos < ob.size) {
			if (left != 0) {
				l->unpack_broken = true;
				l->unpack_error_at = n;
				l->unpack_error = "the zstd data ends before its frame does";
			}
			break;
		}
		if (ib.pos == before && ob.pos == 0)
			break; /* no progress: never loop */
	}
	ZSTD_freeDCtx(d);
}

/* The mapping l holds is compressed: replace it with what it decompresses to. */
static enum tfk_load_result unpack(struct tfk_loaded *l, const struct tfk_limits *lim, const char **what, int *err)
{
	struct sink s;
	if (!sink_open(&s, lim)) {
		*what = "memfd_create";
		*err = s.err;
		return TFK_LOAD_ERROR;
	}
	uint8_t *buf = malloc(CHUNK);
	if (!buf) {
		close(s.fd);
		*what = "decompression buffer";
		*err = ENOMEM;
		return TFK_LOAD_ERROR;
	}
	struct tfk_loaded packed = *l;
	l->packed_size = l->size;
	switch (l->packing) {
	case TFK_PACKING_GZIP: unpack_gzip(packed.data, packed.size, &s, buf, l); break;
	case TFK_PACKING_XZ: unpack_xz(packed.data, packed.size, &s, buf, l, lim); break;
	case TFK_PACKING_ZSTD: unpack_zstd(packed.data, packed.size, &s, buf, l, lim); break;
	case TFK_PACKING_NONE: break;
	}
	free(buf);
	l->unpack_capped = s.capped;
	l->timed_out = s.late;
	/* the compressed bytes are done with: the check reads the decompressed ones */
	l->src_changed = tfk_mapguard_faulted(packed.guard);
	tfk_unload(&packed);
	l->guard = -1;
	l->data = NULL;
	l->fd = -1;
	l->owns_fd = false;
	return sink_map(&s, l, what, err);
}

static const char *kind_of(mode_t m)
{
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	return "a special file";
}

enum tfk_load_result tfk_load_fd(int fd, const struct tfk_limits *lim, struct tfk_loaded *l, const char **what,
				 int *err)
{
	memset(l, 0, sizeof(*l));
	l->fd = -1;
	l->guard = -1;
	l->src_fd = -1;
	struct stat st;
	if (fstat(fd, &st) != 0) {
		*what = "stat";
		*err = errno;
		return TFK_LOAD_ERROR;
	}
	if (S_ISDIR(st.st_mode))
		return TFK_LOAD_DIRECTORY;
	l->started_ms = lim->start_ms ? lim->start_ms : tfk_now_ms();
	enum tfk_load_result r = TFK_LOAD_OK;
	if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)) {
		r = read_stream(fd, lim, l, what, err);
	} else if (!S_ISREG(st.st_mode)) {
		l->kind = kind_of(st.st_mode);
		return TFK_LOAD_NOT_A_FILE;
	} else if (st.st_size > 0) {
		l->src_fd = fd;
		l->src_size = (uint64_t)st.st_size;
		l->src_mtime_s = (int64_t)st.st_mtim.tv_sec;
		l->src_mtime_ns = (int64_t)st.st_mtim.tv_nsec;
		l->size = (size_t)st.st_size;
		void *p = mmap(NULL, l->size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			*what = "mmap";
			*err = errno;
			return TFK_LOAD_ERROR;
		}
		l->data = p;
		l->guard = tfk_mapguard_add(p, l->size); /* a file shrunk under it reads zeros, not SIGBUS */
		l->fd = fcntl(fd, F_DUPFD_CLOEXEC, 0); /* CPU data may be read by descriptor (tfk_ctx.fd) */
		l->owns_fd = l->fd >= 0;
	}
	if (r == TFK_LOAD_OK && (l->packing = tfk_packing_of(l->data, l->size)) != TFK_PACKING_NONE)
		r = unpack(l, lim, what, err);
	return r;
}

void tfk_unload(struct tfk_loaded *l)
{
	tfk_mapguard_remove(l->guard);
	l->guard = -1;
	if (l->data)
		munmap((void *)l->data, l->size);
	if (l->owns_fd && l->fd >= 0)
		close(l->fd);
	l->data = NULL;
	l->fd = -1;
	l->owns_fd = false;
}

/* A cap the memory budget sets (tfk_limits_set_memory): the finding says which share it is. */
static void budget_hit(struct tfk_ctx *ctx, uint64_t offset, const char *what, uint64_t value, uint64_t cap,
		       const char *share)
{
	struct tfk_finding *f = tfk_emit(ctx, TFK_CORE_LIMIT_REACHED, offset, 0);
	tfk_set_path(f, "%s", what);
	tfk_set_expected(f, "at most %llu (%s of %llu)", (unsigned long long)cap, share,
			 (unsigned long long)ctx->limits->max_memory);
	tfk_set_found(f, "%llu", (unsigned long long)value);
	tfk_mark_incomplete(ctx);
}

void tfk_load_report(struct tfk_ctx *ctx, const struct tfk_loaded *l)
{
	if (l->packing != TFK_PACKING_NONE) {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_COMPRESSED);
		tfk_set_path(f, "the whole input");
		tfk_set_found(f, "%s: %llu bytes, decompressed to %llu; offsets are in the decompressed trace",
			      tfk_packing_name(l->packing), (unsigned long long)l->packed_size,
			      (unsigned long long)l->size);
	}
	if (l->unpack_broken) {
		struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_COMPRESSION_DAMAGED);
		tfk_set_path(f, "%s data", tfk_packing_name(l->packing));
		tfk_set_expected(f, "a whole %s stream", tfk_packing_name(l->packing));
		tfk_set_found(f, "%s, at byte %llu of %llu; the %llu bytes before it were checked",
			      l->unpack_error ? l->unpack_error : "damage", (unsigned long long)l->unpack_error_at,
			      (unsigned long long)l->packed_size, (unsigned long long)l->size);
	}
	if (l->unpack_capped)
		budget_hit(ctx, l->size, "bytes of a decompressed input", (uint64_t)l->size + 1, ctx->limits->max_input_bytes,
			   "half the memory budget");
	if (l->stream_capped)
		budget_hit(ctx, l->size, "bytes read from a pipe", (uint64_t)l->size + 1, ctx->limits->max_input_bytes,
			   "half the memory budget");
	if (l->unpack_over_budget)
		budget_hit(ctx, l->size, l->packing == TFK_PACKING_XZ ? "bytes of the xz decoder's dictionary" : "bytes of the zstd window",
			   l->unpack_work > l->unpack_work_cap ? l->unpack_work : l->unpack_work_cap + 1, l->unpack_work_cap,
			   "a quarter of the memory budget");
	if (l->timed_out) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CORE_LIMIT_REACHED, l->size, 0);
		tfk_set_path(f, "milliseconds spent reading the input");
		tfk_set_expected(f, "at most %u (the timeout of the run)", ctx->limits->timeout_ms);
		tfk_set_found(f, "%llu; the %llu bytes read by then were checked", (unsigned long long)(tfk_now_ms() - l->started_ms),
			      (unsigned long long)l->size);
		tfk_mark_incomplete(ctx);
	}
	if (l->stream_idle) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_CORE_INPUT_STREAM_STALLED, l->size, 0);
		tfk_set_path(f, "pipe");
		tfk_set_expected(f, "the writer to finish, with a byte at least every %u ms", ctx->limits->input_idle_ms);
		tfk_set_found(f, "no more bytes after %llu; what came was checked", (unsigned long long)l->size);
		tfk_mark_incomplete(ctx);
	}
}

bool tfk_file_changed(int fd, uint64_t size, int64_t mtime_s, int64_t mtime_ns)
{
	struct stat st;
	if (fd < 0 || fstat(fd, &st) != 0)
		return false;
	return (uint64_t)st.st_size != size || (int64_t)st.st_mtim.tv_sec != mtime_s ||
	       (int64_t)st.st_mtim.tv_nsec != mtime_ns;
}

void tfk_load_report_changed(struct tfk_ctx *ctx, const struct tfk_loaded *l)
{
	if (l->src_fd < 0)
		return;
	bool cut = l->src_changed || tfk_mapguard_faulted(l->guard);
	struct stat st;
	if (!cut && !tfk_file_changed(l->src_fd, l->src_size, l->src_mtime_s, l->src_mtime_ns))
		return;
	struct tfk_finding *f = tfk_emit_nooffset(ctx, TFK_CORE_INPUT_CHANGED);
	tfk_set_path(f, "the whole input");
	tfk_set_expected(f, "%llu bytes, unchanged while it was read", (unsigned long long)l->src_size);
	if (fstat(l->src_fd, &st) == 0)
		tfk_set_found(f, "%llu bytes%s%s", (unsigned long long)st.st_size,
			      (uint64_t)st.st_size == l->src_size ? ", modified" : "",
			      cut ? "; bytes past its new end read as zeros" : "");
	else
		tfk_set_found(f, "changed%s", cut ? "; bytes past its new end read as zeros" : "");
	tfk_mark_incomplete(ctx);
}
