#!/bin/sh
# SPDX-License-Identifier: MIT
# The format memo and its cache (tracefsck/format_memo.h, docs/ci.md "Format cache"):
#  1. findings are byte-identical with the memo and without it (--no-format-memo), in JSON Lines,
#     over every pristine sample (the samples folder, all formats), the foreign trace.dat files and
#     the recorded trace-cmd matrix (tests/data/tracedat), each trace.dat named twice so that the
#     second check takes every verdict from the memo; with -j 2 as with -j 1;
#  2. --format-cache DIR: made 0700, its entry 0600; a warm run reads every verdict from it (it
#     writes no new entry) and its findings are those of a run without memo; a corrupt entry
#     and a forged one are ignored and said on stderr, and the findings stay the same;
#  3. a cache directory writable by others, owned by another user, a symbolic link, or lying in
#     a trace's own directory is refused (exit 16) before anything is checked or written.
# usage: format_memo.sh TRACEFSCK SAMPLES_DIR FOREIGN_DIR DATA_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 samples=$2 foreign=$3 data=$4 work=$5
[ -d "$samples/tracedat" ] || { echo "no samples at $samples: skipped"; exit 77; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
rm -rf "$work" && mkdir -p "$work/traces" && work=$(cd "$work" && pwd) || exit 1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
# every trace.dat, each named twice
set --
for f in "$samples"/tracedat/* "$foreign"/tracedat/* "$data"/*.dat*; do
	[ -f "$f" ] && set -- "$@" "$f" "$f"
done
dats=$#
[ "$dats" -ge 14 ] || { bad "only $dats trace.dat operands"; exit 1; }
cd "$work" || exit 1

# 1. memo on and off, one job and two
$wrap "$bin" check --json --no-format-memo "$samples" "$@" > off.jsonl; off_rc=$?
$wrap "$bin" check --json "$samples" "$@" > on.jsonl; on_rc=$?
$wrap "$bin" check --json -j 2 "$samples" "$@" > on-j2.jsonl; j2_rc=$?
units=$(grep -c '"type":"summary"' off.jsonl)
[ "$units" -gt "$dats" ] && ok "$units units checked ($dats trace.dat operands and the samples folder)" ||
	bad "$units units checked, expected more than $dats"
cmp -s off.jsonl on.jsonl && [ "$off_rc" = "$on_rc" ] && ok "memo on: the same $(wc -l < on.jsonl) lines, exit $on_rc" ||
	bad "memo on differs from memo off (exit $on_rc vs $off_rc): $(diff off.jsonl on.jsonl | head -5)"
cmp -s off.jsonl on-j2.jsonl && [ "$off_rc" = "$j2_rc" ] && ok "memo on, -j 2: the same" ||
	bad "memo on with -j 2 differs from memo off: $(diff off.jsonl on-j2.jsonl | head -5)"
# the libtraceevent verdicts are in the findings at all (the comparison means something)
grep -q '"code":"tracedat.format.unparsable"' off.jsonl && ok "libtraceevent's rejections are among the findings" ||
	bad "no tracedat.format.unparsable finding: libtraceevent did not run"

# 2. the cache
one=$samples/tracedat/sched-irq.v7zstd.dat
[ -f "$one" ] || one=$1
cp "$one" traces/a.dat && cp "$one" traces/b.dat || exit 1
$wrap "$bin" check --json --no-format-memo traces/a.dat traces/b.dat > ref.jsonl
cache=$work/cache
$wrap "$bin" check --json --format-cache "$cache" traces/a.dat traces/b.dat > cold.jsonl 2> cold.err; rc=$?
mode=$(stat -c %a "$cache" 2>/dev/null)
entries=$(ls "$cache" | grep -c '^e-')
[ "$mode" = 700 ] && [ "$entries" = 1 ] && [ -f "$cache/key" ] && [ "$(stat -c %a "$cache/key")" = 600 ] &&
	[ "$(stat -c %a "$cache"/e-*)" = 600 ] && ok "cold run: cache made 0700 with its key and one entry, 0600" ||
	bad "cold run: cache mode $mode, $entries entries: $(ls -la "$cache")"
cmp -s ref.jsonl cold.jsonl && [ ! -s cold.err ] && ok "cold run: the findings of a run without memo, nothing on stderr" ||
	bad "cold run differs (exit $rc): $(diff ref.jsonl cold.jsonl | head -3) $(cat cold.err)"
$wrap "$bin" check --json --format-cache "$cache" traces/a.dat traces/b.dat > warm.jsonl 2> warm.err
entries=$(ls "$cache" | grep -c '^e-')
cmp -s ref.jsonl warm.jsonl && [ ! -s warm.err ] && ok "warm run: the same findings" ||
	bad "warm run differs: $(diff ref.jsonl warm.jsonl | head -3) $(cat warm.err)"
[ "$entries" = 1 ] && ok "warm run: every verdict came from the cache (no new entry)" ||
	bad "warm run wrote a new entry ($entries): it did not find its verdicts"
# a corrupt entry: one byte of a verdict flipped
entry=$(ls "$cache"/e-* | head -1)
python3 - "$entry" <<'PY'
import sys
p = sys.argv[1]
b = bytearray(open(p, 'rb').read())
b[16 + 16] ^= ord('o') ^ ord('e')  # the first record's verdict: parsed <-> rejected
open(p, 'wb').write(bytes(b))
PY
$wrap "$bin" check --json --format-cache "$cache" traces/a.dat traces/b.dat > corrupt.jsonl 2> corrupt.err
grep -q "entry $(basename "$entry") ignored: its MAC does not verify" corrupt.err && ok "a corrupt entry is ignored and said" ||
	bad "a corrupt entry was not reported: $(cat corrupt.err)"
cmp -s ref.jsonl corrupt.jsonl && ok "a corrupt entry changes no finding" ||
	bad "a corrupt entry changed the findings: $(diff ref.jsonl corrupt.jsonl | head -3)"
# a forged entry: well formed, named by a MAC made without the key, every verdict "parsed"
python3 - "$cache" <<'PY'
import sys, os, struct
body = b'TFKFMEMO' + struct.pack('<II', 1, 1) + bytes(16) + b'o'
mac = bytes(range(16))
name = 'e-' + mac.hex()
with open(os.path.join(sys.argv[1], name), 'wb') as f:
    f.write(body + mac)
os.chmod(os.path.join(sys.argv[1], name), 0o600)
PY
$wrap "$bin" check --json --format-cache "$cache" traces/a.dat traces/b.dat > forged.jsonl 2> forged.err
grep -q "entry e-000102030405060708090a0b0c0d0e0f ignored: its MAC does not verify" forged.err && cmp -s ref.jsonl forged.jsonl &&
	ok "a forged entry is ignored and said; the findings stay" || bad "forged entry: $(cat forged.err) $(diff ref.jsonl forged.jsonl | head -3)"

# 3. refusals (exit 16, nothing checked, nothing written)
refused() { # WHAT PATTERN CACHE
	$wrap "$bin" check --json --format-cache "$3" traces/a.dat > refused.jsonl 2> refused.err; rc=$?
	[ "$rc" = 16 ] && [ ! -s refused.jsonl ] && grep -q "refused: $2" refused.err && ok "refused: $1" ||
		bad "$1: exit $rc, $(cat refused.err)"
}
mkdir -m 0777 open && chmod 0777 open
refused "a cache writable by others" "writable by group or others" open
mkdir -m 0700 real && ln -s real link
refused "a cache that is a symbolic link" "not a directory" link
refused "a cache in the trace's own directory" "it lies in" traces/cache
[ ! -e traces/cache ] && ok "nothing made in the trace's directory" || bad "traces/cache was made"
refused "a cache that is the trace's own directory" "it lies in" traces
[ ! -e traces/key ] && ok "no key written among the traces" || bad "traces/key was made"
if [ "$(id -u)" = 0 ] && id nobody > /dev/null 2>&1; then
	mkdir -m 0700 theirs && chown nobody theirs
	refused "a cache owned by another user" "owned by another user" theirs
else
	echo "skipped: a cache of another user (needs root to make one)"
fi
exit $fail
