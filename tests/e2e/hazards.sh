#!/bin/sh
# SPDX-License-Identifier: MIT
# Every reader hazard in the catalog, reproduced: for each one a damaged file (a fixture made
# by tdw-make, or a copy of a real sample, patched here), the named reader run on it under
# timeout with its effect asserted (the signal, a hang, exit 0 with data missing...), and
# tracefsck check on the same file reporting the code with that hazard. At the end, every
# hazard `tracefsck explain` lists for a reader that is installed here must have been proven.
# A reader that is absent, or of another version than the hazards name, is skipped; with none
# of them usable the test is skipped (77).
# usage: hazards.sh TRACEFSCK TDW_MAKE SAMPLES_DIR WORK_DIR
set -u
bin=$1 make=$2 samples=$3 work=$4
rm -rf "${work:?}" && mkdir -p "$work"
fail=0 proven="" ran=0
# shellcheck disable=SC3045 # dash and bash both know ulimit -c and -s
ulimit -c 0 # the crashes are the point: no core files

# The installed version of each reader, or nothing when it is absent.
have() { command -v "$1" >/dev/null 2>&1; }
tc_ver=$(have trace-cmd && trace-cmd --version 2>&1 | sed -n 's/^trace-cmd version \([0-9.]*\).*/\1/p' | head -1)
perf_ver=$(have perf && perf --version 2>&1 | sed -n 's/^perf version \([0-9]*\.[0-9]*\).*/\1/p')
uf_ver=$(have uftrace && uftrace --version 2>&1 | sed -n 's/^uftrace v\([0-9.]*\).*/\1/p')
bt_ver=$(have babeltrace2 && babeltrace2 --version 2>&1 | sed -n 's/^Babeltrace \([0-9.]*\).*/\1/p')

# usable READER: the reader is installed at the version the catalog's hazards name.
usable() {
	case $1 in
	trace-cmd) [ "$tc_ver" = 3.1.6 ] ;;
	perf) [ "$perf_ver" = 6.1 ] ;;
	uftrace) [ "$uf_ver" = 0.13 ] ;;
	babeltrace2) [ "$bt_ver" = 2.0.4 ] ;;
	*) false ;;
	esac
}

# patch FILE OFFSET PRINTF-BYTES: overwrite bytes in place.
# shellcheck disable=SC2059 # the bytes are given as printf escapes
patch() { printf "$3" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc status=none; }

# reported FILE CODE READER EFFECT [SIGNAL]: check --json lists CODE with that hazard; prints
# the conditions of the hazards that matched, one a line.
reported() {
	want_sig=${5:+,\"signal\":[0-9]+,\"signal_name\":\"$5\"}
	"$bin" check --json "$1" | grep "\"code\":\"$2\"" |
		grep -oE "\{\"reader\":\"$3\",\"min_version\":\"[^\"]*\",\"max_version\":\"[^\"]*\",\"effect\":\"$4\"${want_sig}[,}][^}]*" |
		sed -n 's/.*"condition":"\(.*\)"$/\1/p' | sort -u | grep .
}

# prove NAME FILE CODE READER EFFECT SIGNAL|- RC DETAIL: the reader's exit status was RC
# (128 + signal for a crash, 124 for a hang under timeout, ...) and check reports the hazard.
prove() {
	name=$1 file=$2 code=$3 reader=$4 effect=$5 sig=${6#-} rc=$7 detail=$8
	signame=""
	want=""
	case $effect in
	crash) signame=$sig want=$((128 + $(sig_num "$sig"))) ;;
	hang) want=124 ;;
	esac
	ok=1
	# A hang that ignores SIGTERM ends with the SIGKILL of run's timeout -k: a hang all the same.
	[ "$effect" = hang ] && [ "$rc" = 137 ] && rc=124
	[ -n "$want" ] && [ "$rc" != "$want" ] && ok=0
	if [ $ok = 1 ] && conds=$(reported "$file" "$code" "$reader" "$effect" "$signame"); then
		echo "ok: $name: $reader $effect${sig:+ $sig} ($detail; exit $rc), reported on $code"
		proven="$proven
$(printf '%s\n' "$conds" | sed "s/^/$code|$reader|$effect|$signame|/")"
	else
		echo "FAIL: $name: $reader exit $rc (wanted ${want:-see detail}: $detail); tracefsck says:"
		"$bin" check --json "$file" | grep '"type":"finding"' | head -5
		fail=1
	fi
}

