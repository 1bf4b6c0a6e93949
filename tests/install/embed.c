/* SPDX-License-Identifier: MIT */
/*
 * A program embedding the installed library, built by e2e_install with pkg-config only.
 * It checks a file and prints one "CODE OFFSET SEVERITY" line per finding, then the verdict;
 * with a second argument, that code is disabled through a policy first.
 */
#include <stdio.h>
#include <tracefsck/tracefsck.h>

int main(int argc, char **argv)
{
	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: embed FILE [DISABLED_CODE]\n");
		return 2;
	}
	struct tfk_limits limits = tfk_limits_default();
	struct tfk_policy *policy = tfk_policy_new();
	if (!policy || (argc == 3 && tfk_policy_disable(policy, argv[2]) == 0))
		return 2;
	limits.policy = policy;
	struct tfk_report report;
	tfk_check_file(argv[1], &limits, &report);
	for (size_t i = 0; i < report.count; i++) {
		const struct tfk_finding *f = &report.findings[i];
		printf("%s %llu %s\n", f->fault->id, (unsigned long long)f->offset, tfk_severity_name(f->severity));
	}
	unsigned number = 0;
	const char *version = tfk_version(&number);
	if (number != TRACEFSCK_VERSION_NUMBER)
		return 3; /* the library it runs with is not the one it was built for */
	printf("verdict %s, %llu events, library %s\n", tfk_verdict_name(tfk_report_verdict(&report)),
	       (unsigned long long)report.stats.events, version);
	tfk_report_free(&report);
	tfk_policy_free(policy);
	return 0;
}
