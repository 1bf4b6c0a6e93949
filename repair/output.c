/* SPDX-License-Identifier: MIT */
/* Building the segment list of a repaired file, and storing it (see output.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "mapguard.h"
#include "output.h"
#include "tracefsck/check.h"

/* Bytes handed to one write(): big enough to be cheap, small enough to hand input pages back. */
#define WRITE_STEP (8u << 20)

static struct rp_seg *new_seg(struct rp_out *o, enum rp_seg_kind kind)
{
	void *segs = o->segs;
	bool grown = rp_grow(&segs, &o->segs_cap, o->nsegs + 1, sizeof(*o->segs));
	o->segs = segs;
	if (!grown) {
		o->oom = true;
		return NULL;
	}
	struct rp_seg *s = &o->segs[o->nsegs++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	return s;
}

static struct rp_seg *last_seg(struct rp_out *o, enum rp_seg_kind kind)
{
	return o->nsegs && o->segs[o->nsegs - 1].kind == kind ? &o->segs[o->nsegs - 1] : NULL;
}

uint8_t *rp_out_space(struct rp_out *o, size_t n)
{
	if (o->oom)
		return NULL;
	struct rp_blob *b = &o->made;
	if (!rp_blob_reserve(b, n)) {
		o->oom = true;
		return NULL;
	}
	/* made bytes are contiguous in the blob, so a run of them is one segment */
	struct rp_seg *s = last_seg(o, RP_SEG_MADE);
	if (!s) {
		s = new_seg(o, RP_SEG_MADE);
		if (!s)
			return NULL;
		s->made_at = b->len;
	}
	uint8_t *p = b->data + b->len;
	memset(p, 0, n);
	b->len += n;
	s->len += n;
	o->len += n;
	return p;
}

void rp_out_put(struct rp_out *o, const void *p, size_t n)
{
	uint8_t *dst = rp_out_space(o, n);
	if (dst && n)
		memcpy(dst, p, n);
}

void rp_out_num(struct rp_out *o, uint64_t v, unsigned width)
{
	uint8_t *dst = rp_out_space(o, width);
	if (dst)
		rp_put_num(dst, v, width, o->be);
}

size_t rp_out_mark(const struct rp_out *o)
{
	return o->made.len;
}

void rp_out_patch(struct rp_out *o, size_t mark, uint64_t v, unsigned width)
{
	if (!o->oom && mark <= o->made.len && width <= o->made.len - mark)
		rp_put_num(o->made.data + mark, v, width, o->be);
}

void rp_out_zeros_to(struct rp_out *o, uint64_t at)
{
	if (o->oom || at <= o->len)
		return;
	struct rp_seg *s = last_seg(o, RP_SEG_ZERO);
	if (!s && !(s = new_seg(o, RP_SEG_ZERO)))
		return;
	s->len += at - o->len;
	o->len = at;
}

void rp_out_keep_at(struct rp_out *o, const struct tfk_cursor *in, uint64_t at, uint64_t n)
{
	const uint8_t *p;
	if (n > SIZE_MAX || !tfk_cur_bytes_at(in, at, n, &p)) {
		o->oom = true;
		return;
	}
	rp_out_keep(o, p, (size_t)n);
}

void rp_out_keep(struct rp_out *o, const uint8_t *p, size_t n)
{
	if (o->oom || !n)
		return;
	struct rp_seg *s = last_seg(o, RP_SEG_KEPT);
	if (!s || s->kept + s->len != p) {
		s = new_seg(o, RP_SEG_KEPT);
		if (!s)
			return;
		s->kept = p;
	}
	s->len += n;
	o->len += n;
}

void rp_out_free(struct rp_out *o)
{
	free(o->made.data);
	free(o->segs);
	memset(o, 0, sizeof(*o));
}

/* Can [at, at + n) be overwritten in place: made bytes at the start of the output? */
static bool head_made(const struct rp_out *o, uint64_t at, size_t n)
{
	return o->nsegs && o->segs[0].kind == RP_SEG_MADE && o->segs[0].made_at == 0 && at <= o->segs[0].len &&
	       n <= o->segs[0].len - at;
}

/* Every byte of the output made: kept and zero segments copied in. */
static void flatten(struct rp_out *o)
{
	uint8_t *all;
	if (rp_out_to_buffer(o, &all) != 0) {
		o->oom = true;
		return;
	}
	struct rp_out flat = { .be = o->be };
	rp_out_put(&flat, all, (size_t)o->len);
	free(all);
	rp_out_free(o);
	*o = flat;
}

void rp_out_overwrite(struct rp_out *o, uint64_t at, const void *p, size_t n)
{
	if (o->oom || at > o->len || n > o->len - at)
		return;
	if (!head_made(o, at, n))
		flatten(o);
	if (!o->oom && head_made(o, at, n) && n)
		memcpy(o->made.data + at, p, n);
}

void rp_out_patch_at(struct rp_out *o, uint64_t at, uint64_t v, unsigned width)
{
	uint8_t b[8];
	if (width > sizeof(b))
		return;
	rp_put_num(b, v, width, o->be);
	rp_out_overwrite(o, at, b, width);
}

int rp_out_to_buffer(const struct rp_out *o, uint8_t **data)
{
	*data = NULL;
	if (o->oom || o->len > SIZE_MAX)
		return -1;
	uint8_t *p = malloc(o->len ? (size_t)o->len : 1);
	if (!p)
		return -1;
	size_t at = 0;
	for (size_t i = 0; i < o->nsegs; i++) {
		const struct rp_seg *s = &o->segs[i];
		if (s->kind == RP_SEG_MADE)
			memcpy(p + at, o->made.data + s->made_at, s->len);
		else if (s->kind == RP_SEG_KEPT)
			memcpy(p + at, s->kept, s->len);
		else
			memset(p + at, 0, s->len);
		at += s->len;
	}
	*data = p;
	return 0;
}

int rp_write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Whole pages of [p, p + n) leave this process (they are a file mapping's: nothing is lost). */
static void hand_back(const uint8_t *p, size_t n)
{
	long sp = sysconf(_SC_PAGESIZE);
	if (sp <= 0)
		return;
	uintptr_t mask = (uintptr_t)sp - 1, a = ((uintptr_t)p + mask) & ~mask, b = ((uintptr_t)p + n) & ~mask;
	if (b > a)
		madvise((void *)a, b - a, MADV_DONTNEED);
}

/* Blocks of output that are all zeros become holes: a sparse input's holes stay holes. */
#define HOLE_BLOCK 4096u

static bool all_zero(const uint8_t *p, size_t n)
{
	return n == 0 || (p[0] == 0 && memcmp(p, p + 1, n - 1) == 0);
}

/* n bytes at p to fd from its position, all-zero blocks skipped (seeked over). */
static int write_sparse(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		size_t run = 0;
		while (run < n && all_zero(p + run, n - run < HOLE_BLOCK ? n - run : HOLE_BLOCK))
			run += n - run < HOLE_BLOCK ? n - run : HOLE_BLOCK;
		if (run && lseek(fd, (off_t)run, SEEK_CUR) < 0)
			return -1;
		p += run;
		n -= run;
		size_t data = 0;
		while (data < n && !all_zero(p + data, n - data < HOLE_BLOCK ? n - data : HOLE_BLOCK))
			data += n - data < HOLE_BLOCK ? n - data : HOLE_BLOCK;
		if (data && rp_write_all(fd, p, data) != 0)
			return -1;
		p += data;
		n -= data;
	}
	return 0;
}

/* A file that ends in a hole has its size from ftruncate, not from a write. */
static int end_sparse(int fd)
{
	off_t at = lseek(fd, 0, SEEK_CUR);
	return at < 0 || ftruncate(fd, at) != 0 ? -1 : 0;
}

int rp_out_to_fd(const struct rp_out *o, int fd)
{
	if (o->oom) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < o->nsegs; i++) {
		const struct rp_seg *s = &o->segs[i];
		if (s->kind == RP_SEG_ZERO) {
			if (s->len > INT64_MAX || lseek(fd, (off_t)s->len, SEEK_CUR) < 0)
				return -1;
			continue;
		}
		for (uint64_t done = 0; done < s->len;) {
			size_t n = s->len - done < WRITE_STEP ? (size_t)(s->len - done) : WRITE_STEP;
			int rc;
			if (s->kind == RP_SEG_MADE) {
				rc = rp_write_all(fd, o->made.data + s->made_at + done, n);
			} else {
				rc = write_sparse(fd, s->kept + done, n);
				hand_back(s->kept + done, n); /* read once; resident memory stays flat */
			}
			if (rc != 0)
				return -1;
			done += n;
		}
	}
	return end_sparse(fd);
}

