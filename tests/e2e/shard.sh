#!/bin/sh
# SPDX-License-Identifier: MIT
# The shard contract (docs/ci.md, "Fleets") on the host, no container engine needed: over a
# folder of 300 mixed traces made from the samples (copies, cut and overwritten copies), N runs
# of check --shard I/N check disjoint sets whose union is every unit, and their JSON Lines and
# SARIF merged (tests/e2e/fleet_lib.sh, scripts/sarif-merge.jq) equal one run's, exit status
# included; the same for a list of paths (--files-from) and for the index taken from
# JOB_COMPLETION_INDEX; a file keeps its shard when others are added.
# The fleet runs use --no-libtraceevent: the contract is the same, at a fifth of the time.
# usage: shard.sh TRACEFSCK SAMPLES_DIR SOURCE_DIR WORK_DIR [COUNT]
# (COUNT traces instead of 300: sanitized builds take 39, at several times the cost each)
set -u
bin=$1 samples=$2 src=$3 work=$4 count=${5:-300}
[ -d "$samples" ] || { echo "no samples: skipped"; exit 77; }
command -v jq > /dev/null || { echo "FAIL: jq is not installed (scripts/install-deps.sh)"; exit 1; }
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
. "$src/tests/e2e/fleet_lib.sh"
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }
cd "$work" || exit 1
make_uploads "$samples" uploads "$count" || exit 1
opts="--no-libtraceevent -j2"
n=4

# check OUT ARGS...: check ARGS > OUT, the exit status in OUT.rc
check() { out=$1; shift; "$bin" check $opts "$@" > "$out"; echo $? > "$out.rc"; }
files() { jq -r 'select(.type == "summary") | .file' "$@"; }

check single.jsonl --json uploads
check single.sarif --sarif uploads
# what the shards are compared with: a run that saw every unit and found faults
[ "$(files single.jsonl | wc -l)" = "$count" ] && [ "$(cat single.jsonl.rc)" = 4 ] && [ "$(jq -c '.runs[0].artifacts | length' single.sarif)" = "$count" ] &&
	ok "one run: $count units, exit 4" || { bad "one run: $(files single.jsonl | wc -l) units (exit $(cat single.jsonl.rc)), not $count (exit 4)"; exit 1; }
# the folder holds clean and corrupt traces of every format
for v in clean corrupt; do
	c=$(jq -r "select(.type == \"summary\" and .verdict == \"$v\") | .format" single.jsonl | sort -u | wc -l)
	[ "$c" -ge 4 ] && ok "$v traces of $c formats" || bad "$v traces of only $c formats"
done

# shards I/N of the folder
i=0
while [ $i -lt $n ]; do
	check shard$i.jsonl --json --shard $i/$n uploads
	check shard$i.sarif --sarif --shard $i/$n uploads
	i=$((i + 1))
done
files shard*.jsonl | sort > in-shards
dups=$(uniq -d in-shards | wc -l)
[ "$dups" = 0 ] && ok "the $n shards are disjoint" || bad "$dups units in more than one shard"
files single.jsonl | sort | cmp -s - in-shards && ok "the shards' union is every unit" || bad "the shards' units are not the folder's"
for i in 0 1 2 3; do
	c=$(files shard$i.jsonl | wc -l)
	# a hash spreads them: no shard empty or holding half (of 300, 4 shards hold 68 to 80 here)
	[ "$c" -ge $((count / 10)) ] && [ "$c" -le $((count / 2)) ] || bad "shard $i holds $c units of $count: not spread"
done
merge_jsonl shard*.jsonl > merged.jsonl
cmp -s merged.jsonl single.jsonl && ok "the shards' JSON Lines merged are the one run's, byte for byte" ||
	{ bad "merged JSON Lines differ from the one run's"; diff merged.jsonl single.jsonl | head -5; }
jq -s -f "$src/scripts/sarif-merge.jq" shard*.sarif > merged.sarif
[ "$(jq -c . merged.sarif)" = "$(jq -c . single.sarif)" ] && ok "the shards' SARIF merged is the one run's (same JSON, same key order)" ||
	bad "merged SARIF differs from the one run's"
rcs=$(cat shard*.jsonl.rc)
# shellcheck disable=SC2086 # one status a word
[ "$(merge_status $rcs)" = "$(cat single.jsonl.rc)" ] && ok "the shards' exit statuses ($(echo $rcs)) ORed: $(cat single.jsonl.rc), the one run's" ||
	bad "shards' statuses $rcs do not make $(cat single.jsonl.rc)"
