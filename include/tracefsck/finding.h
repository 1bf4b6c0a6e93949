/* SPDX-License-Identifier: MIT */
/* Findings: one structural fault found in a trace, with the context to locate it. */
#ifndef TRACEFSCK_FINDING_H
#define TRACEFSCK_FINDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

enum tfk_severity {
	TFK_SEV_NOTE = 0,
	TFK_SEV_WARNING = 1,
	TFK_SEV_ERROR = 2,
};

/* What repair does about a fault; named in the catalog so plans can be built from findings. */
enum tfk_repair_action {
	TFK_REPAIR_NONE = 0,        /* informational, or nothing safe can be done */
	TFK_REPAIR_REWRITE_HEADER,  /* rewrite a header field from a value the file proves */
	TFK_REPAIR_TRUNCATE,        /* cut the file at the last whole structure */
	TFK_REPAIR_REBUILD_TABLE,   /* rebuild CPU tables / buffer options from a page scan */
	TFK_REPAIR_DROP_OPTION,     /* remove or neutralise an option */
	TFK_REPAIR_CLIP_RANGE,      /* clip or drop a CPU data range */
	TFK_REPAIR_DROP_PAGE,       /* drop a ring page, mark events missed on the next one */
	TFK_REPAIR_NORMALISE_PAGE,  /* clear stray bits / bytes in a ring page */
	TFK_REPAIR_DROP_DATA,       /* drop bytes no structure accounts for */
};

/* One catalog entry. Ids are stable: never renamed, never reused. */
struct tfk_fault {
	const char *id;               /* dotted id, e.g. "tracedat.cpu.overlap" */
	enum tfk_severity severity;   /* default severity */
	const char *summary;          /* one line */
	const char *help;             /* a paragraph: what it means, why it matters */
	enum tfk_repair_action repair;
};

#define TFK_FINDING_PATH_MAX 96
#define TFK_FINDING_TEXT_MAX 160
#define TFK_FINDING_MEMBER_MAX 160

/*
 * A finding. Every string in it is already sanitised: printable ASCII only, other bytes
 * escaped as \xNN, length capped. Bytes from the trace can never reach output raw.
 */
struct tfk_finding {
	const struct tfk_fault *fault;
	enum tfk_severity severity;
	bool has_offset;
	uint64_t offset;  /* absolute byte offset in the file */
	uint64_t length;  /* bytes concerned, 0 when not meaningful */
	/*
	 * Inside compressed data: offset is where the compressed block starts in the file, and
	 * decoded_offset the position inside what it decodes to.
	 */
	bool in_decoded;
	uint64_t decoded_offset;
	/*
	 * In a trace directory: the member file the finding lies in, relative to the directory
	 * ("data.1", "ust/uid/0/64-bit/metadata"), and offset is inside that member. "" for a
	 * single file.
	 */
	char member[TFK_FINDING_MEMBER_MAX];
	char path[TFK_FINDING_PATH_MAX];          /* structure path, e.g. "flyrecord cpu1 page 3" */
	char expected[TFK_FINDING_TEXT_MAX];
	char found[TFK_FINDING_TEXT_MAX];
};

const char *tfk_severity_name(enum tfk_severity sev);
const char *tfk_repair_action_name(enum tfk_repair_action action);

#ifdef __cplusplus
}
#endif
#endif
