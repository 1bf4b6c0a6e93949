/* SPDX-License-Identifier: MIT */
/* uftrace's text members: task.txt, sid-<sid>.map, <module>.sym and <module>.dbg. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "uftrace.h"

#define UF_PATH_MAX 4096

static struct tfk_finding *bad_line(struct tfk_ctx *ctx, enum tfk_fault_code code, const struct uf_line *l,
				    const char *what, const char *expected)
{
	struct tfk_finding *f = uf_line_fault(ctx, code, l, what, expected);
	/* Lines that would crash or mislead uftrace are dropped by repair; warnings are kept. */
	if (code == TFK_UFTRACE_TASK_SYNTAX || code == TFK_UFTRACE_TASK_UNKNOWN_SESSION || code == TFK_UFTRACE_MAP_SYNTAX ||
	    code == TFK_UFTRACE_SYM_SYNTAX || code == TFK_UFTRACE_SYM_BAD_ADDR || code == TFK_UFTRACE_SYM_BAD_COUNT ||
	    code == TFK_UFTRACE_EVENTS_SYNTAX)
		uf_send_line(ctx, code, l);
	return f;
}

static bool is_hex(char ch)
{
	return (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f') || (ch >= 'A' && ch <= 'F');
}

bool uf_all_hex(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!is_hex(s[i]))
			return false;
	return n > 0;
}

static bool all_dec(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return n > 0;
}

uint64_t uf_hex_value(const char *s, size_t n)
{
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		v = v << 4 | (uint64_t)(ch <= '9' ? ch - '0' : (ch | 0x20) - 'a' + 10);
	}
	return v;
}

/* A space-separated token of a line. */
struct tok {
	const char *s;
	size_t n;
};

/* The next token after *i (quoted values run to the line's last quote). */
static bool next_tok(const struct uf_line *l, size_t *i, struct tok *t)
{
	while (*i < l->len && l->s[*i] == ' ')
		(*i)++;
	if (*i >= l->len)
		return false;
	size_t start = *i;
	const char *q = memchr(l->s + start, '=', l->len - start);
	const char *sp = memchr(l->s + start, ' ', l->len - start);
	if (q && (!sp || q < sp) && (size_t)(q - l->s) + 1 < l->len && q[1] == '"') {
		size_t end = l->len;
		while (end > (size_t)(q - l->s) + 2 && l->s[end - 1] != '"')
			end--;
		*i = end;
	} else {
		while (*i < l->len && l->s[*i] != ' ')
			(*i)++;
	}
	t->s = l->s + start;
	t->n = *i - start;
	return true;
}

/* key=value: the value, when the token has that key. */
static bool tok_value(const struct tok *t, const char *key, struct tok *v)
{
	size_t k = strlen(key);
	if (t->n <= k || memcmp(t->s, key, k) != 0 || t->s[k] != '=')
		return false;
	v->s = t->s + k + 1;
	v->n = t->n - k - 1;
	return true;
}

static bool valid_timestamp(const struct tok *v)
{
	const char *dot = memchr(v->s, '.', v->n);
	if (!dot)
		return false;
	size_t a = (size_t)(dot - v->s), b = v->n - a - 1;
	return a <= 20 && b <= 20 && all_dec(v->s, a) && all_dec(dot + 1, b);
}

/* S.N in ns (N as written, 9 digits), or 0 when it does not fit. */
static uint64_t timestamp_ns(const struct tok *v)
{
	const char *dot = memchr(v->s, '.', v->n);
	if (!dot)
		return 0;
	size_t a = (size_t)(dot - v->s), b = v->n - a - 1;
	if (a > 10 || b != 9)
		return 0;
	uint64_t sec = 0, ns = 0;
	for (size_t i = 0; i < a; i++)
		sec = sec * 10 + (uint64_t)(v->s[i] - '0');
	for (size_t i = 0; i < b; i++)
		ns = ns * 10 + (uint64_t)(dot[1 + i] - '0');
	return sec * 1000000000ull + ns;
}

