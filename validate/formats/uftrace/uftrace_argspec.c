/* SPDX-License-Identifier: MIT */
/* uftrace's argument spec rules, read as uftrace 0.13 reads them (see uftrace_argspec.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "context.h"
#include "uftrace_argspec.h"

/* The characters that make uftrace compile a pattern as a regular expression (REGEX_CHARS). */
static const char regex_chars[] = ".?*+-^$|()[]{}";

static bool has_any(const char *s, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] && strchr(set, s[i]))
			return true;
	return false;
}

static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/*
 * How the rule's pattern matches (init_filter_pattern): uftrace compares a pattern without
 * regex characters (or one beginning "operator ") whole; so does pattern_type simple; with no
 * pattern_type a regex matches nothing. A regex of one literal, perhaps anchored, is a prefix,
 * suffix or substring test; "." (regex) and "*" (glob) match every name. Anything else:
 * false, the rule cannot be followed.
 */
static bool classify(struct uf_rule *rule, enum uf_patt patt)
{
	const char *p = rule->pat;
	size_t n = rule->pat_len;
	rule->lit = p;
	rule->lit_len = n;
	rule->match = UF_MATCH_EXACT;
	if (!has_any(p, n, regex_chars) || patt == UF_PATT_SIMPLE ||
	    (patt == UF_PATT_REGEX && n >= 9 && memcmp(p, "operator ", 9) == 0)) {
		rule->exact = true;
		return true;
	}
	if (patt == UF_PATT_NONE) {
		rule->match = UF_MATCH_NOTHING;
		return true;
	}
	if (patt == UF_PATT_GLOB) {
		if (n == 1 && p[0] == '*')
			rule->match = UF_MATCH_ALL;
		return (n == 1 && p[0] == '*') || !has_any(p, n, "*?[\\");
	}
	if (n == 1 && p[0] == '.') {
		rule->match = UF_MATCH_ALL;
		return true;
	}
	bool head = p[0] == '^', tail = n > 1 && p[n - 1] == '$';
	rule->lit = p + head;
	rule->lit_len = n - head - tail;
	if (rule->lit_len == 0 || has_any(rule->lit, rule->lit_len, ".?*+^$|()[]{}\\"))
		return false;
	rule->match = head && tail ? UF_MATCH_EXACT : head ? UF_MATCH_PREFIX : tail ? UF_MATCH_SUFFIX : UF_MATCH_SUBSTR;
	return true;
}

bool uf_rule_matches(const struct uf_rule *rule, const char *name, size_t len)
{
	const char *lit = rule->lit;
	size_t ln = rule->lit_len;
	switch (rule->match) {
	case UF_MATCH_ALL:
		return len > 0;
	case UF_MATCH_NOTHING:
	case UF_MATCH_MANGLED:
		return false;
	case UF_MATCH_EXACT:
		return len == ln && memcmp(name, lit, ln) == 0;
	case UF_MATCH_PREFIX:
		return len >= ln && memcmp(name, lit, ln) == 0;
	case UF_MATCH_SUFFIX:
		return len >= ln && memcmp(name + len - ln, lit, ln) == 0;
	case UF_MATCH_SUBSTR:
		for (size_t i = 0; i + ln <= len; i++)
			if (memcmp(name + i, lit, ln) == 0)
				return true;
		return false;
	}
	return false;
}

/* A decimal (or 0x hex, as strtol base 0) number of at most 9 digits at s[*i]. */
static bool read_num(const char *s, size_t n, size_t *i, uint32_t *v)
{
	uint32_t r = 0;
	size_t start = *i, base = 10;
	if (*i + 1 < n && s[*i] == '0' && (s[*i + 1] == 'x' || s[*i + 1] == 'X'))
		return false; /* hexadecimal indices: never written by uftrace, not followed */
	while (*i < n && is_digit(s[*i]) && *i - start < 9)
		r = r * (uint32_t)base + (uint32_t)(s[(*i)++] - '0');
	*v = r;
	return *i > start && !(*i < n && is_digit(s[*i]));
}

static uint32_t name_hash(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)(s[i] | 0x20)) * 16777619u;
	return h;
}

enum spec_result { SPEC_OK, SPEC_BAD, SPEC_UNFOLLOWABLE };

