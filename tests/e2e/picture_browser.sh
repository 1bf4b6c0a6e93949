#!/bin/sh
# SPDX-License-Identifier: MIT
# The HTML page of a damaged trace loaded by a real browser: headless Chromium runs the page
# (its inline script included) and dumps the DOM it built; the findings table must hold one row
# per finding of check --json, in the order check found them, each code linked to its text in
# the page, and the picture's lanes and labels must be there. Without /usr/bin/chromium
# (Debian: chromium; or TFK_CHROMIUM) it exits 77.
# usage: picture_browser.sh TRACEFSCK SHARED_DIR WORK_DIR
set -u
bin=$1 shared=$2 work=$3
browser=${TFK_CHROMIUM:-/usr/bin/chromium}
[ -x "$browser" ] || { echo "no $browser: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
# a damaged trace.dat (a page overwritten) and a damaged CTF trace (8 KiB of a packet zeroed)
xz -dc "$shared/samples/tracedat/sched-irq.v6.dat.xz" > "$work/v6.dat" || exit 1
cp -R "$shared/samples/ctf/tracef-2000.lttng" "$work/ctf" && chmod -R u+w "$work/ctf"
python3 - "$work/v6.dat" "$work/ctf/ust/uid/0/64-bit/channel0_1" <<'PY'
import sys
f = sys.argv[1]; d = bytearray(open(f, "rb").read()); at = len(d) - 3 * 4096 + 200
d[at:at + 400] = b"\xab" * 400; open(f, "wb").write(d)
f = sys.argv[2]; d = bytearray(open(f, "rb").read()); d[20119:20119 + 8192] = bytes(8192); open(f, "wb").write(d)
PY
for t in v6.dat ctf; do
	"$bin" describe --html "$work/$t" > "$work/$t.html"
	"$bin" check --json "$work/$t" > "$work/$t.jsonl"
	timeout -k 5 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile-$t" --dump-dom "file://$work/$t.html" > "$work/$t.dom" 2> "$work/$t.log"
	python3 - "$work/$t.dom" "$work/$t.jsonl" "$t" <<'PY' || { fail=1; tail -3 "$work/$t.log"; }
import json, sys
from html.parser import HTMLParser
dom, jsonl, name = sys.argv[1:4]
findings = [o for o in (json.loads(l) for l in open(jsonl)) if o["type"] == "finding"]
class Dom(HTMLParser):
    def __init__(self):
        super().__init__()
        self.rows, self.ids, self.hrefs, self.lanes, self.labels, self.table, self.cell = [], set(), [], 0, [], None, None
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a: self.ids.add(a["id"])
        if tag == "table": self.table = a.get("id")
        if tag == "tr" and self.table == "findings" and "data-code" in a: self.rows.append([a["data-code"]])
        if tag == "a" and self.table == "findings": self.hrefs.append(a.get("href"))
        if tag == "g" and a.get("class") == "lane": self.lanes += 1
        if tag == "text" and "lbl" in (a.get("class") or "").split(): self.labels.append(a.get("data-code"))
dom_text = open(dom).read()
assert "</html>" in dom_text, "%s: no DOM dumped" % name
p = Dom(); p.feed(dom_text)
assert [r[0] for r in p.rows] == [o["code"] for o in findings], "%s: table rows %s, findings %s" % (
    name, [r[0] for r in p.rows][:5], [o["code"] for o in findings][:5])
assert p.hrefs == ["#explain-" + o["code"] for o in findings], name
for h in p.hrefs:
    assert h[1:] in p.ids, "%s: %s leads nowhere" % (name, h)
assert p.lanes >= 2 and p.labels, "%s: %d lanes, %d labels in the browser's DOM" % (name, p.lanes, len(p.labels))
print("ok: %s: %d findings rows in the browser's DOM, %d lanes, %d labels" % (name, len(p.rows), p.lanes, len(p.labels)))
PY
done
exit $fail
