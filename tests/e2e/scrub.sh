#!/bin/sh
# SPDX-License-Identifier: MIT
# tracefsck scrub, trace.dat, without any external tool: secrets planted in a copy of a real
# sample (host name, task name, exec'd path, trace_marker text: scrub_plant.py) occur nowhere
# in the scrubbed bytes nor in the report; the copy checks clean with the same event count;
# one key file gives the same bytes twice and another key other bytes; a damaged input is
# refused (exit 4) unless --repair (exit 1); a format scrub does not handle yet is refused
# (exit 8) with "scrub not supported for <format> yet"; an existing OUT is not replaced.
# usage: scrub.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
bin=$1 samples=$2 work=$3
here=$(dirname "$0")
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
events_of() { "$bin" check --json "$1" | sed -n 's/.*"type":"summary".*"events":\([0-9]*\).*/\1/p'; }

xz -dkc "$samples/tracedat/sched-irq.v6.dat.xz" > "$work/in.v6.dat" || exit 1
python3 "$here/scrub_plant.py" "$work/in.v6.dat" "$work/planted.dat" > "$work/secrets" || { echo "FAIL: planting"; exit 1; }
while read -r s; do
	grep -qa "$s" "$work/planted.dat" || bad "the planted copy lacks $s"
done < "$work/secrets"

"$bin" scrub --json "$work/planted.dat" -o "$work/out.dat" > "$work/report" 2>&1; rc=$?
[ "$rc" = 0 ] || { bad "scrub exit $rc"; cat "$work/report"; }
grep -q '"outcome":"scrubbed"' "$work/report" || bad "the report says no scrub: $(cat "$work/report")"
for k in host task path marker; do
	grep -q "\"$k\":{\"asked\":true,\"replaced\":[1-9]" "$work/report" || bad "nothing of kind $k replaced"
done
while read -r s; do
	if grep -qa "$s" "$work/out.dat" "$work/report"; then bad "$s is still in the output or the report"; else ok "$s gone"; fi
done < "$work/secrets"
[ "$(events_of "$work/out.dat")" = "$(events_of "$work/planted.dat")" ] && [ -n "$(events_of "$work/out.dat")" ] &&
	ok "the scrubbed copy checks with the input's $(events_of "$work/out.dat") events" || bad "event counts differ"
"$bin" check -q "$work/out.dat" > /dev/null || bad "the scrubbed copy does not check clean"

# one key, the same pseudonyms; another key, others
printf 'a key shared by two traces\n' > "$work/key1"
printf 'another key, other pseudonyms\n' > "$work/key2"
"$bin" scrub -q --key-file "$work/key1" "$work/planted.dat" -o "$work/k1a.dat" &&
	"$bin" scrub -q --key-file "$work/key1" "$work/planted.dat" -o "$work/k1b.dat" &&
	"$bin" scrub -q --key-file "$work/key2" "$work/planted.dat" -o "$work/k2.dat" || bad "scrub with a key file failed"
cmp -s "$work/k1a.dat" "$work/k1b.dat" && ok "one key file: identical outputs" || bad "one key file gave two outputs"
cmp -s "$work/k1a.dat" "$work/k2.dat" && bad "two keys gave one output" || ok "two keys: different pseudonyms"

# --keep-tasks keeps the task name, still replaces the host
"$bin" scrub -q --keep-tasks "$work/planted.dat" -o "$work/keep.dat" || bad "scrub --keep-tasks failed"
grep -qa zorksecret9 "$work/keep.dat" && ! grep -qa zorkhost77 "$work/keep.dat" &&
	ok "--keep-tasks keeps task names only" || bad "--keep-tasks"

# OUT exists: not replaced without --force
"$bin" scrub -q "$work/planted.dat" -o "$work/out.dat" 2> "$work/err"; rc=$?
[ "$rc" = 8 ] && grep -q -- --force "$work/err" && ok "an existing OUT is kept (exit 8)" || bad "existing OUT: exit $rc"

# damaged: refused with the check's findings, or repaired first
size=$(stat -c %s "$work/planted.dat")
head -c $((size - 5000)) "$work/planted.dat" > "$work/cut.dat"
"$bin" scrub "$work/cut.dat" -o "$work/cut.out" > "$work/log" 2>&1; rc=$?
[ "$rc" = 4 ] && grep -q "tracedat\." "$work/log" && [ ! -e "$work/cut.out" ] &&
	ok "a damaged input is refused with its findings (exit 4)" || { bad "damaged input: exit $rc"; cat "$work/log"; }
"$bin" scrub --repair "$work/cut.dat" -o "$work/cut.out" > "$work/log" 2>&1; rc=$?
[ "$rc" = 1 ] && "$bin" check -q "$work/cut.out" > /dev/null && ! grep -qa zorkhost77 "$work/cut.out" &&
	ok "--repair: repaired, then scrubbed (exit 1)" || { bad "--repair: exit $rc"; cat "$work/log"; }

# a format without a scrub plug-in yet (LTTng 0.x) is refused, never copied
# (only in a build that reads it: otherwise it is no trace at all to this build)
lttng0=$samples/../foreign/lttng0/linuxtools-trace-1021events-nolost-1cpu
if [ -d "$lttng0" ] && "$bin" check -q "$lttng0" > /dev/null 2>&1; then
	"$bin" scrub "$lttng0" -o "$work/lttng0.out" > "$work/log" 2>&1; rc=$?
	[ "$rc" = 8 ] && grep -q "scrub not supported for .* yet" "$work/log" && [ ! -e "$work/lttng0.out" ] &&
		ok "LTTng 0.x: refused, not supported yet (exit 8)" || { bad "LTTng 0.x: exit $rc"; cat "$work/log"; }
fi
exit $fail
