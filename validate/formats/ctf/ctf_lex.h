/* SPDX-License-Identifier: MIT */
/* The TSDL lexer: C-like tokens with their line, column and text offset. */
#ifndef TFK_CTF_LEX_H
#define TFK_CTF_LEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ctf_tok_kind { CTF_T_EOF = 0, CTF_T_IDENT, CTF_T_INT, CTF_T_STRING, CTF_T_CHAR, CTF_T_PUNCT, CTF_T_ERROR };

struct ctf_token {
	enum ctf_tok_kind kind;
	const char *s;     /* into the text (identifiers, literals with quotes, punctuators) */
	size_t len;
	uint64_t value;    /* CTF_T_INT */
	bool overflow;     /* an integer literal beyond 64 bits */
	size_t at;         /* text offset */
	unsigned line, col;
	const char *error; /* CTF_T_ERROR: why */
};

struct ctf_lexer {
	const char *s;
	size_t len, pos;
	unsigned line;
	size_t line_start;
};

void ctf_lex_init(struct ctf_lexer *lx, const char *s, size_t len);
/* The next token; always advances unless at the end. */
struct ctf_token ctf_lex_next(struct ctf_lexer *lx);
bool ctf_tok_is(const struct ctf_token *t, const char *text);
/*
 * The length of the longest prefix of s that ends where a top-level declaration ends (a ';'
 * with every brace and parenthesis it opened closed), 0 when none does: what of a metadata text
 * cut short is whole.
 */
size_t ctf_lex_whole_prefix(const char *s, size_t len);

#endif
