/* SPDX-License-Identifier: MIT */
/* A record's function through the session maps, .sym and .dbg files (see uftrace_modules.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "input.h"
#include "uftrace_modules.h"

#define MAPS_MAX 4096    /* mappings kept over all sessions; more: lengths are guessed */
#define MODULES_MAX 1024
#define SESSIONS_MAX 256 /* each record's function is looked up in every session */

struct uf_sym {
	uint64_t addr, size;
	uint32_t name_off, name_len;
};

struct uf_dbgent {
	uint64_t off;
	size_t seq; /* the F: line's place in the file: the first of an offset is the one kept */
	uint32_t spec_off[2], spec_len[2]; /* [0] A:, [1] R: */
	bool has[2];
};

struct uf_module {
	uint32_t path_off, path_len, build_off, build_len;
	int state; /* 0: not read yet, 1: read, -1: unknown (no .sym, another file's, unsorted) */
	struct uf_sym *syms;
	size_t nsyms, cap_syms;
	struct uf_dbgent *dbg;
	size_t ndbg, cap_dbg;
	bool dbg_has[2];
};

struct uf_map {
	uint64_t start, end;
	size_t module, session;
};

struct uf_modules {
	const struct tfk_input *in;
	char *pool; /* paths, build ids, names and spec texts, referred to by offset */
	size_t pool_len, pool_cap;
	struct uf_module *mods;
	size_t nmods, cap_mods;
	struct uf_map *maps; /* sorted by session, then start; no overlap within a session */
	size_t nmaps, cap_maps;
	size_t *sess_end; /* where each session's maps end in maps */
	size_t nsess, cap_sess;
};

static bool pool_add(struct tfk_ctx *ctx, struct uf_modules *m, const char *s, size_t n, uint32_t *off)
{
	if (n > UINT32_MAX / 2 || m->pool_len > UINT32_MAX / 2 ||
	    !tfk_grow(ctx, (void **)&m->pool, &m->pool_cap, m->pool_len + n + 1, 1))
		return false;
	memcpy(m->pool + m->pool_len, s, n);
	m->pool[m->pool_len + n] = '\0';
	*off = (uint32_t)m->pool_len;
	m->pool_len += n + 1;
	return true;
}

/* "start-end perms offset dev inode path [build-id:HEX]" as read_session_map's sscanf reads it. */
static bool map_fields(const struct uf_line *l, uint64_t *start, uint64_t *end, const char **path, size_t *plen,
		       const char **build, size_t *blen)
{
	const char *tok[7];
	size_t len[7], k = 0, i = 0;
	while (k < 7) {
		while (i < l->len && (l->s[i] == ' ' || l->s[i] == '\t'))
			i++;
		if (i >= l->len)
			break;
		tok[k] = l->s + i;
		while (i < l->len && l->s[i] != ' ' && l->s[i] != '\t')
			i++;
		len[k] = (size_t)(l->s + i - tok[k]);
		k++;
	}
	if (k < 6)
		return false;
	const char *dash = memchr(tok[0], '-', len[0]);
	size_t a = dash ? (size_t)(dash - tok[0]) : 0, b = dash ? len[0] - a - 1 : 0;
	if (!dash || a > 16 || b > 16 || !uf_all_hex(tok[0], a) || !uf_all_hex(dash + 1, b))
		return false;
	*start = uf_hex_value(tok[0], a);
	*end = uf_hex_value(dash + 1, b);
	*path = tok[5];
	*plen = len[5];
	*build = NULL;
	*blen = 0;
	if (k == 7 && len[6] > 9 && memcmp(tok[6], "build-id:", 9) == 0) {
		*build = tok[6] + 9;
		*blen = len[6] - 9 > 40 ? 40 : len[6] - 9;
	}
	return true;
}

