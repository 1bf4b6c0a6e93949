#!/bin/sh
# SPDX-License-Identifier: MIT
# describe --svg / --html of a damaged copy of a sample of every format: the SVG (parsed as
# XML) has a lane per unit of the trace - each CPU of a trace.dat, perf.data's records, each
# task of a uftrace recording, each data stream of a CTF trace, each tracefile of an LTTng 0.x
# trace - and a visible label (a text element, not only a hover title) with the code of every
# finding the check reports in a unit, the labels' counts adding up; the HTML page (parsed by
# html.parser) holds the picture, one findings-table row per finding with its code linked to
# that code's text in the page, and nothing loaded from elsewhere.
# usage: picture_formats.sh TRACEFSCK SHARED_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 shared=$2 work=$3
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
# check NAME PATH KIND UNITS: the pictures of PATH, whose lanes of KIND must number UNITS
check() {
	name=$1 f=$2 kind=$3 units=$4
	$wrap "$bin" describe --svg "$f" > "$work/$name.svg"
	rc=$?
	$wrap "$bin" describe --html "$f" > "$work/$name.html"
	[ $? = "$rc" ] || { echo "FAIL: $name: --svg and --html exit differently"; fail=1; }
	[ "$rc" = 4 ] || { echo "FAIL: $name: describe exit $rc, expected 4 (a damaged copy)"; fail=1; return; }
	"$bin" check --json "$f" > "$work/$name.jsonl"
	python3 - "$work/$name.svg" "$work/$name.html" "$work/$name.jsonl" "$name" "$kind" "$units" <<'PY' || fail=1
import json, sys, xml.etree.ElementTree as ET
from html.parser import HTMLParser
svg, html, jsonl, name, kind, units = sys.argv[1:7]
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(svg).getroot()
lines = [json.loads(l) for l in open(jsonl)]
findings = [o for o in lines if o["type"] == "finding"]
assert findings, name
lanes = [g for g in root.iter("{http://www.w3.org/2000/svg}g") if g.get("class") == "lane"]
mine = [g for g in lanes if g.get("data-kind") == kind]
assert len(mine) == int(units), "%s: %d %s lanes, %d units" % (name, len(mine), kind, int(units))
for g in mine:
    rects = g.findall("s:rect", ns)
    assert len(rects) >= 2, "%s: lane %s has no time and byte rows" % (name, g.get("data-name"))
labels = [t for t in root.iter("{http://www.w3.org/2000/svg}text") if "lbl" in t.get("class", "").split()]
more = sum(int(t.get("data-more")) for t in root.iter("{http://www.w3.org/2000/svg}text") if t.get("data-more"))
assert labels, "%s: no finding labelled" % name
for t in labels:
    assert t.text and t.text.startswith(t.get("data-code")), "%s: label %r without its code" % (name, t.text)
codes = {t.get("data-code") for t in labels}
in_units = [o for o in findings if o["member"] is not None] if kind != "cpu" and kind != "records" else findings
missing = {o["code"] for o in in_units} - codes
assert not missing or more, "%s: codes without a label: %s" % (name, sorted(missing))
# an error finding in a unit is labelled there (bold red), not only hovered
errors = {o["code"] for o in in_units if o["severity"] == "error"}
assert errors <= codes or more, "%s: error codes unlabelled: %s" % (name, sorted(errors - codes))

class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.ids, self.links, self.external, self.svg, self.table = [], set(), [], [], 0, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        if tag == "svg":
            self.svg += 1
        if tag == "table":
            self.table = a.get("id")
        if tag == "tr" and self.table == "findings" and "data-code" in a:
            self.rows.append(a["data-code"])
        if tag == "a":
            self.links.append(a.get("href", ""))
        for k in ("src", "href"):
            if k in a and not a[k].startswith("#"):
                self.external.append(a[k])
        if tag == "link" or (tag == "script" and "src" in a):
            self.external.append(tag)
p = Page()
p.feed(open(html).read())
assert p.svg == 1, "%s: %d svg in the page" % (name, p.svg)
assert not p.external, "%s: external resources %s" % (name, p.external)
assert sorted(p.rows) == sorted(o["code"] for o in findings), "%s: %d table rows, %d findings" % (name, len(p.rows), len(findings))
for href in p.links:
    assert href[1:] in p.ids, "%s: link %s to nothing in the page" % (name, href)
for c in set(p.rows):
    assert "explain-" + c in p.ids, "%s: no text for %s" % (name, c)
print("ok: %s: %d %s lanes, %d labels (%d codes), %d more; html: %d findings rows" % (
    name, len(mine), kind, len(labels), len(codes), more, len(p.rows)))
PY
}
s=$shared/samples
# trace.dat v6: a page's events overwritten (its CPU cut there)
xz -dc "$s/tracedat/sched-irq.v6.dat.xz" > "$work/v6.dat" || exit 1
python3 - "$work/v6.dat" <<'PY'
import sys
f = sys.argv[1]; d = bytearray(open(f, "rb").read()); at = len(d) - 3 * 4096 + 200
d[at:at + 400] = b"\xab" * 400; open(f, "wb").write(d)
PY
check v6 "$work/v6.dat" cpu 2
# trace.dat v7 (zstd) cut short
cp "$s/tracedat/sched-irq.v7zstd.dat" "$work/v7.dat" && chmod u+w "$work/v7.dat" && truncate -s -3000 "$work/v7.dat"
check v7zstd "$work/v7.dat" cpu 2
# perf.data: record 60's size made impossible
python3 - "$s/perf/cpu-clock-callchain.perf.data" "$work/perf.data" <<'PY'
import struct, sys
p = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", p, 40)
pos, k = off, 0
while pos < off + size:
    t, m, s = struct.unpack_from("<IHH", p, pos)
    if k == 60:
        struct.pack_into("<H", p, pos + 6, 3)
        break
    pos, k = pos + s, k + 1
