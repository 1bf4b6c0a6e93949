#!/bin/sh
# SPDX-License-Identifier: MIT
# trace.dat files written on other machines, by other kernels and trace-cmd versions
# (../shared/foreign/tracedat, expectations in its README.md). A pristine file checks clean:
# exit 0, no error, no warning but tracedat.format.unparsable (formats this libtraceevent cannot
# parse: a library limit, not damage); it walks as many events as the README and trace-cmd report
# (when installed) show; and repair finds nothing to do. Skipped (77) when the folder is absent.
# usage: foreign.sh TRACEFSCK FOREIGN_DIR WORK_DIR
set -u
# TFK_WRAP (e.g. valgrind) runs in front of every tracefsck invocation.
wrap=${TFK_WRAP:-}
bin=$1 foreign=$2 work=$3
readme=$foreign/README.md
if [ ! -d "$foreign/tracedat" ] || [ ! -f "$readme" ]; then
	echo "no foreign traces at $foreign/tracedat: skipped"; exit 77
fi
# Warnings a pristine file may carry.
allowed_warnings='tracedat.format.unparsable'
# Where the README's count is not the number of events: it counts the lines trace-cmd report
# prints, and two bprint events of this file print a newline of their own text.
events_fixed() {
	case "$1" in
	trappy-doc-trace_stats.dat) echo 757 ;;
	esac
}
mkdir -p "$work"
fail=0 ran=0
for f in "$foreign"/tracedat/*; do
	[ -f "$f" ] || continue
	base=$(basename "$f")
	name=${base%.xz}
	row=$(grep "^| $base |" "$readme")
	if [ -z "$row" ]; then
		echo "FAIL: $base: no row in $readme"; fail=1; continue
	fi
	case "$f" in
	*.xz) xz -dc "$f" > "$work/$name" || { echo "FAIL: cannot decompress $f"; fail=1; continue; } ;;
	*) cp "$f" "$work/$name" ;;
	esac
	ran=$((ran + 1)) bad=0
	# | file | source repo | commit | path | licence | size | what | expectation |
	expect=$(printf '%s\n' "$row" | awk -F'|' '{ print $9 }')
	out=$($wrap "$bin" check --json "$work/$name"); rc=$?
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	events=$(printf '%s' "$summary" | sed -n 's/.*"events":\([0-9]*\).*/\1/p')
	case "$expect" in
	*pristine*) ;;
	*)
		# A damaged file: reported, never a crash (exit 4 or 8).
		if [ "$rc" != 4 ] && [ "$rc" != 8 ]; then
			echo "FAIL: $name: exit $rc, expected faults reported"; fail=1
		else
			echo "ok: $name reported (exit $rc)"
		fi
		continue ;;
	esac
	if [ "$rc" != 0 ] || ! printf '%s' "$summary" | grep -q '"verdict":"clean"' || ! printf '%s' "$summary" | grep -q '"errors":0,'; then
		echo "FAIL: $name: exit $rc"; printf '%s\n' "$out" | grep -v '"severity":"note"'; fail=1; continue
	fi
	warned=$(printf '%s\n' "$out" | grep '"severity":"warning"' | sed 's/.*"code":"\([^"]*\)".*/\1/' | sort -u |
		grep -vx "$allowed_warnings")
	if [ -n "$warned" ]; then
		echo "FAIL: $name: warnings on a pristine file:" $warned; bad=1
	fi
	want=$(events_fixed "$name")
	[ -n "$want" ] || want=$(printf '%s\n' "$row" | awk -F'|' '{ print $8 }' | sed -n 's/.* \([0-9][0-9]*\) events.*/\1/p')
	if [ -z "$want" ] || [ "$events" != "$want" ]; then
		echo "FAIL: $name: $events events walked, README says '$want'"; bad=1
	fi
	if command -v trace-cmd >/dev/null 2>&1; then
		# Lines that start an event ("comm-pid [cpu] secs: name:"), so that an event whose text
		# holds a newline counts once. The timestamp may come raw ("[002]106439675570920:"):
		# trace-cmd 3.1 reads a file whose trace_clock is empty (trappy-doc-trace_stats) past
		# the end of a malloc(0) block (tracecmd_parse_trace_clock), takes whatever the heap
		# holds there for the clock's name and, about one run in fifty, decides it is a counter.
		tc=$(trace-cmd report "$work/$name" 2>/dev/null | grep -acE '\[[0-9]+\] *[0-9]+(\.[0-9]+)?: ')
		if [ "$tc" != "$events" ]; then
			echo "FAIL: $name: $events events walked, trace-cmd report prints $tc"; bad=1
		fi
	fi
	rep=$($wrap "$bin" repair --dry-run "$work/$name"); rrc=$?
	if [ "$rrc" != 0 ] || ! printf '%s\n' "$rep" | grep -q ': nothing to repair$'; then
		echo "FAIL: $name: repair --dry-run exit $rrc"; printf '%s\n' "$rep" | tail -5; bad=1
	fi
	rm -f "$work/$name"
	[ "$bad" = 0 ] && echo "ok: $name clean, $events events, nothing to repair"
	[ "$bad" = 0 ] || fail=1
done
[ "$ran" -gt 0 ] || { echo "FAIL: no foreign trace.dat found"; exit 1; }
exit $fail
