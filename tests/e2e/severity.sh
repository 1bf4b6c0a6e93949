#!/bin/sh
# SPDX-License-Identifier: MIT
# Severities a gate can use: sched-irq.v6.dat with one CPU data page zeroed between pages that
# hold events (131 of its 946 events gone) is a warning at the page by default (docs/ci.md says
# why), which --fail-on=warning, --severity and the policy file docs/ci.md shows all fail; that
# policy is a valid gate that passes the pristine sample.
# usage: severity.sh TRACEFSCK SOURCE_DIR SAMPLES_DIR WORK_DIR
set -u
wrap=${TFK_WRAP:-} # e.g. valgrind, in front of every tracefsck invocation
bin=$1 src=$2 samples=$3 work=$4
rm -rf "$work" && mkdir -p "$work" || exit 1
command -v xz > /dev/null || { echo "SKIP: xz is not installed"; exit 77; }
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

xz -dc "$samples/tracedat/sched-irq.v6.dat.xz" > "$work/v6.dat" || exit 1
# cpu1's second page (cpu1 starts at 0x71d000): 4096 zeros
cp "$work/v6.dat" "$work/zeroed.dat"
head -c 4096 /dev/zero | dd of="$work/zeroed.dat" bs=4096 seek=$((0x71e000 / 4096)) conv=notrunc status=none || exit 1

$wrap "$bin" check --json --no-libtraceevent "$work/zeroed.dat" > "$work/zeroed.json"
rc=$?
[ $rc = 0 ] && ok "a zeroed page is a warning by default (exit 0)" || bad "a zeroed page: exit $rc, expected 0"
grep -q '"code":"tracedat.page.zeroed","severity":"warning","offset":7462912,' "$work/zeroed.json" &&
	ok "tracedat.page.zeroed is a warning at 0x71e000" || { bad "no warning tracedat.page.zeroed at 0x71e000"; cat "$work/zeroed.json"; }
grep -q '"type":"summary".*"events":815,' "$work/zeroed.json" && ok "815 of 946 events left" ||
	{ bad "not 815 events"; grep '"type":"summary"' "$work/zeroed.json"; }
$wrap "$bin" check --no-libtraceevent --fail-on=warning "$work/zeroed.dat" > /dev/null 2>&1
rc=$?
[ $rc = 4 ] && ok "--fail-on=warning fails it (exit 4)" || bad "--fail-on=warning on the zeroed page: exit $rc"
# a gate may re-grade it, one rule at a time
$wrap "$bin" check --no-libtraceevent --severity tracedat.page.zeroed=error "$work/zeroed.dat" > /dev/null 2>&1
rc=$?
[ $rc = 4 ] && ok "--severity tracedat.page.zeroed=error fails it" || bad "--severity ...=error: exit $rc"

# the policy file of docs/ci.md: the first fenced block after "## What fails a gate"
awk '/^## What fails a gate/ { on = 1 } on && /^```/ { if (inside) exit; inside = 1; next } inside' "$src/docs/ci.md" > "$work/ci.policy"
grep -q '^severity tracedat.page.events-lost=error' "$work/ci.policy" || { bad "no policy example in docs/ci.md"; cat "$work/ci.policy"; }
$wrap "$bin" check --policy "$work/ci.policy" "$work/v6.dat" > "$work/policy.out" 2>&1
rc=$?
[ $rc = 0 ] && ok "the docs' policy passes the pristine sample" || { bad "the docs' policy: exit $rc"; cat "$work/policy.out"; }
grep -q 'tracedat.format.unparsable' "$work/policy.out" && bad "the allow-list did not silence tracedat.format.unparsable"
$wrap "$bin" check --policy "$work/ci.policy" "$work/zeroed.dat" > /dev/null 2>&1
rc=$?
[ $rc = 4 ] && ok "the docs' policy fails the zeroed page" || bad "the docs' policy on the zeroed page: exit $rc"
rm -f "$work/v6.dat" "$work/zeroed.dat" "$work/fixed.dat"
exit $fail
