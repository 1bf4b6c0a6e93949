#!/bin/sh
# SPDX-License-Identifier: MIT
# Executions per second of every harness on its seed corpus (one core each, one after the
# other), under the fuzz preset (ASan + UBSan) and without sanitizers; then the median and the
# lowest rate under the fuzz preset against #22's floors (median >= 2000, none under 1000).
# usage: fuzz/scripts/throughput.sh [SECONDS]
set -u
secs=${1:-30}
export ASAN_OPTIONS="${ASAN_OPTIONS:-quarantine_size_mb=16:detect_leaks=0}"
harnesses=$(awk '/^[a-z]/ { print $1 }' corpus/MANIFEST)
cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j2 >/dev/null || exit 1
plain=build/fuzz-plain
targets=$(for h in $harnesses; do printf 'fuzz_%s ' "$h"; done)
cmake -S . -B "$plain" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=RelWithDebInfo -DTFK_FUZZ=ON -DTFK_SANITIZE=OFF \
	-DTFK_BUILD_TESTS=OFF >/dev/null && cmake --build "$plain" -j2 --target $targets >/dev/null || exit 1
# (only the libFuzzer binaries: without a sanitizer runtime, the replay builds lack the coverage hooks)
printf '%-8s %16s %16s\n' harness "ASan+UBSan" "no sanitizer"
rates=$(mktemp)
# The run's corpus in memory where the machine has it: new units are written as they are found.
[ -z "${TMPDIR:-}" ] && [ -w /dev/shm ] && export TMPDIR=/dev/shm
for h in $harnesses; do
	line=$(printf '%-8s' "$h")
	for build in build/fuzz "$plain"; do
		work=$(mktemp -d)
		# The seeds: every folder of the harness but the fuzz-grown ones and the regressions.
		for d in $(awk -v h="$h" '$1 == h { for (i = 2; i <= NF; i++) if ($i !~ /-fuzz$|^regress$/) printf "corpus/%s ", $i }' corpus/MANIFEST); do
			cp "$d"/* "$work/" 2>/dev/null
		done
		rm -f "$work/README.md"
		"$build/fuzz/fuzz_$h" -artifact_prefix="$work/" -seed=1 -max_total_time="$secs" -timeout=5 -rss_limit_mb=512 -max_len=70000 \
			-dict="build/fuzz/fuzz/$h.dict" -print_final_stats=1 "$work" > "$work.log" 2>&1
		rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work.log" | tail -n 1)
		grep -q '^==[0-9]*==ERROR\|^fuzz oracle failed\|deadly signal' "$work.log" && rate="failed"
		[ "$build" = build/fuzz ] && echo "${rate:-0}" >> "$rates"
		line="$line $(printf '%16s' "${rate:-failed}")"
		rm -rf "$work" "$work.log"
	done
	printf '%s\n' "$line"
done
sort -n "$rates" | awk '{ v[NR] = $1 + 0 } END {
	m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
	printf "median under ASan+UBSan: %d executions/s (target >= 2000: %s); lowest: %d (target >= 1000: %s)\n",
		m, (m >= 2000 ? "met" : "MISSED"), v[1], (v[1] >= 1000 ? "met" : "MISSED") }'
rm -f "$rates"
