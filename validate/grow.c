/* SPDX-License-Identifier: MIT */
#include "grow.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

bool tfk_array_grow(void **array, size_t *cap, size_t need, size_t elem_size, size_t max_elems)
{
	if (need <= *cap)
		return true;
	if (max_elems && need > max_elems)
		return false;
	size_t ncap = *cap > 8 ? *cap : 8;
	while (ncap < need)
		if (__builtin_mul_overflow(ncap, (size_t)2, &ncap))
			return false;
	if (max_elems && ncap > max_elems)
		ncap = max_elems;
	size_t bytes;
	if (!elem_size || __builtin_mul_overflow(ncap, elem_size, &bytes))
		return false;
	void *p = realloc(*array, bytes);
	if (!p)
		return false;
	memset((char *)p + *cap * elem_size, 0, (ncap - *cap) * elem_size);
	*array = p;
	*cap = ncap;
	return true;
}
