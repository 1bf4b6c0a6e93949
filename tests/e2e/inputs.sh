#!/bin/sh
# SPDX-License-Identifier: MIT
# Inputs that are not plain files: standard input, FIFOs with and without a writer, devices,
# and traces compressed whole (xz, gzip, zstd), whole, cut short, or holding no trace.
# usage: inputs.sh TRACEFSCK TDW_MAKE WORK_DIR
set -u
wrap=${TFK_WRAP:-} # e.g. valgrind, in front of every tracefsck invocation
bin=$1 make=$2 work=$3
rm -rf "$work"
mkdir -p "$work"
fail=0
"$make" clean "$work/clean.dat" && "$make" damaged "$work/damaged.dat" || exit 1
for tool in xz gzip zstd; do
	command -v $tool > /dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done
# A guard, never the property: a hang shows as exit 124 instead of a stuck suite.
guard="timeout 600"

ok() { echo "ok: $1"; }
bad() { echo "FAIL: $1"; fail=1; }
# same A B WHAT: two reports are the same once each file's name is taken out
same() {
	sed "s|$3|NAME|g" "$1" > "$work/a.norm"
	sed "s|$4|NAME|g" "$2" > "$work/b.norm"
	if cmp -s "$work/a.norm" "$work/b.norm"; then ok "$5"; else bad "$5"; diff "$work/a.norm" "$work/b.norm" | head -20; fi
}
run() { # run OUT COMMAND...: stdout to OUT, exit status in $rc
	out=$1; shift
	"$@" > "$out" 2> "$work/err"; rc=$?
}
status() { # status WANT WHAT
	if [ "$rc" = "$1" ]; then ok "$2 (exit $rc)"; else bad "$2: exit $rc, expected $1"; cat "$work/err"; fi
}
has() { # has FILE PATTERN WHAT
	if grep -q -- "$2" "$1"; then ok "$3"; else bad "$3: no '$2' in"; cat "$1"; fi
}

for f in clean damaged; do
	run "$work/$f.file.json" $guard $wrap "$bin" check --json "$work/$f.dat"
	want=$rc
	# standard input, as - and as /dev/stdin, from a pipe
	cat "$work/$f.dat" | { $guard $wrap "$bin" check --json - > "$work/$f.dash.json"; echo $? > "$work/rc"; }
	rc=$(cat "$work/rc")
	status "$want" "$f: - from a pipe"
	same "$work/$f.file.json" "$work/$f.dash.json" "\"file\":\"$work/$f.dat\"" '"file":"-"' "$f: - reports as the file does"
	cat "$work/$f.dat" | { $guard $wrap "$bin" check --json /dev/stdin > "$work/$f.stdin.json"; echo $? > "$work/rc"; }
	rc=$(cat "$work/rc")
	status "$want" "$f: /dev/stdin from a pipe"
	same "$work/$f.file.json" "$work/$f.stdin.json" "$work/$f.dat" /dev/stdin "$f: /dev/stdin reports as the file does"
	# a FIFO fed by cat
	rm -f "$work/fifo"
	mkfifo "$work/fifo"
	cat "$work/$f.dat" > "$work/fifo" &
	run "$work/$f.fifo.json" $guard $wrap "$bin" check --json "$work/fifo"
	wait
	status "$want" "$f: a FIFO fed by cat"
	same "$work/$f.file.json" "$work/$f.fifo.json" "$work/$f.dat" "$work/fifo" "$f: the FIFO reports as the file does"
	# compressed whole: the same findings at the same offsets, after one note
	for z in xz gzip zstd; do
		$z -c "$work/$f.dat" > "$work/$f.dat.$z"
		run "$work/$f.$z.json" $guard $wrap "$bin" check --json "$work/$f.dat.$z"
		status "$want" "$f: $z-compressed"
		has "$work/$f.$z.json" '"code":"core.input.compressed"' "$f: $z: the note says it was decompressed"
		grep -v '"code":"core.input.compressed"' "$work/$f.$z.json" | sed 's/"findings":[0-9]*,"listed":[0-9]*/F/; s/"notes":[0-9]*/"notes":N/' > "$work/z.json"
		sed 's/"findings":[0-9]*,"listed":[0-9]*/F/; s/"notes":[0-9]*/"notes":N/' "$work/$f.file.json" > "$work/f.json"
		# the summary's file size is the decompressed trace's, as are the offsets
		same "$work/f.json" "$work/z.json" "$work/$f.dat" "$work/$f.dat.$z" "$f: $z: findings and offsets as in the trace"
	done
