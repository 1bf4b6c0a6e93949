#!/bin/sh
# SPDX-License-Identifier: MIT
# Trace units: a folder of uploads holding every format's pristine and damaged traces, nested two
# levels, checked as the units it holds, each with its own verdict and path; the same folder as
# .tar.gz, .tar.xz, .tar.zst, .tar.bz2 and .zip; a single .bz2 file; members deleted from trace
# directories; junk files as notes; hostile archives (names climbing out, links, a bomb) as
# findings with nothing written outside the scratch directory, which is gone after the run.
# usage: units.sh TRACEFSCK SAMPLES_DIR SOURCE_DIR WORK_DIR
set -u
bin=$1 samples=$2 src=$3 work=$4
[ -d "$samples" ] || { echo "no samples: skipped"; exit 77; }
for t in tar zip bzip2 xz zstd python3; do command -v $t >/dev/null || { echo "FAIL: $t is not installed (scripts/install-deps.sh)"; exit 1; }; done
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
export TMPDIR="$work/tmp"
mkdir -p "$TMPDIR"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# run OUT ARGS...: tracefsck check --json ARGS > OUT.jsonl, its exit status in OUT.status, and
# (one python3 per run) OUT.v: "unit verdict" lines, OUT.c: "unit<TAB>code member" lines.
run() {
	out=$1; shift
	"$bin" check --json "$@" > "$out.jsonl"
	echo $? > "$out.status"
	python3 -c '
import json, sys
v, c = open(sys.argv[1] + ".v", "w"), open(sys.argv[1] + ".c", "w")
for line in open(sys.argv[1] + ".jsonl"):
    o = json.loads(line)
    if o.get("type") == "summary":
        v.write("%s %s\n" % (o["file"], o["verdict"]))
    elif o.get("type") == "finding":
        c.write("%s\t%s %s\n" % (o["file"], o["code"], o.get("member") or "-"))
' "$out"
}
verdicts() { cat "$1.v"; }
# codes OUT UNIT: the codes of the unit's findings, one a line, with their member
codes() { awk -F '\t' -v u="$2" '$1 == u { print $2 }' "$1.c"; }
expect() { # expect OUT UNIT VERDICT
	got=$(verdicts "$1" | awk -v u="$2" '$1 == u { v = $2 } END { print v }') # an archive's own report comes first
	[ "$got" = "$3" ] && ok "$2: $3" || bad "$2: expected $3, found '${got:-no unit}'"
}

# The uploads: pristine and damaged traces of every format, two folders down.
up=$work/up
d=$up/attachments/run-1
mkdir -p "$d" "$up/attachments/run-2" || exit 1
xz -dc "$samples/tracedat/sched-irq.v6.dat.xz" > "$d/sched-irq.v6.dat" || exit 1
cp "$samples/tracedat/two-buffers.v6.dat.xz" "$d/two-buffers.v6.dat.xz"
cp "$src/examples/damaged.v6.dat" "$d/damaged.v6.dat"
cp "$samples/perf/sched-tracepoints.perf.data" "$d/sched.perf.data"
head -c 3000 "$samples/perf/cpu-clock-callchain.perf.data" > "$d/cut.perf.data"
cp -r "$samples/uftrace/fib-args.uftrace.data" "$d/"
cp -r "$samples/uftrace/fib-args.uftrace.data" "$up/attachments/run-2/no-task-data.uftrace.data"
rm "$up/attachments/run-2/no-task-data.uftrace.data/18985.dat"
cp -r "$samples/ctf/tracef-2000.lttng" "$up/attachments/run-2/"
cp -r "$samples/ctf/multipacket-contexts.lttng" "$up/attachments/run-2/no-metadata.lttng"
find "$up/attachments/run-2/no-metadata.lttng" -name metadata -delete
# LTTng 0.x: the fixture writer's trace directory (corpus/lttng0-dir), laid out as files.
python3 - "$src/corpus/lttng0-dir/seed-lttng0-dir-2008-le" "$d/lttng0-trace" <<'PY' || exit 1
import os, struct, sys
data, out = open(sys.argv[1], "rb").read(), sys.argv[2]
at = 0
while at < len(data):
    n = data[at]; name = data[at + 1:at + 1 + n].decode(); at += 1 + n
    size = struct.unpack_from("<I", data, at + 1)[0]; at += 5
    path = os.path.join(out, name.replace("control.", "control/", 1))
    os.makedirs(os.path.dirname(path), exist_ok=True)
    open(path, "wb").write(data[at:at + size]); at += size
