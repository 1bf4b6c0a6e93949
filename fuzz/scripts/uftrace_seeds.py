#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Seeds of the uftrace harness (fuzz/fuzz_uftrace.c) from a recorded uftrace data directory:
# each seed is the harness's container of members {u8 name length, name, u8 kind, u32 size,
# bytes}. usage: uftrace_seeds.py SAMPLE_DIR OUT_DIR [NAME=RECORDING_DIR...]
# The extra recordings (e.g. those of spec 2.11: -A/-R arguments and return values, -T events)
# are packed whole but for library symbol files, each task cut to 8 KiB.
import os
import struct
import sys


def member(name, data=b"", kind=0):
    n = name.encode()
    return bytes([len(n)]) + n + bytes([kind]) + struct.pack("<I", len(data)) + data


def read(d, name):
    with open(os.path.join(d, name), "rb") as f:
        return f.read()


def main():
    src, out = sys.argv[1], sys.argv[2]
    os.makedirs(out, exist_ok=True)
    names = sorted(os.listdir(src))
    dat = [n for n in names if n[0].isdigit() and n.endswith(".dat")][0]
    smap = [n for n in names if n.startswith("sid-")][0]
    info = read(src, "info")
    # info without the long argspec section: the header, then every line up to it
    head, text = info[:40], info[40:].split(b"\n")
    seeds = {
        "full": [("info", info), ("task.txt", read(src, "task.txt")), (smap, read(src, smap)),
                 ("hello.sym", read(src, "hello.sym")), ("hello.dbg", read(src, "hello.dbg")),
                 (dat, read(src, dat)), ("perf-cpu1.dat", read(src, "perf-cpu1.dat"))],
        "killed": [("task.txt", read(src, "task.txt")), (smap, read(src, smap)), (dat, read(src, dat)[:1000]),
                   ("perf-cpu1.dat", read(src, "perf-cpu1.dat")[:100]), (".channel", b"", 1)],
        "records": [("info", head + b"\n".join(t for t in text if not t.startswith((b"arg", b"ret", b"enum"))))
                    , ("task.txt", read(src, "task.txt")), (dat, read(src, dat)[:800] + read(src, dat)[-64:])],
        "text": [("task.txt", read(src, "task.txt") +
                  b"DLOP timestamp=678.882152426 tid=18985 sid=260878a0ab9a6202 base=7f00 libname=\"/l.so\"\n"),
                 (smap, read(src, smap)), ("libz.sym", read(src, "libz.so.1.2.13.sym")[:900])],
    }
    for extra in sys.argv[3:]:
        name, d = extra.split("=", 1)
        members = []
        for n in sorted(os.listdir(d)):
            path = os.path.join(d, n)
            if not os.path.isfile(path) or n.startswith(("lib", "ld-")):
                continue
            data = read(d, n)
            if n.endswith(".dat"):
                data = data[:8192]
            members.append((n, data))
        seeds[name] = members
    for name, members in seeds.items():
        blob = b"".join(member(*m) for m in members)
        with open(os.path.join(out, name), "wb") as f:
            f.write(blob)


main()
