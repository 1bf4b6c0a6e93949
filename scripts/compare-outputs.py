#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Two builds of tracefsck, the same answers: `check --json`, `describe --json` and `repair --json`
(its report and the bytes it wrote) compared input by input over the shared samples, the foreign
traces, the fuzz corpus and the recorded test data. A refactor that must not change output is run
through this before it lands.

usage: compare-outputs.py OLD_TRACEFSCK NEW_TRACEFSCK [ROOT...]
  ROOT: folders whose entries are inputs (default: ../shared/samples/*, ../shared/foreign/*,
  corpus/*, tests/data/*). Prints each difference and the number of inputs compared; exits 1 on
  any difference.
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)


def default_roots():
    roots = []
    for base in (os.path.join(TOP, "..", "shared", "samples"), os.path.join(TOP, "..", "shared", "foreign"),
                 os.path.join(TOP, "corpus"), os.path.join(TOP, "tests", "data")):
        if not os.path.isdir(base):
            continue
        for name in sorted(os.listdir(base)):
            p = os.path.join(base, name)
            if os.path.isdir(p):
                roots.append(p)
    return roots


def inputs(roots):
    for root in roots:
        for name in sorted(os.listdir(root)):
            if name in ("MANIFEST",) or name.endswith((".md", ".txt", ".json", ".expect", ".sh", ".py")):
                continue
            yield os.path.join(root, name)


def tree_digest(path):
    """The bytes a repair wrote: one file, or every file of a directory by relative name."""
    if not os.path.lexists(path):
        return "absent"
    h = hashlib.sha256()
    if os.path.isfile(path):
        with open(path, "rb") as f:
            h.update(f.read())
        return h.hexdigest()
    for d, dirs, files in os.walk(path):
        dirs.sort()
        for f in sorted(files):
            p = os.path.join(d, f)
            h.update(os.path.relpath(p, path).encode() + b"\0")
            with open(p, "rb") as fh:
                h.update(fh.read())
    return h.hexdigest()


def run(tool, args, out):
    try:
        p = subprocess.run([tool] + args, capture_output=True, timeout=300)
    except subprocess.TimeoutExpired:
        return ("timeout", b"", b"")
    return (p.returncode, p.stdout.replace(out.encode(), b"OUT"), p.stderr.replace(out.encode(), b"OUT"))


def answers(tool, path, scratch):
    out = os.path.join(scratch, "out")
    shutil.rmtree(out, ignore_errors=True)
    if os.path.lexists(out):
        os.unlink(out)
    res = {
        "check": run(tool, ["check", "--json", path], out),
        "describe": run(tool, ["describe", "--json", path], out),
        "repair": run(tool, ["repair", "--json", path, "-o", out], out),
    }
    res["repaired bytes"] = tree_digest(out)
    shutil.rmtree(out, ignore_errors=True)
    if os.path.lexists(out):
        os.unlink(out)
    return res


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 16
    old, new = sys.argv[1], sys.argv[2]
    roots = sys.argv[3:] or default_roots()
    n = diffs = 0
    with tempfile.TemporaryDirectory(prefix="tfk-compare-") as scratch:
        for path in inputs(roots):
            n += 1
            a, b = answers(old, path, scratch), answers(new, path, scratch)
            for what in a:
                if a[what] != b[what]:
                    diffs += 1
                    print(f"DIFF {what}: {path}")
    print(f"compared {n} inputs: {diffs} differences")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