PY
cp -r "$d/lttng0-trace" "$up/attachments/run-2/lttng0-no-metadata"
rm -f "$up/attachments/run-2/lttng0-no-metadata/control/facilities_0"
echo "see the traces" > "$up/README.txt"
ln -s /etc/passwd "$up/attachments/link"

run "$work/up" "$up"
pre=$up/attachments
check_folder() { # check_folder OUT PREFIX ARCHIVED: the verdict of every unit
	expect "$1" "$2/README.txt" clean
	if [ "$3" = no ]; then expect "$1" "$2/attachments/link" clean; else
		codes "$1" "${2%/up}" | grep -qx "core.archive.member-skipped up/attachments/link" &&
			ok "$2: the link in the archive is skipped" || bad "$2: no core.archive.member-skipped for the link"
	fi
	expect "$1" "$2/attachments/run-1/sched-irq.v6.dat" clean
	expect "$1" "$2/attachments/run-1/two-buffers.v6.dat.xz" clean
	expect "$1" "$2/attachments/run-1/damaged.v6.dat" corrupt
	expect "$1" "$2/attachments/run-1/sched.perf.data" clean
	expect "$1" "$2/attachments/run-1/cut.perf.data" corrupt
	expect "$1" "$2/attachments/run-1/fib-args.uftrace.data" clean
	expect "$1" "$2/attachments/run-1/lttng0-trace" clean
	expect "$1" "$2/attachments/run-2/no-task-data.uftrace.data" corrupt
	expect "$1" "$2/attachments/run-2/tracef-2000.lttng" clean
	expect "$1" "$2/attachments/run-2/no-metadata.lttng" corrupt
	expect "$1" "$2/attachments/run-2/lttng0-no-metadata" corrupt
	n=$(verdicts "$1" | grep -c "^$2/")
	want=13; [ "$3" = no ] || want=12
	[ "$n" = $want ] && ok "$2: $want units, no member checked alone" || bad "$2: $n units (expected $want)"
	codes "$1" "$2/attachments/run-2/no-task-data.uftrace.data" | grep -qx "core.input.member-missing 18985.dat" &&
		ok "$2: the missing task data is named" || bad "$2: no core.input.member-missing for 18985.dat"
	codes "$1" "$2/attachments/run-2/no-metadata.lttng" | grep -q "^ctf.metadata.missing .*/metadata$" &&
		ok "$2: the missing CTF metadata is named" || bad "$2: no ctf.metadata.missing"
	codes "$1" "$2/attachments/run-2/lttng0-no-metadata" | grep -q "^lttng0.dir.no-metadata" &&
		ok "$2: the missing LTTng 0.x metadata channel is an error" || bad "$2: no lttng0.dir.no-metadata"
	codes "$1" "$2/README.txt" | grep -qx "core.input.not-a-trace -" && ok "$2: a junk file is a note" ||
		bad "$2: README.txt is not a core.input.not-a-trace note"
}
check_folder "$work/up" "$up" no
st=$(cat "$work/up.status")
[ $((st & 4)) = 4 ] && ok "the folder exits with 4 among its bits ($st)" || bad "the folder exits $st, expected 4 among its bits"
# The folder of the issue: a damaged trace.dat beside a CTF trace and a uftrace directory: exit 4.
mkdir -p "$work/plain" && cp "$src/examples/damaged.v6.dat" "$work/plain/" &&
	cp -r "$samples/ctf/tracef-2000.lttng" "$samples/uftrace/fib-args.uftrace.data" "$work/plain/" || exit 1