int rp_copy_sparse(int out_fd, int in_fd, const uint8_t *data, size_t size)
{
	/* the file's own map of data and holes, copied range by range in the kernel */
	off_t at = 0;
	bool ok = in_fd >= 0;
	while (ok && (uint64_t)at < size) {
		off_t from = lseek(in_fd, at, SEEK_DATA);
		if (from < 0 && errno == ENXIO)
			break; /* a hole to the end */
		off_t to = from < 0 ? -1 : lseek(in_fd, from, SEEK_HOLE);
		if (from < 0 || to < 0) {
			ok = false;
			break;
		}
		if ((uint64_t)to > size)
			to = (off_t)size;
		for (off_t in = from, out = from; in < to;) {
			ssize_t n = copy_file_range(in_fd, &in, out_fd, &out, (size_t)(to - in < (1 << 30) ? to - in : (1 << 30)), 0);
			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0) {
				/* not in the kernel here (another file system, an old kernel): by hand */
				if (lseek(out_fd, in, SEEK_SET) < 0 || write_sparse(out_fd, data + in, (size_t)(to - in)) != 0)
					return -1;
				break;
			}
		}
		at = to;
	}
	if (ok)
		return lseek(out_fd, (off_t)size, SEEK_SET) < 0 ? -1 : end_sparse(out_fd);
	/* no SEEK_DATA: the bytes themselves say where the holes may be */
	if (lseek(out_fd, 0, SEEK_SET) < 0 || write_sparse(out_fd, data, size) != 0)
		return -1;
	return end_sparse(out_fd);
}

