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
rm -rf "$work" && mkdir -p "$work"
fail=0 proven="" ran=0

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
patch() { printf "$3" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc status=none; }

# reported FILE CODE READER EFFECT [SIGNAL]: check --json lists CODE with that hazard.
reported() {
	sig=${5:+,\"signal_name\":\"$5\"}
	"$bin" check --json "$1" | grep "\"code\":\"$2\"" |
		grep -q "\"reader\":\"$3\",\"min_version\":\"[^\"]*\",\"max_version\":\"[^\"]*\",\"effect\":\"$4\"$sig"
}

# prove NAME FILE CODE READER EFFECT SIGNAL|- RC DETAIL: the reader's exit status was RC
# (128 + signal for a crash, 124 for a hang under timeout, ...) and check reports the hazard.
prove() {
	name=$1 file=$2 code=$3 reader=$4 effect=$5 sig=$6 rc=$7 detail=$8
	signame=""
	want=""
	case $effect in
	crash) signame=$sig want=$((128 + $(sig_num "$sig"))) ;;
	hang) want=124 ;;
	esac
	ok=1
	[ -n "$want" ] && [ "$rc" != "$want" ] && ok=0
	if [ $ok = 1 ] && reported "$file" "$code" "$reader" "$effect" "$signame"; then
		echo "ok: $name: $reader $effect${sig:+ $sig} ($detail; exit $rc), reported on $code"
		proven="$proven
$code|$reader|$effect|$signame"
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
	timeout "$t" "$@" >/dev/null 2>&1
	echo $?
}

# ---- trace-cmd report (trace.dat) ----------------------------------------------------------
if usable trace-cmd; then
	ran=1
	d=$work/tracedat
	mkdir -p "$d"
	"$make" clean "$d/clean.dat" && "$make" seed-options "$d/options.dat" && "$make" seed-guest "$d/guest.dat" &&
		"$make" seed-v7none "$d/v7.dat" || { echo "FAIL: tdw-make"; exit 1; }
	# Offsets below are the fixture writer's layout, as `tracefsck describe` lists it.
	f=$d/pagesize0.dat; cp "$d/clean.dat" "$f"; patch "$f" 14 '\0\0\0\0'
	prove "page size 0" "$f" tracedat.header.bad-page-size "trace-cmd report" crash SIGFPE "$(run 10 trace-cmd report "$f")" "init_cpu divides by it"
