#!/bin/sh
# SPDX-License-Identifier: MIT
# tracefsck scrub, perf.data: secrets planted in a copy of a real sample (host name, a task
# name in COMM records, CMDLINE, tracepoint payloads and TRACING_DATA, a path component of
# the mapped files: scrub_perf_plant.py) occur nowhere in the scrubbed bytes; a perf record -z
# file is scrubbed through its zstd records (written uncompressed: the host's kernel release,
# its command line and task names gone); with perf installed, perf script prints the same
# number of lines, times and event names for every sample scrubbed. Skipped (77)
# after the planted test when perf is not installed (PERF names another one).
# usage: scrub_perf.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
bin=$1 samples=$2 work=$3
here=$(dirname "$0")
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
python3 "$here/scrub_perf_plant.py" "$samples/perf/sched-tracepoints.perf.data" "$work/planted.data" > "$work/secrets" ||
	{ echo "FAIL: planting"; exit 1; }
"$bin" check -q "$work/planted.data" > /dev/null || { echo "FAIL: the planted copy does not check clean"; exit 1; }
"$bin" scrub "$work/planted.data" -o "$work/planted.out" > "$work/report" 2>&1 || { echo "FAIL: scrub exit $?"; cat "$work/report"; exit 1; }
while read -r s; do
	grep -qa "$s" "$work/planted.data" || { echo "FAIL: the planted copy lacks $s"; fail=1; }
	if grep -qa "$s" "$work/planted.out" "$work/report"; then echo "FAIL: $s still there"; fail=1; else echo "ok: $s gone"; fi
done < "$work/secrets"

# perf record -z: the zstd records decoded, scrubbed, written uncompressed; the host's kernel
# release (HOSTNAME is too short to grep for) and the command line are gone from the bytes
z=$samples/perf/compressed-z.perf.data
printf 'the key of this test\n' > "$work/key"
"$bin" scrub --key-file "$work/key" "$z" -o "$work/z.out" > "$work/log" 2>&1 || { echo "FAIL: perf -z: exit $?"; cat "$work/log"; fail=1; }
"$bin" check -q "$work/z.out" > /dev/null || { echo "FAIL: perf -z: the copy does not check clean"; fail=1; }
for s in 6.18.44-fc-v769 "/usr/lib > /dev/null"; do
	grep -qaF -- "$s" "$z" || { echo "FAIL: the -z sample lacks $s"; fail=1; }
	grep -qaF -- "$s" "$work/z.out" && { echo "FAIL: perf -z: $s still there"; fail=1; }
done
echo "ok: perf record -z: decoded, scrubbed, checks clean"

perf=${PERF:-perf}
if ! command -v "$perf" > /dev/null 2>&1; then
	[ $fail = 0 ] && { echo "skip: perf not installed (the oracle part)"; exit 77; }
	exit $fail
fi
shape() {
	"$perf" script -i "$1" 2> /dev/null > "$1.script"
	grep -oE ' [0-9]+\.[0-9]+: +[0-9]* *[A-Za-z0-9_:-]+:' "$1.script" > "$1.times"
}
for f in "$samples"/perf/*.perf.data "$work/planted.data"; do
	name=$(basename "$f")
	cp "$f" "$work/$name.in"
	"$bin" scrub -q "$f" -o "$work/$name.scrubbed" || { echo "FAIL: $name: scrub exit $?"; fail=1; continue; }
	shape "$work/$name.in"
	shape "$work/$name.scrubbed"
	a=$(wc -l < "$work/$name.in.script") b=$(wc -l < "$work/$name.scrubbed.script") t=$(wc -l < "$work/$name.in.times")
	if [ "$a" = "$b" ] && [ "$t" -gt 0 ] && cmp -s "$work/$name.in.times" "$work/$name.scrubbed.times"; then
		echo "ok: $name: perf script: $a lines, the same $t times and event names"
	else
		echo "FAIL: $name: perf script: $a lines before, $b after, or times differ"; fail=1
	fi
done
while read -r s; do
	grep -qa "$s" "$work/planted.data.scrubbed.script" && { echo "FAIL: perf script still shows $s"; fail=1; }
done < "$work/secrets"
# the task names the compressed records held (ls, sh, seq) are gone from what perf shows (a
# fixed key: a two-letter name cannot draw itself by chance)
"$perf" script -F comm -i "$z" 2> /dev/null | awk '{ print $1 }' | sort -u > "$work/z.comms"
"$perf" script -F comm -i "$work/z.out" 2> /dev/null | awk '{ print $1 }' | sort -u > "$work/z.comms.after"
[ -s "$work/z.comms" ] || { echo "FAIL: no task names in the -z sample"; fail=1; }
while read -r c; do
	grep -qxF "$c" "$work/z.comms.after" && { echo "FAIL: perf -z: task $c still shown"; fail=1; }
done < "$work/z.comms"
exit $fail