sig_num() {
	case $1 in
	SIGSEGV) echo 11 ;; SIGFPE) echo 8 ;; SIGABRT) echo 6 ;; SIGBUS) echo 7 ;; SIGTRAP) echo 5 ;; *) echo 0 ;;
	esac
}

# run SECONDS CMD...: the reader's exit status, its output thrown away.
run() {
	t=$1; shift
	timeout -k 3 "$t" "$@" >/dev/null 2>&1
	echo $?
}

# ---- how the outputs show a hazard (no reader needed) -----------------------------------------
o=$work/outputs
mkdir -p "$o"
"$make" clean "$o/clean.dat" || { echo "FAIL: tdw-make"; exit 1; }
cp "$o/clean.dat" "$o/ps0.dat"; patch "$o/ps0.dat" 14 '\0\0\0\0'
line=$("$bin" check "$o/ps0.dat" | grep 'tracedat.header.bad-page-size')
case $line in
*"(expected a power of two from 1024 to 134217728, found 0) {hazard: trace-cmd report 3.1.6 crash (SIGFPE)}")
	echo "ok: text marks the finding with its hazard" ;;
*) echo "FAIL: text line: $line"; fail=1 ;;
esac
want="$o/ps0.dat: hazard: trace-cmd report 3.1.6 crash (SIGFPE) through tracedat.header.bad-page-size at 0xe
$o/ps0.dat: 1 reader hazard
$o/clean.dat: 0 reader hazards"
got=$("$bin" check --hazards "$o/ps0.dat" "$o/clean.dat"); rc=$?
if [ "$got" = "$want" ] && [ $rc = 4 ]; then echo "ok: check --hazards summary (exit 4)"; else
	echo "FAIL: check --hazards (exit $rc):"; printf '%s\n' "$got"; fail=1; fi
"$bin" check --sarif "$o/ps0.dat" > "$o/ps0.sarif"
if python3 - "$o/ps0.sarif" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["runs"][0]
rules = {r["id"]: r for r in run["tool"]["driver"]["rules"]}
rule = rules["tracedat.header.bad-page-size"]["properties"]
res = run["results"][0]["properties"]
assert "security" in rule["tags"] and rule["security-severity"] == "8.0", rule
assert [r for r in rules if "security" in rules[r]["properties"]["tags"]] == ["tracedat.header.bad-page-size"]
assert res["tags"] == ["security"] and res["hazards"][0]["signal_name"] == "SIGFPE", res
PY
then echo "ok: SARIF rule tagged security, security-severity 8.0, hazards in the result's properties"
else echo "FAIL: SARIF hazards"; fail=1; fi
# A file whose findings have no hazard renders as before: no mark, no tag, no key.
cp "$o/clean.dat" "$o/ps4097.dat"; patch "$o/ps4097.dat" 14 '\001\020\0\0'
if "$bin" check "$o/ps4097.dat" "$o/clean.dat" | grep -qF "{hazard:" || "$bin" check --json "$o/ps4097.dat" | grep -qF "\"hazards\":" ||
	"$bin" check --sarif "$o/ps4097.dat" | grep -q '"security'; then
	echo "FAIL: page size 4097 (no hazard) shows a hazard"; fail=1
else echo "ok: findings without hazards render without them"; fi

