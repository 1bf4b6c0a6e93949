/* SPDX-License-Identifier: MIT */
/*
 * The TSDL parser's tokens: one token of lookahead (and a little push-back), expected
 * punctuation, syntax and semantic findings with their line and column, and attribute values
 * (integers, strings, dotted identifiers).
 */
#include <stdio.h>
#include <string.h>

#include "ctf_parse.h"

#define MAX_SYNTAX_REPORTS 16

void tsdl_advance(struct ctf_parser *p)
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

void tsdl_push_back(struct ctf_parser *p, struct ctf_token t)
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
	ctf_rule(p, TFK_CTF_METADATA_SEMANTIC, t, what, found);
}

void ctf_rule(struct ctf_parser *p, enum tfk_fault_code code, const struct ctf_token *t, const char *what,
	      const char *found)
{
	p->semantic_errors++;
	if (p->semantic_errors > MAX_SYNTAX_REPORTS) {
		tfk_count_only(p->ctx, code);
		return;
	}
	struct tfk_finding *f = tfk_emit(p->ctx, code, ctf_text_file_offset(p->text, t ? t->at : 0),
					 t && t->len ? t->len : 1);
	if (t)
		tfk_set_path(f, "metadata line %u, column %u", t->line, t->col);
	else
		tfk_set_path(f, "metadata");
	tfk_set_expected(f, "%s", what);
	tfk_set_found(f, "%s", found);
}

bool tsdl_expect(struct ctf_parser *p, const char *punct)
{
	if (p->err)
		return false;
	if (!ctf_tok_is(&p->tok, punct)) {
		char what[32];
		snprintf(what, sizeof(what), "'%s'", punct);
		ctf_syntax(p, &p->tok, what);
		return false;
	}
	tsdl_advance(p);
	return true;
}

bool tsdl_accept(struct ctf_parser *p, const char *punct)
{
	if (!p->err && ctf_tok_is(&p->tok, punct)) {
		tsdl_advance(p);
		return true;
	}
	return false;
}

char *tsdl_tok_dup(struct ctf_parser *p, const struct ctf_token *t)
{
	const char *s = t->s;
	size_t n = t->len;
	if ((t->kind == CTF_T_STRING || t->kind == CTF_T_CHAR) && n >= 2) {
		s++;
		n -= 2;
	}
	return ctf_strndup(&p->m->arena, s, n);
}

/* ---- values of attributes ---- */


void tsdl_parse_value(struct ctf_parser *p, struct tsdl_value *v)
{
	memset(v, 0, sizeof(*v));
	v->tok = p->tok;
	if (p->err)
		return;
	bool neg = false;
	if (tsdl_accept(p, "-"))
		neg = true;
	else
		tsdl_accept(p, "+");
	if (p->tok.kind == CTF_T_INT) {
		v->kind = V_INT;
		v->u = p->tok.value;
		v->negative = neg;
		v->overflow = p->tok.overflow;
		tsdl_advance(p);
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
		tsdl_advance(p);
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
			tsdl_advance(p);
			if (!ctf_tok_is(&p->tok, ".") && !ctf_tok_is(&p->tok, "->"))
				break;
			if (used + 2 < sizeof(v->text))
				v->text[used++] = '.', v->text[used] = 0;
			tsdl_advance(p);
			if (p->tok.kind != CTF_T_IDENT) {
				ctf_syntax(p, &p->tok, "an identifier after '.'");
				return;
			}
		}
		return;
	}
	ctf_syntax(p, &p->tok, "a value (integer, string or identifier)");
}

bool tsdl_value_bool(const struct tsdl_value *v, bool *out)
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

bool tsdl_value_order(const struct tsdl_value *v, enum ctf_order *o, bool *native)
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

void tsdl_bad_attr(struct ctf_parser *p, const struct tsdl_value *v, const char *what)
{
	char found[160];
	if (v->kind == V_INT)
		snprintf(found, sizeof(found), "%s%llu", v->negative ? "-" : "", (unsigned long long)v->u);
	else
		snprintf(found, sizeof(found), "%s", v->text);
	ctf_semantic(p, &v->tok, what, found);
}

/* The words babeltrace2's TSDL lexer returns as keywords (never as identifiers). */
static const char *const keywords[] = { "align", "callsite", "char", "clock", "const", "double", "enum", "env",
					"event", "float", "floating_point", "int", "integer", "long", "short",
					"signed", "stream", "string", "struct", "trace", "typealias", "typedef",
					"unsigned", "variant", "void", "_Bool", "_Complex", "_Imaginary" };
/* Of those, the C type words a typealias may declare as its name ("unsigned long", "int"). */
static const char *const type_words[] = { "char", "const", "double", "float", "int", "long", "short",
					  "signed", "unsigned", "void", "_Bool", "_Complex", "_Imaginary" };

static bool in_list(const char *const *list, size_t n, const char *s, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (strlen(list[i]) == len && memcmp(list[i], s, len) == 0)
			return true;
	return false;
}

bool tsdl_is_keyword(const char *s, size_t len)
{
	return in_list(keywords, sizeof(keywords) / sizeof(keywords[0]), s, len);
}

bool tsdl_is_type_word(const char *s, size_t len)
{
	return in_list(type_words, sizeof(type_words) / sizeof(type_words[0]), s, len);
}

bool tsdl_is_pow2(uint64_t v)
{
	return v && (v & (v - 1)) == 0;
}

/* ---- types ---- */
