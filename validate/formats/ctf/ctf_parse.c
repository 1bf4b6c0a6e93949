/* SPDX-License-Identifier: MIT */
/*
 * The TSDL parser (CTF 1.8 section 7): top-level declarations and blocks into the type model
 * of ctf.h. Recursive descent bounded in depth; every loop consumes a token. A syntax error is
 * reported with its line and column, and parsing resumes at the next top-level statement.
 * Bad attributes and undefined types are semantic findings; the checks across blocks are in
 * ctf_semantic.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf.h"
#include "ctf_lex.h"
#include "ctf_parse.h"

#define MAX_SYNTAX_REPORTS 16
#define MAX_WORDS 8

static void advance(struct ctf_parser *p)
{
	if (ctf_tok_is(&p->tok, "{"))
		p->braces++;
	else if (ctf_tok_is(&p->tok, "}") && p->braces > 0)
		p->braces--;
	if (p->npush) {
		p->tok = p->push[--p->npush];
		return;
	}
	p->tok = ctf_lex_next(&p->lx);
	p->ntokens++;
}

static void push_back(struct ctf_parser *p, struct ctf_token t)
{
	if (p->npush < CTF_PARSER_PUSH) {
		p->push[p->npush++] = p->tok;
		p->tok = t;
	}
}

void ctf_syntax(struct ctf_parser *p, const struct ctf_token *t, const char *what)
{
	if (p->err)
		return;
	p->err = true;
	p->syntax_errors++;
	if (p->syntax_errors > MAX_SYNTAX_REPORTS) {
		tfk_count_only(p->ctx, TFK_CTF_METADATA_SYNTAX);
		return;
	}
	struct tfk_finding *f = tfk_emit(p->ctx, TFK_CTF_METADATA_SYNTAX, ctf_text_file_offset(p->text, t->at),
					 t->len ? t->len : 1);
	tfk_set_path(f, "metadata line %u, column %u", t->line, t->col);
	tfk_set_expected(f, "%s", what);
	if (t->kind == CTF_T_ERROR)
		tfk_set_found(f, "%s", t->error);
	else if (t->kind == CTF_T_EOF)
		tfk_set_found(f, "the end of the metadata");
	else
		tfk_set_found_bytes(f, t->s, t->len > 60 ? 60 : t->len);
}

void ctf_semantic(struct ctf_parser *p, const struct ctf_token *t, const char *what, const char *found)
{
	p->semantic_errors++;
	if (p->semantic_errors > MAX_SYNTAX_REPORTS) {
		tfk_count_only(p->ctx, TFK_CTF_METADATA_SEMANTIC);
		return;
	}
	struct tfk_finding *f = tfk_emit(p->ctx, TFK_CTF_METADATA_SEMANTIC, ctf_text_file_offset(p->text, t ? t->at : 0),
					 t && t->len ? t->len : 1);
	if (t)
		tfk_set_path(f, "metadata line %u, column %u", t->line, t->col);
	else
		tfk_set_path(f, "metadata");
	tfk_set_expected(f, "%s", what);
	tfk_set_found(f, "%s", found);
}

static bool expect(struct ctf_parser *p, const char *punct)
{
	if (p->err)
		return false;
	if (!ctf_tok_is(&p->tok, punct)) {
		char what[32];
		snprintf(what, sizeof(what), "'%s'", punct);
		ctf_syntax(p, &p->tok, what);
		return false;
	}
	advance(p);
	return true;
}

static bool accept(struct ctf_parser *p, const char *punct)
{
	if (!p->err && ctf_tok_is(&p->tok, punct)) {
		advance(p);
		return true;
	}
	return false;
}

static char *tok_dup(struct ctf_parser *p, const struct ctf_token *t)
{
	const char *s = t->s;
	size_t n = t->len;
	if ((t->kind == CTF_T_STRING || t->kind == CTF_T_CHAR) && n >= 2) {
		s++;
		n -= 2;
	}
	return ctf_strndup(&p->m->arena, s, n);
}

static struct ctf_type *new_type(struct ctf_parser *p, enum ctf_kind k)
{
	struct ctf_type *t = ctf_alloc(&p->m->arena, sizeof(*t));
	if (!t) {
		p->oom = true;
		p->err = true;
		return NULL;
	}
	t->kind = k;
	t->align = 8;
	return t;
}

/* ---- named types ---- */

static struct ctf_type *lookup(const struct ctf_parser *p, const char *name)
{
	for (size_t i = p->nnames; i-- > 0;)
		if (strcmp(p->names[i].name, name) == 0)
			return p->names[i].type;
	return NULL;
}