# ---- trace-cmd report (trace.dat) ----------------------------------------------------------
if usable trace-cmd; then
	ran=1
	d=$work/tracedat
	mkdir -p "$d"
	for kind in clean seed-options seed-guest seed-v7none; do
		"$make" "$kind" "$d/$kind.dat" || { echo "FAIL: tdw-make $kind"; exit 1; }
	done
	mv "$d/seed-options.dat" "$d/options.dat"; mv "$d/seed-guest.dat" "$d/guest.dat"; mv "$d/seed-v7none.dat" "$d/v7.dat"
	# Offsets below are the fixture writer's layout, as `tracefsck describe` lists it.
	f=$d/pagesize0.dat; cp "$d/clean.dat" "$f"; patch "$f" 14 '\0\0\0\0'
	prove "page size 0" "$f" tracedat.header.bad-page-size "trace-cmd report" crash SIGFPE \
		"$(run 10 trace-cmd report "$f")" "init_cpu divides by it"
	f=$d/kallsyms.dat; cp "$d/clean.dat" "$f"; patch "$f" 0x666 '\377\377\377\377'
	prove "kallsyms size 0xffffffff" "$f" tracedat.file.truncated "trace-cmd report" crash SIGSEGV \
		"$(run 10 trace-cmd report "$f")" "malloc(size + 1) wraps"
	f=$d/printk.dat; cp "$d/clean.dat" "$f"; patch "$f" 0x6aa '\377\377\377\377'
	prove "printk size 0xffffffff" "$f" tracedat.file.truncated "trace-cmd report" crash SIGSEGV \
		"$(run 10 trace-cmd report "$f")" "malloc(size + 1) wraps"
	f=$d/cpustat0.dat; cp "$d/clean.dat" "$f"; patch "$f" 0x74b '\0\0\0\0'
	prove "CPUSTAT size 0" "$f" tracedat.option.bad-payload "trace-cmd report" crash SIGSEGV \
		"$(run 10 trace-cmd report "$f")" "buf[size - 1]"
	f=$d/procmaps0.dat; cp "$d/options.dat" "$f"; patch "$f" 0x82f '\0\0\0\0'
	prove "PROCMAPS size 0" "$f" tracedat.option.bad-payload "trace-cmd report" crash SIGSEGV \
		"$(run 10 trace-cmd report "$f")" "buf[size - 1]"
	f=$d/hook.dat; cp "$d/options.dat" "$f"
	patch "$f" 0x7f8 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\0'
	prove "malformed HOOK" "$f" tracedat.option.bad-payload "trace-cmd report" crash SIGSEGV \
		"$(run 10 trace-cmd report "$f")" "NULL hook dereferenced"
	f=$d/guest-neg.dat; cp "$d/guest.dat" "$f"
	patch "$f" 0x7fa '\377\377\377\377'
	prove "GUEST vCPU -1" "$f" tracedat.option.bad-payload "trace-cmd report" crash SIGABRT \
		"$(run 10 trace-cmd report "$f")" "heap write before the array; glibc aborts"
	# DONE pointing back at the first OPTIONS section: the recursion runs until the stack is
	# gone. With the default 8 MiB stack that takes seconds; a 512 KiB one shows it at once.
	f=$d/done-loop.dat; cp "$d/v7.dat" "$f"; patch "$f" 0x863 '\013\007\0\0\0\0\0\0'
	# shellcheck disable=SC3045
	rc=$(ulimit -s 512; run 20 trace-cmd report "$f")
	prove "DONE loop" "$f" tracedat.options.loop "trace-cmd report" crash SIGSEGV "$rc" "handle_option_done recursion"
	f=$d/commit-ff.dat; cp "$d/clean.dat" "$f"
	head -c 4096 /dev/zero | tr '\0' '\377' | dd of="$f" bs=1 seek=$((0x2000)) conv=notrunc status=none
	prove "page of 0xff" "$f" tracedat.page.bad-commit "trace-cmd report" crash SIGSEGV \
		"$(run 10 trace-cmd report "$f")" "missed count read past the page"
	f=$d/padding.dat; cp "$d/clean.dat" "$f"; patch "$f" 0x2010 '\075\0\0\0\374\377\377\377'
	prove "padding of 0xfffffffc" "$f" tracedat.page.event-overrun "trace-cmd report" hang - \
		"$(run 3 trace-cmd report "$f")" "__next_event never advances"
	# lost NAME FILE CODE DETAIL: report exits 0 but prints fewer events than the intact file.
	count() { timeout 20 trace-cmd report "$1" 2>/dev/null | grep -acE '\[[0-9]+\] *[0-9]+(\.[0-9]+)?: '; }
	whole=$(count "$d/clean.dat")
	lost() {
		rc=$(run 20 trace-cmd report "$2"); shown=$(count "$2")
		if [ "$rc" = 0 ] && [ "$shown" -lt "$whole" ]; then
			prove "$1" "$2" "$3" "trace-cmd report" silent-loss - 0 "$4: $shown of $whole events, exit 0"
		else
			echo "FAIL: $1: trace-cmd report exit $rc, $shown of $whole events"; fail=1
		fi
	}
	f=$d/commit-len.dat; cp "$d/clean.dat" "$f"; patch "$f" 0x2008 '\377\377\377\007\0\0\0\0'
	lost "length past cpu0 page 1" "$f" tracedat.page.bad-commit "cpu0 ends at page 1"
	f=$d/cpucount1.dat; cp "$d/clean.dat" "$f"; patch "$f" 0x7b5 '\001\0\0\0'
	lost "CPUCOUNT 1 of 2" "$f" tracedat.cpu.count-mismatch "cpu1 dropped"
	f=$d/v7-as-6.dat; cp "$d/v7.dat" "$f"; patch "$f" 10 6
	lost "v7 file labelled 6" "$f" tracedat.section.bad-tag "nothing printed"
	# The endianness byte flipped: every size read in the wrong byte order.
	f=$d/endian.dat; cp "$d/clean.dat" "$f"; patch "$f" 12 '\001'
	lost "endianness byte flipped" "$f" tracedat.file.truncated "nothing printed"
	# The page size with a bit flipped upwards: 8192, and 69632 (not a power of two).
	f=$d/pagesize8k.dat; cp "$d/clean.dat" "$f"; patch "$f" 14 '\0\040'
	lost "page size 8192 on 4096-byte pages" "$f" tracedat.header.bad-page-size "a fraction printed"
	f=$d/pagesize68k.dat; cp "$d/clean.dat" "$f"; patch "$f" 14 '\0\020\001'
	lost "page size 69632 on 4096-byte pages" "$f" tracedat.header.bad-page-size "a fraction printed"
	# Cut inside kallsyms (at 0x66a, 64 bytes) and inside the UNAME option's payload (at 0x71a).
	f=$d/cut-kallsyms.dat; head -c $((0x66a + 40)) "$d/clean.dat" > "$f"
	lost "cut inside kallsyms" "$f" tracedat.file.truncated "nothing printed"
	f=$d/cut-option.dat; head -c $((0x714 + 20)) "$d/clean.dat" > "$f"
	lost "cut inside an option" "$f" tracedat.file.truncated "nothing printed"
