/* SPDX-License-Identifier: MIT */
/*
 * SARIF 2.1.0: one document for a run over several files. Rules come from the whole catalog,
 * each with a helpUri to its entry in the fault manual; results carry a binary region
 * (byteOffset, byteLength) plus startLine 1 so that code scanning can attach them, and a
 * fingerprint that stays the same for the same fault on every machine. Files under the
 * working directory are named relative to %SRCROOT%, as code scanning expects; a file that
 * could not be read at all is a tool execution notification of the run's invocation, not a
 * result about its contents.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sink_common.h"
#include "tracefsck/catalog.h"
#include "tracefsck/hazard.h"
#include "tracefsck/tracefsck.h"

static const char *sarif_level(enum tfk_severity s)
{
	return s == TFK_SEV_ERROR ? "error" : s == TFK_SEV_WARNING ? "warning" : "note";
}

/* FNV-1a, printed as hex: stable across runs and machines. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const uint8_t *b = p;
	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

/* A number hashed as its eight little-endian bytes, whatever this machine's byte order. */
static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
	uint8_t b[8];
	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	return fnv(h, b, sizeof(b));
}

/* An input that could not be read at all: nothing about its contents to report. */
static bool unreadable(const struct tfk_finding *f)
{
	return strcmp(f->fault->id, "core.input.io-error") == 0 || strcmp(f->fault->id, "core.input.not-a-file") == 0;
}

static int flush(struct tfk_line *l, tfk_write_fn write, void *user)
{
	if (l->truncated)
		return -1;
	return tfk_line_flush(l, write, user);
}

static void str(struct tfk_line *l, const char *s)
{
	tfk_line_json_str(l, s, strlen(s));
}

/* "tracedat.cpu.overlap" -> "TracedatCpuOverlap" */
static void rule_name(const char *id, char *out, size_t n)
{
	size_t k = 0;
	bool up = true;
	for (const char *p = id; *p && k + 1 < n; p++) {
		if (*p == '.' || *p == '-') {
			up = true;
			continue;
		}
		out[k++] = up && *p >= 'a' && *p <= 'z' ? (char)(*p - 32) : *p;
		up = false;
	}
	out[k] = '\0';
}

/* A file name as a URI reference: absolute paths as file:// URIs, unsafe bytes percent-encoded. */
static void uri_of(struct tfk_line *l, const char *name, size_t n, const char *suffix)
{
	static const char hex[] = "0123456789ABCDEF";
	char buf[256 * 3]; /* encoded a piece at a time: the name is never cut */
	size_t k = 0;
	/* percent-encoded bytes need no JSON escape: the literal is written as it is */
	tfk_line_printf(l, "\"%s", name[0] == '/' ? "file://" : "");
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)name[i];
		bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
			     c == '.' || c == '_' || c == '~' || c == '/';
		if (plain) {
			buf[k++] = (char)c;
		} else {
			buf[k++] = '%';
			buf[k++] = hex[c >> 4];
			buf[k++] = hex[c & 15];
		}
		if (k + 3 > sizeof(buf) || i + 1 == n) {
			tfk_line_printf(l, "%.*s", (int)k, buf);
			k = 0;
		}
	}
	tfk_line_printf(l, "%s\"", suffix);
}

static void uri(struct tfk_line *l, const char *name)
{
	uri_of(l, name, strlen(name), "");
}

/*
 * An artifactLocation's "uri" (and "uriBaseId"): relative to %SRCROOT% when the file lies under
 * srcroot (a relative name does), else as uri() writes it.
 */
static void location(struct tfk_line *l, const char *name, const char *srcroot)
{
	const char *rel = NULL;
	if (srcroot && name[0] != '/') {
		rel = name;
	} else if (srcroot) {
		size_t n = strlen(srcroot);
		while (n > 1 && srcroot[n - 1] == '/')
			n--;
		if (strncmp(name, srcroot, n) == 0 && name[n] == '/')
			rel = name + n + 1;
	}
	while (rel && rel[0] == '.' && rel[1] == '/')
		rel += 2;
	tfk_line_printf(l, "\"uri\":");
	if (rel && rel[0] && rel[0] != '/') {
		uri(l, rel);
		tfk_line_printf(l, ",\"uriBaseId\":\"%%SRCROOT%%\"");
	} else {
		uri(l, name);
	}
}