static void define(struct ctf_parser *p, const char *name, struct ctf_type *t)
{
	if (!name || !t)
		return;
	if (p->nnames == p->cap_names) {
		size_t cap = p->cap_names ? p->cap_names * 2 : 64;
		struct ctf_name *n = ctf_alloc(&p->m->arena, cap * sizeof(*n));
		if (!n) {
			p->oom = p->err = true;
			return;
		}
		if (p->nnames)
			memcpy(n, p->names, p->nnames * sizeof(*n));
		p->names = n;
		p->cap_names = cap;
	}
	p->names[p->nnames].name = name;
	p->names[p->nnames].type = t;
	p->nnames++;
}

static struct ctf_type *lookup_prefixed(struct ctf_parser *p, const char *prefix, const char *name)
{
	char buf[CTF_MAX_TOKEN + 16];
	snprintf(buf, sizeof(buf), "%s %s", prefix, name);
	return lookup(p, buf);
}

static void define_prefixed(struct ctf_parser *p, const char *prefix, const char *name, struct ctf_type *t)
{
	char buf[CTF_MAX_TOKEN + 16];
	int n = snprintf(buf, sizeof(buf), "%s %s", prefix, name);
	define(p, ctf_strndup(&p->m->arena, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1), t);
}

/* ---- values of attributes ---- */

enum vkind { V_NONE, V_INT, V_IDENT, V_STRING };
struct value {
	enum vkind kind;
	uint64_t u;
	bool negative, overflow;
	char text[128]; /* identifier (dotted) or string contents, possibly cut */
	struct ctf_token tok;
};

static void parse_value(struct ctf_parser *p, struct value *v)
{
	memset(v, 0, sizeof(*v));
	v->tok = p->tok;
	if (p->err)
		return;
	bool neg = false;
	if (accept(p, "-"))
		neg = true;
	else
		accept(p, "+");
	if (p->tok.kind == CTF_T_INT) {
		v->kind = V_INT;
		v->u = p->tok.value;
		v->negative = neg;
		v->overflow = p->tok.overflow;
		advance(p);
		return;
	}
	if (neg) {
		ctf_syntax(p, &p->tok, "an integer after '-'");
		return;
	}
	if (p->tok.kind == CTF_T_STRING || p->tok.kind == CTF_T_CHAR) {
		v->kind = V_STRING;
		size_t n = p->tok.len >= 2 ? p->tok.len - 2 : 0;
		if (n >= sizeof(v->text))
			n = sizeof(v->text) - 1;
		memcpy(v->text, p->tok.s + 1, n);
		v->text[n] = 0;
		advance(p);
		return;
	}
	if (p->tok.kind == CTF_T_IDENT) {
		v->kind = V_IDENT;
		size_t used = 0;
		for (;;) {
			size_t n = p->tok.len;
			if (used + n + 2 < sizeof(v->text)) {
				memcpy(v->text + used, p->tok.s, n);
				used += n;
				v->text[used] = 0;
			}
			advance(p);
			if (!ctf_tok_is(&p->tok, ".") && !ctf_tok_is(&p->tok, "->"))
				break;
			if (used + 2 < sizeof(v->text))
				v->text[used++] = '.', v->text[used] = 0;
			advance(p);
			if (p->tok.kind != CTF_T_IDENT) {
				ctf_syntax(p, &p->tok, "an identifier after '.'");
				return;
			}
		}
		return;
	}
	ctf_syntax(p, &p->tok, "a value (integer, string or identifier)");
}

static bool value_bool(const struct value *v, bool *out)
{
	if (v->kind == V_INT && !v->negative && v->u <= 1) {
		*out = v->u == 1;
		return true;
	}
	if (v->kind == V_IDENT) {
		if (!strcmp(v->text, "true") || !strcmp(v->text, "TRUE")) {
			*out = true;
			return true;
		}
		if (!strcmp(v->text, "false") || !strcmp(v->text, "FALSE")) {
			*out = false;
			return true;
		}
	}
	return false;
}

static bool value_order(const struct value *v, enum ctf_order *o, bool *native)
{
	if (v->kind != V_IDENT)
		return false;
	*native = false;
	if (!strcmp(v->text, "le") || !strcmp(v->text, "little_endian"))
		*o = CTF_BO_LE;
	else if (!strcmp(v->text, "be") || !strcmp(v->text, "big_endian") || !strcmp(v->text, "network"))
		*o = CTF_BO_BE;
	else if (!strcmp(v->text, "native"))
		*o = CTF_BO_DEFAULT, *native = true;
	else
		return false;
	return true;
}

