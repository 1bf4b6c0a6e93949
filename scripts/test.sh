#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what is missing, then builds and runs the whole test suite:
#   gcc debug build + ctest, clang build and the release build of the shipped tool and its benchmark
#   (link-time optimised; warnings are errors in all), ASan+UBSan build + ctest,
#   Valgrind memcheck over the unit and end-to-end tests, ThreadSanitizer over the threaded CPU
#   walks, a short libFuzzer run per harness, the plug-in boundary (no format includes another's
#   folder) and each format built and tested alone.
set -u
cd "$(dirname "$0")/.."
./scripts/install-deps.sh || exit 1
passed=0 failed=0
start=$(date +%s)
step() { # step NAME COMMAND...: its outcome and how long it took, so a slow step shows
	name=$1; shift
	echo "=== $name"
	t=$(date +%s)
	if "$@"; then passed=$((passed + 1)); r=ok; else failed=$((failed + 1)); r=FAILED; fi
	echo "=== $name: $r ($(($(date +%s) - t)) s)"
}
build() { # build PRESET [--target T...]
	p=$1; shift
	cmake --preset "$p" >/dev/null && cmake --build --preset "$p" -j2 "$@"
}
step "plug-in boundary" ./scripts/check-boundary.sh
step "no merge-conflict markers" sh -c '! git grep -nE "^(<<<<<<<|>>>>>>>)( |$)" -- ":!corpus" ":!tests/data"'
step "build debug (gcc)" build debug
step "tests (gcc)" ctest --preset debug
step "build clang" build clang
# The tests are compiled by the gcc, clang and ASan builds already; linking each of them again
# with link-time optimisation only cost minutes, so the release build makes what ships.
step "build release (tool and benchmark)" build release --target tracefsck tracefsck-bench
step "build asan" build asan
step "tests (ASan + UBSan)" ctest --preset asan
step "valgrind memcheck" ./scripts/valgrind.sh build/debug
step "ThreadSanitizer (CPUs walked on worker threads)" ./scripts/tsan.sh
step "fuzz smoke (libFuzzer, 5000 inputs per harness)" ./fuzz/scripts/ci-smoke.sh 120 5000
step "each format alone (-DTFK_FORMATS=<format>)" ./scripts/per-format.sh
echo
echo "all steps: $(($(date +%s) - start)) s"
echo "steps: $passed passed, $failed failed"
[ "$failed" = 0 ]
