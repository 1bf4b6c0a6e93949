/* SPDX-License-Identifier: MIT */
/*
 * Directory inputs: listed without following links, bounded in members, members opened
 * beneath the directory; through a check, a link out of the directory and an unreadable
 * member are findings on that member.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "context.h"
#include "input.h"
#include "raised.h"
#include "test_hooks.h"
#include "pdw.h"
#include "tracefsck/tracefsck.h"

static char dir[256];

static void put(const char *name, const void *bytes, size_t n)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	FILE *f = fopen(path, "wb");
	assert_non_null(f);
	assert_int_equal(fwrite(bytes, 1, n, f), n);
	fclose(f);
}

static int make_dir(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/tfk-input-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "chmod -R u+rwx '%s' && rm -rf '%s'", dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int open_dir(void)
{
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	assert_true(fd >= 0);
	return fd;
}

/* Listed sorted, nothing followed; links kept as links with where they point. */
static void test_listing(void **state)
{
	(void)state;
	put("b", "bb", 2);
	put("a", "a", 1);
	char sub[300], link[300];
	snprintf(sub, sizeof(sub), "%s/sub", dir);
	assert_int_equal(mkdir(sub, 0755), 0);
	put("sub/c", "ccc", 3);
	snprintf(link, sizeof(link), "%s/out", dir);
	assert_int_equal(symlink("/etc/passwd", link), 0);
	snprintf(link, sizeof(link), "%s/sub/up", dir);
	assert_int_equal(symlink("../../x", link), 0);
	snprintf(link, sizeof(link), "%s/sub/in", dir);
	assert_int_equal(symlink("../a", link), 0);
	snprintf(link, sizeof(link), "%s/fifo", dir);
	assert_int_equal(mkfifo(link, 0600), 0);

	struct tfk_input in;
	assert_int_equal(tfk_input_list(&in, open_dir(), 100), 0);
	static const char *const want[] = { "a", "b", "fifo", "out", "sub", "sub/c", "sub/in", "sub/up" };
	assert_int_equal(in.n, 8);
	for (size_t i = 0; i < 8; i++)
		assert_string_equal(in.members[i].name, want[i]);
	assert_int_equal(tfk_input_find(&in, "sub/c")->size, 3);
	assert_int_equal(tfk_input_find(&in, "fifo")->kind, TFK_MEMBER_FIFO);
	const struct tfk_member *out = tfk_input_find(&in, "out"), *up = tfk_input_find(&in, "sub/up"),
				*inside = tfk_input_find(&in, "sub/in");
	assert_int_equal(out->kind, TFK_MEMBER_LINK);
	assert_true(out->target_outside);
	assert_true(up->target_outside);
	assert_false(inside->target_outside);
	assert_int_equal(in.total_size, 6);

	/* members are mapped beneath the directory; a link or a FIFO is never opened */
	struct tfk_member_map map;
	assert_int_equal(tfk_member_open(&in, tfk_input_find(&in, "sub/c"), &map), 0);
	assert_int_equal(map.size, 3);
	assert_memory_equal(map.data, "ccc", 3);
	tfk_member_close(&map);
	assert_int_equal(tfk_member_open(&in, out, &map), -1);
	assert_int_equal(tfk_member_open(&in, tfk_input_find(&in, "fifo"), &map), -1);
	/* a member replaced by a link after the listing is not followed */
	struct tfk_member fake = *tfk_input_find(&in, "sub/c");
	snprintf(fake.name, sizeof(fake.name), "sub/in");
	assert_int_equal(tfk_member_open(&in, &fake, &map), -1);
	assert_int_equal(errno, ELOOP);
	tfk_input_close(&in);

	/* bounded: no more members than asked for, and it says so */
	assert_int_equal(tfk_input_list(&in, open_dir(), 3), 0);
	assert_int_equal(in.n, 3);
	assert_true(in.too_many);
	tfk_input_close(&in);
}

static const struct tfk_finding *finding(const struct tfk_report *r, const char *code, const char *member)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->findings[i].fault->id, code) == 0 && strcmp(r->findings[i].member, member) == 0)
			return &r->findings[i];
	return NULL;
}

/* Another process appends to the member "data" of the directory arg once it is listed. */
static void grow_data(void *arg)
{
	char path[300];
	snprintf(path, sizeof(path), "%s/data", (const char *)arg);
	FILE *f = fopen(path, "ab");
	assert_non_null(f);
	fputs("more", f);
	fclose(f);
}

