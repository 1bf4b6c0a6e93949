#!/bin/sh
# SPDX-License-Identifier: MIT
# Each format of validate/formats/formats.list built alone (-DTFK_FORMATS=<fmt>, debug, in
# build/format-<fmt>/): the tool, the libraries, repair, the harnesses and the tests of that
# format, which then run (ctest -L format_<fmt>: its unit tests, its end-to-end scripts but
# those labelled long, its corpus replays). A format that needs another's folder fails to
# build here.
# usage: per-format.sh [FORMAT...]   (default: every format of the list)
set -u
cd "$(dirname "$0")/.."
formats=${*:-$(grep -E '^[a-z0-9]+$' validate/formats/formats.list)}
jobs=${TFK_JOBS:-2}
failed=""
for f in $formats; do
	dir=build/format-$f
	t=$(date +%s)
	echo "=== $f"
	if cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=gcc -DTFK_WERROR=ON "-DTFK_FORMATS=$f" >/dev/null &&
		cmake --build "$dir" -j"$jobs" >"$dir.log" 2>&1 &&
		(cd "$dir" && ctest -L "format_$f" -LE "slow|recording|long" -j"$jobs" --output-on-failure); then
		echo "=== $f: ok ($(($(date +%s) - t)) s)"
	else
		[ -f "$dir.log" ] && tail -20 "$dir.log"
		echo "=== $f: FAILED ($(($(date +%s) - t)) s)"
		failed="$failed $f"
	fi
done
if [ -n "$failed" ]; then
	echo "per-format: failed:$failed" >&2
	exit 1
fi
echo "per-format: every format builds and passes its tests alone"
