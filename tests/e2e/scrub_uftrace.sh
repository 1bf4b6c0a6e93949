#!/bin/sh
# SPDX-License-Identifier: MIT
# tracefsck scrub, uftrace data directories: secrets planted in a copy of the real sample (the
# program's name, everywhere it is written and in the names of its .sym and .dbg files; the
# host name; a directory of the command line) occur nowhere in the scrubbed directory, neither
# in its bytes nor in its members' names; the copy checks clean, an existing OUT is kept; with
# uftrace installed, uftrace replay prints exactly the same lines. Skipped (77) after the
# planted test when uftrace is not installed (UFTRACE names another one).
# usage: scrub_uftrace.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
bin=$1 samples=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
src=$samples/uftrace/fib-args.uftrace.data
in=$work/planted.uftrace.data
cp -r "$src" "$in" && chmod -R u+w "$in" || exit 1
for f in "$in"/info "$in"/task.txt "$in"/sid-*.map "$in"/hello.sym "$in"/hello.dbg; do
	sed -i 's/hello/zorkx/g; s/osinfo:hostname=vm/osinfo:hostname=zorkhost77/; s/samples/zorkusr/g' "$f"
done
mv "$in/hello.sym" "$in/zorkx.sym" && mv "$in/hello.dbg" "$in/zorkx.dbg" || exit 1
"$bin" check -q "$in" > /dev/null || { echo "FAIL: the planted copy does not check clean"; "$bin" check "$in"; exit 1; }
"$bin" scrub "$in" -o "$work/out" > "$work/report" 2>&1 || { echo "FAIL: scrub exit $?"; cat "$work/report"; exit 1; }
"$bin" check -q "$work/out" > /dev/null || { echo "FAIL: the scrubbed copy does not check clean"; fail=1; }
for s in zorkx zorkhost77 zorkusr; do
	grep -rqa "$s" "$in" || { echo "FAIL: the planted copy lacks $s"; fail=1; }
	if grep -rqa "$s" "$work/out" "$work/report" || ls "$work/out" | grep -q "$s"; then
		echo "FAIL: $s still there"; fail=1
	else
		echo "ok: $s gone (bytes and names)"
	fi
done
mkdir -p "$work/busy" && touch "$work/busy/x"
"$bin" scrub -q "$in" -o "$work/busy" > /dev/null 2>&1; rc=$?
[ "$rc" = 8 ] && [ -f "$work/busy/x" ] && echo "ok: a non-empty OUT is kept (exit 8)" || { echo "FAIL: busy OUT: exit $rc"; fail=1; }

uftrace=${UFTRACE:-uftrace}
if ! command -v "$uftrace" > /dev/null 2>&1; then
	[ $fail = 0 ] && { echo "skip: uftrace not installed (the oracle part)"; exit 77; }
	exit $fail
fi
"$uftrace" replay -d "$in" > "$work/before" 2>&1
"$uftrace" replay -d "$work/out" > "$work/after" 2>&1
n=$(wc -l < "$work/before")
if [ "$n" -gt 100 ] && cmp -s "$work/before" "$work/after"; then
	echo "ok: uftrace replay: the same $n lines"
else
	echo "FAIL: uftrace replay differs ($n lines before, $(wc -l < "$work/after") after)"; fail=1
fi
"$uftrace" info -d "$work/out" > "$work/info" 2>&1
for s in zorkx zorkhost77 zorkusr; do
	grep -q "$s" "$work/info" && { echo "FAIL: uftrace info shows $s"; fail=1; }
done
exit $fail