done

# a FIFO nobody writes to: not a hang, a stalled pipe after the idle timeout
rm -f "$work/fifo"
mkfifo "$work/fifo"
run "$work/idle.txt" $guard $wrap "$bin" check --idle-timeout 1 "$work/fifo"
status 8 "a FIFO without a writer"
has "$work/idle.txt" "warning core.input.stream-stalled" "the FIFO without a writer is a stalled pipe"

# devices are not read
run "$work/dev.txt" $guard $wrap "$bin" check /dev/zero
status 8 "/dev/zero"
has "$work/dev.txt" "error core.input.not-a-file" "/dev/zero is not a file"
has "$work/dev.txt" "found a character device" "/dev/zero: what it is"

# compressed and cut short: the damage, and the trace's cut, are both reported
xz -c "$work/clean.dat" > "$work/full.xz"
size=$(wc -c < "$work/full.xz")
head -c $((size / 2)) "$work/full.xz" > "$work/cut.xz"
run "$work/cut.txt" $guard $wrap "$bin" check "$work/cut.xz"
status 4 "a cut xz file"
has "$work/cut.txt" "error core.input.compression-damaged" "cut xz: the compression is damaged"
has "$work/cut.txt" "at byte $((size / 2)) of $((size / 2))" "cut xz: where decoding stopped"
gzip -c "$work/clean.dat" > "$work/full.gz"
head -c $(($(wc -c < "$work/full.gz") / 2)) "$work/full.gz" > "$work/cut.gz"
run "$work/cutgz.txt" $guard $wrap "$bin" check "$work/cut.gz"
status 4 "a cut gzip file"
has "$work/cutgz.txt" "error core.input.compression-damaged" "cut gzip: the compression is damaged"

# compressed, but not a trace: say what it decompressed to
printf 'hello, this is no trace\n' | zstd -q -c > "$work/text.zst"
run "$work/text.txt" $guard $wrap "$bin" check "$work/text.zst"
status 8 "compressed text"
has "$work/text.txt" "error core.input.unrecognised" "compressed text is not a trace"
has "$work/text.txt" '"hello, this is n' "compressed text: the decompressed bytes are shown"

# repair of a compressed trace, or one read from a pipe: the same repaired trace, uncompressed
$wrap "$bin" repair -q "$work/damaged.dat" -o "$work/plain.fixed" > /dev/null 2>&1
[ -s "$work/plain.fixed" ] || bad "repair of the damaged fixture wrote nothing"
for z in xz gzip zstd; do
	rm -f "$work/$z.fixed"
	run "$work/rep.txt" $guard $wrap "$bin" repair -q "$work/damaged.dat.$z" -o "$work/$z.fixed"
	status 1 "repair of the $z-compressed damaged trace"
	cmp -s "$work/plain.fixed" "$work/$z.fixed" && ok "$z: the repaired trace is the uncompressed one's" ||
		bad "$z: the repaired trace differs from the uncompressed input's"
done
rm -f "$work/fifo" "$work/fifo.fixed"
mkfifo "$work/fifo"
cat "$work/damaged.dat" > "$work/fifo" &
run "$work/rep.txt" $guard $wrap "$bin" repair -q "$work/fifo" -o "$work/fifo.fixed"
wait
status 1 "repair of a trace read from a FIFO"
cmp -s "$work/plain.fixed" "$work/fifo.fixed" && ok "FIFO: the same repaired trace" || bad "FIFO: the repaired trace differs"

[ "$fail" = 0 ] && echo "inputs: all passed"
exit $fail
