/* SPDX-License-Identifier: MIT */
/*
 * The TSDL type grammar (CTF 1.8 section 4): integer, floating_point, string, enum, struct
 * (with align), variant (with its tag), named types, arrays and sequences of declarators,
 * typealias and typedef. Nesting is bounded; references a structure makes to its own fields
 * (sequence lengths, variant tags) are checked as it is parsed.
 */
#include <stdio.h>
#include <string.h>

#include "ctf_parse.h"

#define MAX_WORDS 8

static bool parse_fields(struct ctf_parser *p, struct ctf_type *t, bool variant);

static struct ctf_type *parse_integer(struct ctf_parser *p)
{
	struct ctf_token start = p->tok;
	tsdl_advance(p); /* integer */
	struct ctf_type *t = tsdl_new_type(p, CTF_INT);
	if (!t || !tsdl_expect(p, "{"))
		return NULL;
	bool have_size = false, have_align = false;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind != CTF_T_IDENT) {
			ctf_syntax(p, &p->tok, "an integer attribute");
			return NULL;
		}
		struct ctf_token name = p->tok;
		tsdl_advance(p);
		if (!tsdl_expect(p, "="))
			return NULL;
		struct tsdl_value v;
		tsdl_parse_value(p, &v);
		if (p->err || !tsdl_expect(p, ";"))
			return NULL;
		if (ctf_tok_is(&name, "size")) {
			if (v.kind != V_INT || v.negative || v.u == 0 || v.u > CTF_MAX_INT_BITS) {
				tsdl_bad_attr(p, &v, "integer size from 1 to 65536 bits");
			} else {
				t->size = (unsigned)v.u, have_size = true;
				if (v.u > 64)
					ctf_rule(p, TFK_CTF_METADATA_WIDE_INTEGER, &v.tok, "an integer of at most 64 bits",
						 "a wider one");
			}
		} else if (ctf_tok_is(&name, "align")) {
			if (v.kind != V_INT || v.negative || !tsdl_is_pow2(v.u) || v.u > 4096)
				tsdl_bad_attr(p, &v, "an alignment that is a power of two");
			else
				t->align = (unsigned)v.u, have_align = true;
		} else if (ctf_tok_is(&name, "signed")) {
			if (!tsdl_value_bool(&v, &t->is_signed))
				tsdl_bad_attr(p, &v, "signed = true or false");
		} else if (ctf_tok_is(&name, "byte_order")) {
			bool native;
			if (!tsdl_value_order(&v, &t->order, &native))
				tsdl_bad_attr(p, &v, "byte_order = native, network, be or le");
		} else if (ctf_tok_is(&name, "base")) {
			static const char *const bases[] = { "decimal", "dec", "d", "i", "u", "hexadecimal", "hex",
							     "x", "X", "p", "octal", "oct", "o", "binary", "b" };
			bool ok = v.kind == V_INT && (v.u == 2 || v.u == 8 || v.u == 10 || v.u == 16);
			for (size_t i = 0; v.kind == V_IDENT && i < sizeof(bases) / sizeof(bases[0]); i++)
				ok |= strcmp(v.text, bases[i]) == 0;
			if (!ok)
				tsdl_bad_attr(p, &v, "base 2, 8, 10 or 16");
		} else if (ctf_tok_is(&name, "encoding")) {
			if (v.kind != V_IDENT || (strcmp(v.text, "none") && strcmp(v.text, "UTF8") &&
						  strcmp(v.text, "ASCII") && strcmp(v.text, "utf8") && strcmp(v.text, "ascii")))
				tsdl_bad_attr(p, &v, "encoding = none, UTF8 or ASCII");
			else
				t->text = strcmp(v.text, "none") != 0;
		} else if (ctf_tok_is(&name, "map")) {
			size_t n = strlen(v.text);
			if (v.kind != V_IDENT || strncmp(v.text, "clock.", 6) != 0 || n < 13 ||
			    strcmp(v.text + n - 6, ".value") != 0)
				tsdl_bad_attr(p, &v, "map = clock.<name>.value");
			else
				t->clock = true;
		}
		/* Other attributes are ignored, as babeltrace2 does. */
	}
	if (!tsdl_expect(p, "}"))
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
	tsdl_advance(p);
	struct ctf_type *t = tsdl_new_type(p, CTF_FLOAT);
	if (!t || !tsdl_expect(p, "{"))
		return NULL;
	uint64_t exp = 0, mant = 0;
	bool have_align = false;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind != CTF_T_IDENT) {
			ctf_syntax(p, &p->tok, "a floating_point attribute");
			return NULL;
		}
		struct ctf_token name = p->tok;
		tsdl_advance(p);
		if (!tsdl_expect(p, "="))
			return NULL;
		struct tsdl_value v;
		tsdl_parse_value(p, &v);
		if (p->err || !tsdl_expect(p, ";"))
			return NULL;
		if (ctf_tok_is(&name, "exp_dig") && v.kind == V_INT && !v.negative)
			exp = v.u;
		else if (ctf_tok_is(&name, "mant_dig") && v.kind == V_INT && !v.negative)
			mant = v.u;
		else if (ctf_tok_is(&name, "align")) {
			if (v.kind != V_INT || v.negative || !tsdl_is_pow2(v.u) || v.u > 4096)
				tsdl_bad_attr(p, &v, "an alignment that is a power of two");
			else
				t->align = (unsigned)v.u, have_align = true;
		} else if (ctf_tok_is(&name, "byte_order")) {
			bool native;
			if (!tsdl_value_order(&v, &t->order, &native))
				tsdl_bad_attr(p, &v, "byte_order = native, network, be or le");
		}
	}
	if (!tsdl_expect(p, "}"))
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
	tsdl_advance(p);
	struct ctf_type *t = tsdl_new_type(p, CTF_STRING);
	if (!t)
		return NULL;
	if (tsdl_accept(p, "{")) {
		while (!p->err && !ctf_tok_is(&p->tok, "}")) {
			if (p->tok.kind != CTF_T_IDENT) {
				ctf_syntax(p, &p->tok, "a string attribute");
				return NULL;
			}
			tsdl_advance(p);
			if (!tsdl_expect(p, "="))
				return NULL;
			struct tsdl_value v;
			tsdl_parse_value(p, &v);
			if (p->err || !tsdl_expect(p, ";"))
				return NULL;
		}
		if (!tsdl_expect(p, "}"))
			return NULL;
	}
	return t;
}