/*
 * GitHub ranks security results by the rule's "security-severity" (7.0 and up: high). A crash
 * or a hang of the reader is high; the other effects only mislead. Rules are tagged for the
 * hazards this run's findings trigger, so a run without any renders as it always did.
 */
static const char *security_severity(const struct tfk_fault *fault, const struct tfk_report *const *reports, size_t n,
				     bool *any)
{
	size_t nh;
	const struct tfk_hazard *h = tfk_fault_hazards(fault, &nh);
	bool crash = false, hang = false;
	*any = false;
	for (size_t k = 0; k < nh; k++)
		for (size_t f = 0; f < n; f++)
			for (size_t i = 0; i < reports[f]->count; i++) {
				if (reports[f]->findings[i].fault != fault || !tfk_hazard_applies(&h[k], &reports[f]->findings[i]))
					continue;
				*any = true;
				crash |= h[k].effect == TFK_EFFECT_CRASH;
				hang |= h[k].effect == TFK_EFFECT_HANG;
			}
	return crash ? "8.0" : hang ? "7.0" : NULL;
}

struct by_name {
	const char *name;
	size_t index;
};

static int cmp_by_name(const void *a, const void *b)
{
	const struct by_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);
	return c ? c : x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Each file's entry in "artifacts": a name given twice is one artifact (SARIF wants each
 * artifact listed once), numbered in the order names first appear; first[f] is whether file f
 * lists it. Sorting by name keeps this n log n however many files a run has. NULL: no memory.
 */
static size_t *artifact_indices(const char *const *names, size_t n, bool **first)
{
	struct by_name *v = calloc(n ? n : 1, sizeof(*v));
	size_t *rep = calloc(n ? n : 1, sizeof(*rep)), *num = calloc(n ? n : 1, sizeof(*num));
	*first = calloc(n ? n : 1, sizeof(**first));
	if (!v || !rep || !num || !*first) {
		free(v);
		free(rep);
		free(num);
		free(*first);
		*first = NULL;
		return NULL;
	}
	for (size_t f = 0; f < n; f++)
		v[f] = (struct by_name){ names[f], f };
	qsort(v, n, sizeof(*v), cmp_by_name);
	for (size_t i = 0; i < n; i++)
		rep[v[i].index] = i && strcmp(v[i - 1].name, v[i].name) == 0 ? rep[v[i - 1].index] : v[i].index;
	size_t next = 0;
	for (size_t f = 0; f < n; f++) {
		(*first)[f] = rep[f] == f;
		if ((*first)[f])
			num[f] = next++;
		num[f] = num[rep[f]];
	}
	free(v);
	free(rep);
	return num;
}

int tfk_sink_sarif(const struct tfk_report *const *reports, const char *const *names, size_t n,
		   tfk_write_fn write, void *user)
{
	return tfk_sink_sarif_run(reports, names, n, NULL, write, user);
}

/* The run's invocation: its exit code, whether it ran, and the inputs it could not read. */
static int invocation(struct tfk_line *l, const struct tfk_report *const *reports, const char *const *names, size_t n,
		      const size_t *art, const struct tfk_sarif_options *opt, tfk_write_fn write, void *user)
{
	bool failed = false;
	for (size_t f = 0; f < n; f++)
		for (size_t i = 0; i < reports[f]->count; i++)
			failed |= unreadable(&reports[f]->findings[i]);
	/* fsck(8) statuses: 8 (operational error), 16 (usage) and 128 (internal) mean the run failed. */
	if (opt && opt->has_exit_code)
		failed = (opt->exit_code & (8 | 16 | 128)) != 0;
	tfk_line_printf(l, "],\"invocations\":[{\"executionSuccessful\":%s", failed ? "false" : "true");
	if (opt && opt->has_exit_code)
		tfk_line_printf(l, ",\"exitCode\":%d", opt->exit_code);
	tfk_line_printf(l, ",\"toolExecutionNotifications\":[");
	bool first = true;
	for (size_t f = 0; f < n; f++)
		for (size_t i = 0; i < reports[f]->count; i++) {
			const struct tfk_finding *fd = &reports[f]->findings[i];
			if (!unreadable(fd))
				continue;
			tfk_line_printf(l, "%s{\"level\":\"%s\",\"descriptor\":{\"id\":", first ? "" : ",",
					fd->severity == TFK_SEV_ERROR ? "error" : "warning");
			first = false;
			str(l, fd->fault->id);
			char msg[TFK_FINDING_PATH_MAX + 2 * TFK_FINDING_TEXT_MAX + 64];
			snprintf(msg, sizeof(msg), "%s%s%s", fd->fault->summary, fd->found[0] ? ": " : "", fd->found);
			tfk_line_printf(l, "},\"message\":{\"text\":");
			str(l, msg);
			tfk_line_printf(l, "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{");
			location(l, names[f], opt ? opt->srcroot : NULL);
			tfk_line_printf(l, ",\"index\":%zu}}}]}", art[f]);
			if (flush(l, write, user))
				return -1;
		}
	tfk_line_printf(l, "]}]");
	return 0;
}