/* Where the link of tid sits in st->links, or SIZE_MAX. */
static size_t link_of(const struct uf_state *st, int64_t tid)
{
	size_t pos;
	switch (tfk_keyindex_find(&st->link_ix, (uint64_t)tid, &pos)) {
	case TFK_KEY_FOUND:
		return pos;
	case TFK_KEY_ABSENT:
		return SIZE_MAX;
	case TFK_KEY_UNKNOWN:
		break;
	}
	for (size_t i = 0; i < st->n_links; i++)
		if (st->links[i].tid == tid)
			return i;
	return SIZE_MAX;
}

/* Where the earliest session of pid sits in st->sess_times, or SIZE_MAX. */
static size_t sess_time_of(const struct uf_state *st, int64_t pid)
{
	size_t pos;
	switch (tfk_keyindex_find(&st->sess_time_ix, (uint64_t)pid, &pos)) {
	case TFK_KEY_FOUND:
		return pos;
	case TFK_KEY_ABSENT:
		return SIZE_MAX;
	case TFK_KEY_UNKNOWN:
		break;
	}
	for (size_t i = 0; i < st->n_sess_times; i++)
		if (st->sess_times[i].pid == pid)
			return i;
	return SIZE_MAX;
}

uint64_t uf_task_session_ns(const struct uf_state *st, int64_t tid)
{
	size_t at = link_of(st, tid);
	int64_t pid = at == SIZE_MAX ? -1 : st->links[at].pid;
	/*
	 * The earliest session of the process and its parents, a few levels up: a fork runs in its
	 * parent's session (it keeps the parent's maps) until it execs and starts one of its own,
	 * so a forked child's records before its exec are older than its own SESS line.
	 */
	uint64_t earliest = UINT64_MAX;
	for (int hop = 0; hop < 8 && pid > 0; hop++) {
		size_t s = sess_time_of(st, pid);
		if (s != SIZE_MAX && st->sess_times[s].ns < earliest)
			earliest = st->sess_times[s].ns;
		size_t l = link_of(st, pid);
		pid = l != SIZE_MAX && st->links[l].ppid > 0 ? st->links[l].ppid : -1;
	}
	return earliest == UINT64_MAX ? 0 : earliest;
}

static void add_link(struct tfk_ctx *ctx, struct uf_state *st, int64_t tid, int64_t pid, int64_t ppid)
{
	if (link_of(st, tid) != SIZE_MAX)
		return;
	if (tfk_grow(ctx, (void **)&st->links, &st->cap_links, st->n_links + 1, sizeof(*st->links))) {
		st->links[st->n_links].tid = tid;
		st->links[st->n_links].pid = pid;
		st->links[st->n_links].ppid = ppid;
		tfk_keyindex_add(ctx, &st->link_ix, (uint64_t)tid, st->n_links);
		st->n_links++;
	}
}

static void add_session_time(struct tfk_ctx *ctx, struct uf_state *st, int64_t pid, uint64_t ns)
{
	size_t at = sess_time_of(st, pid);
	if (at != SIZE_MAX) {
		if (ns && ns < st->sess_times[at].ns)
			st->sess_times[at].ns = ns;
		return;
	}
	if (ns && tfk_grow(ctx, (void **)&st->sess_times, &st->cap_sess_times, st->n_sess_times + 1,
			   sizeof(*st->sess_times))) {
		st->sess_times[st->n_sess_times].pid = pid;
		st->sess_times[st->n_sess_times].ns = ns;
		tfk_keyindex_add(ctx, &st->sess_time_ix, (uint64_t)pid, st->n_sess_times);
		st->n_sess_times++;
	}
}

static bool valid_id(const struct tok *v, int64_t *out)
{
	if (!all_dec(v->s, v->n) || v->n > 10)
		return false;
	int64_t r = 0;
	for (size_t i = 0; i < v->n; i++)
		r = r * 10 + (v->s[i] - '0');
	*out = r;
	return r > 0 && r <= 0x7fffffff;
}

static bool valid_quoted(const struct tok *v)
{
	return v->n >= 2 && v->s[0] == '"' && v->s[v->n - 1] == '"' && v->n - 2 < UF_PATH_MAX;
}

/* The index key of a sid's bytes (FNV-1a): equal sids, equal keys. */
static uint64_t sid_key(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 0x100000001b3ull;
	return h;
}

