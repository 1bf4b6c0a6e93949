#!/bin/sh
# SPDX-License-Identifier: MIT
# The fixture writer is faithful: trace-cmd itself reads every synthetic trace we ship or test
# with and shows as many events as tracefsck walks. Skipped (77) when trace-cmd is absent.
# usage: oracle.sh TRACEFSCK TDW_MAKE WORK_DIR
set -u
bin=$1 make=$2 work=$3
command -v trace-cmd >/dev/null 2>&1 || { echo "trace-cmd not installed: skipped"; exit 77; }
mkdir -p "$work"
fail=0
for kind in clean seed-le64 seed-be32 seed-instance seed-v7none seed-v7zstd seed-v7zlib seed-v7instance seed-v7be32; do
	f="$work/$kind.dat"
	"$make" "$kind" "$f" || { echo "FAIL: tdw-make $kind"; fail=1; continue; }
	ours=$("$bin" check --json "$f" | sed -n 's/.*"type":"summary".*"events":\([0-9]*\).*/\1/p')
	if [ "$kind" = seed-v7zlib ]; then
		# Debian's trace-cmd is built without zlib: only our count can be compared with the writer's.
		[ -n "$ours" ] && [ "$ours" -gt 0 ] && echo "ok: $kind ($ours events; trace-cmd cannot read zlib)" && continue
	fi
	theirs=$(trace-cmd report "$f" 2>/dev/null | grep -vc '^cpus=\|^ *$')
	if [ -n "$ours" ] && [ "$ours" = "$theirs" ]; then
		echo "ok: $kind: $ours events, as trace-cmd report"
	else
		echo "FAIL: $kind: tracefsck walked '$ours' events, trace-cmd report printed $theirs"; fail=1
	fi
done
exit $fail