static size_t module_of(struct tfk_ctx *ctx, struct uf_modules *m, const char *path, size_t plen, const char *build,
			size_t blen)
{
	for (size_t i = 0; i < m->nmods; i++) {
		const struct uf_module *u = &m->mods[i];
		if (u->path_len == plen && memcmp(m->pool + u->path_off, path, plen) == 0 && u->build_len == blen &&
		    (blen == 0 || memcmp(m->pool + u->build_off, build, blen) == 0))
			return i;
	}
	if (m->nmods >= MODULES_MAX || !tfk_grow(ctx, (void **)&m->mods, &m->cap_mods, m->nmods + 1, sizeof(*m->mods)))
		return SIZE_MAX;
	struct uf_module *u = &m->mods[m->nmods];
	memset(u, 0, sizeof(*u));
	if (!pool_add(ctx, m, path, plen, &u->path_off) || !pool_add(ctx, m, build ? build : "", blen, &u->build_off))
		return SIZE_MAX;
	u->path_len = (uint32_t)plen;
	u->build_len = (uint32_t)blen;
	return m->nmods++;
}

/* One session's map file: its mappings, a path's segments joined, anonymous ones left out. */
static bool read_map(struct tfk_ctx *ctx, struct uf_modules *m, const struct tfk_cursor *file, size_t session)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	size_t first = m->nmaps;
	while (uf_next_line(&c, &l)) {
		uint64_t start, end;
		const char *path, *build;
		size_t plen, blen;
		/* a line the check reports is one repair drops: the repaired copy resolves the same */
		if (l.len == 0 || uf_map_line_bad(&l) || !map_fields(&l, &start, &end, &path, &plen, &build, &blen) ||
		    path[0] == '[')
			continue;
		if (m->nmaps > first) {
			struct uf_map *last = &m->maps[m->nmaps - 1];
			const struct uf_module *u = &m->mods[last->module];
			if (u->path_len == plen && memcmp(m->pool + u->path_off, path, plen) == 0) {
				last->end = end;
				continue;
			}
		}
		if (m->nmaps >= MAPS_MAX)
			return false;
		size_t mod = module_of(ctx, m, path, plen, build, blen);
		if (mod == SIZE_MAX || !tfk_grow(ctx, (void **)&m->maps, &m->cap_maps, m->nmaps + 1, sizeof(*m->maps)))
			return false;
		m->maps[m->nmaps++] = (struct uf_map){ start, end, mod, session };
	}
	/* uftrace takes the first mapping holding an address; sorted and apart, a search agrees. */
	for (size_t i = first + 1; i < m->nmaps; i++)
		if (m->maps[i].start < m->maps[i - 1].end)
			return false;
	return true;
}

/* One session's map member into m; false when the maps are not of a form followed here. */
static bool add_session(struct tfk_ctx *ctx, struct uf_modules *m, const struct tfk_member *mem)
{
	struct tfk_member_map map;
	if (mem->kind != TFK_MEMBER_FILE || tfk_member_open(m->in, mem, &map) != 0)
		return true; /* uftrace fails on a map it cannot read: no record is read at all */
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
	bool ok = m->nsess < SESSIONS_MAX && read_map(ctx, m, &c, m->nsess) &&
		  tfk_grow(ctx, (void **)&m->sess_end, &m->cap_sess, m->nsess + 1, sizeof(*m->sess_end));
	tfk_member_close(&map);
	if (ok)
		m->sess_end[m->nsess++] = m->nmaps;
	return ok;
}

