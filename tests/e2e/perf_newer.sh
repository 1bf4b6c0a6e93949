#!/bin/sh
# SPDX-License-Identifier: MIT
# perf.data as perf 6.2-6.19 writes it, and the repairs of issue 36, end to end: fixtures check
# as expected; each damaged copy is repaired (exit 1), the output re-checks clean, repairs to
# itself, and perf script (6.1, when installed) reads it with exactly the samples the original
# had. Outputs perf 6.1 cannot read (COMPRESSED2, perf 6.16's blobs) are checked by tracefsck
# alone and listed. usage: perf_newer.sh TRACEFSCK TDW_MAKE WORK_DIR
set -u
bin=$1 make=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

u64() { od -An -t u8 -j "$2" -N 8 "$1" | tr -d ' '; }
u8() { od -An -t u1 -j "$2" -N 1 "$1" | tr -d ' '; }
put_byte() { # put_byte FILE OFFSET VALUE
	printf "$(printf '\\%03o' "$3")" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
samples() { perf script -F ip -i "$1" 2>/dev/null | wc -l; }

for k in le 2attr zstream killed-idle newer zstream2 c616 c616-pipe; do
	"$make" perf-$k "$work/$k.data" || exit 1
done

# The newer fixtures check clean; perf 6.16's blob is a writer quirk (a warning, exit 0).
for k in newer zstream2; do
	"$bin" check "$work/$k.data" > "$work/$k.check" || bad "$k: $(tail -1 "$work/$k.check")"
done
for k in c616 c616-pipe; do
	"$bin" check "$work/$k.data" > "$work/$k.check"; rc=$?
	[ $rc -eq 0 ] && grep -q 'warning perf.writer.compressed2-size' "$work/$k.check" &&
		grep -q 'writer perf 6.16.1' "$work/$k.check" || bad "$k: exit $rc, $(head -1 "$work/$k.check")"
done

# The damaged copies.
cp "$work/2attr.data" "$work/attr1.data" # attr 1's own size 120 (attr_size and spacing say 128)
attrs=$(u64 "$work/2attr.data" 24)
put_byte "$work/attr1.data" $((attrs + 144 + 4)) 120
cp "$work/le.data" "$work/bit0.data" # reserved feature bit 0 set, no table entry for it
put_byte "$work/bit0.data" 72 $(($(u8 "$work/le.data" 72) | 1))
data=$(u64 "$work/zstream.data" 40)
cp "$work/zstream.data" "$work/magic.data" # the first payload's zstd magic, one bit flipped
put_byte "$work/magic.data" $((data + 9)) $(($(u8 "$work/zstream.data" $((data + 9))) ^ 64))
cp "$work/zstream.data" "$work/fhd.data" # its frame header descriptor's reserved bit set
put_byte "$work/fhd.data" $((data + 12)) $(($(u8 "$work/zstream.data" $((data + 12))) | 8))
comp=$("$bin" describe "$work/zstream.data" | awk '/COMPRESSED 27/ { print $1; exit }')
cp "$work/zstream.data" "$work/mmaplen.data" # COMPRESSED feature mmap_len 0
for i in 0 1 2 3; do put_byte "$work/mmaplen.data" $((comp + 16 + i)) 0; done

readable="attr1:le bit0:le magic:zstream fhd:zstream mmaplen:zstream killed-idle:killed-idle"
for pair in $readable c616:- c616-pipe:-; do
	n=${pair%%:*} orig=${pair#*:}
	"$bin" repair "$work/$n.data" -o "$work/$n.fixed" > "$work/$n.repair" 2>&1; rc=$?
	[ $rc -eq 1 ] || { bad "$n: repair exit $rc, not 1: $(tail -2 "$work/$n.repair")"; continue; }
	"$bin" check "$work/$n.fixed" > /dev/null || bad "$n: repaired output not clean"
	"$bin" repair "$work/$n.fixed" -o "$work/$n.again" > /dev/null 2>&1; rc=$?
	[ $rc -eq 0 ] || bad "$n: a second repair exits $rc"
	[ "$orig" = - ] && { echo "$n: repaired, checked by tracefsck alone (perf 6.1 reads no COMPRESSED2)"; continue; }
	command -v perf > /dev/null 2>&1 || continue
	want=$(samples "$work/$orig.data") got=$(samples "$work/$n.fixed")
	[ "$want" = "$got" ] || bad "$n: perf script reads $got sample lines from the repair, $want from the original"
	perf script -i "$work/$n.fixed" > /dev/null 2> "$work/$n.perf-err" || bad "$n: perf script fails: $(head -2 "$work/$n.perf-err")"
done
if command -v perf > /dev/null 2>&1; then
	perf report --header-only -i "$work/bit0.fixed" 2>/dev/null | grep -q '# hostname : fixture-host' ||
		bad "bit0: the repaired hostname section is not the host name"
else
	echo "perf not installed: perf script not run on the repairs"
fi
[ $fail -eq 0 ] && echo "perf_newer: all cases passed"
exit $fail
