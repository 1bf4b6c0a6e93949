#!/bin/sh
# SPDX-License-Identifier: MIT
# A longer libFuzzer campaign of one harness on several cores; new inputs go to a work corpus,
# crashes to its artifacts folder. usage: fuzz/scripts/campaign.sh HARNESS SECONDS [JOBS]
set -u
# ASan's quarantine of freed memory (256 MiB by default) would count against -rss_limit_mb.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16:detect_leaks=1}"
h=$1 secs=$2 jobs=${3:-2}
cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j2 >/dev/null || exit 1
work=build/fuzz/campaign/$h
mkdir -p "$work/corpus" "$work/artifacts"
seeds=$(awk -v h="$h" '$1 == h { for (i = 2; i <= NF; i++) printf "corpus/%s ", $i }' corpus/MANIFEST)
for d in $seeds; do cp -n "$d"/* "$work/corpus/" 2>/dev/null; done
rm -f "$work/corpus/README.md"
# With -jobs, libFuzzer writes fuzz-N.log into the current folder: run from the work folder.
root=$(pwd)
cd "$work" || exit 1
exec "$root/build/fuzz/fuzz/fuzz_$h" -max_total_time="$secs" -jobs="$jobs" -workers="$jobs" -timeout=5 -rss_limit_mb=256 \
	-max_len=70000 -dict="$root/build/fuzz/fuzz/$h.dict" -print_final_stats=1 -artifact_prefix="artifacts/" corpus "$root/corpus/regress"
