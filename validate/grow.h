/* SPDX-License-Identifier: MIT */
/*
 * The one growable array of the tool: the check's tables, the unit lists, the directory
 * listings and repair's models all grow through it, so that overflow, zeroing and the
 * doubling rule are written once. tfk_grow (context.h) is this plus the check's accounting
 * (failure injection, the internal-error mark); repair's rp_grow adds its own budget.
 */
#ifndef TFK_GROW_H
#define TFK_GROW_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Make *array (holding *cap elements of elem_size bytes) hold at least need elements: the
 * capacity doubles from at least 8, and stops at max_elems when that is not 0. New elements
 * are zeroed. False, with *array and *cap unchanged, when need exceeds max_elems, the size
 * overflows or memory ran out. Callers keep *array in a void * (or pass &ptr of one), never
 * a pointer of another type cast to void **.
 */
bool tfk_array_grow(void **array, size_t *cap, size_t need, size_t elem_size, size_t max_elems);

#endif
