/* SPDX-License-Identifier: MIT */
/*
 * A strict, bounded JSON reader for CTF 2 metadata fragments (RFC 8259 grammar, one object per
 * fragment). Our own rather than a library's (Debian has json-c, jansson, yajl): a checker must
 * say where each fault is (the byte offset in the metadata file and the fragment's index, for
 * packetized metadata too), tell a number out of range, a duplicate key, invalid UTF-8 and
 * bytes after the object apart as findings, and bound what hostile input costs: nesting depth,
 * string length and the number of values are capped, recursion is bounded by the depth cap,
 * every loop consumes a byte, and the tree lives in the metadata's arena (no allocation sized
 * by anything the file declares). The libraries stop at the first error with a message, accept
 * duplicate keys (last wins) or nesting limited only by the stack, and keep their own memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_json.h"

struct reader {
	struct tfk_ctx *ctx;
	struct ctf_arena *arena;
	const struct ctf_text *text;
	const unsigned char *s;
	size_t pos, end;
	uint64_t index;
	struct cj_budget *budget;
	bool failed, last, cut;
	size_t rs_at; /* the fragment's RS */
	char *buf;    /* CJ_MAX_STRING + 4: a string being unescaped */
};

__attribute__((format(printf, 5, 6))) static void fault(struct reader *r, enum tfk_fault_code code, size_t at,
							   size_t len, const char *found_fmt, ...)
{
	if (r->failed)
		return;
	r->failed = true;
	struct tfk_finding *f = tfk_emit(r->ctx, code, ctf_text_file_offset(r->text, at), len);
	tfk_set_path(f, "metadata fragment %llu", (unsigned long long)r->index);
	char found[128];
	va_list ap;
	va_start(ap, found_fmt);
	vsnprintf(found, sizeof(found), found_fmt, ap);
	va_end(ap);
	tfk_set_found(f, "%s", found);
}

/* The end of the fragment inside a value: the file cut there (the last fragment) or a syntax error. */
static void ended(struct reader *r, const char *expected)
{
	if (r->failed)
		return;
	if (r->last) {
		r->cut = true;
		r->failed = true;
		struct tfk_finding *f = tfk_emit(r->ctx, TFK_CTF_METADATA_FRAGMENT_CUT, ctf_text_file_offset(r->text, r->rs_at),
						 r->end - r->rs_at);
		tfk_set_path(f, "metadata fragment %llu", (unsigned long long)r->index);
		tfk_set_expected(f, "%s", expected);
		tfk_set_found(f, "the end of the file, %zu bytes into the fragment", r->end - r->rs_at);
		return;
	}
	fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->end, 1, "the next fragment's RS where %s was due", expected);
}

