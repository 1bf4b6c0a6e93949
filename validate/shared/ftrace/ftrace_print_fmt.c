/* SPDX-License-Identifier: MIT */
/*
 * The print fmt of an event format: a C string literal, then the arguments of the kernel's
 * TP_printk() after preprocessing, which are C expressions. tracefsck checks their structure, not
 * their meaning, strictly enough that libtraceevent only sees text a kernel can write: it has
 * crashed on several things no kernel writes (each is noted where it is checked). The rules hold
 * for every one of the 4,647 event formats of two kernels (the samples' and tests/data's 6.18)
 * and for the older kernels' of the foreign traces (e2e_foreign).
 */
#include <string.h>

#include "ftrace_print_fmt.h"

#define MAX_NESTING 128

static bool ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/*
 * Is p (n bytes, at a word's start) a record field reference "REC->NAME" (spaces allowed around
 * the arrow, as libtraceevent reads it)? Then *len is its length and NAME is [*name, *name + *nlen).
 */
static bool rec_ref(const char *p, size_t n, size_t *len, const char **name, size_t *nlen)
{
	size_t i = 3;
	if (n < 3 || memcmp(p, "REC", 3) != 0 || (n > 3 && ident_char(p[3])))
		return false;
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (n - i < 2 || p[i] != '-' || p[i + 1] != '>')
		return false;
	for (i += 2; i < n && (p[i] == ' ' || p[i] == '\t');)
		i++;
	*name = p + i;
	while (i < n && ident_char(p[i]))
		i++;
	*nlen = (size_t)(p + i - *name);
	*len = i;
	return true;
}

/*
 * Is the byte at p[i] (outside literals) one that a kernel's print fmt arguments hold only inside
 * braces libtraceevent does not read (opaque), if at all? After preprocessing they hold no '`',
 * '@', '$', '#' or '\\' anywhere, and ';' and assignments only in a statement expression
 * "({ ...; })", a compound literal "(type){ .f = x }" or a struct defined in a sizeof, all of
 * which libtraceevent rejects at the brace without reading on.
 */
static bool stray_operator(const char *p, size_t i, size_t n, bool opaque)
{
	char c = p[i];
	if (c == '`' || c == '@' || c == '$' || c == '#' || c == '\\')
		return true;
	if (opaque)
		return false;
	if (c == ';')
		return true;
	if (c != '=')
		return false;
	/* '=' of a comparison (==, !=, <=, >=) is fine; of an assignment (=, +=, <<= ...) it is not */
	char before = i ? p[i - 1] : ' ', earlier = i > 1 ? p[i - 2] : ' ';
	bool comparison = (i + 1 < n && p[i + 1] == '=') || before == '=' || before == '!' ||
			  ((before == '<' || before == '>') && earlier != before);
	return !comparison;
}

/*
 * Is the operand at p (after a '/' or '%') one that libtraceevent reads as 0 when it folds the
 * constants of an argument: a number whose value is 0 as strtoull reads it (so "0UL", "0x0",
 * and "0b1", read as 0 then "b1"), or a bare name (strtoull reads a name as 0)? Dividing by it
 * stops libtraceevent 1.7 with SIGFPE. A name that is called or followed by "->" is no constant.
 */
static bool zero_divisor(const char *p, size_t n)
{
	size_t i = 0, end;
	while (i < n && space(p[i]))
		i++;
	if (i == n || !ident_char(p[i]))
		return false;
	for (end = i; end < n && ident_char(p[end]);)
		end++;
	size_t after = end;
	while (after < n && space(p[after]))
		after++;
	if (after < n && (p[after] == '(' || (p[after] == '-' && after + 1 < n && p[after + 1] == '>')))
		return false;
	if (p[i] < '0' || p[i] > '9')
		return true; /* a bare name */
	if (p[i] != '0')
		return false; /* a decimal number from 1 up */
	bool hex = end - i > 1 && (p[i + 1] == 'x' || p[i + 1] == 'X');
	for (size_t k = i + (hex ? 2 : 1); k < end; k++) {
		bool digit = hex ? (p[k] >= '0' && p[k] <= '9') || (p[k] >= 'a' && p[k] <= 'f') || (p[k] >= 'A' && p[k] <= 'F')
				 : p[k] >= '0' && p[k] <= '7';
		if (!digit)
			return true; /* strtoull stops here: what it read is all zeros */
		if (p[k] != '0')
			return false;
	}
	return true;
}

/* A byte libtraceevent reads as (the start of) an operator: printable, and not a name, a
 * literal's quote, white space or one of its delimiters ( ) , */
static bool operator_char(char c)
{
	return c > ' ' && c < 0x7f && !ident_char(c) && c != '"' && c != '\'' && c != '(' && c != ')' && c != ',';
}

/* The length of the operator token libtraceevent reads at p: "->", a doubled + - | & < >, and a
 * '=' taken after ! = < > + - | & and after << >>; every other operator is one byte. */
static size_t operator_len(const char *p, size_t n)
{
	char c = p[0], next = n > 1 ? p[1] : 0;
	if (c == '-' && next == '>')
		return 2;
	if (c == '+' || c == '-' || c == '|' || c == '&' || c == '<' || c == '>') {
		if (next == c)
			return (c == '<' || c == '>') && n > 2 && p[2] == '=' ? 3 : 2;
		return next == '=' ? 2 : 1;
	}
	if (c == '!' || c == '=')
		return next == '=' ? 2 : 1;
	return 1;
}

