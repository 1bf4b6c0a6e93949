#!/bin/sh
# SPDX-License-Identifier: MIT
# tracefsck scrub, CTF trace directories (LTTng user-space traces, CTF 1.8): secrets planted in
# copies of the real samples (a host name, a procname and a session name in the metadata's
# environment, the metadata as plain TSDL text; a per-process buffer folder named after the
# program) occur nowhere in the scrubbed directory, neither in its bytes nor in its members'
# names, and neither do the words the events' text fields said (tracef's msg); the copy checks
# clean; babeltrace2 prints the same number of events with the same names, times and numbers
# (every quoted string and the host column aside), and other procnames and messages. Skipped
# (77) after the planted part when babeltrace2 is not installed. CTF 2: the recordings of
# DATA_DIR (tests/data/ctf, *.ctf2.tar.xz) scrubbed the same way, their messages gone, and
# with babeltrace2 2.1 (TFK_BT2_21) the same count and shape.
# usage: scrub_ctf.sh TRACEFSCK SAMPLES_DIR WORK_DIR [DATA_DIR]
set -u
bin=$1 samples=$2 work=$3 data=${4:-}
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
bt=${BABELTRACE2:-babeltrace2}
have_bt=0
command -v "$bt" > /dev/null 2>&1 && have_bt=1
# What babeltrace2 prints, less what scrub may change: quoted strings and the host column.
shape() { "${2:-$bt}" "$1" 2>/dev/null | sed 's/"[^"]*"/""/g' | awk '{ $3 = ""; print }'; }

for name in tracef-2000.lttng multipacket-contexts.lttng; do
	in=$work/$name
	cp -r "$samples/ctf/$name" "$in" && chmod -R u+w "$in" || exit 1
	pid=$in/ust/pid/zorkapp-24989-20261122-055111
	mkdir -p "$in/ust/pid" && mv "$in/ust/uid/0/64-bit" "$pid" && rm -r "$in/ust/uid" || exit 1
	# The metadata as plain text, with planted values (LTTng writes it in packets).
	python3 - "$pid/metadata" <<'PY' || exit 1
import struct, sys
p = sys.argv[1]
b = open(p, "rb").read()
text, at = b"", 0
while at + 37 <= len(b):
    content, packet = struct.unpack_from("<II", b, at + 24)
    text += b[at + 37: at + content // 8]
    at += packet // 8
text = text.replace(b'hostname = "vm";', b'hostname = "zorkhost77";\n\tprocname = "zorkapp";')
import re
text = re.sub(rb'trace_name = "[^"]*";', b'trace_name = "zorksession";', text)
assert b"zorkhost77" in text and b"zorksession" in text, "the environment is not as expected"
open(p, "wb").write(text)
PY
	"$bin" check -q "$in" > /dev/null || { echo "FAIL: $name: the planted copy does not check clean"; "$bin" check "$in"; fail=1; continue; }
	out=$work/$name.out
	"$bin" scrub "$in" -o "$out" > "$work/$name.report" 2>&1 || { echo "FAIL: $name: scrub exit $?"; cat "$work/$name.report"; fail=1; continue; }
	"$bin" check -q "$out" > /dev/null || { echo "FAIL: $name: the scrubbed copy does not check clean"; fail=1; }
	for s in zorkhost77 zorkapp zorksession iteration; do
		grep -rqa "$s" "$in" || { echo "FAIL: $name: the planted copy lacks $s"; fail=1; }
		if grep -rqa "$s" "$out" "$work/$name.report" || find "$out" | grep -q "$s"; then
			echo "FAIL: $name: $s still there"; fail=1
		else
			echo "ok: $name: $s gone (bytes and names)"
		fi
	done
	grep -q "task .* replaced" "$work/$name.report" && grep -q "marker .* replaced" "$work/$name.report" ||
		{ echo "FAIL: $name: the report does not count the tasks and messages replaced"; cat "$work/$name.report"; fail=1; }
	[ $have_bt = 1 ] || continue
	n_in=$("$bt" "$in" 2>/dev/null | wc -l) n_out=$("$bt" "$out" 2>/dev/null | wc -l)
	[ "$n_in" -gt 0 ] && [ "$n_in" = "$n_out" ] && echo "ok: $name: babeltrace2 prints $n_out events, as before" ||
		{ echo "FAIL: $name: babeltrace2 prints $n_out events, $n_in before"; fail=1; }
	shape "$in" > "$work/$name.in.shape"; shape "$out" > "$work/$name.out.shape"
	cmp -s "$work/$name.in.shape" "$work/$name.out.shape" && echo "ok: $name: same names, times and numbers" ||
		{ echo "FAIL: $name: names, times or numbers differ"; diff "$work/$name.in.shape" "$work/$name.out.shape" | head -5; fail=1; }
	if "$bt" "$out" 2>/dev/null | grep -q 'procname = "app"'; then echo "FAIL: $name: procname app still shown"; fail=1; fi
done
bt2=${TFK_BT2_21:-}
{ [ -n "$bt2" ] && [ -x "$bt2" ] && "$bt2" --version 2>/dev/null | grep -q ' 2\.1'; } || bt2=
for tar in ${data:+"$data"/*.ctf2.tar.xz}; do
	[ -f "$tar" ] || continue
	name=$(basename "$tar" .tar.xz)
	mkdir -p "$work/ctf2" && tar -xJf "$tar" -C "$work/ctf2" || exit 1
	in=$work/ctf2/$name out=$work/$name.out
	"$bin" scrub "$in" -o "$out" > "$work/$name.report" 2>&1 || { echo "FAIL: $name: scrub exit $?"; cat "$work/$name.report"; fail=1; continue; }
	"$bin" check -q "$out" > /dev/null || { echo "FAIL: $name: the scrubbed copy does not check clean"; fail=1; }
	if grep -rqa iteration "$in" && ! grep -rqa iteration "$out"; then echo "ok: $name: the messages' words gone"
	else echo "FAIL: $name: the messages' words still there (or never were)"; fail=1; fi
	[ -n "$bt2" ] || continue
	n_in=$("$bt2" "$in" 2>/dev/null | wc -l) n_out=$("$bt2" "$out" 2>/dev/null | wc -l)
	[ "$n_in" -gt 0 ] && [ "$n_in" = "$n_out" ] && echo "ok: $name: babeltrace2 2.1 prints $n_out events, as before" ||
		{ echo "FAIL: $name: babeltrace2 2.1 prints $n_out events, $n_in before"; fail=1; }
	shape "$in" "$bt2" > "$work/$name.in.shape"; shape "$out" "$bt2" > "$work/$name.out.shape"
	cmp -s "$work/$name.in.shape" "$work/$name.out.shape" && echo "ok: $name: same names, times and numbers" ||
		{ echo "FAIL: $name: names, times or numbers differ"; fail=1; }
done
[ $have_bt = 1 ] || { [ $fail = 0 ] && { echo "skip: babeltrace2 not installed (the oracle part)"; exit 77; }; }
exit $fail