static void bad_attr(struct ctf_parser *p, const struct value *v, const char *what)
{
	char found[160];
	if (v->kind == V_INT)
		snprintf(found, sizeof(found), "%s%llu", v->negative ? "-" : "", (unsigned long long)v->u);
	else
		snprintf(found, sizeof(found), "%s", v->text);
	ctf_semantic(p, &v->tok, what, found);
}

static bool is_pow2(uint64_t v)
{
	return v && (v & (v - 1)) == 0;
}

/* ---- types ---- */

static struct ctf_type *parse_type(struct ctf_parser *p, bool declarator_follows);
static bool parse_fields(struct ctf_parser *p, struct ctf_type *t, bool variant);

static struct ctf_type *parse_integer(struct ctf_parser *p)
{
	struct ctf_token start = p->tok;
	advance(p); /* integer */
	struct ctf_type *t = new_type(p, CTF_INT);
	if (!t || !expect(p, "{"))
		return NULL;
	bool have_size = false, have_align = false;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind != CTF_T_IDENT) {
			ctf_syntax(p, &p->tok, "an integer attribute");
			return NULL;
		}
		struct ctf_token name = p->tok;
		advance(p);
		if (!expect(p, "="))
			return NULL;
		struct value v;
		parse_value(p, &v);
		if (p->err || !expect(p, ";"))
			return NULL;
		if (ctf_tok_is(&name, "size")) {
			if (v.kind != V_INT || v.negative || v.u == 0 || v.u > 64)
				bad_attr(p, &v, "integer size from 1 to 64 bits");
			else
				t->size = (unsigned)v.u, have_size = true;
		} else if (ctf_tok_is(&name, "align")) {
			if (v.kind != V_INT || v.negative || !is_pow2(v.u) || v.u > 4096)
				bad_attr(p, &v, "an alignment that is a power of two");
			else
				t->align = (unsigned)v.u, have_align = true;
		} else if (ctf_tok_is(&name, "signed")) {
			if (!value_bool(&v, &t->is_signed))
				bad_attr(p, &v, "signed = true or false");
		} else if (ctf_tok_is(&name, "byte_order")) {
			bool native;
			if (!value_order(&v, &t->order, &native))
				bad_attr(p, &v, "byte_order = native, network, be or le");
		} else if (ctf_tok_is(&name, "base")) {
			static const char *const bases[] = { "decimal", "dec", "d", "i", "u", "hexadecimal", "hex",
							     "x", "X", "p", "octal", "oct", "o", "binary", "b" };
			bool ok = v.kind == V_INT && (v.u == 2 || v.u == 8 || v.u == 10 || v.u == 16);
			for (size_t i = 0; v.kind == V_IDENT && i < sizeof(bases) / sizeof(bases[0]); i++)
				ok |= strcmp(v.text, bases[i]) == 0;
			if (!ok)
				bad_attr(p, &v, "base 2, 8, 10 or 16");
		} else if (ctf_tok_is(&name, "encoding")) {
			if (v.kind != V_IDENT || (strcmp(v.text, "none") && strcmp(v.text, "UTF8") &&
						  strcmp(v.text, "ASCII") && strcmp(v.text, "utf8") && strcmp(v.text, "ascii")))
				bad_attr(p, &v, "encoding = none, UTF8 or ASCII");
		} else if (ctf_tok_is(&name, "map")) {
			size_t n = strlen(v.text);
			if (v.kind != V_IDENT || strncmp(v.text, "clock.", 6) != 0 || n < 13 ||
			    strcmp(v.text + n - 6, ".value") != 0)
				bad_attr(p, &v, "map = clock.<name>.value");
			else
				t->clock = true;
		}
		/* Other attributes are ignored, as babeltrace2 does. */
	}
	if (!expect(p, "}"))
		return NULL;
	if (!have_size) {
		ctf_semantic(p, &start, "an integer size", "none");
		t->size = 8;
	}
	if (!have_align)
		t->align = t->size % 8 ? 1 : 8;
	return t;
}

