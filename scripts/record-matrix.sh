#!/bin/bash
# SPDX-License-Identifier: MIT
# Records, on the machine it runs on, the matrix of real traces users make: trace-cmd trace.dat
# files (v6, v7 zstd, v7 uncompressed; top buffer, instances, both; empty CPUs and buffers; other
# clocks; a single event) and perf.data files (plain, system wide, call graphs, compressed,
# directory, tracepoints, pipe). Made with the real tools, they are the shapes tracefsck must
# call clean; tests/e2e/matrix.sh checks them, and damaged copies of them exercise repair.
#
# usage: record-matrix.sh OUTDIR [quick|full]
#   quick  a subset for CI (well under a minute)
#   full   everything below
# Writes the files into OUTDIR, one line per file on stdout ("NAME  what it is"), the same as
# tab-separated "NAME<TAB>KIND<TAB>WHAT" lines in OUTDIR/MATRIX (KIND: tracedat or perf), and
# "skip: ..." lines on stderr for variants this machine cannot make.
#
# Needs root, tracefs, trace-cmd (3.1) for the trace.dat part and perf for the perf.data part.
# `trace-cmd record` cannot enable ftrace on every machine (it fails on ours), so events are
# enabled through tracefs by hand and the buffers read with `trace-cmd extract`. That changes
# global tracing state: everything is saved first and put back on exit, whatever happens; only
# instances named tfkm-* (made here) are removed. One run at a time (a lock on tracefs).
set -u

usage() { echo "usage: $0 OUTDIR [quick|full]" >&2; exit 16; }
[ $# -ge 1 ] && [ $# -le 2 ] || usage
set_=${2:-quick}
case $set_ in quick | full) ;; *) usage ;; esac
mkdir -p "$1" || exit 8
out=$(cd "$1" && pwd) || exit 8
manifest=$out/MATRIX
log=$out/.record.log
: > "$manifest"
: > "$log"

note() { echo "skip: $*" >&2; }
full() { [ "$set_" = full ]; }
# emit NAME KIND WHAT: the file exists (a perf --threads recording is a directory): list it.
emit() {
	if [ ! -s "$out/$1" ] && [ ! -d "$out/$1" ]; then
		note "$1: not made (see $log)"
		return 1
	fi
	printf '%s\t%s\t%s\n' "$1" "$2" "$3" >> "$manifest"
	printf '%-30s %s\n' "$1" "$3"
}
run() { echo "+ $*" >> "$log"; "$@" >> "$log" 2>&1; }

# A short workload that forks, execs, reads files and sleeps, so sched, irq and timer events fire.
work() {
	ls -R /usr/include/linux > /dev/null 2>&1
	sh -c 'echo hi > /dev/null'
	cat /proc/self/stat > /dev/null
	sleep 0.05
}
# A CPU-bound loop for perf's samplers (a fraction of a second).
spin() { sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done'; }

# ---------------------------------------------------------------------------------------------
# trace.dat
# ---------------------------------------------------------------------------------------------
T=/sys/kernel/tracing
P=tfkm # prefix of the instances made here
have_tc=1
if [ "$(id -u)" != 0 ]; then
	note "trace.dat: not root"; have_tc=0
elif ! command -v trace-cmd > /dev/null 2>&1; then
	note "trace.dat: trace-cmd is not installed"; have_tc=0
else
	mountpoint -q $T || mount -t tracefs nodev $T 2> /dev/null
	if [ ! -w $T/tracing_on ]; then
		note "trace.dat: tracefs is not writable at $T"; have_tc=0
	fi
fi

saved=0
filters="" # event filter files set here, cleared on exit
save_state() {
	s_on=$(cat $T/tracing_on)
	# "7 (expanded: 1408)" before the buffer was first used: 1408 is the size to give back.
	s_kb=$(sed 's/.*expanded: \([0-9]*\).*/\1/; s/[^0-9].*//' $T/buffer_size_kb)
	s_clock=$(sed 's/.*\[\(.*\)\].*/\1/' $T/trace_clock)
	s_mask=$(cat $T/tracing_cpumask)
	s_events=$(cat $T/set_event)
	saved=1
}
restore_state() {
	[ "$saved" = 1 ] || return 0
	echo 0 > $T/tracing_on
	for d in $T/instances/$P-*; do
		[ -d "$d" ] || continue
		echo 0 > "$d/tracing_on" 2> /dev/null
		rmdir "$d" 2> /dev/null || echo "warning: could not remove instance $d" >&2
	done
	echo 0 > $T/events/enable
	for f in $filters; do echo 0 > "$f" 2> /dev/null; done
	echo > $T/trace
	echo "$s_clock" > $T/trace_clock
	echo "$s_mask" > $T/tracing_cpumask
	echo "$s_kb" > $T/buffer_size_kb
	printf '%s\n' "$s_events" | while read -r e; do
		[ -n "$e" ] && echo "$e" >> $T/set_event
	done
	echo "$s_on" > $T/tracing_on
	saved=0
}

if [ "$have_tc" = 1 ]; then
	# Two recordings at once would read each other's buffers. The lock is tracefs itself (its
	# root directory), the one thing every recorder on this kernel shares, in any container
	# or chroot; /run/lock would not be.
	if command -v flock > /dev/null 2>&1; then
		exec 9< $T
		flock -w 600 9 || { echo "another recording holds the lock on $T" >&2; exit 8; }
	fi
	save_state
	trap restore_state EXIT
	trap 'exit 130' INT TERM HUP
fi

# Instances other than ours would be read (and emptied: extract consumes what it reads) by -a.
others=0
for d in $T/instances/*; do
	[ -d "$d" ] || continue
	case ${d##*/} in $P-*) ;; *) others=1 ;; esac
