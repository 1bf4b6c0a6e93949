#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The run steps of the tracefsck GitHub Action (action.yml), kept here so that they can be run
# and tested anywhere (tests/e2e/action.sh runs them the way the runner does):
#
#   scripts/action.sh install   build tracefsck from this source tree, or take TFK_BIN;
#                               output "tracefsck" is the binary's path
#   scripts/action.sh check     check the files TFK_PATHS matches: annotations (check --github),
#                               a step summary, SARIF (check --sarif), repaired copies, outputs
#
# Inputs, one environment variable each (action.yml maps every input to one):
#   TFK_PATHS        globs relative to the workspace, separated by newlines or spaces; bash globs
#                    with ** across directories; a glob that starts with ! leaves out the files
#                    it matches (there * matches across directories too). A directory is
#                    searched for the trace units in it (trace files, trace directories of
#                    every format, archives), each checked and reported on its own; a path
#                    inside a directory also matched is left to that directory.
#   TFK_POLICY       a policy file (check --policy)
#   TFK_FAIL_ON      error (default: a corrupt or incomplete file fails the step), warning
#                    (warnings fail it too), none (report only: only a usage or internal error fails)
#   TFK_SARIF        a path to write one SARIF 2.1.0 document to, for every file; empty: none
#   TFK_REPAIR       true: write a repaired copy of every corrupt file under TFK_REPAIR_DIR, at its
#                    own relative path (tracefsck repair; the originals are never changed)
#   TFK_REPAIR_DIR   default tracefsck-repaired
#   TFK_IF_NO_FILES  error (default), warn or ignore: what happens when TFK_PATHS matches nothing
#   TFK_BIN          the tracefsck to use (install: skip the build; check: default tracefsck on PATH)
# and what GitHub sets: GITHUB_WORKSPACE, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_PATH, RUNNER_TEMP.
#
# Outputs (GITHUB_OUTPUT): files-checked, clean, corrupt, incomplete, failed (warnings failed
# the gate), exit-code (tracefsck's, fsck(8) bits), sarif, repaired. The step fails per TFK_FAIL_ON.
set -u
export LC_ALL=C

