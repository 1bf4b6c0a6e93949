/* SPDX-License-Identifier: MIT */
/* The perf.data checker tests (every code they raise goes to the catalog coverage test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "tracedat_helpers.h"

int main(void)
{
	size_t n;
	const struct CMUnitTest *tests = perf_tests(&n);
	return _cmocka_run_group_tests("perf.data", tests, n, NULL, NULL);
}
