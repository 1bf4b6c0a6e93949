#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what is missing, builds tracefsck, and checks the example traces it ships:
# a clean one (exit 0) and a damaged one (exit 4).
set -u
cd "$(dirname "$0")/.."
./scripts/install-deps.sh || exit 8
cmake --preset release >/dev/null && cmake --build --preset release -j2 >/dev/null || { echo "build failed"; exit 8; }
echo "\$ build/release/tracefsck check examples/clean.v6.dat"
build/release/tracefsck check examples/clean.v6.dat; clean=$?
echo "(exit $clean)"
echo
echo "\$ build/release/tracefsck check examples/damaged.v6.dat"
build/release/tracefsck check examples/damaged.v6.dat; damaged=$?
echo "(exit $damaged)"
[ "$clean" = 0 ] && [ "$damaged" = 4 ]
