/* SPDX-License-Identifier: MIT */
/*
 * What the real-shaped trace generator needs from an event format: its name, id and record
 * layout (fixed size, common_pid, text arrays, dynamic fields), enough to write records of it
 * that its readers accept. Not a checker: formats it cannot read are left out of the mix.
 */
#ifndef BENCH_FORMAT_H
#define BENCH_FORMAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define BFMT_MAX_FIELDS 32

enum bfmt_kind {
	BFMT_PLAIN,      /* left zero */
	BFMT_TEXT,       /* char NAME[N]: a task name */
	BFMT_DYN_TEXT,   /* __data_loc / __rel_loc char[]: a NUL-terminated string after the fields */
	BFMT_DYN_BYTES,  /* other __data_loc / __rel_loc arrays: zero bytes after the fields */
};

struct bfmt_field {
	enum bfmt_kind kind;
	bool relative; /* __rel_loc: offset counted from the end of the field */
	uint16_t offset, size;
};

struct bfmt {
	char name[64];
	unsigned id;
	uint32_t fixed;  /* the end of the last field */
	int pid_offset;  /* common_pid, -1 if none */
	struct bfmt_field fields[BFMT_MAX_FIELDS]; /* the ones the record writer fills */
	size_t nfields;
};

/* Read a format text; returns 0, or -1 when it lacks a name, an id or a field it needs. */
int bfmt_parse(const char *text, struct bfmt *f);

/*
 * A record of format f into out (cap bytes) as the kernel writes it: common_type set, common_pid
 * left for the caller at f->pid_offset, text fields holding comm, dynamic data after the fixed
 * fields. Its length is a multiple of 4 and at least 12 (kernels never write 4 or 8 byte
 * payloads). Returns the length, 0 if it does not fit.
 */
uint32_t bfmt_record(const struct bfmt *f, const char *comm, uint8_t *out, size_t cap);

#endif
