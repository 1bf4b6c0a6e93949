/* SPDX-License-Identifier: MIT */
/*
 * The type model's construction: new types in the arena, and the names the metadata gives
 * them (typealias, typedef, "struct x", "enum x", "variant x"), the latest definition first.
 */
#include <stdio.h>
#include <string.h>

#include "ctf_parse.h"

struct ctf_type *tsdl_new_type(struct ctf_parser *p, enum ctf_kind k)
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

struct ctf_type *tsdl_lookup(const struct ctf_parser *p, const char *name)
{
	for (size_t i = p->nnames; i-- > 0;)
		if (strcmp(p->names[i].name, name) == 0)
			return p->names[i].type;
	return NULL;
}

static unsigned current_scope(const struct ctf_parser *p)
{
	size_t n = p->nscopes < CTF_PARSER_OPEN ? p->nscopes : CTF_PARSER_OPEN;
	return n ? p->scopes[n - 1] : 0;
}

/* Scopes deeper than CTF_PARSER_OPEN share the deepest one's id: no false redefinition, as
 * the nesting limit stops the parse well before. */
void tsdl_scope_push(struct ctf_parser *p)
{
	if (p->nscopes < CTF_PARSER_OPEN)
		p->scopes[p->nscopes] = ++p->next_scope;
	p->nscopes++;
}

void tsdl_scope_pop(struct ctf_parser *p)
{
	if (p->nscopes)
		p->nscopes--;
}

void tsdl_define(struct ctf_parser *p, const char *name, struct ctf_type *t, const struct ctf_token *at)
{
	if (!name || !t)
		return;
	unsigned scope = current_scope(p);
	/* As long as a lookup: the names are scanned from the latest. */
	for (size_t i = p->nnames; i-- > 0;) {
		if (p->names[i].scope == scope && strcmp(p->names[i].name, name) == 0) {
			ctf_rule(p, TFK_CTF_METADATA_REDEFINITION, at, "a name declared once in its scope", name);
			break;
		}
	}
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
	p->names[p->nnames].scope = scope;
	p->nnames++;
}

struct ctf_type *tsdl_lookup_prefixed(struct ctf_parser *p, const char *prefix, const char *name)
{
	char buf[CTF_MAX_TOKEN + 16];
	snprintf(buf, sizeof(buf), "%s %s", prefix, name);
	return tsdl_lookup(p, buf);
}

void tsdl_define_prefixed(struct ctf_parser *p, const char *prefix, const char *name, struct ctf_type *t,
			  const struct ctf_token *at)
{
	char buf[CTF_MAX_TOKEN + 16];
	int n = snprintf(buf, sizeof(buf), "%s %s", prefix, name);
	tsdl_define(p, ctf_strndup(&p->m->arena, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1), t, at);
}