static void skip_ws(struct reader *r)
{
	while (r->pos < r->end) {
		unsigned char c = r->s[r->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		r->pos++;
	}
}

static struct cj_value *new_value(struct reader *r, enum cj_kind kind, size_t at)
{
	if (r->budget->values >= CJ_MAX_VALUES) {
		if (!r->failed)
			tfk_limit_hit(r->ctx, ctf_text_file_offset(r->text, at), "CTF 2 metadata JSON values",
				      r->budget->values + 1, CJ_MAX_VALUES);
		r->failed = true;
		return NULL;
	}
	struct cj_value *v = ctf_alloc(r->arena, sizeof(*v));
	if (!v) {
		if (!r->failed)
			tfk_limit_hit(r->ctx, ctf_text_file_offset(r->text, at), "CTF metadata model bytes",
				      r->arena->used_total, CTF_MAX_ARENA);
		r->failed = true;
		return NULL;
	}
	memset(v, 0, sizeof(*v));
	r->budget->values++;
	v->kind = (uint8_t)kind;
	v->at = at;
	return v;
}

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Four hex digits at r->pos (inside the fragment), or -1. */
static long hex4(struct reader *r)
{
	if (r->end - r->pos < 4)
		return -1;
	long v = 0;
	for (int k = 0; k < 4; k++) {
		int h = hexval(r->s[r->pos + (size_t)k]);
		if (h < 0)
			return -1;
		v = v * 16 + h;
	}
	r->pos += 4;
	return v;
}

/* The length of the UTF-8 sequence at p (n bytes there), or 0 when it is not a valid one. */
static size_t utf8_len(const unsigned char *p, size_t n)
{
	unsigned char c = p[0];
	size_t len;
	uint32_t cp;
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2;
		cp = c & 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3;
		cp = c & 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4;
		cp = c & 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t k = 1; k < len; k++) {
		if ((p[k] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[k] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A string at r->pos (its opening quote): unescaped into the arena. */
static const char *string(struct reader *r, uint32_t *out_len)
{
	const size_t start = r->pos;
	r->pos++; /* the quote */
	size_t n = 0;
	for (;;) {
		if (r->pos >= r->end) {
			ended(r, "the end of a string");
			return NULL;
		}
		unsigned char c = r->s[r->pos];
		if (c == '"') {
			r->pos++;
			break;
		}
		if (n > CJ_MAX_STRING) {
			fault(r, TFK_CTF_METADATA_JSON_STRING_LENGTH, start, r->pos - start, "more than %u bytes",
			      CJ_MAX_STRING);
			return NULL;
		}
		if (c < 0x20) {
			fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->pos, 1, "control byte 0x%02x inside a string", c);
			return NULL;
		}
		if (c == '\\') {
			const size_t esc = r->pos;
			if (++r->pos >= r->end) {
				ended(r, "an escape");
				return NULL;
			}
			unsigned char e = r->s[r->pos++];
			const char *simple = strchr("\"\\/bfnrt", e);
			if (e && simple) {
				static const char to[] = "\"\\/\b\f\n\r\t";
				r->buf[n++] = to[simple - "\"\\/bfnrt"];
				continue;
			}
			if (e != 'u') {
				fault(r, TFK_CTF_METADATA_JSON_SYNTAX, esc, 2, "escape '\\%c'", e >= 0x20 && e < 0x7f ? e : '?');
				return NULL;
			}
			long cp = hex4(r);
			if (cp < 0) {
				fault(r, TFK_CTF_METADATA_JSON_SYNTAX, esc, 2, "\\u without four hex digits");
				return NULL;
			}
			if (cp >= 0xd800 && cp <= 0xdbff) {
				long lo = -1;
				if (r->end - r->pos >= 2 && r->s[r->pos] == '\\' && r->s[r->pos + 1] == 'u') {
					r->pos += 2;
					lo = hex4(r);
				}
				if (lo < 0xdc00 || lo > 0xdfff) {
					fault(r, TFK_CTF_METADATA_JSON_UTF8, esc, 6, "a high surrogate \\u%04lx alone", cp);
					return NULL;
				}
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			} else if (cp >= 0xdc00 && cp <= 0xdfff) {
				fault(r, TFK_CTF_METADATA_JSON_UTF8, esc, 6, "a low surrogate \\u%04lx alone", cp);
				return NULL;
			}
			n += put_utf8(r->buf + n, (uint32_t)cp);
			continue;
		}
		size_t k = utf8_len(r->s + r->pos, r->end - r->pos);
		if (k == 0) {
			fault(r, TFK_CTF_METADATA_JSON_UTF8, r->pos, 1, "byte 0x%02x", c);
			return NULL;
		}
		memcpy(r->buf + n, r->s + r->pos, k);
		n += k;
		r->pos += k;
	}
	if (n > CJ_MAX_STRING) {
		fault(r, TFK_CTF_METADATA_JSON_STRING_LENGTH, start, r->pos - start, "%zu bytes", n);
		return NULL;
	}
	char *s = ctf_strndup(r->arena, r->buf, n);
	if (!s) {
		tfk_limit_hit(r->ctx, ctf_text_file_offset(r->text, start), "CTF metadata model bytes",
			      r->arena->used_total, CTF_MAX_ARENA);
		r->failed = true;
		return NULL;
	}
	*out_len = (uint32_t)n;
	return s;
}

static bool is_digit(unsigned char c)
{
	return c >= '0' && c <= '9';
}

static struct cj_value *number(struct reader *r)
{
	const size_t start = r->pos;
	bool neg = false, real = false, overflow = false;
	uint64_t mag = 0;
	if (r->s[r->pos] == '-') {
		neg = true;
		r->pos++;
	}
	if (r->pos >= r->end) {
		ended(r, "a number");
		return NULL;
	}
	if (!is_digit(r->s[r->pos])) {
		fault(r, TFK_CTF_METADATA_JSON_SYNTAX, start, r->pos - start + 1, "a '-' without digits");
		return NULL;
	}
	if (r->s[r->pos] == '0' && r->pos + 1 < r->end && is_digit(r->s[r->pos + 1])) {
		fault(r, TFK_CTF_METADATA_JSON_SYNTAX, start, 2, "a number with a leading zero");
		return NULL;
	}
	while (r->pos < r->end && is_digit(r->s[r->pos])) {
		unsigned d = r->s[r->pos++] - '0';
		if (mag > (UINT64_MAX - d) / 10)
			overflow = true;
		else
			mag = mag * 10 + d;
	}
	if (r->pos < r->end && r->s[r->pos] == '.') {
		real = true;
		r->pos++;
		if (r->pos >= r->end || !is_digit(r->s[r->pos])) {
			fault(r, TFK_CTF_METADATA_JSON_SYNTAX, start, r->pos - start, "a fraction without digits");
			return NULL;
		}
		while (r->pos < r->end && is_digit(r->s[r->pos]))
			r->pos++;
	}
	if (r->pos < r->end && (r->s[r->pos] == 'e' || r->s[r->pos] == 'E')) {
		real = true;
		r->pos++;
		if (r->pos < r->end && (r->s[r->pos] == '+' || r->s[r->pos] == '-'))
			r->pos++;
		if (r->pos >= r->end || !is_digit(r->s[r->pos])) {
			fault(r, TFK_CTF_METADATA_JSON_SYNTAX, start, r->pos - start, "an exponent without digits");
			return NULL;
		}
		while (r->pos < r->end && is_digit(r->s[r->pos]))
			r->pos++;
	}
	if (r->pos >= r->end && r->last) {
		ended(r, "the rest of the object after a number");
		return NULL;
	}
	if (!real && (overflow || (neg && mag > (uint64_t)INT64_MAX + 1))) {
		fault(r, TFK_CTF_METADATA_JSON_NUMBER_RANGE, start, r->pos - start,
		      "an integer of %zu digits beyond the 64-bit range", r->pos - start - (neg ? 1 : 0));
		return NULL;
	}
	struct cj_value *v = new_value(r, real ? CJ_REAL : neg && mag ? CJ_INT : CJ_UINT, start);
	if (!v)
		return NULL;
	if (!real) {
		if (neg && mag)
			v->i = mag == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)mag;
		else
			v->u = mag;
	}
	return v;
}

static struct cj_value *value(struct reader *r, unsigned depth);

static int key_cmp(const void *a, const void *b)
{
	const struct cj_value *x = *(const struct cj_value *const *)a, *y = *(const struct cj_value *const *)b;
	uint32_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c = memcmp(x->key, y->key, n);
	if (c)
		return c;
	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	return x->key_at < y->key_at ? -1 : x->key_at > y->key_at;
}

static bool same_key(const struct cj_value *x, const struct cj_value *y)
{
	return x->key_len == y->key_len && memcmp(x->key, y->key, x->key_len) == 0;
}

/* Two members of one key: reported at the second. Sorted when many (n log n, never n squared). */
static void duplicates(struct reader *r, struct cj_value *obj)
{
	const struct cj_value *dup = NULL;
	if (obj->n <= 16) {
		for (const struct cj_value *a = obj->first; a && !dup; a = a->next)
			for (const struct cj_value *b = a->next; b && !dup; b = b->next)
				if (same_key(a, b))
					dup = b;
	} else {
		const struct cj_value **all = tfk_calloc(r->ctx, obj->n, sizeof(*all));
		if (!all) {
			r->ctx->report->incomplete = true;
			return;
		}
		size_t k = 0;
		for (const struct cj_value *a = obj->first; a && k < obj->n; a = a->next)
			all[k++] = a;
		qsort(all, k, sizeof(*all), key_cmp);
		for (size_t i = 1; i < k; i++)
			if (same_key(all[i - 1], all[i]) && (!dup || all[i]->key_at < dup->key_at))
				dup = all[i];
		free(all);
	}
	if (dup)
		fault(r, TFK_CTF_METADATA_JSON_DUPLICATE_KEY, dup->key_at, dup->key_len + 2, "key \"%.60s\" a second time",
		      dup->key);
}

static struct cj_value *object(struct reader *r, unsigned depth)
{
	struct cj_value *obj = new_value(r, CJ_OBJECT, r->pos);
	if (!obj)
		return NULL;
	r->pos++;
	struct cj_value **tail = &obj->first;
	skip_ws(r);
	if (r->pos < r->end && r->s[r->pos] == '}') {
		r->pos++;
		return obj;
	}
	for (;;) {
		skip_ws(r);
		if (r->pos >= r->end) {
			ended(r, "a key");
			return NULL;
		}
		if (r->s[r->pos] != '"') {
			fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->pos, 1, "byte 0x%02x where a key was due", r->s[r->pos]);
			return NULL;
		}
		const size_t key_at = r->pos;
		uint32_t key_len = 0;
		const char *key = string(r, &key_len);
		if (!key)
			return NULL;
		skip_ws(r);
		if (r->pos >= r->end) {
			ended(r, "':'");
			return NULL;
		}
		if (r->s[r->pos] != ':') {
			fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->pos, 1, "byte 0x%02x where ':' was due", r->s[r->pos]);
			return NULL;
		}
		r->pos++;
		struct cj_value *v = value(r, depth + 1);
		if (!v)
			return NULL;
		v->key = key;
		v->key_len = key_len;
		v->key_at = key_at;
		*tail = v;
		tail = &v->next;
		obj->n++;
		skip_ws(r);
		if (r->pos >= r->end) {
			ended(r, "',' or '}'");
			return NULL;
		}
		unsigned char c = r->s[r->pos++];
		if (c == '}')
			break;
		if (c != ',') {
			fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->pos - 1, 1, "byte 0x%02x where ',' or '}' was due", c);
			return NULL;
		}
	}
	duplicates(r, obj);
	return r->failed ? NULL : obj;
}

