#!/bin/sh
# SPDX-License-Identifier: MIT
# The pre-commit hook tracefsck-check, run the way pre-commit runs it (pre-commit itself is not
# needed): the hook's entry, language, files, exclude, types and args are read from
# .pre-commit-hooks.yaml; the staged files of a git repository (what `git diff --staged` names,
# as the index holds them, unstaged changes set aside) are filtered by them and passed after the
# args, from the repository's root. Checks: which files reach tracefsck, the verdicts, the exit
# status, a perf.data directory checked as one, args from a user's config.
# usage: precommit.sh TRACEFSCK TDW_MAKE SOURCE_DIR WORK_DIR
set -u
bin=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") make=$2 src=$(cd "$3" && pwd) work=$4
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
py=$(python3 -c 'import sys; print(sys.executable)') || { echo "FAIL: no python3"; exit 1; }
"$py" -c 'import yaml' 2>/dev/null || { echo "FAIL: python3 cannot import yaml (Debian: python3-yaml; scripts/install-deps.sh installs it)"; exit 1; }
command -v git > /dev/null || { echo "git not installed: skipped"; exit 77; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# The hook as pre-commit would run it: run_hook NAME [USER_ARG...] -> $work/NAME.out, .status, .files
cat > "$work/run_hook.py" <<'PY'
import os, re, shlex, subprocess, sys
hook_repo, repo, hook_id, out = sys.argv[1:5]
user_args = sys.argv[5:]
import yaml
hooks = {h["id"]: h for h in yaml.safe_load(open(os.path.join(hook_repo, ".pre-commit-hooks.yaml")))}
h = hooks[hook_id]
assert h["language"] in ("script", "system"), h["language"]
files_re, exclude_re = re.compile(h.get("files", "")), re.compile(h.get("exclude", "^$"))
git = lambda *a: subprocess.run(["git", "-C", repo] + list(a), check=True, stdout=subprocess.PIPE).stdout
staged = [f for f in git("diff", "--staged", "--name-only", "--no-ext-diff", "-z", "--diff-filter=ACMRTUXB").decode().split("\0") if f]
# The index as it is, without unstaged changes (pre-commit stashes them): a checkout of it.
index = out + ".index"
os.makedirs(index)
git("checkout-index", "--all", "--prefix=" + index + "/")
def kind_ok(f):
    p = os.path.join(index, f)
    tags = {"file"} if os.path.isfile(p) and not os.path.islink(p) else {"symlink"} if os.path.islink(p) else set()
    return set(h.get("types", ["file"])) <= tags
chosen = [f for f in staged if files_re.search(f) and not exclude_re.search(f) and kind_ok(f)]
argv = shlex.split(h["entry"])
if h["language"] == "script":
    argv[0] = os.path.join(hook_repo, argv[0])
argv += list(h.get("args", [])) + user_args
if h.get("pass_filenames", True):
    argv += chosen
with open(out + ".files", "w") as f:
    f.write("".join(c + "\n" for c in chosen))
if not chosen and h.get("pass_filenames", True) and not h.get("always_run", False):
    open(out + ".out", "w").close()
    open(out + ".status", "w").write("skipped\n")  # pre-commit: "(no files to check)Skipped"
    sys.exit(0)
p = subprocess.run(argv, cwd=index, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
open(out + ".out", "wb").write(p.stdout)
open(out + ".status", "w").write("%d\n" % p.returncode)
PY
export PATH="$(dirname "$bin"):$PATH"
run_hook() { name=$1; shift; "$py" "$work/run_hook.py" "$src" "$repo" tracefsck-check "$work/$name" "$@" || bad "$name: the emulation failed"; }
status() { cat "$work/$1.status"; }
expect_status() { [ "$(status "$1")" = "$2" ] && ok "$1: exit $2" || { bad "$1: exit $(status "$1"), expected $2"; cat "$work/$1.out"; }; }
has() { grep -qF -- "$2" "$work/$1.out" && ok "$1: $3" || { bad "$1: $3: no '$2' in the output"; cat "$work/$1.out"; }; }
hasnt() { grep -qF -- "$2" "$work/$1.out" && { bad "$1: $3: '$2' in the output"; cat "$work/$1.out"; } || ok "$1: $3"; }

# The hook's declaration itself.
"$py" - "$src/.pre-commit-hooks.yaml" <<'PY' && ok "the hook is declared as pre-commit expects" || fail=1
import os, re, sys, yaml
hooks = yaml.safe_load(open(sys.argv[1]))
assert isinstance(hooks, list), "a list of hooks"
ids = [h["id"] for h in hooks]
assert "tracefsck-check" in ids, ids
for h in hooks:
    for key in ("id", "name", "entry", "language"):
        assert key in h, (h.get("id"), key)
    re.compile(h["files"])
h = hooks[ids.index("tracefsck-check")]
root = os.path.dirname(os.path.abspath(sys.argv[1]))
assert os.access(os.path.join(root, h["entry"].split()[0]), os.X_OK), "the script entry is not executable"
r = re.compile(h["files"])
for yes in ["trace.dat", "a/b/trace.v7.dat", "perf.data", "x/perf.data.old", "x/perf.data/data", "perf.data.2/data.13",
            "uftrace.data/info", "uftrace.data/task.txt", "uftrace.data/sid-1.map", "uftrace.data/a.out.sym",
            "s.lttng/ust/uid/0/64-bit/metadata", "s.lttng/ust/uid/0/64-bit/channel0_1",
            "s.lttng/ust/uid/0/64-bit/index/channel0_1.idx", "t/cpu_0", "t/control/facilities_0",
            "up.tar.gz", "up.zip", "trace.dat.bz2"]:
    assert r.search(yes), "does not match " + yes
for no in ["notes.txt", "data", "trace.dat.txt", "perf.database/x.c", "src/perf_data.c", "src/main.c", "README.md"]:
    assert not r.search(no), "matches " + no
PY

# A repository: clean, damaged and warning traces, a perf.data file, a perf.data directory
# whose second stream is garbage, and a text file the pattern does not match.
repo=$work/repo
mkdir -p "$repo/traces" "$repo/rec/perf.data" "$repo/docs"
git -C "$repo" init -q && git -C "$repo" config user.email t@example.invalid && git -C "$repo" config user.name test || exit 1
"$make" clean "$repo/traces/clean.dat" && "$make" damaged "$work/damaged.dat" && "$make" warning "$work/warning.dat" &&
	"$make" perf-le "$repo/perf.data" && cp "$repo/perf.data" "$repo/rec/perf.data/data" || exit 1
: > "$repo/rec/perf.data/data.0"
echo "x" > "$repo/docs/notes.txt"
git -C "$repo" add traces/clean.dat perf.data rec/perf.data/data rec/perf.data/data.0 docs/notes.txt

run_hook first
expect_status first 0
[ "$(cat "$work/first.files")" = "perf.data
rec/perf.data/data
rec/perf.data/data.0
traces/clean.dat" ] && ok "first: the pattern picks the trace files" || { bad "first: files passed: $(tr '\n' ' ' < "$work/first.files")"; }
has first "traces/clean.dat: clean" "clean trace checked"
has first "perf.data: clean: 0 errors, 0 warnings, 0 notes; perf.data," "perf.data file checked"
has first "rec/perf.data: clean: 0 errors, 0 warnings, 0 notes; perf.data directory" "the perf.data directory checked as one"
[ "$(grep -c '^rec/perf.data' "$work/first.out")" = 1 ] && ok "first: the directory is checked once" || bad "first: the directory was checked $(grep -c '^rec/perf.data' "$work/first.out") times"
hasnt first "notes.txt" "the text file is not passed"
git -C "$repo" commit -q -m first || exit 1

# A damaged trace staged: the hook fails and names the damage.
cp "$work/damaged.dat" "$repo/traces/upload.dat"
git -C "$repo" add traces/upload.dat
run_hook damaged
expect_status damaged 4
has damaged "traces/upload.dat: 0x3008 [cpu0 page 2]: error tracedat.page.bad-commit" "the damage is named"
hasnt damaged "traces/clean.dat" "only staged files are checked"

# Staged clean, the damage only in the working tree: the staged content passes.
git -C "$repo" reset -q traces/upload.dat
cp "$repo/traces/clean.dat" "$repo/traces/upload.dat" && git -C "$repo" add traces/upload.dat
cp "$work/damaged.dat" "$repo/traces/upload.dat"
run_hook unstaged
expect_status unstaged 0
has unstaged "traces/upload.dat: clean" "the staged (clean) content is what is checked"
git -C "$repo" commit -q -m upload || exit 1
git -C "$repo" checkout -q -- traces/upload.dat

# A perf.data directory with a damaged stream: the directory fails as one, naming the stream.
# (a record header of type 1 whose size, 9, perf never writes, then zeros)
{ printf '\001\000\000\000\000\000\011\000'; head -c 56 /dev/zero; } > "$repo/rec/perf.data/data.1"
git -C "$repo" add rec/perf.data/data.1
run_hook perfdir
expect_status perfdir 4
has perfdir "rec/perf.data/data.1: 0x6 [record type 1 at +0x0]" "the finding names the stream file of the directory, at its offset"
has perfdir "rec/perf.data: corrupt" "and the verdict is the directory's"
hasnt perfdir "core.input.unrecognised" "no stream is checked on its own"
git -C "$repo" reset -q rec/perf.data/data.1 && rm -f "$repo/rec/perf.data/data.1"

# Warnings pass by default; a user's args (--fail-on=warning) make them fail.
cp "$work/warning.dat" "$repo/traces/w.dat" && git -C "$repo" add traces/w.dat
run_hook warn
expect_status warn 0
has warn "warning tracedat.option.unknown" "the warning is shown"
run_hook warn_gate --fail-on=warning
expect_status warn_gate 4
has warn_gate "traces/w.dat: failed (warnings fail this gate)" "args reach tracefsck check"
# Nothing matched: pre-commit skips the hook (tracefsck is not asked about no file).
git -C "$repo" reset -q traces/w.dat
echo y >> "$repo/docs/notes.txt" && git -C "$repo" add docs/notes.txt
run_hook nothing
expect_status nothing skipped
# Every format's trace directories staged, pristine and with a member deleted, and an archive of
# them: each directory checked once, whole, however many of its members are staged.
samples=$src/../shared/samples
if [ -d "$samples" ]; then
	up=$repo/uploads
	mkdir -p "$up/run" && cp -r "$samples/uftrace/fib-args.uftrace.data" "$samples/ctf/tracef-2000.lttng" "$up/run/" &&
		cp -r "$samples/uftrace/fib-args.uftrace.data" "$up/run/lost-task.uftrace.data" &&
		cp -r "$samples/ctf/tracef-2000.lttng" "$up/run/lost-metadata.lttng" || exit 1
	rm "$up/run/lost-task.uftrace.data/18985.dat"
	find "$up/run/lost-metadata.lttng" -name metadata -delete
	(cd "$up/run" && tar czf ../bundle.tgz fib-args.uftrace.data tracef-2000.lttng) || exit 1
	git -C "$repo" add uploads
	run_hook formats
	expect_status formats 4
	for u in run/fib-args.uftrace.data run/tracef-2000.lttng bundle.tgz/fib-args.uftrace.data bundle.tgz/tracef-2000.lttng; do
		[ "$(grep -c "^uploads/$u: clean:" "$work/formats.out")" = 1 ] && ok "formats: uploads/$u checked once, clean" ||
			bad "formats: uploads/$u: $(grep -c "^uploads/$u: clean:" "$work/formats.out") clean summaries"
	done
	has formats "uploads/run/lost-task.uftrace.data/18985.dat: [task data]: error core.input.member-missing" "the uftrace directory's lost task data is named"
	has formats "uploads/run/lost-task.uftrace.data: corrupt" "and fails the directory"
	has formats "error ctf.metadata.missing" "the CTF trace's lost metadata is named"
	has formats "uploads/run/lost-metadata.lttng: corrupt" "and fails the session"
	hasnt formats "core.input.unrecognised" "no member is checked on its own"
	git -C "$repo" commit -q -m formats || exit 1
fi
[ $fail = 0 ] && echo "ok: the pre-commit hook checks exactly the staged trace files"
exit $fail
