/* SPDX-License-Identifier: MIT */
/* The trace.dat checker tests (every code they raise goes to the catalog coverage test). */
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
	size_t n6, n7, nq;
	const struct CMUnitTest *v6 = tracedat_v6_tests(&n6), *v7 = tracedat_v7_tests(&n7), *q = tracedat_quirks_tests(&nq);
	int failed = _cmocka_run_group_tests("trace.dat v6", v6, n6, NULL, NULL);
	failed += _cmocka_run_group_tests("trace.dat v7", v7, n7, NULL, NULL);
	failed += _cmocka_run_group_tests("trace.dat writers", q, nq, NULL, NULL);
	return failed;
}
