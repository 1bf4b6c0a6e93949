#!/bin/sh
# SPDX-License-Identifier: MIT
# The command line: exit statuses per fsck(8), output shapes, catalog commands.
# usage: cli.sh TRACEFSCK TDW_MAKE WORK_DIR
set -u
# TFK_WRAP (e.g. valgrind) runs in front of every tracefsck invocation.
wrap=${TFK_WRAP:-}
bin=$1 make=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1 # outputs of an earlier run would now be refused
fail=0
"$make" clean "$work/clean.dat" && "$make" damaged "$work/damaged.dat" && "$make" warning "$work/warning.dat" || exit 1

expect() { # expect STATUS DESCRIPTION COMMAND...
	want=$1 what=$2; shift 2
	if [ "$1" = "$bin" ]; then set -- $wrap "$@"; fi
	"$@" > "$work/out" 2> "$work/err"; rc=$?
	if [ "$rc" = "$want" ]; then echo "ok: $what (exit $rc)"; else echo "FAIL: $what: exit $rc, expected $want"; cat "$work/out" "$work/err"; fail=1; fi
}
has() { # has PATTERN DESCRIPTION: the last command's stdout matches
	if grep -q -- "$1" "$work/out"; then echo "ok: $2"; else echo "FAIL: $2: no '$1' in output"; cat "$work/out"; fail=1; fi
}

expect 0 "clean trace" "$bin" check "$work/clean.dat"
has "clean: 0 errors, 0 warnings, 0 notes; trace.dat v6, 2 buffers" "clean summary line"
expect 4 "damaged trace" "$bin" check "$work/damaged.dat"
has "tracedat.cpu.count-mismatch" "damaged: CPU count"
has "tracedat.page.bad-commit" "damaged: bad commit"
has "tracedat.page.bad-event" "damaged: bad event"
has "tracedat.file.truncated" "damaged: truncation"
has "^$work/damaged.dat: 0x[0-9a-f]* \[" "text names the place first"
expect 0 "warnings alone" "$bin" check "$work/warning.dat"
has "warning tracedat.option.unknown" "warning listed"
expect 4 "--fail-on=warning" "$bin" check --fail-on=warning "$work/warning.dat"
has ": failed (warnings fail this gate): 0 errors, 1 warning" "--fail-on=warning: the summary says failed"
expect 4 "--fail-on warning (separate value)" "$bin" check --fail-on warning --json "$work/warning.dat"
has '"verdict":"failed","complete":true,"fail_on":"warning"' "--fail-on=warning: JSON verdict failed"
GITHUB_STEP_SUMMARY="$work/step.md" expect 4 "--fail-on=warning --github" "$bin" check --fail-on=warning --github "$work/warning.dat"
grep -q "is failed" "$work/step.md" && echo "ok: step summary says failed" || { echo "FAIL: step summary"; cat "$work/step.md"; fail=1; }
expect 0 "warnings alone, JSON" "$bin" check --json "$work/warning.dat"
has '"verdict":"clean","complete":true,"fail_on":"error"' "warnings alone: JSON verdict clean"
expect 16 "--fail-on with a bad level" "$bin" check --fail-on=sometimes "$work/warning.dat"

# Gate policies: disabled codes leave the counts and the verdict; re-graded ones move.
expect 0 "--disable every code the damage raises" "$bin" check --disable tracedat.cpu.count-mismatch \
	--disable 'tracedat.page.*' --disable=tracedat.file.truncated "$work/damaged.dat"