static bool known_sid(const struct uf_state *st, const struct tok *v)
{
	if (v->n != UF_SID_LEN)
		return false;
	size_t pos;
	enum tfk_key_found found = tfk_keyindex_find(&st->sid_ix, sid_key(v->s, v->n), &pos);
	if (found == TFK_KEY_ABSENT)
		return false;
	if (found == TFK_KEY_FOUND && memcmp(st->sids[pos].sid, v->s, UF_SID_LEN) == 0)
		return true;
	/* The index failed, or two sids share a key: the list decides. */
	for (size_t i = 0; i < st->n_sids; i++)
		if (memcmp(st->sids[i].sid, v->s, UF_SID_LEN) == 0)
			return true;
	return false;
}

bool uf_task_known(const struct uf_state *st, int64_t tid)
{
	size_t pos;
	enum tfk_key_found found = tfk_keyindex_find(&st->task_tid_ix, (uint64_t)tid, &pos);
	if (found != TFK_KEY_UNKNOWN)
		return found == TFK_KEY_FOUND;
	for (size_t i = 0; i < st->n_task_tids; i++)
		if (st->task_tids[i] == tid)
			return true;
	return false;
}

static void add_tid(struct tfk_ctx *ctx, struct uf_state *st, int64_t tid)
{
	if (!uf_task_known(st, tid) &&
	    tfk_grow(ctx, (void **)&st->task_tids, &st->cap_task_tids, st->n_task_tids + 1, sizeof(int64_t))) {
		tfk_keyindex_add(ctx, &st->task_tid_ix, (uint64_t)tid, st->n_task_tids);
		st->task_tids[st->n_task_tids++] = tid;
	}
}

struct kw {
	const char *name;
	const char *fields[5]; /* in order; NULL ends */
};

static const struct kw keywords[] = {
	{ "SESS", { "timestamp", "pid", "sid", "exename", NULL } },
	{ "TASK", { "timestamp", "tid", "pid", NULL } },
	{ "FORK", { "timestamp", "pid", "ppid", NULL } },
	{ "EXEC", { "timestamp", "pid", "exename", NULL } },
	{ "DLOP", { "timestamp", "tid", "sid", "base", "libname" } },
};

/* A line of task.txt that passed: what repair needs to rebuild info from it. */
static void send_task_line(struct tfk_ctx *ctx, const struct kw *kw, const struct uf_line *l, uint64_t ns,
			   const int64_t ids[2], const struct tok *sid, const struct tok *path)
{
	if (!ctx->obs || !ctx->obs->model)
		return;
	struct tfk_uftrace_task_line *m = tfk_calloc(ctx, 1, sizeof(*m));
	if (!m)
		return;
	static const char order[] = "STFED";
	m->kind = (enum tfk_uftrace_task_kind)(strchr(order, kw->name[0]) - order);
	m->number = l->number;
	m->ns = ns;
	m->tid = m->pid = m->ppid = -1;
	switch (m->kind) {
	case TFK_UFTRACE_TASK:
		m->tid = ids[0];
		m->pid = ids[1];
		break;
	case TFK_UFTRACE_FORK:
		m->pid = ids[0];
		m->ppid = ids[1];
		break;
	case TFK_UFTRACE_DLOP:
		m->tid = ids[0];
		break;
	default:
		m->pid = ids[0];
		break;
	}
	if (sid->n == UF_SID_LEN)
		memcpy(m->sid, sid->s, UF_SID_LEN);
	if (path->n >= 2 && path->n - 2 < sizeof(m->exename))
		memcpy(m->exename, path->s + 1, path->n - 2);
	uf_send(ctx, TFK_UFTRACE_MODEL_TASK_LINE, m, sizeof(*m));
	free(m);
}

