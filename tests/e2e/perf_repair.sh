#!/bin/sh
# SPDX-License-Identifier: MIT
# perf.data repair end to end: damaged copies of the samples and fixtures (a killed recording,
# cuts, a page-boundary cut, zeroed bytes in the data) are repaired; every output re-checks
# clean, repairs to itself, and perf report / perf script read it without a signal and with
# exactly the samples tracefsck kept. A real killed `perf record` is added when perf can record.
# usage: perf_repair.sh TRACEFSCK TDW_MAKE SAMPLES_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 make=$2 samples=$3 work=$4
rm -rf "$work" && mkdir -p "$work/in" || exit 1
fail=0 cases=0 oracle=0
bad() { echo "FAIL: $*"; fail=1; }

for k in le be zstd zstream 2attr pipe; do "$make" perf-$k "$work/in/fixture-$k.data" || exit 1; done
for f in "$samples"/perf/*.perf.data; do [ -f "$f" ] && cp "$f" "$work/in/"; done
chmod u+w "$work"/in/*

zero_at() { # zero_at FILE OFFSET COUNT
	dd if=/dev/zero of="$1" bs=1 seek="$2" count="$3" conv=notrunc 2>/dev/null
}
add4_at() { # add4_at FILE OFFSET: one byte plus 4 (a flipped bit of data.offset)
	b=$(od -An -tu1 -j"$2" -N1 "$1" | tr -d ' ')
	printf "$(printf '\\%03o' $(((b + 4) % 256)))" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}

mkdir -p "$work/damaged"
for f in "$work"/in/*; do
	n=$(basename "$f" .data) size=$(wc -c < "$f")
	head -c $((size * 9 / 10)) "$f" > "$work/damaged/$n.cut90.data"
	head -c $((size * 6 / 10)) "$f" > "$work/damaged/$n.cut60.data"
	[ "$size" -gt 2000 ] && head -c $((size - 1000)) "$f" > "$work/damaged/$n.tail1000.data"
	[ "$size" -gt 12288 ] && head -c 8192 "$f" > "$work/damaged/$n.page.data"
	case $n in *pipe*) continue ;; esac
	cp "$f" "$work/damaged/$n.killed.data" && zero_at "$work/damaged/$n.killed.data" 48 8
	cp "$f" "$work/damaged/$n.zeroed.data" && zero_at "$work/damaged/$n.zeroed.data" $((size / 3)) 24
	cp "$f" "$work/damaged/$n.dataoffset.data" && add4_at "$work/damaged/$n.dataoffset.data" 40
done

# A tracepoint recording with a malformed printk line and a malformed saved-cmdlines line in
# HEADER_TRACING_DATA: the feature is rebuilt from the good lines, so perf still reads it.
tp="$work/in/sched-tracepoints.perf.data"
if [ -f "$tp" ]; then
	pk=$("$bin" describe "$tp" | awk '/metadata printk formats/ { print $1; exit }')
	cl=$("$bin" describe "$tp" | awk '/metadata saved cmdlines/ { print $1; exit }')
	cp "$tp" "$work/damaged/tracepoints.badlines.data"
	printf '\001' | dd of="$work/damaged/tracepoints.badlines.data" bs=1 seek=$((pk + 5)) conv=notrunc 2>/dev/null
	printf 'x' | dd of="$work/damaged/tracepoints.badlines.data" bs=1 seek=$((cl + 1)) conv=notrunc 2>/dev/null
fi

# A real killed recording (data.size 0, no features), when this machine lets perf record.
if command -v perf >/dev/null 2>&1; then
	perf record -m 1 -F 2000 -e cpu-clock -o "$work/damaged/real.killed.data" -- timeout 5 sh -c 'while :; do :; done' \
		>/dev/null 2>&1 &
	pid=$!
	sleep 2
	kill -9 $pid 2>/dev/null
	wait $pid 2>/dev/null
	[ -s "$work/damaged/real.killed.data" ] || rm -f "$work/damaged/real.killed.data"
fi

# Directory mode (perf record --threads): "data" plus data.N streams, checked as one trace.
if command -v perf >/dev/null 2>&1 &&
	perf record --threads -o "$work/threads.data" -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' >/dev/null 2>&1 &&
	[ -d "$work/threads.data" ]; then
	$wrap "$bin" check --json "$work/threads.data" > "$work/threads.check"; rc=$?
	got=$(sed -n 's/.*"type":"summary".*"events":\([0-9]*\).*/\1/p' "$work/threads.check")
	want=$(perf script -G -i "$work/threads.data" 2>/dev/null | grep -c .)
	if [ "$rc" = 0 ] && grep -q '"format":"perf.data directory"' "$work/threads.check" && [ "$got" = "$want" ]; then
		echo "ok: perf record --threads directory: clean, $got samples as perf script"
	else
		bad "perf.data directory: exit $rc, $got samples, perf script $want"; cat "$work/threads.check"
	fi
	last=$(ls "$work/threads.data" | grep '^data\.' | while read -r f; do [ -s "$work/threads.data/$f" ] && echo "$f"; done | tail -1)
	if [ -n "$last" ]; then
		printf '\001\000\000\000\000\000\003\000' >> "$work/threads.data/$last" # a record of size 3
		$wrap "$bin" check "$work/threads.data" > "$work/threads.bad"; rc=$?
		if [ "$rc" = 4 ] && grep -q "^$work/threads.data/$last: 0x[0-9a-f]* \[record type 1 at" "$work/threads.bad"; then
			echo "ok: damage in $last is reported in its member file"
		else
			bad "damaged $last: exit $rc"; cat "$work/threads.bad"
		fi
	fi
