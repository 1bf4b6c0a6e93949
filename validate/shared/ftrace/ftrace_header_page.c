/* SPDX-License-Identifier: MIT */
/* header_page and header_event: the texts that describe the ring page and event encoding. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace.h"
#include "ftrace_tokens.h"

/*
 * What header_event must say, blanks folded: the encoding every page walker assumes. Kernels
 * print it with ring_buffer_print_entry_header(); those before 4.17 have no time_stamp line
 * (type 31 was reserved, never written), so that line is checked only where it is printed.
 */
static const char *const phrases[] = {
	"type_len : 5 bits", "time_delta : 27 bits", "array : 32 bits", "padding : type == 29",
	"time_extend : type == 30", "time_stamp : type == 31", "data max type_len == 28",
};
/* For each phrase, the words that announce it: a text without them need not say it. */
static const char *const phrase_optional_unless[] = {
	NULL, NULL, NULL, NULL, NULL, "time_stamp", NULL,
};
static const char *const page_fields[] = { "timestamp", "commit", "data" };

#define HP_TEXT_MAX 4096 /* real header_page texts are about 200 bytes */

struct hp_field {
	const char *name;
	bool seen;
	unsigned long offset, size;
};

/* Copy a bounded text blob into a NUL-terminated buffer for parsing. */
static size_t copy_text(const struct tfk_cursor *text, char *buf, size_t cap)
{
	const uint8_t *p;
	uint64_t n = text->len < cap - 1 ? text->len : cap - 1;
	if (!tfk_cur_bytes_at(text, 0, n, &p))
		n = 0;
	else
		memcpy(buf, p, n);
	buf[n] = '\0';
	/* An embedded NUL ends the text for the parser, as it would for libtraceevent. */
	return strlen(buf);
}

static bool parse_number(const char *s, const char *key, unsigned long *out)
{
	const char *k = strstr(s, key);
	if (!k)
		return false;
	k += strlen(key);
	char *end;
	unsigned long v = strtoul(k, &end, 10);
	if (end == k || *end != ';')
		return false;
	*out = v;
	return true;
}

/* Lines look like "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;". */
static void parse_fields(char *buf, struct hp_field *fields, size_t nfields)
{
	char *save = NULL;
	for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *decl = strstr(line, "field:");
		if (!decl)
			continue;
		char *semi = strchr(decl, ';');
		if (!semi)
			continue;
		/* The name is the last word before the first ';' (an array suffix is skipped). */
		char *e = semi;
		while (e > decl && e[-1] == ' ')
			e--;
		if (e > decl && e[-1] == ']') {
			while (e > decl && e[-1] != '[')
				e--;
			if (e > decl)
				e--;
		}
		char *b = e;
		while (b > decl && (b[-1] == '_' || (b[-1] >= 'a' && b[-1] <= 'z') || (b[-1] >= 'A' && b[-1] <= 'Z') ||
				    (b[-1] >= '0' && b[-1] <= '9')))
			b--;
		size_t nlen = (size_t)(e - b);
		for (size_t i = 0; i < nfields; i++) {
			if (strlen(fields[i].name) == nlen && strncmp(b, fields[i].name, nlen) == 0 && !fields[i].seen) {
				fields[i].seen = parse_number(semi, "offset:", &fields[i].offset) &&
						 parse_number(semi, "size:", &fields[i].size);
			}
		}
	}
}

static void hp_invalid(struct td_check *td, const struct tfk_cursor *text, const char *expected, const char *found)
{
	struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_PAGE_INVALID, text->origin, text->len);
	tfk_set_path(f, "header_page");
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "%s", found);
}