void uf_check_task(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_input *in, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	uint64_t last_ns = 0;
	bool any = false;
	while (uf_next_line(&c, &l)) {
		if (l.len == 0 && !l.terminated)
			break;
		any = any || l.len > 0;
		const struct kw *kw = NULL;
		for (size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
			if (l.len > 5 && memcmp(l.s, keywords[k].name, 4) == 0 && l.s[4] == ' ')
				kw = &keywords[k];
		if (!kw) {
			bad_line(ctx, TFK_UFTRACE_TASK_SYNTAX, &l, "task.txt keyword", "SESS, TASK, FORK, EXEC or DLOP");
			continue;
		}
		size_t i = 5;
		struct tok t, v, sid = { 0 }, path = { 0 };
		uint64_t ns = 0;
		int64_t ids[2] = { 0, 0 };
		size_t nid = 0;
		const char *bad = NULL;
		for (int fi = 0; fi < 5 && kw->fields[fi] && !bad; fi++) {
			const char *key = kw->fields[fi];
			if (!next_tok(&l, &i, &t) || !tok_value(&t, key, &v)) {
				bad = key;
				break;
			}
			if (strcmp(key, "timestamp") == 0) {
				if (!valid_timestamp(&v))
					bad = key;
				ns = timestamp_ns(&v);
			} else if (strcmp(key, "sid") == 0) {
				if (v.n != UF_SID_LEN || !uf_all_hex(v.s, v.n))
					bad = key;
				sid = v;
			} else if (strcmp(key, "base") == 0) {
				if (v.n > 16 || !uf_all_hex(v.s, v.n))
					bad = key;
			} else if (strcmp(key, "exename") == 0 || strcmp(key, "libname") == 0) {
				if (!valid_quoted(&v))
					bad = key;
				path = v;
			} else if (!valid_id(&v, nid < 2 ? &ids[nid++] : &ids[1])) {
				bad = key;
			}
		}
		if (!bad && next_tok(&l, &i, &t))
			bad = "the end of the line";
		if (bad) {
			char what[64];
			snprintf(what, sizeof(what), "%s field %s", kw->name, bad);
			bad_line(ctx, TFK_UFTRACE_TASK_SYNTAX, &l, what,
				 "timestamp=S.N, positive decimal ids, sid= of 16 hex digits, quoted names");
			continue;
		}
		if (ns == 0)
			bad_line(ctx, TFK_UFTRACE_TASK_BAD_TIMESTAMP, &l, "timestamp",
				 "SECONDS.NANOSECONDS with 9 digits of nanoseconds");
		else if (ns < last_ns)
			bad_line(ctx, TFK_UFTRACE_TASK_BAD_TIMESTAMP, &l, "timestamp",
				 "a time no earlier than the SESS or EXEC line before it");
		/*
		 * Against the last session's start: the recorder writes the TASK lines of threads
		 * starting together in the order their messages arrive, a few hundred ns apart either
		 * way; only a line earlier than the SESS or EXEC line before it falls into the wrong session.
		 */
		if (ns && (kw->name[0] == 'S' || kw->name[0] == 'E'))
			last_ns = ns;
		if (kw->name[0] == 'S')
			add_session_time(ctx, st, ids[0], ns);
		if (kw->name[0] == 'S') {
			if (!known_sid(st, &sid) &&
			    tfk_grow(ctx, (void **)&st->sids, &st->cap_sids, st->n_sids + 1, sizeof(struct uf_sid))) {
				memcpy(st->sids[st->n_sids].sid, sid.s, UF_SID_LEN);
				st->sids[st->n_sids].sid[UF_SID_LEN] = 0;
				tfk_keyindex_add(ctx, &st->sid_ix, sid_key(sid.s, UF_SID_LEN), st->n_sids);
				st->n_sids++;
				char name[32];
				snprintf(name, sizeof(name), "sid-%s.map", st->sids[st->n_sids - 1].sid);
				if (!tfk_input_find(in, name)) {
					struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_MAP_MISSING, l.offset, l.len);
					tfk_set_path(f, "line %llu: SESS", (unsigned long long)l.number);
					tfk_set_expected(f, "%s", name);
					tfk_set_found(f, "no such member");
				}
			}
		} else if (kw->name[0] == 'D') {
			if (!known_sid(st, &sid)) {
				bad_line(ctx, TFK_UFTRACE_TASK_UNKNOWN_SESSION, &l, "DLOP sid",
					 "the sid of an earlier SESS line");
				continue;
			}
		} else if (kw->name[0] == 'T' || kw->name[0] == 'F') {
			add_tid(ctx, st, ids[0]); /* TASK tid, FORK child pid */
			if (kw->name[0] == 'T')
				add_link(ctx, st, ids[0], ids[1], -1);
			else
				add_link(ctx, st, ids[0], ids[0], ids[1]);
		}
		send_task_line(ctx, kw, &l, ns, ids, &sid, &path);
	}
	if (!any) {
		/* uftrace record writes a SESS line before any task runs: none means the text was lost */
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_TASK_EMPTY, 0, file->len);
		tfk_set_path(f, "task.txt");
		tfk_set_expected(f, "a SESS line, then the TASK lines of the recording");
		tfk_set_found(f, "%llu bytes and no line", (unsigned long long)file->len);
	}
}

