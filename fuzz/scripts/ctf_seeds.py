#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
# Seeds of the CTF harness (fuzz/fuzz_ctf.c): each seed is the harness's container of members
# {u8 name length, name, u8 kind, u32 size, bytes}; a member named *.idx lands in index/.
# The trace is written here (the layout of tests/unit/test_ctf.c: plain or packetized metadata,
# one stream of three packets, its LTTng index), then small mutants of it. With TSDL_DIR, also
# the seeds of the TSDL harness (fuzz/fuzz_tsdl.c): the metadata text after its signature line,
# and variants with a syntax error, a semantic fault and the other byte order.
# usage: ctf_seeds.py OUT_DIR [TSDL_DIR]
import os
import struct
import sys

UUID = bytes.fromhex("2a6422d06cee11e08c08cb07d7b3a564")
PKT, EV0, EVSZ, NPKT = 128, 72, 21, 3
CONTENT = EV0 + 2 * EVSZ

HEAD = """/* CTF 1.8 */
typealias integer { size = 8; align = 8; signed = false; } := uint8_t;
typealias integer { size = 32; align = 8; signed = false; } := uint32_t;
typealias integer { size = 64; align = 8; signed = false; } := uint64_t;
typealias integer { size = 64; align = 8; signed = false; map = clock.c.value; } := ts_t;
typealias integer { size = 5; align = 1; signed = false; } := uint5_t;
typealias integer { size = 27; align = 1; signed = false; map = clock.c.value; } := uint27_t;
trace {
	major = 1;
	minor = 8;
	uuid = "2a6422d0-6cee-11e0-8c08-cb07d7b3a564";
	byte_order = le;
	packet.header := struct { uint32_t magic; uint8_t uuid[16]; uint32_t stream_id; };
};
env { tracer_name = "test"; hostname = "h"; vpid = -3; };
typedef uint8_t byte_t, pair_t[2];
typealias floating_point { exp_dig = 8; mant_dig = 24; byte_order = be; align = 32; } := float;
enum signed_e : integer { size = 16; signed = true; } { NEG = -5 ... -1, ZERO, "quoted label" = 10, };
struct aligned_s { byte_t a; pair_t b[3]; float c; string { encoding = UTF8; } d; } align(64);
variant named_v { byte_t x; struct aligned_s y; };
callsite { name = "e"; func = "main"; file = "app.c"; line = 12; ip = 0x4005d0; };
clock { name = c; freq = 1000000000; offset = 0; };
struct compact_header {
	enum : uint5_t { compact = 0 ... 30, extended = 31 } id;
	variant <id> {
		struct { uint27_t timestamp; } compact;
		struct { uint32_t id; ts_t timestamp; } extended;
	} v;
} align(8);
stream {
	id = 0;
	packet.context := struct { ts_t timestamp_begin; ts_t timestamp_end; uint64_t content_size;
		uint64_t packet_size; uint64_t packet_seq_num; uint64_t events_discarded; };
	event.header := struct { uint32_t id; ts_t timestamp; };
};
stream {
	id = 1;
	event.header := struct compact_header;
	event.context := struct { floating_point { exp_dig = 11; mant_dig = 53; align = 64; } f; };
};
event {
	name = "e";
	id = 0;
	stream_id = 0;
	fields := struct {
		enum : uint8_t { A = 0, B = 1 } tag;
		variant <tag> { uint8_t A; uint32_t B; } v;
		enum : uint8_t { X = 0 } e;
		uint8_t len;
		uint8_t seq[len];
		string s;
	};
};
event {
	name = "f";
	id = 3;
	stream_id = 1;
	fields := struct { integer { size = 3; align = 1; signed = true; byte_order = be; } bits[4]; string t; };
};
"""


def member(name, data=b""):
    n = name.encode()
    return bytes([len(n)]) + n + bytes([0]) + struct.pack("<I", len(data)) + data


