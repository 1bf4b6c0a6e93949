#!/bin/sh
# SPDX-License-Identifier: MIT
# Odd members of trace directories and odd policy files: a FIFO or socket member is reported
# (core.input.member-special) by every directory format; a member path longer than this build
# lists is its limit (core.limit.reached, exit 8), never a fault of the trace; --policy naming a
# FIFO nobody writes does not hang the run.
# usage: dir_members.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
bin=$1 samples=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
[ -d "$samples/ctf/tracef-2000.lttng" ] || { echo "SKIP: no CTF sample"; exit 77; }
command -v python3 > /dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
fresh() { rm -rf "$work/t" && cp -r "$samples/ctf/tracef-2000.lttng" "$work/t" && chmod -R u+w "$work/t"; }
ch=ust/uid/0/64-bit

# a FIFO beside the streams (a channel a killed session left): reported, never opened
fresh
mkfifo "$work/t/$ch/channel0_9"
timeout 60 "$bin" check "$work/t" > "$work/out" 2>&1; rc=$?
if grep -q "channel0_9: .*core.input.member-special" "$work/out" && [ "$rc" = 0 ]; then
	ok "FIFO member of a CTF trace: core.input.member-special"
else
	bad "FIFO member of a CTF trace: exit $rc"; cat "$work/out"
fi

# a socket member
fresh
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$work/t/$ch/sock" || exit 1
timeout 60 "$bin" check "$work/t" > "$work/out" 2>&1; rc=$?
grep -q "sock: .*core.input.member-special.*socket or device" "$work/out" && ok "socket member: core.input.member-special" ||
	{ bad "socket member: exit $rc"; cat "$work/out"; }

# a path of 240 characters inside the trace: a limit of this build, the verdict incomplete
fresh
long=$(printf '%0240d' 0 | tr 0 b)
mv "$work/t/$ch" "$work/t/ust/uid/0/$long"
timeout 60 "$bin" check "$work/t" > "$work/out" 2>&1; rc=$?
if [ "$rc" = 8 ] && grep -q "core.limit.reached" "$work/out" && ! grep -q " error " "$work/out"; then
	ok "a member path longer than 255 bytes: exit 8, core.limit.reached, no error"
else
	bad "a member path longer than 255 bytes: exit $rc"; cat "$work/out"
fi

# --policy naming a FIFO nobody writes: refused after a wait, never a hang
mkfifo "$work/policy"
fresh
start=$(date +%s)
timeout 60 "$bin" check --policy "$work/policy" "$work/t" > "$work/out" 2>&1; rc=$?
took=$(( $(date +%s) - start ))
[ "$rc" = 16 ] && [ "$took" -lt 50 ] && ok "--policy FIFO without a writer: exit 16 after ${took} s" ||
	{ bad "--policy FIFO without a writer: exit $rc after ${took} s"; cat "$work/out"; }
rm -rf "$work"
exit $fail