void td_parse_header_page(struct td_check *td, const struct tfk_cursor *text)
{
	char buf[HP_TEXT_MAX];
	char found[96];

	td->hp_ok = false;
	td->hp_offset = text->origin;
	if (text->len == 0) {
		hp_invalid(td, text, "the field layout of a ring page", "empty text (pre-2.6.31 ring buffer format, not checked)");
		return;
	}
	if (text->len >= HP_TEXT_MAX) {
		snprintf(found, sizeof(found), "%llu bytes", (unsigned long long)text->len);
		hp_invalid(td, text, "a text of at most 4095 bytes", found);
		return;
	}
	copy_text(text, buf, sizeof(buf));
	struct hp_field fields[] = {
		{ page_fields[0], false, 0, 0 },
		{ page_fields[1], false, 0, 0 },
		{ page_fields[2], false, 0, 0 },
	};
	parse_fields(buf, fields, 3);
	for (size_t i = 0; i < 3; i++) {
		if (!fields[i].seen) {
			snprintf(found, sizeof(found), "no parsable '%s' field", fields[i].name);
			hp_invalid(td, text, "fields timestamp, commit and data with offset and size", found);
			return;
		}
	}
	const struct hp_field *ts = &fields[0], *commit = &fields[1], *data = &fields[2];
	if (ts->offset != 0 || ts->size != 8) {
		snprintf(found, sizeof(found), "timestamp offset %lu size %lu", ts->offset, ts->size);
		hp_invalid(td, text, "timestamp offset 0 size 8", found);
		return;
	}
	if (commit->offset != 8 || (commit->size != 4 && commit->size != 8)) {
		snprintf(found, sizeof(found), "commit offset %lu size %lu", commit->offset, commit->size);
		hp_invalid(td, text, "commit offset 8 size 4 or 8", found);
		return;
	}
	unsigned long page = data->offset + data->size;
	if (data->offset < 8 + commit->size || data->offset % 4 || data->offset > 64 || data->size > (1ul << 27) ||
	    !tfk_is_pow2(page) || page < 1024 || page > td->ctx->limits->max_page_size) {
		snprintf(found, sizeof(found), "data offset %lu size %lu", data->offset, data->size);
		hp_invalid(td, text, "data after commit, offset + size a power-of-two page size", found);
		return;
	}
	td->hp_ok = true;
	td->hp_commit_size = (uint32_t)commit->size;
	td->hp_data_offset = (uint32_t)data->offset;
	td->hp_page_size = (uint32_t)page;
}

void td_header_page_tokens(td_token_fn emit, void *user)
{
	for (size_t i = 0; i < sizeof(page_fields) / sizeof(page_fields[0]); i++)
		emit(user, "header_page_field", page_fields[i], strlen(page_fields[i]));
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++)
		emit(user, "header_event_phrase", phrases[i], strlen(phrases[i]));
}

void td_check_header_event(struct td_check *td, const struct tfk_cursor *text)
{
	char raw[HP_TEXT_MAX], buf[HP_TEXT_MAX];

	if (text->len >= HP_TEXT_MAX) {
		struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_EVENT_INVALID, text->origin, text->len);
		tfk_set_path(f, "header_event");
		tfk_set_expected(f, "a text of at most 4095 bytes");
		tfk_set_found(f, "%llu bytes", (unsigned long long)text->len);
		return;
	}
	size_t n = copy_text(text, raw, sizeof(raw));
	/* Fold runs of blanks so the kernel's column alignment does not matter. */
	size_t o = 0;
	bool blank = false;
	for (size_t i = 0; i < n; i++) {
		char ch = raw[i];
		if (ch == ' ' || ch == '\t' || ch == '\n') {
			blank = true;
			continue;
		}
		if (blank && o > 0)
			buf[o++] = ' ';
		blank = false;
		buf[o++] = ch;
	}
	buf[o] = '\0';
	for (size_t i = 0; i < sizeof(phrases) / sizeof(phrases[0]); i++) {
		if (phrase_optional_unless[i] && !strstr(buf, phrase_optional_unless[i]))
			continue;
		if (!strstr(buf, phrases[i])) {
			struct tfk_finding *f = tfk_emit(td->ctx, TFK_TRACEDAT_HEADER_EVENT_INVALID, text->origin, text->len);
			tfk_set_path(f, "header_event");
			tfk_set_expected(f, "\"%s\"", phrases[i]);
			tfk_set_found(f, "text without it");
			return;
		}
	}
}
