/* SPDX-License-Identifier: MIT */
/* The library's own version, for a program that must know which one it was linked with at run time. */
#include "tracefsck/tracefsck.h"

const char *tfk_version(unsigned *number)
{
	if (number)
		*number = TRACEFSCK_VERSION_NUMBER;
	return TRACEFSCK_VERSION;
}
