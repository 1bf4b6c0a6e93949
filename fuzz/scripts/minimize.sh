#!/bin/sh
# SPDX-License-Identifier: MIT
# Minimise a corpus folder into a smaller one that keeps its coverage (libFuzzer -merge=1),
# or minimise one crashing input. usage:
#   fuzz/scripts/minimize.sh HARNESS IN_DIR OUT_DIR
#   fuzz/scripts/minimize.sh HARNESS --crash FILE
set -u
h=$1
cmake --preset fuzz >/dev/null && cmake --build --preset fuzz -j2 >/dev/null || exit 1
if [ "$2" = --crash ]; then
	exec build/fuzz/fuzz/fuzz_$h -minimize_crash=1 -runs=10000 -exact_artifact_path="$3.min" "$3"
fi
mkdir -p "$3"
exec build/fuzz/fuzz/fuzz_$h -merge=1 -rss_limit_mb=256 "$3" "$2"