else
	echo "skip: trace-cmd ${tc_ver:-absent}, hazards name 3.1.6"
fi

# ---- perf report (perf.data) ---------------------------------------------------------------
if usable perf; then
	ran=1
	d=$work/perf
	mkdir -p "$d"
	for kind in perf-le perf-killed perf-features; do
		"$make" "$kind" "$d/$kind.data" || { echo "FAIL: tdw-make $kind"; exit 1; }
	done
	mv "$d/perf-le.data" "$d/clean.data"; mv "$d/perf-killed.data" "$d/killed.data"; mv "$d/perf-features.data" "$d/features.data"
	# A killed recording: data.size 0. perf exits 0 and shows nothing of the samples the file holds.
	f=$d/killed.data
	whole=$(timeout 20 perf script -i "$d/clean.data" 2>/dev/null | grep -c .)
	shown=$(timeout 20 perf script -i "$f" 2>/dev/null | grep -c .)
	rc=$(run 20 perf report --stdio -i "$f")
	if [ "$rc" = 0 ] && [ "$shown" = 0 ] && [ "$whole" -gt 0 ]; then
		prove "killed recording" "$f" perf.data.size-zero "perf report" silent-loss - 0 "exit 0, 0 lines of perf script, $whole with data.size set"
	else
		echo "FAIL: killed recording: perf report exit $rc, perf script $shown lines (intact: $whole)"; fail=1
	fi
	# Offsets: the features fixture's EVENT_DESC and BUILD_ID sections, as `tracefsck describe` lists them.
	f=$d/event-desc.data; cp "$d/features.data" "$f"; patch "$f" 0xddb '\377\377\377\377'
	prove "EVENT_DESC nre 0xffffffff" "$f" perf.feature.bad-payload "perf report" crash SIGABRT \
		"$(run 20 perf report --stdio -i "$f")" "calloc(nre + 1) wraps; glibc aborts"
	f=$d/build-id.data; cp "$d/features.data" "$f"; patch "$f" $((0xb37 + 6)) '\370\377'
	head -c 70000 /dev/zero | tr '\0' A >> "$f" # bytes for the oversized read to take
	prove "BUILD_ID record of 0xfff8 bytes" "$f" perf.feature.bad-payload "perf report" crash SIGABRT \
		"$(run 20 perf report --stdio -i "$f")" "stack smashing detected"
	# A real recording cut on a page boundary inside its data section.
	f=$d/cut.data; head -c 8192 "$samples/perf/cpu-clock-callchain.perf.data" > "$f"
	prove "data cut at 8 KiB" "$f" perf.file.truncated "perf report" crash SIGBUS \
		"$(run 20 perf report --stdio -i "$f")" "mmap past EOF"
	# data.offset's second byte flipped (0x108 -> 0xff08 in a 29 KB recording): past the end of the file.
	f=$d/data-offset.data; cp "$samples/perf/cpu-clock-callchain.perf.data" "$f"; chmod u+w "$f"; patch "$f" 41 '\377'
	prove "data.offset past the end of the file" "$f" perf.header.bad-data-offset "perf report" crash SIGBUS \
		"$(run 20 perf report --stdio -i "$f")" "the data mapped past EOF"
