/* SPDX-License-Identifier: MIT */
/*
 * The TSDL lexer (CTF 1.8 section 7.1): comments, identifiers, decimal, octal and hexadecimal
 * integers with C suffixes, string and character literals, punctuators. A NUL byte, an
 * unterminated comment or literal and an over-long token are errors. Every call advances.
 */
#include <string.h>

#include "ctf.h"
#include "ctf_lex.h"

void ctf_lex_init(struct ctf_lexer *lx, const char *s, size_t len)
{
	lx->s = s;
	lx->len = len;
	lx->pos = 0;
	lx->line = 1;
	lx->line_start = 0;
}

bool ctf_tok_is(const struct ctf_token *t, const char *text)
{
	size_t n = strlen(text);
	return (t->kind == CTF_T_IDENT || t->kind == CTF_T_PUNCT) && t->len == n && memcmp(t->s, text, n) == 0;
}

static bool is_ident_start(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static bool is_ident(char c)
{
	return is_ident_start(c) || (c >= '0' && c <= '9');
}

static void newline(struct ctf_lexer *lx)
{
	lx->line++;
	lx->line_start = lx->pos;
}

static struct ctf_token make(struct ctf_lexer *lx, enum ctf_tok_kind k, size_t start)
{
	struct ctf_token t = { 0 };
	t.kind = k;
	t.s = lx->s + start;
	t.len = lx->pos - start;
	t.at = start;
	t.line = lx->line;
	t.col = (unsigned)(start >= lx->line_start ? start - lx->line_start + 1 : 1);
	return t;
}

static struct ctf_token error(struct ctf_lexer *lx, size_t start, const char *why)
{
	struct ctf_token t = make(lx, CTF_T_ERROR, start);
	t.error = why;
	if (lx->pos == start && lx->pos < lx->len)
		lx->pos++;
	return t;
}

/* Skip blanks and comments; an error message for an unterminated comment or a NUL. */
static const char *skip_space(struct ctf_lexer *lx, size_t *err_at)
{
	while (lx->pos < lx->len) {
		char c = lx->s[lx->pos];
		if (c == '\n') {
			lx->pos++;
			newline(lx);
		} else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
			lx->pos++;
		} else if (c == '/' && lx->pos + 1 < lx->len && lx->s[lx->pos + 1] == '*') {
			size_t start = lx->pos;
			lx->pos += 2;
			for (;;) {
				if (lx->pos + 1 >= lx->len) {
					lx->pos = lx->len;
					*err_at = start;
					return "unterminated comment";
				}
				if (lx->s[lx->pos] == '*' && lx->s[lx->pos + 1] == '/') {
					lx->pos += 2;
					break;
				}
				if (lx->s[lx->pos] == '\n') {
					lx->pos++;
					newline(lx);
				} else {
					lx->pos++;
				}
			}
		} else if (c == '/' && lx->pos + 1 < lx->len && lx->s[lx->pos + 1] == '/') {
			while (lx->pos < lx->len && lx->s[lx->pos] != '\n')
				lx->pos++;
		} else if (c == 0) {
			*err_at = lx->pos;
			return "NUL byte in the metadata text";
		} else {
			break;
		}
	}
	return NULL;
}

