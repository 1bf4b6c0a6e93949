/* SPDX-License-Identifier: MIT */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_format.h"

/* The number after "key:" in a field line, or -1. */
static long field_number(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	return p ? strtol(p + strlen(key), NULL, 10) : -1;
}

static bool starts_with(const char *s, const char *prefix)
{
	return strncmp(s, prefix, strlen(prefix)) == 0;
}

/* One "field:DECL;\toffset:N;\tsize:N;..." line into f; returns -1 when it cannot be placed. */
static int parse_field(const char *line, struct bfmt *f)
{
	const char *decl = line + strlen("field:"), *semi = strchr(decl, ';');
	long offset = field_number(line, "offset:"), size = field_number(line, "size:");
	if (!semi || offset < 0 || size < 0 || offset + size > 65535)
		return -1;
	if ((uint32_t)(offset + size) > f->fixed)
		f->fixed = (uint32_t)(offset + size);
	size_t len = (size_t)(semi - decl);
	char d[256];
	snprintf(d, sizeof(d), "%.*s", (int)(len < sizeof(d) ? len : sizeof(d) - 1), decl);
	if (strstr(d, " common_pid") && size == 4) {
		f->pid_offset = (int)offset;
		return 0;
	}
	struct bfmt_field field = { BFMT_PLAIN, false, (uint16_t)offset, (uint16_t)size };
	bool dynamic = starts_with(d, "__data_loc ") || starts_with(d, "__rel_loc ");
	if (dynamic) {
		field.relative = starts_with(d, "__rel_loc ");
		field.kind = strstr(d, "char[]") ? BFMT_DYN_TEXT : BFMT_DYN_BYTES;
		if (size != 4)
			return -1;
	} else if (starts_with(d, "char ") && strchr(d, '[') && size > 1) {
		field.kind = BFMT_TEXT;
	} else {
		return 0;
	}
	if (f->nfields == BFMT_MAX_FIELDS)
		return -1;
	f->fields[f->nfields++] = field;
	return 0;
}

int bfmt_parse(const char *text, struct bfmt *f)
{
	memset(f, 0, sizeof(*f));
	f->pid_offset = -1;
	bool have_name = false, have_id = false;
	for (const char *line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		while (*line == ' ' || *line == '\t')
			line++;
		if (starts_with(line, "name: ")) {
			const char *n = line + 6, *end = strchr(n, '\n');
			size_t len = end ? (size_t)(end - n) : strlen(n);
			snprintf(f->name, sizeof(f->name), "%.*s", (int)(len < sizeof(f->name) ? len : sizeof(f->name) - 1), n);
			have_name = len > 0;
		} else if (starts_with(line, "ID: ")) {
			f->id = (unsigned)strtoul(line + 4, NULL, 10);
			have_id = f->id > 0 && f->id < 65536;
		} else if (starts_with(line, "field:") && parse_field(line, f) != 0) {
			return -1;
		}
	}
	return have_name && have_id && f->pid_offset >= 0 ? 0 : -1;
}

static void put_u16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

uint32_t bfmt_record(const struct bfmt *f, const char *comm, uint8_t *out, size_t cap)
{
	/* dynamic data begins after the fixed fields, 4-aligned as the kernel's entry struct */
	uint32_t end = (f->fixed + 3) & ~3u;
	if (end > cap)
		return 0;
	memset(out, 0, end);
	put_u16(out, (uint16_t)f->id); /* records are written little-endian: the host's formats */
	for (size_t i = 0; i < f->nfields; i++) {
		const struct bfmt_field *fl = &f->fields[i];
		if (fl->kind == BFMT_TEXT) {
			snprintf((char *)out + fl->offset, fl->size, "%s", comm);
			continue;
		}
		uint32_t len = fl->kind == BFMT_DYN_TEXT ? (uint32_t)strlen(comm) + 1 : 8;
		if (end + len > cap)
			return 0;
		if (fl->kind == BFMT_DYN_TEXT)
			memcpy(out + end, comm, len);
		else
			memset(out + end, 0, len);
		uint32_t at = fl->relative ? end - (fl->offset + 4u) : end;
		put_u32(out + fl->offset, len << 16 | at);
		end += len;
	}
	uint32_t total = (end + 3) & ~3u;
	if (total < 12)
		total = 12;
	if (total > cap)
		return 0;
	memset(out + end, 0, total - end);
	return total;
}
