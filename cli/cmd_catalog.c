/* SPDX-License-Identifier: MIT */
/* tracefsck problems / explain: the fault catalog, for people and for tools. */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "tracefsck/tracefsck.h"

static void json_string(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			printf("\\%c", *s);
		else if ((unsigned char)*s < 0x20)
			printf("\\u%04x", (unsigned char)*s);
		else
			putchar(*s);
	}
	putchar('"');
}

int cmd_problems(int argc, char **argv)
{
	bool json = argc > 1 && strcmp(argv[1], "--json") == 0;
	if (argc > 2 || (argc == 2 && !json)) {
		usage();
		return EXIT_USAGE;
	}
	size_t n;
	const struct tfk_fault *cat = tfk_catalog(&n);
	for (size_t i = 0; i < n; i++) {
		if (json) {
			printf("{\"code\":");
			json_string(cat[i].id);
			printf(",\"severity\":\"%s\",\"repair\":\"%s\",\"summary\":", tfk_severity_name(cat[i].severity),
			       tfk_repair_action_name(cat[i].repair));
			json_string(cat[i].summary);
			printf(",\"help\":");
			json_string(cat[i].help);
			printf("}\n");
		} else {
			printf("%-34s %-7s %s\n", cat[i].id, tfk_severity_name(cat[i].severity), cat[i].summary);
		}
	}
	return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_OPERATIONAL;
}

int cmd_explain(int argc, char **argv)
{
	if (argc != 2) {
		usage();
		return EXIT_USAGE;
	}
	const struct tfk_fault *f = tfk_catalog_find(argv[1]);
	if (!f) {
		fprintf(stderr, "tracefsck explain: no such code '%s' (see 'tracefsck problems')\n", argv[1]);
		return EXIT_USAGE;
	}
	printf("%s (%s)\n  %s\n\n%s\n\nRepair: %s\n", f->id, tfk_severity_name(f->severity), f->summary, f->help,
	       tfk_repair_action_name(f->repair));
	return fflush(stdout) == 0 ? EXIT_CLEAN : EXIT_OPERATIONAL;
}