open(sys.argv[2], "wb").write(p)
PY
check perf "$work/perf.data" records 1
# perf.data with PERF_SAMPLE_CPU (perf script -F cpu prints CPUs 0 and 1): a lane per CPU, record 20 broken
python3 - "$s/perf/sched-tracepoints.perf.data" "$work/perf-cpus.data" <<'PY'
import struct, sys
p = bytearray(open(sys.argv[1], "rb").read())
off, size = struct.unpack_from("<QQ", p, 40)
pos, k = off, 0
while pos < off + size:
    t, m, s = struct.unpack_from("<IHH", p, pos)
    if k == 20:
        struct.pack_into("<H", p, pos + 6, 3)
        break
    pos, k = pos + s, k + 1
open(sys.argv[2], "wb").write(p)
PY
check perf-cpus "$work/perf-cpus.data" cpu 2
# uftrace: 40 bytes of a task's records overwritten
cp -R "$s/uftrace/fib-args.uftrace.data" "$work/uftrace" && chmod -R u+w "$work/uftrace"
python3 - "$work/uftrace/18985.dat" <<'PY'
import sys
f = sys.argv[1]; d = bytearray(open(f, "rb").read()); at = len(d) // 2
d[at:at + 40] = b"\xee" * 40; open(f, "wb").write(d)
PY
check uftrace "$work/uftrace" task "$(ls "$work/uftrace" | grep -c '^[0-9]*\.dat$')"
# CTF: 8 KiB zeroed inside a packet of channel0_1
cp -R "$s/ctf/tracef-2000.lttng" "$work/ctf" && chmod -R u+w "$work/ctf"
python3 - "$work/ctf/ust/uid/0/64-bit/channel0_1" <<'PY'
import sys
f = sys.argv[1]; d = bytearray(open(f, "rb").read()); d[20119:20119 + 8192] = bytes(8192); open(f, "wb").write(d)
PY
check ctf "$work/ctf" stream "$(find "$work/ctf" -type f ! -name metadata ! -name '*.idx' | wc -l)"
# LTTng 0.x: a tracefile cut inside its last block
l0=$shared/foreign/lttng0/linuxtools-trace-1021events-nolost-1cpu
if [ -d "$l0" ]; then
	cp -R "$l0" "$work/lttng0" && chmod -R u+w "$work/lttng0"
	big=$(ls -S "$work/lttng0" | head -n 1)
	truncate -s -700 "$work/lttng0/$big"
	check lttng0 "$work/lttng0" tracefile "$(find "$work/lttng0" -type f | wc -l)"
else
	echo "no $l0: LTTng 0.x left out"
fi
exit $fail
