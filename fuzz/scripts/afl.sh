#!/bin/sh
# SPDX-License-Identifier: MIT
# Build the harnesses with AFL++ (afl-clang-fast, Debian package afl++) and run one.
# afl-clang-fast -fsanitize=fuzzer links AFL++'s persistent libFuzzer driver in place of
# libFuzzer, so the harness source is the same as for libFuzzer and replay.
# By default the build carries ASan + UBSan (a memory error must crash to be found);
# AFL_PLAIN=1 builds without sanitizers for throughput.
# usage: fuzz/scripts/afl.sh HARNESS SECONDS
set -u
h=$1 secs=$2
command -v afl-clang-fast >/dev/null || { echo "afl-clang-fast not found: apt-get install afl++"; exit 1; }
if [ "${AFL_PLAIN:-0}" = 1 ]; then out=build/afl-plain san=OFF; else out=build/afl san=ON; fi
cmake -S . -B "$out" -DCMAKE_C_COMPILER=afl-clang-fast -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFK_FUZZ=ON \
	-DTFK_SANITIZE=$san -DTFK_BUILD_TESTS=OFF -DTFK_WERROR=OFF >/dev/null &&
	cmake --build "$out" -j2 --target fuzz_$h fuzz-dicts >/dev/null || exit 1
work=$out/campaign/$h
mkdir -p "$work/in"
seeds=$(awk -v h="$h" '$1 == h { for (i = 2; i <= NF; i++) printf "corpus/%s ", $i }' corpus/MANIFEST)
for d in $seeds; do cp -n "$d"/* "$work/in/" 2>/dev/null; done
rm -f "$work/in/README.md"
# A resumed campaign continues from its queue (-i -).
in="$work/in"; [ -d "$work/out/default/queue" ] && in=-
dict=""; [ -f "$out/fuzz/$h.dict" ] && dict="-x $out/fuzz/$h.dict"
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=1:symbolize=0:detect_leaks=1:quarantine_size_mb=16}"
AFL_SKIP_CPUFREQ=1 AFL_NO_UI=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 \
	exec afl-fuzz -V "$secs" -m none -t 5000 $dict -i "$in" -o "$work/out" -- "$out/fuzz/fuzz_$h"