run "$work/plain" "$work/plain"
[ "$(cat "$work/plain.status")" = 4 ] && ok "plain: exits 4" || bad "plain: exits $(cat "$work/plain.status"), expected 4"
expect "$work/plain" "$work/plain/damaged.v6.dat" corrupt
expect "$work/plain" "$work/plain/tracef-2000.lttng" clean
expect "$work/plain" "$work/plain/fib-args.uftrace.data" clean

# The same uploads as archives, with the folder's name inside them.
(cd "$work" && tar cf up.tar up && tar czf up.tgz up && tar cJf up.tar.xz up && tar --zstd -cf up.tar.zst up &&
	tar cjf up.tar.bz2 up && zip -qry up.zip up) || exit 1
for a in up.tar up.tgz up.tar.xz up.tar.zst up.tar.bz2 up.zip; do
	run "$work/$a" "$work/$a"
	st=$(cat "$work/$a.status")
	[ $((st & 4)) = 4 ] && ok "$a exits with 4 among its bits ($st)" || bad "$a exits $st, expected 4 among its bits"
	check_folder "$work/$a" "$work/$a/up" yes
	codes "$work/$a" "$work/$a" | grep -q "^core.input.archive" && ok "$a: the archive is named" ||
		bad "$a: no core.input.archive note"
done
# A zip of a trace directory's own members: the archive is that one trace.
(cd "$samples/ctf/tracef-2000.lttng" && zip -qr "$work/session.zip" .) || exit 1
run "$work/session" "$work/session.zip"
expect "$work/session" "$work/session.zip" clean
[ "$(verdicts "$work/session" | grep -c "^$work/session.zip ")" = 2 ] && ok "session.zip: the archive's note and its one trace" ||
	bad "session.zip: $(verdicts "$work/session" | wc -l) reports, expected 2"
# A single file compressed with bzip2.
bzip2 -c "$d/damaged.v6.dat" > "$work/damaged.v6.dat.bz2"
run "$work/bz2" "$work/damaged.v6.dat.bz2"
verdicts "$work/bz2" | grep -qx "$work/damaged.v6.dat.bz2 corrupt" && ok "a .bz2 trace is checked decompressed" ||
	bad "a .bz2 trace: $(verdicts "$work/bz2")"
codes "$work/bz2" "$work/damaged.v6.dat.bz2" | grep -q "^tracedat.page.bad-commit" &&
	ok "the .bz2 trace's findings are the trace's" || bad "the .bz2 trace lost its findings"

# Hostile archives: names that climb out or are absolute, links, a device; nothing lands outside.
python3 - "$work/hostile.tar" <<'PY' || exit 1
import io, sys, tarfile
with tarfile.open(sys.argv[1], "w") as t:
    def add(name, data=b"x", kind=tarfile.REGTYPE, link=""):
        i = tarfile.TarInfo(name); i.type = kind; i.linkname = link; i.size = len(data) if kind == tarfile.REGTYPE else 0
        t.addfile(i, io.BytesIO(data) if kind == tarfile.REGTYPE else None)
    add("../escaped.txt"); add("/tmp/absolute-escape.txt"); add("ok/../../escaped2.txt")
    add("lnk", kind=tarfile.SYMTYPE, link="/etc/passwd"); add("hard", kind=tarfile.LNKTYPE, link="lnk")
    add("dev", kind=tarfile.CHRTYPE)
    add("notes.txt", b"hello")
