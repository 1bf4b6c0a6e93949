/* SPDX-License-Identifier: MIT */
#include "writer_version.h"

#include <stddef.h>

#define PART_CAP 1000000000u

/* The next dotted part of *s (0 when there is none), leaving *s after it and its dot. */
static unsigned next_part(const char **s)
{
	unsigned v = 0;
	const char *p = *s;
	if (!p || *p < '0' || *p > '9') {
		*s = NULL; /* the numbers ended: every further part is 0 */
		return 0;
	}
	while (*p >= '0' && *p <= '9') {
		v = v < PART_CAP / 10 ? v * 10 + (unsigned)(*p - '0') : PART_CAP; /* never above the cap */
		p++;
	}
	*s = *p == '.' ? p + 1 : NULL;
	return v;
}

int tfk_version_cmp(const char *a, const char *b)
{
	if (a && (*a == 'v' || *a == 'V'))
		a++;
	if (b && (*b == 'v' || *b == 'V'))
		b++;
	/* Four parts cover every writer's scheme (major.minor.patch[.extra]). */
	for (int i = 0; i < 4; i++) {
		unsigned x = next_part(&a), y = next_part(&b);
		if (x != y)
			return x < y ? -1 : 1;
	}
	return 0;
}

bool tfk_version_between(const char *v, const char *min, const char *max)
{
	if (min && *min && tfk_version_cmp(v, min) < 0)
		return false;
	if (max && *max && tfk_version_cmp(v, max) > 0)
		return false;
	return true;
}