static struct ctf_token number(struct ctf_lexer *lx)
{
	size_t start = lx->pos;
	uint64_t v = 0;
	bool over = false;
	unsigned base = 10;
	if (lx->s[lx->pos] == '0' && lx->pos + 1 < lx->len && (lx->s[lx->pos + 1] == 'x' || lx->s[lx->pos + 1] == 'X')) {
		base = 16;
		lx->pos += 2;
	} else if (lx->s[lx->pos] == '0') {
		base = 8;
	}
	size_t digits = 0;
	while (lx->pos < lx->len) {
		char c = lx->s[lx->pos];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (base == 16 && c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (base == 16 && c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			break;
		if (d >= base)
			return error(lx, start, "bad digit in an integer literal");
		if (v > (UINT64_MAX - d) / base)
			over = true;
		v = v * base + d;
		lx->pos++;
		digits++;
		if (lx->pos - start > CTF_MAX_TOKEN)
			return error(lx, start, "integer literal too long");
	}
	if (base == 16 && digits == 0)
		return error(lx, start, "hexadecimal literal without digits");
	while (lx->pos < lx->len && (lx->s[lx->pos] == 'u' || lx->s[lx->pos] == 'U' || lx->s[lx->pos] == 'l' ||
				     lx->s[lx->pos] == 'L'))
		lx->pos++;
	if (lx->pos < lx->len && is_ident(lx->s[lx->pos]))
		return error(lx, start, "bad integer literal");
	struct ctf_token t = make(lx, CTF_T_INT, start);
	t.value = v;
	t.overflow = over;
	return t;
}

static struct ctf_token literal(struct ctf_lexer *lx, char quote)
{
	size_t start = lx->pos;
	lx->pos++;
	for (;;) {
		if (lx->pos >= lx->len)
			return error(lx, start, quote == '"' ? "unterminated string" : "unterminated character literal");
		char c = lx->s[lx->pos];
		if (c == 0)
			return error(lx, lx->pos, "NUL byte in a literal");
		if (c == '\n')
			return error(lx, start, "newline in a literal");
		if (lx->pos - start > CTF_MAX_TOKEN)
			return error(lx, start, "literal too long");
		if (c == '\\') {
			if (lx->pos + 1 >= lx->len)
				return error(lx, start, "unterminated literal");
			char e = lx->s[lx->pos + 1];
			if (!strchr("abfnrtv\\'\"?01234567xuU", e) || e == 0)
				return error(lx, lx->pos, "bad escape sequence");
			lx->pos += 2;
			continue;
		}
		lx->pos++;
		if (c == quote)
			break;
	}
	return make(lx, quote == '"' ? CTF_T_STRING : CTF_T_CHAR, start);
}

struct ctf_token ctf_lex_next(struct ctf_lexer *lx)
{
	size_t err_at = 0;
	const char *why = skip_space(lx, &err_at);
	if (why) {
		size_t keep = lx->pos;
		struct ctf_token t = { 0 };
		t.kind = CTF_T_ERROR;
		t.error = why;
		t.at = err_at;
		t.s = lx->s + err_at;
		t.line = lx->line;
		t.col = (unsigned)(err_at >= lx->line_start ? err_at - lx->line_start + 1 : 1);
		lx->pos = keep < lx->len ? keep + 1 : keep;
		return t;
	}
	if (lx->pos >= lx->len)
		return make(lx, CTF_T_EOF, lx->pos);
	size_t start = lx->pos;
	char c = lx->s[start];
	if (is_ident_start(c)) {
		while (lx->pos < lx->len && is_ident(lx->s[lx->pos]))
			lx->pos++;
		if (lx->pos - start > CTF_MAX_TOKEN)
			return error(lx, start, "identifier too long");
		/* L"..." wide string prefix */
		return make(lx, CTF_T_IDENT, start);
	}
	if (c >= '0' && c <= '9')
		return number(lx);
	if (c == '"' || c == '\'')
		return literal(lx, c);
	static const char *const puncts[] = { "...", ":=", "->", "{", "}", "[", "]", "(", ")", ";", ",", "=", ":",
					      ".", "<", ">", "-", "+", "*" };
	for (size_t i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		size_t n = strlen(puncts[i]);
		if (lx->len - start >= n && memcmp(lx->s + start, puncts[i], n) == 0) {
			lx->pos += n;
			return make(lx, CTF_T_PUNCT, start);
		}
	}
	lx->pos++;
	return error(lx, start, "unexpected character");
}

size_t ctf_lex_whole_prefix(const char *s, size_t len)
{
	struct ctf_lexer lx;
	ctf_lex_init(&lx, s, len);
	long depth = 0;
	size_t whole = 0;
	for (;;) {
		struct ctf_token t = ctf_lex_next(&lx);
		if (t.kind == CTF_T_EOF || t.kind == CTF_T_ERROR)
			break;
		if (ctf_tok_is(&t, "{") || ctf_tok_is(&t, "("))
			depth++;
		else if (ctf_tok_is(&t, "}") || ctf_tok_is(&t, ")")) {
			if (--depth < 0)
				break;
		} else if (depth == 0 && ctf_tok_is(&t, ";")) {
			whole = t.at + t.len;
		}
	}
	return whole;
}
