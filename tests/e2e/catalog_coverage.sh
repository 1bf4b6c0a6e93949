#!/bin/sh
# SPDX-License-Identifier: MIT
# Every fault code in the catalog, whatever its format, is raised by at least one unit test:
# the unit test programs append the codes they saw to RAISED_DIR/codes (tests/unit/raised.c).
# usage: catalog_coverage.sh TRACEFSCK RAISED_DIR
set -u
bin=$1 dir=$2
[ -s "$dir/codes" ] || { echo "FAIL: no unit test wrote $dir/codes (run the unit tests first: ctest runs them before this)"; exit 1; }
"$bin" problems | awk '{print $1}' | sort -u > "$dir/catalog"
sort -u "$dir/codes" > "$dir/raised"
missing=$(comm -23 "$dir/catalog" "$dir/raised")
unknown=$(comm -13 "$dir/catalog" "$dir/raised")
fail=0
for c in $missing; do echo "FAIL: no unit test raises $c"; fail=1; done
for c in $unknown; do echo "FAIL: a unit test raised $c, which the catalog does not list"; fail=1; done
[ "$fail" = 0 ] && echo "ok: all $(wc -l < "$dir/catalog") catalog codes are raised by the unit tests"
exit $fail
