#!/bin/sh
# SPDX-License-Identifier: MIT
# The memory budget and the deadline of a run. A 730 KB zstd bomb (the first 3,000,000 bytes of
# a real trace.dat, then 12 GB of zeros) is decompressed only up to half the budget, ends as
# core.limit.reached at exactly that offset, and the run's peak resident set stays below the
# budget, with the default (1G), a lowered one (64M) and two files at once sharing one (-j 2).
# A pipe of zeros stops at the budget too; a pipe that trickles a byte every 2 s meets the
# --timeout deadline. Both are limit findings (exit 8), never a hang.
# usage: budget.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-} # e.g. valgrind, in front of every tracefsck invocation
bin=$1 samples=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
for tool in xz zstd; do
	command -v $tool > /dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
[ -x /usr/bin/time ] || { echo "SKIP: /usr/bin/time is not installed (package time)"; exit 77; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# A guard, never the property: a hang shows as exit 124 instead of a stuck suite.
guard="timeout 300"

xz -dc "$samples/tracedat/sched-irq.v6.dat.xz" > "$work/v6.dat" || exit 1
# zstd frames decompress to their concatenation: one frame of a sparse 1 GB of zeros repeated
# twelve times makes the bomb in seconds instead of piping 12 GB through zstd.
head -c 3000000 "$work/v6.dat" | zstd -1 -q > "$work/head.zst" || exit 1
truncate -s 1000000000 "$work/zeros" && zstd -1 -q "$work/zeros" -o "$work/zeros.zst" || exit 1
rm -f "$work/zeros"
cp "$work/head.zst" "$work/bomb.zst"
for i in 1 2 3 4 5 6 7 8 9 10 11 12; do cat "$work/zeros.zst" >> "$work/bomb.zst"; done
size=$(wc -c < "$work/bomb.zst")
[ "$size" -lt 1000000 ] && ok "the bomb is $size bytes" || bad "the bomb is $size bytes"
unpacked=$(zstd -dc "$work/bomb.zst" | head -c 3000100 | wc -c)
[ "$unpacked" = 3000100 ] || bad "the bomb does not decompress (got $unpacked bytes)"

# bomb NAME BUDGET_KIB CAP ARGS...: check under /usr/bin/time; exit 8 set, core.limit.reached at
# CAP for every file, peak RSS below BUDGET_KIB.
bomb() {
	name=$1 budget=$2 cap=$3; shift 3
	# never through $TFK_WRAP: the resident set measured is tracefsck's own
	$guard /usr/bin/time -v "$bin" check --json "$@" > "$work/$name.json" 2> "$work/$name.time"
	rc=$?
	[ $((rc & 8)) = 8 ] && [ $rc -lt 16 ] && ok "$name: exit $rc (incomplete)" || { bad "$name: exit $rc"; tail -n 30 "$work/$name.time"; }
	want=$(grep -c '"code":"core.input.compressed"' "$work/$name.json")
	hits=$(grep '"code":"core.limit.reached"' "$work/$name.json" | grep -c "\"offset\":$cap,.*\"path\":\"bytes of a decompressed input\"")
	[ "$want" -ge 1 ] && [ "$hits" = "$want" ] && ok "$name: core.limit.reached at $cap in each of $want files" ||
		{ bad "$name: $hits of $want files end at $cap"; grep limit "$work/$name.json"; }
	rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$work/$name.time")
	took=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$work/$name.time")
	if [ -n "$sanitized" ]; then
		ok "$name: peak RSS $rss KiB ($took), not compared: a sanitizer's shadow memory is not the budget's"
	else
		[ -n "$rss" ] && [ "$rss" -lt "$budget" ] && ok "$name: peak RSS $rss KiB < budget $budget KiB ($took)" ||
			bad "$name: peak RSS ${rss:-?} KiB, budget $budget KiB"
	fi
}
# An AddressSanitizer build maps shadow memory beside every byte it reads.
sanitized=
grep -q __asan_init "$bin" && sanitized=1
bomb default 1048576 536870912 "$work/bomb.zst"
bomb lowered 65536 33554432 --max-memory 64M "$work/bomb.zst"
bomb shared 262144 67108864 --max-memory 256M -j 2 "$work/bomb.zst" "$work/bomb.zst"

# A pipe that never ends: its copy stops at half the budget.
head -c 100000000 /dev/zero | $guard $wrap "$bin" check --json --max-memory 16M - > "$work/pipe.json" 2> "$work/pipe.err"
rc=$?
[ $rc = 8 ] && ok "an endless pipe: exit 8" || bad "an endless pipe: exit $rc"
grep '"code":"core.limit.reached"' "$work/pipe.json" | grep -q '"offset":8388608,.*"path":"bytes read from a pipe"' &&
	ok "an endless pipe stops at half of 16M" || { bad "no limit at 8388608 for the pipe"; cat "$work/pipe.json"; }

# A pipe that trickles a byte every 2 s: the idle timeout never fires, the run's deadline does.
start=$(date +%s)
(while :; do printf x || exit 0; sleep 2; done) | $guard $wrap "$bin" check --json --timeout 3 - > "$work/trickle.json" 2> "$work/trickle.err"
rc=$?
took=$(($(date +%s) - start))
[ $rc = 8 ] && ok "a trickling pipe: exit 8 after ${took}s" || bad "a trickling pipe: exit $rc after ${took}s"
grep '"code":"core.limit.reached"' "$work/trickle.json" | grep -q '"path":"milliseconds spent reading the input".*"expected":"at most 3000 ' &&
	ok "the deadline is a limit finding" || { bad "no deadline finding"; cat "$work/trickle.json"; }
grep -q stream-stalled "$work/trickle.json" && bad "the trickle was taken for a silent pipe"

# Sizes and seconds as people type them, and what is refused.
for v in 64M 65536K 1G 1g 2T 1048576; do
	$wrap "$bin" check --max-memory "$v" "$work/v6.dat" > /dev/null 2>&1
	rc=$?
	[ $rc = 0 ] && ok "--max-memory $v" || bad "--max-memory $v: exit $rc"
done
for v in 12X 512K 0 -1 M "" 99999999999999999999G; do
	$wrap "$bin" check --max-memory "$v" "$work/v6.dat" > /dev/null 2>&1
	rc=$?
	[ $rc = 16 ] && ok "--max-memory '$v' is a usage error" || bad "--max-memory '$v': exit $rc"
done
# each file checked at once needs 1M of its own
$wrap "$bin" check -j 4 --max-memory 2M "$work/v6.dat" "$work/v6.dat" "$work/v6.dat" > /dev/null 2>&1
rc=$?
[ $rc = 16 ] && ok "--max-memory 2M over -j 4 of 3 files is a usage error" || bad "--max-memory 2M -j 4: exit $rc"
for v in -1 1.5 86401 x; do
	$wrap "$bin" check --timeout "$v" "$work/v6.dat" > /dev/null 2>&1
	rc=$?
	[ $rc = 16 ] && ok "--timeout '$v' is a usage error" || bad "--timeout '$v': exit $rc"
done
rm -f "$work/v6.dat"
exit $fail
