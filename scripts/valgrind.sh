#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs the unit tests and the end-to-end tests of a build under Valgrind memcheck.
# Any memory error or leak fails the run. usage: scripts/valgrind.sh [BUILD_DIR]
# Two tests run at a time, on purpose: the machine is then as busy as a shared CI runner, and a
# test whose outcome depends on timing fails here first (and the step takes half the time).
set -u
build=${1:-build/debug}
jobs=${TFK_VALGRIND_JOBS:-2}
export TFK_SAMPLES_WORK="$build/tests/samples"  # the kbuffer differential test reads them
# (deep stacks: libtraceevent's own leaks are told apart by tep_parse_format among their callers)
supp="$(cd "$(dirname "$0")" && pwd)/valgrind-libtraceevent.supp"
vg="valgrind --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect --track-origins=yes -q --num-callers=40 --suppressions=$supp"
export vg build
fail=0
# The unit tests ctest knows (not whatever else an old build left behind).
ctest --test-dir "$build" -N | sed -n 's/^ *Test *#[0-9]*: \(test_[a-z0-9_]*\)$/\1/p' > "$build/valgrind-tests.txt"
# One line per test, "ok: ..." or "FAIL: ..." with the log's tail; a failing test fails the step.
xargs -P "$jobs" -I{} sh -c '
	log="$build/valgrind-{}.log"
	if $vg "$build/tests/{}" > "$log" 2>&1; then echo "ok: valgrind {}"
	else echo "FAIL: valgrind {}"; tail -40 "$log"; exit 1; fi' < "$build/valgrind-tests.txt" || fail=1
# The end-to-end tests labelled valgrind in tests/CMakeLists.txt (those that run tracefsck through TFK_WRAP).
TFK_WRAP="$vg" ctest --test-dir "$build" -L valgrind -j "$jobs" --output-on-failure || fail=1
exit $fail