/* Whether a value (its magnitude and sign) fits the enumeration's container integer. */
static bool fits_container(const struct ctf_type *c, bool negative, uint64_t u)
{
	unsigned size = c->size;
	if (size == 0 || size > 64)
		return true;
	if (!c->is_signed)
		return !negative && (size == 64 || u <= (1ull << size) - 1);
	uint64_t half = 1ull << (size - 1); /* -half ... half - 1 */
	return negative ? u <= half : u < half;
}

static bool range_value(struct ctf_parser *p, const struct ctf_type *container, int64_t *out)
{
	struct tsdl_value v;
	tsdl_parse_value(p, &v);
	if (p->err)
		return false;
	if (v.kind != V_INT) {
		ctf_syntax(p, &v.tok, "an integer");
		return false;
	}
	if (v.overflow || (v.negative && v.u > (uint64_t)INT64_MAX + 1)) {
		tsdl_bad_attr(p, &v, "an enumeration value of at most 64 bits");
		*out = 0;
		return true;
	}
	if (!fits_container(container, v.negative && v.u, v.u)) {
		char found[64];
		snprintf(found, sizeof(found), "%s%llu", v.negative ? "-" : "", (unsigned long long)v.u);
		ctf_rule(p, TFK_CTF_METADATA_ENUM_RANGE, &v.tok,
			 container->is_signed ? "a value the signed container integer holds"
					      : "a value the unsigned container integer holds",
			 found);
	}
	*out = v.negative ? (int64_t)(0 - v.u) : (int64_t)v.u;
	return true;
}