has "clean: 0 errors, 0 warnings, 0 notes (4 disabled by policy)" "disabled findings are counted apart"
expect 4 "--disable one code" "$bin" check --disable tracedat.cpu.count-mismatch "$work/damaged.dat"
has "3 errors, 0 warnings, 0 notes (1 disabled by policy)" "one finding disabled"
expect 0 "--severity errors down to warnings" "$bin" check --severity 'tracedat.*=warning' "$work/damaged.dat"
has "warning tracedat.page.bad-commit" "re-graded finding shown at its new severity"
expect 4 "--severity warning up to error" "$bin" check --severity tracedat.option.unknown=error "$work/warning.dat"
has "error tracedat.option.unknown" "warning raised to error"
expect 16 "--disable an unknown code" "$bin" check --disable tracedat.no.such "$work/damaged.dat"
expect 16 "--severity without a level" "$bin" check --severity tracedat.option.unknown "$work/warning.dat"
expect 16 "--severity with a bad level" "$bin" check --severity tracedat.option.unknown=fatal "$work/warning.dat"
expect 16 "--disable without a value" "$bin" check "$work/warning.dat" --disable
printf '# gate for uploads\nfail-on warning\ndisable tracedat.page.*   # known kernel bug\nseverity tracedat.file.truncated=note\n' > "$work/gate.policy"
expect 4 "policy file" "$bin" check --json --policy "$work/gate.policy" "$work/damaged.dat"
has '"errors":1,"warnings":0,"notes":1,"disabled":2' "policy file rules applied"
expect 4 "policy file's fail-on" "$bin" check --policy "$work/gate.policy" "$work/warning.dat"
printf 'disable tracedat.option.unknown\nfrobnicate x\n' > "$work/bad.policy"
expect 16 "policy file with an unknown rule" "$bin" check --policy "$work/bad.policy" "$work/warning.dat"
grep -q "policy line 2: unknown rule 'frobnicate'" "$work/err" && echo "ok: bad policy line named" || { echo "FAIL: bad policy line not named"; cat "$work/err"; fail=1; }
expect 16 "missing policy file" "$bin" check --policy "$work/no-such.policy" "$work/warning.dat"
# -j: files checked side by side, output per file and in file order, statuses ORed the same.
set -- "$work/damaged.dat" "$work/clean.dat" "$work/no-such-file" "$work/warning.dat" "$work/damaged.dat" "$work/clean.dat"
expect 12 "-j 1 over several files" "$bin" check -j 1 "$@"
cp "$work/out" "$work/j1.out"
for j in 2 3 -j4 0; do
	if [ "$j" = -j4 ]; then expect 12 "-j4 over several files" "$bin" check -j4 "$@"
	else expect 12 "-j $j over several files" "$bin" check -j "$j" "$@"; fi
	if cmp -s "$work/j1.out" "$work/out"; then echo "ok: -j $j output identical to -j 1"; else echo "FAIL: -j $j output differs"; diff "$work/j1.out" "$work/out"; fail=1; fi
done
expect 12 "-j 2 --json" "$bin" check -j 2 --json "$@"
[ "$(grep -c '"type":"summary"' "$work/out")" = 6 ] && echo "ok: six summaries with -j 2" || { echo "FAIL: summaries with -j 2"; fail=1; }
expect 16 "-j with a bad count" "$bin" check -j 65 "$work/clean.dat"
expect 16 "-j without a count" "$bin" check "$work/clean.dat" -j
# --threads: the CPUs of a buffer walked side by side; the output does not change.
for t in 1 2 0; do
	expect 12 "--threads $t over several files" "$bin" check --threads "$t" "$@"
	if cmp -s "$work/j1.out" "$work/out"; then echo "ok: --threads $t output identical to -j 1"; else echo "FAIL: --threads $t output differs"; diff "$work/j1.out" "$work/out"; fail=1; fi