struct uf_modules *uf_modules_new(struct tfk_ctx *ctx, const struct uf_state *st, const struct tfk_input *in)
{
	/* SYM_REL_ADDR (bit 5): symbol addresses relative to their module, as uftrace writes them since 0.9 */
	if (!(st->feat & (1ull << 5)))
		return NULL;
	struct uf_modules *m = tfk_calloc(ctx, 1, sizeof(*m));
	if (!m)
		return NULL;
	m->in = in;
	bool ok = true;
	for (size_t s = 0; s < st->n_sids && ok; s++) {
		char name[32];
		snprintf(name, sizeof(name), "sid-%s.map", st->sids[s].sid);
		const struct tfk_member *mem = tfk_input_find(in, name);
		ok = !mem || add_session(ctx, m, mem);
	}
	/*
	 * No SESS line left: repair makes task.txt again from the maps present, so they are the
	 * sessions the repaired directory is read with.
	 */
	for (size_t i = 0; i < in->n && ok && st->n_sids == 0; i++) {
		size_t n = strlen(in->members[i].name);
		if (n > 8 && memcmp(in->members[i].name, "sid-", 4) == 0 && strcmp(in->members[i].name + n - 4, ".map") == 0)
			ok = add_session(ctx, m, &in->members[i]);
	}
	if (!ok || m->nsess == 0) {
		uf_modules_free(m);
		return NULL;
	}
	return m;
}

static bool is_symbol_end(const char *s, size_t n)
{
	return (n == 9 && memcmp(s, "__sym_end", 9) == 0) || (n == 12 && memcmp(s, "__dynsym_end", 12) == 0) ||
	       (n == 10 && memcmp(s, "__func_end", 10) == 0);
}

static bool header_is(const struct uf_line *l, const char *key, const char *want, size_t want_len)
{
	size_t k = strlen(key);
	if (l->len < k || memcmp(l->s, key, k) != 0)
		return true; /* not this header */
	size_t n = l->len - k;
	return n == want_len && memcmp(l->s + k, want, n) == 0;
}

/* <basename>.sym as load_module_symbol_file reads it: false when the module stays unknown. */
static bool read_sym(struct tfk_ctx *ctx, struct uf_modules *m, struct uf_module *u, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	uint64_t prev_addr = UINT64_MAX;
	char prev_type = 'X';
	while (uf_next_line(&c, &l)) {
		if (l.len && l.s[0] == '#') {
			/* another binary's symbols: uftrace looks for another file, or reads the binary */
			if (!header_is(&l, "# path name: ", m->pool + u->path_off, u->path_len) ||
			    (u->build_len && !header_is(&l, "# build-id: ", m->pool + u->build_off, u->build_len)))
				return false;
			continue;
		}
		size_t i = 0;
		while (i < l.len && i < 16 && uf_all_hex(l.s + i, 1))
			i++;
		/* 16 hex digits, and not all ones: the check reports the others, and repair drops them */
		if (i != 16 || i + 3 > l.len || l.s[i] != ' ')
			continue;
		uint64_t addr = uf_hex_value(l.s, i);
		if (addr == UINT64_MAX)
			continue;
		/*
		 * uftrace 0.14's form (SYM_SIZE): "ADDR SIZE T NAME", told as its loader tells it, by
		 * a digit where the type would be; the size, 8 hex digits, bounds the symbol.
		 */
		uint64_t size = 0;
		if (l.s[i + 1] >= '0' && l.s[i + 1] <= '9') {
			size_t k = i + 1;
			while (k < l.len && k - i - 1 < 8 && uf_all_hex(l.s + k, 1))
				k++;
			size = uf_hex_value(l.s + i + 1, k - i - 1);
			if (k + 3 > l.len || l.s[k] != ' ')
				continue;
			i = k;
		}
		if (l.s[i + 2] != ' ')
			continue;
		char type = l.s[i + 1];
		const char *name = l.s + i + 3;
		const char *tab = memchr(name, '\t', l.len - i - 3);
		size_t nlen = tab ? (size_t)(tab - name) : l.len - i - 3;
		if (addr == prev_addr && type == prev_type)
			continue;
		if (!type || !strchr("?TtwPKDdvu", type))
			continue;
		prev_addr = addr;
		prev_type = type;
		if (type == '?' || is_symbol_end(name, nlen)) {
			if (u->nsyms && addr < u->syms[u->nsyms - 1].addr)
				return false; /* an end before its symbol: uftrace's size would wrap round */
			if (u->nsyms && u->syms[u->nsyms - 1].size == 0)
				u->syms[u->nsyms - 1].size = addr - u->syms[u->nsyms - 1].addr;
			continue;
		}
		if (u->nsyms && addr < u->syms[u->nsyms - 1].addr)
			return false; /* unsorted: uftrace's sizes would run backwards */
		uint32_t off;
		if (!tfk_grow(ctx, (void **)&u->syms, &u->cap_syms, u->nsyms + 1, sizeof(*u->syms)) ||
		    !pool_add(ctx, m, name, nlen, &off))
			return false;
		if (u->nsyms && u->syms[u->nsyms - 1].size == 0)
			u->syms[u->nsyms - 1].size = addr - u->syms[u->nsyms - 1].addr;
		u->syms[u->nsyms++] = (struct uf_sym){ addr, size, off, (uint32_t)nlen };
	}
	return true;
}

