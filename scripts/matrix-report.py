#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Runs tracefsck over a matrix recorded by scripts/record-matrix.sh, with the real readers
(trace-cmd report, perf script) as oracles, and prints Markdown tables:

1. every pristine file: how it was made, size, events printed by the reader, events walked by
   tracefsck, exit status, verdict, every finding (code @ offset: message), and what
   `tracefsck repair` says about it (a pristine file must have nothing to repair);
2. damaged copies (trace.dat: cut in the middle of one CPU's data of each buffer, found with
   `tracefsck describe --json`; perf.data: cut at 60 % of the data section, or of the largest
   data.N stream of a --threads directory): events of the original, events the salvage report
   says it kept, events the reader prints from the repaired output, what the report says was
   lost, and the mismatches.

usage: matrix-report.py TRACEFSCK MATRIX_DIR [WORK_DIR]
Nothing here decides pass or fail (tests/e2e/matrix.sh does): it measures, for people fixing
the checker. The warning tracedat.format.unparsable is counted, not listed, in the tables: every
recording of a kernel whose formats libtraceevent cannot all parse carries the same ones.
"""
import json
import os
import re
import shutil
import subprocess
import sys

QUIET_CODES = {"tracedat.format.unparsable"}


def run(cmd, timeout=120):
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        return "timeout", "", ""


def size_of(path):
    if os.path.isdir(path):
        return sum(os.path.getsize(os.path.join(path, f)) for f in os.listdir(path))
    return os.path.getsize(path)


def reader_count(kind, path):
    """Events the real reader prints: (count, status) with status the reader's exit status."""
    if kind == "tracedat":
        rc, out, _ = run(["trace-cmd", "report", path])
        if rc == "timeout":
            return None, "timeout"
        n = sum(1 for l in out.splitlines() if l.strip() and not l.startswith("cpus=") and "EVENTS DROPPED" not in l)
        return n, rc
    rc, out, _ = run(["perf", "script", "-G", "-i", path])
    if rc == "timeout":
        return None, "timeout"
    return sum(1 for l in out.splitlines() if l.strip()), rc


def check(tfk, path):
    rc, out, err = run([tfk, "check", "--json", path])
    findings, summary = [], {}
    for line in out.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("type") == "finding":
            findings.append(o)
        elif o.get("type") == "summary":
            summary = o
    return rc, summary, findings, err.strip()


def fmt_findings(findings):
    quiet = sum(1 for f in findings if f["code"] in QUIET_CODES)
    parts = []
    for f in findings:
        if f["code"] in QUIET_CODES:
            continue
        where = "0x%x" % f["offset"]
        if f.get("decoded_offset") is not None:
            where += " (decoded +0x%x)" % f["decoded_offset"]
        parts.append("%s %s @ %s [%s]: %s (expected %s, found %s)" % (
            f["severity"], f["code"], where, f.get("path", ""), f["message"], f.get("expected", ""), f.get("found", "")))
    if quiet:
        parts.append("%d x warning tracedat.format.unparsable" % quiet)
    return "<br>".join(parts) if parts else "-"


def repair(tfk, path, out):
    if os.path.exists(out):
        shutil.rmtree(out) if os.path.isdir(out) else os.unlink(out)
    rc, text, err = run([tfk, "repair", "-q", path, "-o", out])
    if rc == "timeout":
        return rc, "", "", ["repair timed out"]
    # Outcome and salvage lines (per-CPU lines are indented); the findings are in check's columns.
    keys = ("salvage:", "nothing to repair", "cannot be repaired", "internal error", "  ")
    prefix = path + ": "
    lines = [l[len(prefix):] for l in text.splitlines() if l.startswith(prefix) and l[len(prefix):].startswith(keys)]
    return rc, text, err, lines


