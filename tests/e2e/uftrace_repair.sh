#!/bin/sh
# SPDX-License-Identifier: MIT
# uftrace directory repair against the real reader. Every pristine uftrace data directory
# (samples recorded here, foreign ones recorded elsewhere) is damaged the ways spec §2.10 and
# §0 list (a killed recording: no info and a .channel FIFO; a task file cut mid-record; a
# malformed task.txt line; a sid token of 96 characters, crasher #5; a DLOP of an unknown
# session, crasher #9; a late '# symbols:' count, crasher #6; an all-ones symbol address,
# crasher #7; task.txt missing, or cut in its first line, which repair makes again; with kernel
# data, a ring page's commit word, a kernel-cpu file cut inside a page, a kernel_header block
# longer than uftrace's stack buffer), repaired with `tracefsck repair DIR -o OUT` (exit 1), and then:
#   - OUT checks clean, and repairing it again has nothing to do (exit 0);
#   - `uftrace replay -d OUT`, `uftrace info -d OUT` and `uftrace dump -d OUT` exit 0 (no signal);
#   - `uftrace dump` prints exactly as many records as the salvage report kept and the check of
#     OUT walked; where the damage touched no record, replay prints as many lines as for the
#     pristine directory.
# Without uftrace installed it exits 77 (skipped).
# usage: uftrace_repair.sh TRACEFSCK SHARED_DIR WORK_DIR [DIR...]
# With DIRs, those directories are damaged and repaired instead of the shared ones, and no
# killed recording is made.
set -u
wrap=${TFK_WRAP:-}
bin=$1 shared=$2 work=$3
shift 3
command -v uftrace >/dev/null 2>&1 || { echo "uftrace is not installed"; exit 77; }
fail=0 ran=0
mkdir -p "$work"

# Sum of "kept" over the task files (<tid>.dat) of a repair's JSON Lines.
kept_records() {
	grep '"type":"salvage_member"' | grep '"member":"[0-9]*\.dat"' | grep -v '"action":"left out"' |
		sed 's/.*"kept":\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s + 0 }'
}

# Sum of "kept" over the kernel ring page files (kernel-cpu<N>.dat) of a repair's JSON Lines.
kept_kernel() {
	grep '"type":"salvage_member"' | grep '"member":"kernel-cpu[0-9]*\.dat"' | grep -v '"action":"left out"' |
		sed 's/.*"kept":\([0-9]*\).*/\1/' | awk '{ s += $1 } END { print s + 0 }'
}

events_of() {
	"$bin" check --json "$1" | grep '"type":"summary"' | sed 's/.*"events":\([0-9]*\).*/\1/'
}

