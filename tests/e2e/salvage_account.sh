#!/bin/sh
# SPDX-License-Identifier: MIT
# The salvage account by kind against each format's own reader (issue 38): damaged copies of
# the shared samples are repaired with `tracefsck repair --json`, and the account (the
# salvage_part objects and the salvage object's totals) must say what the reader shows on the
# output and what it cannot show:
#   trace.dat (trace-cmd report): 4 KiB zeroed inside a v6's event formats - the event formats
#     lost in part, kallsyms, printk formats and saved cmdlines lost, and every kept event
#     counted without its format, as many as report's [UNKNOWN EVENT] lines; 4 KiB zeroed in
#     cpu1's zstd chunk of a v7 - cpu1 a unit lost, its events uncounted in its bytes; 4 KiB
#     zeroed inside a v7's KALLSYMS section - kallsyms lost, every event kept; every BUFFER
#     section's flags byte of each v7 zstd sample zeroed - restored from what the section
#     holds (repair from structure), one finding each, every event kept;
#   perf.data (perf script -G): cut at 70% - the records a unit lost in part, the feature
#     sections past the cut lost; a `perf record -z` file cut inside its COMPRESSED record -
#     the whole records decoded from the cut payload kept (repair from structure);
#   uftrace (uftrace dump): a task file cut and task.txt removed - the task a unit lost in
#     part, task.txt lost in part (rebuilt);
#   CTF (babeltrace2): a stream's last packet cut, and a stream zeroed in its middle - the
#     stream a unit lost in part or lost, the metadata kept; a byte of packet 0's (and packet
#     3's) magic zeroed - restored from the packets around it and the metadata (repair from
#     structure), one finding, every event kept.
# In each, the events the account keeps are the events the reader prints. A reader that is not
# installed skips its format; with none, exit 77. (LTTng 0.x has no reader here: its account
# is asserted by test_lttng0.)
# usage: salvage_account.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
bin=$1 samples=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0 ran=0
bad() { echo "FAIL: $*"; fail=1; }

# num KEY FILE: the number (or true/false) after "KEY": in the salvage object of a repair's JSON Lines
num() { grep '"type":"salvage"' "$2" | sed -n "s/.*\"$1\":\([0-9a-z]*\).*/\1/p"; }
# part NAME FILE: the salvage_part object of that name
part() { grep '"type":"salvage_part"' "$2" | grep "\"part\":\"$1\""; }
# state_is NAME STATE FILE CASE: the part is in that state
state_is() {
	part "$1" "$3" | grep -q "\"state\":\"$2\"" || bad "$4: $1 is not '$2': $(part "$1" "$3")"
}
# repair_json IN OUT LOG CASE: repair must write OUT (exit 1)
repair_json() {
	"$bin" repair --json "$1" -o "$2" > "$3" 2> "$3.err"; rc=$?
	[ "$rc" = 1 ] || { bad "$4: repair exit $rc"; cat "$3.err"; return 1; }
	"$bin" repair "$1" --dry-run > "$3.text" 2>&1
	grep -q ': account: ' "$3.text" || { bad "$4: no account line in the text report"; return 1; }
	return 0
}