done
expect 16 "--threads with a bad count" "$bin" check --threads many "$work/clean.dat"
set --
expect 8 "missing file" "$bin" check "$work/no-such-file"
has "core.input.io-error" "io error reported"
# A folder that is no trace itself: each trace in it is a unit of its own, named by its path.
mkdir -p "$work/folder" && cp "$work/clean.dat" "$work/damaged.dat" "$work/folder/" || exit 1
expect 4 "a folder of traces" "$bin" check "$work/folder"
has "^$work/folder/clean.dat: clean: 0 errors" "a folder's clean trace is a unit"
has "^$work/folder/damaged.dat: corrupt:" "a folder's damaged trace is a unit"
printf 'hello, world\n' > "$work/text.txt"
expect 8 "not a trace" "$bin" check "$work/text.txt"
expect 12 "statuses OR over files" "$bin" check "$work/clean.dat" "$work/damaged.dat" "$work/no-such-file"
expect 16 "no arguments" "$bin"
expect 16 "check without files" "$bin" check
expect 16 "unknown option" "$bin" check --frobnicate "$work/clean.dat"
expect 16 "unknown command" "$bin" fsck
expect 0 "version" "$bin" --version
# Help where people look for it: on stdout, exit 0; each command's options from its table.
expect 0 "help" "$bin" help
has "Help on one command: tracefsck help CMD" "help lists the commands"
for c in check repair describe problems explain completion; do
	expect 0 "help $c" "$bin" help "$c"
	has "^usage: tracefsck $c \[options\]" "help $c: its usage"
	cp "$work/out" "$work/help.out"
	expect 0 "$c --help" "$bin" "$c" --help
	if cmp -s "$work/out" "$work/help.out"; then echo "ok: $c --help is help $c"; else echo "FAIL: $c --help differs from help $c"; fail=1; fi
done
expect 0 "check -h, even among other words" "$bin" check --json -h "$work/clean.dat"
has "  -j, --jobs N " "check -h lists -j with its value"
expect 16 "help of no command" "$bin" help fsck
# Short options bundled as getopt allows: -qj2 is -q -j 2; a file named -h after -- is a file.
"$bin" check -q -j 2 "$work/damaged.dat" "$work/clean.dat" > "$work/sep.out" 2>&1
expect 4 "bundled -qj2" "$bin" check -qj2 "$work/damaged.dat" "$work/clean.dat"
if cmp -s "$work/out" "$work/sep.out"; then echo "ok: -qj2 is -q -j 2"; else echo "FAIL: -qj2 differs from -q -j 2"; fail=1; fi
expect 4 "bundled -qj 2" "$bin" check -qj 2 "$work/damaged.dat" "$work/clean.dat"
if cmp -s "$work/out" "$work/sep.out"; then echo "ok: -qj 2 is -q -j 2"; else echo "FAIL: -qj 2 differs"; fail=1; fi
expect 16 "a bundle with an unknown letter stays one unknown option" "$bin" check -qz "$work/clean.dat"
if grep -q "unknown option '-qz'" "$work/err"; then echo "ok: -qz named as given"; else echo "FAIL: -qz: $(cat "$work/err")"; fail=1; fi
cp "$work/clean.dat" "$work/-h"
expect 0 "a file named -h after --" sh -c 'cd "$1" && exec "$2" check -- -h' sh "$work" "$bin"
has "^-h: clean" "the file -h was checked"
rm -f "$work/-h"
expect 4 "quiet" "$bin" check -q "$work/damaged.dat"
if grep -q ': warning \|: note ' "$work/out"; then echo "FAIL: -q printed below errors"; fail=1; fi

expect 4 "--json" "$bin" check --json "$work/damaged.dat" "$work/clean.dat"
if command -v python3 >/dev/null 2>&1; then
	if python3 - "$work/out" <<'PY'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
objs = [json.loads(l) for l in lines]
summ = [o for o in objs if o["type"] == "summary"]
assert len(summ) == 2, summ
assert summ[0]["verdict"] == "corrupt" and summ[1]["verdict"] == "clean", summ
for o in objs:
    if o["type"] == "finding":
        assert o["severity"] in ("error", "warning", "note"), o
        assert o["offset"] is None or isinstance(o["offset"], int), o
        assert o["code"] and o["message"], o
PY
	then echo "ok: JSON Lines parse, one summary per file"; else echo "FAIL: JSON Lines"; fail=1; fi
fi