static struct ctf_type *parse_float(struct ctf_parser *p)
{
	struct ctf_token start = p->tok;
	advance(p);
	struct ctf_type *t = new_type(p, CTF_FLOAT);
	if (!t || !expect(p, "{"))
		return NULL;
	uint64_t exp = 0, mant = 0;
	bool have_align = false;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind != CTF_T_IDENT) {
			ctf_syntax(p, &p->tok, "a floating_point attribute");
			return NULL;
		}
		struct ctf_token name = p->tok;
		advance(p);
		if (!expect(p, "="))
			return NULL;
		struct value v;
		parse_value(p, &v);
		if (p->err || !expect(p, ";"))
			return NULL;
		if (ctf_tok_is(&name, "exp_dig") && v.kind == V_INT && !v.negative)
			exp = v.u;
		else if (ctf_tok_is(&name, "mant_dig") && v.kind == V_INT && !v.negative)
			mant = v.u;
		else if (ctf_tok_is(&name, "align")) {
			if (v.kind != V_INT || v.negative || !is_pow2(v.u) || v.u > 4096)
				bad_attr(p, &v, "an alignment that is a power of two");
			else
				t->align = (unsigned)v.u, have_align = true;
		} else if (ctf_tok_is(&name, "byte_order")) {
			bool native;
			if (!value_order(&v, &t->order, &native))
				bad_attr(p, &v, "byte_order = native, network, be or le");
		}
	}
	if (!expect(p, "}"))
		return NULL;
	if (!((exp == 8 && mant == 24) || (exp == 11 && mant == 53))) {
		ctf_semantic(p, &start, "exp_dig 8, mant_dig 24 (32 bits) or 11, 53 (64 bits)", "another layout");
		t->size = 32;
	} else {
		t->size = (unsigned)(exp + mant);
	}
	if (!have_align)
		t->align = 8;
	return t;
}

static struct ctf_type *parse_string(struct ctf_parser *p)
{
	advance(p);
	struct ctf_type *t = new_type(p, CTF_STRING);
	if (!t)
		return NULL;
	if (accept(p, "{")) {
		while (!p->err && !ctf_tok_is(&p->tok, "}")) {
			if (p->tok.kind != CTF_T_IDENT) {
				ctf_syntax(p, &p->tok, "a string attribute");
				return NULL;
			}
			advance(p);
			if (!expect(p, "="))
				return NULL;
			struct value v;
			parse_value(p, &v);
			if (p->err || !expect(p, ";"))
				return NULL;
		}
		if (!expect(p, "}"))
			return NULL;
	}
	return t;
}

static bool range_value(struct ctf_parser *p, int64_t *out)
{
	struct value v;
	parse_value(p, &v);
	if (p->err)
		return false;
	if (v.kind != V_INT) {
		ctf_syntax(p, &v.tok, "an integer");
		return false;
	}
	if (v.overflow || (v.negative && v.u > (uint64_t)INT64_MAX + 1)) {
		bad_attr(p, &v, "an enumeration value of at most 64 bits");
		*out = 0;
		return true;
	}
	*out = v.negative ? (int64_t)(0 - v.u) : (int64_t)v.u;
	return true;
}

static struct ctf_type *parse_enum(struct ctf_parser *p)
{
	advance(p); /* enum */
	const char *name = NULL;
	if (p->tok.kind == CTF_T_IDENT) {
		name = tok_dup(p, &p->tok);
		advance(p);
	}
	struct ctf_token at = p->tok;
	if (!ctf_tok_is(&p->tok, ":") && !ctf_tok_is(&p->tok, "{")) {
		struct ctf_type *t = name ? lookup_prefixed(p, "enum", name) : NULL;
		if (!t && !p->err) {
			ctf_semantic(p, &at, "a declared enumeration", name ? name : "none");
			t = new_type(p, CTF_INT);
			if (t)
				t->size = 8;
		}
		return t;
	}
	struct ctf_type *t = new_type(p, CTF_ENUM);
	if (!t)
		return NULL;
	if (accept(p, ":")) {
		t->container = parse_type(p, false);
	} else {
		t->container = lookup(p, "int");
		if (!t->container)
			ctf_semantic(p, &at, "an enumeration container type (or a typealias for int)", "none");
	}
	if (p->err)
		return NULL;
	if (t->container && t->container->kind != CTF_INT) {
		ctf_semantic(p, &at, "an integer container type", "another type");
		t->container = NULL;
	}
	if (!t->container) {
		t->container = new_type(p, CTF_INT);
		if (!t->container)
			return NULL;
		t->container->size = 32;
	}
	t->size = t->container->size;
	t->align = t->container->align;
	t->is_signed = t->container->is_signed;
	t->order = t->container->order;
	t->clock = t->container->clock;
	if (!expect(p, "{"))
		return NULL;
	size_t cap = 0;
	int64_t next = 0;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind != CTF_T_IDENT && p->tok.kind != CTF_T_STRING) {
			ctf_syntax(p, &p->tok, "an enumerator name");
			return NULL;
		}
		struct ctf_range r = { tok_dup(p, &p->tok), next, next };
		advance(p);
		if (accept(p, "=")) {
			if (!range_value(p, &r.lo))
				return NULL;
			r.hi = r.lo;
			if (accept(p, "...") && !range_value(p, &r.hi))
				return NULL;
		}
		next = r.hi + (r.hi < INT64_MAX ? 1 : 0);
		if (t->nranges == cap) {
			size_t ncap = cap ? cap * 2 : 16;
			struct ctf_range *n = ctf_alloc(&p->m->arena, ncap * sizeof(*n));
			if (!n) {
				p->oom = p->err = true;
				return NULL;
			}
			if (t->nranges)
				memcpy(n, t->ranges, t->nranges * sizeof(*n));
			t->ranges = n;
			cap = ncap;
		}
		t->ranges[t->nranges++] = r;
		if (!accept(p, ","))
			break;
	}
	if (!expect(p, "}"))
		return NULL;
	if (name)
		define_prefixed(p, "enum", name, t);
	return t;
}

