#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Seeds of the units harness (fuzz/fuzz_units.c): uploads as CI receives them, built from the
# project's own corpus traces: archives of every kind libarchive reads here holding a trace
# file in a folder, plus the hostile members a gate must never unpack (an absolute name, a
# name climbing out with '..', a symbolic and a hard link, a FIFO, a device).
# usage: fuzz/scripts/units_seeds.py OUT_DIR   (from the project root)
import bz2, gzip, io, lzma, os, shutil, subprocess, sys, tarfile, zipfile

out = sys.argv[1] if len(sys.argv) > 1 else "corpus/units"
os.makedirs(out, exist_ok=True)
trace = open("corpus/tracedat/seed-be32.dat", "rb").read()
perf = open("corpus/perf/seed-perf-pipe.data", "rb").read()

def member(tar, name, data=b"", kind=tarfile.REGTYPE, link=""):
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.size, info.mode = kind, link, len(data), 0o644
    tar.addfile(info, io.BytesIO(data) if kind == tarfile.REGTYPE else None)

def tar_bytes(hostile):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tar:
        member(tar, "upload/", kind=tarfile.DIRTYPE)
        member(tar, "upload/be32.dat", trace)
        member(tar, "upload/nested/perf.data", perf)
        member(tar, "upload/notes.txt", b"attached traces\n")
        if hostile:
            member(tar, "/tmp/absolute.dat", b"x")
            member(tar, "upload/../../escape.dat", b"x")
            member(tar, "upload/link", kind=tarfile.SYMTYPE, link="/etc/passwd")
            member(tar, "upload/hard", kind=tarfile.LNKTYPE, link="upload/be32.dat")
            member(tar, "upload/fifo", kind=tarfile.FIFOTYPE)
            member(tar, "upload/dev", kind=tarfile.CHRTYPE)
    return buf.getvalue()

def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)

write("upload.tar", tar_bytes(False))
write("hostile.tar", tar_bytes(True))
write("upload.tar.gz", gzip.compress(tar_bytes(False), mtime=0))
write("upload.tar.xz", lzma.compress(tar_bytes(True)))
write("upload.tar.bz2", bz2.compress(tar_bytes(False)))
write("single.dat.bz2", bz2.compress(trace))
if shutil.which("zstd"):
    write("upload.tar.zst", subprocess.run(["zstd", "-q", "-c"], input=tar_bytes(False), stdout=subprocess.PIPE, check=True).stdout)
zbuf = io.BytesIO()
with zipfile.ZipFile(zbuf, "w", zipfile.ZIP_DEFLATED) as z:
    for name, data in (("upload/be32.dat", trace), ("upload/nested/perf.data", perf), ("../escape.dat", b"x")):
        info = zipfile.ZipInfo(name, date_time=(2026, 1, 1, 0, 0, 0))
        z.writestr(info, data)
write("upload.zip", zbuf.getvalue())
# an archive inside an archive
nbuf = io.BytesIO()
with tarfile.open(fileobj=nbuf, mode="w", format=tarfile.GNU_FORMAT) as tar:
    member(tar, "outer/inner.tar.gz", gzip.compress(tar_bytes(False), mtime=0))
write("nested.tar", nbuf.getvalue())
