/* SPDX-License-Identifier: MIT */
/*
 * Reading the string fields out of event format texts ("field:char prev_comm[16];
 * offset:8; size:16; ..."). The texts passed the checker's grammar, but they are still the
 * file's: every number is bounded and a line without what we need is passed over.
 */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "td_formats.h"

/* Does [p, p+n) contain the C string s? */
static const uint8_t *find(const uint8_t *p, size_t n, const char *s)
{
	size_t k = strlen(s);
	for (size_t i = 0; k <= n && i <= n - k; i++)
		if (memcmp(p + i, s, k) == 0)
			return p + i;
	return NULL;
}

/* The decimal number after key in the line, or false. */
static bool number_after(const uint8_t *line, size_t n, const char *key, uint32_t *v)
{
	const uint8_t *p = find(line, n, key);
	if (!p)
		return false;
	p += strlen(key);
	const uint8_t *end = line + n;
	uint64_t x = 0;
	bool any = false;
	while (p < end && *p >= '0' && *p <= '9' && x < 0x10000000u) {
		x = x * 10 + (uint64_t)(*p++ - '0');
		any = true;
	}
	if (!any || x > 0xffffffu)
		return false;
	*v = (uint32_t)x;
	return true;
}

static bool has_word(const uint8_t *p, size_t n, const char *w)
{
	return find(p, n, w) != NULL;
}

/* What a string field holds, by its name. */
static enum tfk_scrub_kind kind_of(const uint8_t *name, size_t n, bool marker)
{
	if (marker)
		return TFK_SCRUB_MARKER;
	if (has_word(name, n, "comm"))
		return TFK_SCRUB_TASK;
	if (has_word(name, n, "file") || has_word(name, n, "path") || has_word(name, n, "interp"))
		return TFK_SCRUB_PATH;
	return TFK_SCRUB_STRING;
}

/*
 * One "field:" declaration (decl, up to its ';'): a string field's shape and name, or false.
 * Only plain char strings: unsigned char and u8 arrays are bytes, not text.
 */
static bool string_decl(const uint8_t *decl, size_t n, enum td_field_shape *shape, const uint8_t **name, size_t *name_len)
{
	if (has_word(decl, n, "unsigned") || !has_word(decl, n, "char"))
		return false;
	const uint8_t *br = memchr(decl, '[', n);
	if (!br)
		return false;
	bool data_loc = has_word(decl, n, "__data_loc"), rel_loc = has_word(decl, n, "__rel_loc");
	/* the name: the identifier before '[' (fixed, trailing) or after "[]" (data_loc) */
	const uint8_t *end = decl + n, *s, *e;
	if (data_loc || rel_loc) {
		s = br;
		while (s < end && (*s == '[' || *s == ']' || *s == ' '))
			s++;
		e = s;
		while (e < end && *e != ' ' && *e != ';' && *e != '[')
			e++;
		*shape = data_loc ? TD_DATA_LOC : TD_REL_LOC;
	} else {
		e = br;
		s = e;
		while (s > decl && s[-1] != ' ' && s[-1] != '*')
			s--;
		if (s > decl && s[-1] == '*')
			return false; /* char *name[...]: pointers */
		*shape = br + 1 < end && br[1] == ']' ? TD_TRAILING : TD_FIXED;
	}
	*name = s;
	*name_len = (size_t)(e - s);
	return e > s;
}

void td_events_add(struct td_events *t, const uint8_t *text, size_t len, const char *system)
{
	struct td_event ev;
	memset(&ev, 0, sizeof(ev));
	bool have_id = false, is_print = false;
	for (size_t at = 0; at < len;) {
		const uint8_t *nl = memchr(text + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
		const uint8_t *line = text + at;
		at += n + 1;
		if (n >= 6 && memcmp(line, "name: ", 6) == 0)
			is_print = strcmp(system, "ftrace") == 0 && n == 11 && memcmp(line + 6, "print", 5) == 0;
		if (n >= 4 && memcmp(line, "ID: ", 4) == 0)
			have_id = number_after(line, n, "ID: ", &ev.id);
		const uint8_t *f = find(line, n, "field:");
		if (!f)
			continue;
		const uint8_t *semi = memchr(f, ';', (size_t)(line + n - f));
		if (!semi)
			continue;
		const uint8_t *decl = f + 6;
		size_t dn = (size_t)(semi - decl);
		uint32_t off, size;
		if (!number_after(semi, (size_t)(line + n - semi), "offset:", &off) ||
		    !number_after(semi, (size_t)(line + n - semi), "size:", &size))
			continue;
		if (has_word(decl, dn, " common_type")) {
			t->type_offset = off;
			t->type_size = size;
			continue;
		}
		enum td_field_shape shape;
		const uint8_t *name;
		size_t name_len;
		if (!string_decl(decl, dn, &shape, &name, &name_len) || ev.nfields >= TD_MAX_FIELDS)
			continue;
		if ((shape == TD_DATA_LOC || shape == TD_REL_LOC) && size != 4)
			continue;
		if (shape == TD_FIXED && size == 0)
			continue;
		struct td_field *fl = &ev.fields[ev.nfields++];
		fl->offset = off;
		fl->size = size;
		fl->shape = shape;
		fl->kind = kind_of(name, name_len, is_print && shape == TD_TRAILING);
	}
	if (!have_id || !ev.nfields)
		return;
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct td_event *p = realloc(t->ev, cap * sizeof(*p));
		if (!p) {
			t->oom = 1;
			return;
		}
		t->ev = p;
		t->cap = cap;
	}
	t->ev[t->n++] = ev;
}

static int by_id(const void *a, const void *b)
{
	uint32_t x = ((const struct td_event *)a)->id, y = ((const struct td_event *)b)->id;
	return x < y ? -1 : x > y;
}

void td_events_sort(struct td_events *t)
{
	if (t->n)
		qsort(t->ev, t->n, sizeof(*t->ev), by_id);
}

const struct td_event *td_events_find(const struct td_events *t, uint32_t id)
{
	struct td_event key;
	key.id = id;
	return t->n ? bsearch(&key, t->ev, t->n, sizeof(*t->ev), by_id) : NULL;
}

void td_events_free(struct td_events *t)
{
	free(t->ev);
	memset(t, 0, sizeof(*t));
}