/* Does libtraceevent know the precedence of this operator (or take it as a ternary's ':')? */
static bool ranked_operator(const char *op, size_t len)
{
	static const char *const ranked[] = { "~",  "!",  "*",  "/",  "%",  "+",  "-",  "<",  ">",  "&",  "^",  "|",
					      "?",  ":",  "++", "--", ">>", "<<", ">=", "<=", "==", "!=", "&&", "||" };
	for (size_t k = 0; k < sizeof(ranked) / sizeof(ranked[0]); k++)
		if (strlen(ranked[k]) == len && memcmp(ranked[k], op, len) == 0)
			return true;
	return false;
}

/* What the checker knows of one level of nesting (the arguments themselves are level 0). */
struct level {
	char open;        /* '(', '[', '{' for a list of __print_symbolic or __print_flags (after ','),
	                     'O' for other braces, which libtraceevent does not read (opaque) */
	bool operand_end; /* a ternary's last operand or a subscript began here: the next operator at
	                     this level is the one libtraceevent takes after it */
	size_t questions; /* '?' at this level still waiting for their ':' */
};

/*
 * One byte of the arguments outside literals, names and REC references: nesting, ternaries,
 * subscripts. *depth indexes lv; false (with *expected) where the text breaks.
 */
static bool structure_ok(struct level *lv, size_t *depth, size_t *opaque, const char *p, size_t i, size_t n,
			 char last, const char **expected)
{
	char c = p[i];
	struct level *here = &lv[*depth];
	if (here->operand_end && !*opaque && operator_char(c) && c != ']' && c != '}') {
		/* libtraceevent 1.7 dereferences NULL when the operator after a ternary's last operand
		 * or after a subscript is one it has no precedence for ("a ? b : c[1]", "x[1][2]",
		 * "a ? b : c->d"); no kernel writes one there (inside opaque braces, declarations such
		 * as "char *s[] = ..." are C, and libtraceevent never reads that far) */
		if (!ranked_operator(p + i, operator_len(p + i, n - i))) {
			*expected = "an operator C allows after a ternary or a subscript";
			return false;
		}
		here->operand_end = false;
	}
	if (c == '?') {
		here->questions++;
	} else if (c == ':' && here->questions) {
		here->questions--;
		here->operand_end = true;
	} else if (c == ',') {
		here->operand_end = false;
		here->questions = 0;
	} else if (c == '(' || c == '[' || c == '{') {
		if (*depth == MAX_NESTING)
			return false;
		lv[++*depth] = (struct level){ c == '{' && last != ',' ? 'O' : c, false, 0 };
		*opaque += lv[*depth].open == 'O';
	} else if (c == ')' || c == ']' || c == '}') {
		char want = c == ')' ? '(' : c == ']' ? '[' : '{';
		if (!*depth || (here->open != want && !(want == '{' && here->open == 'O')))
			return false;
		*opaque -= here->open == 'O';
		lv[--*depth].operand_end |= c == ']'; /* a subscript's operand ends at its ']' */
	}
	return true;
}

bool td_print_fmt_ok(const char *p, size_t n, td_is_field_fn *is_field, const void *fields, size_t *bad,
		     const char **expected)
{
	struct level lv[MAX_NESTING + 1];
	size_t depth = 0, opaque = 0, i = 0;
	char last = 0; /* the last byte outside literals that is not white space */
	memset(&lv[0], 0, sizeof(lv[0]));
	*expected = "print fmt: a quoted format string, then arguments whose (), [], {} and quotes balance";
	while (i < n && (p[i] == ' ' || p[i] == '\t'))
		i++;
	if (i == n || p[i] != '"') {
		*bad = i;
		return false;
	}
	for (; i < n; i++) {
		char c = p[i];
		const char *name;
		size_t len, nlen;
		if (c == '"' || c == '\'') {
			size_t start = i++;
			/* the kernel's strings may hold raw newlines (ext4_fc_stats): close at the quote only */
			while (i < n && p[i] != c)
				i += p[i] == '\\' ? 2 : 1;
			if (i >= n) {
				*bad = start;
				return false; /* a literal never closed */
			}
		} else if ((unsigned char)c >= 0x7f || ((unsigned char)c < 0x20 && !space(c))) {
			/* the arguments are C source: a byte that is neither printable ASCII nor white
			 * space outside a literal is damage (libtraceevent 1.7 can crash on one in a name) */
			*bad = i;
			return false;
		} else if (c == 'R' && !ident_char(p[i - 1]) && rec_ref(p + i, n - i, &len, &name, &nlen)) {
			/* libtraceevent 1.7 dereferences NULL when __print_flags or __print_symbolic
			 * reads a field the format does not declare; __entry->NAME compiles only for one */
			if (!is_field(fields, name, nlen)) {
				*bad = i;
				*expected = "REC-> followed by the name of a field of this format";
				return false;
			}
			i += len - 1;
			c = p[i];
		} else if (stray_operator(p, i, n, opaque > 0)) {
			*bad = i;
			*expected = "C expressions (no '`', '@', '$', '#' or '\\'; ';' and '=' only in braces such as ({ }))";
			return false;
		} else if ((c == '/' || c == '%') && !opaque && zero_divisor(p + i + 1, n - i - 1)) {
			*bad = i;
			*expected = "a divisor that is not 0 or a bare name (libtraceevent reads either as 0)";
			return false;
		} else if (!structure_ok(lv, &depth, &opaque, p, i, n, last, expected)) {
			*bad = i;
			return false;
		}
		if (!space(c))
			last = c;
	}
	*bad = n;
	return depth == 0;
}
