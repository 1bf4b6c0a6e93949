/* SPDX-License-Identifier: MIT */
/*
 * CTF trace directories' scrub plug-in (LTTng 2.x, babeltrace2 and barectf traces; CTF 1.8 and
 * CTF 2). The check tells where every text field of every event lies (TFK_CTF_MODEL_TEXT: a
 * string, or an array or sequence of UTF-8 or ASCII bytes, such as LTTng's procname context and
 * tracef's msg); each is replaced word by word, in place, the same length, so packets and
 * indexes stay what they were. The metadata's environment keeps the tracer's name, version and
 * times, and loses what names the machine and its users: hostname, kernel release and version,
 * product_uuid, procname, trace_name. Plain TSDL, packetized TSDL (its text across packets) and
 * CTF 2's JSON fragments are edited the same way, through the text they hold. A per-process
 * buffer's folder (ust/pid/<procname>-<pid>-<date>-<time>) is renamed with the procname's
 * pseudonym, and every packet's padding after its content (where LTTng leaves older events) is
 * zeroed. Kept: event and field names, times, every number, the stream and clock classes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format.h"
#include "formats/ctf/ctf_model.h"
#include "formats/formats.h"
#include "cursor.h"
#include "input.h"

struct text_range {
	uint32_t member;  /* index in names */
	uint8_t kind;     /* enum tfk_scrub_kind, or PADDING */
	uint64_t offset, len;
};

/* A packet's bytes after its content: LTTng leaves there what the sub-buffer held before
   (older events, their texts whole), so they are zeroed. */
#define PADDING 0xff

struct ctf_scrub_model {
	struct text_range *r;
	size_t n, cap;
	char **names;
	size_t nnames, names_cap;
	bool oom;
};

/* What a text field is, by its name: task names, paths, user text (tracef/tracelog), or other. */
static enum tfk_scrub_kind kind_of(const char *field)
{
	const char *last = strrchr(field, '.');
	last = last ? last + 1 : field;
	while (*last == '_')
		last++;
	if (strstr(last, "comm") || strstr(last, "procname") || strstr(last, "thread_name"))
		return TFK_SCRUB_TASK;
	if (strstr(last, "host"))
		return TFK_SCRUB_HOST;
	if (strstr(last, "file") || strstr(last, "path") || strstr(last, "dir") || strstr(last, "dev_name"))
		return TFK_SCRUB_PATH;
	if (!strcmp(last, "msg") || !strcmp(last, "buf") || strstr(last, "message"))
		return TFK_SCRUB_MARKER;
	return TFK_SCRUB_STRING;
}

static uint32_t member_index(struct ctf_scrub_model *m, const char *name)
{
	if (m->nnames && !strcmp(m->names[m->nnames - 1], name))
		return (uint32_t)(m->nnames - 1); /* texts come stream by stream */
	for (size_t i = 0; i < m->nnames; i++)
		if (!strcmp(m->names[i], name))
			return (uint32_t)i;
	if (m->nnames == m->names_cap) {
		size_t cap = m->names_cap ? m->names_cap * 2 : 16;
		char **p = realloc(m->names, cap * sizeof(*p));
		if (!p)
			return UINT32_MAX;
		m->names = p;
		m->names_cap = cap;
	}
	char *copy = strdup(name);
	if (!copy || m->nnames >= UINT32_MAX) {
		free(copy);
		return UINT32_MAX;
	}
	m->names[m->nnames] = copy;
	return (uint32_t)m->nnames++;
}

static void on_model(void *user, const struct tfk_format *format, uint32_t kind, const void *data, size_t size)
{
	struct ctf_scrub_model *m = user;
	if (format != &tfk_format_ctf || m->oom)
		return;
	struct tfk_ctf_text pad;
	const struct tfk_ctf_text *t = data;
	uint8_t what;
	if (kind == TFK_CTF_MODEL_TEXT && size == sizeof(struct tfk_ctf_text)) {
		what = (uint8_t)kind_of(t->field);
	} else if (kind == TFK_CTF_MODEL_PACKET && size == sizeof(struct tfk_ctf_packet)) {
		const struct tfk_ctf_packet *p = data;
		const uint64_t from = p->content_size / 8 + (p->content_size % 8 != 0), to = p->packet_size / 8;
		if (from >= to || p->offset > UINT64_MAX - to)
			return;
		pad = (struct tfk_ctf_text){ p->member, p->offset + from, to - from, "", false };
		t = &pad;
		what = PADDING;
	} else {
		return;
	}
	const uint32_t member = member_index(m, t->member);
	if (member == UINT32_MAX) {
		m->oom = true;
		return;
	}
	if (m->n == m->cap) {
		size_t cap = m->cap ? m->cap * 2 : 256;
		struct text_range *p = cap > SIZE_MAX / sizeof(*p) ? NULL : realloc(m->r, cap * sizeof(*p));
		if (!p) {
			m->oom = true;
			return;
		}
		m->r = p;
		m->cap = cap;
	}
	m->r[m->n++] = (struct text_range){ member, what, t->offset, t->len };
}

