/* SPDX-License-Identifier: MIT */
/* Names of option and section ids, and the fuzzing dictionary made of trace.dat's tokens. */
#include <stdio.h>
#include <string.h>

#include "tracedat.h"
#include "codec/codec.h"
#include "tracedat_tokens.h"

static const char *const option_names[TD_OPT_COUNT] = {
	"DONE", "DATE", "CPUSTAT", "BUFFER", "TRACECLOCK", "UNAME", "HOOK", "OFFSET", "CPUCOUNT", "VERSION",
	"PROCMAPS", "TRACEID", "TIME_SHIFT", "GUEST", "TSC2NSEC", "STRINGS", "HEADER_INFO", "FTRACE_EVENTS",
	"EVENT_FORMATS", "KALLSYMS", "PRINTK", "CMDLINES", "BUFFER_TEXT", "BTF_FILE", "LAST_BOOT_INFO", "MODULES_FILE",
};

const char *td_option_name(uint16_t id)
{
	return id < TD_OPT_COUNT ? option_names[id] : "unknown";
}

const char *td_section_name(uint16_t id)
{
	if (id == 0)
		return "OPTIONS";
	if (id == TD_OPT_BUFFER || (id >= TD_OPT_STRINGS && id <= TD_OPT_BUFFER_TEXT) || id == TD_OPT_BTF_FILE ||
	    id == TD_OPT_MODULES_FILE)
		return option_names[id];
	return "unknown";
}

static void emit_text(td_token_fn emit, void *user, const char *label, const char *text, size_t with_nul)
{
	emit(user, label, text, strlen(text) + with_nul);
}

/* A 16-bit id as stored little- and big-endian. */
static void emit_id16(td_token_fn emit, void *user, const char *kind, const char *name, uint16_t id)
{
	char label[64];
	uint8_t le[2] = { (uint8_t)id, (uint8_t)(id >> 8) }, be[2] = { (uint8_t)(id >> 8), (uint8_t)id };
	snprintf(label, sizeof(label), "%s_%s_le", kind, name);
	emit(user, label, le, 2);
	snprintf(label, sizeof(label), "%s_%s_be", kind, name);
	emit(user, label, be, 2);
}

void td_dictionary(td_token_fn emit, void *user)
{
	emit(user, "magic", TD_MAGIC, TD_MAGIC_LEN);
	emit_text(emit, user, "tag_header_page", TD_TAG_HEADER_PAGE, 1);
	emit_text(emit, user, "tag_header_event", TD_TAG_HEADER_EVENT, 1);
	emit_text(emit, user, "tag_options", TD_TAG_OPTIONS, 1);
	emit_text(emit, user, "tag_latency", TD_TAG_LATENCY, 1);
	emit_text(emit, user, "tag_flyrecord", TD_TAG_FLYRECORD, 1);

	static const struct { const char *label, *text; } keywords[] = {
		{ "kw_name", TD_KW_NAME }, { "kw_id", TD_KW_ID }, { "kw_format", TD_KW_FORMAT },
		{ "kw_field", TD_KW_FIELD }, { "kw_field_special", TD_KW_FIELD_SPECIAL },
		{ "kw_print_fmt", TD_KW_PRINT_FMT }, { "kw_data_loc", TD_KW_DATA_LOC },
		{ "kw_rel_loc", TD_KW_REL_LOC }, { "kw_offset", TD_KW_OFFSET }, { "kw_size", TD_KW_SIZE },
		{ "kw_signed", TD_KW_SIGNED }, { "kw_common", TD_KW_COMMON },
	};
	for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
		emit_text(emit, user, keywords[i].label, keywords[i].text, 0);

	for (uint16_t id = 0; id < TD_OPT_COUNT; id++)
		emit_id16(emit, user, "option", option_names[id], id);
	emit_id16(emit, user, "section", "OPTIONS", 0);

	for (int c = TFK_CODEC_NONE; c < TFK_CODEC_UNKNOWN; c++) {
		char label[32];
		snprintf(label, sizeof(label), "codec_%s", tfk_codec_name((enum tfk_codec)c));
		emit_text(emit, user, label, tfk_codec_name((enum tfk_codec)c), 1);
	}
	td_header_page_tokens(emit, user);
}
