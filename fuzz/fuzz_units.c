/* SPDX-License-Identifier: MIT */
/*
 * Fuzz harness: any bytes as an upload, the file a CI gate is handed (most often an archive:
 * tar, with gzip/xz/zstd/bzip2, zip, a single bzip2 file). The bytes are written to one file in
 * a private temporary directory and expanded into trace units as `tracefsck check` does, each
 * unit checked. Oracles: every unit is named beneath the operand; a unit's path is the operand
 * or lies inside the run's scratch directory (nothing unpacked anywhere else, whatever the
 * members' names, links or kinds); every finding names a catalog code; the scratch directory
 * is gone after tfk_units_free, and the temporary directory holds only the input afterwards.
 * Seeds: corpus/units (fuzz/scripts/units_seeds.py).
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_assert.h"
#include "tracefsck/tracefsck.h"

/* replay_main.c: a check of these bytes in memory would not unpack them as a check by path does */
extern const bool fuzz_inputs_are_uploads;
const bool fuzz_inputs_are_uploads = true;

static char dir[64];
static char input[96];

static void remove_at_exit(void)
{
	if (dir[0]) {
		unlink(input);
		rmdir(dir);
	}
}

static void write_input(const uint8_t *data, size_t size)
{
	if (!dir[0]) {
		snprintf(dir, sizeof(dir), "%s", "/tmp/tfk-fuzz-units-XXXXXX");
		FUZZ_ASSERT(mkdtemp(dir) != NULL);
		snprintf(input, sizeof(input), "%s/upload", dir);
		atexit(remove_at_exit);
	}
	int fd = open(input, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	FUZZ_ASSERT(fd >= 0);
	for (size_t done = 0; done < size;) {
		ssize_t w = write(fd, data + done, size - done);
		FUZZ_ASSERT(w > 0);
		done += (size_t)w;
	}
	FUZZ_ASSERT(close(fd) == 0);
}

/* Nothing but the input in the temporary directory: no member escaped the scratch directory. */
static void only_the_input_left(void)
{
	DIR *d = opendir(dir);
	FUZZ_ASSERT(d != NULL);
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		FUZZ_ASSERT(strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 || strcmp(e->d_name, "upload") == 0);
	closedir(d);
}

static bool beneath(const char *path, const char *root)
{
	size_t n = strlen(root);
	return n && strncmp(path, root, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	write_input(data, size);
	struct tfk_limits lim = tfk_limits_default();
	lim.parser_timeout_ms = 0; /* event formats parsed in process: no child per unit */
	lim.max_input_bytes = 4u << 20;
	lim.max_decoded = 4u << 20;
	lim.threads = 1;
	struct tfk_units units;
	tfk_units_init(&units);
	(void)tfk_units_add(&units, input, &lim);
	char scratch[sizeof units.scratch];
	memcpy(scratch, units.scratch, sizeof scratch);
	for (size_t i = 0; i < units.n; i++) {
		struct tfk_unit *u = &units.v[i];
		FUZZ_ASSERT(u->name && beneath(u->name, input));
		if (u->path)
			FUZZ_ASSERT(strcmp(u->path, input) == 0 || (scratch[0] && beneath(u->path, scratch)));
		if (u->kind == TFK_UNIT_NOT_A_TRACE)
			continue;
		struct tfk_report r;
		tfk_check_unit(u, &lim, NULL, &r);
		for (size_t k = 0; k < r.count; k++)
			FUZZ_ASSERT(r.findings[k].fault != NULL && tfk_catalog_find(r.findings[k].fault->id) == r.findings[k].fault);
		FUZZ_ASSERT(r.count <= lim.max_findings);
		tfk_report_free(&r);
	}
	tfk_units_free(&units);
	struct stat st;
	if (scratch[0])
		FUZZ_ASSERT(lstat(scratch, &st) != 0);
	only_the_input_left();
	return 0;
}