static int dbg_order(const void *a, const void *b)
{
	const struct uf_dbgent *x = a, *y = b;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* <basename>.dbg as read_debug_file reads it: any line it rejects drops every spec of the file. */
static void read_dbg(struct tfk_ctx *ctx, struct uf_modules *m, struct uf_module *u, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	bool func = false;
	uint64_t offset = 0;
	while (uf_next_line(&c, &l)) {
		size_t len = l.terminated || l.len == 0 ? l.len : l.len - 1; /* uftrace cuts the last byte */
		if (l.len && l.s[0] == '#')
			continue;
		if (l.len < 3 || l.s[1] != ':' || l.s[2] != ' ')
			goto invalid;
		if (l.s[0] == 'F') {
			size_t i = 3;
			while (i < len && i < 19 && uf_all_hex(l.s + i, 1))
				i++;
			offset = uf_hex_value(l.s + 3, i - 3);
			func = true;
		} else if (l.s[0] == 'A' || l.s[0] == 'R') {
			if (!func)
				goto invalid;
			int k = l.s[0] == 'R';
			if (!u->ndbg || u->dbg[u->ndbg - 1].off != offset) {
				if (!tfk_grow(ctx, (void **)&u->dbg, &u->cap_dbg, u->ndbg + 1, sizeof(*u->dbg)))
					goto invalid;
				memset(&u->dbg[u->ndbg], 0, sizeof(u->dbg[0]));
				u->dbg[u->ndbg].seq = u->ndbg;
				u->dbg[u->ndbg++].off = offset;
			}
			struct uf_dbgent *e = &u->dbg[u->ndbg - 1];
			if (!e->has[k]) {
				if (!pool_add(ctx, m, l.s + 3, len > 3 ? len - 3 : 0, &e->spec_off[k]))
					goto invalid;
				e->spec_len[k] = (uint32_t)(len > 3 ? len - 3 : 0);
				e->has[k] = true;
				u->dbg_has[k] = true;
			}
		} else if (l.s[0] != 'E' && l.s[0] != 'L') {
			goto invalid;
		}
	}
	if (u->ndbg > 1)
		qsort(u->dbg, u->ndbg, sizeof(*u->dbg), dbg_order);
	return;
invalid:
	u->ndbg = 0;
	u->dbg_has[0] = u->dbg_has[1] = false;
}

static const char *base_name(const char *path, size_t n, size_t *len)
{
	size_t i = n;
	while (i > 0 && path[i - 1] != '/')
		i--;
	*len = n - i;
	return path + i;
}

static bool open_member(const struct uf_modules *m, const struct uf_module *u, const char *suffix,
			struct tfk_member_map *map)
{
	size_t blen;
	const char *base = base_name(m->pool + u->path_off, u->path_len, &blen);
	char name[300];
	if (blen == 0 || blen + strlen(suffix) >= sizeof(name))
		return false;
	memcpy(name, base, blen);
	strcpy(name + blen, suffix);
	const struct tfk_member *mem = tfk_input_find(m->in, name);
	return mem && mem->kind == TFK_MEMBER_FILE && tfk_member_open(m->in, mem, map) == 0;
}

static void load_module(struct tfk_ctx *ctx, struct uf_modules *m, struct uf_module *u)
{
	struct tfk_member_map map;
	u->state = -1;
	if (!open_member(m, u, ".sym", &map))
		return;
	struct tfk_cursor c = tfk_cur_make(map.data, map.size, 0, false);
	bool ok = read_sym(ctx, m, u, &c);
	tfk_member_close(&map);
	if (!ok)
		return;
	u->state = 1;
	if (open_member(m, u, ".dbg", &map)) {
		c = tfk_cur_make(map.data, map.size, 0, false);
		read_dbg(ctx, m, u, &c);
		tfk_member_close(&map);
	}
}

/* The symbol holding rel (addr <= rel < addr + size): 1 found, 0 none, -1 two names there. */
static int find_sym(const struct uf_modules *m, const struct uf_module *u, uint64_t rel, struct uf_function *fn)
{
	size_t lo = 0, hi = u->nsyms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u->syms[mid].addr <= rel)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0)
		return 0;
	const struct uf_sym *s = &u->syms[lo - 1];
	if (rel - s->addr >= s->size)
		return 0;
	if (lo >= 2 && u->syms[lo - 2].addr == s->addr)
		return -1; /* uftrace's bsearch may land on either */
	fn->offset = s->addr;
	fn->name = m->pool + s->name_off;
	fn->name_len = s->name_len;
	return 1;
}

