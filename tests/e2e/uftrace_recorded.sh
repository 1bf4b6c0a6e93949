#!/bin/sh
# SPDX-License-Identifier: MIT
# uftrace recordings of other shapes than the samples, made here by the real recorder: a C++
# program (tests/e2e/data/uftrace-prog.cc) built with -pg and with -finstrument-functions and
# recorded with auto-args over DWARF (empty-struct arguments stored as 0 bytes) and with given
# argument specs (a C string through the PLT, C++ functions by name and by regex), an exec in a
# forked child, --estimate-return (exit times earlier than the records before them), an event
# trigger (read=proc/statm) and depth/time filters. Each must check clean (exit 0, no finding)
# and walk exactly the task records `uftrace dump` prints; then each is damaged and repaired
# against the real reader by uftrace_repair.sh.
# Without uftrace or a C++ compiler it exits 77 (skipped).
# usage: uftrace_recorded.sh TRACEFSCK SOURCE_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 src=$2 work=$3
command -v uftrace >/dev/null 2>&1 || { echo "uftrace is not installed"; exit 77; }
command -v g++ >/dev/null 2>&1 || { echo "g++ is not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
g++ -pg -g -O0 -o "$work/prog-pg" "$src/tests/e2e/data/uftrace-prog.cc" -lpthread || exit 1
g++ -finstrument-functions -g -O1 -o "$work/prog-fi" "$src/tests/e2e/data/uftrace-prog.cc" -lpthread || exit 1
fail=0 dirs=""

# record NAME UFTRACE-OPTIONS... -- PROGRAM ARGS...
record() {
	name=$1; shift
	(cd "$work" && uftrace record -d "$name.uftrace.data" "$@" >/dev/null 2>"$name.err")
	if [ ! -f "$work/$name.uftrace.data/info" ]; then
		echo "FAIL: $name: uftrace record made no info"; head -n 3 "$work/$name.err"; fail=1; return
	fi
	d="$work/$name.uftrace.data"
	# Task records as uftrace dump prints them (the perf-cpu events, linux:*, are not a task's).
	want=$(uftrace dump -d "$d" 2>/dev/null | grep -E '^ *[0-9]+\.[0-9]+ +[0-9]+: \[(entry|exit |lost |event)' |
		grep -vc '\[event\] linux:')
	out=$($wrap "$bin" check --json "$d"); rc=$?
	got=$(printf '%s\n' "$out" | grep '"type":"summary"' | sed 's/.*"events":\([0-9]*\).*/\1/')
	findings=$(printf '%s\n' "$out" | grep -c '"type":"finding"')
	if [ "$rc" != 0 ] || [ "$findings" != 0 ] || [ "$got" != "$want" ]; then
		echo "FAIL: $name: check exit $rc, $findings findings, $got records walked, uftrace dump prints $want"
		printf '%s\n' "$out" | grep '"type":"finding"' | head -n 3
		fail=1; return
	fi
	echo "ok: $name: clean, $got records as uftrace dump"
	dirs="$dirs $d"
}

record plain ./prog-pg
record instrument ./prog-fi
record autoargs-exec -a ./prog-pg exec
record argspec -A 'puts@arg1/s' -A 'fib@arg1/i32' -R 'fib@retval/i64' -A '^thr@arg1' ./prog-pg
record estimate -e ./prog-pg
record statm -T 'fib@read=proc/statm' ./prog-pg
record filtered -D 3 -t 1us ./prog-fi
[ -n "$dirs" ] || exit 1
# shellcheck disable=SC2086 # the directories are paths made above, without spaces
"$src/tests/e2e/uftrace_repair.sh" "$bin" /nonexistent "$work/repair" $dirs || fail=1
exit $fail