static struct tfk_observer ctf_sc_observer(void *model, const uint8_t *in, size_t size)
{
	(void)in;
	(void)size;
	return (struct tfk_observer){ .user = model, .model = on_model, .payload_text = true };
}

static void ctf_sc_free(void *model)
{
	struct ctf_scrub_model *m = model;
	free(m->r);
	for (size_t i = 0; i < m->nnames; i++)
		free(m->names[i]);
	free(m->names);
}

/* ---- the metadata: its text, wherever it lies ---- */

#define MD_HEADER 37u     /* a metadata packet's header: magic, uuid, checksum, sizes, schemes, version */
#define MD_MAGIC 0x75d11d57u
#define MD_MAX_SEGMENTS 65536u

struct md_text {
	uint8_t *text;                    /* the text, gathered */
	size_t len;
	size_t nseg;
	struct { size_t at, len; } seg[]; /* where each piece of it lies in the file */
};

/* A metadata packet's content and packet sizes in bytes, read at `at` through the cursor. */
static bool md_sizes(const struct tfk_cursor *c, uint64_t at, uint64_t *content, uint64_t *packet)
{
	uint32_t cs, ps;
	if (!tfk_cur_u32_at(c, at + 24, &cs) || !tfk_cur_u32_at(c, at + 28, &ps))
		return false;
	*content = cs / 8;
	*packet = ps / 8;
	return *packet >= MD_HEADER && *content >= MD_HEADER && *content <= *packet && *packet <= c->len - at;
}

/* The metadata's text: the file itself, or the content of its packets (NULL: no memory). */
static struct md_text *md_gather(const uint8_t *p, size_t n)
{
	uint32_t magic = 0;
	const struct tfk_cursor le = tfk_cur_make(p, n, 0, false), be_cur = tfk_cur_make(p, n, 0, true);
	const bool packetized = tfk_cur_u32_at(&le, 0, &magic) && (magic == MD_MAGIC || __builtin_bswap32(magic) == MD_MAGIC);
	const struct tfk_cursor *c = packetized && magic != MD_MAGIC ? &be_cur : &le;
	size_t nseg = 0;
	uint64_t content, packet;
	for (uint64_t at = 0; packetized && nseg < MD_MAX_SEGMENTS && md_sizes(c, at, &content, &packet); nseg++)
		at += packet;
	struct md_text *t = calloc(1, sizeof(*t) + (packetized ? nseg : 1) * sizeof(t->seg[0]));
	if (!t || !(t->text = malloc(n ? n : 1))) {
		free(t);
		return NULL;
	}
	if (!packetized) {
		t->seg[0].at = 0;
		t->seg[0].len = n;
		t->nseg = 1;
	}
	for (uint64_t at = 0, k = 0; k < nseg && md_sizes(c, at, &content, &packet); k++) {
		t->seg[k].at = at + MD_HEADER;
		t->seg[k].len = content - MD_HEADER;
		t->nseg++;
		at += packet;
	}
	for (size_t k = 0; k < t->nseg; k++) {
		memcpy(t->text + t->len, p + t->seg[k].at, t->seg[k].len);
		t->len += t->seg[k].len;
	}
	return t;
}

static void md_scatter(const struct md_text *t, uint8_t *p)
{
	for (size_t k = 0, from = 0; k < t->nseg; from += t->seg[k].len, k++)
		memcpy(p + t->seg[k].at, t->text + from, t->seg[k].len);
}