done

# A clean slate for one recording: all off and empty, small buffers (short recordings stay
# small files), our instances gone.
reset() {
	echo 0 > $T/tracing_on
	for d in $T/instances/$P-*; do [ -d "$d" ] && rmdir "$d"; done
	echo 0 > $T/events/enable
	for f in $filters; do echo 0 > "$f"; done
	echo "$s_clock" > $T/trace_clock
	echo "$s_mask" > $T/tracing_cpumask
	echo "${1:-256}" > $T/buffer_size_kb
	echo > $T/trace
}
instance() { # instance NAME: a new, empty, stopped instance with a small buffer
	mkdir $T/instances/$P-$1 && echo 0 > $T/instances/$P-$1/tracing_on &&
		echo 128 > $T/instances/$P-$1/buffer_size_kb
}
ev() { # ev BUFFERDIR EVENT...: enable events (system or system/event) in a buffer
	local b=$1 e
	shift
	for e in "$@"; do echo 1 > "$b/events/$e/enable" || note "event $e cannot be enabled"; done
}
on() { # on BUFFERDIR...: tracing on in these buffers
	local b
	for b in "$@"; do echo 1 > "$b/tracing_on"; done
}
off() {
	local b
	echo 0 > $T/tracing_on
	for b in $T/instances/$P-*; do [ -d "$b" ] && echo 0 > "$b/tracing_on"; done
}
# -a reads every instance; when someone else's exist, name ours instead (extract empties what it reads).
all_instances() {
	if [ "$others" = 0 ]; then
		echo -a
	else
		for d in $T/instances/$P-*; do echo "-B ${d##*/}"; done
	fi
}
extract() { # extract NAME ARGS...: trace-cmd extract into OUTDIR/NAME
	local n=$1
	shift
	rm -f "$out/$n"
	run trace-cmd extract "$@" -o "$out/$n" || { note "$n: trace-cmd extract $* failed (see $log)"; rm -f "$out/$n"; return 1; }
}
# convert IN OUT ARGS...: trace-cmd convert (version and compression changes)
convert() {
	local i=$1 o=$2
	shift 2
	[ -s "$out/$i" ] || return 1
	rm -f "$out/$o"
	run trace-cmd convert -i "$out/$i" -o "$out/$o" "$@" || { note "$o: trace-cmd convert $* failed (see $log)"; rm -f "$out/$o"; return 1; }
}
tc() { emit "$1" tracedat "$2"; }

