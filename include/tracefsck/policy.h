/* SPDX-License-Identifier: MIT */
/*
 * A gate's policy: fault codes switched off and severities changed. It applies as findings
 * are made, so counts, verdict and every output agree; the checker's own decisions (what is
 * trusted, what repair keeps) still follow the catalog. Pass it in tfk_limits.policy.
 */
#ifndef TRACEFSCK_POLICY_H
#define TRACEFSCK_POLICY_H

#include <stdbool.h>

#include "tracefsck/finding.h"

#ifdef __cplusplus
extern "C" {
#endif

struct tfk_policy;

/* An empty policy (every code at its catalog severity), or NULL when out of memory. */
struct tfk_policy *tfk_policy_new(void);
void tfk_policy_free(struct tfk_policy *policy);

/*
 * pattern is a catalog id ("tracedat.cpu.overlap") or a family ending in ".*"
 * ("tracedat.format.*"). Both return how many codes the pattern matched; 0 means none
 * matched (an unknown code) and the policy is unchanged. A later rule overrides an earlier.
 */
unsigned tfk_policy_disable(struct tfk_policy *policy, const char *pattern);
unsigned tfk_policy_set_severity(struct tfk_policy *policy, const char *pattern, enum tfk_severity severity);

/*
 * The severity from which findings fail the gate: TFK_SEV_ERROR (the default) or
 * TFK_SEV_WARNING, with which warnings make the verdict "failed" (tfk_report_verdict).
 */
void tfk_policy_set_fail_on(struct tfk_policy *policy, enum tfk_severity level);
enum tfk_severity tfk_policy_fail_on(const struct tfk_policy *policy); /* NULL policy: TFK_SEV_ERROR */

/* Whether the policy reports fault at all, and at which severity (*severity set when true). */
bool tfk_policy_reports(const struct tfk_policy *policy, const struct tfk_fault *fault, enum tfk_severity *severity);

/* "note", "warning", "error" -> severity; false for anything else. */
bool tfk_severity_from_name(const char *name, enum tfk_severity *severity);

#ifdef __cplusplus
}
#endif
#endif