# damage NAME DIR: apply one damage to the copy DIR; "touches" says whether records may go.
damage() {
	case $1 in
	killed) rm -f "$2/info" && mkfifo "$2/.channel" ;;
	cut) f=$(ls "$2"/[0-9]*.dat | head -n 1); s=$(wc -c < "$f"); [ "$s" -gt 7 ] && truncate -s $((s - 7)) "$f" ;;
	garbage) sed -i '1a GARBAGE line here' "$2/task.txt" ;;
	longsid) sid=$(printf '%096d' 0)
		 printf 'SESS timestamp=1.000000001 pid=1 sid=%s exename="/x"\n' "$sid" >> "$2/task.txt" ;;
	dlop) printf 'DLOP timestamp=9999999.000000000 tid=1 sid=0000000000000001 base=7f0000000000 libname="/x.so"\n' \
		>> "$2/task.txt" ;;
	latecount) f=$(ls "$2"/*.sym | head -n 1); sed -i -e '/^# symbols:/d' -e '5a # symbols: 2' "$f" ;;
	allones) f=$(ls "$2"/*.sym | head -n 1); sed -i '0,/^[0-9a-f]\{16\} /s//ffffffffffffffff /' "$f" ;;
	notask) rm -f "$2/task.txt" ;;
	taskcut) truncate -s 30 "$2/task.txt" ;;
	# kernel data: a ring page's commit word, a file cut inside a page, a block uftrace overflows on
	kpage) printf '\377\377\377\177' | dd of="$2/kernel-cpu0.dat" bs=1 seek=4104 conv=notrunc 2>/dev/null ;;
	kcut) s=$(wc -c < "$2/kernel-cpu0.dat"); truncate -s $((s - 1000)) "$2/kernel-cpu0.dat" ;;
	kheader) printf 'TRACEFS: events/sched/big/format: 5000\n' >> "$2/kernel_header"
		 head -c 5000 /dev/zero | tr '\000' x >> "$2/kernel_header" ;;
	esac
}

given=$#
# (and the recording with kernel data of tests/data, whose kernel files are damaged too)
[ "$given" -gt 0 ] || set -- "$shared"/samples/uftrace/*.uftrace.data "$shared"/foreign/uftrace/*.uftrace.data \
	"$(dirname "$0")/../data/uftrace-kernel.uftrace.data"
for d in "$@"; do
	[ -d "$d" ] || continue
	name=$(basename "$d")
	want_lines=$(uftrace replay -d "$d" 2>/dev/null | wc -l)
	kdmg=""
	[ -s "$d/kernel-cpu0.dat" ] && [ -f "$d/kernel_header" ] && kdmg="kpage kcut kheader"
	for dmg in killed cut garbage longsid dlop latecount allones notask taskcut $kdmg; do
		ran=$((ran + 1))
		c="$work/$name.$dmg" o="$work/$name.$dmg.out"
		rm -rf "$c" "$o" && mkdir -p "$c" && cp -R "$d/." "$c/" && chmod -R u+w "$c" && damage $dmg "$c"
		json=$($wrap "$bin" repair --json "$c" -o "$o"); rc=$?
		sessions=$(ls "$c" | grep -c '^sid-.*\.map$')
		case $dmg in
		notask|taskcut)
			# task.txt is made again only for one session: with more (an exec), which
			# task ran in which is not known, and repair refuses (exit 4) saying so
			if [ "$sessions" != 1 ]; then
				if [ "$rc" = 4 ] && printf '%s\n' "$json" | grep -q '"reason":"[^"]*task.txt'; then
					echo "ok: $name $dmg: refused ($sessions sessions)"; rm -rf "$c"; continue
				fi
				echo "FAIL: $name $dmg: $sessions sessions, repair exit $rc"; fail=1; continue
			fi ;;
		esac
		if [ "$rc" != 1 ]; then
			echo "FAIL: $name $dmg: repair exit $rc"; printf '%s\n' "$json" | tail -n 5; fail=1; continue
		fi
		kept=$(printf '%s\n' "$json" | kept_records)
		kkept=$(printf '%s\n' "$json" | kept_kernel)
		walked=$(events_of "$o")
		$wrap "$bin" check "$o" >/dev/null; crc=$?
		$wrap "$bin" repair "$o" -o "$o.again" >/dev/null; arc=$?
		if [ "$crc" != 0 ] || [ "$arc" != 0 ] || [ -e "$o.again" ] || [ "$walked" != $((kept + kkept)) ]; then
			echo "FAIL: $name $dmg: check of OUT exit $crc, repair again exit $arc, $walked records and events walked, $kept records and $kkept kernel events kept"
			fail=1; continue
		fi
		lines=$(uftrace replay -d "$o" 2>"$o.err" | wc -l)
		uftrace replay -d "$o" >/dev/null 2>&1; prc=$?
		uftrace info -d "$o" >/dev/null 2>&1; irc=$?
		dumped=$(uftrace dump -d "$o" 2>/dev/null | grep -c ' depth: ')
		uftrace dump -d "$o" >/dev/null 2>&1; drc=$?
		if [ "$prc" != 0 ] || [ "$irc" != 0 ] || [ "$drc" != 0 ]; then
			echo "FAIL: $name $dmg: uftrace replay exit $prc, info exit $irc, dump exit $drc"; head -n 3 "$o.err"
			fail=1; continue
		fi
		if [ "$dumped" != "$kept" ]; then
			echo "FAIL: $name $dmg: uftrace dump prints $dumped records, the salvage report kept $kept"; fail=1; continue
		fi
		case $dmg in
		garbage|longsid|dlop|latecount|allones|notask|taskcut|kpage|kcut|kheader)
			if [ "$lines" != "$want_lines" ]; then
				echo "FAIL: $name $dmg: uftrace replay prints $lines lines, $want_lines for the pristine directory"
				fail=1; continue
			fi ;;
		esac
		echo "ok: $name $dmg: $kept records${kdmg:+ and $kkept kernel events} kept, uftrace replay $lines lines (pristine $want_lines)"
		rm -rf "$c" "$o" "$o.err"
	done
done
# A real killed recording (spec §2.11): two threads calling small functions, uftrace record
# killed with SIGKILL. It leaves no info and a .channel FIFO; repair must keep at least 99 % of
# the records the check walks, and uftrace replay must read the output.
if [ "$given" = 0 ] && command -v cc >/dev/null 2>&1; then
	k="$work/killed"
	rm -rf "$k" && mkdir -p "$k"
	cat > "$k/loop.c" <<'EOF_C'
#include <pthread.h>
#include <unistd.h>
volatile long x;
__attribute__((noinline)) void f(int i) { x += i; }
__attribute__((noinline)) int g(int i) { f(i); return i * 2; }
static void *th(void *a) { for (long i = 0;; i++) { g((int)i); if (i % 100000 == 0) usleep(1000); } return a; }
int main(void) { pthread_t t; pthread_create(&t, 0, th, 0); for (long i = 0;; i++) { f((int)i); if (i % 100000 == 0) usleep(1000); } }
EOF_C
	if cc -pg -O0 -o "$k/loop" "$k/loop.c" -lpthread 2>/dev/null; then
		ran=$((ran + 1))
		uftrace record -d "$k/ufk" "$k/loop" >/dev/null 2>&1 &
		rec=$!
		sleep 1
		kill -9 "$rec" 2>/dev/null; wait "$rec" 2>/dev/null
		# The traced program, should it outlive its recorder: by its pid, from the session line.
		traced=$(sed -n 's/^SESS .* pid=\([0-9]*\) .*/\1/p' "$k/ufk/task.txt" 2>/dev/null | head -n 1)
		[ -n "$traced" ] && kill -9 "$traced" 2>/dev/null
		walked=$(events_of "$k/ufk")
		json=$($wrap "$bin" repair --json "$k/ufk" -o "$k/out"); rc=$?
		kept=$(printf '%s\n' "$json" | kept_records)
		uftrace replay -d "$k/out" >/dev/null 2>&1; prc=$?
		dumped=$(uftrace dump -d "$k/out" 2>/dev/null | grep -c ' depth: ')
		if [ -e "$k/ufk/info" ]; then
			echo "skip: the killed recording wrote its info"
		elif [ "$rc" != 1 ] || [ "$prc" != 0 ] || [ "$dumped" != "$kept" ] || [ $((kept * 100)) -lt $((walked * 99)) ]; then
			echo "FAIL: killed recording: repair exit $rc, replay exit $prc, $walked records walked, $kept kept, $dumped dumped"
			fail=1
		else
			echo "ok: killed recording: $kept of $walked records kept, uftrace replay exit 0, dump $dumped records"
			rm -rf "$k"
		fi
	fi
fi
if [ "$ran" = 0 ]; then
	echo "no uftrace data directories under $shared"; exit 77
fi
exit $fail
