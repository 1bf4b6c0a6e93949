/* SPDX-License-Identifier: MIT */
/*
 * File mappings that another process may shrink while a check reads them (a log rotated, an
 * upload replaced, `truncate` from elsewhere). A page of a mapping past the file's new end
 * raises SIGBUS when it is read; without a guard that ends the run (exit 135). A guarded
 * mapping's fault is caught instead: the pages from the faulting one to the mapping's end are
 * replaced by zeros, the read goes on, and the guard remembers it, so that the check reports
 * the input as changed (core.input.changed) and its verdict is incomplete.
 *
 * This is the library's one piece of process-wide state, by necessity: a signal's disposition
 * belongs to the process. The table of guarded ranges is fixed-size and lock-free (the handler
 * may run on any thread, at any moment); a mapping that finds no free slot is simply unguarded.
 * A SIGBUS outside every guarded range goes to the handler that was there before (or kills the
 * process, as it would have).
 */
#ifndef TFK_MAPGUARD_H
#define TFK_MAPGUARD_H

#include <stdbool.h>
#include <stddef.h>

/* Guard [addr, addr + len), a read-only mapping of a file. A slot (>= 0), or -1: unguarded. */
int tfk_mapguard_add(const void *addr, size_t len);
/* Has a read past the file's end been caught in that slot since it was added? */
bool tfk_mapguard_faulted(int slot);
/* Stop guarding (before the range is unmapped); returns tfk_mapguard_faulted. -1 is no slot. */
bool tfk_mapguard_remove(int slot);

/* Stop guarding the range that begins at addr, whatever its slot (nothing when none does). */
void tfk_mapguard_drop(const void *addr);

#endif
