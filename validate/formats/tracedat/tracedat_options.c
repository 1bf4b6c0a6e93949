/* SPDX-License-Identifier: MIT */
/* Option payload rules (spec 1.8). Shared by v6 and v7; each rule says what readers trip on. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tracedat.h"
#include "shared/ftrace/ftrace_observe.h"
#include "tracedat_tokens.h"
#include "writer_version.h"

#define TEXT_MAX 4096 /* option strings parsed here are short; longer ones are only bounds-checked */

struct opt {
	struct td_check *td;
	uint16_t id;
	uint64_t at;  /* offset of the option's id field */
	const struct tfk_cursor *payload;
};

static struct tfk_finding *opt_fault(const struct opt *o, enum tfk_fault_code code, uint64_t off, uint64_t len)
{
	const struct tfk_pctx pc = { .tmpl = "option %s (id %u)", .str = { td_option_name(o->id) }, .num = { o->id } };
	return tfk_raise(o->td->ctx, &pc, code, off, len, NULL);
}

static void bad_size(const struct opt *o, const char *expected)
{
	struct tfk_finding *f = opt_fault(o, TFK_TRACEDAT_OPTION_BAD_SIZE, o->at + 2, 4);
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "%llu bytes", (unsigned long long)o->payload->len);
}

static void bad_payload(const struct opt *o, const char *expected, const char *found)
{
	struct tfk_finding *f = opt_fault(o, TFK_TRACEDAT_OPTION_BAD_PAYLOAD, o->payload->origin, o->payload->len);
	tfk_set_expected(f, "%s", expected);
	tfk_set_found(f, "%s", found);
}

/*
 * The payload must be one C string: its last byte is the NUL. On success *text is a bounded,
 * NUL-terminated copy (truncated at TEXT_MAX for parsing) and *len the string length.
 */
static bool payload_cstr(const struct opt *o, char *text, size_t cap, uint64_t *len)
{
	const uint8_t *p;
	uint64_t n = o->payload->len;
	if (n == 0 || !tfk_cur_bytes_at(o->payload, 0, n, &p) || p[n - 1] != 0) {
		bad_payload(o, "a NUL-terminated string", n == 0 ? "an empty payload" : "no NUL at its end");
		return false;
	}
	*len = strnlen((const char *)p, (size_t)n);
	size_t copy = *len < cap - 1 ? (size_t)*len : cap - 1;
	memcpy(text, p, copy);
	text[copy] = '\0';
	return true;
}

static bool is_integer(const char *s)
{
	char *end;
	if (!*s)
		return false;
	(void)strtoll(s, &end, 0);
	while (*end == ' ' || *end == '\n')
		end++;
	return end != s && *end == '\0';
}

/* "[sys:]event,match[,pid]/[sys:]event,match[,flags]" (trace-hooks.c grammar). */
static bool hook_half_ok(const char *s, size_t n)
{
	size_t commas = 0, colon = 0, tok = 0;
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c == ',') {
			if (tok == 0)
				return false;
			commas++;
			tok = 0;
		} else if (c == ':' && commas == 0) {
			if (tok == 0 || colon)
				return false;
			colon++;
			tok = 0;
		} else if (isspace((unsigned char)c) || !isprint((unsigned char)c)) {
			return false;
		} else {
			tok++;
		}
	}
	return tok > 0 && commas >= 1 && commas <= 2;
}

static void check_hook(const struct opt *o, const char *text)
{
	const char *slash = strchr(text, '/');
	if (!slash || strchr(slash + 1, '/') || !hook_half_ok(text, (size_t)(slash - text)) ||
	    !hook_half_ok(slash + 1, strlen(slash + 1)))
		bad_payload(o, "\"[sys:]event,match[,pid]/[sys:]event,match[,flags]\"", "text of another shape");
}

/* "<pid hex> <nlibs hex> <comm>\n" then nlibs lines "<start hex> <end hex> <path>\n". */
static void check_procmaps(const struct opt *o, const char *text, uint64_t len)
{
	char found[64];
	unsigned long long pid, nlibs;
	char comm[64];
	if (len >= TEXT_MAX)
		return; /* long maps are only bounds-checked */
	if (sscanf(text, "%llx %llx %63s", &pid, &nlibs, comm) != 3) {
		bad_payload(o, "\"<pid> <nlibs> <comm>\" on the first line", "no such line");
		return;
	}
	unsigned long long lines = 0;
	for (const char *p = text; *p; p++)
		lines += *p == '\n';
	if (lines < nlibs + 1) {
		snprintf(found, sizeof(found), "%llu lines after the first", lines ? lines - 1 : 0);
		char expected[64];
		snprintf(expected, sizeof(expected), "%llu library lines", nlibs);
		bad_payload(o, expected, found);
	}
}

