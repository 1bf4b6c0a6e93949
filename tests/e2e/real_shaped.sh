#!/bin/sh
# SPDX-License-Identifier: MIT
# The benchmark's real-shaped traces are sound: made small from the stored copy of a kernel's
# metadata (so that the result does not depend on this machine), as v6 and v7 zstd, each checks
# clean with exactly the events the generator wrote, 512 pages on 2 CPUs, and without the
# libtraceevent pass no finding at all; trace-cmd report, when installed, prints as many events.
# The one finding allowed is tracedat.format.unparsable: that kernel ships formats libtraceevent
# cannot parse (dma, kvm, maple_tree, ...), as every recording of it with all events carries.
# usage: real_shaped.sh TRACEFSCK_BENCH TRACEFSCK STORED_METADATA WORK_DIR
set -u
bench=$1 bin=$2 stored=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
summary() { sed -n "s/.*\"type\":\"summary\".*\"$2\":\([^,}]*\).*/\1/p" "$1"; }

"$bench" --make-only --shapes real --real-mib 2 --kinds v6,v7-zstd --metadata "$stored" --dir "$work" > "$work/made.txt" 2> "$work/made.err"
rc=$?
[ "$rc" = 0 ] || { cat "$work/made.err"; bad "tracefsck-bench --make-only exited $rc"; exit 1; }
grep -q 'metadata from stored copy: ' "$work/made.txt" || bad "the metadata was not read from the stored copy: $(cat "$work/made.txt")"
made=0
for kind in v6 v7-zstd; do
	f="$work/real-$kind-2M.dat"
	wrote=$(sed -n "s|^made $f: \([0-9]*\) events, 2323 formats.*|\1|p" "$work/made.txt")
	[ -n "$wrote" ] || { bad "$kind: no 'made $f: N events, 2323 formats' line in: $(cat "$work/made.txt")"; continue; }
	made=$((made + 1))
	# 2 MiB of 4 KiB pages hold between 40,000 and 70,000 records of 20 to 80 bytes
	{ [ "$wrote" -gt 40000 ] && [ "$wrote" -lt 70000 ]; } || bad "$kind: the generator wrote $wrote events"

	"$bin" check --json "$f" > "$work/$kind.jsonl"
	rc=$?
	[ "$rc" = 0 ] || bad "$kind: check exit $rc, expected 0"
	[ "$(summary "$work/$kind.jsonl" verdict)" = '"clean"' ] || bad "$kind: verdict $(summary "$work/$kind.jsonl" verdict)"
	for field in errors:0 warnings:0 cpus:2 pages:512 "events:$wrote"; do
		got=$(summary "$work/$kind.jsonl" "${field%%:*}")
		[ "$got" = "${field#*:}" ] || bad "$kind: ${field%%:*} $got, expected ${field#*:}"
	done
	others=$(grep '"type":"finding"' "$work/$kind.jsonl" | grep -vc '"code":"tracedat.format.unparsable"')
	[ "$others" = 0 ] || bad "$kind: $others findings other than tracedat.format.unparsable: $(grep '"type":"finding"' "$work/$kind.jsonl")"
	"$bin" check --json --no-libtraceevent "$f" > "$work/$kind.notep.jsonl"
	[ "$(summary "$work/$kind.notep.jsonl" findings)" = 0 ] || bad "$kind: --no-libtraceevent: $(summary "$work/$kind.notep.jsonl" findings) findings, expected 0"

	if command -v trace-cmd > /dev/null 2>&1; then
		# one line per event, "COMM-PID [CPU] SECONDS: EVENT: ...": a print fmt may span lines (ext4_fc_stats)
		shown=$(trace-cmd report "$f" 2> /dev/null | grep -cE '^ *.+-[0-9]+ +\[[0-9]+\] +[0-9]+\.[0-9]+: ')
		[ "$shown" = "$wrote" ] || bad "$kind: trace-cmd report printed $shown events, the generator wrote $wrote"
		[ "$fail" = 0 ] && echo "ok: $kind: clean, $wrote events, as trace-cmd report prints"
	else
		[ "$fail" = 0 ] && echo "ok: $kind: clean, $wrote events (trace-cmd not installed: not compared)"
	fi
done
[ "$made" = 2 ] || bad "made $made of the 2 traces"
exit $fail