static bool is_space(uint8_t c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool is_ident(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* Past spaces and C comments from i. */
static size_t skip_blank(const uint8_t *s, size_t n, size_t i)
{
	for (;;) {
		while (i < n && is_space(s[i]))
			i++;
		if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
			const uint8_t *e = NULL;
			for (size_t k = i + 2; k + 1 < n; k++)
				if (s[k] == '*' && s[k + 1] == '/') {
					e = s + k;
					break;
				}
			i = e ? (size_t)(e - s) + 2 : n;
		} else if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
			while (i < n && s[i] != '\n')
				i++;
		} else {
			return i;
		}
	}
}

/* A quoted string at s[i] == '"': where its text begins and ends (the closing quote). False: not closed. */
static bool quoted(const uint8_t *s, size_t n, size_t i, size_t *from, size_t *to)
{
	for (size_t k = i + 1; k < n; k++) {
		if (s[k] == '\\') {
			k++;
			continue;
		}
		if (s[k] == '"') {
			*from = i + 1;
			*to = k;
			return true;
		}
	}
	return false;
}

/* The environment's keys that name the machine, its users or the session, and what they are. */
static bool env_key_kind(const uint8_t *k, size_t n, enum tfk_scrub_kind *kind)
{
	static const struct {
		const char *key;
		enum tfk_scrub_kind kind;
	} keys[] = {
		{ "hostname", TFK_SCRUB_HOST },       { "kernel_release", TFK_SCRUB_HOST },
		{ "kernel_version", TFK_SCRUB_HOST }, { "product_uuid", TFK_SCRUB_HOST },
		{ "procname", TFK_SCRUB_TASK },       { "trace_name", TFK_SCRUB_INSTANCE },
	};
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].key) == n && !memcmp(keys[i].key, k, n)) {
			*kind = keys[i].kind;
			return true;
		}
	return false;
}

/* TSDL: every `env { key = "value"; ... };` block. */
static void env_tsdl(struct sc_ctx *sc, uint8_t *s, size_t n)
{
	for (size_t i = 0; i + 3 <= n; i++) {
		if (memcmp(s + i, "env", 3) || (i && is_ident(s[i - 1])) || (i + 3 < n && is_ident(s[i + 3])))
			continue;
		size_t k = skip_blank(s, n, i + 3);
		if (k >= n || s[k] != '{')
			continue;
		k++;
		while ((k = skip_blank(s, n, k)) < n && s[k] != '}') {
			const size_t key = k;
			while (k < n && is_ident(s[k]))
				k++;
			const size_t key_len = k - key;
			k = skip_blank(s, n, k);
			if (!key_len || k >= n || s[k] != '=')
				break;
			k = skip_blank(s, n, k + 1);
			size_t from, to;
			enum tfk_scrub_kind kind;
			if (k < n && s[k] == '"' && quoted(s, n, k, &from, &to)) {
				if (env_key_kind(s + key, key_len, &kind))
					sc_text(sc, kind, s + from, to - from);
				k = to + 1;
			}
			while (k < n && s[k] != ';' && s[k] != '}')
				k++;
			if (k < n && s[k] == ';')
				k++;
		}
		i = k;
	}
}

/* CTF 2: the trace class's `"environment": { "key": "value", ... }`. */
static void env_json(struct sc_ctx *sc, uint8_t *s, size_t n)
{
	static const char tag[] = "\"environment\"";
	const size_t tn = sizeof(tag) - 1;
	for (size_t i = 0; i + tn <= n; i++) {
		if (memcmp(s + i, tag, tn))
			continue;
		size_t k = skip_blank(s, n, i + tn);
		if (k >= n || s[k] != ':')
			continue;
		k = skip_blank(s, n, k + 1);
		if (k >= n || s[k] != '{')
			continue;
		k++;
		while ((k = skip_blank(s, n, k)) < n && s[k] == '"') {
			size_t kf, kt, vf, vt;
			if (!quoted(s, n, k, &kf, &kt))
				break;
			k = skip_blank(s, n, kt + 1);
			if (k >= n || s[k] != ':')
				break;
			k = skip_blank(s, n, k + 1);
			enum tfk_scrub_kind kind;
			if (k < n && s[k] == '"' && quoted(s, n, k, &vf, &vt)) {
				if (env_key_kind(s + kf, kt - kf, &kind))
					sc_text(sc, kind, s + vf, vt - vf);
				k = vt + 1;
			}
			while (k < n && s[k] != ',' && s[k] != '}')
				k++;
			if (k < n && s[k] == ',')
				k++;
		}
		i = k;
	}
}

