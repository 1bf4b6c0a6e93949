/* SPDX-License-Identifier: MIT */
/* A strict, minimal JSON Lines validator for the sink oracles (objects of strings, numbers, null, booleans). */
#ifndef TFK_JSON_LINES_H
#define TFK_JSON_LINES_H

#include <stddef.h>

/* 1 if text is zero or more lines, each one JSON object of ASCII text; *lines counts them. */
int json_lines_valid(const char *text, size_t len, size_t *lines);

#endif
