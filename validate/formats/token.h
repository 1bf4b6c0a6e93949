/* SPDX-License-Identifier: MIT */
/* What a format gives the fuzzing dictionaries: labelled byte strings (see gen_dict). */
#ifndef TFK_FORMAT_TOKEN_H
#define TFK_FORMAT_TOKEN_H

#include <stddef.h>

/* Receives one dictionary token: a label and its bytes. */
typedef void (*tfk_token_fn)(void *user, const char *label, const void *bytes, size_t len);

#endif
