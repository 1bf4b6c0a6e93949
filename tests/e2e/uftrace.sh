#!/bin/sh
# SPDX-License-Identifier: MIT
# Every pristine uftrace data directory (the samples recorded here, the foreign ones recorded
# elsewhere: ../shared/foreign/uftrace and uftrace-newer, written by uftrace 0.11 to 0.16)
# checks clean (exit 0, no finding but a writer's quirk named for it below) and walks as many
# task records as `uftrace dump` prints (when uftrace is installed) and as uftrace 0.19's dump
# printed for the newer ones. Killed copies (no info) are corrupt with every record still walked.
# usage: uftrace.sh TRACEFSCK SHARED_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 shared=$2 work=$3
# The one finding a pristine directory may carry: a writer's quirk (uftrace's v0.16-2 snapshot
# wrote utc_offset: inside the record date, which every uftrace release refuses).
quirk() {
	case "$1" in
	tci-uftrace-utc.uftrace.data) echo uftrace.writer.utc-offset-unmasked ;;
	esac
}
# Task records of the newer directories, as uftrace 0.19's `uftrace dump | grep -c ' depth: '`
# printed them (for the utc one: on a copy without the quirk's line, which it refuses).
records_fixed() {
	case "$1" in
	tci-uftrace-foobar.uftrace.data) echo 18 ;;
	tci-uftrace-ls.uftrace.data) echo 113752 ;;
	tci-uftrace-utc.uftrace.data) echo 12044 ;;
	esac
}
fail=0 ran=0
mkdir -p "$work"
for d in "$shared"/samples/uftrace/*.uftrace.data "$shared"/foreign/uftrace/*.uftrace.data \
	"$shared"/foreign/uftrace-newer/*.uftrace.data; do
	[ -d "$d" ] || continue
	name=$(basename "$d")
	ran=$((ran + 1))
	out=$($wrap "$bin" check --json "$d"); rc=$?
	summary=$(printf '%s\n' "$out" | grep '"type":"summary"')
	q=$(quirk "$name")
	codes=$(printf '%s\n' "$out" | grep '"type":"finding"' | sed 's/.*"code":"\([^"]*\)".*/\1/' | sort -u | tr '\n' ' ')
	if [ "$rc" != 0 ] || ! printf '%s' "$summary" | grep -q '"verdict":"clean"' || [ "$codes" != "${q:+$q }" ]; then
		echo "FAIL: $name: exit $rc, findings: $codes"; printf '%s\n' "$out" | head -n 20; fail=1; continue
	fi
	events=$(printf '%s' "$summary" | sed 's/.*"events":\([0-9]*\).*/\1/')
	fixed=$(records_fixed "$name")
	if [ -n "$fixed" ] && [ "$fixed" != "$events" ]; then
		echo "FAIL: $name: $events records walked, uftrace 0.19 dump printed $fixed"; fail=1
	fi
	if command -v uftrace >/dev/null 2>&1; then
		dd=$d
		if [ -n "$q" ]; then
			# the directory as uftrace reads it: the quirk's line left out of info
			dd="$work/$name.readable"
			rm -rf "$dd" && mkdir -p "$dd" && cp -R "$d/." "$dd/" && chmod -R u+w "$dd"
			grep -av '^utc_offset:' "$d/info" > "$dd/info"
		fi
		want=$(uftrace dump -d "$dd" 2>/dev/null | grep -c ' depth: ')
		if [ "$want" != "$events" ]; then
			echo "FAIL: $name: $events records walked, uftrace dump prints $want"; fail=1
		fi
		[ "$dd" = "$d" ] || rm -rf "$dd"
	fi
	# The same directory as a killed recording leaves it: no info, a .channel FIFO.
	k="$work/$name.killed"
	rm -rf "$k" && mkdir -p "$k" && cp -R "$d/." "$k/" && chmod -R u+w "$k" && rm -f "$k/info" && mkfifo "$k/.channel"
	out=$($wrap "$bin" check --json "$k"); krc=$?
	ksum=$(printf '%s\n' "$out" | grep '"type":"summary"')
	kev=$(printf '%s' "$ksum" | sed 's/.*"events":\([0-9]*\).*/\1/')
	if [ "$krc" = 0 ] || ! printf '%s' "$ksum" | grep -q '"verdict":"corrupt"' || [ "$kev" != "$events" ] ||
	   ! printf '%s\n' "$out" | grep -q 'uftrace.info.missing' || ! printf '%s\n' "$out" | grep -q 'uftrace.channel.leftover'; then
		echo "FAIL: $name killed copy: exit $krc, $kev records"; printf '%s\n' "$out"; fail=1
	fi
	rm -rf "$k"
	echo "ok: $name clean, $events records"
done
if [ "$ran" = 0 ]; then
	echo "no uftrace data directories under $shared"; exit 77
fi
exit $fail
