#!/bin/sh
# SPDX-License-Identifier: MIT
# Ctrl-C (SIGINT) ends tracefsck with 32, as fsck(8) ("checking canceled by user request"), not
# the shell's 130: a check waiting on a FIFO nobody writes is interrupted. Started with SIGINT
# ignored (a shell's background job), it leaves it ignored.
# usage: interrupt.sh TRACEFSCK WORK_DIR
set -u
bin=$1 work=$2
rm -rf "$work" && mkdir -p "$work" || exit 1
command -v python3 > /dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
[ -r /proc/self/status ] || { echo "SKIP: no /proc"; exit 77; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
mkfifo "$work/fifo" || exit 1

# wait_ready PID: until the process is tracefsck and has set up its SIGINT disposition
# (startup on a busy machine can take a while); 0 when it catches SIGINT, 1 when it does not.
wait_ready() {
	i=0
	while [ $i -lt 300 ]; do
		if [ "$(cat /proc/$1/comm 2>/dev/null)" = tracefsck ] && grep -q '^State:.*S' /proc/$1/status; then
			caught=$(awk '/^SigCgt/ { print $2 }' /proc/$1/status)
			[ $((0x$caught & 2)) = 2 ] && return 0
			sleep 0.5 # a moment more: the handler is set first thing in main
			caught=$(awk '/^SigCgt/ { print $2 }' /proc/$1/status)
			[ $((0x$caught & 2)) = 2 ] && return 0 || return 1
		fi
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

# A shell runs background jobs with SIGINT ignored: the wrapper gives it back its default.
python3 -c 'import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])' \
	"$bin" check --idle-timeout 0 --timeout 0 "$work/fifo" > "$work/check.out" 2>&1 &
pid=$!
if wait_ready $pid; then
	kill -INT $pid
	wait $pid
	rc=$?
	[ $rc = 32 ] && ok "SIGINT ends check with 32" || { bad "SIGINT: exit $rc, expected 32"; cat "$work/check.out"; }
else
	bad "tracefsck does not catch SIGINT"
	kill -KILL $pid 2>/dev/null
	wait $pid
fi

# Left ignored: SIGINT does nothing, SIGTERM still ends it.
"$bin" check --idle-timeout 0 --timeout 0 "$work/fifo" > "$work/ignored.out" 2>&1 &
pid=$!
if wait_ready $pid; then
	bad "SIGINT, ignored by the shell, is caught"
else
	ok "SIGINT stays ignored in a background job"
fi
kill -INT $pid 2>/dev/null
sleep 0.5
kill -0 $pid 2>/dev/null && ok "still running after an ignored SIGINT" || bad "an ignored SIGINT ended it"
kill -TERM $pid 2>/dev/null
wait $pid
exit $fail
