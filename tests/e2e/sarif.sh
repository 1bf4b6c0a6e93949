#!/bin/sh
# SPDX-License-Identifier: MIT
# --sarif output is valid SARIF 2.1.0 according to Microsoft's validator (npm package
# @microsoft/sarif-multitool, installed into WORK_DIR on first use): no error-level result.
# Skipped (77) when npm is not available.
# usage: sarif.sh TRACEFSCK TDW_MAKE WORK_DIR
set -u
bin=$1 make=$2 work=$3
mkdir -p "$work"
tool="$work/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
if [ ! -x "$tool" ]; then
	command -v npm >/dev/null 2>&1 || { echo "npm not installed: skipped"; exit 77; }
	# The registry can be out of reach: then the validation is skipped, said loudly, not failed.
	(cd "$work" && timeout 300 npm install --no-audit --no-fund @microsoft/sarif-multitool@5.7.0 > npm.log 2>&1) || {
		echo "npm install @microsoft/sarif-multitool failed: skipped"; tail -5 "$work/npm.log"; exit 77; }
fi
"$make" clean "$work/clean.dat" && "$make" damaged "$work/damaged.dat" && "$make" warning "$work/warning.dat" || exit 1
cp "$work/damaged.dat" "$work/odd name, with \"quotes\".dat"
"$bin" check --sarif "$work/clean.dat" "$work/damaged.dat" "$work/warning.dat" "$work/odd name, with \"quotes\".dat" \
	"$work/missing.dat" > "$work/run.sarif"
# The same files named relative to the working directory: %SRCROOT% and relative URIs.
(cd "$work" && "$bin" check --sarif clean.dat damaged.dat > "$work/relative.sarif")
rm -f "$work/result.sarif"
DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$tool" validate "$work/run.sarif" -o "$work/result.sarif" > "$work/validate.log" 2>&1 || {
	echo "FAIL: validator did not run"; cat "$work/validate.log"; exit 1; }
python3 - "$work/result.sarif" "$work/run.sarif" "$work/relative.sarif" "$work" <<'PY'
import json, os, sys
res = json.load(open(sys.argv[1]))
levels = {}
for run in res["runs"]:
    for r in run.get("results", []):
        levels.setdefault(r.get("level", "warning"), []).append(r.get("ruleId"))
errors = levels.get("error", [])
print("validator: %d errors, %d warnings %s" % (len(errors), len(levels.get("warning", [])), sorted(set(levels.get("warning", [])))))
doc = json.load(open(sys.argv[2]))
run = doc["runs"][0]
assert doc["version"] == "2.1.0"
assert doc["runs"][0]["tool"]["driver"]["informationUri"].startswith(("file:///", "https://"))
rules = run["tool"]["driver"]["rules"]
assert len(rules) > 40, len(rules)
results = run["results"]
assert any(r["ruleId"] == "tracedat.page.bad-commit" and
           r["locations"][0]["physicalLocation"]["region"]["byteOffset"] == 0x3008 for r in results)
assert all(rules[r["ruleIndex"]]["id"] == r["ruleId"] for r in results)
assert all("tracefsckFinding/v1" in r["partialFingerprints"] for r in results)
# Every rule links to its entry in the fault manual.
assert all(rule["helpUri"].endswith("#" + rule["id"]) for rule in rules)
# The invocation: the exit status (4 faults | 8 an unreadable input), not successful, and the
# missing file a notification, never a result about its contents.
inv = run["invocations"][0]
assert inv["exitCode"] == 12 and inv["executionSuccessful"] is False, inv
notes = inv["toolExecutionNotifications"]
assert [n["descriptor"]["id"] for n in notes] == ["core.input.io-error"], notes
assert notes[0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].endswith("missing.dat")
assert not any(r["ruleId"] == "core.input.io-error" for r in results)
# Fingerprints hash the offsets as little-endian bytes: the same value on every machine.
def fnv(h, b):
    for x in b:
        h = ((h ^ x) * 0x100000001b3) & 0xffffffffffffffff
    return h
for r in results:
    if r["ruleId"] != "tracedat.page.bad-commit":
        continue
    loc = r["locations"][0]
    h = fnv(0xcbf29ce484222325, r["ruleId"].encode())
    h = fnv(h, loc["physicalLocation"]["region"]["byteOffset"].to_bytes(8, "little"))
    h = fnv(h, r.get("properties", {}).get("decodedOffset", 0).to_bytes(8, "little"))
    h = fnv(h, loc.get("logicalLocations", [{}])[0].get("fullyQualifiedName", "").encode())
    assert r["partialFingerprints"]["tracefsckFinding/v1"] == "%016x" % h, r
    break
else:
    raise AssertionError("no tracedat.page.bad-commit result")
# Run from the files' directory: relative to %SRCROOT%, which names that directory.
rel = json.load(open(sys.argv[3]))["runs"][0]
base = rel["originalUriBaseIds"]["%SRCROOT%"]["uri"]
assert base == "file://" + os.path.realpath(sys.argv[4]) + "/", base
locs = [a["location"] for a in rel["artifacts"]]
assert locs == [{"uri": "clean.dat", "uriBaseId": "%SRCROOT%"}, {"uri": "damaged.dat", "uriBaseId": "%SRCROOT%"}], locs
assert rel["invocations"][0]["exitCode"] == 4 and rel["invocations"][0]["executionSuccessful"] is True
sys.exit(1 if errors else 0)
PY