/*
 * What is wrong with a line of a session map, or NULL: "start-end perms offset dev inode path
 * [build-id:HEX]". Repair drops such lines, so the argument lengths read only the others.
 */
const char *uf_map_line_bad(const struct uf_line *l)
{
	size_t i = 0;
	struct tok t;
	const char *bad = NULL;
	if (!next_tok(l, &i, &t)) {
		bad = "start-end";
	} else {
		const char *dash = memchr(t.s, '-', t.n);
		size_t a = dash ? (size_t)(dash - t.s) : 0, b = dash ? t.n - a - 1 : 0;
		if (!dash || a > 16 || b > 16 || !uf_all_hex(t.s, a) || !uf_all_hex(dash + 1, b) ||
		    uf_hex_value(t.s, a) >= uf_hex_value(dash + 1, b))
			bad = "start-end (hex, start below end)";
	}
	if (!bad && (!next_tok(l, &i, &t) || t.n != 4 || (t.s[0] != 'r' && t.s[0] != '-') ||
		     (t.s[1] != 'w' && t.s[1] != '-') || (t.s[2] != 'x' && t.s[2] != '-') ||
		     (t.s[3] != 'p' && t.s[3] != 's')))
		bad = "perms ([r-][w-][x-][ps])";
	if (!bad && (!next_tok(l, &i, &t) || t.n > 16 || !uf_all_hex(t.s, t.n)))
		bad = "offset (hex)";
	if (!bad) {
		const char *colon = NULL;
		if (next_tok(l, &i, &t))
			colon = memchr(t.s, ':', t.n);
		if (!colon || t.n > 17 || !uf_all_hex(t.s, (size_t)(colon - t.s)) ||
		    !uf_all_hex(colon + 1, t.n - (size_t)(colon - t.s) - 1))
			bad = "dev (hex:hex)";
	}
	if (!bad && (!next_tok(l, &i, &t) || t.n > 20 || !all_dec(t.s, t.n)))
		bad = "inode (decimal)";
	if (!bad) {
		/* The rest: a path (it may hold spaces: "/a b", "/x (deleted)"), then perhaps build-id:HEX. */
		while (i < l->len && l->s[i] == ' ')
			i++;
		size_t end = l->len;
		while (end > i && l->s[end - 1] == ' ')
			end--;
		size_t last = end;
		while (last > i && l->s[last - 1] != ' ')
			last--;
		if (end - last >= 9 && memcmp(l->s + last, "build-id:", 9) == 0) {
			if (end - last - 9 > 40 || !uf_all_hex(l->s + last + 9, end - last - 9))
				bad = "build-id:HEX (at most 40 hex digits)";
			end = last;
			while (end > i && l->s[end - 1] == ' ')
				end--;
		}
		if (!bad && end - i >= UF_PATH_MAX)
			bad = "path (shorter than PATH_MAX)";
	}
	return bad;
}

/* 555e12905000-555e1290a000 r-xp 00000000 00:00 0   /tmp/tr/hello build-id:9d00... */
void uf_check_map(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	while (uf_next_line(&c, &l)) {
		if (l.len == 0)
			continue;
		const char *bad = uf_map_line_bad(&l);
		if (bad) {
			bad_line(ctx, TFK_UFTRACE_MAP_SYNTAX, &l, "map line", bad);
			continue;
		}
		/* the end of the range: how wide the recording's addresses are (info's ELF class) */
		const char *dash = memchr(l.s, '-', l.len), *sp = memchr(l.s, ' ', l.len);
		uint64_t end = uf_hex_value(dash + 1, (size_t)(sp - dash - 1));
		if (end - 1 > st->map_addr_max) {
			st->map_addr_max = end - 1;
			snprintf(st->map_addr_member, sizeof(st->map_addr_member), "%s", ctx->member ? ctx->member : "");
		}
	}
}