# repair
rm -f "$work/fixed.dat"
expect 1 "repair a damaged trace" "$bin" repair "$work/damaged.dat" -o "$work/fixed.dat"
has "salvage: 2 buffers, 4 CPUs" "salvage report"
has "re-checked clean" "repair re-checks its output"
expect 0 "repaired output checks clean" "$bin" check "$work/fixed.dat"
rm -f "$work/fixed2.dat"
expect 0 "repairing it again: nothing to do" "$bin" repair "$work/fixed.dat" -o "$work/fixed2.dat"
[ ! -e "$work/fixed2.dat" ] && echo "ok: nothing to repair writes no copy" || { echo "FAIL: nothing to repair wrote $work/fixed2.dat"; fail=1; }
expect 0 "repairing it again with --always-write" "$bin" repair --always-write "$work/fixed.dat" -o "$work/fixed2.dat"
cmp -s "$work/fixed.dat" "$work/fixed2.dat" && echo "ok: second repair is byte-identical" || { echo "FAIL: second repair changed the file"; fail=1; }
rm -f "$work/dry.dat"
expect 1 "repair --dry-run" "$bin" repair --dry-run "$work/damaged.dat" -o "$work/dry.dat"
[ ! -e "$work/dry.dat" ] && echo "ok: dry run wrote nothing" || { echo "FAIL: dry run wrote a file"; fail=1; }
cp "$work/damaged.dat" "$work/inplace.dat"
expect 1 "repair --in-place" "$bin" repair --in-place "$work/inplace.dat"
expect 0 "in-place result checks clean" "$bin" check "$work/inplace.dat"
cmp -s "$work/inplace.dat" "$work/fixed.dat" && echo "ok: in-place equals -o output" || { echo "FAIL: in-place differs"; fail=1; }
expect 16 "repair onto itself without --in-place" "$bin" repair "$work/damaged.dat" -o "$work/damaged.dat"
expect 16 "repair without output" "$bin" repair "$work/damaged.dat"
expect 8 "repair of a text file" "$bin" repair "$work/text.txt" -o "$work/x.dat"
expect 8 "repair of a missing file" "$bin" repair "$work/none.dat" -o "$work/x.dat"

# GitHub annotations: escaping, the per-step cap, the step summary
weird="$work/a,b:c%d.dat"
cp "$work/damaged.dat" "$weird"
rm -f "$work/summary.md"
GITHUB_STEP_SUMMARY="$work/summary.md" "$bin" check --github "$weird" > "$work/out"; rc=$?
[ "$rc" = 4 ] && echo "ok: --github exit 4" || { echo "FAIL: --github exit $rc"; fail=1; }
has '^::error file=.*/a%2Cb%3Ac%25d.dat,title=tracedat.page.bad-commit::at 0x3008 ' "github: properties escaped, place first"
grep -q '^### tracefsck: `.*a,b:c%d.dat` is corrupt' "$work/summary.md" && grep -q '| error | tracedat.page.bad-commit | 0x3008 |' "$work/summary.md" \
	&& echo "ok: step summary table" || { echo "FAIL: step summary"; cat "$work/summary.md"; fail=1; }
cp "$work/clean.dat" "$work/many.dat"
for k in 1 2 3 4 5 6 7 8 9 10 11 12; do
	printf '\377\377\377\377\377\377\377\177' | dd of="$work/many.dat" bs=1 seek=$((k * 4096 + 8)) conv=notrunc status=none
done
expect 4 "--github with many faults" "$bin" check --github "$work/many.dat"
n=$(grep -c '^::error ' "$work/out")
[ "$n" = 10 ] && echo "ok: github annotations capped at 10 errors" || { echo "FAIL: $n error annotations"; fail=1; }
has '^::notice title=tracefsck::[0-9]* more findings not annotated' "github: one closing notice for the run counts the rest"
expect 16 "--json with --sarif" "$bin" check --json --sarif "$work/clean.dat"

