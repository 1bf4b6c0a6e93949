#!/bin/sh
# SPDX-License-Identifier: MIT
# The picture of a damaged trace rendered by a real browser: headless Chromium takes a
# screenshot of describe --svg and of describe --html, and each must be a PNG of the window's
# size showing the picture (the colours of valid, dropped and metadata bytes among its pixels),
# not a blank or error page. Without /usr/bin/chromium (Debian: chromium) it exits 77.
# usage: picture_render.sh TRACEFSCK SOURCE_DIR WORK_DIR
set -u
bin=$1 src=$2 work=$3
browser=${TFK_CHROMIUM:-/usr/bin/chromium}
[ -x "$browser" ] || { echo "no $browser: skipped"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
"$bin" describe --svg "$src/examples/damaged.v6.dat" > "$work/damaged.svg"
"$bin" describe --html "$src/examples/damaged.v6.dat" > "$work/damaged.html"
for page in damaged.svg damaged.html; do
	timeout -k 5 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--user-data-dir="$work/profile-$page" --window-size=1100,400 --screenshot="$work/$page.png" \
		"file://$work/$page" > "$work/$page.log" 2>&1
	python3 - "$work/$page.png" <<'PY' || { fail=1; tail -3 "$work/$page.log"; }
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
pos, idat, w = 8, b"", 0
while pos < len(data):
    n, kind = struct.unpack(">I4s", data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b"IHDR":
        w, h, depth, ctype = struct.unpack(">IIBB", body[:10])
    elif kind == b"IDAT":
        idat += body
    pos += 12 + n
assert (w, h) == (1100, 400) and depth == 8 and ctype in (2, 6), (w, h, depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride, prev, colours = zlib.decompress(idat), w * bpp, bytearray(w * bpp), set()
for y in range(h):
    f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], prev[i - bpp] if i >= bpp else 0
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = line
    for x in range(0, w, 2):
        colours.add(bytes(line[x * bpp:x * bpp + 3]))
# valid (#4caf50), dropped (#d32f2f) and metadata (#1e88e5) bytes as the SVG's style gives them
for name, rgb in (("valid", b"\x4c\xaf\x50"), ("dropped", b"\xd3\x2f\x2f"), ("metadata", b"\x1e\x88\xe5")):
    assert rgb in colours, "no %s pixel: the picture is not drawn (%d colours)" % (name, len(colours))
print("ok: %s: %dx%d, %d colours, valid, dropped and metadata bytes drawn" % (sys.argv[1], w, h, len(colours)))
PY
done
exit $fail