static bool sym_type_ok(char ch)
{
	return ch && strchr("?TtwWPKDdvVuBbRrGgSsNnAaCcUi", ch) != NULL;
}

void uf_check_sym(struct tfk_ctx *ctx, struct uf_state *st, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 }, count_line = { 0 };
	int64_t count = -1;
	uint64_t syms = 0, counted = 0, prev = 0, unsorted = 0, all_ones = 0, malformed = 0;
	bool any = false, count_bad = false;
	(void)st;
	while (uf_next_line(&c, &l)) {
		if (l.len == 0)
			continue;
		if (l.s[0] == '#') {
			static const char hdr[] = "# symbols: ";
			if (l.len >= sizeof(hdr) - 1 && memcmp(l.s, hdr, sizeof(hdr) - 1) == 0) {
				size_t n = l.len - (sizeof(hdr) - 1);
				const char *v = l.s + sizeof(hdr) - 1;
				if (count >= 0 || syms > 0) {
					count_bad = true;
					bad_line(ctx, TFK_UFTRACE_SYM_BAD_COUNT, &l, "symbol count",
						 "one '# symbols:' line, before every symbol line");
				} else if (!all_dec(v, n) || n > 12) {
					count_bad = true;
					bad_line(ctx, TFK_UFTRACE_SYM_BAD_COUNT, &l, "symbol count", "a decimal count");
					count = 0x7fffffffffffffffll;
				} else {
					count = 0;
					for (size_t k = 0; k < n; k++)
						count = count * 10 + (v[k] - '0');
					count_line = l;
				}
			}
			continue;
		}
		/* ADDR [SIZE] T NAME */
		size_t i = 0;
		struct tok a, b, t, name;
		const char *bad = NULL;
		if (!next_tok(&l, &i, &a) || a.n != 16 || !uf_all_hex(a.s, 16))
			bad = "an address of 16 hex digits";
		else if (!next_tok(&l, &i, &b))
			bad = "a type and a name";
		else {
			t = b;
			/* A size (feature SYM_SIZE; told by its 8 hex digits when info is missing) before the type. */
			size_t after = i;
			struct tok ty;
			if (b.n == 8 && uf_all_hex(b.s, 8)) {
				if (next_tok(&l, &after, &ty) && ty.n == 1) {
					t = ty;
					i = after;
				} else if (st->feat & UF_FEAT_SYM_SIZE) {
					bad = "a type after the size";
				}
			}
			if (!bad && (t.n != 1 || !sym_type_ok(t.s[0])))
				bad = "a one-character symbol type";
			if (!bad) {
				while (i < l.len && l.s[i] == ' ')
					i++;
				name.s = l.s + i;
				name.n = l.len - i;
				if (name.n == 0)
					bad = "a symbol name";
			}
		}
		if (bad) {
			bad_line(ctx, TFK_UFTRACE_SYM_SYNTAX, &l, "symbol line", bad);
			malformed++;
			continue;
		}
		uint64_t addr = uf_hex_value(a.s, 16);
		syms++;
		if (t.s[0] != '?')
			counted++;
		if (addr == UINT64_MAX) {
			all_ones += t.s[0] != '?';
			bad_line(ctx, TFK_UFTRACE_SYM_BAD_ADDR, &l, "symbol address", "an address below ffffffffffffffff");
			continue;
		}
		if (any && addr < prev) {
			if (unsorted++ == 0) {
				struct tfk_finding *f = bad_line(ctx, TFK_UFTRACE_SYM_UNSORTED, &l, "symbol address",
								 "addresses in ascending order");
				(void)f;
			} else {
				tfk_count_only(ctx, TFK_UFTRACE_SYM_UNSORTED);
			}
		}
		prev = addr;
		any = true;
	}
	struct tfk_uftrace_sym um;
	memset(&um, 0, sizeof(um));
	snprintf(um.member, sizeof(um.member), "%s", ctx->member ? ctx->member : "");
	um.counted = counted - all_ones;
	/*
	 * No count line at all is how uftrace wrote symbol files before 0.9.3 (419ee2a1 added it):
	 * its readers grow the table as lines come. Every writer since writes the number of symbol
	 * lines that are not '?' range ends, exactly: uftrace allocates that many symbols up front,
	 * so a count below the lines overflows the heap and one far above them fails the
	 * allocation (xrealloc aborts: 4294967296 symbols are 128 GiB).
	 */
	/* repair rewrites the count whenever it is not the number of lines it keeps */
	um.count_ok = (syms == 0 && malformed == 0) || (!count_bad && (count < 0 || (uint64_t)count == um.counted));
	uf_send(ctx, TFK_UFTRACE_MODEL_SYM, &um, sizeof(um));
	if (syms == 0 && count <= 0)
		return;
	/* lines reported malformed may have been symbols the count counted: not a second fault */
	if (count_line.s && ((uint64_t)count < counted || (uint64_t)count - counted > malformed)) {
		struct tfk_finding *f = tfk_emit(ctx, TFK_UFTRACE_SYM_BAD_COUNT, count_line.offset, count_line.len);
		tfk_set_path(f, "line %llu: symbol count", (unsigned long long)count_line.number);
		tfk_set_expected(f, "%llu (symbol lines that are not '?' range ends)", (unsigned long long)counted);
		tfk_set_found(f, "%lld", (long long)count);
	}
}