static struct ctf_type *parse_enum(struct ctf_parser *p)
{
	tsdl_advance(p); /* enum */
	const char *name = NULL;
	struct ctf_token name_tok = p->tok;
	if (p->tok.kind == CTF_T_IDENT) {
		name = tsdl_tok_dup(p, &p->tok);
		tsdl_advance(p);
	}
	struct ctf_token at = p->tok;
	if (!ctf_tok_is(&p->tok, ":") && !ctf_tok_is(&p->tok, "{")) {
		struct ctf_type *t = name ? tsdl_lookup_prefixed(p, "enum", name) : NULL;
		if (!t && !p->err) {
			ctf_semantic(p, &at, "a declared enumeration", name ? name : "none");
			t = tsdl_new_type(p, CTF_INT);
			if (t)
				t->size = 8;
		}
		return t;
	}
	struct ctf_type *t = tsdl_new_type(p, CTF_ENUM);
	if (!t)
		return NULL;
	if (tsdl_accept(p, ":")) {
		t->container = tsdl_type(p, false);
	} else {
		t->container = tsdl_lookup(p, "int");
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
		t->container = tsdl_new_type(p, CTF_INT);
		if (!t->container)
			return NULL;
		t->container->size = 32;
	}
	t->size = t->container->size;
	t->align = t->container->align;
	t->is_signed = t->container->is_signed;
	t->order = t->container->order;
	t->clock = t->container->clock;
	struct ctf_token open = p->tok;
	if (!tsdl_expect(p, "{"))
		return NULL;
	size_t cap = 0;
	int64_t next = 0;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind != CTF_T_IDENT && p->tok.kind != CTF_T_STRING) {
			ctf_syntax(p, &p->tok, "an enumerator name");
			return NULL;
		}
		struct ctf_range r = { tsdl_tok_dup(p, &p->tok), next, next };
		struct ctf_token label = p->tok;
		tsdl_advance(p);
		if (tsdl_accept(p, "=")) {
			if (!range_value(p, t->container, &r.lo))
				return NULL;
			r.hi = r.lo;
			if (tsdl_accept(p, "...") && !range_value(p, t->container, &r.hi))
				return NULL;
		} else if (!fits_container(t->container, next < 0, next < 0 ? 0 - (uint64_t)next : (uint64_t)next)) {
			ctf_rule(p, TFK_CTF_METADATA_ENUM_RANGE, &label, "a value the container integer holds",
				 "the value after the previous label's");
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
		if (!tsdl_accept(p, ","))
			break;
	}
	if (!tsdl_expect(p, "}"))
		return NULL;
	if (t->nranges == 0)
		ctf_rule(p, TFK_CTF_METADATA_ENUM_EMPTY, &open, "at least one enumeration label", "none");
	if (name)
		tsdl_define_prefixed(p, "enum", name, t, &name_tok);
	return t;
}

static unsigned type_align(const struct ctf_type *t)
{
	return t ? t->align : 1;
}

