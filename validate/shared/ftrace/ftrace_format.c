/* SPDX-License-Identifier: MIT */
/*
 * Event format texts (ftrace and event formats): our own strict grammar for their structure,
 * and the table of event layouts the page walk checks every record against.
 *
 *   name: NAME
 *   ID: N
 *   format:
 *   	field:TYPE NAME;	offset:N;	size:N;	signed:N;
 *   	(blank lines between groups)
 *   print fmt: "..." ARGS     (a quoted string, then C expressions whose parentheses,
 *                             brackets, braces and quotes balance, to the end of the text, and
 *                             whose REC->NAME each name a field above: ftrace_print_fmt.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "ftrace_print_fmt.h"
#include "ftrace_tokens.h"

#define MAX_FIELDS 256

struct field {
	uint32_t offset, size;
	char name[48];
	bool dynamic, relative, string;
	uint32_t count; /* entries of a fixed array ("caller[8]"), 0 if not one */
	uint64_t at; /* offset of its line, for findings */
};

struct line {
	const char *p;
	size_t len;
	uint64_t at; /* cursor-relative offset of the line */
};

struct parse {
	struct td_check *td;
	const struct tfk_cursor *text;
	const char *system;
	char name[64];
};

static struct tfk_finding *fmt_fault(const struct parse *ps, enum tfk_fault_code code, uint64_t at, uint64_t len)
{
	const struct tfk_pctx pc = { .tmpl = "format %s/%s", .str = { ps->system, ps->name[0] ? ps->name : "?" } };
	return tfk_raise(ps->td->ctx, &pc, code, ps->text->origin + at, len, NULL);
}

static void syntax(const struct parse *ps, const struct line *l, const char *expected)
{
	struct tfk_finding *f = fmt_fault(ps, TFK_TRACEDAT_FORMAT_SYNTAX, l ? l->at : 0, l ? l->len : ps->text->len);
	tfk_set_expected(f, "%s", expected);
	if (l)
		tfk_set_found_bytes(f, l->p, l->len < 60 ? l->len : 60);
	else
		tfk_set_found(f, "end of the text");
}

static bool next_line(const char *base, size_t total, size_t *pos, struct line *l)
{
	if (*pos >= total)
		return false;
	const char *start = base + *pos;
	const char *nl = memchr(start, '\n', total - *pos);
	size_t len = nl ? (size_t)(nl - start) : total - *pos;
	l->p = start;
	l->len = len;
	l->at = *pos;
	*pos += len + (nl ? 1 : 0);
	return true;
}

/* Whether the n bytes at p begin with the text word. */
static bool starts_with(const char *p, size_t n, const char *word)
{
	size_t w = strlen(word);
	return n >= w && memcmp(p, word, w) == 0;
}

static bool starts(const struct line *l, const char *prefix, size_t *after)
{
	size_t i = 0, n = strlen(prefix);
	while (i < l->len && (l->p[i] == ' ' || l->p[i] == '\t'))
		i++;
	if (l->len - i < n || memcmp(l->p + i, prefix, n) != 0)
		return false;
	*after = i + n;
	return true;
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
	       c == '.' || c == ':';
}

/* Parse a decimal number of at most 9 digits. */
static bool number(const char *p, size_t n, uint32_t *v)
{
	if (n == 0 || n > 9)
		return false;
	uint32_t r = 0;
	for (size_t i = 0; i < n; i++) {
		if (p[i] < '0' || p[i] > '9')
			return false;
		r = r * 10 + (uint32_t)(p[i] - '0');
	}
	*v = r;
	return true;
}

