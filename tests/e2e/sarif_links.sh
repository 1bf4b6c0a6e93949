#!/bin/sh
# SPDX-License-Identifier: MIT
# What points at the documentation, and what the build says of itself: docs/faults.md is what
# `tracefsck problems --markdown` prints (one anchor per code); SARIF rules link there by
# default (helpUri BASE#CODE, an https page, not a file:// path); a file named twice is one
# SARIF artifact that every result indexes; --version names libtraceevent, the codecs and every
# format of the build, and tracefsck(1) describes every one of those formats.
# usage: sarif_links.sh TRACEFSCK TDW_MAKE SOURCE_DIR WORK_DIR
set -u
bin=$1 make=$2 src=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
command -v python3 > /dev/null || { echo "SKIP: python3 is not installed"; exit 77; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

"$bin" problems --markdown > "$work/faults.md" || bad "problems --markdown failed"
if cmp -s "$work/faults.md" "$src/docs/faults.md"; then
	ok "docs/faults.md is the catalog's"
else
	bad "docs/faults.md differs from the catalog: run 'tracefsck problems --markdown > docs/faults.md'"
	diff "$src/docs/faults.md" "$work/faults.md" | head -20
fi

"$make" clean "$work/clean.dat" && "$make" damaged "$work/damaged.dat" || exit 1
(cd "$work" && "$bin" check --sarif clean.dat damaged.dat clean.dat damaged.dat > "$work/twice.sarif")
(cd "$work" && TRACEFSCK_HELP_URI=https://example.org/catalog "$bin" check --sarif damaged.dat > "$work/env.sarif")
"$bin" problems --json > "$work/catalog.jsonl"
python3 - "$work" "$src/docs/faults.md" <<'PY' || fail=1
import json, sys
work, page = sys.argv[1], open(sys.argv[2]).read()
codes = [json.loads(l)["code"] for l in open(work + "/catalog.jsonl")]
missing = [c for c in codes if '<a id="%s"></a>' % c not in page]
assert not missing, "no anchor in docs/faults.md for %s" % missing[:5]
print("ok: docs/faults.md has an anchor for each of the %d codes" % len(codes))
run = json.load(open(work + "/twice.sarif"))["runs"][0]
base = "https://github.com/tracefsck/tracefsck/blob/main/docs/faults.md#"
rules = run["tool"]["driver"]["rules"]
bad = [r["helpUri"] for r in rules if r["helpUri"] != base + r["id"]]
assert not bad, "helpUri not %sCODE: %s" % (base, bad[:3])
print("ok: every rule's helpUri is %sCODE" % base)
uris = [a["location"]["uri"] for a in run["artifacts"]]
assert uris == ["clean.dat", "damaged.dat"], uris
print("ok: two files named twice are two artifacts")
results = run["results"]
assert results, "no results"
for r in results:
    loc = r["locations"][0]["physicalLocation"]["artifactLocation"]
    assert uris[loc["index"]] == loc["uri"], (loc, uris)
print("ok: each of the %d results indexes its own artifact" % len(results))
env = json.load(open(work + "/env.sarif"))["runs"][0]["tool"]["driver"]["rules"]
assert all(r["helpUri"] == "https://example.org/catalog#" + r["id"] for r in env)
print("ok: TRACEFSCK_HELP_URI sets another base")
PY

"$bin" --version > "$work/version.txt" || bad "--version failed"
head -n 1 "$work/version.txt" | grep -qx 'tracefsck [0-9][0-9.]*' && ok "--version: $(head -n 1 "$work/version.txt")" ||
	bad "--version's first line: $(head -n 1 "$work/version.txt")"
tep=$(pkg-config --modversion libtraceevent 2>/dev/null)
if [ -n "$tep" ]; then
	grep -q "^libtraceevent $tep " "$work/version.txt" && ok "--version names libtraceevent $tep" || bad "--version does not name libtraceevent $tep"
fi
grep -q '^codecs: zstd [0-9.]*, zlib [0-9.]*, xz (liblzma) [0-9.]*$' "$work/version.txt" && ok "--version names the codecs" ||
	bad "--version does not name the codecs"
# the man page's DESCRIPTION, escapes undone, on one line
desc=$(awk '/^\.SH DESCRIPTION/ { on = 1; next } /^\.SH / { on = 0 } on' "$src/docs/tracefsck.1" | sed -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' -e 's/^\.[A-Z]* //' | tr '\n' ' ')
n=0
for f in "trace.dat" "perf.data" "uftrace data" "CTF 1.8 (LTTng 2.x)" "LTTng 0.x"; do
	grep -q "^formats:.* $f\(,\|$\)" "$work/version.txt" || bad "--version does not name the format '$f'"
	n=$((n + 1))
done
want=$(sed -n 's/^formats: //p' "$work/version.txt" | tr ',' '\n' | wc -l)
[ "$want" = 5 ] && ok "--version names 5 formats" || bad "--version names $want formats: $(grep '^formats' "$work/version.txt")"
for f in "trace.dat" "perf.data" "uftrace data" "CTF 1.8" "LTTng 2.x" "LTTng 0.x"; do
	case $desc in *"$f"*) ok "tracefsck(1) describes $f" ;; *) bad "tracefsck(1)'s DESCRIPTION does not name $f" ;; esac
done
exit $fail