static struct cj_value *array(struct reader *r, unsigned depth)
{
	struct cj_value *arr = new_value(r, CJ_ARRAY, r->pos);
	if (!arr)
		return NULL;
	r->pos++;
	struct cj_value **tail = &arr->first;
	skip_ws(r);
	if (r->pos < r->end && r->s[r->pos] == ']') {
		r->pos++;
		return arr;
	}
	for (;;) {
		struct cj_value *v = value(r, depth + 1);
		if (!v)
			return NULL;
		*tail = v;
		tail = &v->next;
		arr->n++;
		skip_ws(r);
		if (r->pos >= r->end) {
			ended(r, "',' or ']'");
			return NULL;
		}
		unsigned char c = r->s[r->pos++];
		if (c == ']')
			return arr;
		if (c != ',') {
			fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->pos - 1, 1, "byte 0x%02x where ',' or ']' was due", c);
			return NULL;
		}
	}
}

static struct cj_value *literal(struct reader *r, const char *word, enum cj_kind kind, bool b)
{
	size_t n = strlen(word);
	size_t have = r->end - r->pos < n ? r->end - r->pos : n;
	if (memcmp(r->s + r->pos, word, have) != 0) {
		fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->pos, 1, "byte 0x%02x where a value was due", r->s[r->pos]);
		return NULL;
	}
	if (have < n) {
		ended(r, word);
		return NULL;
	}
	struct cj_value *v = new_value(r, kind, r->pos);
	if (v)
		v->b = b;
	r->pos += n;
	return v;
}