if [ "$have_tc" = 1 ]; then
	ncpu=$(nproc)
	# Top buffer only: sched and irq events of the workload, `trace-cmd extract` as is (v7, zstd).
	reset
	ev $T sched/sched_switch sched/sched_wakeup irq
	on $T; work; off
	extract td-top.v7zstd.dat && tc td-top.v7zstd.dat "top buffer (sched, irq): trace-cmd extract (v7 zstd)"
	convert td-top.v7zstd.dat td-top.v6.dat --file-version 6 && tc td-top.v6.dat "top buffer: trace-cmd convert v7 -> v6"
	convert td-top.v7zstd.dat td-top.v7none.dat --compression none &&
		tc td-top.v7none.dat "top buffer: trace-cmd convert --compression none (v7 uncompressed)"
	if full; then
		convert td-top.v6.dat td-top.v6-v7.dat --file-version 7 &&
			tc td-top.v6-v7.dat "top buffer: trace-cmd convert v6 -> v7 (default compression: zstd)"
		convert td-top.v6.dat td-top.v6-v7none.dat --file-version 7 --compression none &&
			tc td-top.v6-v7none.dat "top buffer: trace-cmd convert v6 -> v7 --compression none"
		convert td-top.v7none.dat td-top.v7none-zstd.dat --compression zstd &&
			tc td-top.v7none-zstd.dat "top buffer: trace-cmd convert v7 none -> v7 --compression zstd"
	fi
	# zlib: only when this trace-cmd was built with it (Debian's 3.1.6 lists zstd alone).
	if trace-cmd list -c 2> /dev/null | grep -qw zlib; then
		convert td-top.v7zstd.dat td-top.v7zlib.dat --compression zlib &&
			tc td-top.v7zlib.dat "top buffer: trace-cmd convert --compression zlib"
	else
		note "v7 zlib: this trace-cmd has no zlib (trace-cmd list -c)"
	fi

	# Instances only, top buffer empty: the top's CPUs are empty, and trace-cmd convert to v6
	# writes them as size 0 and offset 0.
	reset
	instance a && instance b
	ev $T/instances/$P-a sched/sched_switch
	ev $T/instances/$P-b irq timer
	on $T/instances/$P-a $T/instances/$P-b; work; off
	extract td-inst-only.v7zstd.dat $(all_instances) -t &&
		tc td-inst-only.v7zstd.dat "instances $P-a (sched_switch), $P-b (irq, timer), top empty: extract -a -t"
	convert td-inst-only.v7zstd.dat td-inst-only.v6.dat --file-version 6 &&
		tc td-inst-only.v6.dat "instances only: convert v7 -> v6 (top CPUs size 0, offset 0)"
	full && convert td-inst-only.v7zstd.dat td-inst-only.v7none.dat --compression none &&
		tc td-inst-only.v7none.dat "instances only: convert --compression none"

	# Top buffer and several instances, each with its own events.
	reset
	instance a && instance b && instance c
	ev $T sched/sched_switch
	ev $T/instances/$P-a irq
	ev $T/instances/$P-b timer
	ev $T/instances/$P-c sched/sched_wakeup sched/sched_process_exec
	on $T $T/instances/$P-a $T/instances/$P-b $T/instances/$P-c; work; off
	extract td-top-inst.v7zstd.dat $(all_instances) -t &&
		tc td-top-inst.v7zstd.dat "top (sched_switch) + 3 instances (irq; timer; wakeup, exec): extract -a -t"
	convert td-top-inst.v7zstd.dat td-top-inst.v6.dat --file-version 6 &&
		tc td-top-inst.v6.dat "top + 3 instances: convert v7 -> v6"
	full && convert td-top-inst.v7zstd.dat td-top-inst.v7none.dat --compression none &&
		tc td-top-inst.v7none.dat "top + 3 instances: convert --compression none"

	# One instance that recorded nothing beside a top buffer that did.
	reset
	instance idle
	ev $T sched/sched_switch irq
	on $T $T/instances/$P-idle; work; off
	extract td-empty-inst.v7zstd.dat $(all_instances) -t &&
		tc td-empty-inst.v7zstd.dat "top (sched_switch, irq) + instance $P-idle with no events: extract -a -t"
	convert td-empty-inst.v7zstd.dat td-empty-inst.v6.dat --file-version 6 &&
		tc td-empty-inst.v6.dat "top + empty instance: convert v7 -> v6"

	# Tiny: one trace_marker write and nothing else enabled (ftrace/print is always on).
	reset
	on $T
	echo "tracefsck matrix marker" > $T/trace_marker
	off
	extract td-marker.v7zstd.dat && tc td-marker.v7zstd.dat "one trace_marker write (ftrace/print), nothing else: extract"
	convert td-marker.v7zstd.dat td-marker.v6.dat --file-version 6 && tc td-marker.v6.dat "one trace_marker write: convert v7 -> v6"

	# One CPU without data: tracing_cpumask keeps every event off the other CPUs.
	if [ "$ncpu" -ge 2 ]; then
		reset
		echo 1 > $T/tracing_cpumask
		ev $T sched/sched_switch sched/sched_wakeup irq
		on $T; work; off
		extract td-cpu0only.v7zstd.dat && tc td-cpu0only.v7zstd.dat "tracing_cpumask 1: CPU 0 has data, the others none: extract"
		convert td-cpu0only.v7zstd.dat td-cpu0only.v6.dat --file-version 6 &&
			tc td-cpu0only.v6.dat "CPU 0 only: convert v7 -> v6"
	else
		note "one CPU without data: this machine has one CPU"
	fi

	# A non-default clock: extract takes no -C, it records whatever trace_clock says.
	reset
	echo mono > $T/trace_clock
	ev $T sched/sched_switch irq
	on $T; work; off
	extract td-mono.v7zstd.dat && tc td-mono.v7zstd.dat "trace_clock mono: extract"
	full && convert td-mono.v7zstd.dat td-mono.v6.dat --file-version 6 && tc td-mono.v6.dat "trace_clock mono: convert v7 -> v6"

	if full; then
		# A single event: fork once, seen through a filter on this shell's pid.
		reset
		echo "common_pid == $$" > $T/events/sched/sched_process_fork/filter
		filters="$filters $T/events/sched/sched_process_fork/filter"
		ev $T sched/sched_process_fork
		on $T; /bin/true; off
		extract td-one-event.v7zstd.dat && tc td-one-event.v7zstd.dat "one sched_process_fork (filtered on the recorder's pid): extract"
		convert td-one-event.v7zstd.dat td-one-event.v6.dat --file-version 6 &&
			tc td-one-event.v6.dat "one event: convert v7 -> v6"

		# extract --date (the DATE option: an offset from the trace clock to wall time).
		reset
		ev $T sched/sched_switch
		on $T; work; off
		extract td-date.v7zstd.dat --date && tc td-date.v7zstd.dat "top buffer: extract --date"
		convert td-date.v7zstd.dat td-date.v6.dat --file-version 6 && tc td-date.v6.dat "--date: convert v7 -> v6"

		# extract --compression none: v7 uncompressed written by extract itself, not convert.
		reset
		ev $T sched/sched_switch irq
		on $T; work; off
		extract td-extract-none.v7none.dat --compression none &&
			tc td-extract-none.v7none.dat "top buffer: extract --compression none"

		# extract -B: one instance, no top buffer in the file at all.
		reset
		instance only
		ev $T/instances/$P-only sched/sched_switch irq
		on $T/instances/$P-only; work; off
		extract td-one-inst.v7zstd.dat -B $P-only && tc td-one-inst.v7zstd.dat "extract -B $P-only: one instance, no top buffer"
		convert td-one-inst.v7zstd.dat td-one-inst.v6.dat --file-version 6 && tc td-one-inst.v6.dat "extract -B: convert v7 -> v6"

		# extract -a without -t: the instances, the top buffer left out.
		reset
		instance a && instance b
		ev $T/instances/$P-a sched/sched_switch
		ev $T/instances/$P-b irq
		on $T/instances/$P-a $T/instances/$P-b; work; off
		extract td-inst-a.v7zstd.dat $(all_instances) && tc td-inst-a.v7zstd.dat "extract -a (no -t): 2 instances"
		convert td-inst-a.v7zstd.dat td-inst-a.v6.dat --file-version 6 && tc td-inst-a.v6.dat "extract -a: convert v7 -> v6"

		# Overrun: a 8 KiB buffer and a busy workload; old pages are overwritten and the kept
		# pages carry the missed-events marks.
		reset 8
		ev $T sched irq timer
		on $T; work; work; off
		extract td-overrun.v7zstd.dat && tc td-overrun.v7zstd.dat "8 KiB buffer overrun (missed events): extract"
		convert td-overrun.v7zstd.dat td-overrun.v6.dat --file-version 6 && tc td-overrun.v6.dat "overrun: convert v7 -> v6"

		# Many pages per CPU: several compressed chunks per CPU in v7.
		reset 1024
		ev $T sched irq timer kmem/kmalloc kmem/kfree
		on $T; work; work; work; off
		extract td-busy.v7zstd.dat && tc td-busy.v7zstd.dat "busy (sched, irq, timer, kmalloc/kfree; many pages a CPU): extract"
		convert td-busy.v7zstd.dat td-busy.v6.dat --file-version 6 && tc td-busy.v6.dat "busy: convert v7 -> v6"
		convert td-busy.v7zstd.dat td-busy.v7none.dat --compression none && tc td-busy.v7none.dat "busy: convert --compression none"

		# The x86 TSC as the clock, when the kernel offers it.
		if grep -qw x86-tsc $T/trace_clock; then
			reset
			echo x86-tsc > $T/trace_clock
			ev $T sched/sched_switch
			on $T; work; off
			extract td-tsc.v7zstd.dat && tc td-tsc.v7zstd.dat "trace_clock x86-tsc: extract"
		else
			note "trace_clock x86-tsc: not offered here"
		fi
	fi
	note "latency traces (irqsoff/wakeup tracers): not made; this recorder uses events, not tracers"
	restore_state
	trap - EXIT
