#!/bin/sh
# SPDX-License-Identifier: MIT
# The writers' own readers as oracles for tests/data/tracedat: each file tcV-* is read with
# trace-cmd V's `trace-cmd report` from WRITERS_DIR/prefix-trace-cmd-V/bin (built from its
# sources outside the project; the CMake cache path TFK_WRITERS_DIR, or the environment variable
# of that name), which must print what the README's "report prints" column says. Versions not
# installed are skipped; with none installed the test is skipped (exit 77).
# Then each extract is damaged (cut at 70%, 2 KiB zeroed at 80%), repaired, and the repaired
# file read by that trace-cmd, which must print exactly the events the salvage report kept.
# usage: writers_oracle.sh TRACEFSCK DATA_DIR WORK_DIR [WRITERS_DIR]
set -u
bin=$1 data=$2 work=$3 writers=${TFK_WRITERS_DIR:-${4:-}}
fail=0 ran=0
mkdir -p "$work" || exit 1
[ -n "$writers" ] && [ -d "$writers" ] || { echo "SKIP: no writers folder (TFK_WRITERS_DIR)"; exit 77; }
rows=$(grep '^| tc[0-9]' "$data/README.md")
while IFS='|' read -r _ file _ _ prints _ _ _; do
	file=$(echo $file) prints=$(echo $prints | sed 's/^\([0-9]*\).*/\1/')
	v=$(echo "$file" | sed 's/^tc\([0-9.]*\)-.*/\1/')
	tc="$writers/prefix-trace-cmd-$v/bin/trace-cmd"
	[ -x "$tc" ] || { echo "skip: $file (no trace-cmd $v at $tc)"; continue; }
	name=$(basename "$file" .xz)
	case "$file" in
	*.xz) xz -dc "$data/$file" > "$work/$name" || { echo "FAIL: cannot decompress $file"; fail=1; continue; } ;;
	*) cp "$data/$file" "$work/$name" ;;
	esac
	ran=$((ran + 1))
	got=$("$tc" report "$work/$name" 2> /dev/null | grep -vc '^cpus=\|^ *$')
	if [ "$got" != "$prints" ]; then
		echo "FAIL: $name: trace-cmd $v report prints $got events, the README says $prints"; fail=1
	else
		echo "ok: $name: trace-cmd $v report prints $got"
	fi
	case "$name" in *extract*) ;; *) continue ;; esac
	size=$(wc -c < "$work/$name")
	for damage in cut zero; do
		d="$work/$damage-$name"
		if [ $damage = cut ]; then
			head -c $((size * 7 / 10)) "$work/$name" > "$d"
		else
			cp "$work/$name" "$d" && dd if=/dev/zero of="$d" bs=1 seek=$((size * 8 / 10)) count=2048 conv=notrunc 2> /dev/null
		fi
		out=$("$bin" repair "$d" -o "$d.repaired" --force 2>&1)
		kept=$(printf '%s\n' "$out" | sed -n 's/.*total: kept \([0-9]*\) events.*/\1/p')
		[ -n "$kept" ] || { echo "ok: $damage-$name: nothing repaired"; continue; }
		read_back=$("$tc" report "$d.repaired" 2> /dev/null | grep -vc '^cpus=\|^ *$')
		if [ "$read_back" != "$kept" ]; then
			echo "FAIL: $damage-$name: repair kept $kept events, trace-cmd $v reads $read_back"; printf '%s\n' "$out"; fail=1
		else
			echo "ok: $damage-$name: repaired, trace-cmd $v reads the $kept events kept"
		fi
	done
done <<ROWS
$rows
ROWS
[ "$ran" -gt 0 ] || { echo "SKIP: no trace-cmd of these versions under $writers"; exit 77; }
exit $fail
