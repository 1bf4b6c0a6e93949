/* SPDX-License-Identifier: MIT */
/* RUNNING_ON_VALGRIND from Valgrind's header when it is installed, else 0 (never under it). */
#ifndef TFK_TEST_UNDER_VALGRIND_H
#define TFK_TEST_UNDER_VALGRIND_H

#if defined(__has_include)
#if __has_include(<valgrind/valgrind.h>)
#include <valgrind/valgrind.h>
#endif
#endif
#ifndef RUNNING_ON_VALGRIND
#define RUNNING_ON_VALGRIND 0
#endif

#endif