# describe
expect 4 "describe a damaged trace" "$bin" describe "$work/damaged.dat"
has "^0x000007af         10  option   CPUCOUNT 8: 4 bytes" "describe lists options with offsets"
has "^    ! error tracedat.page.bad-commit at 0x3008" "describe shows faults under their structure"
has "^0x00001000      16384  cpu      cpu 0: 4 pages, 180 events" "describe lists CPU ranges with pages and events"
expect 4 "describe of two files" "$bin" describe "$work/clean.dat" "$work/damaged.dat"
has "^$work/clean.dat:\$" "describe names the first file before its map"
has "^$work/clean.dat: clean: [0-9]* structures, 0 findings" "describe names the first file in its summary"
has "^$work/damaged.dat: corrupt: [0-9]* structures, [1-9][0-9]* findings" "describe names the second file in its summary"
xz -c "$work/damaged.dat" > "$work/damaged.dat.xz"
expect 4 "describe of a compressed trace from standard input" sh -c "$wrap '$bin' describe - < '$work/damaged.dat.xz'"
has "^    ! error tracedat.page.bad-commit at 0x3008" "describe of standard input shows the faults in place"
expect 0 "describe --json a clean trace" "$bin" describe --json "$work/clean.dat"
if command -v python3 >/dev/null 2>&1; then
	python3 -c "import json,sys; [json.loads(l) for l in open(sys.argv[1])]" "$work/out" && echo "ok: describe --json parses" || { echo "FAIL: describe --json"; fail=1; }
fi
# progress goes to a terminal only: never into redirected output
"$bin" check "$work/clean.dat" 2> "$work/err" > /dev/null
[ ! -s "$work/err" ] && echo "ok: no progress on a non-terminal" || { echo "FAIL: progress written to a file"; fail=1; }

expect 0 "problems" "$bin" problems
n=$(grep -c '^tracedat\.\|^core\.' "$work/out")
[ "$n" -ge 25 ] && echo "ok: problems lists $n codes" || { echo "FAIL: problems lists $n codes"; fail=1; }
expect 0 "problems --json" "$bin" problems --json
expect 0 "problems --man" "$bin" problems --man
codes=$("$bin" problems | wc -l); tps=$(grep -c '^\.TP' "$work/out")
[ "$codes" = "$tps" ] && echo "ok: tracefsck-faults(7) has all $codes codes" || { echo "FAIL: man page has $tps of $codes codes"; fail=1; }
if command -v man >/dev/null 2>&1; then
	man -l "$work/out" 2>&1 >/dev/null | grep -q . && { echo "FAIL: the man page has troff warnings"; fail=1; } || echo "ok: man page renders"
fi
expect 0 "explain" "$bin" explain tracedat.cpu.overlap
has "Repair: clip-range" "explain shows the repair action"
expect 16 "explain unknown code" "$bin" explain tracedat.nope

# A perf.data directory (perf record --threads): the header file "data" and its data.N streams.
# Made from a fixture: data.0 repeats the header file's records.
"$make" perf-le "$work/perf-le.data" || exit 1
dir="$work/threads.perf"
rm -rf "$dir" && mkdir -p "$dir" && cp "$work/perf-le.data" "$dir/data"
$wrap "$bin" describe "$work/perf-le.data" > "$work/out"
off=$(sed -n 's/.*data at 0x\([0-9a-f]*\) size \([0-9]*\).*/\1/p' "$work/out")
len=$(sed -n 's/.*data at 0x\([0-9a-f]*\) size \([0-9]*\).*/\2/p' "$work/out")
tail -c +$((0x$off + 1)) "$work/perf-le.data" | head -c "$len" > "$dir/data.0"
: > "$dir/data.1" # an empty stream, as perf leaves for a thread without samples
expect 0 "perf.data directory" "$bin" check --json "$dir"
has '"format":"perf.data directory".*"events":24,' "directory: the header file's 12 samples and data.0's 12"
printf '\011\000\000\000\000\000\003\000' >> "$dir/data.0" # a sample of size 3
expect 4 "perf.data directory with a damaged stream" "$bin" check "$dir"
has "^$dir/data.0: 0x$(printf '%x' $((len + 6))) \[record type 9 at +0x$(printf '%x' "$len")\]: error perf.record.bad-size" \
	"the finding names its member file and the offset inside it"
