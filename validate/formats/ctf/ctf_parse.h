/* SPDX-License-Identifier: MIT */
/* The TSDL parser's state, shared by the grammar (ctf_parse.c) and the blocks (ctf_blocks.c). */
#ifndef TFK_CTF_PARSE_H
#define TFK_CTF_PARSE_H

#include "ctf.h"
#include "ctf_lex.h"

#define CTF_PARSER_PUSH 4
/* CTF 1.8 sets no limit on an integer's size; wider ones than this are taken for damage. */
#define CTF_MAX_INT_BITS 65536
#define CTF_PARSER_OPEN 64

struct ctf_name {
	const char *name; /* "uint8_t", "struct packet_context", "enum x", "variant v" */
	struct ctf_type *type;
	unsigned scope; /* the scope that declared it (0: the top level) */
};

enum ctf_block { CTF_B_TRACE, CTF_B_ENV, CTF_B_CLOCK, CTF_B_STREAM, CTF_B_EVENT, CTF_B_CALLSITE };

struct ctf_block_state {
	struct ctf_token start;
	bool have_id, have_stream_id, have_major, have_minor, have_uuid, have_order, have_name, have_freq;
	uint64_t id, stream_id, major, minor;
	const char *name;
	struct ctf_type *packet_context, *event_header, *event_context, *context, *fields;
};

struct ctf_attr {
	const char *name;
	bool is_int;
	uint64_t u;
	bool negative_or_overflow;
	const char *text;
	bool is_string;
	const struct ctf_token *tok;      /* the value */
	const struct ctf_token *name_tok; /* the attribute name */
};

struct ctf_parser {
	struct tfk_ctx *ctx;
	const struct ctf_text *text;
	struct ctf_meta *m;
	struct ctf_lexer lx;
	struct ctf_token tok;
	struct ctf_token push[CTF_PARSER_PUSH];
	size_t npush;
	uint64_t ntokens;
	unsigned depth;
	unsigned type_depth;  /* parse_type calls in progress */
	unsigned braces;      /* '{' consumed and not yet closed */
	bool err, any_syntax, oom, undefined;
	unsigned syntax_errors, semantic_errors, unknown_attributes;
	struct ctf_name *names;
	size_t nnames, cap_names;
	struct ctf_type *open[CTF_PARSER_OPEN]; /* structures being parsed, outermost first */
	size_t nopen;
	bool have_trace;
	struct ctf_token trace_tok;
	/* Declaration scopes open (blocks and structure bodies), innermost last: a name may be
	 * declared once a scope. Names stay visible after their scope closes, as they always did. */
	unsigned scopes[CTF_PARSER_OPEN];
	size_t nscopes;
	unsigned next_scope;
};

/* An attribute value: an integer, a dotted identifier or a string literal. */
enum tsdl_vkind { V_NONE, V_INT, V_IDENT, V_STRING };
struct tsdl_value {
	enum tsdl_vkind kind;
	uint64_t u;
	bool negative, overflow;
	char text[128]; /* identifier (dotted) or string contents, possibly cut */
	struct ctf_token tok;
};

/* Tokens (ctf_tokens.c). */
void tsdl_advance(struct ctf_parser *p);
void tsdl_push_back(struct ctf_parser *p, struct ctf_token t);
bool tsdl_expect(struct ctf_parser *p, const char *punct);
bool tsdl_accept(struct ctf_parser *p, const char *punct);
char *tsdl_tok_dup(struct ctf_parser *p, const struct ctf_token *t);
void tsdl_parse_value(struct ctf_parser *p, struct tsdl_value *v);
bool tsdl_value_bool(const struct tsdl_value *v, bool *out);
bool tsdl_value_order(const struct tsdl_value *v, enum ctf_order *o, bool *native);
void tsdl_bad_attr(struct ctf_parser *p, const struct tsdl_value *v, const char *what);
bool tsdl_is_pow2(uint64_t v);
bool tsdl_is_keyword(const char *s, size_t len);
bool tsdl_is_type_word(const char *s, size_t len);

/* Types and their names (ctf_types.c). */
struct ctf_type *tsdl_new_type(struct ctf_parser *p, enum ctf_kind k);
struct ctf_type *tsdl_lookup(const struct ctf_parser *p, const char *name);
void tsdl_define(struct ctf_parser *p, const char *name, struct ctf_type *t, const struct ctf_token *at);
void tsdl_scope_push(struct ctf_parser *p);
void tsdl_scope_pop(struct ctf_parser *p);
struct ctf_type *tsdl_lookup_prefixed(struct ctf_parser *p, const char *prefix, const char *name);
void tsdl_define_prefixed(struct ctf_parser *p, const char *prefix, const char *name, struct ctf_type *t,
			  const struct ctf_token *at);

/* The type grammar (ctf_parse_types.c). */
struct ctf_type *tsdl_type(struct ctf_parser *p, bool declarator_follows);
bool tsdl_typealias(struct ctf_parser *p);
bool tsdl_typedef(struct ctf_parser *p);

void ctf_syntax(struct ctf_parser *p, const struct ctf_token *t, const char *what);
void ctf_semantic(struct ctf_parser *p, const struct ctf_token *t, const char *what, const char *found);
/* A finding of a rule of its own (ctf.metadata.redefinition, ...), counted with the semantic ones. */
void ctf_rule(struct ctf_parser *p, enum tfk_fault_code code, const struct ctf_token *t, const char *what,
	      const char *found);

void ctf_unknown_attribute(struct ctf_parser *p, const struct ctf_token *at, const char *name);
void ctf_block_attr(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b, const struct ctf_attr *a);
void ctf_block_type(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b, const char *lhs,
		    struct ctf_type *t, const struct ctf_token *at);
void ctf_block_end(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b);
/* The checks across blocks, once everything is parsed. */
void ctf_semantic_end(struct ctf_parser *p);

#endif