else
	echo "skip: perf ${perf_ver:-absent}, hazards name 6.1"
fi

# ---- uftrace replay (uftrace.data) -----------------------------------------------------------
if usable uftrace; then
	ran=1
	d=$work/uftrace
	mkdir -p "$d"
	# copy DIR: a writable copy of the real recording, to damage
	copy() { rm -rf "${d:?}/${1:?}" && cp -r "$samples/uftrace/fib-args.uftrace.data" "$d/$1" && chmod -R u+w "$d/$1"; }
	copy perf-big; f=$d/perf-big; patch "$f/perf-cpu1.dat" 6 '\377\377'
	prove "perf-cpu record size 0xffff" "$f" uftrace.perf.bad-record "uftrace replay" crash SIGABRT \
		"$(run 20 uftrace replay -d "$f")" "fread of size - 8 into a stack union"
	copy perf-small; f=$d/perf-small; patch "$f/perf-cpu1.dat" 6 '\004\000'
	prove "perf-cpu record size 4" "$f" uftrace.perf.bad-record "uftrace replay" crash SIGABRT \
		"$(run 20 uftrace replay -d "$f")" "size - 8 wraps"
	copy sym-late; f=$d/sym-late
	(sed -n '4,$p' "$f/hello.sym"; echo "# symbols: 1") > "$f/sym.tmp" && mv "$f/sym.tmp" "$f/hello.sym"
	prove "late '# symbols: 1'" "$f" uftrace.sym.bad-count "uftrace replay" crash SIGSEGV \
		"$(run 20 uftrace replay -d "$f")" "symbol table sized from the late count"
	copy dlop; f=$d/dlop
	echo 'DLOP timestamp=678.882052426 tid=18985 sid=ffffffffffffffff base=7f0000000000 libname="/lib/x.so"' >> "$f/task.txt"
	prove "DLOP of an unknown session" "$f" uftrace.task.unknown-session "uftrace replay" crash SIGTRAP \
		"$(run 20 uftrace replay -d "$f")" "ASSERT(s)"
	kernel=$(dirname "$0")/../data/uftrace-kernel.uftrace.data
	f=$d/kernel-big; rm -rf "$f" && cp -r "$kernel" "$f" && chmod -R u+w "$f"
	printf 'TRACEFS: events/sched/big/format: 9000\n' >> "$f/kernel_header"
	head -c 9000 /dev/zero | tr '\000' x >> "$f/kernel_header"
	prove "kernel_header block of 9000 bytes" "$f" uftrace.kernel.too-long "uftrace replay" crash SIGABRT \
		"$(run 20 uftrace replay -d "$f")" "fread of the block into a PATH_MAX stack buffer"
	f=$d/fifo-map; copy fifo-map
	rm "$f/sid-260878a0ab9a6202.map" && mkfifo "$f/sid-260878a0ab9a6202.map"
	prove "a FIFO for a session map" "$f" uftrace.member.special "uftrace replay" hang - \
		"$(run 8 uftrace replay -d "$f")" "opens it and waits for a writer, SIGTERM ignored"
else
	echo "skip: uftrace ${uf_ver:-absent}, hazards name 0.13"
fi

