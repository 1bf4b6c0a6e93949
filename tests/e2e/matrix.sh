#!/bin/sh
# SPDX-License-Identifier: MIT
# Real recordings made on this machine (scripts/record-matrix.sh quick: trace-cmd extract and
# convert, perf record in its common forms) are what users hand tracefsck, so each pristine one
# must check clean: exit 0, verdict clean, no error, no warning or note except the documented
# ones below; as many events walked as the real reader prints (trace-cmd report, perf script);
# and `repair` must find nothing to do (exit 0).
# Recording needs root, a writable tracefs and trace-cmd and/or a perf that can record; without
# them (or with TFK_NO_RECORDING=1 in the environment) the test is skipped (exit 77). Recording
# changes global tracing state; the recorder puts it back, and this test checks that it did.
# usage: matrix.sh TRACEFSCK RECORDER WORK_DIR
set -u
wrap=${TFK_WRAP:-} # e.g. valgrind, in front of every tracefsck invocation
bin=$1 rec=$2 work=$3
T=/sys/kernel/tracing

skip() { echo "SKIP: $*"; exit 77; }
[ "${TFK_NO_RECORDING:-0}" = 1 ] && skip "TFK_NO_RECORDING=1"
[ "$(id -u)" = 0 ] || skip "recording needs root"
[ -w $T/tracing_on ] || skip "tracefs is not mounted writable at $T"
command -v trace-cmd > /dev/null 2>&1 || command -v perf > /dev/null 2>&1 || skip "neither trace-cmd nor perf is installed"

# Findings a pristine recording may carry, each true of the file, not damage:
#  - tracedat.format.unparsable (warning): the kernel ships formats the system libtraceevent
#    cannot parse (ras, kvm, dma, maple_tree, ... here); trace-cmd report prints those raw.
#  - tracedat.page.events-lost (note): the kernel overwrote pages before extract read them.
#  - tracedat.writer.buffer-size-without-count (note): trace-cmd before 3.2 (Debian 12 has 3.1.6)
#    writes a compressed CPU's size without its chunk count; held below to compressed v7 files
#    and to naming the version that wrote them.
allowed="tracedat.format.unparsable tracedat.page.events-lost tracedat.writer.buffer-size-without-count"

# The global tracing state, to compare after recording.
state() {
	for f in tracing_on trace_clock tracing_cpumask current_tracer set_event; do
		printf '%s: %s\n' "$f" "$(cat $T/$f 2> /dev/null | tr '\n' ' ')"
	done
	printf 'instances: %s\n' "$(ls $T/instances 2> /dev/null | tr '\n' ' ')"
}
# The buffer size in KiB. A buffer never used since boot reads "7 (expanded: 1408)": the
# recorder gives back 1408, which the kernel rounds to whole pages (1410).
buffer_kb() { sed 's/.*expanded: \([0-9]*\).*/\1/; s/[^0-9].*//' $T/buffer_size_kb; }
rm -rf "$work" && mkdir -p "$work" || exit 1
before=$(state) kb_before=$(buffer_kb)
"$rec" "$work/files" quick > "$work/record.out" 2> "$work/record.err"; rc=$?
after=$(state) kb_after=$(buffer_kb)
cat "$work/record.out"
sed 's/^/recorder: /' "$work/record.err"
fail=0
bad() { echo "FAIL: $*"; fail=1; }
if [ "$before" != "$after" ]; then
	bad "tracing state changed by recording:"
	printf 'before:\n%s\nafter:\n%s\n' "$before" "$after"
fi
d=$((kb_after - kb_before))
[ "$d" -ge -4 ] && [ "$d" -le 4 ] || bad "buffer_size_kb changed by recording: $kb_before before, $kb_after after"
if [ "$rc" != 0 ] || [ ! -s "$work/files/MATRIX" ]; then
	[ "$rc" = 8 ] && grep -q "nothing recorded" "$work/record.err" && [ "$fail" = 0 ] &&
		skip "nothing could be recorded here (see the recorder's lines above)"
	bad "recorder exit $rc"; exit 1
fi

# json_str LINE FIELD: a string field of one JSON line (escapes left as they are)
json_str() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\"\(\([^\"\\\\]\|\\\\.\)*\)\".*/\1/p"; }
json_num() { printf '%s\n' "$1" | sed -n "s/.*\"$2\":\([0-9]*\).*/\1/p"; }

