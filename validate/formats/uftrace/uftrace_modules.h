/* SPDX-License-Identifier: MIT */
/*
 * A record's function, as uftrace 0.13 finds it: the session maps (sid-<sid>.map: the first
 * mapping of a path is its module's base), the module's <basename>.sym (sorted, each
 * symbol running to the next or to a '?' end marker) and its <basename>.dbg (argument specs
 * by function offset). Only what the recording holds: a module without its .sym, whose
 * symbols uftrace would read from the library on the replaying machine, resolves nothing.
 */
#ifndef TFK_UFTRACE_MODULES_H
#define TFK_UFTRACE_MODULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "uftrace.h"

struct uf_modules;

/* A function found: its module, its offset there and its name (valid while the tables live). */
struct uf_function {
	size_t module;
	uint64_t offset; /* the symbol's address in the module */
	const char *name;
	size_t name_len;
};

/*
 * The maps of the sessions task.txt names (st->sids). NULL when there are none, when memory
 * ran out (an internal error is reported) or when the recording's symbols are not of a form
 * followed here (a symbol size field, absolute addresses).
 */
struct uf_modules *uf_modules_new(struct tfk_ctx *ctx, const struct uf_state *st, const struct tfk_input *in);
/*
 * The function holding addr in every session that maps it. 1: found, the same in all; 0: no
 * session maps it; -2: mapped in a module whose symbols were read, and no symbol holds it
 * (fn->module names the module; uftrace finds no function there); -1: unknown (a module
 * without its .sym, sessions disagreeing, a table that could not be read).
 */
int uf_modules_find(struct tfk_ctx *ctx, struct uf_modules *mods, uint64_t addr, struct uf_function *fn);
/* The .dbg spec text of the function at offset of module (A: for args, R: for retval), or NULL. */
const char *uf_modules_dbg_spec(const struct uf_modules *mods, size_t module, uint64_t offset, bool retval,
				size_t *len);
/* Does the module's .dbg hold any A: (args) or R: (retval) line? */
bool uf_modules_dbg_has(const struct uf_modules *mods, size_t module, bool retval);
void uf_modules_free(struct uf_modules *mods);

#endif