static unsigned type_align(const struct ctf_type *t)
{
	return t ? t->align : 1;
}

static struct ctf_type *parse_compound(struct ctf_parser *p, bool variant)
{
	const char *prefix = variant ? "variant" : "struct";
	advance(p);
	const char *name = NULL, *tag = NULL;
	if (p->tok.kind == CTF_T_IDENT) {
		name = tok_dup(p, &p->tok);
		advance(p);
	}
	if (variant && accept(p, "<")) {
		struct value v;
		parse_value(p, &v);
		if (p->err)
			return NULL;
		if (v.kind != V_IDENT) {
			ctf_syntax(p, &v.tok, "a variant tag");
			return NULL;
		}
		tag = ctf_strndup(&p->m->arena, v.text, strlen(v.text));
		if (!expect(p, ">"))
			return NULL;
	}
	struct ctf_type *t;
	if (!ctf_tok_is(&p->tok, "{")) {
		struct ctf_token at = p->tok;
		t = name ? lookup_prefixed(p, prefix, name) : NULL;
		if (!t) {
			if (!p->err)
				ctf_semantic(p, &at, variant ? "a declared variant" : "a declared structure",
					     name ? name : "none");
			return new_type(p, variant ? CTF_VARIANT : CTF_STRUCT);
		}
		if (variant && tag) {
			struct ctf_type *copy = new_type(p, CTF_VARIANT);
			if (!copy)
				return NULL;
			*copy = *t;
			copy->tag = tag;
			t = copy;
		}
	} else {
		t = new_type(p, variant ? CTF_VARIANT : CTF_STRUCT);
		if (!t)
			return NULL;
		t->tag = tag;
		t->align = variant ? 1 : 1;
		advance(p);
		if (++p->depth > CTF_MAX_DEPTH) {
			ctf_syntax(p, &p->tok, "types nested at most 32 deep");
			return NULL;
		}
		bool ok = parse_fields(p, t, variant);
		p->depth--;
		if (!ok || !expect(p, "}"))
			return NULL;
		if (!variant)
			for (size_t i = 0; i < t->nfields; i++)
				if (type_align(t->fields[i].type) > t->align)
					t->align = type_align(t->fields[i].type);
		if (name)
			define_prefixed(p, prefix, name, t);
	}
	if (!variant && ctf_tok_is(&p->tok, "align")) {
		advance(p);
		if (!expect(p, "("))
			return NULL;
		struct value v;
		parse_value(p, &v);
		if (p->err || !expect(p, ")"))
			return NULL;
		if (v.kind != V_INT || v.negative || !is_pow2(v.u) || v.u > 4096) {
			bad_attr(p, &v, "an alignment that is a power of two");
		} else if (v.u > t->align) {
			struct ctf_type *copy = new_type(p, CTF_STRUCT);
			if (!copy)
				return NULL;
			*copy = *t;
			copy->align = (unsigned)v.u;
			t = copy;
		}
	}
	return t;
}

/* A type named by words ("uint8_t", "unsigned long", "void *"); the last word is the
 * declarator when one follows. */
static struct ctf_type *parse_named(struct ctf_parser *p, bool declarator_follows)
{
	struct ctf_token words[MAX_WORDS];
	size_t n = 0;
	while (p->tok.kind == CTF_T_IDENT || ctf_tok_is(&p->tok, "*")) {
		if (n == MAX_WORDS) {
			ctf_syntax(p, &p->tok, "a type name of at most 8 words");
			return NULL;
		}
		words[n++] = p->tok;
		advance(p);
	}
	struct ctf_token last = words[n - 1];
	if (declarator_follows && n > 1 && last.kind == CTF_T_IDENT) {
		push_back(p, last);
		n--;
	}
	char buf[CTF_MAX_TOKEN + 64];
	size_t used = 0;
	for (size_t i = 0; i < n; i++) {
		if (used + words[i].len + 2 >= sizeof(buf))
			break;
		if (i)
			buf[used++] = ' ';
		memcpy(buf + used, words[i].s, words[i].len);
		used += words[i].len;
	}
	buf[used] = 0;
	struct ctf_type *t = lookup(p, buf);
	if (!t) {
		ctf_semantic(p, &words[0], "a declared type", buf);
		t = new_type(p, CTF_INT);
		if (t) {
			t->size = 8;
			p->undefined = true;
		}
	}
	return t;
}

