#!/bin/sh
# SPDX-License-Identifier: MIT
# Sparse inputs stay sparse. A trace.dat v6 whose last CPU ends in a 1 GiB hole (tens of KB on
# disk): repair with nothing to repair writes nothing; with --always-write its copy keeps the
# hole (SEEK_DATA/SEEK_HOLE, copy_file_range); a repair of the same file cut short writes its
# zero pages as holes too. Disk use is asserted with du (KiB), never more than a few MB.
# usage: sparse_repair.sh TRACEFSCK TDW_MAKE WORK_DIR
set -u
bin=$1 tdw=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
kib() { du -k "$1" | cut -f1; }

"$tdw" sparse "$work/sparse.dat" 1 || exit 1
size=$(stat -c %s "$work/sparse.dat")
[ "$(kib "$work/sparse.dat")" -lt 4096 ] || { echo "SKIP: this file system does not keep holes"; exit 77; }

"$bin" repair -q "$work/sparse.dat" -o "$work/copy.dat" > "$work/repair.out" 2>&1; rc=$?
[ "$rc" = 0 ] && [ ! -e "$work/copy.dat" ] && ok "nothing to repair: no copy written" ||
	bad "nothing to repair: exit $rc, $(ls "$work")"

"$bin" repair -q --always-write "$work/sparse.dat" -o "$work/copy.dat" > "$work/repair.out" 2>&1; rc=$?
if [ "$rc" != 0 ] || [ ! -f "$work/copy.dat" ]; then
	bad "--always-write: exit $rc, no copy"; cat "$work/repair.out"
elif [ "$(stat -c %s "$work/copy.dat")" != "$size" ] || ! cmp -s "$work/sparse.dat" "$work/copy.dat"; then
	bad "--always-write: the copy differs from the input"
elif [ "$(kib "$work/copy.dat")" -ge 4096 ]; then
	bad "--always-write: the copy of $size bytes takes $(kib "$work/copy.dat") KiB on disk (holes filled)"
else
	ok "--always-write: a copy of $size bytes in $(kib "$work/copy.dat") KiB on disk"
fi

# cut inside the hole, 100 bytes into a page: the page is clipped, the zero pages before it kept
truncate -s $((size - 4096 * 1000 - 100)) "$work/sparse.dat"
"$bin" repair -q "$work/sparse.dat" -o "$work/fixed.dat" > "$work/repair.out" 2>&1; rc=$?
if [ "$rc" != 1 ] || [ ! -f "$work/fixed.dat" ]; then
	bad "repair of the cut file: exit $rc, expected 1"; cat "$work/repair.out"
elif [ "$(stat -c %s "$work/fixed.dat")" -lt $((size / 2)) ]; then
	bad "repair of the cut file: $(stat -c %s "$work/fixed.dat") bytes, the kept zero pages are missing"
elif [ "$(kib "$work/fixed.dat")" -ge 4096 ]; then
	bad "repair of the cut file: $(stat -c %s "$work/fixed.dat") bytes take $(kib "$work/fixed.dat") KiB on disk (holes filled)"
else
	ok "repair of the cut file: $(stat -c %s "$work/fixed.dat") bytes in $(kib "$work/fixed.dat") KiB on disk"
fi
rm -rf "$work"
exit $fail
