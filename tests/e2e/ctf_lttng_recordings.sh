#!/bin/sh
# SPDX-License-Identifier: MIT
# LTTng 2.14 and 2.15 user space recordings (tests/data/ctf/lttng-*.tar.xz; README.md says how
# each was made): CTF 2 and CTF 1.8, per-UID and per-PID buffers, snapshots, a channel small
# enough to discard events, two channels (two stream classes).
# - each recording checks clean (exit 0, no error) and decodes the events babeltrace2 2.1.2
#   printed when it was recorded (its README line), or babeltrace2 2.1's own count when it is
#   installed (TFK_BT2_21: its babeltrace2 program);
# - with babeltrace2 2.1: damaged copies are reported (exit 4) and repaired (exit 1), the output
#   checks clean, and babeltrace2 2.1 reads exactly the events the repair kept:
#   a data stream cut inside its last packet, and the metadata cut inside its last packet
#   (CTF 1.8 TSDL, or CTF 2 JSON fragments: either way a packetized metadata stream).
# Without babeltrace2 2.1 (built outside the tree, not part of this project) the recorded
# counts are checked and the test is a skip (77), not a pass.
# usage: ctf_lttng_recordings.sh TRACEFSCK TESTS_DATA_CTF
set -u
bin=$1 data=$2
bt2=${TFK_BT2_21:-}
[ -n "$bt2" ] && [ -x "$bt2" ] || bt2=
if [ -n "$bt2" ] && ! "$bt2" --version 2>/dev/null | grep -q ' 2\.1'; then bt2=; fi
fail=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
events_of() { "$bin" check --json "$1" | grep '"type":"summary"' | sed 's/.*"events":\([0-9]*\).*/\1/'; }
count() { "$bt2" "$1" 2>/dev/null | wc -l; } # babeltrace2 prints one line an event (warnings go to stderr)

# NAME:EVENTS:DAMAGE, the count babeltrace2 2.1.2 printed for each (README.md), and the cuts
# made to it (a cut in a one-packet stream or metadata leaves nothing to keep: repair refuses)
recordings=${TFK_LTTNG_RECORDINGS:-lttng-2.15.1-ctf2-uid-2ch:630:stream,metadata lttng-2.15.1-ctf2-pid:630:stream lttng-2.15.1-ctf2-discard:5107:stream lttng-2.15.1-ctf18-uid-2ch:630:stream,metadata lttng-2.15.1-ctf18-pid:630:stream lttng-2.15.1-snapshot-ctf-2:200: lttng-2.15.1-snapshot-ctf-1.8:200:}

for x in $recordings; do
	name=${x%%:*} rest=${x#*:}
	want=${rest%%:*} cuts=$(printf '%s' "${rest#*:}" | tr ',' ' ')
	f=$data/$name.tar.xz
	[ -f "$f" ] || { echo "FAIL: $f missing"; fail=1; continue; }
	t=$work/$name
	mkdir -p "$t" && tar -xJf "$f" -C "$t"
	d=$t/$name
	"$bin" check --quiet "$d" >/dev/null 2>&1; rc=$?
	if [ "$rc" != 0 ]; then echo "FAIL: $name: exit $rc"; "$bin" check "$d"; fail=1; continue; fi
	n=$(events_of "$d")
	[ -n "$bt2" ] && want=$(count "$d")
	if [ "$n" != "$want" ]; then echo "FAIL: $name: $n events, babeltrace2 2.1 prints $want"; fail=1; continue; fi
	echo "ok: $name clean, $n events"
	[ -n "$bt2" ] || continue
	# The damaged copies: CUT is a data stream (the largest) or the metadata, cut inside its
	# last packet (400 bytes before its end: LTTng packets are 4 KiB or more).
	for what in $cuts; do
		c=$work/$name.$what
		rm -rf "$c" "$c.out" && cp -R "$d" "$c"
		if [ "$what" = stream ]; then
			victim=$(find "$c" -type f ! -name metadata ! -name '*.idx' -exec ls -S {} + | head -1)
		else
			victim=$(find "$c" -type f -name metadata | head -1)
		fi
		truncate -s $(( $(stat -c %s "$victim") - 400 )) "$victim"
		"$bin" check --quiet "$c" >/dev/null 2>&1; rc=$?
		if [ "$rc" != 4 ]; then echo "FAIL: $name, $what cut: check exit $rc, expected 4"; "$bin" check "$c"; fail=1; continue; fi
		"$bin" repair -q "$c" -o "$c.out" >/dev/null 2>&1; rc=$?
		"$bin" check --quiet "$c.out" >/dev/null 2>&1; crc=$?
		kept=$(events_of "$c.out")
		got=$(count "$c.out")
		if [ "$rc" != 1 ] || [ "$crc" != 0 ] || [ "$kept" != "$got" ] || [ "$kept" -gt "$n" ]; then
			echo "FAIL: $name, $what cut: repair exit $rc, re-check $crc, $kept events kept, babeltrace2 2.1 reads $got"
			"$bin" repair "$c" -o "$c.again" 2>&1 | head -20
			fail=1
		else
			echo "ok: $name, $what cut: reported, repaired, $kept of $n events kept, babeltrace2 2.1 reads $got"
		fi
		rm -rf "$c" "$c.out" "$c.again"
	done
	rm -rf "$t"
done
[ "$fail" = 0 ] || exit 1
[ -n "$bt2" ] || { echo "skip: babeltrace2 2.1 not installed (TFK_BT2_21); the recorded counts held"; exit 77; }
exit 0