static void check_time_shift(const struct opt *o)
{
	const struct tfk_cursor *p = o->payload;
	uint32_t ncpu = 0;
	if (p->len < 16) {
		bad_size(o, "at least 16 bytes");
		return;
	}
	tfk_cur_u32_at(p, 12, &ncpu);
	uint64_t pos = 16, samples = 0;
	for (uint32_t cpu = 0; cpu < ncpu; cpu++) {
		uint32_t count;
		uint64_t bytes;
		if (!tfk_cur_u32_at(p, pos, &count) || !tfk_mul_u64(count, 24, &bytes) ||
		    !tfk_range_fits(pos + 4, bytes, p->len)) {
			char found[80];
			snprintf(found, sizeof(found), "%u CPUs; CPU %u's samples run past %llu bytes", ncpu, cpu,
				 (unsigned long long)p->len);
			bad_payload(o, "per-CPU sample counts that fit the payload", found);
			return;
		}
		pos += 4 + bytes;
		samples += count;
	}
	/* Newer writers append count u64 fraction bits per CPU. */
	uint64_t rest = p->len - pos;
	if (rest != 0 && rest != samples * 8) {
		char found[80];
		snprintf(found, sizeof(found), "%llu trailing bytes", (unsigned long long)rest);
		char expected[80];
		snprintf(expected, sizeof(expected), "0 or %llu bytes of fraction bits", (unsigned long long)(samples * 8));
		bad_payload(o, expected, found);
	}
}

static void check_guest(const struct opt *o)
{
	struct tfk_cursor c = *o->payload;
	const char *name;
	uint64_t len, id;
	uint32_t ncpu;
	if (tfk_cur_cstr(&c, o->td->ctx->limits->max_string, &name, &len) != TFK_CSTR_OK) {
		bad_payload(o, "a NUL-terminated guest name", "no NUL within the payload");
		return;
	}
	if (!tfk_cur_u64(&c, &id) || !tfk_cur_u32(&c, &ncpu)) {
		bad_size(o, "guest name, u64 trace id and u32 CPU count");
		return;
	}
	uint64_t need = (uint64_t)ncpu * 8;
	if (tfk_cur_left(&c) != need) {
		char found[80], expected[80];
		snprintf(expected, sizeof(expected), "%llu bytes of vCPU entries for %u vCPUs", (unsigned long long)need,
			 ncpu);
		snprintf(found, sizeof(found), "%llu bytes", (unsigned long long)tfk_cur_left(&c));
		bad_payload(o, expected, found);
		return;
	}
	for (uint32_t i = 0; i < ncpu; i++) {
		uint32_t vcpu = 0, pid = 0;
		if (!tfk_cur_u32(&c, &vcpu) || !tfk_cur_u32(&c, &pid))
			return; /* cannot happen: the entries' size was checked above */
		if ((int32_t)vcpu < 0 || vcpu >= ncpu) {
			struct tfk_finding *f = opt_fault(o, TFK_TRACEDAT_OPTION_BAD_PAYLOAD, tfk_cur_abs(&c) - 8, 4);
			tfk_set_expected(f, "a vCPU id from 0 to %u", ncpu - 1);
			tfk_set_found(f, "%d", (int32_t)vcpu);
			return;
		}
	}
}

static void check_buffer_v6(const struct opt *o)
{
	struct td_check *td = o->td;
	struct tfk_cursor c = *o->payload;
	uint64_t offset, len;
	const char *name;
	if (!tfk_cur_u64(&c, &offset) || tfk_cur_left(&c) == 0) {
		bad_size(o, "u64 offset and a NUL-terminated name (at least 9 bytes)");
		return;
	}
	if (tfk_cur_cstr(&c, td->ctx->limits->max_string, &name, &len) != TFK_CSTR_OK) {
		bad_payload(o, "a NUL-terminated instance name", "no NUL within the payload");
		return;
	}
	void *arr = td->dat->instances;
	if (!tfk_grow(td->ctx, &arr, &td->dat->instances_cap, td->dat->ninstances + 1, sizeof(struct td_instance)))
		return;
	td->dat->instances = arr;
	struct td_instance *in = &td->dat->instances[td->dat->ninstances++];
	in->offset = offset;
	in->opt_offset = o->at;
	tfk_sanitize(in->name, sizeof(in->name), name, len);
}

