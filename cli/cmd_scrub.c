/* SPDX-License-Identifier: MIT */
/*
 * tracefsck scrub: a copy of a trace to share, its private strings replaced by keyed
 * pseudonyms (the library does the work; this parses the command line, makes or reads the
 * key, writes the copy and says what was replaced).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "tracefsck/scrub.h"
#include "tracefsck/tracefsck.h"

/*
 * The key of a key file: any file of at least 16 bytes (the first 4096 count), hashed into
 * the 16-byte key, so that a pass phrase or random bytes both serve. -1 when unusable.
 */
static int read_key_file(const char *path, uint8_t key[TFK_SCRUB_KEY_BYTES])
{
	uint8_t buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "tracefsck scrub: cannot read the key file %s: %s\n", path, strerror(errno));
		return -1;
	}
	size_t n = 0;
	while (n < sizeof(buf)) {
		ssize_t r = read(fd, buf + n, sizeof(buf) - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (n < TFK_SCRUB_KEY_BYTES) {
		fprintf(stderr, "tracefsck scrub: the key file %s holds fewer than %d bytes\n", path, TFK_SCRUB_KEY_BYTES);
		return -1;
	}
	uint8_t k0[TFK_SCRUB_KEY_BYTES] = { 0 }, k1[TFK_SCRUB_KEY_BYTES] = { 1 };
	uint64_t a = tfk_siphash(k0, buf, n), b = tfk_siphash(k1, buf, n);
	for (unsigned i = 0; i < 8; i++) {
		key[i] = (uint8_t)(a >> (8 * i));
		key[8 + i] = (uint8_t)(b >> (8 * i));
	}
	return 0;
}

static int random_key(uint8_t key[TFK_SCRUB_KEY_BYTES])
{
	size_t n = 0;
	while (n < TFK_SCRUB_KEY_BYTES) {
		ssize_t r = getrandom(key + n, TFK_SCRUB_KEY_BYTES - n, 0);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			fprintf(stderr, "tracefsck scrub: no random key: %s\n", strerror(errno));
			return -1;
		}
		n += (size_t)r;
	}
	return 0;
}