PY
run "$work/hostile" "$work/hostile.tar"
st=$(cat "$work/hostile.status")
n=$(codes "$work/hostile" "$work/hostile.tar" | grep -c "^core.archive.member-skipped")
[ "$n" = 6 ] && ok "hostile.tar: 6 members skipped" || bad "hostile.tar: $n members skipped, expected 6"
codes "$work/hostile" "$work/hostile.tar" | grep -q "^core.input.no-trace" && ok "hostile.tar: no trace in it" ||
	bad "hostile.tar: no core.input.no-trace"
[ "$st" = 8 ] && ok "hostile.tar exits 8 (nothing checked)" || bad "hostile.tar exits $st, expected 8"
[ ! -e "$work/escaped.txt" ] && [ ! -e "$work/escaped2.txt" ] && [ ! -e /tmp/absolute-escape.txt ] &&
	ok "nothing was written outside the scratch directory" || bad "a member escaped the scratch directory"
# A bomb: 1 GiB of zeros in one member of a tar.zst of a few kilobytes: cut by the ratio bound.
head -c 1073741824 /dev/zero | python3 -c '
import sys, tarfile
with tarfile.open(fileobj=sys.stdout.buffer, mode="w|") as t:
    i = tarfile.TarInfo("zeros.dat"); i.size = 1073741824
    t.addfile(i, sys.stdin.buffer)
' | zstd -q -1 > "$work/bomb.tar.zst" || exit 1
run "$work/bomb" "$work/bomb.tar.zst"
st=$(cat "$work/bomb.status")
codes "$work/bomb" "$work/bomb.tar.zst" | grep -q "^core.limit.reached" && ok "bomb.tar.zst: core.limit.reached" ||
	bad "bomb.tar.zst: no core.limit.reached"
[ $((st & 8)) = 8 ] && ok "bomb.tar.zst: incomplete (exit $st)" || bad "bomb.tar.zst exits $st, expected 8 among its bits"
# Every scratch directory is gone.
left=$(find "$TMPDIR" -mindepth 1 | head -3)
[ -z "$left" ] && ok "no scratch directory is left behind" || bad "left behind: $left"
# A run ended by a signal removes its scratch directory too, then dies of the signal (SIGTERM:
# a background job of this shell ignores SIGINT, whose exit 32 e2e_interrupt tests).
"$bin" check "$work/up.tar.xz" "$work/bomb.tar.zst" > /dev/null 2>&1 &
pid=$!
for i in $(seq 1 50); do [ -n "$(find "$TMPDIR" -mindepth 1 -maxdepth 1)" ] && break; sleep 0.1; done
[ -n "$(find "$TMPDIR" -mindepth 1 -maxdepth 1)" ] && ok "the run made its scratch directory" || bad "no scratch directory seen"
kill -TERM $pid
wait $pid
st=$?
[ "$st" = 143 ] && ok "SIGTERM ends the run as the signal does (exit $st)" || bad "SIGTERM: exit $st, expected 143"
left=$(find "$TMPDIR" -mindepth 1 | head -3)
[ -z "$left" ] && ok "a run ended by a signal leaves no scratch directory" || bad "left behind after SIGTERM: $left"

# A trace deeper than the search reaches is a limit finding on the folder, not silence.
deep=$work/deep
p=$deep
for i in $(seq 1 33); do p=$p/d$i; done
mkdir -p "$p" && cp "$d/sched-irq.v6.dat" "$p/" || exit 1
run "$work/deep" "$deep"
codes "$work/deep" "$deep" | grep -q "^core.limit.reached" && ok "a trace 33 folders down: core.limit.reached" ||
	bad "a trace 33 folders down was silently missed"
shallow=$work/shallow
p=$shallow
for i in $(seq 1 13); do p=$p/d$i; done
mkdir -p "$p" && cp "$d/sched-irq.v6.dat" "$p/" || exit 1
run "$work/shallow" "$shallow"
verdicts "$work/shallow" | grep -q "/d13/sched-irq.v6.dat clean$" && ok "a trace 13 folders down is found" ||
	bad "a trace 13 folders down is not found"
exit $fail