if command -v trace-cmd >/dev/null 2>&1 && [ -f "$samples/tracedat/sched-irq.v6.dat.xz" ]; then
	# v6, 4 KiB zeroed inside the event formats (the xfs system's, the first after 0x3073)
	d=$work/v6-formats.dat
	xz -dkc "$samples/tracedat/sched-irq.v6.dat.xz" > "$d"
	dd if=/dev/zero of="$d" bs=4096 seek=4 count=1 conv=notrunc status=none
	if repair_json "$d" "$d.out" "$d.log" v6-formats; then
		ran=$((ran + 1))
		trace-cmd report "$d.out" > "$d.report" 2> /dev/null
		events=$(grep -v '^cpus=' "$d.report" | grep -c .)
		unknown=$(grep -c 'UNKNOWN EVENT' "$d.report")
		[ "$(num events_kept "$d.log")" = "$events" ] || bad "v6-formats: kept $(num events_kept "$d.log"), trace-cmd report shows $events"
		[ "$unknown" -gt 0 ] || bad "v6-formats: trace-cmd report shows no unknown event: the damage missed the formats"
		[ "$(num events_without_format "$d.log")" = "$unknown" ] ||
			bad "v6-formats: the account says $(num events_without_format "$d.log") events without their format, trace-cmd report $unknown [UNKNOWN EVENT] lines"
		state_is "event formats" "lost in part" "$d.log" v6-formats
		for t in kallsyms "printk formats" "saved cmdlines"; do state_is "$t" lost "$d.log" v6-formats; done
		[ "$(num metadata_lost "$d.log" | tail -n 1)" = 3 ] || bad "v6-formats: metadata_lost is not 3"
		grep -q 'without their format' "$d.log.text" || bad "v6-formats: the text does not say the events lost their format"
		echo "ok: v6-formats: $events events kept, $unknown without their format as trace-cmd shows; formats lost in part, 3 texts lost"
	fi
	# v7 zstd, 4 KiB zeroed in cpu1's chunk: cpu1 is lost whole, its events uncounted
	d=$work/v7-cpu1.dat
	cp "$samples/tracedat/sched-irq.v7zstd.dat" "$d" && chmod u+w "$d"
	at=$("$bin" describe "$d" | awk '$3 == "cpu" && $5 == "1:" { print $1 }')
	dd if=/dev/zero of="$d" bs=1 seek=$((at)) count=4096 conv=notrunc status=none
	if [ -n "$at" ] && repair_json "$d" "$d.out" "$d.log" v7-cpu1; then
		ran=$((ran + 1))
		events=$(trace-cmd report "$d.out" 2> /dev/null | grep -v '^cpus=' | grep -c .)
		[ "$(num events_kept "$d.log")" = "$events" ] || bad "v7-cpu1: kept $(num events_kept "$d.log"), trace-cmd report shows $events"
		state_is cpu1 lost "$d.log" v7-cpu1
		state_is cpu0 kept "$d.log" v7-cpu1
		part cpu1 "$d.log" | grep -q '"lost_unknown":true,"bytes_unknown":[1-9]' || bad "v7-cpu1: cpu1's bytes not given: $(part cpu1 "$d.log")"
		[ "$(num units_lost "$d.log")" = 1 ] || bad "v7-cpu1: units_lost is not 1"
		[ "$(num events_lost_unknown "$d.log")" = true ] || bad "v7-cpu1: the totals do not say events were lost uncounted"
		grep -q 'lost: cpu1' "$d.log.text" || bad "v7-cpu1: the text does not name cpu1 lost"
		echo "ok: v7-cpu1: $events events kept as trace-cmd shows; cpu1 a unit lost, its events uncounted in its bytes"
	fi
	# v7 zstd, 4 KiB zeroed inside the KALLSYMS section: kallsyms lost, every event kept
	d=$work/v7-kallsyms.dat
	cp "$samples/tracedat/sched-irq.v7zstd.dat" "$d" && chmod u+w "$d"
	at=$("$bin" describe "$d" | awk '$3 == "section" && $4 == "KALLSYMS" { print $1 }')
	dd if=/dev/zero of="$d" bs=1 seek=$((at + 409600)) count=4096 conv=notrunc status=none
	if [ -n "$at" ] && repair_json "$d" "$d.out" "$d.log" v7-kallsyms; then
		ran=$((ran + 1))
		events=$(trace-cmd report "$d.out" 2> /dev/null | grep -v '^cpus=' | grep -c .)
		[ "$(num events_kept "$d.log")" = "$events" ] && [ "$events" = 946 ] ||
			bad "v7-kallsyms: kept $(num events_kept "$d.log"), trace-cmd report shows $events (946 recorded)"
		state_is kallsyms lost "$d.log" v7-kallsyms
		state_is "event formats" kept "$d.log" v7-kallsyms
		[ "$(num units_lost "$d.log")" = 0 ] || bad "v7-kallsyms: a unit lost"
		echo "ok: v7-kallsyms: $events events kept as trace-cmd shows; kallsyms lost"
	fi
	# v7 zstd, every BUFFER section's flags byte zeroed: restored from what the sections hold
	# (compressed chunks), one finding each, every event kept
	for f in "$samples"/tracedat/*.v7zstd.dat; do
		n=$(basename "$f" .dat) d=$work/$(basename "$f" .dat).flags.dat
		cp "$f" "$d" && chmod u+w "$d"
		want=$(trace-cmd report "$f" 2> /dev/null | grep -v '^cpus=' | grep -c .)
		secs=0
		for at in $("$bin" describe "$d" | awk '$3 == "section" && $4 == "BUFFER" { print $1 }'); do
			printf '\000' | dd of="$d" bs=1 seek=$((at + 2)) conv=notrunc status=none
			secs=$((secs + 1))
		done
		errors=$("$bin" check "$d" | grep -c ' error ')
		restored=$("$bin" check "$d" | grep -c 'error tracedat.section.bad-header.*restored from what the section holds')
		# (a BUFFER without CPU data holds nothing to prove its flag by, and nothing a reader reads)
		[ "$secs" -gt 0 ] && [ "$restored" -gt 0 ] && [ "$errors" = "$restored" ] ||
			bad "$n flags: $secs BUFFER sections damaged, check reports $errors errors ($restored restored)"
		if repair_json "$d" "$d.out" "$d.log" "$n flags"; then
			ran=$((ran + 1))
			got=$(trace-cmd report "$d.out" 2> /dev/null | grep -v '^cpus=' | grep -c .)
			[ "$(num events_kept "$d.log")" = "$want" ] && [ "$got" = "$want" ] ||
				bad "$n flags: kept $(num events_kept "$d.log"), trace-cmd report shows $got of the $want recorded"
			echo "ok: $n flags: $restored of $secs BUFFER flags restored (the others hold no data), one finding each; $got of $want events read back"
		fi
	done
fi

if command -v perf >/dev/null 2>&1 && [ -f "$samples/perf/cpu-clock-callchain.perf.data" ]; then
	d=$work/perf-cut.data f=$samples/perf/cpu-clock-callchain.perf.data
	head -c $(($(wc -c < "$f") * 70 / 100)) "$f" > "$d"
	if repair_json "$d" "$d.out" "$d.log" perf-cut; then
		ran=$((ran + 1))
		got=$(perf script -G -i "$d.out" 2> /dev/null | grep -c .)
		[ "$(num events_kept "$d.log")" = "$got" ] || bad "perf-cut: kept $(num events_kept "$d.log"), perf script shows $got"
		part "data (samples)" "$d.log" | grep -q "\"kept\":$got," || bad "perf-cut: the records' unit does not keep $got"
		state_is "data (samples)" "lost in part" "$d.log" perf-cut
		state_is "feature HOSTNAME" lost "$d.log" perf-cut
		[ "$(num metadata_lost "$d.log" | tail -n 1)" -gt 0 ] || bad "perf-cut: no feature section lost"
		echo "ok: perf-cut: $got samples kept as perf script shows; the records lost in part, $(num metadata_lost "$d.log" | tail -n 1) feature sections lost"
	fi
fi

if command -v perf >/dev/null 2>&1 && [ -f "$samples/perf/compressed-z.perf.data" ]; then
	# perf record -z cut 30000 bytes into its first COMPRESSED record (44 KB): the whole records
	# the zstd stream decodes from what is left are kept, written out decoded
	d=$work/perf-zcut.data f=$samples/perf/compressed-z.perf.data
	at=$(python3 - "$f" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
off, size = struct.unpack_from("<QQ", d, 40)  # data.offset, data.size
end = off + size
while off < end:
    t, s = struct.unpack_from("<I", d, off)[0], struct.unpack_from("<H", d, off + 6)[0]
    if t == 81:
        print(off)
        break
    off += s if s else end
PY
)
	head -c $((at + 30000)) "$f" > "$d"
	if [ -n "$at" ] && repair_json "$d" "$d.out" "$d.log" perf-zcut; then
		ran=$((ran + 1))
		got=$(perf script -G -i "$d.out" 2> /dev/null | grep -c .)
		kept=$(num events_kept "$d.log")
		[ "$kept" = "$got" ] && [ "$got" -gt 1000 ] || bad "perf-zcut: kept $kept, perf script shows $got (zstd -dc of the cut payload: 1859)"
		"$bin" check -q "$d" | grep -c ' error ' | grep -qx 3 || bad "perf-zcut: check reports more than the cut (3 errors)"
		echo "ok: perf-zcut: $got samples decoded from the cut COMPRESSED record kept, as perf script shows"
	fi
fi

if command -v uftrace >/dev/null 2>&1 && [ -d "$samples/uftrace/fib-args.uftrace.data" ]; then
	d=$work/uftrace-cut
	cp -R "$samples/uftrace/fib-args.uftrace.data" "$d" && chmod -R u+w "$d"
	t=$(ls "$d"/[0-9]*.dat | head -n 1)
	truncate -s $(($(wc -c < "$t") / 2 - 7)) "$t"
	rm -f "$d/task.txt"
	if repair_json "$d" "$d.out" "$d.log" uftrace-cut; then
		ran=$((ran + 1))
		got=$(uftrace dump -d "$d.out" 2> /dev/null | grep -c ' depth: ')
		[ "$(num events_kept "$d.log")" = "$got" ] || bad "uftrace-cut: kept $(num events_kept "$d.log"), uftrace dump shows $got"
		state_is "$(basename "$t")" "lost in part" "$d.log" uftrace-cut
		state_is task.txt "lost in part" "$d.log" uftrace-cut
		state_is info kept "$d.log" uftrace-cut
		echo "ok: uftrace-cut: $got records kept as uftrace dump shows; the task lost in part, task.txt rebuilt"
	fi
fi

if command -v babeltrace2 >/dev/null 2>&1 && [ -d "$samples/ctf/multipacket-contexts.lttng" ]; then
	# the largest stream's last packet cut
	d=$work/ctf-cut
	cp -R "$samples/ctf/multipacket-contexts.lttng" "$d" && chmod -R u+w "$d"
	s=$(find "$d" -type f -path '*64-bit/ch*' ! -name '*.idx' -exec wc -c {} + | grep -v ' total$' | sort -n | tail -n 1 | awk '{ print $2 }')
	truncate -s -9 "$s"
	rel=${s#"$d"/}
	if repair_json "$d" "$d.out" "$d.log" ctf-cut; then
		ran=$((ran + 1))
		got=$(babeltrace2 "$d.out" 2> /dev/null | grep -c .)
		[ "$(num events_kept "$d.log")" = "$got" ] || bad "ctf-cut: kept $(num events_kept "$d.log"), babeltrace2 shows $got"
		state_is "$rel" "lost in part" "$d.log" ctf-cut
		state_is ust/uid/0/64-bit/metadata kept "$d.log" ctf-cut
		echo "ok: ctf-cut: $got events kept as babeltrace2 shows; $rel lost in part, the metadata kept"
	fi
	# tracef-2000's channel0_1 with 8 KiB zeroed at 20,119, inside its one packet
	d=$work/ctf-zero
	cp -R "$samples/ctf/tracef-2000.lttng" "$d" && chmod -R u+w "$d"
	s=$(find "$d" -type f -name channel0_1)
	dd if=/dev/zero of="$s" bs=1 seek=20119 count=8192 conv=notrunc status=none
	rel=${s#"$d"/}
	"$bin" repair --json "$d" -o "$d.out" > "$d.log" 2>&1; rc=$?
	if [ "$rc" = 1 ] || [ "$rc" = 4 ]; then
		ran=$((ran + 1))
		got=$(babeltrace2 "$d.out" 2> /dev/null | grep -c .)
		[ "$(num events_kept "$d.log")" = "$got" ] || bad "ctf-zero: kept $(num events_kept "$d.log"), babeltrace2 shows $got"
		part "$rel" "$d.log" | grep -q '"state":"lost' || bad "ctf-zero: $rel is not lost: $(part "$rel" "$d.log")"
		part "$rel" "$d.log" | grep -q '"lost_unknown":true' || bad "ctf-zero: $rel's loss past the damage not uncounted"
		echo "ok: ctf-zero: $got events kept as babeltrace2 shows; $rel $(part "$rel" "$d.log" | sed 's/.*"state":"\([^"]*\)".*/\1/')"
	else
		bad "ctf-zero: repair exit $rc"
	fi