[ "$(jq '.runs[0].invocations[0].exitCode' merged.sarif)" = 4 ] || bad "merged SARIF's exit code is not 4"

# a shard of only clean traces exits 0; the whole still fails when one shard does
jq -r 'select(.type == "summary" and .verdict == "clean") | .file' single.jsonl > clean.list
check clean0.jsonl --json --shard 0/$n --files-from clean.list
[ "$(cat clean0.jsonl.rc)" = 0 ] && [ -s clean0.jsonl ] && ok "a shard of clean traces exits 0" || bad "a shard of clean traces exits $(cat clean0.jsonl.rc)"

# a list of paths: each path belongs to one shard whole (so only its shard opens it)
# (the folder's paths listed: the one run over them is the folder's, single.jsonl)
ls -d uploads/* > all.list
i=0
while [ $i -lt $n ]; do check list$i.jsonl --json --shard $i/$n --files-from all.list; i=$((i + 1)); done
files list?.jsonl | sort | uniq -d | grep -q . && bad "--files-from: a path in two shards"
merge_jsonl list?.jsonl | cmp -s - single.jsonl && ok "--files-from: the shards merged are the one run's" || bad "--files-from: merged shards differ"

# SARIF of a list with a path that cannot be read (exit 8, a tool notification): the merge puts
# the notification after its artifact and the run's executionSuccessful false, as one run does
{ head -n 40 all.list; echo uploads/missing.dat; } > some.list
check some.sarif --sarif --files-from some.list
i=0
while [ $i -lt $n ]; do check some$i.sarif --sarif --shard $i/$n --files-from some.list; i=$((i + 1)); done
jq -s -f "$src/scripts/sarif-merge.jq" some?.sarif > some-merged.sarif
[ "$(cat some.sarif.rc)" = 12 ] && [ "$(jq '.runs[0].invocations[0].toolExecutionNotifications | length' some.sarif)" -ge 1 ] &&
	[ "$(jq -c . some-merged.sarif)" = "$(jq -c . some.sarif)" ] &&
	ok "an unreadable input: the merged SARIF (notification, exit code 12, not successful) is one run's" ||
	bad "an unreadable input: merged SARIF differs from one run's (exit $(cat some.sarif.rc))"

# Kubernetes: --shard N with the index from JOB_COMPLETION_INDEX is --shard I/N
JOB_COMPLETION_INDEX=2 "$bin" check $opts --json --shard $n --files-from all.list > k8s2.jsonl
cmp -s k8s2.jsonl list2.jsonl && ok "JOB_COMPLETION_INDEX=2 --shard $n is --shard 2/$n" || bad "JOB_COMPLETION_INDEX=2 --shard $n is not shard 2"
"$bin" check --shard $n uploads > /dev/null 2> err; rc=$?
[ $rc = 16 ] && grep -q JOB_COMPLETION_INDEX err && ok "--shard N without JOB_COMPLETION_INDEX: usage error" || bad "--shard N without an index: exit $rc"
for v in 4/4 -1/4 1/0 x/4 1/ 1/4x; do
	"$bin" check --shard "$v" uploads > /dev/null 2>&1; rc=$?
	[ $rc = 16 ] || bad "--shard $v: exit $rc, not 16"
done

# stable: a file keeps its shard when others arrive (its shard is its name's, not its place's)
assign() { # assign DIR: "file shard" lines for every unit of DIR, names below DIR
	j=0
	while [ $j -lt $n ]; do
		"$bin" check --no-libtraceevent --json --shard $j/$n "$1" | jq -r "select(.type == \"summary\") | .file + \" $j\"" | sed "s|^$1/||"
		j=$((j + 1))
	done | sort
}
mkdir grown && cp -R uploads/00* grown/ && assign grown > before
cp -R uploads/01* uploads/02* grown/ && assign grown > after
moved=$(join before after | awk '$2 != $3' | wc -l)
[ "$(wc -l < before)" -gt 5 ] && [ "$moved" = 0 ] && ok "$(wc -l < before) files keep their shards when $(($(wc -l < after) - $(wc -l < before))) are added" ||
	bad "$moved files changed shard when others were added"
# and the folder's own path does not matter: the same files under another name, the same shards
mv grown elsewhere && assign elsewhere | cmp -s - after && ok "the same shards under another folder name" || bad "shards depend on the folder's name"

[ $fail = 0 ] && echo "ok: the shard contract holds over 300 traces"
exit $fail