static struct ctf_type *parse_type_inner(struct ctf_parser *p, bool declarator_follows);

/* Every nested type goes through here: the nesting is bounded whatever the text. */
static struct ctf_type *parse_type(struct ctf_parser *p, bool declarator_follows)
{
	if (p->err)
		return NULL;
	if (++p->type_depth > CTF_MAX_DEPTH) {
		ctf_syntax(p, &p->tok, "types nested at most 32 deep");
		p->type_depth--;
		return NULL;
	}
	struct ctf_type *t = parse_type_inner(p, declarator_follows);
	p->type_depth--;
	return t;
}

static struct ctf_type *parse_type_inner(struct ctf_parser *p, bool declarator_follows)
{
	while (ctf_tok_is(&p->tok, "const"))
		advance(p);
	if (ctf_tok_is(&p->tok, "integer"))
		return parse_integer(p);
	if (ctf_tok_is(&p->tok, "floating_point"))
		return parse_float(p);
	if (ctf_tok_is(&p->tok, "string"))
		return parse_string(p);
	if (ctf_tok_is(&p->tok, "enum"))
		return parse_enum(p);
	if (ctf_tok_is(&p->tok, "struct"))
		return parse_compound(p, false);
	if (ctf_tok_is(&p->tok, "variant"))
		return parse_compound(p, true);
	if (p->tok.kind == CTF_T_IDENT)
		return parse_named(p, declarator_follows);
	ctf_syntax(p, &p->tok, "a type");
	return NULL;
}

/* name[N][len]...: the declared type of one declarator. */
static struct ctf_type *parse_declarator(struct ctf_parser *p, struct ctf_type *base, const char **name)
{
	if (p->tok.kind != CTF_T_IDENT) {
		ctf_syntax(p, &p->tok, "a field name");
		return NULL;
	}
	*name = tok_dup(p, &p->tok);
	advance(p);
	/* Dimensions apply outermost first: t a[2][3] is 2 arrays of 3. */
	struct ctf_type *dims[8];
	size_t nd = 0;
	while (!p->err && accept(p, "[")) {
		struct value v;
		parse_value(p, &v);
		if (p->err || !expect(p, "]"))
			return NULL;
		if (nd == 8) {
			ctf_syntax(p, &v.tok, "at most 8 dimensions");
			return NULL;
		}
		struct ctf_type *a = new_type(p, v.kind == V_INT ? CTF_ARRAY : CTF_SEQ);
		if (!a)
			return NULL;
		if (v.kind == V_INT) {
			if (v.negative || v.overflow) {
				bad_attr(p, &v, "an array length");
				a->length = 0;
			} else {
				a->length = v.u;
			}
		} else if (v.kind == V_IDENT) {
			a->length_name = ctf_strndup(&p->m->arena, v.text, strlen(v.text));
		} else {
			ctf_syntax(p, &v.tok, "an array length or a sequence length field");
			return NULL;
		}
		dims[nd++] = a;
	}
	struct ctf_type *t = base;
	for (size_t i = nd; i-- > 0;) {
		dims[i]->elem = t;
		dims[i]->align = type_align(t);
		t = dims[i];
	}
	return t;
}

static bool parse_typealias(struct ctf_parser *p);
static bool parse_typedef(struct ctf_parser *p);

static bool add_field(struct ctf_parser *p, struct ctf_type *t, const char *name, struct ctf_type *ft, size_t *cap)
{
	if (t->nfields == *cap) {
		size_t ncap = *cap ? *cap * 2 : 8;
		struct ctf_field *n = ctf_alloc(&p->m->arena, ncap * sizeof(*n));
		if (!n) {
			p->oom = p->err = true;
			return false;
		}
		if (t->nfields)
			memcpy(n, t->fields, t->nfields * sizeof(*n));
		t->fields = n;
		*cap = ncap;
	}
	t->fields[t->nfields].name = name;
	t->fields[t->nfields].type = ft;
	t->nfields++;
	return true;
}

/* Resolve a sequence length or variant tag among the fields of the structures being parsed. */
static const struct ctf_type *resolve_in_progress(struct ctf_parser *p, const char *path)
{
	if (strchr(path, '.'))
		return NULL;
	for (size_t i = p->nopen; i-- > 0;) {
		const struct ctf_type *s = p->open[i];
		if (s->kind != CTF_STRUCT)
			continue;
		for (size_t k = s->nfields; k-- > 0;)
			if (strcmp(s->fields[k].name, path) == 0)
				return s->fields[k].type;
	}
	return NULL;
}

