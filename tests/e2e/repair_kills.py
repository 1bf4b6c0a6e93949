#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""
Repairs stopped at random moments leave nothing behind. A file repair (about 90 MB written)
and a directory repair (a CTF trace of about 60 MB) are killed after a random delay with
SIGINT, SIGTERM or SIGKILL, again and again, all into one output folder. After SIGINT and
SIGTERM nothing named .tracefsck-* is left at once; after SIGKILL a directory repair may leave
its .tracefsck-PID.d, which the next repair into the folder removes; at the end, after one
repair run to completion, nothing is left at all, and OUT is either absent or whole.
usage: repair_kills.py TRACEFSCK TDW_MAKE WORK_DIR CTF_SAMPLE_DIR [KILLS [SEED]]
"""
import os
import random
import shutil
import signal
import subprocess
import sys
import time

tfk, tdw_make, work, sample = sys.argv[1:5]
kills = int(sys.argv[5]) if len(sys.argv) > 5 else 20
rng = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 39)
shutil.rmtree(work, ignore_errors=True)
inputs, out = os.path.join(work, "in"), os.path.join(work, "out")
os.makedirs(inputs)
os.makedirs(out)
failed = False


def bad(msg):
    global failed
    failed = True
    print("FAIL:", msg)


def leftovers():
    return sorted(n for n in os.listdir(out) if n.startswith(".tracefsck-"))


# a damaged v6 file (cut: its last pages lost) and a CTF directory whose stream was cut
dat = os.path.join(inputs, "cut.dat")
if subprocess.call([tdw_make, "big", dat]) != 0:
    sys.exit(1)
os.truncate(dat, 90000000)
ctf = os.path.join(inputs, "ctf")
shutil.copytree(sample, ctf)
for root, dirs, files in os.walk(ctf):
    os.chmod(root, 0o755)
    for f in files:
        os.chmod(os.path.join(root, f), 0o644)
shutil.rmtree(os.path.join(ctf, "ust/uid/0/64-bit/index"), ignore_errors=True)
stream = os.path.join(ctf, "ust/uid/0/64-bit/channel0_1")
with open(stream, "rb") as f:
    packets = f.read()
with open(stream, "wb") as f:
    for _ in range(900):
        f.write(packets)
os.truncate(stream, len(packets) * 900 - 1000)

jobs = [
    ("file", [tfk, "repair", "-q", "--force", dat, "-o", os.path.join(out, "cut.dat")], 1.2),
    ("directory", [tfk, "repair", "-q", ctf, "-o", os.path.join(out, "ctf")], 3.0),
]
signals = [signal.SIGINT, signal.SIGTERM, signal.SIGKILL]
killed = 0
for i in range(kills):
    name, args, span = jobs[i % 2]
    sig = signals[rng.randrange(3)]
    delay = rng.uniform(0.0, span)
    if name == "directory":
        shutil.rmtree(os.path.join(out, "ctf"), ignore_errors=True)  # a finished run's OUT
    p = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(delay)
    if p.poll() is None:
        p.send_signal(sig)
        killed += 1
    rc = p.wait()
    left = leftovers()
    if sig != signal.SIGKILL and left:
        bad(f"{name} repair, {sig.name} after {delay:.2f} s (exit {rc}): left {left}")
    elif left:
        print(f"note: {name} repair, SIGKILL after {delay:.2f} s: left {left}, for the next run to remove")

# one run to completion of each: they remove what dead runs left, and leave nothing themselves
shutil.rmtree(os.path.join(out, "ctf"), ignore_errors=True)
for name, args, _ in jobs:
    rc = subprocess.call(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if rc != 1:
        bad(f"{name} repair run to completion: exit {rc}, expected 1 (repaired)")
left = leftovers()
if left:
    bad(f"left after {killed} kills and one whole run of each: {left}")
else:
    print(f"ok: {killed} repairs killed (of {kills} started), nothing left behind")
sys.exit(1 if failed else 0)