def salvage_numbers(kind, text):
    """(kept, reported_total_or_None, lost_description) from the salvage report."""
    if kind == "perf":
        m = re.search(r"salvage: kept (\d+) of (\d+) samples", text)
        if m:
            kept, total = int(m.group(1)), int(m.group(2))
            return kept, total, "%d samples" % (total - kept)
        return None, None, "-"
    m = re.search(r"salvage: (\d+) buffers?, (\d+) CPUs?; kept (\d+) pages \((\d+) events\), clipped (\d+), dropped (\d+)", text)
    if not m:
        return None, None, "-"
    kept = int(m.group(4))
    lost = "%s buffers %s CPUs kept; %s pages clipped, %s dropped" % (m.group(1), m.group(2), m.group(5), m.group(6))
    times = re.findall(r"(\S+cpu\d+): kept .*events lost between timestamps (\d+) and (\d+)", text)
    if times:
        lost += "; time lost: " + ", ".join("%s %s..%s" % t for t in times)
    return kept, None, lost


def tracedat_cuts(tfk, path):
    """One cut per buffer: the middle of its largest CPU data range, from describe --json."""
    rc, out, _ = run([tfk, "describe", "--json", path])
    cuts, buf = [], None
    best = {}
    for line in out.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("type") == "buffer":
            buf = o["name"]
            best.setdefault(buf, None)
        elif o.get("type") == "cpu" and buf is not None and o["length"] > 0:
            b = best.get(buf)
            if b is None or o["length"] > b[2]:
                best[buf] = (o["id"], o["offset"], o["length"])
    for name, b in best.items():
        if b is None:
            cuts.append((name, None, None))
        else:
            cuts.append((name, "cpu%d" % b[0], b[1] + b[2] // 2))
    return cuts


def perf_cut(tfk, path, dst):
    """Cut at 60 % of the data section (pipe: of the file; directory: of its largest data.N)."""
    if os.path.isdir(path):
        shutil.copytree(path, dst)
        streams = [f for f in os.listdir(dst) if f.startswith("data.")]
        if not streams:
            return None
        big = max(streams, key=lambda f: os.path.getsize(os.path.join(dst, f)))
        p = os.path.join(dst, big)
        n = os.path.getsize(p)
        os.truncate(p, n * 6 // 10)
        return "%s cut at %d of %d" % (big, n * 6 // 10, n)
    rc, out, _ = run([tfk, "describe", "--json", path])
    start, length = 0, os.path.getsize(path)
    for line in out.splitlines():
        try:
            o = json.loads(line)
        except ValueError:
            continue
        if o.get("type") == "section" and o.get("name") == "data":
            start, length = o["offset"], o["length"]
    at = start + length * 6 // 10
    with open(path, "rb") as f:
        data = f.read(at)
    with open(dst, "wb") as f:
        f.write(data)
    return "cut at 0x%x (60 %% of data [0x%x, +%d))" % (at, start, length)


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 16
    tfk, mdir = os.path.abspath(sys.argv[1]), sys.argv[2]
    work = sys.argv[3] if len(sys.argv) > 3 else os.path.join(mdir, ".report")
    os.makedirs(work, exist_ok=True)
    rows = []
    with open(os.path.join(mdir, "MATRIX")) as f:
        for line in f:
            name, kind, what = line.rstrip("\n").split("\t")
            rows.append((name, kind, what))

    print("## Pristine files\n")
    print("| file | made by | size | reader events | walked | exit | verdict | errors/warnings/notes | findings | repair |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    damage_rows = []
    for name, kind, what in rows:
        path = os.path.join(mdir, name)
        n, rrc = reader_count(kind, path)
        rc, s, findings, err = check(tfk, path)
        walked = s.get("events", "?")
        rrc_s = "" if rrc == 0 else " (reader exit %s)" % rrc
        mark = "" if walked == n else " **≠**"
        prc, ptext, perr, plines = repair(tfk, path, os.path.join(work, name + ".repaired"))
        ptail = " / ".join(plines) or perr.strip() or "?"
        print("| %s | %s | %d | %s%s | %s%s | %s | %s | %s/%s/%s | %s | exit %s: %s |" % (
            name, what, size_of(path), n, rrc_s, walked, mark, rc, s.get("verdict", "?"), s.get("errors", "?"),
            s.get("warnings", "?"), s.get("notes", "?"), fmt_findings(findings), prc, ptail))

        # Damaged copies.
        if kind == "tracedat":
            for buf, cpu, at in tracedat_cuts(tfk, path):
                label = "%s: cut in buffer %s" % (name, buf)
                if at is None:
                    damage_rows.append((label + " (no data)", n, None, None, None, None, "-", "buffer has no CPU data to cut", None))
                    continue
                dst = os.path.join(work, "%s.cut-%s.dat" % (name, re.sub(r"[^A-Za-z0-9_-]", "_", buf)))
                with open(path, "rb") as fi:
                    data = fi.read(at)
                with open(dst, "wb") as fo:
                    fo.write(data)
                damage_rows.append(damage(tfk, kind, label, "%s data cut at 0x%x" % (cpu, at), dst, n))
        else:
            dst = os.path.join(work, name + ".cut60")
            if os.path.isdir(dst):
                shutil.rmtree(dst)
            how = perf_cut(tfk, path, dst)
            if how:
                damage_rows.append(damage(tfk, kind, name + ": cut60", how, dst, n))

    print("\n## Damaged copies\n")
    print("| damaged file | cut | original (reader) | walked in damaged input | repair exit | kept (salvage report) | reader on repaired output | lost as reported | original - kept | remarks |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for r in damage_rows:
        label, orig, walked, rrc, kept, read, lost, how, remarks = r
        diff = "" if orig is None or kept is None else orig - kept
        print("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            label, how, orig, "-" if walked is None else walked, "-" if rrc is None else rrc, "-" if kept is None else kept,
            "-" if read is None else read, lost, diff, remarks or ""))
    return 0


def damage(tfk, kind, label, how, dst, orig):
    rc, s, findings, err = check(tfk, dst)
    walked = s.get("events")
    out = dst + ".fixed"
    prc, ptext, perr, plines = repair(tfk, dst, out)
    kept, total, lost = salvage_numbers(kind, ptext)
    remarks = []
    read = None
    refused = "TRACING_DATA was lost" in ptext
    if prc in (1, 4) and os.path.exists(out):
        read, rrc = reader_count(kind, out)
        if rrc != 0 and refused:
            remarks.append("perf refuses the output (exit %s), as the report says: TRACING_DATA lost" % rrc)
        elif rrc != 0:
            remarks.append("**reader exit %s on the output**" % rrc)
        if kept is not None and read != kept and not (refused and rrc != 0):
            remarks.append("**reader prints %s, report says kept %s**" % (read, kept))
    else:
        remarks.append(" / ".join(plines) or perr.strip() or "no output")
    if total is not None and walked is not None and total != walked:
        remarks.append("report's total %s, walked %s" % (total, walked))
    if kept is not None and orig is not None and kept > orig:
        remarks.append("**kept %d more than the original**" % (kept - orig))
    m = re.search(r"clipped (\d+), dropped (\d+)", ptext)
    if kind == "tracedat" and m and kept is not None and orig is not None and kept < orig \
            and m.group(1) == "0" and m.group(2) == "0" and "events lost between" not in ptext:
        remarks.append("**%d events gone, the report names no loss (0 clipped, 0 dropped)**" % (orig - kept))
    if kind == "perf" and total is not None and orig is not None and total < orig:
        remarks.append("report: kept %d of %d (%d lost), but the original had %d: %d samples after the cut not counted as lost"
                       % (kept, total, total - kept, orig, orig - total))
    return (label, orig, walked, prc, kept, read, lost, how, "; ".join(str(x) for x in remarks if x))


if __name__ == "__main__":
    sys.exit(main())
