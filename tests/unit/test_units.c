/* SPDX-License-Identifier: MIT */
/*
 * Trace units: a folder is searched for the traces in it, each a unit of its own; junk is a
 * note; a folder of junk holds no trace; an archive is unpacked (hostile members skipped) and
 * searched; a directory format's missing member is named; the scratch directory goes away.
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

#include "pdw.h"
#include "raised.h"
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

static void sub(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	assert_int_equal(mkdir(path, 0755), 0);
}

static int make_dir(void **state)
{
	(void)state;
	const char *tmp = getenv("TMPDIR");
	snprintf(dir, sizeof(dir), "%s/tfk-units-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int remove_dir(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

static const struct tfk_finding *finding(const struct tfk_report *r, const char *code)
{
	for (size_t i = 0; i < r->count; i++)
		if (strcmp(r->findings[i].fault->id, code) == 0)
			return &r->findings[i];
	return NULL;
}

/* Check unit i of units into r, noting the codes it raised. */
static void check(struct tfk_units *u, size_t i, struct tfk_report *r)
{
	tfk_check_unit(&u->v[i], NULL, NULL, r);
	raised_note(r);
}

static void perf_file(const char *name)
{
	struct pdw_spec spec = pdw_default_spec();
	struct tdw_buf b;
	struct pdw_layout layout;
	assert_int_equal(pdw_build(&spec, &b, &layout), 0);
	put(name, b.data, b.len);
	tdw_free(&b);
}

/* A folder of a trace, a perf.data directory without its header and junk: four units in name order. */
static void test_folder(void **state)
{
	(void)state;
	perf_file("a.perf.data");
	sub("b");
	sub("b/rec.perf.data");
	put("b/rec.perf.data/data.0", "x", 1);
	put("c.txt", "hello\n", 6);
	char link[300];
	snprintf(link, sizeof(link), "%s/d", dir);
	assert_int_equal(symlink("/etc/passwd", link), 0);
	struct tfk_units u;
	tfk_units_init(&u);
	assert_int_equal(tfk_units_add(&u, dir, NULL), 0);
	assert_int_equal(u.n, 4);
	char want[300];
	snprintf(want, sizeof(want), "%s/a.perf.data", dir);
	assert_string_equal(u.v[0].name, want);
	assert_int_equal(u.v[0].kind, TFK_UNIT_TRACE);
	snprintf(want, sizeof(want), "%s/b/rec.perf.data", dir);
	assert_string_equal(u.v[1].name, want);
	assert_int_equal(u.v[2].kind, TFK_UNIT_NOT_A_TRACE);
	assert_int_equal(u.v[3].kind, TFK_UNIT_NOT_A_TRACE);
	struct tfk_report r;
	check(&u, 0, &r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	tfk_report_free(&r);
	check(&u, 1, &r); /* the header "data" is gone: named, an error */
	const struct tfk_finding *f = finding(&r, "core.input.member-missing");
	assert_non_null(f);
	assert_string_equal(f->member, "data");
	assert_int_equal(f->severity, TFK_SEV_ERROR);
	tfk_report_free(&r);
	for (size_t i = 2; i < 4; i++) {
		check(&u, i, &r);
		assert_int_equal(r.count, 1);
		assert_string_equal(r.findings[0].fault->id, "core.input.not-a-trace");
		assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN); /* a note: no gate fails on it */
		tfk_report_free(&r);
	}
	tfk_units_free(&u);
}

/* A folder of junk holds no trace: its own unit says so, and the run is incomplete. */
static void test_no_trace(void **state)
{
	(void)state;
	put("notes.txt", "hello\n", 6);
	struct tfk_units u;
	tfk_units_init(&u);
	assert_int_equal(tfk_units_add(&u, dir, NULL), 0);
	assert_int_equal(u.n, 2);
	assert_int_equal(u.v[0].kind, TFK_UNIT_CONTAINER);
	assert_string_equal(u.v[0].name, dir);
	struct tfk_report r;
	check(&u, 0, &r);
	assert_non_null(finding(&r, "core.input.no-trace"));
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_INCOMPLETE);
	tfk_report_free(&r);
	tfk_units_free(&u);
}

/* An archive: its trace a unit named ARCHIVE/MEMBER; a member climbing out is skipped; no scratch left. */
static void test_archive(void **state)
{
	(void)state;
	sub("in");
	char saved[256];
	memcpy(saved, dir, sizeof(saved));
	snprintf(dir, sizeof(dir), "%s/in", saved);
	perf_file("t.perf.data");
	memcpy(dir, saved, sizeof(saved));
	char cmd[1200];
	/* tar's --transform gives a member a name that climbs out, as a hostile archive would */
	snprintf(cmd, sizeof(cmd),
		 "cd '%s/in' && tar cf ../up.tar t.perf.data && cp t.perf.data x && "
		 "tar rf ../up.tar --transform='s,^x$,../escaped,' x", dir);
	assert_int_equal(system(cmd), 0);
	char tmp[300], archive[300];
	snprintf(tmp, sizeof(tmp), "%s/scratch", dir);
	assert_int_equal(mkdir(tmp, 0700), 0);
	const char *was = getenv("TMPDIR");
	char *old = was ? strdup(was) : NULL;
	setenv("TMPDIR", tmp, 1);
	snprintf(archive, sizeof(archive), "%s/up.tar", dir);
	struct tfk_units u;
	tfk_units_init(&u);
	assert_int_equal(tfk_units_add(&u, archive, NULL), 0);
	assert_int_equal(u.n, 2);
	assert_int_equal(u.v[0].kind, TFK_UNIT_CONTAINER);
	char want[400];
	snprintf(want, sizeof(want), "%s/t.perf.data", archive);
	assert_string_equal(u.v[1].name, want);
	struct tfk_report r;
	check(&u, 0, &r);
	assert_non_null(finding(&r, "core.input.archive"));
	const struct tfk_finding *f = finding(&r, "core.archive.member-skipped");
	assert_non_null(f);
	assert_string_equal(f->member, "../escaped");
	tfk_report_free(&r);
	check(&u, 1, &r);
	assert_int_equal(tfk_report_verdict(&r), TFK_VERDICT_CLEAN);
	assert_string_equal(r.stats.format, "perf.data");
	tfk_report_free(&r);
	char escaped[300];
	snprintf(escaped, sizeof(escaped), "%s/escaped", dir);
	assert_int_equal(access(escaped, F_OK), -1);
	char scratch[sizeof(u.scratch)];
	memcpy(scratch, u.scratch, sizeof(scratch));
	assert_true(scratch[0] != '\0');
	tfk_units_free(&u);
	assert_int_equal(access(scratch, F_OK), -1); /* removed with the units */
	if (old)
		setenv("TMPDIR", old, 1);
	else
		unsetenv("TMPDIR");
	free(old);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_folder, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_no_trace, make_dir, remove_dir),
		cmocka_unit_test_setup_teardown(test_archive, make_dir, remove_dir),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
