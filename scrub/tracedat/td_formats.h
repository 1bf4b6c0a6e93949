/* SPDX-License-Identifier: MIT */
/* trace.dat scrub: the string fields of each event, read from the event format texts. */
#ifndef TFK_SCRUB_TD_FORMATS_H
#define TFK_SCRUB_TD_FORMATS_H

#include <stddef.h>
#include <stdint.h>

#include "tracefsck/scrub.h"

enum td_field_shape {
	TD_FIXED,      /* char name[N]: a NUL-padded string in N bytes */
	TD_DATA_LOC,   /* __data_loc char[] name: u32, offset (low 16 bits) and length in the record */
	TD_REL_LOC,    /* __rel_loc char[] name: the same, the offset counted from the field's end */
	TD_TRAILING,   /* char name[] of size 0: a string to the record's end (print's buf) */
};

struct td_field {
	uint32_t offset, size;
	enum td_field_shape shape;
	enum tfk_scrub_kind kind;
};

#define TD_MAX_FIELDS 16

struct td_event {
	uint32_t id;
	size_t nfields;
	struct td_field fields[TD_MAX_FIELDS];
};

struct td_events {
	struct td_event *ev;
	size_t n, cap;
	uint32_t type_offset, type_size; /* common_type: where the event id is in a record */
	char oom;
};

/*
 * Note the string fields of one format text (the checker already proved its grammar). system
 * is "ftrace" for the ftrace formats. Events without string fields are not kept.
 */
void td_events_add(struct td_events *t, const uint8_t *text, size_t len, const char *system);
/* Sort by id once every format was added (td_events_find searches the sorted table). */
void td_events_sort(struct td_events *t);
const struct td_event *td_events_find(const struct td_events *t, uint32_t id);
void td_events_free(struct td_events *t);

#endif
