#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the harnesses with AFL++ (afl-clang-fast, Debian package afl++) and run one.
# The AFL build links the same harness source with the replay main, which AFL++'s
# persistent driver replaces (afl-clang-fast -fsanitize=fuzzer).
# usage: fuzz/scripts/afl.sh HARNESS SECONDS
set -u
h=$1 secs=$2
command -v afl-clang-fast >/dev/null || { echo "afl-clang-fast not found: apt-get install afl++"; exit 1; }
out=build/afl
cmake -S . -B "$out" -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFK_FUZZ=ON \
	-DTFK_BUILD_TESTS=OFF -DTFK_WERROR=OFF >/dev/null && cmake --build "$out" -j2 --target fuzz_$h >/dev/null || exit 1
work=$out/campaign/$h
mkdir -p "$work/in"
seeds=corpus/tracedat; [ "$h" = sinks ] && seeds=corpus/sinks; [ "$h" = format ] && seeds=corpus/format
cp -n "$seeds"/* "$work/in/" 2>/dev/null
AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
	exec afl-fuzz -V "$secs" -m none -t 5000 -i "$work/in" -o "$work/out" -- "$out/fuzz/fuzz_$h"