fi

for d in "$work"/damaged/*.data; do
	cases=$((cases + 1))
	n=$(basename "$d" .data) out="$work/$n.fixed.data"
	$wrap "$bin" repair "$d" -o "$out" > "$work/$n.log" 2>&1; rc=$?
	case $rc in
	0) continue ;;          # nothing to repair
	4) grep -q "salvage: kept 0 \|cannot be repaired" "$work/$n.log" || bad "$n: exit 4 without an empty salvage"
	   echo "ok: $n: nothing left to salvage (exit 4)"; continue ;;
	1) ;;
	*) bad "$n: repair exit $rc"; cat "$work/$n.log"; continue ;;
	esac
	$wrap "$bin" check --json "$out" > "$work/$n.check" || { bad "$n: output does not re-check clean"; cat "$work/$n.check"; continue; }
	kept=$(sed -n 's/.*"type":"summary".*"events":\([0-9]*\).*/\1/p' "$work/$n.check")
	$wrap "$bin" repair "$out" -o "$work/$n.again.data" > /dev/null 2>&1; rc2=$?
	[ "$rc2" = 0 ] || bad "$n: repairing the output again: exit $rc2"
	command -v perf >/dev/null 2>&1 || continue
	perf script -G -i "$out" > "$work/$n.script" 2> "$work/$n.script.err"; ps=$?
	perf report -i "$out" --stdio > /dev/null 2>&1; pr=$?
	# A signal shows as 128 + N; perf's own error exit is 255.
	if { [ "$ps" -gt 128 ] && [ "$ps" -lt 255 ]; } || { [ "$pr" -gt 128 ] && [ "$pr" -lt 255 ]; }; then
		bad "$n: perf died on the repaired file (script $ps, report $pr)"; continue
	fi
	if [ "$ps" != 0 ] || [ "$pr" != 0 ]; then
		# A tracepoint recording whose TRACING_DATA was after the cut: perf refuses it (spec 1.10),
		# and the salvage report must have said so.
		if grep -q "TRACING_DATA was lost" "$work/$n.log" && grep -q "incompatible file format" "$work/$n.script.err"; then
			echo "ok: $n: repaired; perf refuses it without a signal, as the salvage report said (TRACING_DATA lost)"
			continue
		fi
		bad "$n: perf script exit $ps, perf report exit $pr"; head -3 "$work/$n.script.err"; continue
	fi
	got=$(grep -c . "$work/$n.script") # -G: one line per sample, no call graph
	[ "$got" = "$kept" ] || bad "$n: tracefsck kept $kept samples, perf script prints $got"
	oracle=$((oracle + 1))
	echo "ok: $n: repaired, re-checks clean, $kept samples read back by perf"
done
if [ -f "$tp" ]; then
	grep -q "tracedat.metadata.bad-line" "$work/tracepoints.badlines.log" &&
		grep -q "kept 44 .*0 feature sections dropped" "$work/tracepoints.badlines.log" ||
		bad "tracepoints.badlines: TRACING_DATA was not rebuilt from its good lines"
	# A killed copy of the same recording keeps its feature table, found behind the last record.
	grep -q "0 feature sections dropped" "$work/sched-tracepoints.perf.killed.log" ||
		bad "sched-tracepoints killed: the feature table behind the records was not kept"
fi
# data.offset damaged: one finding at the field, restored from where perf writes the records;
# nothing lost (perf script's count on the output was held to the samples kept above).
for f in "$work"/in/*; do
	n=$(basename "$f" .data)
	case $n in *pipe*) continue ;; esac
	d="$work/damaged/$n.dataoffset.data"
	errs=$("$bin" check "$d" | grep -c ': error ')
	"$bin" check "$d" | grep -q '^[^ ]*: 0x28 \[file header data.offset\]: error perf.header.bad-data-offset' && [ "$errs" = 1 ] ||
		bad "$n.dataoffset: expected one perf.header.bad-data-offset at 0x28, got $errs errors"
	grep -q "no record lost; 0 feature sections dropped" "$work/$n.dataoffset.log" ||
		bad "$n.dataoffset: the repair lost records or features"
done
[ "$cases" -gt 20 ] || bad "only $cases damaged files"
echo "$cases damaged files, $oracle read back by perf"
exit $fail
