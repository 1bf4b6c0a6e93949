#!/bin/sh
# SPDX-License-Identifier: MIT
# trace.dat files written by trace-cmd 3.2 to 3.4 (tests/data/tracedat, each described in its
# README): every one checks clean (exit 0, verdict clean, no error), walks exactly the events
# the README's table says the file holds, and reports exactly the findings the table lists.
# usage: writers.sh TRACEFSCK DATA_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-} # e.g. valgrind, in front of every tracefsck invocation
bin=$1 data=$2 work=$3
fail=0 ran=0
mkdir -p "$work" || exit 1
# | file | trace-cmd | command | report prints | events | findings |
rows=$(grep '^| tc[0-9]' "$data/README.md")
[ -n "$rows" ] || { echo "FAIL: no rows in $data/README.md"; exit 1; }
while IFS='|' read -r _ file _ _ _ events findings _; do
	file=$(echo $file) events=$(echo $events) findings=$(echo $findings | sed 's/^–$//')
	f="$data/$file"
	[ -f "$f" ] || { echo "FAIL: $file listed but missing"; fail=1; continue; }
	name=$(basename "$file" .xz)
	case "$file" in
	*.xz) xz -dc "$f" > "$work/$name" || { echo "FAIL: cannot decompress $file"; fail=1; continue; } ;;
	*) cp "$f" "$work/$name" ;;
	esac
	ran=$((ran + 1))
	out=$($wrap "$bin" check --json "$work/$name"); rc=$?
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	if [ "$rc" != 0 ] || ! printf '%s' "$summary" | grep -q '"verdict":"clean"' || ! printf '%s' "$summary" | grep -q '"errors":0,'; then
		echo "FAIL: $name: exit $rc"; printf '%s\n' "$out"; fail=1; continue
	fi
	got=$(printf '%s' "$summary" | sed 's/.*"events":\([0-9]*\).*/\1/')
	if [ "$got" != "$events" ]; then
		echo "FAIL: $name: $got events walked, the README says $events"; fail=1
	fi
	codes=$(printf '%s\n' "$out" | grep -o '"code":"[^"]*"' | sed 's/"code":"//; s/"$//' | sort -u | tr '\n' ' ' | sed 's/ $//')
	want=$(printf '%s\n' $findings | sort -u | tr '\n' ' ' | sed 's/ $//')
	if [ "$codes" != "$want" ]; then
		echo "FAIL: $name: findings [$codes], the README says [$want]"; printf '%s\n' "$out"; fail=1; continue
	fi
	echo "ok: $name clean, $got events${codes:+, $codes}"
done <<ROWS
$rows
ROWS
[ "$ran" -gt 0 ] || { echo "FAIL: no file checked"; exit 1; }
exit $fail