static struct cj_value *value(struct reader *r, unsigned depth)
{
	skip_ws(r);
	if (r->pos >= r->end) {
		ended(r, "a value");
		return NULL;
	}
	if (depth > CJ_MAX_DEPTH) {
		fault(r, TFK_CTF_METADATA_JSON_DEPTH, r->pos, 1, "a value nested %u deep (at most %u)", depth, CJ_MAX_DEPTH);
		return NULL;
	}
	unsigned char c = r->s[r->pos];
	switch (c) {
	case '{':
		return object(r, depth);
	case '[':
		return array(r, depth);
	case '"': {
		const size_t at = r->pos;
		uint32_t len = 0;
		const char *s = string(r, &len);
		if (!s)
			return NULL;
		struct cj_value *v = new_value(r, CJ_STRING, at);
		if (v) {
			v->s = s;
			v->len = len;
		}
		return v;
	}
	case 't':
		return literal(r, "true", CJ_BOOL, true);
	case 'f':
		return literal(r, "false", CJ_BOOL, false);
	case 'n':
		return literal(r, "null", CJ_NULL, false);
	default:
		if (c == '-' || is_digit(c))
			return number(r);
		fault(r, TFK_CTF_METADATA_JSON_SYNTAX, r->pos, 1, "byte 0x%02x where a value was due", c);
		return NULL;
	}
}

