#!/bin/sh
# SPDX-License-Identifier: MIT
# The entry of the pre-commit hook tracefsck-check (.pre-commit-hooks.yaml): tracefsck check over
# what pre-commit passes (the hook's args, then the staged files its pattern matched). A file of
# a perf.data directory (DIR/data, DIR/data.N) stands for its directory, checked once, whole.
# TRACEFSCK names the tracefsck to run (default: the one on PATH). Exit status: check's.
set -u
bin=${TRACEFSCK:-tracefsck}
command -v "$bin" > /dev/null 2>&1 ||
	{ echo "tracefsck-check: '$bin' not found: install tracefsck (its README, \"Install\") or set TRACEFSCK" >&2; exit 1; }
dirs="
"
for a; do
	shift
	case $a in
	*/data | */data.[0-9]*)
		dir=${a%/*}
		case ${dir##*/} in
		perf.data*)
			case $dirs in *"
$dir
"*) continue ;; esac
			dirs="$dirs$dir
"
			a=$dir
			;;
		esac
		;;
	esac
	set -- "$@" "$a"
done
exec "$bin" check "$@"
