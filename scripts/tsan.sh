#!/bin/sh
# SPDX-License-Identifier: MIT
# ThreadSanitizer over the CPU walks on worker threads: the unit test that compares threaded
# and single-threaded reports, the uftrace tests (a task read ahead on a thread), the CTF tests
# (a stream's packets decoded ahead on walkers: test_packets_ahead_agree; lanes on 2 threads:
# test_ctf_lane), then the
# command on every trace.dat seed and regression input, whose output with --threads 4 must be
# byte-identical to --threads 1.
set -u
cd "$(dirname "$0")/.."
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1:second_deadlock_stack=1}"
cmake --preset tsan >/dev/null && cmake --build --preset tsan -j2 --target test_threads test_uftrace test_ctf test_ctf_lane tracefsck >/dev/null || {
	echo "FAIL: tsan build"; exit 1; }
build/tsan/tests/test_threads || exit 1
build/tsan/tests/test_uftrace || exit 1
build/tsan/tests/test_ctf || exit 1
build/tsan/tests/test_ctf_lane || exit 1
bin=build/tsan/tracefsck
n=0 fail=0
for f in corpus/tracedat/* corpus/tracedat-fuzz/* corpus/regress/*; do
	case "$f" in *README*) continue ;; esac
	one=$("$bin" check --json --no-libtraceevent --threads 1 "$f" 2>&1)
	many=$("$bin" check --json --no-libtraceevent --threads 4 "$f" 2>&1)
	rc=$?
	n=$((n + 1))
	if [ "$one" != "$many" ] || [ $rc -ge 64 ]; then
		echo "FAIL: $f: --threads 4 differs from --threads 1 (or the run failed, exit $rc)"
		fail=1
	fi
done
echo "tsan: $n files, threaded output identical: $([ $fail = 0 ] && echo yes || echo no)"
exit $fail