static int pwrite_all(int fd, const uint8_t *p, uint64_t n, uint64_t at)
{
	while (n) {
		ssize_t w = pwrite(fd, p, n < WRITE_STEP ? (size_t)n : WRITE_STEP, (off_t)at);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += w;
		n -= (uint64_t)w;
		at += (uint64_t)w;
	}
	return 0;
}

/*
 * The part [*a, *b) of a kept segment at output offset at that can be mapped from the input
 * file: page-aligned on both sides, at the same place within a page in input and output.
 */
static bool mappable(const struct rp_seg *s, uint64_t at, const uint8_t *input, size_t input_size, uint64_t sp,
		     uint64_t *a, uint64_t *b, uint64_t *src)
{
	if (s->kind != RP_SEG_KEPT || !input || s->kept < input || (size_t)(s->kept - input) > input_size ||
	    s->len > input_size - (size_t)(s->kept - input))
		return false;
	uint64_t off = (uint64_t)(s->kept - input);
	if (off % sp != at % sp)
		return false;
	*a = (at + sp - 1) / sp * sp;
	*b = (at + s->len) / sp * sp;
	*src = off + (*a - at);
	return *b > *a;
}

/*
 * Address space for the view, placed so that the largest run mapped from the input sits at
 * the same offset within a huge page as in the input's page cache: large folios can then be
 * mapped whole (a fault per 2 MiB, not per few pages), as in a check of the file itself.
 */
