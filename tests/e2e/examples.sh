#!/bin/sh
# SPDX-License-Identifier: MIT
# The example traces shipped in examples/ are exactly what the fixture writer produces.
# usage: examples.sh TDW_MAKE EXAMPLES_DIR WORK_DIR
set -u
make=$1 dir=$2 work=$3
mkdir -p "$work"
fail=0
for kind in clean damaged; do
	"$make" $kind "$work/$kind.v6.dat" || { echo "FAIL: tdw-make $kind"; fail=1; continue; }
	if cmp "$work/$kind.v6.dat" "$dir/$kind.v6.dat"; then
		echo "ok: examples/$kind.v6.dat is current"
	else
		echo "FAIL: examples/$kind.v6.dat differs from tdw-make $kind"; fail=1
	fi
done
exit $fail
