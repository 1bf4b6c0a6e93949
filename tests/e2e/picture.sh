#!/bin/sh
# SPDX-License-Identifier: MIT
# describe --svg / --html: the picture of a trace is well-formed XML, marks every finding that
# has an offset where it lies (its x is the offset's place on the byte band; a bucket's mark
# counts the findings in it), has no mark for a clean file, one timeline per CPU walked, rows for
# the members of a damaged trace directory, and stays under 1 MiB for a large file.
# usage: picture.sh TRACEFSCK SOURCE_DIR SHARED_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-}
bin=$1 src=$2 shared=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
check() { # check NAME FILE: the picture of FILE against check --json of FILE
	name=$1 f=$2
	$wrap "$bin" describe --svg "$f" > "$work/$name.svg"
	rc=$?
	if [ "$rc" -ge 8 ] && [ "$rc" != 8 ]; then echo "FAIL: $name: describe --svg exit $rc"; fail=1; return; fi
	"$bin" check --json "$f" > "$work/$name.jsonl"
	python3 - "$work/$name.svg" "$work/$name.jsonl" "$name" <<'PY' || fail=1
import json, os, sys, xml.etree.ElementTree as ET
svg, jsonl, name = sys.argv[1:4]
ns = {"s": "http://www.w3.org/2000/svg"}
root = ET.parse(svg).getroot()
size = os.path.getsize(svg)
assert size < 1 << 20, "%s: %d bytes" % (name, size)
lines = [json.loads(l) for l in open(jsonl)]
summary = [o for o in lines if o["type"] == "summary"][0]
findings = [o for o in lines if o["type"] == "finding" and o["offset"] is not None]
plain = [f for f in findings if f["member"] is None]
band = root.find(".//s:g[@id='band']", ns)
x0, width, total = float(band.get("data-x0")), float(band.get("data-width")), int(band.get("data-total"))
marks = root.findall(".//s:g[@id='marks']/s:path", ns)
assert sum(int(m.get("data-count")) for m in marks) == len(plain), "%s: %d marked, %d findings" % (
    name, sum(int(m.get("data-count")) for m in marks), len(plain))
offsets = {f["offset"] for f in plain}
for m in marks:
    off = int(m.get("data-offset"))
    assert off in offsets, "%s: a mark at %d where no finding is" % (name, off)
    x = float(m.get("d").split()[0][1:])
    want = x0 + width * min(off, total) / total
    assert abs(x - want) < 0.11, "%s: mark of %d at x %.1f, expected %.1f" % (name, off, x, want)
    title = m.find("s:title", ns).text
    assert m.get("data-code") in title, (name, title)
members = root.findall(".//s:g[@class='member']/s:path", ns)
lanes = root.findall(".//s:g[@class='lane']", ns)
# a member's findings are marked in its row, or labelled in its unit's lane (or counted there as more)
in_lanes = sum(int(t.get("data-count")) for ln in lanes if ln.get("data-member") for t in ln.findall("s:text", ns)
               if "lbl" in t.get("class", "").split())
in_lanes += sum(int(t.get("data-more")) for ln in lanes if ln.get("data-member") for t in ln.findall("s:text", ns)
                if "more" in t.get("class", "").split())
assert len(members) + in_lanes >= len(findings) - len(plain), "%s: %d member marks and %d lane labels, %d member findings" % (
    name, len(members), in_lanes, len(findings) - len(plain))
if summary["format"] and summary["format"].startswith("trace.dat"):
    assert len(lanes) == min(summary["cpus"], 32) or summary["cpus"] == 0, "%s: %d timelines, %d CPUs" % (name, len(lanes), summary["cpus"])
    assert sum(int(l.get("data-events")) for l in lanes) >= min(summary["events"], 1), name
if not findings:
    assert not marks and not members, "%s: a file without findings has marks" % name
if summary["verdict"] == "clean":
    assert not root.findall(".//s:path[@class='ferror']", ns), "%s: a clean file with an error mark" % name
print("ok: %s: %d bytes, %d marks for %d findings, %d member marks, %d timelines" % (name, size, len(marks), len(plain), len(members), len(lanes)))
PY
}
check damaged "$src/examples/damaged.v6.dat"
check clean "$src/examples/clean.v6.dat"
for f in "$shared"/samples/tracedat/*.dat "$shared"/samples/tracedat/*.dat.xz; do check "$(basename "$f")" "$f"; done
# A damaged directory of each kind: findings drawn in rows of their member files.
for d in "$shared"/samples/uftrace/*.uftrace.data "$shared"/samples/ctf/*.lttng; do
	[ -d "$d" ] || continue
	c="$work/$(basename "$d")"
	cp -R "$d" "$c" && chmod -R u+w "$c"
	# a task file, or the largest data stream
	f=$(find "$c" -type f -name '[0-9]*.dat' | sort | head -n 1)
	[ -n "$f" ] || f=$(find "$c" -type f ! -name metadata ! -name '*.idx' -size +0 -exec ls -S {} + | head -n 1)
	truncate -s -9 "$f"
	check "$(basename "$d")" "$c"
done
# A large file: the damaged example followed by 64 MiB of zeros (sparse, read through).
cp "$src/examples/damaged.v6.dat" "$work/large.dat" && truncate -s +64M "$work/large.dat"
check large "$work/large.dat"
# HTML: one self-contained page holding the same picture, no resource from elsewhere: its one
# script inline, every link to a place in the page.
"$bin" describe --html "$src/examples/damaged.v6.dat" > "$work/damaged.html"
if grep -q '<svg xmlns' "$work/damaged.html" && ! grep -qiE '<script[^>]*src|src=|href="[^#]|@import|url\(' "$work/damaged.html"; then
	echo "ok: html page self-contained"
else
	echo "FAIL: html page"; fail=1
fi
# repair --svg draws the input as describe --svg does: what repair keeps and drops.
"$bin" repair -q --svg "$work/repair.svg" "$src/examples/damaged.v6.dat" -o "$work/repaired.dat" > /dev/null
"$bin" describe --svg "$src/examples/damaged.v6.dat" > "$work/describe.svg"
if cmp -s "$work/repair.svg" "$work/describe.svg"; then echo "ok: repair --svg is the input's picture"; else echo "FAIL: repair --svg"; fail=1; fi
# One picture is one document: several files are a usage error.
"$bin" describe --svg "$src/examples/damaged.v6.dat" "$src/examples/clean.v6.dat" > /dev/null 2>&1
[ $? = 16 ] && echo "ok: --svg of two files refused" || { echo "FAIL: --svg of two files"; fail=1; }
exit $fail