def stream():
    s = bytearray(NPKT * PKT)
    for k in range(NPKT):
        b = 1000 * (k + 1)
        p = k * PKT
        struct.pack_into("<I16sIQQQQQQ", s, p, 0xC1FC1FC1, UUID, 0, b, b + 100, CONTENT * 8, PKT * 8, k, 0)
        for e in range(2):
            o = p + EV0 + e * EVSZ
            struct.pack_into("<IQBBBBBB3s", s, o, 0, b + 10 * (e + 1), 0, 7, 0, 2, 1, 2, b"hi\0")
    return bytes(s)


def index():
    d = struct.pack(">IIII", 0xC1F1DCC1, 1, 1, 72)
    for k in range(NPKT):
        b = 1000 * (k + 1)
        d += struct.pack(">QQQQQQQQQ", k * PKT, PKT * 8, CONTENT * 8, b, b + 100, 0, 0, 0, k)
    return d


def packetized(text):
    t = text.encode()
    half = len(t) // 2
    out = b""
    for part in (t[:half], t[half:]):
        size = (37 + len(part) + 1023) // 1024 * 1024
        h = struct.pack("<I16sIIIBBBBB", 0x75D11D57, UUID, 0, (37 + len(part)) * 8, size * 8, 0, 0, 0, 1, 8)
        out += (h + part).ljust(size, b"\0")
    return out


def stream1():
    """Stream class 1: no packet context (the file is one packet), compact headers (5-bit id,
    27-bit timestamp, then the extended form), a double, 3-bit big-endian fields."""
    s = bytearray(struct.pack("<I16sI", 0xC1FC1FC1, UUID, 1))
    s += struct.pack("<I", (100 << 5) | 3)            # compact: id 3, timestamp 100
    s += bytes(32 - len(s)) + struct.pack("<d", 1.5)   # the double, aligned on 8 bytes
    s += bytes([0b10111000, 0b01100000])               # bits: -3, -2, 0, -2 (3-bit, big-endian)
    s += b"ok\0"
    s += bytes([31])                                   # extended: id 31 in 5 bits
    s += struct.pack("<IQ", 3, 200)
    s += bytes((-len(s)) % 8) + struct.pack("<d", 2.5)
    s += bytes([0b00100100, 0]) + b"ok\0"
    return bytes(s)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    s, idx = stream(), index()
    meta = HEAD.encode()
    cut = bytearray(s)
    struct.pack_into("<I", cut, PKT, 0x12345678)
    seqs = bytearray(s)
    struct.pack_into("<B", seqs, EV0 + EVSZ + 15, 200)
    seeds = {
        "plain": [("metadata", meta), ("stream_0", s), ("stream_0.idx", idx), ("stream_1", stream1())],
        "packetized": [("metadata", packetized(HEAD)), ("stream_0", s), ("stream_0.idx", idx)],
        "metadata-cut": [("metadata", packetized(HEAD)[:1500]), ("stream_0", s)],
        "packet-cut": [("metadata", meta), ("stream_0", s[:300]), ("stream_0.idx", idx)],
        "trailing-zeros": [("metadata", meta), ("stream_0", s + bytes(100))],
        "bad-magic": [("metadata", meta), ("stream_0", bytes(cut)), ("stream_0.idx", idx[:100])],
        "sequence-overrun": [("metadata", meta), ("stream_0", bytes(seqs))],
        "syntax": [("metadata", meta.replace(b"} v;", b"] v;", 1)), ("stream_0", s)],
        "ctf2": [("metadata", b"\x1e{\"type\":\"preamble\",\"version\":2}\n")],
    }
    for name, members in seeds.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(b"".join(member(n, d) for n, d in members))
    if len(sys.argv) > 2:
        tsdl = sys.argv[2]
        os.makedirs(tsdl, exist_ok=True)
        body = HEAD.split("\n", 1)[1]  # the harness writes the signature itself
        texts = {
            "tsdl-plain": body,
            "tsdl-syntax": body.replace("} v;", "] v;", 1),
            "tsdl-semantic": body.replace("id = 1;", "id = 0;", 1),
            "tsdl-big-endian": body.replace("byte_order = le;", "byte_order = be;", 1),
        }
        for name, text in texts.items():
            with open(os.path.join(tsdl, name), "wb") as f:
                f.write(text.encode())


if __name__ == "__main__":
    main()
