/* SPDX-License-Identifier: MIT */
/*
 * The TSDL parser (CTF 1.8 section 7): top-level declarations and the trace, env, clock,
 * stream, event and callsite blocks, into the type model of ctf.h. Every loop consumes a
 * token. After a syntax error, parsing resumes at the next top-level statement. The blocks'
 * attributes and the checks across them are in ctf_blocks.c, the types in ctf_parse_types.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ctf_parse.h"
#include "ctf_lane.h"

static void block_entry(struct ctf_parser *p, enum ctf_block kind, struct ctf_block_state *b)
{
	if (ctf_tok_is(&p->tok, "typealias")) {
		tsdl_typealias(p);
		return;
	}
	if (ctf_tok_is(&p->tok, "typedef")) {
		tsdl_typedef(p);
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
		tsdl_advance(p);
		if (!tsdl_accept(p, "."))
			break;
		if (used + 2 < sizeof(lhs))
			lhs[used++] = '.';
	}
	if (tsdl_accept(p, ":=")) {
		struct ctf_token tat = p->tok;
		if (++p->depth > CTF_MAX_DEPTH) {
			ctf_syntax(p, &p->tok, "types nested at most 32 deep");
			return;
		}
		struct ctf_type *t = tsdl_type(p, false);
		p->depth--;
		if (!t)
			return;
		ctf_block_type(p, kind, b, lhs, t, &tat);
	} else if (tsdl_expect(p, "=")) {
		struct tsdl_value v;
		tsdl_parse_value(p, &v);
		if (p->err)
			return;
		struct ctf_attr a = { lhs, v.kind == V_INT, v.u, v.negative || v.overflow, v.text, v.kind == V_STRING,
				      &v.tok, &at };
		ctf_block_attr(p, kind, b, &a);
	}
	tsdl_expect(p, ";");
}

static void parse_block(struct ctf_parser *p, enum ctf_block kind)
{
	struct ctf_block_state b;
	memset(&b, 0, sizeof(b));
	b.start = p->tok;
	tsdl_advance(p);
	if (!tsdl_expect(p, "{"))
		return;
	tsdl_scope_push(p);
	while (!p->err && !ctf_tok_is(&p->tok, "}")) {
		if (p->tok.kind == CTF_T_EOF) {
			ctf_syntax(p, &p->tok, "'}'");
			return;
		}
		if (tsdl_accept(p, ";"))
			continue;
		block_entry(p, kind, &b);
	}
	tsdl_scope_pop(p);
	if (!tsdl_expect(p, "}"))
		return;
	ctf_block_end(p, kind, &b);
	tsdl_expect(p, ";");
}

static void top_statement(struct ctf_parser *p)
{
	static const struct {
		const char *word;
		enum ctf_block kind;
	} blocks[] = { { "trace", CTF_B_TRACE }, { "env", CTF_B_ENV }, { "clock", CTF_B_CLOCK },
		       { "stream", CTF_B_STREAM }, { "event", CTF_B_EVENT }, { "callsite", CTF_B_CALLSITE } };
	if (tsdl_accept(p, ";"))
		return;
	for (size_t i = 0; i < sizeof(blocks) / sizeof(blocks[0]); i++) {
		if (ctf_tok_is(&p->tok, blocks[i].word)) {
			parse_block(p, blocks[i].kind);
			return;
		}
	}
	if (ctf_tok_is(&p->tok, "typealias")) {
		tsdl_typealias(p);
		return;
	}
	if (ctf_tok_is(&p->tok, "typedef")) {
		tsdl_typedef(p);
		return;
	}
	if (ctf_tok_is(&p->tok, "struct") || ctf_tok_is(&p->tok, "variant") || ctf_tok_is(&p->tok, "enum")) {
		/* Declarations of named compound types may follow one another before the ';' (a
		 * list of type specifiers to the TSDL grammar, as babeltrace2 reads it). */
		do
			tsdl_type(p, false);
		while (!p->err && (ctf_tok_is(&p->tok, "struct") || ctf_tok_is(&p->tok, "variant") ||
				   ctf_tok_is(&p->tok, "enum")));
		tsdl_expect(p, ";");
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
		tsdl_advance(p);
		if (semi || stray)
			return;
		if (closing && inside) {
			if (ctf_tok_is(&p->tok, ";"))
				tsdl_advance(p);
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
	tsdl_advance(p);
	while (p->tok.kind != CTF_T_EOF) {
		size_t before = p->lx.pos;
		p->err = false;
		p->depth = 0;
		p->type_depth = 0;
		p->braces = 0;
		p->nopen = 0;
		p->nscopes = 0;
		top_statement(p);
		if (p->oom)
			break;
		if (p->err) {
			p->any_syntax = true;
			if (p->tok.kind == CTF_T_EOF)
				break;
			resync(p);
		} else if (p->lx.pos == before && p->tok.kind != CTF_T_EOF && !p->npush) {
			tsdl_advance(p); /* never stay in place */
		}
	}
	if (p->oom) {
		tfk_limit_hit(ctx, 0, "CTF metadata type model bytes", meta->arena.used_total, CTF_MAX_ARENA);
		p->any_syntax = true;
	}
	ctf_semantic_end(p);
	meta->usable = !p->any_syntax && !p->undefined && !p->oom;
	if (meta->usable) {
		ctf_flat_plan(meta);
		ctf_lane_build(meta);
	}
	free(p);
}
