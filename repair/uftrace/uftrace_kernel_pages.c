/* SPDX-License-Identifier: MIT */
/*
 * The ring pages of a uftrace recording's kernel-cpu<N>.dat, repaired: a page the walk could
 * not use is dropped, a page good only up to a damaged event keeps those events (its commit
 * length cut there, the rest zeroed), a stray byte after the data is zeroed, and the page after
 * a loss says events were missed (commit bit 31), as the kernel marks its own losses. The part
 * of a page the end of the file cut is left out. Every other page is kept as it is.
 */
#include <string.h>

#include "uftrace_repair.h"

#define COMMIT_MISSED (1ull << 31)
#define COMMIT_MISSED_STORED (1ull << 30)

void ur_kernel_begin(struct ur_model *m, const struct tfk_uftrace_kernel *k)
{
	if (!rp_grow((void **)&m->kernels, &m->cap_kernels, m->nkernels + 1, sizeof(*m->kernels))) {
		m->oom = true;
		return;
	}
	struct ur_kernel *uk = &m->kernels[m->nkernels++];
	memset(uk, 0, sizeof(*uk));
	uk->k = *k;
	uk->k.member[sizeof(uk->k.member) - 1] = '\0';
	uk->whole_pages = k->page_size ? k->size / k->page_size : 0;
}

static void change(struct ur_model *m, struct ur_kernel *k, const struct ur_page *p)
{
	if (k->npages >= UR_MAX_LINES) {
		m->too_many = true;
		return;
	}
	if (!rp_grow((void **)&k->pages, &k->cap_pages, k->npages + 1, sizeof(*k->pages))) {
		m->oom = true;
		return;
	}
	k->pages[k->npages++] = *p;
}

void ur_kernel_page(void *user, const uint8_t *page, const struct tfk_page_info *info)
{
	(void)page;
	struct ur_model *m = user;
	if (!m->nkernels)
		return;
	struct ur_kernel *k = &m->kernels[m->nkernels - 1];
	const uint32_t ps = k->k.page_size;
	const uint64_t off = info->file_offset;
	if (!ps || off == TFK_PAGE_DECODED || off % ps || off / ps >= k->whole_pages) {
		/* what the end of the file left of a page: not written, its events lost */
		k->events_lost += info->events;
		k->lost_unknown = true;
		return;
	}
	struct ur_page p = { .offset = off };
	/* A damaged page whose surviving events go back before what is kept is garbage too. */
	bool backwards = info->state == TFK_PAGE_CLIPPED && info->events && k->have_ts && info->first_ts < k->last_ts;
	if (info->state == TFK_PAGE_BAD || backwards) {
		p.drop = true;
		change(m, k, &p);
		k->pages_dropped++;
		k->events_lost += backwards ? info->events : 0;
		k->lost_unknown = true;
		k->pending_missed = true;
		return;
	}
	uint32_t len = info->state == TFK_PAGE_EMPTY ? 0 : info->good_len;
	uint64_t commit = len;
	if (info->missed_events || k->pending_missed)
		commit |= COMMIT_MISSED;
	/* the stored count stays only where the page stays whole and nothing was lost before it */
	if (info->missed_stored && !k->pending_missed && info->state == TFK_PAGE_GOOD &&
	    (uint64_t)k->k.data_offset + len + k->k.commit_size <= ps) {
		commit |= COMMIT_MISSED_STORED;
		p.missed_count = info->missed_count;
	}
	p.len = len;
	p.commit = commit;
	if (commit != info->commit_word || !info->tail_zero)
		change(m, k, &p);
	k->events_kept += info->events;
	if (info->events) {
		k->last_ts = info->last_ts;
		k->have_ts = true;
	}
	k->pending_missed = info->state == TFK_PAGE_CLIPPED;
	if (info->state == TFK_PAGE_CLIPPED)
		k->lost_unknown = true;
}

static void put_num(uint8_t *p, uint64_t v, unsigned width, bool be)
{
	for (unsigned i = 0; i < width; i++)
		p[i] = (uint8_t)(v >> (8 * (be ? width - 1 - i : i)));
}

int ur_kernel_write(const struct ur_kernel *k, const uint8_t *data, uint64_t size, struct rp_out *o)
{
	const uint32_t ps = k->k.page_size, d = k->k.data_offset, cw = k->k.commit_size;
	const uint64_t whole = ps && k->whole_pages <= size / ps ? k->whole_pages : 0;
	size_t next = 0;
	for (uint64_t i = 0; i < whole; i++) {
		const uint64_t off = i * ps;
		const uint8_t *src = data + off;
		while (next < k->npages && k->pages[next].offset < off)
			next++;
		if (next == k->npages || k->pages[next].offset != off) {
			rp_out_keep(o, src, ps);
			continue;
		}
		const struct ur_page *p = &k->pages[next];
		if (p->drop)
			continue;
		uint8_t *dst = rp_out_space(o, ps);
		if (!dst)
			return -1;
		/* the timestamp, the rebuilt commit word, the kept events, the stored count, zeros */
		memset(dst, 0, ps);
		if (8 + (uint64_t)cw > ps || d > ps || p->len > ps - d)
			return -1;
		memcpy(dst, src, 8);
		put_num(dst + 8, p->commit, cw, k->k.big_endian);
		memcpy(dst + d, src + d, p->len);
		if (p->commit & COMMIT_MISSED_STORED)
			put_num(dst + d + p->len, p->missed_count, cw, k->k.big_endian);
	}
	return o->oom ? -1 : 0;
}
