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
rm -f "$work/result.sarif"
DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 "$tool" validate "$work/run.sarif" -o "$work/result.sarif" > "$work/validate.log" 2>&1 || {
	echo "FAIL: validator did not run"; cat "$work/validate.log"; exit 1; }
python3 - "$work/result.sarif" "$work/run.sarif" <<'PY'
import json, sys
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
sys.exit(1 if errors else 0)
PY