expect 4 "perf.data directory with a damaged stream, JSON" "$bin" check --json "$dir"
has "\"member\":\"data.0\",\"code\":\"perf.record.bad-size\",\"severity\":\"error\",\"offset\":$((len + 6))," "JSON: member key and the offset inside it"
expect 4 "perf.data directory with a damaged stream, SARIF" "$bin" check --sarif "$dir"
has "\"artifactLocation\":{\"uri\":\"[^\"]*threads[.]perf/data[.]0\"[,}]" "SARIF: the result's artifact is the member file"
expect 4 "perf.data directory with a damaged stream, GitHub" "$bin" check --github "$dir"
has "^::error file=$dir/data.0,title=perf.record.bad-size::" "GitHub: the annotation names the member file"
"$make" clean "$work/single.dat" || exit 1

expect 4 "a single file, JSON" "$bin" check --json "$work/damaged.dat"
has '"member":null,"code"' "JSON: member is null for a single file"

# Directory inputs: no link is followed, a link out of the directory is reported, the listing is
# bounded, and a directory no format claims says so.
ln -s /etc/passwd "$dir/outside"
ln -s data.1 "$dir/inside"
expect 4 "perf.data directory with links" "$bin" check "$dir"
has "^$dir/outside: \[symbolic link\]: warning core.input.link-outside" "a link out of the directory is reported"
if grep -q "$dir/inside:" "$work/out"; then echo "FAIL: a link inside the directory was reported"; fail=1; else echo "ok: a link inside is listed, not reported"; fi
rm -f "$dir/outside" "$dir/inside"
mkdir -p "$work/not-a-trace" && echo hello > "$work/not-a-trace/readme"
expect 8 "a directory no format claims" "$bin" check "$work/not-a-trace"
has "^$work/not-a-trace: \[folder\]: warning core.input.no-trace" "says the folder holds no trace"
has "^$work/not-a-trace/readme: \[folder entry\]: note core.input.not-a-trace" "lists the junk file once, as a note"

# GitHub keeps 10 annotations of each kind per step: the cap is the run's, not each file's,
# and the closing notice counts what the files beyond it held.
for i in 1 2 3; do cp "$work/damaged.dat" "$work/gh$i.dat"; done
expect 4 "--github over three damaged files" "$bin" check --github "$work/gh1.dat" "$work/gh2.dat" "$work/gh3.dat"
n=$(grep -c '^::error ' "$work/out")
[ "$n" = 10 ] && echo "ok: 10 error annotations for the whole run" || { echo "FAIL: $n error annotations, expected 10"; fail=1; }
has '^::notice title=tracefsck::2 more findings not annotated' "one closing notice counts the other 2"
[ "$(grep -c '^::notice' "$work/out")" = 1 ] && echo "ok: one notice" || { echo "FAIL: notices"; fail=1; }