fi

# ---------------------------------------------------------------------------------------------
# perf.data
# ---------------------------------------------------------------------------------------------
pf() { emit "$1" perf "$2"; }
prec() { # prec NAME PERF-RECORD-ARGS... -- COMMAND
	local n=$1
	shift
	rm -rf "${out:?}/$n"
	run perf record "$@" || { note "$n: perf record $* failed (see $log)"; rm -rf "${out:?}/$n"; return 1; }
}
if ! command -v perf > /dev/null 2>&1; then
	note "perf.data: perf is not installed"
elif ! perf record -o "$out/.probe.data" -- true > /dev/null 2>&1; then
	note "perf.data: perf record does not work here (perf_event_paranoid $(cat /proc/sys/kernel/perf_event_paranoid 2> /dev/null))"
else
	rm -f "$out/.probe.data"
	prec perf-plain.data -o "$out/perf-plain.data" -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' &&
		pf perf-plain.data "perf record (default event, one task)"
	prec perf-a.data -a -o "$out/perf-a.data" -- sleep 0.2 && pf perf-a.data "perf record -a (system wide, 0.2 s)"
	prec perf-g.data -g -o "$out/perf-g.data" -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' &&
		pf perf-g.data "perf record -g (frame-pointer call chains)"
	prec perf-dwarf.data --call-graph dwarf -F 200 -o "$out/perf-dwarf.data" -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' &&
		pf perf-dwarf.data "perf record --call-graph dwarf -F 200 (user stacks and registers)"
	prec perf-z.data -z -o "$out/perf-z.data" -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' &&
		pf perf-z.data "perf record -z (PERF_RECORD_COMPRESSED, zstd)"
	prec perf-threads.data --threads -o "$out/perf-threads.data" -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' &&
		pf perf-threads.data "perf record --threads (a directory: data + data.N)"
	prec perf-tp.data -e sched:sched_switch -o "$out/perf-tp.data" -- sh -c 'for i in 1 2 3 4 5 6 7 8 9 10; do sleep 0.01; done' &&
		pf perf-tp.data "perf record -e sched:sched_switch (tracepoint, HEADER_TRACING_DATA)"
	rm -f "$out/perf-pipe.data"
	echo "+ perf record -o - > perf-pipe.data" >> "$log"
	if perf record -o - -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' > "$out/perf-pipe.data" 2>> "$log"; then
		pf perf-pipe.data "perf record -o - > file (pipe mode)"
	else
		note "perf-pipe.data: perf record -o - failed (see $log)"; rm -f "$out/perf-pipe.data"
	fi
	if full; then
		prec perf-a-g.data -a -g -o "$out/perf-a-g.data" -- sleep 0.2 && pf perf-a-g.data "perf record -a -g"
		prec perf-z-a.data -z -a -o "$out/perf-z-a.data" -- sleep 0.3 && pf perf-z-a.data "perf record -z -a (several COMPRESSED records)"
		prec perf-tp-a.data -e sched:sched_switch -a -o "$out/perf-tp-a.data" -- sleep 0.2 &&
			pf perf-tp-a.data "perf record -e sched:sched_switch -a"
		prec perf-tp-z.data -e sched:sched_switch -e sched:sched_wakeup -z -a -o "$out/perf-tp-z.data" -- sleep 0.2 &&
			pf perf-tp-z.data "perf record -e sched:sched_switch -e sched:sched_wakeup -z -a"
		prec perf-threads-z.data --threads -z -o "$out/perf-threads-z.data" -- sh -c 'i=0; while [ $i -lt 30000 ]; do i=$((i + 1)); done' &&
			pf perf-threads-z.data "perf record --threads -z"
		rm -f "$out/perf-pipe-tp.data"
		echo "+ perf record -e sched:sched_switch -a -o - > perf-pipe-tp.data" >> "$log"
		if perf record -e sched:sched_switch -a -o - -- sleep 0.2 > "$out/perf-pipe-tp.data" 2>> "$log"; then
			pf perf-pipe-tp.data "perf record -e sched:sched_switch -a -o - (pipe mode, TRACING_DATA as a record)"
		else
			note "perf-pipe-tp.data: perf record -o - failed (see $log)"; rm -f "$out/perf-pipe-tp.data"
		fi
	fi
fi
[ -s "$manifest" ] || { echo "nothing recorded" >&2; exit 8; }
exit 0
