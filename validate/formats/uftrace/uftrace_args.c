/* SPDX-License-Identifier: MIT */
/* A record's payload length from its function's argument spec (see uftrace_args.h). */
#include <stdlib.h>
#include <string.h>

#include "context.h"
#include "keyindex.h"
#include "uftrace_args.h"
#include "uftrace_argspec.h"
#include "uftrace_modules.h"
#include "uftrace_records.h"

/*
 * Bounds on the work a hostile spec can ask for: every distinct function address is matched
 * against every rule once (at most FUNCS_MAX * 5 passes * RULES_MAX tests). uftrace's own
 * auto-args lists hold some 250 rules; past the bounds lengths are guessed.
 */
#define FUNCS_MAX 4096
#define RULES_MAX 2048
#define ARGBUF_BYTES 1024 /* libmcount's argument buffer: no payload is longer */

/* An argument as the length needs it: its size, a string flag and the return-value flag. */
#define PACK_STRING (1u << 30)
#define PACK_RETVAL (1u << 31)

enum fn_state { FN_GUESS, FN_NO_SPEC, FN_KNOWN, FN_NO_SYMBOL };

struct fn_slot {
	uint32_t args[UF_ARGS_MAX]; /* packed, in payload order */
	uint8_t nargs;
	uint8_t state;
	uint8_t trust[2]; /* 0 untried, 1 confirmed, 2 refuted; [0] args, [1] retval */
	uint32_t name_off;
};

/* One pass of uftrace's spec set-up (setup_fstack_args): rules of ARGUMENT or RETVAL specs. */
struct pass {
	struct uf_ruleset rules;
	bool retval, is_auto;
};

struct uf_args {
	struct uf_modules *mods;
	struct pass pass[5];
	unsigned npass;
	struct uf_ruleset autolist[2]; /* argauto / retauto by name (find_auto_args) */
	bool have_autolist;
	enum uf_patt patt;
	bool lp64;
	struct fn_slot *fns;
	size_t nfns, cap_fns;
	struct tfk_keyindex fn_ix;
	char *names;
	size_t names_len, names_cap;
};

static bool add_pass(struct tfk_ctx *ctx, struct uf_args *a, const char *text, size_t len, bool retval, bool is_auto,
		     enum uf_patt patt)
{
	struct pass *p = &a->pass[a->npass++];
	p->retval = retval;
	p->is_auto = is_auto;
	return uf_rules_parse(ctx, &p->rules, text, len, retval, patt, a->lp64);
}

static bool contains(const char *s, size_t n, const char *word)
{
	size_t k = strlen(word);
	for (size_t i = 0; i + k <= n; i++)
		if (memcmp(s + i, word, k) == 0)
			return true;
	return false;
}

struct uf_args *uf_args_new(struct tfk_ctx *ctx, const struct uf_state *st, const struct tfk_input *in)
{
	if (!st->has_info || !st->info_ok || !st->spec_section || !(st->feat & (UF_FEAT_ARGUMENT | UF_FEAT_RETVAL)))
		return NULL;
	struct uf_args *a = tfk_calloc(ctx, 1, sizeof(*a));
	if (!a)
		return NULL;
	a->patt = (enum uf_patt)st->patt_type;
	a->lp64 = st->elf_class == 2;
	const struct uf_text *t = st->spec_text;
	bool ok = true;
	if (t[UF_SPEC_ARG].s)
		ok = ok && add_pass(ctx, a, t[UF_SPEC_ARG].s, t[UF_SPEC_ARG].n, false, false, a->patt);
	if (t[UF_SPEC_RET].s)
		ok = ok && add_pass(ctx, a, t[UF_SPEC_RET].s, t[UF_SPEC_RET].n, true, false, a->patt);
	if (t[UF_SPEC_ARG].s && contains(t[UF_SPEC_ARG].s, t[UF_SPEC_ARG].n, "retval"))
		ok = ok && add_pass(ctx, a, t[UF_SPEC_ARG].s, t[UF_SPEC_ARG].n, true, false, a->patt);
	if (st->feat & UF_FEAT_AUTO_ARGS) {
		/* the lists find_auto_args searches by name: whole names, whatever their characters */
		a->have_autolist = true;
		for (int k = 0; k < 2 && ok; k++)
			if (t[UF_SPEC_ARGAUTO + k].s)
				ok = uf_rules_parse(ctx, &a->autolist[k], t[UF_SPEC_ARGAUTO + k].s, t[UF_SPEC_ARGAUTO + k].n,
						    k == 1, UF_PATT_SIMPLE, a->lp64);
	}
	if (st->auto_args) {
		for (int k = 0; k < 2 && ok; k++) {
			if (st->feat & UF_FEAT_DEBUG_INFO) {
				const char *every = a->patt == UF_PATT_REGEX ? "." : "*";
				ok = add_pass(ctx, a, every, 1, k == 1, true, a->patt);
			} else if (t[UF_SPEC_ARGAUTO + k].s) {
				ok = add_pass(ctx, a, t[UF_SPEC_ARGAUTO + k].s, t[UF_SPEC_ARGAUTO + k].n, k == 1, true, a->patt);
			}
		}
	}
	bool followable = ok && a->autolist[0].n <= RULES_MAX && a->autolist[1].n <= RULES_MAX;
	for (unsigned i = 0; i < a->npass; i++)
		followable = followable && !a->pass[i].rules.unfollowable && a->pass[i].rules.n <= RULES_MAX;
	if (followable)
		a->mods = uf_modules_new(ctx, st, in);
	if (!a->mods) {
		uf_args_free(a);
		return NULL;
	}
	return a;
}

