#!/bin/sh
# SPDX-License-Identifier: MIT
# Every JSON Lines object tracefsck prints validates against docs/tracefsck-jsonl.schema.json:
# check --json of every format's samples, of damaged inputs and of a missing file, repair --json
# of a damaged trace.dat, perf.data, uftrace and CTF directory, describe --json. Every kind of
# object the schema describes must be among them, and an object with a required key removed
# must fail, so that the schema is neither stale nor vacuous.
# Needs python3 with the jsonschema module (Debian: python3-jsonschema); exits 77 without it.
# usage: jsonl_schema.sh TRACEFSCK SOURCE_DIR SHARED_DIR WORK_DIR
set -u
bin=$1 src=$2 shared=$3 work=$4
python3 -c 'import jsonschema' 2>/dev/null || { echo "python3 jsonschema module missing"; exit 77; }
rm -rf "$work" && mkdir -p "$work" || exit 1
out=$work/all.jsonl
: > "$out"
for f in "$src"/examples/damaged.v6.dat "$shared"/samples/tracedat/*.dat "$shared"/samples/perf/*.data \
	"$shared"/samples/uftrace/*.uftrace.data "$shared"/samples/ctf/*.lttng "$work/missing.dat"; do
	"$bin" check --json "$f" >> "$out"
done
"$bin" describe --json "$src/examples/damaged.v6.dat" >> "$out"
"$bin" scrub --json "$src/examples/damaged.v6.dat" -o "$work/scrubbed.dat" >> "$out" # refused: its findings, then the report
for p in "$shared"/samples/perf/cpu-clock-callchain.perf.data "$shared"/samples/ctf/tracef-2000.lttng; do
	[ -e "$p" ] && "$bin" scrub --json "$p" -o "$work/scrubbed.$(basename "$p")" >> "$out"
done
"$bin" repair --json "$src/examples/damaged.v6.dat" -o "$work/repaired.dat" >> "$out"
p=$(ls "$shared"/samples/perf/*.data | head -n 1)
if [ -n "$p" ]; then
	head -c $(($(wc -c < "$p") - 100)) "$p" > "$work/cut.perf.data"
	"$bin" repair --json "$work/cut.perf.data" -o "$work/cut.out.perf.data" >> "$out"
fi
for d in "$shared"/samples/uftrace/*.uftrace.data "$shared"/samples/ctf/*.lttng; do
	[ -d "$d" ] || continue
	c="$work/$(basename "$d")"
	cp -R "$d" "$c" && chmod -R u+w "$c"
	f=$(find "$c" -type f \( -name '[0-9]*.dat' -o -name 'channel*_[0-9]*' \) ! -name '*.idx' | sort | head -n 1)
	truncate -s -9 "$f"
	"$bin" repair --json "$c" -o "$c.out" >> "$out"
done
python3 - "$src/docs/tracefsck-jsonl.schema.json" "$out" <<'PY'
import json, sys, copy
import jsonschema
schema = json.load(open(sys.argv[1]))
cls = jsonschema.validators.validator_for(schema)
cls.check_schema(schema)
v = cls(schema)
seen, bad = {}, 0
for n, line in enumerate(open(sys.argv[2]), 1):
    obj = json.loads(line)
    kind = obj["type"] if obj["type"] in ("finding", "summary", "salvage_member", "salvage_cpu", "salvage_part", "salvage", "scrub") else "structure"
    seen[kind] = seen.get(kind, 0) + 1
    errs = list(v.iter_errors(obj))
    if errs:
        bad += 1
        print("FAIL: line %d (%s): %s" % (n, obj.get("type"), errs[0].message))
        if bad > 10:
            break
want = ["finding", "summary", "salvage_member", "salvage_cpu", "salvage_part", "salvage", "structure", "scrub"]
missing = [k for k in want if k not in seen]
if missing:
    print("FAIL: no object of kind", missing, "was printed: the test does not cover the schema")
    bad += 1
# Not vacuous: a finding without its code, a summary without its version, an unknown verdict.
first = {}
for line in open(sys.argv[2]):
    obj = json.loads(line)
    first.setdefault(obj["type"], obj)
for kind, key, value in (("finding", "code", None), ("summary", "schema_version", None), ("summary", "verdict", "fine"),
                         ("scrub", "kinds", None), ("scrub", "outcome", "done")):
    o = copy.deepcopy(first[kind])
    if value is None:
        del o[key]
    else:
        o[key] = value
    if v.is_valid(o):
        print("FAIL: a %s with %s %s still validates" % (kind, key, "removed" if value is None else "= " + value))
        bad += 1
print("ok: %s objects validate" % ", ".join("%d %s" % (seen[k], k) for k in want if k in seen))
sys.exit(1 if bad else 0)
PY