files=0
tab=$(printf '\t')
while IFS="$tab" read -r name kind what; do
	f="$work/files/$name"
	files=$((files + 1))
	id="$name ($what)"
	out=$($wrap "$bin" check --json "$f" 2> "$work/check.err"); rc=$?
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	verdict=$(json_str "$summary" verdict)
	walked=$(json_num "$summary" events)
	errors=$(json_num "$summary" errors)
	ok=1
	[ "$rc" = 0 ] || { bad "$id: check exit $rc, expected 0 (clean)"; ok=0; }
	[ "$verdict" = clean ] || { bad "$id: verdict '$verdict', expected clean"; ok=0; }
	[ "$errors" = 0 ] || { bad "$id: $errors errors, expected 0"; ok=0; }
	[ -s "$work/check.err" ] && { bad "$id: check wrote to stderr: $(head -3 "$work/check.err")"; ok=0; }
	# Every finding not on the allowed list, with its place and what was expected and found.
	printf '%s\n' "$out" | grep '"type":"finding"' > "$work/findings"
	while read -r l; do
		code=$(json_str "$l" code)
		if [ "$code" = tracedat.writer.buffer-size-without-count ]; then
			tcv=$(trace-cmd -h 2> /dev/null | sed -n 's/^ *trace-cmd version \([0-9.]*\).*/\1/p' | head -1)
			case "$id" in *zstd* | *zlib*) ;; *) bad "$id: $code on a file that is not compressed v7"; ok=0 ;; esac
			case "$(json_str "$l" found)" in *"trace-cmd $tcv"*) ;; *) bad "$id: $code does not name trace-cmd $tcv: $(json_str "$l" found)"; ok=0 ;; esac
			continue
		fi
		case " $allowed " in *" $code "*) continue ;; esac
		bad "$id: unexpected $(json_str "$l" severity) $code at $(printf '0x%x' "$(json_num "$l" offset)") [$(json_str "$l" path)]: $(json_str "$l" message) (expected $(json_str "$l" expected), found $(json_str "$l" found))"
		ok=0
	done < "$work/findings"

	# The real reader's count of events.
	if [ "$kind" = tracedat ]; then
		reader="trace-cmd report"
		want=$(trace-cmd report "$f" 2> /dev/null | grep -v '^cpus=\|^ *$\|EVENTS DROPPED' | wc -l)
		what_walked="events"
	else
		reader="perf script"
		want=$(perf script -G -i "$f" 2> /dev/null | grep -c .)
		what_walked="samples"
	fi
	if [ "$walked" != "$want" ]; then
		bad "$id: $walked $what_walked walked, $reader prints $want"; ok=0
	fi

	# Nothing to repair in a pristine file.
	rm -rf "$work/repaired"
	$wrap "$bin" repair -q "$f" -o "$work/repaired" > "$work/repair.out" 2>&1; rc=$?
	if [ "$rc" != 0 ] || ! grep -q ": nothing to repair$" "$work/repair.out"; then
		bad "$id: repair exit $rc, expected 0 (nothing to repair); it says: $(grep -v ' error \| warning \| note ' "$work/repair.out" | sed 's/^[^:]*: //' | sed ':a;N;$!ba;s/\n/ | /g')"
		ok=0
	fi
	[ "$ok" = 1 ] && echo "ok: $name: clean, $walked $what_walked as $reader, nothing to repair"

	# Cut in the middle of each buffer's largest CPU range: repair keeps exactly the events its
	# salvage report says (trace-cmd report of the output prints them), never more than the
	# recording held, and kept + lost adds up to it wherever the loss could be counted.
	[ "$kind" = tracedat ] || continue
	$wrap "$bin" describe --json "$f" | awk -F'[:,]' '
		/"type":"buffer"/ { if (best) print at + int(len / 2); best = 0; next }
		/"type":"cpu"/ { for (i = 1; i < NF; i++) { if ($i == "\"offset\"") o = $(i + 1); if ($i == "\"length\"") l = $(i + 1) }
		                 if (l + 0 > best) { best = l + 0; at = o + 0; len = l + 0 } }
		END { if (best) print at + int(len / 2) }' > "$work/cuts"
	while read -r cut; do
		head -c "$cut" "$f" > "$work/cut.dat"
		rm -f "$work/cut.fixed"
		$wrap "$bin" repair -q --json "$work/cut.dat" -o "$work/cut.fixed" > "$work/cut.json" 2> /dev/null; rc=$?
		salvage=$(grep '"type":"salvage"' "$work/cut.json")
		kept=$(json_num "$salvage" events_kept) lost=$(json_num "$salvage" events_lost)
		cid="$name cut at $cut"
		case "$rc" in
		1) got=$(trace-cmd report "$work/cut.fixed" 2> /dev/null | grep -v '^cpus=\|^ *$\|EVENTS DROPPED' | wc -l) ;;
		4) got=0 ;; # nothing salvaged: no event survived the cut
		*) bad "$cid: repair exit $rc"; continue ;;
		esac
		if [ "$got" != "$kept" ]; then
			bad "$cid: the salvage report says $kept events kept, trace-cmd report of the output prints $got"
		elif [ $((kept + lost)) -gt "$want" ]; then
			bad "$cid: kept $kept + lost $lost is more than the $want events recorded"
		elif printf '%s' "$salvage" | grep -q '"events_lost_unknown":false' && [ $((kept + lost)) != "$want" ]; then
			bad "$cid: kept $kept + lost $lost does not add up to the $want events recorded"
		else
			echo "ok: $cid: $kept of $want events kept and read back by trace-cmd report"
		fi
	done < "$work/cuts"
done < "$work/files/MATRIX"
[ "$files" -gt 0 ] || bad "the recorder listed no file"
echo "$files recorded files checked"
exit $fail