static bool is_metadata(const char *name)
{
	const char *base = strrchr(name, '/');
	return !strcmp(base ? base + 1 : name, "metadata");
}

static int metadata(struct sc_ctx *sc, uint8_t *p, size_t n)
{
	struct md_text *t = md_gather(p, n);
	if (!t) {
		errno = ENOMEM;
		return -1;
	}
	if (memchr(t->text, 0x1e, t->len))
		env_json(sc, t->text, t->len);
	else
		env_tsdl(sc, t->text, t->len);
	md_scatter(t, p);
	free(t->text);
	free(t);
	return 0;
}

/* ust/pid/<procname>-<pid>-<yyyymmdd>-<hhmmss>: the procname's pseudonym in every path component. */
static void out_name(struct sc_ctx *sc, const char *name, char *out, size_t cap)
{
	snprintf(out, cap, "%s", name);
	for (char *c = out; *c;) {
		char *end = strchr(c, '/');
		size_t len = end ? (size_t)(end - c) : strlen(c);
		/* from the right: six digits, eight digits, the pid's digits, each after a '-' */
		static const int want[] = { 6, 8, 0 };
		size_t e = len;
		bool ok = true;
		for (int f = 0; f < 3 && ok; f++) {
			size_t d = 0;
			while (d < e && c[e - 1 - d] >= '0' && c[e - 1 - d] <= '9')
				d++;
			ok = d > 0 && (!want[f] || d == (size_t)want[f]) && e > d + 1 && c[e - 1 - d] == '-';
			e -= d + 1;
		}
		if (ok && e > 0) {
			struct tfk_scrub_count saved = sc->rep->counts[TFK_SCRUB_TASK];
			sc_text(sc, TFK_SCRUB_TASK, (uint8_t *)c, e);
			sc->rep->counts[TFK_SCRUB_TASK] = saved; /* the procname was counted where the metadata says it */
		}
		if (!end)
			break;
		c = end + 1;
	}
}

static int member(struct ctf_scrub_model *m, struct sc_ctx *sc, const struct tfk_input *in, const struct tfk_member *mb,
		  struct rp_dir *dir)
{
	uint8_t *w;
	size_t n;
	if (sc_member_copy(in, mb, &w, &n) != 0)
		return -1;
	int rc = 0;
	if (is_metadata(mb->name)) {
		rc = metadata(sc, w, n);
	} else {
		for (size_t i = 0; i < m->n; i++) {
			const struct text_range *r = &m->r[i];
			if (strcmp(m->names[r->member], mb->name) || r->offset > n || r->len > n - r->offset)
				continue;
			if (r->kind == PADDING)
				memset(w + r->offset, 0, r->len);
			else
				sc_text(sc, (enum tfk_scrub_kind)r->kind, w + r->offset, r->len);
		}
	}
	char out[TFK_MEMBER_NAME_MAX];
	out_name(sc, mb->name, out, sizeof(out));
	if (rc == 0)
		rc = sc_dir_put(dir, out, w, n);
	free(w);
	return rc;
}

static int ctf_sc_dir(void *model, struct sc_ctx *sc, const struct tfk_input *in, struct rp_dir *dir)
{
	struct ctf_scrub_model *m = model;
	if (m->oom) {
		errno = ENOMEM;
		return -1;
	}
	for (size_t i = 0; i < in->n; i++)
		if (in->members[i].kind != TFK_MEMBER_FILE && in->members[i].kind != TFK_MEMBER_DIR) {
			sc->rep->reason = "scrub not supported for CTF traces holding links or special files yet";
			return 1;
		}
	/* the metadata first: the procname it names is then the same pseudonym in the streams */
	for (int md = 1; md >= 0; md--)
		for (size_t i = 0; i < in->n; i++)
			if (in->members[i].kind == TFK_MEMBER_FILE && is_metadata(in->members[i].name) == (md != 0) &&
			    member(m, sc, in, &in->members[i], dir) != 0)
				return -1;
	sc_kept(sc, "event and field names, times, numbers, the tracer's name and version");
	return 0;
}

const struct sc_format sc_format_ctf = {
	.format = &tfk_format_ctf,
	.model_size = sizeof(struct ctf_scrub_model),
	.observer = ctf_sc_observer,
	.model_free = ctf_sc_free,
	.scrub_dir = ctf_sc_dir,
};
