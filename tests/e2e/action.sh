#!/bin/sh
# SPDX-License-Identifier: MIT
# The GitHub Action end to end: action.yml's steps run the way a runner runs them
# (run_action.py: inputs through the step env, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH,
# bash -eo pipefail in the workspace) over a workspace of fixture traces (tdw-make), and the
# annotations, step summary, outputs, SARIF and repaired copies are checked. With --build the
# install step builds tracefsck from the source tree instead of taking the one given.
# usage: action.sh TRACEFSCK TDW_MAKE SOURCE_DIR WORK_DIR [--build]
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") make=$2 src=$(cd "$3" && pwd) work=$4 mode=${5:-}
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
# The interpreter itself, once (a version manager's shim can cost a second a call).
py=$(python3 -c 'import sys; print(sys.executable)') || { echo "FAIL: no python3"; exit 1; }
"$py" -c 'import yaml' 2>/dev/null || { echo "FAIL: python3 cannot import yaml (Debian: python3-yaml; scripts/install-deps.sh installs it)"; exit 1; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# The workspace: clean, damaged, warning-only, not-a-trace and perf.data files; names with a
# space and a '|'; a damaged copy under traces/skip/ that a ! glob leaves out; a text file.
ws=$work/ws
mkdir -p "$ws/traces/sub/deep" "$ws/traces/skip" "$ws/notes"
"$make" clean "$ws/traces/clean.dat" && "$make" damaged "$ws/traces/damaged.dat" && "$make" warning "$ws/traces/warning.dat" &&
	"$make" perf-le "$ws/traces/sub/deep/perf.data" || exit 1
cp "$ws/traces/damaged.dat" "$ws/traces/odd name.dat"
cp "$ws/traces/warning.dat" "$ws/traces/pipe|name.dat"
cp "$ws/traces/damaged.dat" "$ws/traces/skip/damaged.dat"
head -c 3000 /dev/zero | tr '\0' 'x' > "$ws/traces/junk.dat"
echo "not a trace" > "$ws/notes/readme.txt"
printf '# the gate for this repository\ndisable tracedat.page.*\ndisable tracedat.cpu.*\ndisable tracedat.file.*\n' > "$ws/gate.policy"

# run NAME INPUT=VALUE...: the action with these inputs; its record in $work/NAME/result.json.
run() {
	name=$1; shift
	if [ "$mode" = --build ]; then set -- "$@"; else set -- "tracefsck=$bin" "$@"; fi
	"$py" "$src/tests/e2e/run_action.py" "$src" "$ws" "$work/$name" "$@" > "$work/$name.log" 2>&1 ||
		{ bad "$name: the runner emulation failed"; cat "$work/$name.log"; return 1; }
}
# field NAME EXPR: a value from the record (python expression over r = the result object).
field() { "$py" -c 'import json,sys; r = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$work/$1/result.json" "$2"; }
expect() { # expect NAME EXPR WANT [WHAT]
	got=$(field "$1" "$2")
	if [ "$got" = "$3" ]; then ok "$1: ${4:-$2} = $3"; else bad "$1: ${4:-$2} is '$got', expected '$3'"; fi
}
has() { # has NAME FILE PATTERN WHAT: grep -F in the step's stdout (check.stdout) or summary (check.md)
	if grep -qF -- "$3" "$work/$1/$2"; then ok "$1: $4"; else bad "$1: $4: no '$3' in $2"; sed 's/^/    /' "$work/$1/$2"; fi
}
hasnt() {
	if grep -qF -- "$3" "$work/$1/$2"; then bad "$1: $4: '$3' in $2"; else ok "$1: $4"; fi
}

# The example workflow uses the action with inputs it declares and outputs it sets, and
# uploads the SARIF it names.
"$py" - "$src/action.yml" "$src/examples/github-workflow.yml" <<'PY' && ok "examples/github-workflow.yml matches action.yml" || fail=1
import re, sys, yaml
action, wf = (yaml.safe_load(open(p)) for p in sys.argv[1:3])
steps = [s for job in wf["jobs"].values() for s in job["steps"]]
mine = [s for s in steps if re.search(r"(^\./$|/tracefsck@)", s.get("uses", ""))]
assert len(mine) == 1, "the workflow should use the action once"
step = mine[0]
unknown = set(step["with"]) - set(action["inputs"])
assert not unknown, "inputs the action does not declare: %s" % unknown
missing = [k for k, v in action["inputs"].items() if v.get("required") and k not in step["with"]]
assert not missing, "required inputs missing: %s" % missing
used = set(re.findall(r"steps\.%s\.outputs\.([-a-z]+)" % step["id"], open(sys.argv[2]).read()))
assert used and used <= set(action["outputs"]), "outputs the action does not set: %s" % (used - set(action["outputs"]))
sarif = [s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
assert sarif and "steps.%s.outputs.sarif" % step["id"] in sarif[0]["with"]["sarif_file"], "upload-sarif of the action's SARIF"
assert "always()" in sarif[0].get("if", ""), "upload-sarif must run when the check fails"
PY

# 1. Everything: globs over directories, an exclusion, SARIF, repair.
paths='traces/**/*.dat
traces/**/perf.data   !traces/skip/**'
if [ "$mode" = --build ]; then export CMAKE_BUILD_PARALLEL_LEVEL=1; fi
run all "paths=$paths" sarif=results/tracefsck.sarif repair=true || exit 1
expect all 'r["failed"]' True "the step fails (corrupt files)"
expect all 'r["outputs"]["files-checked"]' 7
expect all 'r["outputs"]["clean"]' 4
expect all 'r["outputs"]["corrupt"]' 2
expect all 'r["outputs"]["incomplete"]' 1
expect all 'r["outputs"]["failed"]' 0
expect all 'r["outputs"]["exit-code"]' 12
expect all 'r["outputs"]["repaired"]' 2
expect all 'r["outputs"]["sarif"]' results/tracefsck.sarif
if [ "$mode" = --build ]; then
	expect all 'r["outputs"]["tracefsck"]' "$work/all/runner_temp/tracefsck-build/tracefsck" "the tracefsck built"
	grep -qx "$work/all/runner_temp/tracefsck-build" "$work/all/github_path" && ok "all: the build is added to GITHUB_PATH" ||
		bad "all: GITHUB_PATH lacks the build folder"
fi
# annotations: check --github's workflow commands, file= relative to the workspace
has all check.stdout '::error file=traces/damaged.dat,title=tracedat.page.bad-commit::at 0x3008 [cpu0 page 2] ring page commit field is invalid' "error annotation at the bad commit word"
has all check.stdout '::error file=traces/damaged.dat,title=tracedat.cpu.count-mismatch::at 0x7b5 [option CPUCOUNT]' "error annotation at the CPU count"
has all check.stdout '::error file=traces/odd name.dat,title=tracedat.file.truncated::' "a name with a space annotated"
has all check.stdout '::warning file=traces/pipe|name.dat,title=tracedat.option.unknown::' "warning annotation"
has all check.stdout '::error file=traces/junk.dat,title=core.input.unrecognised::' "not-a-trace annotated"
has all check.stdout '::error title=tracefsck::7 trace units checked: 4 clean, 2 corrupt, 1 incomplete' "the failing step says why"
hasnt all check.stdout 'file=traces/clean.dat' "no annotation on a clean file"
hasnt all check.stdout 'traces/skip/' "the ! glob left traces/skip/ out"
hasnt all check.stdout 'readme.txt' "files the globs do not match are not checked"
[ "$(grep -c '^::error file=traces/damaged.dat,' "$work/all/check.stdout")" = 4 ] && ok "all: four error annotations on damaged.dat" ||
	bad "all: $(grep -c '^::error file=traces/damaged.dat,' "$work/all/check.stdout") error annotations on damaged.dat, expected 4"
# the step summary: totals, a table of every file, then tracefsck's own section per file with findings
has all check.md '## tracefsck: 7 trace units checked: 4 clean, 2 corrupt, 1 incomplete' "summary headline"
has all check.md '| `traces/damaged.dat` | corrupt | 4 | 0 | 0 | trace.dat v6 | 600 |' "summary row of the damaged trace"
has all check.md '| `traces/clean.dat` | clean | 0 | 0 | 0 | trace.dat v6 | 720 |' "summary row of the clean trace"
has all check.md '| `traces/sub/deep/perf.data` | clean | 0 | 0 | 0 | perf.data | 12 |' "summary row of perf.data"
has all check.md '| `traces/junk.dat` | incomplete | 1 | 0 | 0 | - | 0 |' "summary row of the file that is no trace"
has all check.md '| `traces/pipe_name.dat` | clean | 0 | 1 | 0 | trace.dat v6 | 720 |' "a '|' in a name cannot break the table"
has all check.md '### tracefsck: `traces/damaged.dat` is corrupt' "tracefsck's section for the damaged trace"
has all check.md '| error | tracedat.page.bad-commit | 0x3008 | cpu0 page 2 | a length of at most 4080 | 134217727 (commit 0xc7ffffff) |' "finding row"
hasnt all check.md '`traces/clean.dat` is clean' "no section for a clean file"
has all check.md '| `traces/damaged.dat` | repaired | `tracefsck-repaired/traces/damaged.dat` | events kept ' "repair table"
# the salvage account by kind in the repair table: the damaged trace's units and its metadata
has all check.md 'metadata sections (' "repair table: the salvage account"
awk -F'|' '/^\| `/ && NF != 9 && NF != 6 { print; bad = 1 } END { exit bad }' "$work/all/check.md" && ok "all: every table row has its columns" ||
	bad "all: a summary row has the wrong number of columns"
# repaired copies: next to nothing, under repair-dir at their own paths, and clean
for f in damaged.dat "odd name.dat"; do
	if [ -f "$ws/tracefsck-repaired/traces/$f" ] && "$bin" check -q "$ws/tracefsck-repaired/traces/$f" > /dev/null; then
		ok "all: repaired copy of $f re-checks clean"
	else bad "all: no clean repaired copy of $f"; fi
done
cmp -s "$ws/traces/damaged.dat" "$ws/traces/skip/damaged.dat" && ok "all: the original was left as it was" || bad "all: repair changed an original"
# SARIF: one valid document, every file, the expected rules and results, relative URIs
"$py" -m json.tool "$ws/results/tracefsck.sarif" > /dev/null && ok "all: SARIF is valid JSON" || bad "all: SARIF is not JSON"
"$py" - "$ws/results/tracefsck.sarif" <<'PY' && ok "all: SARIF results, rules and locations" || fail=1
import json, sys
doc = json.load(open(sys.argv[1]))
assert doc["version"] == "2.1.0", doc["version"]
run = doc["runs"][0]
rules = [r["id"] for r in run["tool"]["driver"]["rules"]]
uris = sorted(a["location"]["uri"] for a in run["artifacts"])
want = sorted(["traces/clean.dat", "traces/damaged.dat", "traces/junk.dat", "traces/odd%20name.dat", "traces/pipe%7Cname.dat",
               "traces/sub/deep/perf.data", "traces/warning.dat"])
if uris != want and sorted(u.replace("%20", " ").replace("%7C", "|") for u in uris) != sorted(w.replace("%20", " ").replace("%7C", "|") for w in want):
    sys.exit("FAIL: SARIF artifacts %s" % uris)
got = sorted((r["ruleId"], r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]) for r in run["results"])
by_file = {}
for rule, uri in got:
    by_file.setdefault(uri.replace("%20", " ").replace("%7C", "|"), []).append(rule)
damaged = ["tracedat.cpu.count-mismatch", "tracedat.file.truncated", "tracedat.page.bad-commit", "tracedat.page.bad-event"]
checks = {
    "traces/damaged.dat": damaged, "traces/odd name.dat": damaged, "traces/junk.dat": ["core.input.unrecognised"],
    "traces/warning.dat": ["tracedat.option.unknown"], "traces/pipe|name.dat": ["tracedat.option.unknown"],
}
for f, rules_want in checks.items():
    if sorted(by_file.get(f, [])) != rules_want:
        sys.exit("FAIL: SARIF results for %s: %s, expected %s" % (f, sorted(by_file.get(f, [])), rules_want))
extra = set(by_file) - set(checks)
if extra:
    sys.exit("FAIL: SARIF results for files without findings: %s" % sorted(extra))
for r in run["results"]:
    assert rules[r["ruleIndex"]] == r["ruleId"], r
bc = [r for r in run["results"] if r["ruleId"] == "tracedat.page.bad-commit"][0]
assert bc["level"] == "error" and bc["locations"][0]["physicalLocation"]["region"]["byteOffset"] == 0x3008, bc
PY

[ "$mode" = --build ] && { [ $fail = 0 ] && echo "ok: the action built tracefsck and checked the workspace"; exit $fail; }

# 1b. A folder of uploads of every format, pristine and damaged (a uftrace directory that lost its
# task data, a CTF session that lost its metadata), and the same folder as an archive: one entry
# per trace unit, members never checked alone, the damage annotated.
samples=$src/../shared/samples
if [ -d "$samples" ]; then
	u=$ws/uploads/a/b
	mkdir -p "$u" && cp "$ws/traces/damaged.dat" "$ws/traces/clean.dat" "$ws/traces/sub/deep/perf.data" "$u/" &&
		cp -r "$samples/uftrace/fib-args.uftrace.data" "$samples/ctf/tracef-2000.lttng" "$u/" &&
		cp -r "$samples/uftrace/fib-args.uftrace.data" "$u/lost-task.uftrace.data" &&
		cp -r "$samples/ctf/tracef-2000.lttng" "$u/lost-metadata.lttng" || exit 1
	rm "$u/lost-task.uftrace.data/18985.dat"
	find "$u/lost-metadata.lttng" -name metadata -delete
	(cd "$ws" && tar czf uploads.tgz uploads) || exit 1
	run folder 'paths=uploads uploads.tgz uploads/**/*.dat' sarif=folder.sarif || exit 1
	# 7 units in the folder; the archive's own report and its 7: 15, of which 6 corrupt
	expect folder '(r["failed"], r["outputs"]["files-checked"], r["outputs"]["clean"], r["outputs"]["corrupt"], r["outputs"]["incomplete"])' \
		"(True, '15', '9', '6', '0')" "every unit judged"
	for x in uploads/a/b/fib-args.uftrace.data uploads/a/b/tracef-2000.lttng uploads.tgz/uploads/a/b/tracef-2000.lttng; do
		has folder check.md "| \`$x\` | clean |" "a summary row for $x"
	done
	has folder check.md '| `uploads/a/b/lost-task.uftrace.data` | corrupt | 1 |' "the uftrace directory that lost its task data fails"
	has folder check.md '| `uploads/a/b/lost-metadata.lttng` | corrupt | 1 |' "the session that lost its metadata fails"
	has folder check.stdout 'title=core.input.member-missing::' "the missing task data is annotated"
	has folder check.stdout 'title=ctf.metadata.missing::' "the missing metadata is annotated"
	hasnt folder check.md '18985.dat` |' "a member is never a unit of its own"
	"$py" - "$ws/folder.sarif" <<'PY' && ok "folder: SARIF names each artifact once" || fail=1
import json, sys
uris = [a["location"]["uri"] for a in json.load(open(sys.argv[1]))["runs"][0]["artifacts"]]
assert len(uris) == len(set(uris)), uris
PY
fi

# 2. fail-on none: the same report, and the step passes.
run report "paths=$paths" fail-on=none
expect report 'r["failed"]' False "fail-on none: the step passes"
expect report 'r["outputs"]["corrupt"]' 2
has report check.stdout '::error file=traces/damaged.dat,title=tracedat.page.bad-commit::' "fail-on none still annotates"
expect report 'r["outputs"]["sarif"]' "" "no SARIF asked for"
[ -d "$ws/results" ] && [ "$(ls "$ws/results")" = tracefsck.sarif ] && ok "report: no SARIF written" || bad "report: unexpected files in results/"

# 3. fail-on warning over warning-only files: failed, and the step fails.
run warn 'paths=traces/warning.dat traces/pipe*.dat' fail-on=warning
expect warn 'r["failed"]' True "fail-on warning: a warning fails the step"
expect warn '(r["outputs"]["failed"], r["outputs"]["clean"], r["outputs"]["exit-code"])' "('2', '0', '4')"
has warn check.md '### tracefsck: `traces/warning.dat` is failed' "tracefsck's section says failed"
run warn_ok 'paths=traces/warning.dat'
expect warn_ok '(r["failed"], r["outputs"]["clean"])' "(False, '1')" "warnings alone pass the default gate"

# 4. A policy file that disables the damage: the damaged trace passes the gate.
run policy paths=traces/damaged.dat policy=gate.policy
expect policy '(r["failed"], r["outputs"]["clean"], r["outputs"]["corrupt"])' "(False, '1', '0')" "policy disables the damage"
hasnt policy check.stdout '::error file=' "no annotation for disabled codes"
run policy_missing paths=traces/damaged.dat policy=no-such.policy
expect policy_missing 'r["failed"]' True "a missing policy file fails the step"
has policy_missing check.stdout "::error title=tracefsck::policy file 'no-such.policy' not found" "and says so"

# 5. Nothing matched; bad inputs.
run none 'paths=nothing/*.dat'
expect none 'r["failed"]' True "no file matched fails by default"
has none check.stdout '::error title=tracefsck::paths matched no trace file' "and says so"
run none_warn 'paths=nothing/*.dat' if-no-files-found=warn
expect none_warn '(r["failed"], r["outputs"]["files-checked"])' "(False, '0')" "if-no-files-found warn: passes, nothing checked"
has none_warn check.stdout '::warning title=tracefsck::paths: nothing/*.dat matched no trace file' "the glob that matched nothing is named"
run badgate paths=traces/clean.dat fail-on=sometimes
expect badgate 'r["failed"]' True "fail-on sometimes is refused"
has badgate check.stdout '::error title=tracefsck::fail-on must be error, warning or none' "and explained"
run clean paths=traces/clean.dat
expect clean '(r["failed"], r["outputs"]["files-checked"], r["outputs"]["clean"], r["outputs"]["exit-code"])' "(False, '1', '1', '0')" "a clean trace passes"
[ -s "$work/clean/check.stdout" ] && ! grep -q '^::' "$work/clean/check.stdout" && ok "clean: no workflow command for a clean file" ||
	bad "clean: unexpected output: $(cat "$work/clean/check.stdout")"
run badbin paths=traces/clean.dat tracefsck=/nonexistent/tracefsck
expect badbin '(r["failed"], len(r["steps"]))' "(True, 1)" "a tracefsck input that does not exist stops the install step"

# A name that would start a workflow command if printed raw never does: outside the regions
# where commands are stopped (::stop-commands::TOKEN ... ::TOKEN::), no line starts with it.
cp "$ws/traces/damaged.dat" "$ws/::error::injected.dat"
run inject 'paths=::error::injected.dat' repair=true
awk 'tok == "" && /^::stop-commands::/ { tok = substr($0, 18); next } tok != "" { if ($0 == "::" tok "::") tok = ""; next }
	/^[ \t]*::error::injected/ { print; bad = 1 } END { exit bad }' "$work/inject/check.stdout" &&
	ok "inject: file names cannot start workflow commands" || bad "inject: a file name started a workflow command"
has inject check.stdout '::error file=%3A%3Aerror%3A%3Ainjected.dat,title=tracedat.page.bad-commit::' "the name is escaped in annotations"
expect inject 'r["outputs"]["repaired"]' 1 "and its repair ran"
rm -f "$ws/::error::injected.dat"
[ $fail = 0 ] && echo "ok: the action's annotations, summary, outputs, SARIF and repairs are as expected"
exit $fail