static uint8_t *place_view(const struct rp_out *o, const uint8_t *input, size_t input_size, bool map_input, uint64_t sp)
{
	const uint64_t huge = 2u << 20;
	uint64_t at = 0, a, b, src, best = 0, want = 0;
	for (size_t i = 0; map_input && i < o->nsegs; at += o->segs[i].len, i++)
		if (mappable(&o->segs[i], at, input, input_size, sp, &a, &b, &src) && b - a > best) {
			best = b - a;
			want = (src - a) % huge; /* base must be this, modulo a huge page */
		}
	if (o->len > SIZE_MAX - huge)
		return MAP_FAILED;
	size_t span = (size_t)o->len + huge;
	uint8_t *r = mmap(NULL, span, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (r == MAP_FAILED)
		return MAP_FAILED;
	size_t head = (size_t)((want + huge - (uintptr_t)r % huge) % huge);
	if (head)
		munmap(r, head);
	if (huge - head)
		munmap(r + head + o->len, huge - head);
	return r + head;
}

const uint8_t *rp_out_view(const struct rp_out *o, const uint8_t *input, size_t input_size, int input_fd,
			   struct tfk_mapped_source **sources, size_t *nsources)
{
	*sources = NULL;
	*nsources = 0;
	long page = sysconf(_SC_PAGESIZE);
	if (o->oom || !o->len || o->len > SIZE_MAX || page <= 0)
		return NULL;
	const uint64_t sp = (uint64_t)page;
	int mfd = memfd_create("tracefsck-repaired", MFD_CLOEXEC);
	if (mfd < 0)
		return NULL;
	bool ok = ftruncate(mfd, (off_t)o->len) == 0; /* sparse: zero runs cost nothing */
	uint64_t at = 0, a, b, src;
	for (size_t i = 0; ok && i < o->nsegs; at += o->segs[i].len, i++) {
		const struct rp_seg *s = &o->segs[i];
		if (s->kind == RP_SEG_MADE) {
			ok = pwrite_all(mfd, o->made.data + s->made_at, s->len, at) == 0;
		} else if (s->kind == RP_SEG_KEPT) {
			if (input_fd >= 0 && mappable(s, at, input, input_size, sp, &a, &b, &src))
				ok = pwrite_all(mfd, s->kept, a - at, at) == 0 && /* the unaligned edges */
				     pwrite_all(mfd, s->kept + (b - at), at + s->len - b, b) == 0;
			else
				ok = pwrite_all(mfd, s->kept, s->len, at) == 0;
		}
	}
	uint8_t *view = ok ? place_view(o, input, input_size, input_fd >= 0, sp) : MAP_FAILED;
	if (view != MAP_FAILED && mmap(view, (size_t)o->len, PROT_READ, MAP_SHARED | MAP_FIXED, mfd, 0) == MAP_FAILED) {
		munmap(view, (size_t)o->len);
		view = MAP_FAILED;
	}
	close(mfd); /* the mapping keeps the memory file */
	if (view == MAP_FAILED)
		return NULL;
	size_t n = 0;
	at = 0;
	for (size_t i = 0; input_fd >= 0 && i < o->nsegs; at += o->segs[i].len, i++)
		n += mappable(&o->segs[i], at, input, input_size, sp, &a, &b, &src);
	struct tfk_mapped_source *list = n ? calloc(n, sizeof(*list)) : NULL;
	n = 0;
	at = 0;
	for (size_t i = 0; input_fd >= 0 && i < o->nsegs; at += o->segs[i].len, i++) {
		if (!mappable(&o->segs[i], at, input, input_size, sp, &a, &b, &src))
			continue;
		if (mmap(view + a, (size_t)(b - a), PROT_READ, MAP_PRIVATE | MAP_FIXED, input_fd, (off_t)src) == MAP_FAILED) {
			munmap(view, (size_t)o->len);
			free(list);
			return NULL;
		}
		if (list)
			list[n++] = (struct tfk_mapped_source){ a, b - a, input_fd, src };
	}
	*sources = list;
	*nsources = n;
	if (n)
		tfk_mapguard_add(view, (size_t)o->len); /* the input shrunk under it reads zeros, not SIGBUS */
	return view;
}

void rp_out_view_free(const uint8_t *view, uint64_t len)
{
	if (view) {
		tfk_mapguard_drop(view);
		munmap((void *)view, (size_t)len);
	}
}
