#!/bin/sh
# SPDX-License-Identifier: MIT
# CTF 1.8 trace directories (LTTng 2.x and other writers).
# - Every pristine trace (the LTTng samples recorded here; babeltrace's succeed/ traces, its
#   packet-seq-num/, intersection/ and live/ traces, deterministic-ordering/b-not-corrupted)
#   checks clean (exit 0, no error) and decodes as many events as babeltrace2 prints (when it
#   is installed); so do babeltrace2 sink.ctf.fs copies of the samples (another writer: plain
#   metadata, its own packet layout). succeed/meta-ctx-sequence is the one babeltrace2 2.0.4 aborts on (SIGABRT;
#   its stream file is empty): 0 events are expected without asking babeltrace2.
# - intersection/onestream and intersection/3eventsintersectreverse are read by babeltrace2,
#   but their packets carry another trace's UUID than their metadata (bytes 4-19 of every
#   packet; spec 0 #11: babeltrace2 never compares them). They check clean with babeltrace2's
#   counts, the UUIDs named by the warning ctf.stream.uuid-foreign and nothing else.
# - Every fail/ trace and deterministic-ordering/{a,c}-corrupted is reported (nonzero exit,
#   neither an internal error nor a signal, within a minute). fail/fail1 and fail/smalltrace
#   declare trace version 0.1; babeltrace2 refuses that as the only reason for fail1, and so do we
#   (ctf.metadata.semantic), while still walking its stream.
# usage: ctf.sh TRACEFSCK SHARED_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 shared=$2 work=$3
bt=$shared/foreign/ctf/babeltrace
fail=0 ran=0
mkdir -p "$work"
have_bt2=0
command -v babeltrace2 >/dev/null 2>&1 && have_bt2=1

summary_of() { printf '%s\n' "$1" | grep '"type":"summary"'; }
events_of() { printf '%s' "$1" | sed 's/.*"events":\([0-9]*\).*/\1/'; }

