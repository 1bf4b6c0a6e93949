#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
An input another process changes while tracefsck reads it: shrunk (truncate, a log rotated),
grown (a recorder still writing). Each run is stopped (SIGSTOP) as soon as the file is mapped,
the file is changed, and the run goes on: it must never die of SIGBUS (exit 135), must report
core.input.changed with the verdict incomplete, and a repair must write nothing made of two
versions of its input. A trace.dat v6 file, the same compressed whole with zstd, and a CTF
directory whose stream member changes.
usage: input_changes.py TRACEFSCK TDW_MAKE WORK_DIR [CTF_SAMPLE_DIR]
"""
import os
import shutil
import signal
import subprocess
import sys

tfk, tdw_make, work = sys.argv[1:4]
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
failed = False


def ok(msg):
    print("ok:", msg)


def bad(msg):
    global failed
    failed = True
    print("FAIL:", msg)


def stopped_when_mapped(args, watched):
    """Run args; SIGSTOP it once `watched` shows in its mappings. (proc, stopped?)"""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    real = os.path.realpath(watched)
    while p.poll() is None:
        try:
            with open(f"/proc/{p.pid}/maps") as f:
                maps = f.read()
        except OSError:
            break
        if real in maps:
            os.kill(p.pid, signal.SIGSTOP)
            return p, True
    return p, False


def changed_run(args, watched, pristine, change, tries=30):
    """args run with watched changed (change(path)) under it; (rc, output), or None if never caught."""
    for _ in range(tries):
        shutil.copyfile(pristine, watched)
        p, stopped = stopped_when_mapped(args, watched)
        if stopped:
            change(watched)
            os.kill(p.pid, signal.SIGCONT)
        out = p.communicate()[0].decode(errors="replace")
        if stopped:
            return p.returncode, out
    return None


def shrink(path):
    os.truncate(path, os.path.getsize(path) // 7)


def grow(path):
    with open(path, "ab") as f:
        f.write(b"\0" * 65536)


def expect_changed(what, res, repair_out=None):
    if res is None:
        print(f"note: {what}: the run never stayed long enough to be caught")
        return
    rc, out = res
    if rc >= 128 or rc < 0:
        bad(f"{what}: exit {rc} (a crash)\n{out}")
    elif "core.input.changed" not in out:
        bad(f"{what}: no core.input.changed (exit {rc})\n{out}")
    elif not rc & 8:
        bad(f"{what}: exit {rc}, expected the bit 8 of an incomplete verdict\n{out}")
    elif repair_out and os.path.lexists(repair_out):
        bad(f"{what}: the repair wrote {repair_out} from a changed input")
    else:
        ok(f"{what}: exit {rc}, core.input.changed")


caught = 0
big = os.path.join(work, "big.dat")
pristine = os.path.join(work, "pristine.dat")
if subprocess.call([tdw_make, "big", pristine]) != 0:
    bad("tdw-make big")
    sys.exit(1)
for name, change in (("shrunk", shrink), ("grown", grow)):
    res = changed_run([tfk, "check", "--threads", "1", big], big, pristine, change)
    caught += res is not None
    expect_changed(f"check of a v6 file {name}", res)
    out = os.path.join(work, "repaired.dat")
    res = changed_run([tfk, "repair", "--always-write", big, "-o", out], big, pristine, change)
    caught += res is not None
    expect_changed(f"repair of a v6 file {name}", res, out)
    if os.path.lexists(out):
        os.unlink(out)

# compressed whole: the compressed bytes shrink while they are decompressed
zst = os.path.join(work, "pristine.dat.zst")
if shutil.which("zstd") and subprocess.call(["zstd", "-q", "-1", pristine, "-o", zst]) == 0:
    res = changed_run([tfk, "check", "--threads", "1", big + ".zst"], big + ".zst", zst, shrink)
    caught += res is not None
    expect_changed("check of a zstd-compressed v6 file shrunk", res)

# a CTF directory: its stream member changes while it is read
sample = sys.argv[4] if len(sys.argv) > 4 else None
if sample and os.path.isdir(sample):
    ctf = os.path.join(work, "ctf")
    shutil.copytree(sample, ctf)
    for root, dirs, files in os.walk(ctf):
        os.chmod(root, 0o755)
        for f in files:
            os.chmod(os.path.join(root, f), 0o644)
    stream = os.path.join(ctf, "ust/uid/0/64-bit/channel0_1")
    shutil.rmtree(os.path.join(ctf, "ust/uid/0/64-bit/index"), ignore_errors=True)
    with open(stream, "rb") as f:
        packets = f.read()
    member = os.path.join(work, "stream.pristine")
    with open(member, "wb") as f:
        for _ in range(1000):
            f.write(packets)
    for name, change in (("shrunk", shrink), ("grown", grow)):
        res = changed_run([tfk, "check", ctf], stream, member, change)
        caught += res is not None
        expect_changed(f"check of a CTF directory whose stream {name}", res)
        out = os.path.join(work, "ctf-out")
        res = changed_run([tfk, "repair", "--always-write", ctf, "-o", out], stream, member, change)
        caught += res is not None
        expect_changed(f"repair of a CTF directory whose stream {name}", res, out)
        shutil.rmtree(out, ignore_errors=True)

if caught == 0:
    bad("no run was caught while the input was mapped")
sys.exit(1 if failed else 0)
