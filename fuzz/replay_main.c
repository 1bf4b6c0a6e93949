/* SPDX-License-Identifier: MIT */
/*
 * Replays files and folders of inputs through a fuzz harness, so any compiler can run the
 * corpus as an ordinary test. usage: REPLAY PATH... (folders are read one level deep)
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_assert.h"
#include "tracefsck/tracefsck.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * A file checked by path (mapped, ring pages read into a buffer by descriptor, walked pages
 * handed back to the kernel), on one thread or three, says exactly what the same bytes
 * checked in memory say: the oracle for the file entry point.
 */
static void same_by_path(const char *path, const uint8_t *data, size_t size)
{
	struct tfk_limits lim = tfk_limits_default();
	lim.parser_timeout_ms = 0;
	lim.max_decoded = 16u << 20;
	struct tfk_report b;
	tfk_check_buffer(data, size, &lim, &b);
	for (uint32_t threads = 1; threads <= 3; threads += 2) {
		struct tfk_report a;
		lim.threads = threads;
		tfk_check_file(path, &lim, &a);
		FUZZ_ASSERT(a.count == b.count && a.total == b.total && a.stats.events == b.stats.events);
		FUZZ_ASSERT(a.stats.pages == b.stats.pages && a.stats.cpus == b.stats.cpus);
		for (size_t i = 0; i < a.count; i++) {
			const struct tfk_finding *x = &a.findings[i], *y = &b.findings[i];
			FUZZ_ASSERT(x->fault == y->fault && x->offset == y->offset && x->length == y->length);
			FUZZ_ASSERT(strcmp(x->path, y->path) == 0 && strcmp(x->expected, y->expected) == 0 &&
				    strcmp(x->found, y->found) == 0);
		}
		tfk_report_free(&a);
	}
	tfk_report_free(&b);
}

/*
 * A harness whose inputs are uploads, not trace bytes (units: archives and compressed files,
 * which a check by path unpacks or decompresses and a check of the bytes in memory does not)
 * defines this as true: the file entry point's oracle does not apply to its inputs.
 */
__attribute__((weak)) extern const bool fuzz_inputs_are_uploads;

#define REPLAY_MAX_INPUT (64u << 20)

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return 1;
	}
	uint8_t *buf = malloc(REPLAY_MAX_INPUT);
	size_t n = buf ? fread(buf, 1, REPLAY_MAX_INPUT, f) : 0;
	fclose(f);
	if (!buf)
		return 1;
	/* An exact-size copy, so that reading one byte past the input is caught. */
	uint8_t *exact = malloc(n ? n : 1);
	memcpy(exact, buf, n);
	free(buf);
	LLVMFuzzerTestOneInput(exact, n);
	if (n < REPLAY_MAX_INPUT && !(&fuzz_inputs_are_uploads && fuzz_inputs_are_uploads))
		same_by_path(path, exact, n);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	int failed = 0;
	unsigned count = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) != 0) {
			perror(argv[i]);
			failed = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			failed |= replay_file(argv[i]);
			count++;
			continue;
		}
		DIR *d = opendir(argv[i]);
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL) {
			if (e->d_name[0] == '.' || strstr(e->d_name, ".txt") || strstr(e->d_name, ".md"))
				continue;
			char path[4096];
			snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
			if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
				failed |= replay_file(path);
				count++;
			}
		}
		if (d)
			closedir(d);
	}
	printf("replayed %u inputs\n", count);
	return failed || count == 0;
}
