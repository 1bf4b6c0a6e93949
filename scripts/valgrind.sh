#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the unit tests and the end-to-end tests of a build under Valgrind memcheck.
# Any memory error or leak fails the run. usage: scripts/valgrind.sh [BUILD_DIR]
set -u
build=${1:-build/debug}
export TFK_SAMPLES_WORK="$build/tests/samples"  # the kbuffer differential test reads them
vg="valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --track-origins=yes -q"
fail=0
# The unit tests ctest knows (not whatever else an old build left behind).
for name in $(ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: \(test_[a-z0-9_]*\)$/\1/p'); do
	t="$build/tests/$name"
	if $vg "$t" > "$build/valgrind-$(basename "$t").log" 2>&1; then
		echo "ok: valgrind $(basename "$t")"
	else
		echo "FAIL: valgrind $(basename "$t")"; tail -40 "$build/valgrind-$(basename "$t").log"; fail=1
	fi
done
TFK_WRAP="$vg" ctest --test-dir "$build" -R '^e2e_' --output-on-failure || fail=1
exit $fail