/* A member that cannot be read is not damage: a warning, and the verdict incomplete. */
static void test_member_unreadable(void **state)
{
	(void)state;
	struct tfk_report r;
	memset(&r, 0, sizeof(r));
	struct tfk_limits lim = tfk_limits_default();
	struct tfk_ctx ctx;
	tfk_ctx_init(&ctx, &lim, &r);
	tfk_member_unreadable(&ctx, "data.3", "record stream", EACCES);
	raised_note(&r);
	const struct tfk_finding *f = finding(&r, "core.input.member-unreadable", "data.3");
	assert_non_null(f);
	assert_non_null(strstr(f->found, "ermission"));
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
	tfk_report_free(&r);
}

/* Through a check of a perf.data directory: findings on the member they concern. */
static void test_directory_check(void **state)
{
	(void)state;
	struct pdw_spec spec = pdw_default_spec();
	struct tdw_buf b;
	struct pdw_layout layout;
	assert_int_equal(pdw_build(&spec, &b, &layout), 0);
	put("data", b.data, b.len);
	put("data.0", "", 0);
	put("data.1", "", 0);
	char path[300];
	snprintf(path, sizeof(path), "%s/escape", dir);
	assert_int_equal(symlink("../../../etc/shadow", path), 0);
	struct tfk_report r;
	tfk_check_file(dir, NULL, &r);
	raised_note(&r);
	assert_string_equal(r.stats.format, "perf.data directory");
	const struct tfk_finding *f = finding(&r, "core.input.link-outside", "escape");
	assert_non_null(f);
	assert_non_null(strstr(f->found, "etc/shadow"));
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN); /* a warning */
	tfk_report_free(&r);

	/* a FIFO no format reads is reported all the same, and never opened */
	snprintf(path, sizeof(path), "%s/channel", dir);
	assert_int_equal(mkfifo(path, 0644), 0);
	tfk_check_file(dir, NULL, &r);
	raised_note(&r);
	f = finding(&r, "core.input.member-special", "channel");
	assert_non_null(f);
	assert_non_null(strstr(f->found, "FIFO"));
	tfk_report_free(&r);
	unlink(path);

	/* a member written to while the directory is checked: core.input.changed on it */
	struct tfk_test_hooks hooks = { .loaded = grow_data, .loaded_arg = dir };
	struct tfk_limits lim = tfk_limits_default();
	lim.test_hooks = &hooks;
	tfk_check_file(dir, &lim, &r);
	raised_note(&r);
	assert_non_null(finding(&r, "core.input.changed", "data"));
	assert_true(r.incomplete);
	tfk_report_free(&r);
	put("data", b.data, b.len); /* as it was */
	tdw_free(&b);

	/* A member that cannot be examined (here: its path is longer than a member name may be,
	 * which even root cannot read around) is a finding on that member, and the check is
	 * incomplete; the rest is still checked. A path too long is this build's limit, never a
	 * fault of the trace: no error. */
	char deep[512];
	int len = snprintf(deep, sizeof(deep), "%s/", dir);
	for (int k = 0; k < 3; k++) {
		len += snprintf(deep + len, sizeof(deep) - (size_t)len, "%0100d", k);
		assert_int_equal(mkdir(deep, 0755), 0);
		deep[len++] = '/';
		deep[len] = '\0';
	}
	snprintf(deep + len, sizeof(deep) - (size_t)len, "trace.dat");
	FILE *fp = fopen(deep, "w");
	assert_non_null(fp);
	fclose(fp);
	tfk_check_file(dir, NULL, &r);
	raised_note(&r);
	const struct tfk_finding *io = NULL;
	for (size_t i = 0; i < r.count; i++)
		if (strcmp(r.findings[i].fault->id, "core.limit.reached") == 0 && strncmp(r.findings[i].member, "0000", 4) == 0)
			io = &r.findings[i];
	assert_non_null(io);
	assert_non_null(strstr(io->path, "path of a member"));
	assert_true(r.incomplete);
	assert_string_equal(r.stats.format, "perf.data directory");
	assert_int_equal(r.by_severity[TFK_SEV_ERROR], 0);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
	tfk_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_listing, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_directory_check, make_dir, remove_dir),
		cmocka_unit_test(test_member_unreadable),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
