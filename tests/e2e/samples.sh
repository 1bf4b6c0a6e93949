#!/bin/sh
# SPDX-License-Identifier: MIT
# Every pristine trace.dat sample (v6 and v7) and perf.data sample checks clean (exit 0, no error finding) and walks as many events as
# trace-cmd reports (the README's table, and trace-cmd itself when it is installed).
# usage: samples.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
# TFK_WRAP (e.g. valgrind) runs in front of every tracefsck invocation.
wrap=${TFK_WRAP:-}
bin=$1 samples=$2 work=$3
fail=0 ran=0
mkdir -p "$work"
if [ ! -d "$samples/tracedat" ]; then
	echo "no samples at $samples/tracedat"; exit 1
fi
for f in "$samples"/tracedat/*.dat*; do
	name=$(basename "$f" .xz)
	case "$f" in
	*.xz) xz -dc "$f" > "$work/$name" || { echo "FAIL: cannot decompress $f"; fail=1; continue; } ;;
	*) cp "$f" "$work/$name" ;;
	esac
	ran=$((ran + 1))
	out=$($wrap "$bin" check --json "$work/$name"); rc=$?
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	if [ "$rc" != 0 ] || ! printf '%s' "$summary" | grep -q '"verdict":"clean"' || printf '%s' "$summary" | grep -vq '"errors":0,'; then
		echo "FAIL: $name: exit $rc"; printf '%s\n' "$out"; fail=1; continue
	fi
	events=$(printf '%s' "$summary" | sed 's/.*"events":\([0-9]*\).*/\1/')
	# The README table: | file | version | compression | buffers | CPUs | events |
	want=$(grep "^| $name.xz \|^| $name " "$samples/README.md" | awk -F'|' '{gsub(/ /,"",$7); print $7}')
	if [ -n "$want" ] && [ "$events" != "$want" ]; then
		echo "FAIL: $name: $events events walked, README says $want"; fail=1
	fi
	if command -v trace-cmd >/dev/null 2>&1; then
		tc=$(trace-cmd report "$work/$name" 2>/dev/null | grep -vc '^cpus=\|^ *$')
		if [ "$tc" != "$events" ]; then
			echo "FAIL: $name: $events events walked, trace-cmd report prints $tc"; fail=1
		fi
	fi
	echo "ok: $name clean, $events events"
done
# perf.data samples: clean, with as many samples as perf script prints (when perf is installed).
for f in "$samples"/perf/*.perf.data; do
	[ -f "$f" ] || continue
	name=$(basename "$f")
	ran=$((ran + 1))
	out=$($wrap "$bin" check --json "$f"); rc=$?
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	if [ "$rc" != 0 ] || ! printf '%s' "$summary" | grep -q '"verdict":"clean"' || printf '%s' "$summary" | grep -q '"findings":[1-9]'; then
		echo "FAIL: $name: exit $rc"; printf '%s\n' "$out"; fail=1; continue
	fi
	events=$(printf '%s' "$summary" | sed 's/.*"events":\([0-9]*\).*/\1/')
	if command -v perf >/dev/null 2>&1 && perf script -G -i "$f" >/dev/null 2>&1; then
		ps=$(perf script -G -i "$f" 2>/dev/null | grep -c .)
		if [ "$ps" != "$events" ]; then
			echo "FAIL: $name: $events samples walked, perf script prints $ps"; fail=1
		fi
	fi
	echo "ok: $name clean, $events samples"
done
[ "$ran" -gt 0 ] || { echo "FAIL: no sample found"; exit 1; }
exit $fail