/* "TYPE NAME; offset:N; size:N; signed:N;" after "field:" */
static bool parse_field(const char *p, size_t n, struct field *f)
{
	const char *semi = memchr(p, ';', n);
	if (!semi || semi == p)
		return false;
	/* The declaration is the C source of a struct member: printable ASCII and tabs only
	 * (libtraceevent 1.7 can crash on other bytes inside a type's brackets). */
	for (const char *c = p; c < semi; c++)
		if ((unsigned char)*c >= 0x7f || ((unsigned char)*c < 0x20 && *c != '\t'))
			return false;
	/* The name: the last word of the declaration, without an array suffix. */
	const char *e = semi;
	while (e > p && e[-1] == ' ')
		e--;
	if (e > p && e[-1] == ']') {
		const char *close = e - 1;
		while (e > p && e[-1] != '[')
			e--;
		if (e == p)
			return false;
		uint32_t count;
		if (number(e, (size_t)(close - e), &count))
			f->count = count;
		e--;
	}
	const char *b = e;
	while (b > p && (name_char(b[-1]) && b[-1] != ':'))
		b--;
	if (b == e || (size_t)(e - b) >= sizeof(f->name))
		return false;
	memcpy(f->name, b, (size_t)(e - b));
	f->name[e - b] = '\0';
	size_t decl = (size_t)(semi - p);
	f->dynamic = starts_with(p, decl, TD_KW_DATA_LOC) || starts_with(p, decl, TD_KW_REL_LOC);
	f->relative = starts_with(p, decl, TD_KW_REL_LOC);
	f->string = f->dynamic && memmem(p, decl, "char[]", 6) != NULL;

	bool have_off = false, have_size = false;
	const char *q = semi + 1, *end = p + n;
	while (q < end) {
		while (q < end && (*q == ' ' || *q == '\t'))
			q++;
		if (q >= end)
			break;
		const char *s2 = memchr(q, ';', (size_t)(end - q));
		if (!s2)
			return false;
		const char *colon = memchr(q, ':', (size_t)(s2 - q));
		if (!colon)
			return false;
		uint32_t v;
		if (!number(colon + 1, (size_t)(s2 - colon - 1), &v))
			return false;
		size_t key = (size_t)(colon - q);
		if (key == strlen(TD_KW_OFFSET) && memcmp(q, TD_KW_OFFSET, key) == 0) {
			f->offset = v;
			have_off = true;
		} else if (key == strlen(TD_KW_SIZE) && memcmp(q, TD_KW_SIZE, key) == 0) {
			f->size = v;
			have_size = true;
		} else if (!(key == strlen(TD_KW_SIGNED) && memcmp(q, TD_KW_SIGNED, key) == 0) || v > 1) {
			return false;
		}
		q = s2 + 1;
	}
	return have_off && have_size;
}

