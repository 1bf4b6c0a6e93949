#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Plant known secrets in a copy of a real trace.dat v6 sample, keeping every length: the host
# name in UNAME, a task name (in saved cmdlines and in the events' comm fields), an exec'd path
# (the __data_loc filename of sched_process_exec / sched_prepare_exec), and a trace_marker text
# (one sched_switch record rewritten as an ftrace print event of the same size).
# usage: scrub_plant.py IN.v6.dat OUT.dat   (prints the secrets, one a line)
import struct
import sys

src, dst = sys.argv[1], sys.argv[2]
d = bytearray(open(src, "rb").read())

def replace_all(old, new):
    assert len(old) == len(new)
    n = d.count(old)
    assert n > 0, old
    d[:] = d.replace(old, new)
    return n

uname = b"Linux vm 6.18.44-fc-v669 x86_64"
replace_all(uname, b"Linux zorkhost77 6.18.44-fc x86")
# The print event's buf: found by its format's ID, a sched_switch record rewritten in place.
switch_id = 372
print_id = 5
comm = b"make_traces.sh\0\0"
at = d.find(comm)
marker = b"zorkmarker text from user space\n\0"
planted_marker = False
while at > 0:
    payload = at - 8
    hdr = struct.unpack_from("<I", d, payload - 4)[0]
    if struct.unpack_from("<H", d, payload)[0] == switch_id and hdr & 31 == 16:
        struct.pack_into("<H", d, payload, print_id)
        struct.pack_into("<Q", d, payload + 8, 0)
        body = marker + b"\0" * (48 - len(marker))
        d[payload + 16:payload + 64] = body
        planted_marker = True
        break
    at = d.find(comm, at + 1)
assert planted_marker
replace_all(b"make_traces.sh", b"zorksecret9.sh")
replace_all(b"/usr/bin/ls", b"/zorkuser/x")
open(dst, "wb").write(d)
for s in ("zorkhost77", "zorksecret9", "zorkuser", "zorkmarker"):
    print(s)
