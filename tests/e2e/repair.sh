#!/bin/sh
# SPDX-License-Identifier: MIT
# Repair end to end on damaged copies of the real samples: the output re-checks clean, the
# real reader (trace-cmd report, when installed) reads it and shows exactly the events the
# salvage report (repair --json) says were kept, and repairing the output again changes
# nothing (exit 0, identical bytes). A cut that leaves no event is "nothing salvaged" (exit 4),
# and its output still re-checks clean.
# usage: repair.sh TRACEFSCK SAMPLES_WORK_DIR WORK_DIR
set -u
bin=$1 samples=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1 # repair -o refuses to replace an earlier run's outputs
fail=0 ran=0
events_of() { "$bin" check --json "$1" | sed -n 's/.*"type":"summary".*"events":\([0-9]*\).*/\1/p'; }
# patch FILE OFFSET HEXBYTES: overwrite bytes in place
patch() { printf "$(printf '%s' "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }

for f in "$samples"/*.dat; do
	[ -f "$f" ] || continue
	name=$(basename "$f" .dat)
	size=$(stat -c %s "$f")
	for damage in cut99 cut90 cut60 tail1000 commit zero4k flips; do
		d="$work/$name.$damage.dat" out="$work/$name.$damage.fixed.dat"
		case $damage in
		cut99) head -c $((size * 99 / 100)) "$f" > "$d" ;;
		cut90) head -c $((size * 90 / 100)) "$f" > "$d" ;;
		cut60) head -c $((size * 60 / 100)) "$f" > "$d" ;;
		tail1000) head -c $((size - 1000)) "$f" > "$d" ;;
		commit)
			# the last page of the file (raw data in v6/v7-none; compressed bytes otherwise)
			cp "$f" "$d"; chmod u+w "$d"
			patch "$d" $(( (size / 4096 - 1) * 4096 + 8 )) ffffffffffffff7f ;;
		zero4k)
			# a lost disk block near the end (inside the ring data of every sample)
			cp "$f" "$d"; chmod u+w "$d"
			dd if=/dev/zero of="$d" bs=4096 seek=$(( size / 4096 - 3 )) count=1 conv=notrunc status=none ;;
		flips)
			# single bits flipped at fixed places through the file
			cp "$f" "$d"; chmod u+w "$d"
			python3 - "$d" <<'PY'
import sys
p = sys.argv[1]
d = bytearray(open(p, "rb").read())
for k in range(1, 9):
    i = len(d) * k // 9 + 1234
    d[i] ^= 1 << (k % 8)
open(p, "wb").write(d)
PY
			;;
		esac
		ran=$((ran + 1))
		"$bin" repair -q --json "$d" -o "$out" > "$work/log" 2>&1; rc=$?
		salvage=$(grep '"type":"salvage"' "$work/log")
		kept=$(printf '%s' "$salvage" | sed -n 's/.*"events_kept":\([0-9]*\).*/\1/p')
		if [ "$rc" = 4 ] && [ "$kept" = 0 ] && printf '%s' "$salvage" | grep -q '"outcome":"nothing-salvaged"'; then
			"$bin" check -q "$out" > /dev/null 2>&1 || { echo "FAIL: $name $damage: nothing-salvaged output not clean"; fail=1; continue; }
			echo "ok: $name $damage: no event survived (exit 4), the metadata left re-checks clean"; continue
		fi
		if [ "$rc" != 1 ] && [ "$rc" != 0 ]; then
			echo "FAIL: $name $damage: repair exit $rc"; cat "$work/log"; fail=1; continue
		fi
		[ "$rc" = 0 ] && { echo "ok: $name $damage: nothing to repair"; continue; }
		"$bin" check -q "$out" > "$work/log" 2>&1 || { echo "FAIL: $name $damage: output not clean"; cat "$work/log"; fail=1; continue; }
		ours=$(events_of "$out")
		if [ "$ours" != "$kept" ]; then
			echo "FAIL: $name $damage: the salvage report says $kept events kept, the output holds $ours"; fail=1; continue
		fi
		"$bin" repair -q --always-write "$out" -o "$out.again" > /dev/null 2>&1; rc2=$?
		if [ "$rc2" != 0 ] || ! cmp -s "$out" "$out.again"; then
			echo "FAIL: $name $damage: second repair exit $rc2 or changed the file"; fail=1
		fi
		if command -v trace-cmd >/dev/null 2>&1; then
			theirs=$(trace-cmd report "$out" 2>/dev/null | grep -v '^cpus=\|^ *$\|EVENTS DROPPED' | wc -l)
			if [ "$theirs" != "$ours" ]; then
				echo "FAIL: $name $damage: trace-cmd report shows $theirs events, tracefsck kept $ours"; fail=1; continue
			fi
		fi
		echo "ok: $name $damage: repaired, $ours events kept and read back"
	done
done
[ "$ran" -gt 0 ] || { echo "FAIL: no samples in $samples"; exit 1; }
exit $fail