# A name longer than any buffer is never cut: JSON, SARIF, GitHub and text name the file itself.
long=$work/$(printf 'n%.0s' $(seq 1 200))/$(printf 'm%.0s' $(seq 1 200))/$(printf 'k%.0s' $(seq 1 200)).dat
mkdir -p "$(dirname "$long")" && cp "$work/damaged.dat" "$long"
expect 4 "a 600-byte name, JSON" "$bin" check --json "$long"
has "\"file\":\"$long\"" "JSON names the whole file"
expect 4 "a 600-byte name, SARIF" "$bin" check --sarif "$long"
# (relative to %SRCROOT% when the test runs above it, as ctest does)
case $long in
"$PWD"/*) has "\"uri\":\"${long#"$PWD"/}\",\"uriBaseId\":\"%SRCROOT%\"" "SARIF's URI is the whole name" ;;
*) has "\"uri\":\"file://$long\"" "SARIF's URI is the whole name" ;;
esac
expect 4 "a 600-byte name, GitHub" "$bin" check --github "$long"
has "^::error file=$long," "GitHub names the whole file"
expect 4 "a 600-byte name, text" "$bin" check "$long"
has "^$long: corrupt" "text names the whole file"

# Repair's output file: never over an existing OUT without --force; the input's mode less the
# umask (-o) or the input's own (--in-place); through a symbolic link, the file it names.
cp "$work/damaged.dat" "$work/priv.dat" && chmod 600 "$work/priv.dat"
rm -f "$work/priv.out"
(umask 022 && $wrap "$bin" repair -q "$work/priv.dat" -o "$work/priv.out" > /dev/null)
[ "$(stat -c %a "$work/priv.out")" = 600 ] && echo "ok: a private input gives a private output" ||
	{ echo "FAIL: output mode $(stat -c %a "$work/priv.out") from a 600 input"; fail=1; }
cp "$work/damaged.dat" "$work/open.dat" && chmod 644 "$work/open.dat"
rm -f "$work/open.out"
(umask 077 && $wrap "$bin" repair -q "$work/open.dat" -o "$work/open.out" > /dev/null)
[ "$(stat -c %a "$work/open.out")" = 600 ] && echo "ok: the umask applies" ||
	{ echo "FAIL: output mode $(stat -c %a "$work/open.out") under umask 077"; fail=1; }
expect 16 "-o over an existing file" "$bin" repair "$work/open.dat" -o "$work/open.out"
grep -q "exists; give --force" "$work/err" && echo "ok: says --force replaces it" || { echo "FAIL: message"; cat "$work/err"; fail=1; }
expect 1 "-o over an existing file with --force" "$bin" repair --force "$work/open.dat" -o "$work/open.out"
cp "$work/damaged.dat" "$work/target.dat" && chmod 640 "$work/target.dat"
ln -sf target.dat "$work/link.dat"
expect 1 "--in-place through a symbolic link" "$bin" repair --in-place "$work/link.dat"
[ -L "$work/link.dat" ] && echo "ok: the link stays a link" || { echo "FAIL: the link was replaced"; fail=1; }
[ "$(stat -c %a "$work/target.dat")" = 640 ] && echo "ok: in place keeps the input's mode" ||
	{ echo "FAIL: in-place mode $(stat -c %a "$work/target.dat")"; fail=1; }
expect 0 "the file the link names is repaired" "$bin" check "$work/target.dat"
# a name full of terminal escapes is shown escaped in every line repair prints
esc=$(printf '%s/e\033]0;x\007\033[31m.dat' "$work")
cp "$work/damaged.dat" "$esc"
expect 1 "repair of a name full of escapes" "$bin" repair "$esc" -o "$esc.out"
expect 1 "repair --dry-run of a name full of escapes" "$bin" repair --dry-run "$esc"
expect 16 "repair over an existing name full of escapes" "$bin" repair "$esc" -o "$esc.out"
if LC_ALL=C grep -q "$(printf '\033')" "$work/out" "$work/err"; then echo "FAIL: a raw escape byte reached the terminal"; fail=1; else echo "ok: names escaped"; fi
# killed while it waits for its input (a FIFO that never ends): nothing is left beside OUT
for sig in KILL TERM INT; do
	mkdir -p "$work/kill" && rm -f "$work/kill/"* "$work/kill/".tracefsck-* "$work/fifo"
	mkfifo "$work/fifo"
	sleep 30 > "$work/fifo" & holder=$!
	"$bin" repair --force "$work/fifo" -o "$work/kill/out.dat" > /dev/null 2>&1 & rep=$!
	sleep 1
	kill -$sig $rep 2> /dev/null
	wait $rep 2> /dev/null
	kill $holder 2> /dev/null
	wait $holder 2> /dev/null
	left=$(ls -A "$work/kill")
	[ -z "$left" ] && echo "ok: SIG$sig during repair leaves nothing behind" || { echo "FAIL: SIG$sig left: $left"; fail=1; }
done
exit $fail
