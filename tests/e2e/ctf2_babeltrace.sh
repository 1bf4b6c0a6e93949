#!/bin/sh
# SPDX-License-Identifier: MIT
# CTF 2 against babeltrace 2.1, the reader that defines it (its sink.ctf.fs writes CTF 2 too):
# - babeltrace 2.1's own CTF 2 test traces (tests/data/ctf-traces/2 of its source, found with
#   TFK_BT2_21_SRC): every succeed/ trace checks clean, every fail/ trace is reported (exit 4);
# - with babeltrace2 2.1 installed (TFK_BT2_21: its babeltrace2 program), each succeed/ trace
#   and each CTF 2 trace of tests/data/ctf decodes as many events as babeltrace2 2.1 prints.
# Neither is part of this project: built outside the tree (the README says how). Without the
# source this test has nothing to read and skips (77); without the program it checks the
# verdicts only. babeltrace2 2.0 is not the oracle: it reads no CTF 2.
# usage: ctf2_babeltrace.sh TRACEFSCK TESTS_DATA_CTF
set -u
bin=$1 data=$2
src=${TFK_BT2_21_SRC:-}
bt2=${TFK_BT2_21:-}
[ -n "$bt2" ] && [ -x "$bt2" ] || bt2=
if [ -n "$bt2" ] && ! "$bt2" --version 2>/dev/null | grep -q ' 2\.1'; then bt2=; fi
traces=
[ -n "$src" ] && [ -d "$src/tests/data/ctf-traces/2" ] && traces=$src/tests/data/ctf-traces/2
if [ -z "$traces" ] && [ -z "$bt2" ]; then
	echo "skip: neither babeltrace 2.1's source (TFK_BT2_21_SRC) nor babeltrace2 2.1 (TFK_BT2_21)"
	exit 77
fi
fail=0 ran=0
events_of() { "$bin" check --json "$1" | grep '"type":"summary"' | sed 's/.*"events":\([0-9]*\).*/\1/'; }

clean() {
	ran=$((ran + 1))
	"$bin" check --quiet "$1" >/dev/null 2>&1; rc=$?
	if [ "$rc" != 0 ]; then echo "FAIL: $1: exit $rc"; "$bin" check "$1"; fail=1; return; fi
	n=$(events_of "$1")
	if [ -n "$bt2" ]; then
		want=$("$bt2" "$1" 2>/dev/null | wc -l)
		if [ "$want" != "$n" ]; then echo "FAIL: $1: $n events, babeltrace2 2.1 prints $want"; fail=1; return; fi
	fi
	echo "ok: $1 clean, $n events"
}

if [ -n "$traces" ]; then
	for d in "$traces"/succeed/*/; do clean "${d%/}"; done
	for d in "$traces"/fail/*/; do
		ran=$((ran + 1))
		timeout 60 "$bin" check --quiet "${d%/}" >/dev/null 2>&1; rc=$?
		if [ "$rc" != 4 ]; then echo "FAIL: ${d%/}: exit $rc, expected 4"; fail=1; else echo "ok: ${d%/} reported"; fi
	done
fi
# The CTF 2 traces of tests/data/ctf (their README gives babeltrace2 2.1's counts).
for x in "$data"/*.ctf2.tar.xz; do
	[ -f "$x" ] || continue
	t=$(mktemp -d)
	tar -xJf "$x" -C "$t"
	for d in "$t"/*/; do clean "${d%/}"; done
	rm -rf "$t"
done
[ "$ran" -gt 0 ] || { echo "skip: nothing to read"; exit 77; }
exit $fail