struct cj_value *ctf_json_fragment(struct tfk_ctx *ctx, struct ctf_arena *arena, const struct ctf_text *text,
				   size_t from, size_t to, uint64_t index, struct cj_budget *budget, bool *cut,
				   size_t *trailing)
{
	*trailing = to;
	if (!budget->scratch && !(budget->scratch = malloc(CJ_MAX_STRING + 8))) {
		ctx->report->incomplete = true;
		return NULL;
	}
	char *buf = budget->scratch;
	struct reader r = { ctx, arena, text, (const unsigned char *)text->s, from, to, index, budget, false,
			    to >= text->len, false, from ? from - 1 : 0, buf };
	*cut = false;
	struct cj_value *root = NULL;
	skip_ws(&r);
	if (r.pos >= r.end) {
		if (r.last && r.end == from) {
			ended(&r, "a JSON object");
		} else {
			fault(&r, TFK_CTF_METADATA_JSON_SYNTAX, r.rs_at, r.end - r.rs_at, "a fragment without a JSON value");
		}
	} else if (r.s[r.pos] != '{') {
		fault(&r, TFK_CTF_METADATA_JSON_SYNTAX, r.pos, 1, "byte 0x%02x where a fragment's object was due", r.s[r.pos]);
	} else {
		root = value(&r, 1);
		if (root) {
			skip_ws(&r);
			if (r.pos < r.end) {
				/* the object is whole and used; the bytes after it are the fault */
				fault(&r, TFK_CTF_METADATA_JSON_TRAILING, r.pos, r.end - r.pos, "%zu bytes after the object",
				      r.end - r.pos);
				*trailing = r.pos;
				r.failed = false;
			}
		}
	}
	*cut = r.cut;
	return r.failed ? NULL : root;
}

const struct cj_value *cj_get(const struct cj_value *obj, const char *key)
{
	if (!obj || obj->kind != CJ_OBJECT)
		return NULL;
	size_t n = strlen(key);
	for (const struct cj_value *m = obj->first; m; m = m->next)
		if (m->key_len == n && memcmp(m->key, key, n) == 0)
			return m;
	return NULL;
}