/*
 * One "argN[/fmt[bits]][%loc]", "fpargN[/bits]" or "retval[/fmt]" action (parse_argspec):
 * its size and whether it is a string. SPEC_BAD where uftrace rejects it (the entry is then
 * dropped), SPEC_UNFOLLOWABLE where this reading is not sure to agree with uftrace's.
 */
static enum spec_result parse_arg(const char *s, size_t n, bool lp64, struct uf_arg *a)
{
	size_t i;
	memset(a, 0, sizeof(*a));
	a->size = lp64 ? 8 : 4;
	bool flt = false;
	if (n > 3 && memcmp(s, "arg", 3) == 0 && is_digit(s[3])) {
		i = 3;
		if (!read_num(s, n, &i, &a->key))
			return SPEC_UNFOLLOWABLE;
	} else if (n >= 6 && memcmp(s, "retval", 6) == 0) {
		i = 6;
		a->retval = true;
	} else if (n > 5 && memcmp(s, "fparg", 5) == 0 && is_digit(s[5])) {
		i = 5;
		if (!read_num(s, n, &i, &a->key))
			return SPEC_UNFOLLOWABLE;
		a->kind = 1;
		a->size = 8;
		flt = true;
	} else {
		return SPEC_BAD;
	}
	if (i == n)
		return SPEC_OK;
	if (s[i] == '%')
		goto location;
	if (s[i] != '/')
		return SPEC_BAD;
	i++;
	if (i == n)
		return SPEC_BAD;
	switch (s[i]) {
	case 'd': case 'i': case 'u': case 'x': case 'o': case 'p':
		break;
	case 's': case 'S':
		a->string = true;
		break;
	case 'c':
		a->size = 1;
		break;
	case 'f':
		flt = true;
		a->kind = 1;
		a->size = 8;
		break;
	case 'e':
		/* an enum: the name runs to a '%' or the end; the size stays the default */
		if (i + 2 >= n || s[i + 1] != ':')
			return SPEC_BAD;
		i += 2;
		while (i < n && s[i] != '%')
			i++;
		if (i == n)
			return SPEC_OK;
		goto location;
	case 't': {
		/* a struct passed by value: its size, then perhaps ":name" and registers */
		uint32_t sz;
		i++;
		if (!read_num(s, n, &i, &sz))
			return SPEC_UNFOLLOWABLE;
		a->size = sz;
		if (i < n && s[i] == ':')
			while (i < n && s[i] != '%')
				i++;
		if (i < n && s[i] == '%') {
			if (n - i >= 7 && memcmp(s + i, "%stack+", 7) == 0)
				goto location;
			a->kind = 2; /* registers: named by the first, as uftrace's last reg_idx... */
			a->key = name_hash(s + i + 1, n - i - 1);
		}
		return SPEC_OK;
	}
	default:
		if (flt && is_digit(s[i]))
			goto size;
		return SPEC_BAD;
	}
	i++;
	if (i == n)
		return SPEC_OK;
	if (s[i] == '%')
		goto location;
size: {
	uint32_t bits;
	if (!read_num(s, n, &i, &bits))
		return SPEC_BAD;
	if (bits == 8 || bits == 16 || bits == 32 || bits == 64)
		a->size = bits / 8;
	else if (bits == 80 && flt)
		a->size = 10; /* long double; ARM reads it as double: not followed there (x86 only here) */
	else
		return SPEC_BAD;
	if (i == n)
		return SPEC_OK;
	if (s[i] != '%')
		return SPEC_BAD;
}
location:
	i++;
	if (n - i >= 5 && memcmp(s + i, "stack", 5) == 0) {
		size_t j = i + 5;
		uint32_t ofs = 0;
		if (j < n && s[j] == '+')
			j++;
		if (j < n && !read_num(s, n, &j, &ofs))
			return SPEC_UNFOLLOWABLE;
		a->kind = 3;
		a->key = ofs;
		return SPEC_OK;
	}
	if (i == n)
		return SPEC_BAD;
	a->kind = 2;
	a->key = name_hash(s + i, n - i);
	return SPEC_OK;
}