static int field_cmp(const void *a, const void *b)
{
	const struct field *x = a, *y = b;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static struct td_event_fmt *register_event(struct parse *ps, uint32_t id, uint64_t id_at)
{
	struct td_check *td = ps->td;
	if (!td->event_index) {
		/* Zeroed memory means "no format"; untouched pages of it are never faulted in. */
		td->event_index = tfk_calloc(td->ctx, 65536, sizeof(uint32_t));
		if (!td->event_index)
			return NULL;
	}
	if (td->event_index[id]) {
		struct tfk_finding *f = fmt_fault(ps, TFK_TRACEDAT_FORMAT_DUPLICATE_ID, id_at, 0);
		tfk_set_expected(f, "an ID no other format uses");
		tfk_set_found(f, "ID %u, also format %s", id, td->events[td->event_index[id] - 1].name);
		return NULL;
	}
	void *arr = td->events;
	if (!tfk_grow(td->ctx, &arr, &td->events_cap, td->nevents + 1, sizeof(struct td_event_fmt)))
		return NULL;
	td->events = arr;
	struct td_event_fmt *e = &td->events[td->nevents];
	memset(e, 0, sizeof(*e));
	e->id = (uint16_t)id;
	snprintf(e->name, sizeof(e->name), "%s/%s", ps->system, ps->name);
	td->event_index[id] = (uint32_t)++td->nevents;
	return e;
}

/*
 * The kernel writes some records shorter than their format: ftrace's kernel_stack declares
 * "int size; unsigned long caller[8]" but holds only `size` entries (and more than 8 when the
 * stack is deeper). The rule, for fields sorted by offset: the last one is a fixed array of
 * whole entries, and a plain integer field named "size" lies before it. Such a record needs
 * its fields up to the array and then `size` entries. NULL when the format has no such tail.
 */
static const struct field *partly_filled_tail(const struct field *fields, size_t n, const struct field **count)
{
	if (n < 2)
		return NULL;
	const struct field *t = &fields[n - 1];
	if (t->dynamic || !t->count || !t->size || t->size % t->count || t->size / t->count > 65535 ||
	    t->offset > 65535)
		return NULL;
	for (size_t i = 0; i + 1 < n; i++) {
		const struct field *c = &fields[i];
		if (strcmp(c->name, "size") == 0 && !c->dynamic && !c->count &&
		    (c->size == 1 || c->size == 2 || c->size == 4 || c->size == 8) && c->offset + c->size <= t->offset) {
			*count = c;
			return t;
		}
	}
	return NULL;
}

static void check_fields(struct parse *ps, struct field *fields, size_t n, struct td_event_fmt *e)
{
	struct td_check *td = ps->td;
	struct tfk_finding *f;
	size_t ncommon = 0;
	for (size_t i = 0; i < n; i++) {
		if (fields[i].offset > 65535 || fields[i].size > 65536 - fields[i].offset) {
			f = fmt_fault(ps, TFK_TRACEDAT_FORMAT_BAD_FIELD, fields[i].at, 0);
			tfk_set_expected(f, "a field inside a record (offset + size <= 65536)");
			tfk_set_found(f, "%s: offset %u size %u", fields[i].name, fields[i].offset, fields[i].size);
			return;
		}
		if (fields[i].dynamic && fields[i].size != 4) {
			f = fmt_fault(ps, TFK_TRACEDAT_FORMAT_BAD_FIELD, fields[i].at, 0);
			tfk_set_expected(f, "4 bytes for a dynamic field");
			tfk_set_found(f, "%s: size %u", fields[i].name, fields[i].size);
			return;
		}
		bool common = strncmp(fields[i].name, TD_KW_COMMON, strlen(TD_KW_COMMON)) == 0;
		if (common && i != ncommon) {
			f = fmt_fault(ps, TFK_TRACEDAT_FORMAT_BAD_FIELD, fields[i].at, 0);
			tfk_set_expected(f, "the common_* fields before all others");
			tfk_set_found(f, "%s after another field", fields[i].name);
			return;
		}
		ncommon += common;
	}
	/* The common fields are the same in every format of the file. */
	if (ncommon) {
		if (!td->have_common) {
			td->have_common = true;
			td->ncommon = ncommon < TD_MAX_COMMON ? (uint8_t)ncommon : TD_MAX_COMMON;
			for (size_t i = 0; i < td->ncommon; i++) {
				snprintf(td->common[i].name, sizeof(td->common[i].name), "%s", fields[i].name);
				td->common[i].offset = fields[i].offset;
				td->common[i].size = fields[i].size;
			}
		} else {
			for (size_t i = 0; i < ncommon && i < td->ncommon; i++) {
				if (strcmp(td->common[i].name, fields[i].name) != 0 || td->common[i].offset != fields[i].offset ||
				    td->common[i].size != fields[i].size) {
					f = fmt_fault(ps, TFK_TRACEDAT_FORMAT_BAD_FIELD, fields[i].at, 0);
					tfk_set_expected(f, "%s at offset %u size %u, as in the other formats", td->common[i].name,
							 td->common[i].offset, td->common[i].size);
					tfk_set_found(f, "%s at offset %u size %u", fields[i].name, fields[i].offset, fields[i].size);
					return;
				}
			}
		}
	}
	qsort(fields, n, sizeof(*fields), field_cmp);
	for (size_t i = 1; i < n; i++) {
		const struct field *a = &fields[i - 1], *b = &fields[i];
		if (a->size && b->size && b->offset < a->offset + a->size) {
			f = fmt_fault(ps, TFK_TRACEDAT_FORMAT_BAD_FIELD, b->at, 0);
			tfk_set_expected(f, "fields that do not overlap");
			tfk_set_found(f, "%s [%u, %u) overlaps %s [%u, %u)", b->name, b->offset, b->offset + b->size, a->name,
				      a->offset, a->offset + a->size);
			return;
		}
	}
	if (!e)
		return;
	const struct field *count = NULL, *tail = partly_filled_tail(fields, n, &count);
	for (size_t i = 0; i < n; i++) {
		uint32_t end = &fields[i] == tail ? fields[i].offset : fields[i].offset + fields[i].size;
		if (end > e->fixed)
			e->fixed = (uint16_t)(end > 65535 ? 65535 : end);
		if (fields[i].dynamic && e->ndyn < TD_MAX_DYN) {
			e->dyn[e->ndyn].offset = (uint16_t)fields[i].offset;
			e->dyn[e->ndyn].relative = fields[i].relative;
			e->dyn[e->ndyn].string = fields[i].string;
			e->ndyn++;
		}
		if (strcmp(fields[i].name, TD_KW_COMMON "pid") == 0 && fields[i].size == 4) {
			e->has_pid = true;
			e->pid_offset = (uint16_t)fields[i].offset;
		}
	}
	if (tail) {
		e->tail_offset = (uint16_t)tail->offset;
		e->tail_elem = (uint16_t)(tail->size / tail->count);
		e->count_offset = (uint16_t)count->offset;
		e->count_size = (uint8_t)count->size;
	}
	e->need = e->fixed;
	for (uint8_t i = 0; i < e->ndyn; i++)
		if (e->dyn[i].offset + 4u > e->need)
			e->need = e->dyn[i].offset + 4u;
	if (e->has_pid && e->pid_offset + 4u > e->need)
		e->need = e->pid_offset + 4u;
	e->valid = true;
}

/* The fields parsed so far, for the print fmt's REC->NAME (fields_seen.fields[0 .. n)). */
struct fields_seen {
	const struct field *fields;
	size_t n;
};

static bool is_field(const void *seen, const char *name, size_t len)
{
	const struct fields_seen *s = seen;
	for (size_t k = 0; k < s->n; k++)
		if (strlen(s->fields[k].name) == len && memcmp(s->fields[k].name, name, len) == 0)
			return true;
	return false;
}

void td_check_format(struct td_check *td, const struct tfk_cursor *text, const char *system)
{
	struct parse ps = { td, text, system, "" };
	const uint8_t *bytes;
	if (!tfk_cur_bytes_at(text, 0, text->len, &bytes))
		return;
	const char *base = (const char *)bytes;
	size_t total = (size_t)text->len, pos = 0, after;
	struct line l;

	/* name: */
	if (!next_line(base, total, &pos, &l) || !starts(&l, TD_KW_NAME, &after)) {
		syntax(&ps, total ? &l : NULL, "\"name: NAME\" on the first line");
		return;
	}
	while (after < l.len && l.p[after] == ' ')
		after++;
	size_t nlen = l.len - after;
	bool name_ok = nlen > 0 && nlen < sizeof(ps.name);
	for (size_t i = 0; name_ok && i < nlen; i++)
		name_ok = name_char(l.p[after + i]);
	tfk_sanitize(ps.name, sizeof(ps.name), l.p + after, nlen);
	if (!name_ok) {
		struct tfk_finding *f = fmt_fault(&ps, TFK_TRACEDAT_FORMAT_BAD_NAME, l.at, l.len);
		tfk_set_expected(f, "an event name of letters, digits and '_'");
		tfk_set_found_bytes(f, l.p + after, nlen < 60 ? nlen : 60);
	}
	/* ID: */
	uint32_t id = 0;
	if (!next_line(base, total, &pos, &l) || !starts(&l, TD_KW_ID, &after)) {
		syntax(&ps, pos <= total ? &l : NULL, "\"ID: N\" on the second line");
		return;
	}
	while (after < l.len && l.p[after] == ' ')
		after++;
	uint64_t id_at = l.at;
	if (!number(l.p + after, l.len - after, &id) || id > 65535) {
		syntax(&ps, &l, "an ID from 0 to 65535");
		return;
	}
	/* format: */
	if (!next_line(base, total, &pos, &l) || !starts(&l, TD_KW_FORMAT, &after)) {
		syntax(&ps, &l, "\"format:\" on the third line");
		return;
	}
	struct field *fields = tfk_calloc(td->ctx, MAX_FIELDS, sizeof(*fields));
	if (!fields)
		return;
	size_t n = 0;
	bool print = false, print_ok = true;
	while (next_line(base, total, &pos, &l)) {
		size_t k = 0;
		while (k < l.len && (l.p[k] == ' ' || l.p[k] == '\t'))
			k++;
		if (k == l.len)
			continue; /* blank line between groups */
		if (starts(&l, TD_KW_PRINT_FMT, &after)) {
			print = true;
			/* the rest of the text is the print format; its fields stay usable when it is not */
			size_t from = l.at + after, bad;
			const char *expected;
			struct fields_seen seen = { fields, n };
			if (!(print_ok = td_print_fmt_ok(base + from, total - from, is_field, &seen, &bad, &expected))) {
				struct line at = { base + from + (bad < total - from ? bad : 0), 0, from + bad };
				at.len = bad < total - from ? total - from - bad : 0;
				if (at.len > 60)
					at.len = 60;
				syntax(&ps, at.len ? &at : NULL, expected);
			}
			break;
		}
		if (!starts(&l, TD_KW_FIELD, &after) && !starts(&l, TD_KW_FIELD_SPECIAL, &after)) {
			syntax(&ps, &l, "a \"field:\" line or \"print fmt:\"");
			free(fields);
			return;
		}
		if (n == MAX_FIELDS) {
			tfk_limit_hit(td->ctx, text->origin + l.at, "fields in one format", n + 1, MAX_FIELDS);
			free(fields);
			return;
		}
		struct field *f = &fields[n];
		memset(f, 0, sizeof(*f));
		f->at = l.at;
		if (!parse_field(l.p + after, l.len - after, f)) {
			syntax(&ps, &l, "\"field:TYPE NAME; offset:N; size:N; signed:N;\"");
			free(fields);
			return;
		}
		n++;
	}
	if (!print) {
		syntax(&ps, NULL, "a \"print fmt:\" line after the fields");
		free(fields);
		return;
	}
	struct td_event_fmt *e = register_event(&ps, id, id_at);
	uint64_t before = td->ctx->faults[TFK_SEV_ERROR];
	check_fields(&ps, fields, n, e);
	free(fields);
	/* libtraceevent only sees text our grammar accepted whole: it has crashed on the rest */
	if (e && print_ok && td->ctx->faults[TFK_SEV_ERROR] == before)
		td_keep_format(td, text, system, ps.name);
}

/* How many entries a record's partly filled tail holds: its "size" field. */
static bool tail_count(const struct tfk_cursor *area, uint64_t payload, const struct td_event_fmt *e, uint64_t *count)
{
	uint64_t at = payload + e->count_offset;
	switch (e->count_size) {
	case 1: {
		uint8_t v;
		if (!tfk_cur_u8_at(area, at, &v))
			return false;
		*count = v;
		return true;
	}
	case 2: {
		uint16_t v;
		if (!tfk_cur_u16_at(area, at, &v))
			return false;
		*count = v;
		return true;
	}
	case 4: {
		uint32_t v;
		if (!tfk_cur_u32_at(area, at, &v))
			return false;
		*count = v;
		return true;
	}
	default:
		return tfk_cur_u64_at(area, at, count);
	}
}

bool td_check_record(struct td_cpu_walk *w, const struct tfk_cursor *area, uint64_t payload, uint64_t len,
		     uint64_t event_at, struct tfk_finding *(*fault)(struct td_cpu_walk *, enum tfk_fault_code, uint64_t, uint64_t))
{
	struct td_check *td = w->td;
	struct tfk_finding *f;
	uint16_t id;
	if (len < 2 || !tfk_cur_u16_at(area, payload, &id)) {
		f = fault(w, TFK_TRACEDAT_EVENT_SHORT_RECORD, event_at, len);
		tfk_set_expected(f, "a record holding at least its 2-byte common_type");
		tfk_set_found(f, "%llu bytes", (unsigned long long)len);
		return false;
	}
	uint32_t idx = td->event_index[id];
	if (!idx && !w->quiet && !w->cut)
		w->no_format++; /* what a reader shows as an unknown event (the salvage account counts them) */
	if (!idx && td->count_unknown_ids) {
		if (!w->quiet && !w->cut && !td->unknown_ids++) {
			td->first_unknown_id = id;
			td->first_unknown_at = event_at;
		}
		return true;
	}
	if (!idx) {
		f = fault(w, TFK_TRACEDAT_EVENT_UNKNOWN_ID, event_at, len);
		tfk_set_expected(f, "an event id with a format (%zu formats)", td->nevents);
		tfk_set_found(f, "id %u", id);
		return true; /* a warning: the record itself may be fine */
	}
	const struct td_event_fmt *e = &td->events[idx - 1];
	if (!e->valid)
		return true;
	if (len < e->fixed) {
		f = fault(w, TFK_TRACEDAT_EVENT_SHORT_RECORD, event_at, len);
		tfk_set_expected(f, "at least %u bytes for %s", e->fixed, e->name);
		tfk_set_found(f, "%llu bytes", (unsigned long long)len);
		return false;
	}
	uint64_t count;
	if (e->tail_elem && tail_count(area, payload, e, &count) &&
	    (count > 65535 || count * e->tail_elem > len - e->tail_offset)) {
		f = fault(w, TFK_TRACEDAT_EVENT_SHORT_RECORD, event_at, len);
		if (count > 65535)
			tfk_set_expected(f, "at most 65535 entries in %s's array at +%u", e->name, e->tail_offset);
		else
			tfk_set_expected(f, "%llu bytes for %s: %u before its array, then the %llu entries of %u bytes it counts",
					 (unsigned long long)(e->tail_offset + count * e->tail_elem), e->name, e->tail_offset,
					 (unsigned long long)count, e->tail_elem);
		tfk_set_found(f, "%llu bytes", (unsigned long long)len);
		return false;
	}
	for (uint8_t i = 0; i < e->ndyn; i++) {
		uint32_t loc;
		if (!tfk_cur_u32_at(area, payload + e->dyn[i].offset, &loc))
			continue;
		uint64_t start = (loc & 0xffff) + (e->dyn[i].relative ? e->dyn[i].offset + 4u : 0u), size = loc >> 16;
		if (start + size > len) {
			f = fault(w, TFK_TRACEDAT_EVENT_BAD_DYNAMIC, event_at, len);
			tfk_set_expected(f, "%s's dynamic field at +%u inside its %llu bytes", e->name, e->dyn[i].offset,
					 (unsigned long long)len);
			tfk_set_found(f, "data at [%llu, %llu)", (unsigned long long)start, (unsigned long long)(start + size));
			return false;
		}
		/*
		 * A string whose data lies inside the record but does not end with its NUL is what
		 * some writers store ("(null)" in 6 bytes from an out-of-tree tracepoint): readers
		 * print it, so the record is sound; a note, and nothing for repair to drop.
		 */
		uint8_t last;
		if (e->dyn[i].string && size && tfk_cur_u8_at(area, payload + start + size - 1, &last) && last != 0) {
			const uint8_t *text;
			f = fault(w, TFK_TRACEDAT_EVENT_UNTERMINATED_STRING, event_at, len);
			tfk_set_expected(f, "%s's string field at +%u ending with its NUL", e->name, e->dyn[i].offset);
			if (tfk_cur_bytes_at(area, payload + start, size, &text))
				tfk_set_found_bytes(f, text, size < 40 ? size : 40);
			else
				tfk_set_found(f, "last byte 0x%02x", last);
		}
	}
	uint32_t pid;
	if (e->has_pid && tfk_cur_u32_at(area, payload + e->pid_offset, &pid) && (int32_t)pid != -1 &&
	    ((int32_t)pid < 0 || pid > TD_PID_MAX_LIMIT)) {
		f = fault(w, TFK_TRACEDAT_EVENT_BAD_PID, event_at, len);
		tfk_set_expected(f, "a pid from 0 to %u", TD_PID_MAX_LIMIT);
		tfk_set_found(f, "%d", (int32_t)pid);
	}
	return true;
}