static void check_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload);

void td_check_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload)
{
	uint64_t before = td_errors(td);
	td_obs_item(td, TFK_ITEM_OPTION, opt_offset, 6 + payload->len, id, td_option_name(id), "%llu bytes",
		    (unsigned long long)payload->len);
	check_option(td, id, opt_offset, payload);
	const uint8_t *p;
	if (td_errors(td) == before && td_obs(td) && td_obs(td)->option &&
	    tfk_cur_bytes_at(payload, 0, payload->len, &p))
		td_obs(td)->option(td_obs(td)->user, id, p, (uint32_t)payload->len);
}

/*
 * LAST_BOOT_INFO (trace-cmd 3.4): "instance:content", the persistent ring buffer's record of
 * the boot it was written in (its kernel and module addresses). The events of that instance are
 * from the previous boot: their times and addresses are not this file's other data's, which is
 * no fault; said once, as a note.
 */
static void check_last_boot(const struct opt *o)
{
	char text[TEXT_MAX];
	uint64_t len;
	if (!payload_cstr(o, text, sizeof(text), &len))
		return;
	const char *colon = strchr(text, ':');
	if (!colon) {
		bad_payload(o, "\"instance:boot information\"", "no ':' after an instance name");
		return;
	}
	char inst[64];
	tfk_sanitize(inst, sizeof(inst), text, (size_t)(colon - text));
	o->td->dat->last_boot = true;
	struct tfk_finding *f = opt_fault(o, TFK_TRACEDAT_OPTION_LAST_BOOT, o->at, 6 + o->payload->len);
	tfk_set_expected(f, "events of the boot that wrote the file");
	tfk_set_found(f, "instance [%s] holds the previous boot's persistent ring buffer", inst);
}