static void check_references(struct ctf_parser *p, const struct ctf_token *at, const struct ctf_type *t)
{
	const struct ctf_type *inner = t;
	while (inner && (inner->kind == CTF_ARRAY || inner->kind == CTF_SEQ)) {
		if (inner->kind == CTF_SEQ) {
			const struct ctf_type *len = resolve_in_progress(p, inner->length_name);
			if (len && (len->kind != CTF_INT && len->kind != CTF_ENUM))
				ctf_semantic(p, at, "a sequence length that is an unsigned integer field",
					     inner->length_name);
			else if (len && len->is_signed)
				ctf_semantic(p, at, "a sequence length that is an unsigned integer field",
					     "a signed integer");
		}
		inner = inner->elem;
	}
	if (inner && inner->kind == CTF_VARIANT && inner->tag) {
		const struct ctf_type *tag = resolve_in_progress(p, inner->tag);
		if (tag && tag->kind != CTF_ENUM)
			ctf_semantic(p, at, "a variant tag that is an enumeration field", inner->tag);
	}
}

static bool parse_fields(struct ctf_parser *p, struct ctf_type *t, bool variant)
{
	size_t cap = 0;
	if (p->nopen < CTF_PARSER_OPEN)
		p->open[p->nopen++] = t;
	bool ok = true;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (accept(p, ";"))
			continue;
		if (ctf_tok_is(&p->tok, "typealias")) {
			ok = parse_typealias(p);
			continue;
		}
		if (ctf_tok_is(&p->tok, "typedef")) {
			ok = parse_typedef(p);
			continue;
		}
		if (p->tok.kind == CTF_T_EOF) {
			ctf_syntax(p, &p->tok, "'}'");
			break;
		}
		struct ctf_token at = p->tok;
		struct ctf_type *base = parse_type(p, true);
		if (!base)
			break;
		do {
			const char *name;
			struct ctf_type *ft = parse_declarator(p, base, &name);
			if (!ft)
				break;
			check_references(p, &at, ft);
			if (!add_field(p, t, name, ft, &cap))
				break;
		} while (accept(p, ","));
		if (!expect(p, ";"))
			break;
	}
	(void)variant;
	if (p->nopen && p->open[p->nopen - 1] == t)
		p->nopen--;
	return ok && !p->err;
}

/* typealias <type> := <name words>; */
static bool parse_typealias(struct ctf_parser *p)
{
	advance(p);
	struct ctf_type *t = parse_type(p, false);
	if (!t || !expect(p, ":="))
		return false;
	char buf[CTF_MAX_TOKEN + 64];
	size_t used = 0;
	while (!p->err && (p->tok.kind == CTF_T_IDENT || ctf_tok_is(&p->tok, "*"))) {
		if (used + p->tok.len + 2 < sizeof(buf)) {
			if (used)
				buf[used++] = ' ';
			memcpy(buf + used, p->tok.s, p->tok.len);
			used += p->tok.len;
		}
		advance(p);
	}
	if (!used) {
		ctf_syntax(p, &p->tok, "a type name after ':='");
		return false;
	}
	define(p, ctf_strndup(&p->m->arena, buf, used), t);
	return expect(p, ";");
}

/* typedef <type> name[dims], ...; */
static bool parse_typedef(struct ctf_parser *p)
{
	advance(p);
	struct ctf_type *base = parse_type(p, true);
	if (!base)
		return false;
	do {
		const char *name;
		struct ctf_type *t = parse_declarator(p, base, &name);
		if (!t)
			return false;
		define(p, name, t);
	} while (accept(p, ","));
	return expect(p, ";");
}

/* ---- blocks ---- */

static void block_entry(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b)
{
	if (ctf_tok_is(&p->tok, "typealias")) {
		parse_typealias(p);
		return;
	}
	if (ctf_tok_is(&p->tok, "typedef")) {
		parse_typedef(p);
		return;
	}
	/* lhs: dotted identifiers */
	char lhs[128];
	size_t used = 0;
	struct ctf_token at = p->tok;
	for (;;) {
		if (p->tok.kind != CTF_T_IDENT) {
			ctf_syntax(p, &p->tok, "an attribute name");
			return;
		}
		if (used + p->tok.len + 2 < sizeof(lhs)) {
			memcpy(lhs + used, p->tok.s, p->tok.len);
			used += p->tok.len;
		}
		lhs[used] = 0;
		advance(p);
		if (!accept(p, "."))
			break;
		if (used + 2 < sizeof(lhs))
			lhs[used++] = '.';
	}
	if (accept(p, ":=")) {
		struct ctf_token tat = p->tok;
		if (++p->depth > CTF_MAX_DEPTH) {
			ctf_syntax(p, &p->tok, "types nested at most 32 deep");
			return;
		}
		struct ctf_type *t = parse_type(p, false);
		p->depth--;
		if (!t)
			return;
		ctf_block_type(p, kind, b, lhs, t, &tat);
	} else if (expect(p, "=")) {
		struct value v;
		parse_value(p, &v);
		if (p->err)
			return;
		struct ctf_attr a = { lhs, v.kind == V_INT, v.u, v.negative || v.overflow, v.text, v.kind == V_STRING,
				      &v.tok, &at };
		ctf_block_attr(p, kind, b, &a);
	}
	expect(p, ";");
}

