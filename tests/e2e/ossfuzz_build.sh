#!/bin/sh
# SPDX-License-Identifier: MIT
# .clusterfuzzlite/build.sh as OSS-Fuzz and ClusterFuzzLite run it for libFuzzer with ASan and
# UBSan (CC=clang, their CFLAGS and LIB_FUZZING_ENGINE, OUT, SRC with the project at
# $SRC/tracefsck, WORK), then every fuzzer it produced, as their runner would: from $OUT, with
# its .options, on its unzipped seed corpus, through every seed and 300 mutations. Checks: one
# fuzzer per corpus/MANIFEST harness with its dictionary, options and seed corpus (exactly the
# MANIFEST folders' files), no shared library the runner image lacks, and no finding.
# Needs clang with libFuzzer (Debian: clang, libclang-rt-14-dev); skipped (77) without.
# usage: ossfuzz_build.sh SOURCE_DIR WORK_DIR
set -u
src=$(cd "$1" && pwd) work=$2
rm -rf "$work" && mkdir -p "$work/out" "$work/src" "$work/work" "$work/run" && work=$(cd "$work" && pwd) || exit 1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
py=$(python3 -c 'import sys; print(sys.executable)') || { echo "FAIL: no python3"; exit 1; }
command -v clang > /dev/null && command -v clang++ > /dev/null || { echo "clang not installed: skipped"; exit 77; }
echo 'int LLVMFuzzerTestOneInput(const char *d, long n) { (void)d; (void)n; return 0; }' > "$work/probe.c"
clang -fsanitize=fuzzer,address "$work/probe.c" -o "$work/probe" 2> "$work/probe.log" ||
	{ echo "clang cannot link libFuzzer here (Debian: libclang-rt-14-dev): skipped"; cat "$work/probe.log"; exit 77; }

# The recipe around build.sh: the image copies the project to $SRC/tracefsck and build.sh to
# $SRC, project.yaml says C, and the example workflow fuzzes pull requests in code-change mode
# and runs batch fuzzing on a schedule, for the same language.
"$py" - "$src" <<'PY' && ok "the .clusterfuzzlite recipe and examples/clusterfuzzlite.yml agree" || fail=1
import os, re, sys, yaml
src = sys.argv[1]
cf = os.path.join(src, ".clusterfuzzlite")
docker = open(os.path.join(cf, "Dockerfile")).read()
assert re.search(r"^FROM gcr\.io/oss-fuzz-base/base-builder", docker, re.M), "not FROM base-builder"
assert re.search(r"^COPY \. \$SRC/tracefsck$", docker, re.M), "the project is not copied to $SRC/tracefsck"
assert re.search(r"^COPY \.clusterfuzzlite/build\.sh \$SRC/$", docker, re.M), "build.sh is not copied to $SRC"
assert os.access(os.path.join(cf, "build.sh"), os.X_OK), "build.sh is not executable"
assert open(os.path.join(cf, "build.sh")).readline().startswith("#!/bin/bash"), "build.sh is not a bash script"
project = yaml.safe_load(open(os.path.join(cf, "project.yaml")))
assert project["language"] == "c", project
wf = yaml.safe_load(open(os.path.join(src, "examples", "clusterfuzzlite.yml")))
triggers = wf[True] if True in wf else wf["on"]  # YAML 1.1 reads the key on as true
assert "pull_request" in triggers and "schedule" in triggers, triggers
modes = {}
for job in wf["jobs"].values():
    for step in job["steps"]:
        uses = step.get("uses", "")
        if uses.startswith("google/clusterfuzzlite/actions/build_fuzzers@"):
            assert step["with"]["language"] == project["language"], step
        if uses.startswith("google/clusterfuzzlite/actions/run_fuzzers@"):
            modes[step["with"]["mode"]] = job.get("if", "")
assert "pull_request" in modes.get("code-change", "") and "!= 'pull_request'" in modes.get("batch", ""), modes
PY