static int sarif_run(const struct tfk_report *const *reports, const char *const *names, size_t n, const size_t *art,
		     const bool *first_name, const struct tfk_sarif_options *opt, tfk_write_fn write, void *user)
{
	TFK_LINE(l);
	const char *srcroot = opt && opt->srcroot && opt->srcroot[0] == '/' ? opt->srcroot : NULL;
	const char *help = opt && opt->help_base && opt->help_base[0] ? opt->help_base : TFK_HELP_URI;
	size_t ncat;
	const struct tfk_fault *cat = tfk_catalog(&ncat);
	tfk_line_reset(&l);
	tfk_line_printf(&l, "{\"$schema\":\"https://json.schemastore.org/sarif-2.1.0.json\",\"version\":\"2.1.0\","
			    "\"runs\":[{\"tool\":{\"driver\":{\"name\":\"tracefsck\",\"semanticVersion\":\"%s\","
			    "\"version\":\"%s\",\"informationUri\":",
			TRACEFSCK_VERSION, TRACEFSCK_VERSION);
	tfk_line_json_str(&l, TFK_INFORMATION_URI, strlen(TFK_INFORMATION_URI));
	tfk_line_printf(&l, ",\"rules\":[\n");
	if (flush(&l, write, user))
		return -1;
	for (size_t i = 0; i < ncat; i++) {
		char name[64];
		rule_name(cat[i].id, name, sizeof(name));
		const char *dot = strchr(cat[i].id, '.');
		char family[16];
		snprintf(family, sizeof(family), "%.*s", dot ? (int)(dot - cat[i].id) : 0, cat[i].id);
		tfk_line_printf(&l, "%s{\"id\":", i ? "," : "");
		str(&l, cat[i].id);
		tfk_line_printf(&l, ",\"name\":");
		str(&l, name);
		tfk_line_printf(&l, ",\"shortDescription\":{\"text\":");
		str(&l, cat[i].summary);
		tfk_line_printf(&l, "},\"fullDescription\":{\"text\":");
		str(&l, cat[i].help);
		tfk_line_printf(&l, "},\"helpUri\":");
		char anchor[512];
		snprintf(anchor, sizeof(anchor), "%s#%s", help, cat[i].id);
		str(&l, anchor);
		tfk_line_printf(&l, ",\"help\":{\"text\":");
		str(&l, cat[i].help);
		tfk_line_printf(&l, "},\"defaultConfiguration\":{\"level\":\"%s\"},\"properties\":{\"tags\":[",
				sarif_level(cat[i].severity));
		str(&l, family);
		tfk_line_printf(&l, ",\"repair:%s\"", tfk_repair_action_name(cat[i].repair));
		bool hazardous;
		const char *sev = security_severity(&cat[i], reports, n, &hazardous);
		if (hazardous)
			tfk_line_printf(&l, ",\"security\"");
		tfk_line_printf(&l, "]");
		if (sev)
			tfk_line_printf(&l, ",\"security-severity\":\"%s\"", sev);
		tfk_line_printf(&l, "}}\n");
		if (flush(&l, write, user))
			return -1;
	}
	tfk_line_printf(&l, "]}},");
	if (srcroot) {
		/* a base URI ends with a slash */
		size_t len = strlen(srcroot);
		while (len > 1 && srcroot[len - 1] == '/')
			len--;
		tfk_line_printf(&l, "\"originalUriBaseIds\":{\"%%SRCROOT%%\":{\"uri\":");
		uri_of(&l, srcroot, len, len > 1 ? "/" : "");
		tfk_line_printf(&l, "}},");
	}
	tfk_line_printf(&l, "\"artifacts\":[");
	for (size_t f = 0; f < n; f++) {
		if (!first_name[f])
			continue;
		tfk_line_printf(&l, "%s{\"location\":{", art[f] ? "," : "");
		location(&l, names[f], srcroot);
		tfk_line_printf(&l, "},\"length\":%" PRIu64 "}", reports[f]->stats.file_size);
		if (flush(&l, write, user))
			return -1;
	}
	tfk_line_printf(&l, "],\"results\":[\n");
	bool first = true;
	for (size_t f = 0; f < n; f++) {
		const struct tfk_report *r = reports[f];
		for (size_t i = 0; i < r->count; i++) {
			const struct tfk_finding *fd = &r->findings[i];
			if (unreadable(fd))
				continue; /* a notification of the invocation */
			const struct tfk_fault *base = tfk_catalog_find(fd->fault->id);
			size_t idx = base ? (size_t)(base - cat) : 0;
			tfk_line_printf(&l, "%s{\"ruleId\":", first ? "" : ",");
			first = false;
			str(&l, fd->fault->id);
			tfk_line_printf(&l, ",\"ruleIndex\":%zu,\"level\":\"%s\",\"message\":{\"text\":", idx,
					sarif_level(fd->severity));
			char msg[TFK_FINDING_PATH_MAX + 2 * TFK_FINDING_TEXT_MAX + 256];
			snprintf(msg, sizeof(msg), "%s%s%s%s%s%s%s%s", fd->path[0] ? "[" : "", fd->path, fd->path[0] ? "] " : "",
				 fd->fault->summary, fd->expected[0] ? "; expected " : "", fd->expected,
				 fd->found[0] ? "; found " : "", fd->found);
			str(&l, msg);
			tfk_line_printf(&l, "},\"locations\":[{\"physicalLocation\":{\"artifactLocation\":{");
			if (fd->member[0]) {
				/* inside a trace directory: the member file itself, offsets inside it */
				size_t len = strlen(names[f]) + strlen(fd->member) + 2;
				char *where = malloc(len);
				if (!where)
					return -1;
				snprintf(where, len, "%s/%s", names[f], fd->member);
				location(&l, where, srcroot);
				free(where);
				tfk_line_printf(&l, "},\"region\":{\"startLine\":1");
			} else {
				location(&l, names[f], srcroot);
				tfk_line_printf(&l, ",\"index\":%zu},\"region\":{\"startLine\":1", art[f]);
			}
			if (fd->has_offset)
				tfk_line_printf(&l, ",\"byteOffset\":%" PRIu64 ",\"byteLength\":%" PRIu64, fd->offset, fd->length);
			tfk_line_printf(&l, "}}");
			if (fd->path[0]) {
				tfk_line_printf(&l, ",\"logicalLocations\":[{\"fullyQualifiedName\":");
				str(&l, fd->path);
				tfk_line_printf(&l, "}]");
			}
			uint64_t h = fnv(0xcbf29ce484222325ull, fd->fault->id, strlen(fd->fault->id));
			h = fnv_u64(h, fd->offset);
			h = fnv_u64(h, fd->decoded_offset);
			h = fnv(h, fd->path, strlen(fd->path));
			if (fd->member[0])
				h = fnv(h, fd->member, strlen(fd->member));
			tfk_line_printf(&l, "}],\"partialFingerprints\":{\"tracefsckFinding/v1\":\"%016" PRIx64 "\"}", h);
			bool hazards = tfk_finding_hazard_count(fd) > 0;
			if (fd->in_decoded || hazards) {
				tfk_line_printf(&l, ",\"properties\":{");
				if (fd->in_decoded)
					tfk_line_printf(&l, "\"decodedOffset\":%" PRIu64, fd->decoded_offset);
				if (hazards) {
					tfk_line_printf(&l, "%s\"tags\":[\"security\"]", fd->in_decoded ? "," : "");
					tfk_line_json_hazards(&l, fd);
				}
				tfk_line_printf(&l, "}");
			}
			tfk_line_printf(&l, "}\n");
			if (flush(&l, write, user))
				return -1;
		}
	}
	if (invocation(&l, reports, names, n, art, opt, write, user) != 0)
		return -1;
	tfk_line_printf(&l, "}]}\n");
	return flush(&l, write, user);
}

int tfk_sink_sarif_run(const struct tfk_report *const *reports, const char *const *names, size_t n,
		       const struct tfk_sarif_options *opt, tfk_write_fn write, void *user)
{
	bool *first;
	size_t *art = artifact_indices(names, n, &first);
	if (!art)
		return -1;
	int rc = sarif_run(reports, names, n, art, first, opt, write, user);
	free(art);
	free(first);
	return rc;
}
