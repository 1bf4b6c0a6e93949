#!/bin/sh
# SPDX-License-Identifier: MIT
# tracefsck scrub with trace-cmd report as the oracle: every trace.dat sample (v6, v7, v7 zstd,
# instances) scrubs to a copy trace-cmd reads with the same number of events, the same
# timestamps and event names in the same order, and the same numeric fields (name=number,
# comm fields aside); and secrets planted in a copy converted by trace-cmd itself to v7 with
# zstd (compressed sections) are gone from the scrubbed bytes. Skipped (77) without trace-cmd
# (TRACE_CMD names another one, e.g. one under /work/writers/prefix-*).
# usage: scrub_tracedat_oracle.sh TRACEFSCK SAMPLES_DIR WORK_DIR
set -u
bin=$1 samples=$2 work=$3
here=$(dirname "$0")
tc=${TRACE_CMD:-trace-cmd}
command -v "$tc" > /dev/null 2>&1 || { echo "skip: trace-cmd not installed"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
# what must not change: times and event names, and numeric fields other than task names
shape() {
	"$tc" report "$1" 2> /dev/null | grep -v '^cpus=' > "$1.report"
	grep -oE '[0-9]+\.[0-9]+: [A-Za-z0-9_]+:' "$1.report" > "$1.times"
	grep -oE '[a-z_]+=-?[0-9]+' "$1.report" | grep -v 'comm=' > "$1.numbers"
}
for f in "$samples"/tracedat/*; do
	name=$(basename "$f" .xz)
	case $f in
	*.xz) xz -dkc "$f" > "$work/$name" ;;
	*) cp "$f" "$work/$name" ;;
	esac
	"$bin" scrub -q "$work/$name" -o "$work/$name.scrubbed" || { echo "FAIL: $name: scrub exit $?"; fail=1; continue; }
	shape "$work/$name"
	shape "$work/$name.scrubbed"
	n_in=$(wc -l < "$work/$name.report") n_out=$(wc -l < "$work/$name.scrubbed.report")
	if [ "$n_in" != "$n_out" ] || [ "$n_in" = 0 ]; then
		echo "FAIL: $name: trace-cmd report shows $n_in events before, $n_out after"; fail=1
	elif ! cmp -s "$work/$name.times" "$work/$name.scrubbed.times"; then
		echo "FAIL: $name: timestamps or event names differ"; fail=1
	elif ! cmp -s "$work/$name.numbers" "$work/$name.scrubbed.numbers"; then
		echo "FAIL: $name: numeric fields differ"; diff "$work/$name.numbers" "$work/$name.scrubbed.numbers" | head; fail=1
	else
		echo "ok: $name: trace-cmd report: $n_in events, same times, names and $(wc -l < "$work/$name.numbers") numeric fields"
	fi
done

# secrets planted, then compressed by trace-cmd itself
xz -dkc "$samples/tracedat/sched-irq.v6.dat.xz" > "$work/in.v6.dat" || exit 1
python3 "$here/scrub_plant.py" "$work/in.v6.dat" "$work/planted.v6.dat" > "$work/secrets" || exit 1
"$tc" convert -i "$work/planted.v6.dat" -o "$work/planted.v7zstd.dat" --file-version 7 --compression zstd > /dev/null 2>&1 ||
	{ echo "FAIL: trace-cmd convert"; exit 1; }
while read -r s; do
	grep -qa "$s" "$work/planted.v7zstd.dat" && echo "note: $s readable in the compressed input"
done < "$work/secrets"
"$bin" scrub -q "$work/planted.v7zstd.dat" -o "$work/planted.scrubbed" || { echo "FAIL: scrub of the planted v7 zstd"; exit 1; }
shape "$work/planted.v6.dat"
shape "$work/planted.scrubbed"
[ "$(wc -l < "$work/planted.v6.dat.report")" = "$(wc -l < "$work/planted.scrubbed.report")" ] &&
	cmp -s "$work/planted.v6.dat.times" "$work/planted.scrubbed.times" ||
	{ echo "FAIL: planted v7 zstd: trace-cmd report differs"; fail=1; }
while read -r s; do
	if grep -qa "$s" "$work/planted.scrubbed" "$work/planted.scrubbed.report"; then
		echo "FAIL: planted v7 zstd: $s still there"; fail=1
	else
		echo "ok: planted v7 zstd: $s gone (bytes and trace-cmd report)"
	fi
done < "$work/secrets"
exit $fail