int uf_modules_find(struct tfk_ctx *ctx, struct uf_modules *m, uint64_t addr, struct uf_function *fn)
{
	int found = 0;
	bool mapped = false; /* a session maps addr in a module whose symbols were read */
	for (size_t k = 0, i = 0; k < m->nsess; i = m->sess_end[k++]) {
		/* the session's maps (sorted, apart): the last starting at or below addr */
		size_t lo = i, hi = m->sess_end[k];
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;
			if (m->maps[mid].start <= addr)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == i || addr >= m->maps[lo - 1].end)
			continue;
		size_t hit = lo - 1;
		struct uf_module *u = &m->mods[m->maps[hit].module];
		if (u->state == 0)
			load_module(ctx, m, u);
		if (u->state < 0)
			return -1;
		struct uf_function f;
		int r = find_sym(m, u, addr - m->maps[hit].start, &f);
		if (r < 0)
			return -1;
		if (r == 0) {
			mapped = true;
			fn->module = m->maps[hit].module;
			continue;
		}
		f.module = m->maps[hit].module;
		if (found && (f.module != fn->module || f.offset != fn->offset))
			return -1;
		*fn = f;
		found = 1;
	}
	return found ? 1 : mapped ? -2 : 0;
}

const char *uf_modules_dbg_spec(const struct uf_modules *m, size_t module, uint64_t offset, bool retval, size_t *len)
{
	const struct uf_module *u = &m->mods[module];
	size_t lo = 0, hi = u->ndbg;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (u->dbg[mid].off < offset)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (size_t i = lo; i < u->ndbg && u->dbg[i].off == offset; i++)
		if (u->dbg[i].has[retval]) {
			*len = u->dbg[i].spec_len[retval];
			return m->pool + u->dbg[i].spec_off[retval];
		}
	return NULL;
}

bool uf_modules_dbg_has(const struct uf_modules *m, size_t module, bool retval)
{
	(void)retval;
	/* debug_info_has_argspec: any A: or R: line serves both */
	return m->mods[module].dbg_has[0] || m->mods[module].dbg_has[1];
}

void uf_modules_free(struct uf_modules *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nmods; i++) {
		free(m->mods[i].syms);
		free(m->mods[i].dbg);
	}
	free(m->mods);
	free(m->maps);
	free(m->sess_end);
	free(m->pool);
	free(m);
}