clean() { # DIR [expected events without babeltrace2]
	d=$1
	[ -d "$d" ] || return 0
	ran=$((ran + 1))
	name=${d#"$shared"/}
	name=${name#"$work"/}
	out=$(timeout 60 $wrap "$bin" check --json "$d"); rc=$?
	s=$(summary_of "$out")
	if [ "$rc" != 0 ] || ! printf '%s' "$s" | grep -q '"verdict":"clean"' || ! printf '%s' "$s" | grep -q '"errors":0,' ||
	   ! printf '%s' "$s" | grep -q '"complete":true'; then
		echo "FAIL: $name: exit $rc"; printf '%s\n' "$out"; fail=1; return 0
	fi
	events=$(events_of "$s")
	if [ $# -ge 2 ]; then
		want=$2
	elif [ "$have_bt2" = 1 ]; then
		want=$(babeltrace2 "$d" 2>/dev/null | wc -l)
	else
		want=$events
	fi
	if [ "$want" != "$events" ]; then
		echo "FAIL: $name: $events events decoded, babeltrace2 prints $want"; fail=1; return 0
	fi
	echo "ok: $name clean, $events events"
}

reported() { # DIR [the only code expected]
	d=$1
	[ -d "$d" ] || return 0
	ran=$((ran + 1))
	name=${d#"$shared"/}
	out=$(timeout 60 $wrap "$bin" check --json "$d"); rc=$?
	if [ "$rc" = 0 ] || [ "$rc" -ge 16 ]; then
		echo "FAIL: $name: exit $rc, expected a reported fault"; printf '%s\n' "$out"; fail=1; return 0
	fi
	if [ $# -ge 2 ]; then
		other=$(printf '%s\n' "$out" | grep '"type":"finding"' | grep -v "\"code\":\"$2\"")
		if [ -n "$other" ] || ! printf '%s\n' "$out" | grep -q "\"code\":\"$2\""; then
			echo "FAIL: $name: expected only $2"; printf '%s\n' "$out"; fail=1; return 0
		fi
	fi
	echo "ok: $name reported (exit $rc): $(printf '%s\n' "$out" | grep '"type":"finding"' | sed 's/.*"code":"\([^"]*\)".*/\1/' | sort -u | tr '\n' ' ')"
}

for d in "$shared"/samples/ctf/*; do
	clean "$d"
	# babeltrace2's own CTF writer (sink.ctf.fs): plain-text metadata, another packet layout,
	# no index. The copy checks clean with the same events.
	if [ "$have_bt2" = 1 ] && [ -d "$d" ]; then
		c="$work/$(basename "$d").sink-ctf-fs"
		rm -rf "$c"
		if babeltrace2 "$d" -c sink.ctf.fs -p "path=\"$c\"" >/dev/null 2>&1; then
			clean "$c"
		else
			echo "FAIL: babeltrace2 could not convert $d"; fail=1
		fi
	fi
done
for d in "$bt"/succeed/*; do
	case "$d" in
	*/meta-ctx-sequence)
		# Its stream file is empty in babeltrace's tree; rebuilt here so that a changed copy
		# under shared/ cannot turn the test.
		m="$work/meta-ctx-sequence"
		rm -rf "$m" && mkdir -p "$m" && cp "$d/metadata" "$m/" && : > "$m/stream" && clean "$m" 0 ;;
	*) clean "$d" ;;
	esac
done
for d in "$bt"/packet-seq-num/* "$bt"/live/* "$bt"/deterministic-ordering/b-not-corrupted \
	 "$bt"/intersection/3eventsintersect "$bt"/intersection/nointersect "$bt"/intersection/nostream; do
	clean "$d"
done
for d in "$bt"/intersection/onestream "$bt"/intersection/3eventsintersectreverse; do
	[ -d "$d" ] || continue
	clean "$d" # exit 0 and babeltrace2's count: the packets are read
	out=$(timeout 60 $wrap "$bin" check --json "$d")
	other=$(printf '%s\n' "$out" | grep '"type":"finding"' | grep -v '"code":"ctf.stream.uuid-foreign","severity":"warning"')
	if [ -n "$other" ] || ! printf '%s\n' "$out" | grep -q '"code":"ctf.stream.uuid-foreign"'; then
		echo "FAIL: ${d#"$shared"/}: expected only the warning ctf.stream.uuid-foreign"; printf '%s\n' "$out"; fail=1
	fi
done
for d in "$bt"/fail/* "$bt"/deterministic-ordering/a-corrupted "$bt"/deterministic-ordering/c-corrupted; do
	reported "$d"
done
# Spec 4.7 on a copy of the multi-packet LTTng sample: the babeltrace2 hang and refusals are
# ordinary faults at the right member and offset, reported within the minute (exit 4, or 12 when
# the metadata is unusable and the streams could not be checked).
mutant() { # NAME CODE MEMBER OFFSET: check $m, expect CODE at MEMBER:OFFSET
	out=$(timeout 60 $wrap "$bin" check --json "$m"); rc=$?
	if { [ "$rc" != 4 ] && [ "$rc" != 12 ]; } || ! printf '%s\n' "$out" | grep -q "\"member\":\"$3\",\"code\":\"$2\",\"severity\":\"[a-z]*\",\"offset\":$4,"; then
		echo "FAIL: $1: exit $rc, expected $2 at $3:$4"; printf '%s\n' "$out"; fail=1
	else
		echo "ok: $1: $2 at $3:$4"
	fi
}
patch_bytes() { # FILE OFFSET OCTAL-ESCAPES
	printf "$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null
}
src="$shared/samples/ctf/multipacket-contexts.lttng"
if [ -d "$src" ]; then
	t=ust/uid/0/64-bit
	m="$work/mutant"
	fresh() { rm -rf "$m" && mkdir -p "$m" && cp -R "$src/." "$m/" && chmod -R u+w "$m"; }
	fresh; truncate -s 3000 "$m/$t/metadata"
	mutant "metadata cut inside its packet (babeltrace2 hangs)" ctf.metadata.truncated "$t/metadata" 0
	fresh; truncate -s 60000 "$m/$t/ch0_0"
	mutant "stream cut mid-packet (babeltrace2 refuses the trace)" ctf.packet.truncated "$t/ch0_0" 57344
	fresh; head -c 100 /dev/zero >> "$m/$t/ch0_0"
	mutant "100 zero bytes appended (babeltrace2 refuses the trace)" ctf.packet.trailing "$t/ch0_0" 86016
	# packet 3 of another UUID: babeltrace2 2.0.4 and 2.1.2 read it, so a warning (exit 0), and
	# repair of the stream cut after it keeps it (the 951 events of packets 1 to 14)
	fresh; patch_bytes "$m/$t/ch0_0" 12292 '\377'
	out=$(timeout 60 $wrap "$bin" check --json "$m"); rc=$?
	if [ "$rc" != 0 ] || ! printf '%s\n' "$out" | grep -q "\"member\":\"$t/ch0_0\",\"code\":\"ctf.stream.uuid-foreign\",\"severity\":\"warning\",\"offset\":12292,"; then
		echo "FAIL: packet 3 of another UUID: exit $rc, expected the warning ctf.stream.uuid-foreign at $t/ch0_0:12292"; printf '%s\n' "$out"; fail=1
	else
		echo "ok: packet 3 of another UUID: ctf.stream.uuid-foreign (a warning) at $t/ch0_0:12292"
	fi
	truncate -s 60000 "$m/$t/ch0_0"
	rm -rf "$work/uuid-out"
	$wrap "$bin" repair -q "$m" -o "$work/uuid-out" >/dev/null 2>&1; rc=$?
	out=$($wrap "$bin" check --json "$work/uuid-out"); crc=$?
	if [ "$rc" != 1 ] || [ "$crc" != 0 ] || ! printf '%s\n' "$out" | grep -q '"code":"ctf.stream.uuid-foreign"' ||
	   ! printf '%s\n' "$out" | grep -q '"events":951,'; then
		echo "FAIL: repair of a cut stream with a packet of another UUID: exit $rc, re-check $crc"; printf '%s\n' "$out"; fail=1
	else
		echo "ok: repair keeps the packet of another UUID (951 events)"
	fi
	rm -rf "$work/uuid-out"
	fresh; patch_bytes "$m/$t/ch0_0" 20544 '\062'
	mutant "packet_seq_num 50 in packet 5 (babeltrace2 prints a wrapped count)" ctf.packet.seq-regress "$t/ch0_0" 24576
	fresh; patch_bytes "$m/$t/ch0_0" 8192 '\0\0\0\0'
	mutant "a zeroed packet magic" ctf.stream.bad-magic "$t/ch0_0" 8192
	rm -rf "$m"
fi
if [ "$ran" = 0 ]; then
	echo "no CTF traces under $shared"; exit 77
fi
[ "$have_bt2" = 1 ] || echo "note: babeltrace2 not installed: event counts not compared"
exit $fail
