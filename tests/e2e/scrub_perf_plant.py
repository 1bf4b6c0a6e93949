#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Plant known secrets in a copy of a real perf.data, keeping every length: the host name in
# the HOSTNAME feature (inside its padded string), a task name (COMM records, CMDLINE, the
# comm fields of sched tracepoint payloads, TRACING_DATA's saved cmdlines: "sleep" everywhere)
# and a path component of the mapped libraries (MMAP2 file names, BUILD_ID table).
# usage: scrub_perf_plant.py IN.perf.data OUT   (prints the secrets, one a line)
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
d = bytearray(open(src, "rb").read())
assert d[:8] == b"PERFILE2"
data_off, data_size = struct.unpack_from("<QQ", d, 0x28)
flags = int.from_bytes(d[0x48:0x48 + 32], "little")
table = data_off + data_size
hostname_bit = 3
i = 0
for bit in range(256):
    if flags >> bit & 1:
        off, size = struct.unpack_from("<QQ", d, table + 16 * i)
        if bit == hostname_bit:
            n = struct.unpack_from("<I", d, off)[0]
            new = b"zorkhost77"
            assert n > len(new)
            d[off + 4:off + 4 + n] = new + b"\0" * (n - len(new))
        i += 1

def replace_all(old, new):
    assert len(old) == len(new) and d.count(old) > 0, old
    d[:] = d.replace(old, new)

replace_all(b"sleep", b"zork5")
replace_all(b"x86_64-linux-gnu", b"zorkuser-secret1")
open(dst, "wb").write(d)
for s in ("zorkhost77", "zork5", "zorkuser"):
    print(s)