static bool is_mangled(const struct uf_function *fn)
{
	return fn->name_len >= 2 && fn->name[0] == '_' && fn->name[1] == 'Z';
}

/*
 * The function's own spec of the pass's kind where a rule names no arguments: its .dbg A:/R:
 * line (when the module's .dbg has any), else the argauto/retauto entry of its name.
 * 1: found (*out), 0: none, -1: not known here.
 */
static int auto_spec(struct tfk_ctx *ctx, struct uf_args *a, const struct uf_function *fn, bool retval,
		     struct uf_arglist *out)
{
	memset(out, 0, sizeof(*out));
	if (uf_modules_dbg_has(a->mods, fn->module, retval)) {
		size_t n;
		const char *spec = uf_modules_dbg_spec(a->mods, fn->module, fn->offset, retval, &n);
		if (spec) {
			struct uf_ruleset rs = { 0 };
			bool ok = uf_rules_parse(ctx, &rs, spec, n, retval, UF_PATT_SIMPLE, a->lp64);
			int r = !ok || rs.unfollowable ? -1 : 0;
			if (r == 0 && rs.n == 1 && rs.r[0].args.n > 0) {
				*out = rs.r[0].args;
				r = 1;
			}
			uf_ruleset_free(&rs);
			if (r != 0)
				return r;
		}
	}
	if (!a->have_autolist)
		return 0;
	if (is_mangled(fn))
		return -1; /* the lists are searched by demangled name */
	const struct uf_ruleset *list = &a->autolist[retval];
	for (size_t i = 0; i < list->n; i++)
		if (list->r[i].match != UF_MATCH_MANGLED && list->r[i].pat_len == fn->name_len &&
		    memcmp(list->r[i].pat, fn->name, fn->name_len) == 0) {
			*out = list->r[i].args;
			return 1;
		}
	return 0;
}

#define FL_ARG 1u
#define FL_RET 2u
#define FL_AUTO 4u

/*
 * The function's argument list as uftrace's passes build its filter (update_filter and
 * update_trigger): FN_KNOWN with the list, FN_NO_SPEC (no filter, or one with neither flag),
 * or FN_GUESS where a step is not followed here.
 */
static enum fn_state gather(struct tfk_ctx *ctx, struct uf_args *a, const struct uf_function *fn,
			    struct uf_arglist *list)
{
	unsigned flags = 0;
	bool exists = false;
	memset(list, 0, sizeof(*list));
	for (unsigned p = 0; p < a->npass; p++) {
		const struct pass *ps = &a->pass[p];
		const unsigned flag = ps->retval ? FL_RET : FL_ARG;
		for (size_t i = 0; i < ps->rules.n; i++) {
			const struct uf_rule *rule = &ps->rules.r[i];
			if (is_mangled(fn) && rule->match != UF_MATCH_ALL && rule->match != UF_MATCH_NOTHING)
				return FN_GUESS; /* uftrace matches the demangled name */
			if (!uf_rule_matches(rule, fn->name, fn->name_len))
				continue;
			unsigned tr = flag | (ps->is_auto ? FL_AUTO : 0);
			struct uf_arglist found;
			int got = 0;
			if (rule->auto_lookup) {
				got = auto_spec(ctx, a, fn, ps->retval, &found);
				if (got < 0)
					return FN_GUESS;
				if (got == 0)
					tr &= ~flag;
			}
			if (tr == FL_AUTO)
				continue; /* auto-args found nothing: no filter is made */
			if (exists && (tr & FL_AUTO) && (flags & flag))
				continue; /* auto-args never add to a function's given spec */
			exists = true;
			flags |= tr & (FL_ARG | FL_RET);
			if (tr & flag)
				uf_arglist_merge(list, &rule->args, rule->exact);
			if (got > 0)
				uf_arglist_merge(list, &found, rule->exact);
		}
	}
	if (list->overflow)
		return FN_GUESS;
	return exists && (flags & (FL_ARG | FL_RET)) ? FN_KNOWN : FN_NO_SPEC;
}

