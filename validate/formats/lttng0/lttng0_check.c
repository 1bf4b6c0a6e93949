/* SPDX-License-Identifier: MIT */
/*
 * Legacy LTTng 0.x (LTTV era): a single tracefile (cpu_N, a control channel) or a trace
 * directory of them. Detection per spec §3.4: the magic 0x00D6B7ED read in either byte order at
 * block offset 40 (the 2008 layout) or 16 (LTF 2.x) decides the layout and the byte order.
 */
#include <string.h>

#include "lttng0.h"

static int l0_sniff(const struct tfk_cursor *file)
{
	bool be;
	int layout = l0_detect(file, 0, &be);
	if (!layout)
		return 0;
	/* The major version beside the magic makes it certain; a damaged one still checks as legacy. */
	uint8_t major = 0;
	tfk_cur_u8_at(file, layout == 1 ? 57 : 20, &major);
	return major == layout ? 100 : 60;
}

static void l0_check(struct tfk_ctx *ctx, const struct tfk_cursor *file)
{
	struct l0_trace t = { 0 };
	tfk_place_begin(&t.place);
	t.ref_member = "";
	t.channel = "";
	t.member = "";
	bool be = false;
	int layout = l0_detect(file, 0, &be);
	ctx->report->stats.format = layout == 2 ? (be ? "LTTng 0.x LTF 2.x (big-endian)" : "LTTng 0.x LTF 2.x")
						: (be ? "LTTng 0.x 2008 (big-endian)" : "LTTng 0.x 2008");
	ctx->report->stats.cpus = 1;
	l0_check_tracefile(ctx, file, &t, false);
	l0_markers_free(&t.markers);
}

static void l0_dictionary(tfk_token_fn emit, void *user)
{
	static const uint8_t le[4] = { 0xED, 0xB7, 0xD6, 0x00 }, be[4] = { 0x00, 0xD6, 0xB7, 0xED };
	emit(user, "lttng0_magic_le", le, 4);
	emit(user, "lttng0_magic_be", be, 4);
	static const uint8_t v10[2] = { 1, 0 }, v23[2] = { 2, 3 }, v24[2] = { 2, 4 }, v25[2] = { 2, 5 }, v26[2] = { 2, 6 };
	static const uint8_t ffff[2] = { 0xFF, 0xFF };
	emit(user, "lttng0_version_1_0", v10, 2);
	emit(user, "lttng0_version_2_3", v23, 2);
	emit(user, "lttng0_version_2_4", v24, 2);
	emit(user, "lttng0_version_2_5", v25, 2);
	emit(user, "lttng0_version_2_6", v26, 2);
	emit(user, "lttng0_size_escape", ffff, 2);
	static const uint8_t sizes[][4] = { { 0, 0x10, 0, 0 }, { 0, 0, 0x10, 0 }, { 0, 4, 0, 0 }, { 0, 0, 4, 0 } };
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		emit(user, "lttng0_block_size", sizes[i], 4);
	static const uint8_t esc[4][4] = { { 0, 0, 0, 0xE8 }, { 0, 0, 0, 0xF0 }, { 0xE8, 0, 0, 0 }, { 0xF0, 0, 0, 0 } };
	for (size_t i = 0; i < 4; i++)
		emit(user, "lttng0_event_escape", esc[i], 4);
	static const char *const names[] = { "cpu_", "control/", "facilities_", "metadata_", "compact", "flight-", "#p%lu", "#2u%u",
					     "#1u%zu" };
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		emit(user, "lttng0_name", names[i], strlen(names[i]));
}

const struct tfk_format tfk_format_lttng0 = {
	.name = "LTTng 0.x",
	.sniff = l0_sniff,
	.check = l0_check,
	.dictionary = l0_dictionary,
	.sniff_dir = l0_sniff_dir,
	.check_dir = l0_check_dir,
	.picture = l0_picture,
};
