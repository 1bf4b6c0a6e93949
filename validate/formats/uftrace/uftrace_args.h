/* SPDX-License-Identifier: MIT */
/*
 * The length of a record's arguments or return value from its function's spec, as uftrace
 * 0.13's replay computes it (read_task_args): the function found through the session maps
 * and symbol files, its specs gathered from info's argspec/retspec and, with auto-args, from
 * the .dbg file or the argauto/retauto lists, each argument 4-byte aligned (a string: a
 * u16 length and its bytes), the whole 8-byte aligned. Where a step cannot be followed
 * exactly the answer is UF_ARGLEN_GUESS, and the walk guesses the length as it always did.
 */
#ifndef TFK_UFTRACE_ARGS_H
#define TFK_UFTRACE_ARGS_H

#include <stdbool.h>
#include <stdint.h>

#include "uftrace.h"

struct uf_args;

enum uf_arglen {
	UF_ARGLEN_GUESS,    /* not known here: guess it */
	UF_ARGLEN_KNOWN,    /* *len bytes */
	UF_ARGLEN_NO_SPEC,  /* the function has no spec: uftrace fails on the record */
	UF_ARGLEN_NO_SYMBOL, /* no symbol of its module's .sym holds the address: uftrace fails likewise */
	UF_ARGLEN_PAST_END, /* the spec's strings run past the end of the file */
	UF_ARGLEN_TOO_LONG, /* longer than libmcount ever writes (its argument buffer) */
};

/* The spec of a recording with arguments or return values, or NULL (lengths are guessed). */
struct uf_args *uf_args_new(struct tfk_ctx *ctx, const struct uf_state *st, const struct tfk_input *in);
/*
 * The payload after the ENTRY (retval false) or EXIT (retval true) record for function
 * address addr, starting at member offset at, read from the bytes v views (file_len: the
 * member's size). *fn: the function's slot, for uf_args_confirm / uf_args_trusted.
 */
enum uf_arglen uf_args_length(struct tfk_ctx *ctx, struct uf_args *a, uint64_t addr, bool retval,
			      const struct tfk_cursor *v, uint64_t at, uint64_t file_len, uint64_t *len, size_t *fn);
/*
 * A length the spec gave was followed by a record (confirm) or was not (refute: the spec is
 * not what uftrace recorded with, and the function's lengths are guessed from then on). A
 * spec confirmed once is trusted: a later record it does not fit is damaged.
 */
void uf_args_confirm(struct uf_args *a, size_t fn, bool retval);
void uf_args_refute(struct uf_args *a, size_t fn, bool retval);
bool uf_args_trusted(const struct uf_args *a, size_t fn, bool retval);
/* The function's name, for a finding ("" when unknown). */
const char *uf_args_name(const struct uf_args *a, size_t fn);
void uf_args_free(struct uf_args *a);

#endif