static size_t new_slot(struct tfk_ctx *ctx, struct uf_args *a, uint64_t addr)
{
	if (a->nfns >= FUNCS_MAX || !tfk_grow(ctx, (void **)&a->fns, &a->cap_fns, a->nfns + 1, sizeof(*a->fns)))
		return SIZE_MAX;
	struct fn_slot *s = &a->fns[a->nfns];
	memset(s, 0, sizeof(*s));
	struct uf_function fn;
	int found = uf_modules_find(ctx, a->mods, addr, &fn);
	struct uf_arglist list;
	/* no symbol at all: perhaps a library loaded later (DLOP), whose maps are not followed */
	s->state = (uint8_t)(found == -2 ? FN_NO_SYMBOL : found <= 0 ? FN_GUESS : gather(ctx, a, &fn, &list));
	if (s->state == FN_KNOWN) {
		for (unsigned i = 0; i < list.n; i++) {
			if (list.a[i].size > 0xffff) {
				s->state = FN_GUESS;
				break;
			}
			s->args[s->nargs++] = list.a[i].size | (list.a[i].string ? PACK_STRING : 0) |
					      (list.a[i].retval ? PACK_RETVAL : 0);
		}
	}
	s->name_off = UINT32_MAX;
	if (found > 0 && fn.name_len < 256 && a->names_len < (1u << 24) &&
	    tfk_grow(ctx, (void **)&a->names, &a->names_cap, a->names_len + fn.name_len + 1, 1)) {
		memcpy(a->names + a->names_len, fn.name, fn.name_len);
		a->names[a->names_len + fn.name_len] = '\0';
		s->name_off = (uint32_t)a->names_len;
		a->names_len += fn.name_len + 1;
	}
	tfk_keyindex_add(ctx, &a->fn_ix, addr, a->nfns);
	return a->nfns++;
}

static size_t slot_of(struct tfk_ctx *ctx, struct uf_args *a, uint64_t addr)
{
	size_t pos;
	enum tfk_key_found k = tfk_keyindex_find(&a->fn_ix, addr, &pos);
	if (k == TFK_KEY_FOUND)
		return pos;
	if (k == TFK_KEY_UNKNOWN)
		return SIZE_MAX; /* the index could not grow: lengths are guessed */
	return new_slot(ctx, a, addr);
}

enum uf_arglen uf_args_length(struct tfk_ctx *ctx, struct uf_args *a, uint64_t addr, bool retval,
			      const struct tfk_cursor *v, uint64_t at, uint64_t file_len, uint64_t *len, size_t *fn)
{
	size_t s = slot_of(ctx, a, addr);
	*fn = s;
	if (s == SIZE_MAX || a->fns[s].state == FN_GUESS || a->fns[s].trust[retval] == 2)
		return UF_ARGLEN_GUESS;
	const struct fn_slot *f = &a->fns[s];
	if (f->state == FN_NO_SPEC)
		return UF_ARGLEN_NO_SPEC;
	if (f->state == FN_NO_SYMBOL)
		return UF_ARGLEN_NO_SYMBOL;
	uint64_t n = 0;
	for (unsigned i = 0; i < f->nargs; i++) {
		uint32_t p = f->args[i];
		uint64_t size = p & 0xffff;
		if (!(p & PACK_RETVAL) != !retval || size == 0)
			continue;
		if (p & PACK_STRING) {
			uint16_t sl;
			if (at + n + 2 > file_len)
				return UF_ARGLEN_PAST_END;
			if (at + n < v->origin || !tfk_cur_u16_at(v, at + n - v->origin, &sl))
				return UF_ARGLEN_GUESS;
			n += 2;
			size = sl;
		}
		n = (n + size + 3) & ~3ull;
		if (n > ARGBUF_BYTES)
			return UF_ARGLEN_TOO_LONG;
	}
	*len = (n + 7) & ~7ull;
	return at + *len > file_len ? UF_ARGLEN_PAST_END : UF_ARGLEN_KNOWN;
}

void uf_args_confirm(struct uf_args *a, size_t fn, bool retval)
{
	if (fn < a->nfns && a->fns[fn].trust[retval] == 0)
		a->fns[fn].trust[retval] = 1;
}

void uf_args_refute(struct uf_args *a, size_t fn, bool retval)
{
	if (fn < a->nfns && a->fns[fn].trust[retval] == 0)
		a->fns[fn].trust[retval] = 2;
}

bool uf_args_trusted(const struct uf_args *a, size_t fn, bool retval)
{
	return fn < a->nfns && a->fns[fn].trust[retval] == 1;
}

const char *uf_args_name(const struct uf_args *a, size_t fn)
{
	if (fn >= a->nfns || a->fns[fn].name_off == UINT32_MAX)
		return "";
	return a->names + a->fns[fn].name_off;
}

void uf_args_free(struct uf_args *a)
{
	if (!a)
		return;
	for (unsigned i = 0; i < a->npass; i++)
		uf_ruleset_free(&a->pass[i].rules);
	uf_ruleset_free(&a->autolist[0]);
	uf_ruleset_free(&a->autolist[1]);
	uf_modules_free(a->mods);
	tfk_keyindex_free(&a->fn_ix);
	free(a->fns);
	free(a->names);
	free(a);
}