void uf_arglist_merge(struct uf_arglist *dst, const struct uf_arglist *src, bool exact)
{
	for (unsigned k = 0; k < src->n; k++) {
		const struct uf_arg *a = &src->a[k];
		unsigned j = 0;
		for (; j < dst->n; j++)
			if (dst->a[j].kind == a->kind && dst->a[j].key == a->key && dst->a[j].retval == a->retval)
				break;
		if (j < dst->n) {
			if (exact || !dst->a[j].exact) {
				dst->a[j] = *a;
				dst->a[j].exact = exact;
			}
			continue;
		}
		if (dst->n == UF_ARGS_MAX) {
			dst->overflow = true;
			continue;
		}
		dst->a[dst->n] = *a;
		dst->a[dst->n++].exact = exact;
	}
	dst->overflow |= src->overflow;
}

/* Action names of setup_trigger_action that are not argument specs. */
static bool other_action(const char *s, size_t n)
{
	static const char *const names[] = { "filter", "notrace", "depth=", "time=", "size=", "caller", "hide",
					      "trace", "finish", "read=", "color=", "backtrace", "recover", "auto-args" };
	for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
		size_t ln = strlen(names[k]);
		if (n >= ln && strncasecmp(s, names[k], ln) == 0)
			return true;
	}
	return false;
}

/* One ';'-separated entry: "pattern@action,action,...". */
static bool parse_entry(struct tfk_ctx *ctx, struct uf_ruleset *rs, const char *e, size_t n, bool retval,
			enum uf_patt patt, bool lp64)
{
	const char *at = memchr(e, '@', n);
	struct uf_rule rule;
	memset(&rule, 0, sizeof(rule));
	rule.pat = e;
	rule.pat_len = at ? (size_t)(at - e) : n;
	bool pattern_ok = classify(&rule, patt);
	if (rule.pat_len >= 2 && e[0] == '_' && e[1] == 'Z') {
		rule.match = UF_MATCH_MANGLED; /* uftrace demangles the pattern first */
		pattern_ok = true;
	}
	if (at) {
		const char *p = at + 1, *end = e + n;
		while (p <= end) {
			const char *comma = memchr(p, ',', (size_t)(end - p));
			size_t an = comma ? (size_t)(comma - p) : (size_t)(end - p);
			bool is_arg = (an >= 3 && strncasecmp(p, "arg", 3) == 0) || (an >= 5 && strncasecmp(p, "fparg", 5) == 0);
			bool is_ret = an >= 6 && strncasecmp(p, "retval", 6) == 0;
			if (an == 0) {
				/* strv_split keeps empty actions; none names an action or a module */
			} else if (is_arg || is_ret) {
				if (is_arg != !retval)
					goto next; /* the other pass's: ignored (compat_flags) */
				if (memcmp(p, is_arg ? (p[0] == 'f' || p[0] == 'F' ? "fparg" : "arg") : "retval",
					   is_arg ? (p[0] == 'f' || p[0] == 'F' ? 5 : 3) : 6) != 0) {
					rs->unfollowable = true; /* upper case: strncasecmp finds the action, parse_argspec not */
					return true;
				}
				struct uf_arg a;
				enum spec_result r = parse_arg(p, an, lp64, &a);
				if (r == SPEC_BAD)
					return true; /* uftrace drops the whole entry */
				if (r == SPEC_UNFOLLOWABLE) {
					rs->unfollowable = true;
					return true;
				}
				struct uf_arglist one = { .n = 1 };
				one.a[0] = a;
				uf_arglist_merge(&rule.args, &one, false);
			} else if (!other_action(p, an)) {
				rs->unfollowable = true; /* a module name: not followed */
				return true;
			}
		next:
			if (!comma)
				break;
			p = comma + 1;
		}
	}
	rule.auto_lookup = rule.args.n == 0;
	if (!pattern_ok) {
		rs->unfollowable = true;
		return true;
	}
	if (!tfk_grow(ctx, (void **)&rs->r, &rs->cap, rs->n + 1, sizeof(rs->r[0])))
		return false;
	rs->r[rs->n++] = rule;
	return true;
}

bool uf_rules_parse(struct tfk_ctx *ctx, struct uf_ruleset *rs, const char *text, size_t len, bool retval,
		    enum uf_patt patt, bool lp64)
{
	size_t i = 0;
	while (i <= len) {
		const char *semi = memchr(text + i, ';', len - i);
		size_t n = semi ? (size_t)(semi - text) - i : len - i;
		if (n > 0 && !parse_entry(ctx, rs, text + i, n, retval, patt, lp64))
			return false;
		if (!semi)
			break;
		i += n + 1;
	}
	return true;
}

void uf_ruleset_free(struct uf_ruleset *rs)
{
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}
