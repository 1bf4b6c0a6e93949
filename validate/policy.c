/* SPDX-License-Identifier: MIT */
/* A gate's policy: one entry per catalog code, default, disabled or a new severity. */
#include <stdlib.h>
#include <string.h>

#include "tracefsck/catalog.h"
#include "tracefsck/policy.h"

enum { RULE_DEFAULT = 0, RULE_DISABLED = 1, RULE_SEVERITY = 2 /* + severity */ };

struct tfk_policy {
	const struct tfk_fault *catalog;
	size_t count;
	unsigned char *rule; /* per catalog entry */
	bool fail_on_warning;
};

void tfk_policy_set_fail_on(struct tfk_policy *policy, enum tfk_severity level)
{
	if (policy)
		policy->fail_on_warning = level <= TFK_SEV_WARNING;
}

enum tfk_severity tfk_policy_fail_on(const struct tfk_policy *policy)
{
	return policy && policy->fail_on_warning ? TFK_SEV_WARNING : TFK_SEV_ERROR;
}

struct tfk_policy *tfk_policy_new(void)
{
	struct tfk_policy *p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->catalog = tfk_catalog(&p->count);
	p->rule = calloc(p->count ? p->count : 1, 1);
	if (!p->rule) {
		free(p);
		return NULL;
	}
	return p;
}

void tfk_policy_free(struct tfk_policy *policy)
{
	if (!policy)
		return;
	free(policy->rule);
	free(policy);
}

static bool matches(const char *id, const char *pattern)
{
	size_t n = strlen(pattern);
	if (n >= 2 && strcmp(pattern + n - 2, ".*") == 0)
		return strncmp(id, pattern, n - 1) == 0; /* the family prefix, dot included */
	return strcmp(id, pattern) == 0;
}

static unsigned set_rule(struct tfk_policy *policy, const char *pattern, unsigned char rule)
{
	unsigned hits = 0;
	if (!policy || !pattern)
		return 0;
	for (size_t i = 0; i < policy->count; i++) {
		if (matches(policy->catalog[i].id, pattern)) {
			policy->rule[i] = rule;
			hits++;
		}
	}
	return hits;
}

unsigned tfk_policy_disable(struct tfk_policy *policy, const char *pattern)
{
	return set_rule(policy, pattern, RULE_DISABLED);
}

unsigned tfk_policy_set_severity(struct tfk_policy *policy, const char *pattern, enum tfk_severity severity)
{
	if (severity > TFK_SEV_ERROR)
		return 0;
	return set_rule(policy, pattern, (unsigned char)(RULE_SEVERITY + severity));
}

bool tfk_policy_reports(const struct tfk_policy *policy, const struct tfk_fault *fault, enum tfk_severity *severity)
{
	*severity = fault->severity;
	if (!policy || fault < policy->catalog || fault >= policy->catalog + policy->count)
		return true;
	unsigned char r = policy->rule[fault - policy->catalog];
	if (r == RULE_DISABLED)
		return false;
	if (r >= RULE_SEVERITY)
		*severity = (enum tfk_severity)(r - RULE_SEVERITY);
	return true;
}

bool tfk_severity_from_name(const char *name, enum tfk_severity *severity)
{
	static const char *const names[] = { "note", "warning", "error" };
	for (int s = TFK_SEV_NOTE; s <= TFK_SEV_ERROR; s++) {
		if (name && strcmp(name, names[s]) == 0) {
			*severity = (enum tfk_severity)s;
			return true;
		}
	}
	return false;
}