# ---- babeltrace2 (CTF) -----------------------------------------------------------------------
if usable babeltrace2; then
	ran=1
	d=$work/ctf
	mkdir -p "$d"
	# copy NAME SAMPLE: a writable copy of a real LTTng trace, to damage
	copy() { rm -rf "${d:?}/${1:?}" && cp -r "$samples/ctf/$2" "$d/$1" && chmod -R u+w "$d/$1"; }
	s=ust/uid/0/64-bit
	whole=$(timeout 20 babeltrace2 "$samples/ctf/tracef-2000.lttng" 2>/dev/null | grep -c .)
	# Metadata cut inside its packet's content (2853 bytes of text in a 4096-byte packet).
	copy meta-cut tracef-2000.lttng; f=$d/meta-cut; truncate -s 2000 "$f/$s/metadata"
	prove "metadata cut in its packet" "$f" ctf.metadata.truncated babeltrace2 hang - \
		"$(run 3 babeltrace2 "$f")" "decode_packet's fread loop"
	# refused NAME FILE CODE DETAIL: babeltrace2 fails and shows no event of the trace.
	refused() {
		shown=$(timeout 20 babeltrace2 "$2" 2>/dev/null | grep -c .)
		rc=$(run 20 babeltrace2 "$2")
		if [ "$rc" != 0 ] && [ "$rc" != 124 ] && [ "$shown" = 0 ] && [ "$whole" -gt 0 ]; then
			prove "$1" "$2" "$3" babeltrace2 refuses - "$rc" "$4; 0 of $whole events"
		else
			echo "FAIL: $1: babeltrace2 exit $rc, $shown events shown"; fail=1
		fi
	}
	copy cut tracef-2000.lttng; f=$d/cut
	truncate -s $(($(stat -c %s "$f/$s/channel0_0") - 1000)) "$f/$s/channel0_0"
	refused "stream cut inside a packet" "$f" ctf.packet.truncated "Invalid packet size reported in file"
	copy zeros tracef-2000.lttng; f=$d/zeros; head -c 100 /dev/zero >> "$f/$s/channel0_1"
	refused "100 zero bytes after the last packet" "$f" ctf.packet.trailing "Invalid CTF magic number: magic=0"
	# packet 2 of ch0_0 says it is packet 50: packet 3 then regresses.
	copy seq multipacket-contexts.lttng; f=$d/seq; patch "$f/$s/ch0_0" $((8192 + 64)) '\062\0\0\0\0\0\0\0'
	rc=$(run 20 babeltrace2 "$f")
	said=$(timeout 20 babeltrace2 "$f" 2>&1 >/dev/null | grep -o 'discarded [0-9]\{19,\} packets' | head -1)
	if [ "$rc" = 0 ] && [ -n "$said" ]; then
		prove "packet_seq_num going back" "$f" ctf.packet.seq-regress babeltrace2 misread - 0 "exit 0, says '$said'"
	else
		echo "FAIL: packet_seq_num going back: babeltrace2 exit $rc, said '$said'"; fail=1
	fi
	# A valid trace of babeltrace's own test suite: a sequence in the event context sized by a
	# field of it (the note names the writer's shape, not damage).
	f=$samples/../foreign/ctf/babeltrace/succeed/meta-ctx-sequence
	if [ -d "$f" ]; then
		prove "sequence in the event context" "$f" ctf.metadata.context-sequence babeltrace2 crash SIGABRT \
			"$(run 20 babeltrace2 "$f")" "a valid trace; the assertion in update_field_class_stored_value_index"
	else
		echo "FAIL: no $f to prove the context-sequence hazard on"; fail=1
	fi
else
	echo "skip: babeltrace2 ${bt_ver:-absent}, hazards name 2.0.4"
fi

# ---- every hazard a usable reader is named in must have been proven above ---------------------
[ "$ran" = 1 ] || { echo "no reader at the versions the hazards name: skipped"; exit 77; }
for code in $("$bin" problems | awk '{ print $1 }'); do
	"$bin" explain "$code" | sed -n 's/^  \([a-z0-9 -]*[a-z0-9]\) [0-9][0-9.]*[^:]*: \([a-z-]*\)\( (\(SIG[A-Z]*\))\)\{0,1\}\(, when \(.*\)\)\{0,1\}$/\1|\2|\4|\6/p' |
	while IFS='|' read -r reader effect sig cond; do
		usable "${reader%% *}" || continue
		printf '%s\n' "$proven" | grep -qxF "$code|$reader|$effect|$sig|$cond" ||
			{ echo "FAIL: $code: '$reader $effect $sig when $cond' is claimed but no oracle above proves it"; exit 1; }
	done || fail=1
done
[ "$fail" = 0 ] && echo "ok: every hazard claimed for the readers installed here is proven:" \
	"$(printf '%s\n' "$proven" | grep -c .) hazards"
exit $fail