static struct ctf_type *parse_compound(struct ctf_parser *p, bool variant)
{
	const char *prefix = variant ? "variant" : "struct";
	tsdl_advance(p);
	const char *name = NULL, *tag = NULL;
	struct ctf_token name_tok = p->tok;
	if (p->tok.kind == CTF_T_IDENT) {
		name = tsdl_tok_dup(p, &p->tok);
		tsdl_advance(p);
	}
	if (variant && tsdl_accept(p, "<")) {
		struct tsdl_value v;
		tsdl_parse_value(p, &v);
		if (p->err)
			return NULL;
		if (v.kind != V_IDENT) {
			ctf_syntax(p, &v.tok, "a variant tag");
			return NULL;
		}
		if (tsdl_is_keyword(v.text, strlen(v.text)))
			ctf_rule(p, TFK_CTF_METADATA_KEYWORD_NAME, &v.tok, "a variant tag that is a field name", v.text);
		tag = ctf_strndup(&p->m->arena, v.text, strlen(v.text));
		if (!tsdl_expect(p, ">"))
			return NULL;
	}
	struct ctf_type *t;
	if (!ctf_tok_is(&p->tok, "{")) {
		struct ctf_token at = p->tok;
		t = name ? tsdl_lookup_prefixed(p, prefix, name) : NULL;
		if (!t) {
			if (!p->err)
				ctf_semantic(p, &at, variant ? "a declared variant" : "a declared structure",
					     name ? name : "none");
			return tsdl_new_type(p, variant ? CTF_VARIANT : CTF_STRUCT);
		}
		if (variant && tag) {
			struct ctf_type *copy = tsdl_new_type(p, CTF_VARIANT);
			if (!copy)
				return NULL;
			*copy = *t;
			copy->tag = tag;
			t = copy;
		}
	} else {
		t = tsdl_new_type(p, variant ? CTF_VARIANT : CTF_STRUCT);
		if (!t)
			return NULL;
		t->tag = tag;
		t->align = variant ? 1 : 1;
		tsdl_advance(p);
		if (++p->depth > CTF_MAX_DEPTH) {
			ctf_syntax(p, &p->tok, "types nested at most 32 deep");
			return NULL;
		}
		tsdl_scope_push(p);
		bool ok = parse_fields(p, t, variant);
		tsdl_scope_pop(p);
		p->depth--;
		if (!ok || !tsdl_expect(p, "}"))
			return NULL;
		if (!variant)
			for (size_t i = 0; i < t->nfields; i++)
				if (type_align(t->fields[i].type) > t->align)
					t->align = type_align(t->fields[i].type);
		if (name)
			tsdl_define_prefixed(p, prefix, name, t, &name_tok);
	}
	if (!variant && ctf_tok_is(&p->tok, "align")) {
		tsdl_advance(p);
		if (!tsdl_expect(p, "("))
			return NULL;
		struct tsdl_value v;
		tsdl_parse_value(p, &v);
		if (p->err || !tsdl_expect(p, ")"))
			return NULL;
		if (v.kind != V_INT || v.negative || !tsdl_is_pow2(v.u) || v.u > 4096) {
			tsdl_bad_attr(p, &v, "an alignment that is a power of two");
		} else if (v.u > t->align) {
			struct ctf_type *copy = tsdl_new_type(p, CTF_STRUCT);
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
		tsdl_advance(p);
	}
	struct ctf_token last = words[n - 1];
	if (declarator_follows && n > 1 && last.kind == CTF_T_IDENT) {
		tsdl_push_back(p, last);
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
	struct ctf_type *t = tsdl_lookup(p, buf);
	if (!t) {
		ctf_semantic(p, &words[0], "a declared type", buf);
		t = tsdl_new_type(p, CTF_INT);
		if (t) {
			t->size = 8;
			p->undefined = true;
		}
	}
	return t;
}

static struct ctf_type *parse_type_inner(struct ctf_parser *p, bool declarator_follows);

/* Every nested type goes through here: the nesting is bounded whatever the text. */
struct ctf_type *tsdl_type(struct ctf_parser *p, bool declarator_follows)
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
		tsdl_advance(p);
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
	if (tsdl_is_keyword(p->tok.s, p->tok.len))
		ctf_rule(p, TFK_CTF_METADATA_KEYWORD_NAME, &p->tok, "a field or type name that is not a keyword",
			 tsdl_tok_dup(p, &p->tok));
	*name = tsdl_tok_dup(p, &p->tok);
	tsdl_advance(p);
	/* Dimensions apply outermost first: t a[2][3] is 2 arrays of 3. */
	struct ctf_type *dims[8];
	size_t nd = 0;
	while (!p->err && tsdl_accept(p, "[")) {
		struct tsdl_value v;
		tsdl_parse_value(p, &v);
		if (p->err || !tsdl_expect(p, "]"))
			return NULL;
		if (nd == 8) {
			ctf_syntax(p, &v.tok, "at most 8 dimensions");
			return NULL;
		}
		struct ctf_type *a = tsdl_new_type(p, v.kind == V_INT ? CTF_ARRAY : CTF_SEQ);
		if (!a)
			return NULL;
		if (v.kind == V_INT) {
			if (v.negative || v.overflow) {
				tsdl_bad_attr(p, &v, "an array length");
				a->length = 0;
			} else {
				a->length = v.u;
			}
		} else if (v.kind == V_IDENT) {
			a->length_name = ctf_strndup(&p->m->arena, v.text, strlen(v.text));
			if (tsdl_is_keyword(v.text, strlen(v.text)) || tsdl_lookup(p, v.text))
				ctf_rule(p, TFK_CTF_METADATA_ARRAY_LENGTH, &v.tok,
					 "an array length or the name of a length field", v.text);
			else if (p->nopen == 0 && !strchr(v.text, '.'))
				ctf_rule(p, TFK_CTF_METADATA_SEQUENCE_SCOPE, &v.tok,
					 "a sequence inside a structure, or an absolute length path", v.text);
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


/* Past this many fields, names are not compared (a quadratic scan of a hostile structure). */
#define DUPLICATE_SCAN_FIELDS 4096

static bool add_field(struct ctf_parser *p, struct ctf_type *t, const char *name, struct ctf_type *ft, size_t *cap,
		      const struct ctf_token *at)
{
	for (size_t i = 0; i < t->nfields && t->nfields < DUPLICATE_SCAN_FIELDS; i++) {
		if (strcmp(t->fields[i].name, name) == 0) {
			ctf_rule(p, TFK_CTF_METADATA_DUPLICATE_FIELD, at, "field names unique in their structure",
				 name);
			break;
		}
	}
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
	t->fields[t->nfields].name_len = strlen(name);
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

/* The label names an option, as the decoder matches them (equal, or one of them with a leading '_'). */
static bool label_has_option(const char *label, const struct ctf_type *v)
{
	for (size_t i = 0; i < v->nfields; i++) {
		const char *option = v->fields[i].name;
		if (!strcmp(option, label) || (option[0] == '_' && !strcmp(option + 1, label)) ||
		    (label[0] == '_' && !strcmp(label + 1, option)))
			return true;
	}
	return false;
}

/* Past this many options or labels, they are not compared (quadratic on a hostile variant). */
#define OPTION_SCAN_LIMIT 4096

static void check_labels(struct ctf_parser *p, const struct ctf_token *at, const struct ctf_type *v,
			 const struct ctf_type *tag)
{
	if (!v->nfields || !tag->nranges || v->nfields > OPTION_SCAN_LIMIT || tag->nranges > OPTION_SCAN_LIMIT)
		return;
	for (size_t i = 0; i < tag->nranges; i++)
		if (tag->ranges[i].label && label_has_option(tag->ranges[i].label, v))
			return;
	ctf_rule(p, TFK_CTF_METADATA_VARIANT_LABEL, at, "a tag label naming an option of the variant",
		 tag->ranges[0].label ? tag->ranges[0].label : "none");
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
		else if (tag)
			check_labels(p, at, inner, tag);
	}
}

static bool parse_fields(struct ctf_parser *p, struct ctf_type *t, bool variant)
{
	size_t cap = 0;
	if (p->nopen < CTF_PARSER_OPEN)
		p->open[p->nopen++] = t;
	bool ok = true;
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (tsdl_accept(p, ";"))
			continue;
		if (ctf_tok_is(&p->tok, "typealias")) {
			ok = tsdl_typealias(p);
			continue;
		}
		if (ctf_tok_is(&p->tok, "typedef")) {
			ok = tsdl_typedef(p);
			continue;
		}
		if (p->tok.kind == CTF_T_EOF) {
			ctf_syntax(p, &p->tok, "'}'");
			break;
		}
		struct ctf_token at = p->tok;
		struct ctf_type *base = tsdl_type(p, true);
		if (!base)
			break;
		do {
			const char *name;
			struct ctf_token name_tok = p->tok;
			struct ctf_type *ft = parse_declarator(p, base, &name);
			if (!ft)
				break;
			check_references(p, &at, ft);
			if (!add_field(p, t, name, ft, &cap, &name_tok))
				break;
		} while (tsdl_accept(p, ","));
		if (!tsdl_expect(p, ";"))
			break;
	}
	(void)variant;
	if (p->nopen && p->open[p->nopen - 1] == t)
		p->nopen--;
	return ok && !p->err;
}

/* typealias <type> := <name words>; */
bool tsdl_typealias(struct ctf_parser *p)
{
	tsdl_advance(p);
	struct ctf_type *t = tsdl_type(p, false);
	if (!t || !tsdl_expect(p, ":="))
		return false;
	char buf[CTF_MAX_TOKEN + 64];
	size_t used = 0;
	struct ctf_token name_tok = p->tok;
	while (!p->err && (p->tok.kind == CTF_T_IDENT || ctf_tok_is(&p->tok, "*"))) {
		if (p->tok.kind == CTF_T_IDENT && tsdl_is_keyword(p->tok.s, p->tok.len) &&
		    !tsdl_is_type_word(p->tok.s, p->tok.len))
			ctf_rule(p, TFK_CTF_METADATA_KEYWORD_NAME, &p->tok, "a type name that is not a keyword",
				 tsdl_tok_dup(p, &p->tok));
		if (used + p->tok.len + 2 < sizeof(buf)) {
			if (used)
				buf[used++] = ' ';
			memcpy(buf + used, p->tok.s, p->tok.len);
			used += p->tok.len;
		}
		tsdl_advance(p);
	}
	if (!used) {
		ctf_syntax(p, &p->tok, "a type name after ':='");
		return false;
	}
	tsdl_define(p, ctf_strndup(&p->m->arena, buf, used), t, &name_tok);
	return tsdl_expect(p, ";");
}

/* typedef <type> name[dims], ...; */
bool tsdl_typedef(struct ctf_parser *p)
{
	tsdl_advance(p);
	struct ctf_type *base = tsdl_type(p, true);
	if (!base)
		return false;
	do {
		const char *name;
		struct ctf_token name_tok = p->tok;
		struct ctf_type *t = parse_declarator(p, base, &name);
		if (!t)
			return false;
		tsdl_define(p, name, t, &name_tok);
	} while (tsdl_accept(p, ","));
	return tsdl_expect(p, ";");
}

/* ---- blocks ---- */
