#!/bin/sh
# SPDX-License-Identifier: MIT
# Every pristine uftrace data directory (the samples recorded here, the foreign ones recorded
# elsewhere) checks clean (exit 0, no finding) and walks as many task records as
# `uftrace dump` prints (when uftrace is installed). Killed copies (no info) are corrupt
# with every record still walked.
# usage: uftrace.sh TRACEFSCK SHARED_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 shared=$2 work=$3
fail=0 ran=0
mkdir -p "$work"
for d in "$shared"/samples/uftrace/*.uftrace.data "$shared"/foreign/uftrace/*.uftrace.data; do
	[ -d "$d" ] || continue
	name=$(basename "$d")
	ran=$((ran + 1))
	out=$($wrap "$bin" check --json "$d"); rc=$?
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	if [ "$rc" != 0 ] || ! printf '%s' "$summary" | grep -q '"verdict":"clean"' || printf '%s' "$summary" | grep -q '"findings":[1-9]'; then
		echo "FAIL: $name: exit $rc"; printf '%s\n' "$out"; fail=1; continue
	fi
	events=$(printf '%s' "$summary" | sed 's/.*"events":\([0-9]*\).*/\1/')
	if command -v uftrace >/dev/null 2>&1; then
		want=$(uftrace dump -d "$d" 2>/dev/null | grep -c ' depth: ')
		if [ "$want" != "$events" ]; then
			echo "FAIL: $name: $events records walked, uftrace dump prints $want"; fail=1
		fi
	fi
	# The same directory as a killed recording leaves it: no info, a .channel FIFO.
	k="$work/$name.killed"
	rm -rf "$k" && mkdir -p "$k" && cp -R "$d/." "$k/" && chmod -R u+w "$k" && rm -f "$k/info" && mkfifo "$k/.channel"
	out=$($wrap "$bin" check --json "$k"); krc=$?
	ksum=$(printf '%s\n' "$out" | grep '"type":"summary"')
	kev=$(printf '%s' "$ksum" | sed 's/.*"events":\([0-9]*\).*/\1/')
	if [ "$krc" = 0 ] || ! printf '%s' "$ksum" | grep -q '"verdict":"corrupt"' || [ "$kev" != "$events" ] ||
	   ! printf '%s\n' "$out" | grep -q 'uftrace.info.missing' || ! printf '%s\n' "$out" | grep -q 'uftrace.channel.leftover'; then
		echo "FAIL: $name killed copy: exit $krc, $kev records"; printf '%s\n' "$out"; fail=1
	fi
	rm -rf "$k"
	echo "ok: $name clean, $events records"
done
if [ "$ran" = 0 ]; then
	echo "no uftrace data directories under $shared"; exit 77
fi
exit $fail