static void check_option(struct td_check *td, uint16_t id, uint64_t opt_offset, const struct tfk_cursor *payload)
{
	struct opt o = { td, id, opt_offset, payload };
	char text[TEXT_MAX];
	uint64_t len;

	if (td->version == 6 && (id == TD_OPT_BTF_FILE || id == TD_OPT_MODULES_FILE) && payload->len == 8 &&
	    td->dat->writer[0] && tfk_version_cmp(td->dat->writer, "3.4") >= 0) {
		/* trace-cmd 3.4's convert copies these v7 options, offsets and all, into a v6 file. */
		struct tfk_finding *f = opt_fault(&o, TFK_TRACEDAT_WRITER_V6_SECTION_OPTION, opt_offset, 6 + payload->len);
		tfk_set_expected(f, "no %s option in a v6 file (it has no sections)", td_option_name(id));
		tfk_set_found(f, "one, written by trace-cmd %s", td->dat->writer);
		return;
	}
	if (id >= TD_OPT_COUNT || id == TD_OPT_STRINGS ||
	    (td->version == 6 && id >= TD_OPT_STRINGS && id != TD_OPT_LAST_BOOT_INFO)) {
		struct tfk_finding *f = opt_fault(&o, TFK_TRACEDAT_OPTION_UNKNOWN, opt_offset, 6 + payload->len);
		tfk_set_expected(f, "an option id of trace.dat v%u (1..%u)", td->version, td->version == 6 ? 14 : 25);
		tfk_set_found(f, "%u%s%s", id, id < TD_OPT_COUNT ? (id == TD_OPT_STRINGS ? ", a section id, " : ", a v7-only ") : "",
			      id < TD_OPT_COUNT ? td_option_name(id) : "");
		return;
	}
	switch (id) {
	case TD_OPT_DATE:
	case TD_OPT_OFFSET:
		if (payload_cstr(&o, text, sizeof(text), &len) && !is_integer(text))
			bad_payload(&o, "an integer (decimal or 0x hex)", "text that is not a number");
		break;
	case TD_OPT_CPUSTAT:
		if (payload_cstr(&o, text, sizeof(text), &len)) {
			if (strncmp(text, "\nBuffer:", 8) == 0) {
				td->dat->cpustat_instances = true;
			} else if (!td->dat->cpustat_instances) {
				if (td->dat->top_cpustats++ == 0)
					td->dat->first_cpustat = opt_offset;
			}
		}
		break;
	case TD_OPT_UNAME:
		payload_cstr(&o, text, sizeof(text), &len);
		break;
	case TD_OPT_VERSION:
		/* The writer's version keys the writer-quirk table (quirks.def). */
		if (payload_cstr(&o, text, sizeof(text), &len))
			tfk_sanitize(td->dat->writer, sizeof(td->dat->writer), text, strlen(text));
		break;
	case TD_OPT_TRACECLOCK:
		/* Size 0 is accepted by readers, which then parse a malloc(0) block (a note);
		 * otherwise a string naming the clock in brackets. */
		td->dat->have_traceclock = true;
		if (!payload->len) {
			struct tfk_finding *f = opt_fault(&o, TFK_TRACEDAT_OPTION_EMPTY_CLOCK, o.at, 6);
			tfk_set_expected(f, "the selected clock in brackets, e.g. \"[local] global ...\"");
			tfk_set_found(f, "0 bytes");
		}
		if (payload->len && payload_cstr(&o, text, sizeof(text), &len)) {
			const char *lb = strchr(text, '['), *rb = lb ? strchr(lb, ']') : NULL;
			if (!lb || !rb || rb == lb + 1)
				bad_payload(&o, "the selected clock in brackets, e.g. \"[local] global ...\"",
					    "no bracketed clock name");
			else if ((size_t)(rb - lb - 1) < sizeof(td->dat->clock))
				snprintf(td->dat->clock, sizeof(td->dat->clock), "%.*s", (int)(rb - lb - 1), lb + 1);
		}
		break;
	case TD_OPT_HOOK:
		if (payload_cstr(&o, text, sizeof(text), &len))
			check_hook(&o, text);
		break;
	case TD_OPT_PROCMAPS:
		if (payload_cstr(&o, text, sizeof(text), &len))
			check_procmaps(&o, text, len);
		break;
	case TD_OPT_CPUCOUNT:
		if (payload->len != 4) {
			bad_size(&o, "4 bytes");
		} else {
			tfk_cur_u32_at(payload, 0, &td->dat->cpucount);
			td->dat->have_cpucount = true;
			td->dat->cpucount_offset = payload->origin;
		}
		break;
	case TD_OPT_TRACEID:
		if (payload->len != 8)
			bad_size(&o, "8 bytes");
		break;
	case TD_OPT_TSC2NSEC:
		if (payload->len != 16) {
			bad_size(&o, "16 bytes");
		} else {
			uint32_t shift = 0;
			tfk_cur_u32_at(payload, 4, &shift);
			if (shift >= 32) {
				struct tfk_finding *f = opt_fault(&o, TFK_TRACEDAT_OPTION_BAD_PAYLOAD, payload->origin + 4, 4);
				tfk_set_expected(f, "a shift below 32");
				tfk_set_found(f, "%u", shift);
			}
		}
		break;
	case TD_OPT_TIME_SHIFT:
		check_time_shift(&o);
		break;
	case TD_OPT_GUEST:
		check_guest(&o);
		break;
	case TD_OPT_BUFFER:
		if (td->version == 6)
			check_buffer_v6(&o);
		else
			td_v7_buffer_option(td, id, opt_offset, payload);
		break;
	case TD_OPT_BUFFER_TEXT:
		td_v7_buffer_option(td, id, opt_offset, payload);
		break;
	case TD_OPT_LAST_BOOT_INFO:
		check_last_boot(&o);
		break;
	case TD_OPT_HEADER_INFO:
	case TD_OPT_BTF_FILE:
	case TD_OPT_MODULES_FILE:
	case TD_OPT_FTRACE_EVENTS:
	case TD_OPT_EVENT_FORMATS:
	case TD_OPT_KALLSYMS:
	case TD_OPT_PRINTK:
	case TD_OPT_CMDLINES:
		if (payload->len != 8)
			bad_size(&o, "8 bytes");
		else
			td_v7_section_option(td, id, opt_offset, payload);
		break;
	default:
		break;
	}
}