# The variables as OSS-Fuzz's compile step sets them for libFuzzer + ASan/UBSan.
# The project as the image holds it: a copy at $SRC/tracefsck (what .dockerignore lets through).
mkdir -p "$work/src/tracefsck"
tar -C "$src" --exclude=./.git --exclude=./build --exclude='./build-*' -cf - . | tar -C "$work/src/tracefsck" -xf - || exit 1
flags="-fsanitize=address,undefined -fsanitize=fuzzer-no-link -g -O1"
start=$(date +%s)
(cd "$work/src/tracefsck" && env CC=clang CXX=clang++ CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
	SANITIZER=address FUZZING_ENGINE=libfuzzer ARCHITECTURE=x86_64 OUT="$work/out" SRC="$work/src" WORK="$work/work" \
	TFK_BUILD_JOBS=${TFK_BUILD_JOBS:-1} bash "$work/src/tracefsck/.clusterfuzzlite/build.sh") > "$work/build.log" 2>&1 ||
	{ bad "build.sh failed"; tail -40 "$work/build.log"; exit 1; }
ok "build.sh built in $(($(date +%s) - start)) s"

export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:symbolize=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
for h in $(awk '/^[a-z]/ { print $1 }' "$src/corpus/MANIFEST"); do
	f=fuzz_$h
	for x in "$f" "$f.dict" "$f.options" "${f}_seed_corpus.zip"; do
		[ -s "$work/out/$x" ] || bad "$x missing from OUT"
	done
	[ -x "$work/out/$f" ] || { bad "$f is not an executable"; continue; }
	# Static against everything base-runner lacks.
	ldd "$work/out/$f" | grep -E 'libzstd|libz\.so|libtraceevent' && bad "$f needs shared libraries the runner image lacks"
	# The seed corpus is exactly the files of the harness's MANIFEST folders.
	want=0
	for d in $(awk -v h="$h" '$1 == h { for (i = 2; i <= NF; i++) print $i }' "$src/corpus/MANIFEST"); do
		want=$((want + $(find "$src/corpus/$d" -maxdepth 1 -type f ! -name README.md | wc -l)))
	done
	mkdir -p "$work/run/$f/corpus" "$work/run/$f/artifacts"
	got=$("$py" -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); z.extractall(sys.argv[2]); print(len(z.namelist()))' \
		"$work/out/${f}_seed_corpus.zip" "$work/run/$f/corpus") || { bad "${f}_seed_corpus.zip is not a zip"; continue; }
	[ "$got" = "$want" ] && [ "$want" -gt 0 ] && ok "$f: seed corpus of $got files" || bad "$f: seed corpus has $got files, the MANIFEST folders $want"
	# The options as flags, as ClusterFuzz passes them; the run starts in OUT (dict = is relative).
	grep -qx '\[libfuzzer\]' "$work/out/$f.options" || bad "$f.options has no [libfuzzer] section"
	opts=$(awk -F' *= *' '/^\[/ { s = $0; next } s == "[libfuzzer]" && NF == 2 { printf "-%s=%s ", $1, $2 }' "$work/out/$f.options")
	case $opts in *-dict=*) ;; *) bad "$f.options names no dictionary" ;; esac
	# shellcheck disable=SC2086 # opts is a list of flags
	(cd "$work/out" && "./$f" $opts -seed=1 -runs=$((want + 300)) -max_total_time=120 -print_final_stats=1 \
		-artifact_prefix="$work/run/$f/artifacts/" "$work/run/$f/corpus") > "$work/run/$f.log" 2>&1
	rc=$?
	units=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/run/$f.log")
	found=$(ls "$work/run/$f/artifacts")
	grep -q 'ParseDictionaryFile' "$work/run/$f.log" && bad "$f: libFuzzer rejected the dictionary"
	if [ "$rc" = 0 ] && [ -z "$found" ] && [ "${units:-0}" -gt "$want" ]; then
		ok "$f: $units inputs (the $want seeds, then mutations with its dictionary), nothing found"
	else
		bad "$f: exit $rc, ${units:-no} inputs run, findings: ${found:-none}"
		tail -40 "$work/run/$f.log"
	fi
done
[ "$(ls "$work/out" | grep -c '^fuzz_[a-z0-9]*$')" = "$(grep -c '^[a-z]' "$src/corpus/MANIFEST")" ] || bad "OUT holds other fuzzers: $(ls "$work/out")"
[ $fail = 0 ] && echo "ok: the OSS-Fuzz build gives every harness with its corpus, dictionary and options, and each runs clean"
exit $fail