static void parse_block(struct ctf_parser *p, enum ctf_block kind)
{
	struct ctf_block_state b;
	memset(&b, 0, sizeof(b));
	b.start = p->tok;
	advance(p);
	if (!expect(p, "{"))
		return;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind == CTF_T_EOF) {
			ctf_syntax(p, &p->tok, "'}'");
			return;
		}
		if (accept(p, ";"))
			continue;
		block_entry(p, kind, &b);
	}
	if (!expect(p, "}"))
		return;
	ctf_block_end(p, kind, &b);
	expect(p, ";");
}

static void top_statement(struct ctf_parser *p)
{
	static const struct {
		const char *word;
		enum ctf_block kind;
	} blocks[] = { { "trace", CTF_B_TRACE }, { "env", CTF_B_ENV }, { "clock", CTF_B_CLOCK },
		       { "stream", CTF_B_STREAM }, { "event", CTF_B_EVENT }, { "callsite", CTF_B_CALLSITE } };
	if (accept(p, ";"))
		return;
	for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		if (ctf_tok_is(&p->tok, blocks[i].word)) {
			parse_block(p, blocks[i].kind);
			return;
		}
	}
	if (ctf_tok_is(&p->tok, "typealias")) {
		parse_typealias(p);
		return;
	}
	if (ctf_tok_is(&p->tok, "typedef")) {
		parse_typedef(p);
		return;
	}
	if (ctf_tok_is(&p->tok, "struct") || ctf_tok_is(&p->tok, "variant") || ctf_tok_is(&p->tok, "enum")) {
		parse_type(p, false);
		expect(p, ";");
		return;
	}
	ctf_syntax(p, &p->tok, "a declaration or a trace, env, clock, stream, event or callsite block");
}

/* After a syntax error: skip to the end of the top-level statement (a ';' outside braces, or
 * the '}' closing its outermost brace and the ';' after it). Always consumes a token. */
static void resync(struct ctf_parser *p)
{
	p->npush = 0;
	bool inside = p->braces > 0;
	uint64_t guard = 0;
	while (p->tok.kind != CTF_T_EOF && guard++ <= p->lx.len) {
		bool semi = p->braces == 0 && ctf_tok_is(&p->tok, ";");
		bool closing = p->braces == 1 && ctf_tok_is(&p->tok, "}");
		bool stray = p->braces == 0 && ctf_tok_is(&p->tok, "}");
		advance(p);
		if (semi || stray)
			return;
		if (closing && inside) {
			if (ctf_tok_is(&p->tok, ";"))
				advance(p);
			return;
		}
	}
}

void ctf_parse_tsdl(struct tfk_ctx *ctx, const struct ctf_text *text, struct ctf_meta *meta)
{
	struct ctf_parser *p = tfk_calloc(ctx, 1, sizeof(*p));
	if (!p) {
		ctx->report->incomplete = true;
		return;
	}
	p->ctx = ctx;
	p->text = text;
	p->m = meta;
	ctf_lex_init(&p->lx, text->s, text->len);
	advance(p);
	while (p->tok.kind != CTF_T_EOF) {
		size_t before = p->lx.pos;
		p->err = false;
		p->depth = 0;
		p->type_depth = 0;
		p->braces = 0;
		p->nopen = 0;
		top_statement(p);
		if (p->oom)
			break;
		if (p->err) {
			p->any_syntax = true;
			if (p->tok.kind == CTF_T_EOF)
				break;
			resync(p);
		} else if (p->lx.pos == before && p->tok.kind != CTF_T_EOF && !p->npush) {
			advance(p); /* never stay in place */
		}
	}
	if (p->oom) {
		tfk_limit_hit(ctx, 0, "CTF metadata type model bytes", meta->arena.used_total, CTF_MAX_ARENA);
		p->any_syntax = true;
	}
	ctf_semantic_end(p);
	meta->usable = !p->any_syntax && !p->undefined && !p->oom;
	free(p);
}