static int write_out(const char *path, bool force, const uint8_t *p, size_t n)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (force ? O_TRUNC : O_EXCL), 0644);
	if (fd < 0) {
		fprintf(stderr, "tracefsck scrub: cannot write %s: %s%s\n", path, strerror(errno),
			errno == EEXIST ? " (--force replaces it)" : "");
		return -1;
	}
	size_t done = 0;
	while (done < n) {
		ssize_t w = write(fd, p + done, n - done);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			fprintf(stderr, "tracefsck scrub: cannot write %s: %s\n", path, strerror(errno));
			close(fd);
			return -1;
		}
		done += (size_t)w;
	}
	if (fsync(fd) != 0 || close(fd) != 0) {
		fprintf(stderr, "tracefsck scrub: cannot write %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

int cmd_scrub(int argc, char **argv)
{
	const char *in = NULL, *out = NULL, *key_file = NULL, *profile = "public";
	bool json = false, quiet = false, force = false, repair = false;
	unsigned keep = 0;
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		if (strcmp(a, "-o") == 0 && i + 1 < argc)
			out = argv[++i];
		else if (strcmp(a, "--key-file") == 0 && i + 1 < argc)
			key_file = argv[++i];
		else if (strncmp(a, "--key-file=", 11) == 0)
			key_file = a + 11;
		else if (strcmp(a, "--profile") == 0 && i + 1 < argc)
			profile = argv[++i];
		else if (strncmp(a, "--profile=", 10) == 0)
			profile = a + 10;
		else if (strcmp(a, "--keep-paths") == 0)
			keep |= TFK_SCRUB_BIT(TFK_SCRUB_PATH);
		else if (strcmp(a, "--keep-tasks") == 0)
			keep |= TFK_SCRUB_BIT(TFK_SCRUB_TASK);
		else if (strcmp(a, "--keep-payloads") == 0)
			keep |= TFK_SCRUB_PAYLOADS;
		else if (strcmp(a, "--repair") == 0)
			repair = true;
		else if (strcmp(a, "--force") == 0)
			force = true;
		else if (strcmp(a, "--json") == 0)
			json = true;
		else if (strcmp(a, "-q") == 0 || strcmp(a, "--quiet") == 0)
			quiet = true;
		else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "tracefsck scrub: unknown option %s\n", a);
			usage();
			return EXIT_USAGE;
		} else if (!in) {
			in = a;
		} else {
			fprintf(stderr, "tracefsck scrub: one input only\n");
			return EXIT_USAGE;
		}
	}
	struct tfk_scrub_options opts;
	memset(&opts, 0, sizeof(opts));
	if (strcmp(profile, "public") == 0)
		opts.kinds = TFK_SCRUB_PUBLIC;
	else if (strcmp(profile, "identity") == 0)
		opts.kinds = TFK_SCRUB_IDENTITY;
	else {
		fprintf(stderr, "tracefsck scrub: unknown profile '%s' (identity or public)\n", profile);
		return EXIT_USAGE;
	}
	opts.kinds &= ~keep;
	opts.repair_first = repair;
	if (!in || !out) {
		fprintf(stderr, "tracefsck scrub: an input and -o OUT are needed\n");
		usage();
		return EXIT_USAGE;
	}
	if ((key_file ? read_key_file(key_file, opts.key) : random_key(opts.key)) != 0)
		return EXIT_OPERATIONAL;

	struct tfk_limits limits = tfk_limits_default();
	struct tfk_scrub_report rep;
	uint8_t *data = NULL;
	size_t len = 0;
	struct stat st;
	const bool dir = stat(in, &st) == 0 && S_ISDIR(st.st_mode);
	int dir_error = 0;
	if (dir) {
		/* a trace directory is scrubbed into a directory, built beside OUT and renamed into place */
		tfk_scrub_dir(in, out, &opts, &limits, &rep, &dir_error);
	} else {
		tfk_scrub_file(in, &opts, &limits, &data, &len, &rep);
	}
	struct tfk_sink_options sopt = { .min_severity = quiet ? TFK_SEV_ERROR : TFK_SEV_NOTE };
	int status;
	switch (rep.outcome) {
	case TFK_SCRUB_DONE:
		status = dir || write_out(out, force, data, len) == 0 ? (rep.repaired ? EXIT_REPAIRED : EXIT_CLEAN) : EXIT_OPERATIONAL;
		break;
	case TFK_SCRUB_REFUSED:
		/* the findings say why: the same lines check prints */
		if (json)
			tfk_sink_jsonl(&rep.before, in, &sopt, cli_write_stdout, NULL);
		else
			tfk_sink_text(&rep.before, in, &sopt, cli_write_stdout, NULL);
		status = EXIT_FAULTS;
		break;
	case TFK_SCRUB_UNSUPPORTED:
		status = EXIT_OPERATIONAL;
		break;
	default:
		if (dir_error) {
			fprintf(stderr, "tracefsck scrub: cannot write %s: %s\n", out,
				dir_error == EEXIST ? "it exists and is not an empty directory" : strerror(dir_error));
			status = EXIT_OPERATIONAL;
			break;
		}
		status = EXIT_INTERNAL;
		if (!json)
			tfk_sink_text(&rep.after, "(scrubbed output)", NULL, cli_write_stdout, NULL);
		break;
	}
	if (json)
		tfk_scrub_report_jsonl(&rep, in, cli_write_stdout, NULL);
	else if (!quiet || rep.outcome != TFK_SCRUB_DONE)
		tfk_scrub_report_text(&rep, in, cli_write_stdout, NULL);
	free(data);
	tfk_scrub_report_free(&rep);
	if (fflush(stdout) != 0)
		status |= EXIT_OPERATIONAL;
	return status;
}
