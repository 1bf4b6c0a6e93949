#!/bin/sh
# SPDX-License-Identifier: MIT
# A short libFuzzer run of every harness over its seed corpus, as CI does on every run.
# Anything found fails the run and the reproducer's path is printed. The run is deterministic
# (fixed seed, fixed number of inputs, capped by time), so what passes here passes in CI;
# longer, exploring runs are fuzz/scripts/campaign.sh.
# usage: fuzz/scripts/ci-smoke.sh [SECONDS_PER_HARNESS] [INPUTS_PER_HARNESS]   (from the project root)
set -u
# ASan's quarantine of freed memory (256 MiB by default) would count against -rss_limit_mb.
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16:detect_leaks=1}"
secs=${1:-120}
runs=${2:-5000}
cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j2 >/dev/null || { echo "FAIL: fuzz build"; exit 1; }
work=build/fuzz/smoke
rm -rf "$work"
fail=0
for h in $(awk '/^[a-z]/ { print $1 }' corpus/MANIFEST); do
	seeds=$(awk -v h="$h" '$1 == h { for (i = 2; i <= NF; i++) printf "corpus/%s ", $i }' corpus/MANIFEST)
	mkdir -p "$work/$h/corpus" "$work/$h/artifacts"
	for d in $seeds; do cp "$d"/* "$work/$h/corpus/" 2>/dev/null; done
	rm -f "$work/$h/corpus/README.md"
	build/fuzz/fuzz/fuzz_$h -seed=1 -runs="$runs" -max_total_time="$secs" -timeout=5 -rss_limit_mb=256 -max_len=70000 \
		-dict="build/fuzz/fuzz/$h.dict" -print_final_stats=1 -artifact_prefix="$work/$h/artifacts/" "$work/$h/corpus" > "$work/$h.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$h.log")
	found=$(ls "$work/$h/artifacts" 2>/dev/null)
	if [ "$rc" != 0 ] || [ -n "$found" ]; then
		echo "FAIL: fuzz_$h (exit $rc); reproducers:"; for f in $found; do echo "  $work/$h/artifacts/$f"; done
		tail -30 "$work/$h.log"; fail=1
	else
		echo "ok: fuzz_$h ran $execs inputs (cap ${secs}s), nothing found"
	fi
done
exit $fail