die() { # die MESSAGE: an error annotation, and the step fails
	printf '::error title=tracefsck::%s\n' "$(escape_data "$1")"
	exit 1
}
# Workflow command escaping (GitHub's rules): data escapes % CR LF; properties also : and ,
escape_data() { local s=${1//%/%25}; s=${s//$'\r'/%0D}; printf '%s' "${s//$'\n'/%0A}"; }
escape_property() { local s; s=$(escape_data "$1"); s=${s//:/%3A}; printf '%s' "${s//,/%2C}"; }
output() { # output NAME VALUE: a step output (printed when not on a runner)
	if [[ -n ${GITHUB_OUTPUT:-} ]]; then printf '%s=%s\n' "$1" "$2" >> "$GITHUB_OUTPUT"; else printf 'output %s=%s\n' "$1" "$2"; fi
}
summary() { # summary TEXT...: lines for the step summary (dropped when not on a runner)
	[[ -n ${GITHUB_STEP_SUMMARY:-} ]] && printf '%s\n' "$@" >> "$GITHUB_STEP_SUMMARY"
	return 0
}
# A file name as Markdown table text: nothing but printable ASCII, no | ` < > [ ] \ *
md_name() { local s=${1//[^[:alnum:] .\/_+=@,:#~-]/_}; printf '%s' "$s"; }
# Text for a table cell: printable, no '|' to end the cell, no markup (tracefsck's own words).
md_cell() {
	local s=${1//[^[:print:]]/?}
	s=${s//|/\\|}; s=${s//\`/\'}; s=${s//</\&lt;}; s=${s//>/\&gt;}
	printf '%s' "$s"
}
# A file name for the log: printable ASCII only (a name must not start a workflow command).
log_name() { printf '%s' "${1//[^[:print:]]/?}"; }
# glob PATTERN: what it matches, into the array "matches" (globstar and nullglob are on).
glob() {
	local IFS=
	# shellcheck disable=SC2206 # the pattern is meant to expand, and only to expand
	matches=($1)
}

install() {
	if [[ -n ${TFK_BIN:-} ]]; then
		local bin
		bin=$(command -v -- "$TFK_BIN") || die "the tracefsck input '$TFK_BIN' is not a command or an executable"
		"$bin" --version || die "$bin --version failed"
		output tracefsck "$bin"
		return 0
	fi
	local src build pkgs missing="" p
	src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
	build=${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tracefsck-build
	# What the README's Install section installs: the build tools and the libraries.
	pkgs="cmake make gcc libc6-dev pkgconf libzstd-dev zlib1g-dev liblzma-dev libarchive-dev libtraceevent-dev"
	if command -v dpkg-query > /dev/null; then
		for p in $pkgs; do
			dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
		done
	else
		die "not a Debian or Ubuntu runner: install tracefsck yourself and give its path as the tracefsck input"
	fi
	if [[ -n $missing ]]; then
		local sudo=""
		[[ $(id -u) = 0 ]] || sudo=sudo
		echo "::group::apt-get install$missing"
		$sudo apt-get update -qq && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing ||
			die "apt-get install$missing failed"
		echo "::endgroup::"
	fi
	echo "::group::build tracefsck from $src"
	cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=Release -DTFK_BUILD_TESTS=OFF &&
		cmake --build "$build" --target tracefsck --parallel "${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)}" ||
		die "building tracefsck failed (see the log above)"
	echo "::endgroup::"
	"$build/tracefsck" --version || die "the tracefsck just built does not run"
	[[ -n ${GITHUB_PATH:-} ]] && echo "$build" >> "$GITHUB_PATH"
	output tracefsck "$build/tracefsck"
}

# The files TFK_PATHS names, in order, each once, into the array "files".
collect() {
	local -a words excluded=() matches nomatch=()
	local -A seen=()
	local word f x
	shopt -s globstar nullglob
	IFS=$' \t\r\n' read -r -d '' -a words <<< "${TFK_PATHS:-}"
	files=()
	for word in "${words[@]}"; do
		[[ $word == '!'* ]] && excluded+=("${word:1}")
	done
	for word in "${words[@]}"; do
		[[ $word == '!'* ]] && continue
		glob "$word"
		local n=0
		for f in "${matches[@]}"; do
			f=${f%/}
			[[ $f == -* ]] && f=./$f # never taken for an option
			[[ -d $f || -f $f ]] || continue
			for x in "${excluded[@]}"; do
				# shellcheck disable=SC2053 # x is a pattern
				[[ $f == $x || $f == ./$x ]] && continue 2
			done
			n=$((n + 1))
			[[ -n ${seen[$f]:-} ]] && continue
			seen[$f]=1
			files+=("$f")
		done
		[[ $n = 0 ]] && nomatch+=("$word")
	done
	for word in "${nomatch[@]}"; do
		printf '::warning title=tracefsck::paths: %s matched no trace file\n' "$(escape_data "$word")"
	done
	# A path inside a directory also given is that directory's to find (as part of a trace
	# directory, or as a unit of a folder): checking it again alone would judge a member twice.
	local -a kept=()
	local d inside
	for f in "${files[@]}"; do
		inside=
		for d in "${files[@]}"; do
			[[ $d != "$f" && -d $d && $f == "$d"/* ]] && { inside=1; break; }
		done
		[[ -z $inside ]] && kept+=("$f")
	done
	files=("${kept[@]}")
}

check() {
	local bin=${TFK_BIN:-tracefsck} fail_on=${TFK_FAIL_ON:-error} repair=${TFK_REPAIR:-false}
	local repair_dir=${TFK_REPAIR_DIR:-tracefsck-repaired} if_none=${TFK_IF_NO_FILES:-error} sarif=${TFK_SARIF:-}
	command -v -- "$bin" > /dev/null || die "tracefsck not found ('$bin'): run the install step first"
	bin=$(command -v -- "$bin")
	case $fail_on in error | warning | none) ;; *) die "fail-on must be error, warning or none, not '$fail_on'" ;; esac
	case ${repair,,} in true | yes | on | 1) repair=true ;; false | no | off | 0 | '') repair=false ;;
	*) die "repair must be true or false, not '$repair'" ;; esac
	case $if_none in error | warn | ignore) ;; *) die "if-no-files-found must be error, warn or ignore, not '$if_none'" ;; esac
	if [[ -n ${GITHUB_WORKSPACE:-} ]]; then cd "$GITHUB_WORKSPACE" || die "cannot enter $GITHUB_WORKSPACE"; fi
	local tmp
	tmp=$(mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/tracefsck.XXXXXX") || die "mktemp failed"
	# shellcheck disable=SC2064 # expand now
	trap "rm -rf '$tmp'" EXIT

	local -a files args=()
	collect
	if [[ ${#files[@]} = 0 ]]; then
		for o in files-checked clean corrupt incomplete failed exit-code repaired; do output "$o" 0; done
		output sarif ""
		case $if_none in
		error) die "paths matched no trace file: $(printf '%s' "${TFK_PATHS:-}" | tr '\n' ' ')" ;;
		warn) printf '::warning title=tracefsck::paths matched no trace file; nothing was checked\n' ;;
		esac
		summary "## tracefsck: no trace file matched" ""
		return 0
	fi
	if [[ -n ${TFK_POLICY:-} ]]; then
		[[ -f $TFK_POLICY ]] || die "policy file '$TFK_POLICY' not found"
		args+=(--policy "$TFK_POLICY")
	fi
	[[ $fail_on = warning ]] && args+=(--fail-on=warning)

	# One pass in JSON Lines: a summary object per file, in file order, and the exit status.
	"$bin" check --json "${args[@]}" -- "${files[@]}" > "$tmp/report.jsonl" 2> "$tmp/stderr"
	local status=$?
	if ((status & 16)); then
		cat "$tmp/stderr" >&2
		die "tracefsck check: usage error: $(head -1 "$tmp/stderr")"
	fi
	awk '/^\{"type":"summary"/ {
		name = "?"; if (match($0, /"file":".*","verdict":"/)) name = substr($0, RSTART + 8, RLENGTH - 21)
		v = "?"; if (match($0, /"verdict":"[a-z]*"/)) v = substr($0, RSTART + 11, RLENGTH - 12)
		fmt = "-"; if (match($0, /"format":"[^"]*"/)) fmt = substr($0, RSTART + 10, RLENGTH - 11)
		out = name "\t" v "\t" fmt
		n = split("errors warnings notes listed events", keys, " ")
		for (i = 1; i <= n; i++) { x = 0; if (match($0, "\"" keys[i] "\":[0-9]+")) x = substr($0, RSTART + length(keys[i]) + 3, RLENGTH - length(keys[i]) - 3); out = out "\t" x }
		print out
	}' "$tmp/report.jsonl" > "$tmp/verdicts.tsv"
	# One line per trace unit (a folder or an archive holds several), named as check names it.
	local -a units verdict format errors warnings notes listed events
	local u v fm e w nt l ev i=0
	while IFS=$'\t' read -r u v fm e w nt l ev; do
		units[i]=$u verdict[i]=$v format[i]=$fm errors[i]=$e warnings[i]=$w notes[i]=$nt listed[i]=$l events[i]=$ev
		i=$((i + 1))
	done < "$tmp/verdicts.tsv"
	if [[ $i = 0 ]]; then
		cat "$tmp/stderr" >&2
		die "tracefsck check reported on no trace unit of ${#files[@]} paths (exit $status)"
	fi
	local n=$i clean=0 corrupt=0 incomplete=0 failed=0
	for ((i = 0; i < n; i++)); do
		case ${verdict[i]} in
		clean) clean=$((clean + 1)) ;; corrupt) corrupt=$((corrupt + 1)) ;;
		incomplete) incomplete=$((incomplete + 1)) ;; failed) failed=$((failed + 1)) ;;
		esac
		printf 'tracefsck: %s: %s (%s errors, %s warnings, %s notes)\n' "$(log_name "${units[i]}")" "${verdict[i]}" \
			"${errors[i]}" "${warnings[i]}" "${notes[i]}"
	done
	local totals="$n trace units checked: $clean clean, $corrupt corrupt, $incomplete incomplete"
	((failed)) && totals="$totals, $failed failed (warnings fail this gate)"

	# The step summary: totals and a table of every file, then check --github's own section for
	# each file with findings (at most 50), written by tracefsck itself.
	local noisy=0
	summary "## tracefsck: $totals" "" "| trace unit | verdict | errors | warnings | notes | format | events |" "|---|---|---|---|---|---|---|"
	for ((i = 0; i < n; i++)); do
		if ((i < 500)); then
			summary "| \`$(md_name "${units[i]}")\` | ${verdict[i]} | ${errors[i]} | ${warnings[i]} | ${notes[i]} | ${format[i]} | ${events[i]} |"
		fi
		[[ ${listed[i]} != 0 || ${verdict[i]} != clean ]] && noisy=$((noisy + 1))
	done
	((n > 500)) && summary "" "... and $((n - 500)) more trace units (the outputs and the SARIF count them all)."
	summary ""
	# Annotations on the units with findings: workflow commands on stdout, for GitHub to show
	# (check --github keeps within GitHub's limits per step and writes its own summary sections).
	if ((noisy)); then
		"$bin" check --github "${args[@]}" -- "${files[@]}" 2> "$tmp/github.stderr"
		local gh=$?
		((gh & (16 | 128))) && { cat "$tmp/github.stderr" >&2; die "tracefsck check --github failed (exit $gh)"; }
	fi

	if [[ -n $sarif ]]; then
		mkdir -p -- "$(dirname -- "$sarif")" || die "cannot create the folder of $sarif"
		"$bin" check --sarif "${args[@]}" -- "${files[@]}" > "$sarif" 2> "$tmp/sarif.stderr"
		local sr=$?
		if ((sr & (16 | 128))) || [[ ! -s $sarif ]]; then
			cat "$tmp/sarif.stderr" >&2
			die "tracefsck check --sarif failed (exit $sr)"
		fi
		echo "tracefsck: SARIF written to $(log_name "$sarif")"
	fi

	local repaired=0
	if [[ $repair = true ]] && ((corrupt)); then
		summary "### tracefsck repair" "" "| trace unit | result | repaired copy | kept and lost |" "|---|---|---|---|"
		local rel out rc what token unit account
		for ((i = 0; i < n; i++)); do
			[[ ${verdict[i]} = corrupt ]] || continue
			if [[ ! -e ${units[i]} ]]; then # a trace inside an archive: repair the unpacked copy by hand
				summary "| \`$(md_name "${units[i]}")\` | not repaired: inside an archive | | |"
				continue
			fi
			unit=${units[i]}
			rel=${unit#/}
			rel=${rel#./}
			[[ /$rel/ == */../* ]] && rel=$(basename -- "$unit")
			out=$repair_dir/$rel
			mkdir -p -- "$(dirname -- "$out")" || die "cannot create the folder of $out"
			# Repair's report starts its lines with the file's name: commands stay off meanwhile.
			echo "::group::tracefsck repair $(escape_data "$unit")"
			token=tracefsck-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
			echo "::stop-commands::$token"
			"$bin" repair -q "$unit" -o "$out" > "$tmp/repair.out" 2>&1
			rc=$?
			cat "$tmp/repair.out"
			echo "::$token::"
			echo "::endgroup::"
			case $rc in
			1) what="repaired"; repaired=$((repaired + 1)) ;;
			0) what="nothing to repair" ;;
			4) what="nothing to salvage"; printf '::warning file=%s,title=tracefsck repair::nothing in this file could be salvaged\n' "$(escape_property "$unit")" ;;
			128) what="internal error"; printf '::error file=%s,title=tracefsck repair::the repaired copy did not re-check clean (a tracefsck bug: please report it)\n' "$(escape_property "$unit")" ;;
			*) what="failed (exit $rc)"; printf '::warning file=%s,title=tracefsck repair::repair failed (exit %s)\n' "$(escape_property "$unit")" "$rc" ;;
			esac
			[[ $rc = 1 ]] || rm -f -- "$out"
			# the salvage account by kind, as repair's report ends it: events, units and metadata kept and lost
			account=$(sed -n 's/^.*: account: //p' "$tmp/repair.out" | tail -n 1)
			summary "| \`$(md_name "$unit")\` | $what | $([[ $rc = 1 ]] && printf '`%s`' "$(md_name "$out")") | $(md_cell "$account") |"
		done
		summary ""
	fi

	output files-checked "$n"
	output clean "$clean"
	output corrupt "$corrupt"
	output incomplete "$incomplete"
	output failed "$failed"
	output exit-code "$status"
	output sarif "$sarif"
	output repaired "$repaired"
	echo "tracefsck: $totals (exit $status)"
	if ((status & 128)); then die "tracefsck hit an internal error (exit $status): please report it"; fi
	if [[ $fail_on != none ]] && ((status != 0)); then
		die "$totals"
	fi
	return 0
}

case ${1:-} in
install) install ;;
check) check ;;
*) echo "usage: $0 install|check (inputs in TFK_* variables: see the head of this script)" >&2; exit 16 ;;
esac