void uf_check_dbg(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	bool in_func = false;
	while (uf_next_line(&c, &l)) {
		if (l.len == 0 || l.s[0] == '#')
			continue;
		if (l.len < 3 || l.s[1] != ':' || l.s[2] != ' ' || !strchr("FAREL", l.s[0]) || !l.s[0]) {
			bad_line(ctx, TFK_UFTRACE_DBG_SYNTAX, &l, "debug-info line", "F:, A:, R:, E: or L: and a value");
			continue;
		}
		if (l.s[0] == 'F')
			in_func = true;
		else if ((l.s[0] == 'A' || l.s[0] == 'R') && !in_func)
			bad_line(ctx, TFK_UFTRACE_DBG_SYNTAX, &l, "debug-info line", "A: and R: after an F: line");
	}
}

/* events.txt: "EVENT: <id> <provider>:<event>" */
void uf_check_events(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	while (uf_next_line(&c, &l)) {
		if (l.len == 0)
			continue;
		size_t i = 0;
		struct tok kw, id, name, extra;
		const char *bad = NULL;
		if (!next_tok(&l, &i, &kw) || kw.n != 6 || memcmp(kw.s, "EVENT:", 6) != 0)
			bad = "EVENT:";
		else if (!next_tok(&l, &i, &id) || id.n > 10 || !all_dec(id.s, id.n))
			bad = "a decimal event id";
		else if (!next_tok(&l, &i, &name))
			bad = "provider:event";
		else {
			const char *colon = memchr(name.s, ':', name.n);
			size_t a = colon ? (size_t)(colon - name.s) : 0;
			if (!colon || a == 0 || a >= 512 || name.n - a - 1 == 0 || name.n - a - 1 >= 512)
				bad = "provider:event, each name of 1 to 511 characters";
			else if (next_tok(&l, &i, &extra))
				bad = "the end of the line";
		}
		if (bad)
			bad_line(ctx, TFK_UFTRACE_EVENTS_SYNTAX, &l, "event line", bad);
	}
}

/* extern.dat: "<seconds>.<nanoseconds> <message>", '#' comments. */
void uf_check_extern(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	struct tfk_cursor c = *file;
	struct uf_line l = { 0 };
	while (uf_next_line(&c, &l)) {
		if (l.len == 0 || l.s[0] == '#')
			continue;
		size_t i = 0;
		struct tok ts;
		const char *bad = NULL;
		if (l.len > 1024 + 64)
			bad = "a line of at most 1088 bytes";
		else if (!next_tok(&l, &i, &ts) || !valid_timestamp(&ts))
			bad = "a timestamp SECONDS.NANOSECONDS";
		if (bad)
			bad_line(ctx, TFK_UFTRACE_EXTERN_SYNTAX, &l, "external data line", bad);
	}
}