fi

if command -v babeltrace2 >/dev/null 2>&1 && [ -d "$samples/ctf/multipacket-contexts.lttng" ]; then
	# a byte of a packet magic zeroed, in packet 0 and in packet 3 of the largest stream:
	# restored from the packets around it and the metadata, one finding, every event kept
	want=$(babeltrace2 "$samples/ctf/multipacket-contexts.lttng" 2> /dev/null | grep -c .)
	for k in 0 3; do
		d=$work/ctf-magic$k
		cp -R "$samples/ctf/multipacket-contexts.lttng" "$d" && chmod -R u+w "$d"
		s=$(find "$d" -type f -path '*64-bit/ch*' ! -name '*.idx' -exec wc -c {} + | grep -v ' total$' | sort -n | tail -n 1 | awk '{ print $2 }')
		psize=$(( $(od -A n -t u8 -j 56 -N 8 "$s" | tr -d ' ') / 8 ))
		printf '\000' | dd of="$s" bs=1 seek=$((k * psize + 1)) conv=notrunc status=none
		errors=$("$bin" check "$d" | grep -c ' error ')
		"$bin" check "$d" | grep -q 'error ctf.stream.bad-magic.*restored from the packets around it' && [ "$errors" = 1 ] ||
			bad "ctf-magic$k: check reports $errors errors, not the one magic restored"
		if repair_json "$d" "$d.out" "$d.log" "ctf-magic$k"; then
			ran=$((ran + 1))
			got=$(babeltrace2 "$d.out" 2> /dev/null | grep -c .)
			[ "$(num events_kept "$d.log")" = "$want" ] && [ "$got" = "$want" ] ||
				bad "ctf-magic$k: kept $(num events_kept "$d.log"), babeltrace2 shows $got of the $want recorded"
			echo "ok: ctf-magic$k: packet $k's magic restored, one finding; $got of $want events read back by babeltrace2"
		fi
	done
fi

[ "$ran" -gt 0 ] || { echo "no reader installed (trace-cmd, perf, uftrace, babeltrace2), or no samples"; exit 77; }
exit $fail
