/* SPDX-License-Identifier: MIT */
/*
 * uftrace's argument specs (spec §2.6): the rules of info's argspec/retspec/argauto/retauto
 * lines and of a .dbg file's A:/R: lines, read as uftrace 0.13 reads them, so that the
 * length of a record's arguments or return value follows from its function's spec instead
 * of being guessed. Where a rule cannot be followed exactly (a regular expression beyond a
 * literal, a module-qualified pattern, a register spec of an unknown form), the rule set says
 * so and lengths are guessed as before.
 */
#ifndef TFK_UFTRACE_ARGSPEC_H
#define TFK_UFTRACE_ARGSPEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct tfk_ctx;

/* pattern_type: of info; NONE (no line) leaves patterns with regex characters matching nothing. */
enum uf_patt { UF_PATT_NONE, UF_PATT_SIMPLE, UF_PATT_REGEX, UF_PATT_GLOB };

/* How a pattern matches a (plain, not mangled) symbol name. */
enum uf_match {
	UF_MATCH_EXACT,   /* the whole name */
	UF_MATCH_PREFIX,  /* regex ^literal */
	UF_MATCH_SUFFIX,  /* regex literal$ */
	UF_MATCH_SUBSTR,  /* regex literal, unanchored */
	UF_MATCH_ALL,     /* regex "." or glob "*": every non-empty name */
	UF_MATCH_NOTHING, /* a regex with no pattern_type: uftrace matches nothing */
	UF_MATCH_MANGLED, /* a C++ name: uftrace demangles it first; it matches no plain name */
};

/* One argument: its place in the list is the order of its bytes in the payload. */
struct uf_arg {
	uint8_t kind;   /* 0 argN, 1 fpargN, 2 register, 3 stack */
	bool retval;
	bool string;    /* u16 length and bytes (s, S) */
	bool exact;     /* from a pattern without regex characters */
	uint32_t key;   /* the index, stack offset or register name's hash: with kind, its identity */
	uint32_t size;  /* bytes, before alignment to 4 */
};

#define UF_ARGS_MAX 16 /* arguments a function's list keeps; more make the spec unfollowable */

struct uf_arglist {
	struct uf_arg a[UF_ARGS_MAX];
	unsigned n;
	bool overflow;
};

struct uf_rule {
	const char *pat; /* the pattern's bytes (in the rule set's text) */
	size_t pat_len;
	const char *lit; /* what is compared: the pattern, or a regex's literal without anchors */
	size_t lit_len;
	enum uf_match match;
	bool exact;             /* compared whole as a simple pattern: its args win over a regex's */
	bool auto_lookup;       /* no args of its own: the function's auto spec (dbg, argauto) applies */
	struct uf_arglist args; /* the args it gives, of the pass's kind */
};

/* The rules of one pass (argspec as ARGUMENT, retspec as RETVAL, ...), in their order. */
struct uf_ruleset {
	struct uf_rule *r;
	size_t n, cap;
	bool unfollowable; /* a rule that cannot be matched or parsed exactly */
};

/*
 * Parse spec text ("pat@arg1/s,arg2;pat2@retval", or a .dbg line's "@arg1,fparg1/64" with
 * no pattern) into rs for a pass of ARGUMENT (retval false) or RETVAL (retval true) specs, as
 * setup_trigger_action reads them: actions of the other kind are ignored, an entry with an
 * invalid spec is dropped whole. lp64: the default size is 8, else 4. False when memory ran out.
 */
bool uf_rules_parse(struct tfk_ctx *ctx, struct uf_ruleset *rs, const char *text, size_t len, bool retval,
		    enum uf_patt patt, bool lp64);
/* Does the rule's pattern match name? */
bool uf_rule_matches(const struct uf_rule *rule, const char *name, size_t len);
/* Merge src's args into dst as uftrace's add_arg_spec does (same identity: replaced unless exact). */
void uf_arglist_merge(struct uf_arglist *dst, const struct uf_arglist *src, bool exact);
void uf_ruleset_free(struct uf_ruleset *rs);

#endif
