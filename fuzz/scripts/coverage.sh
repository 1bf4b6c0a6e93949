#!/bin/sh
# SPDX-License-Identifier: MIT
# Line coverage of validate/ and repair/ from replaying the corpus through every harness
# (clang source-based coverage, llvm-cov). usage: fuzz/scripts/coverage.sh [CORPUS_DIR...]
set -u
out=build/coverage
cmake -S . -B "$out" -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DTFK_BUILD_TESTS=OFF -DTFK_WERROR=OFF \
	-DCMAKE_C_FLAGS="-fprofile-instr-generate -fcoverage-mapping" >/dev/null && cmake --build "$out" -j2 >/dev/null || exit 1
rm -f "$out"/*.profraw
dirs=${*:-$(awk '$1 == "check" { for (i = 2; i <= NF; i++) printf "corpus/%s ", $i }' corpus/MANIFEST)}
for h in check repair; do
	LLVM_PROFILE_FILE="$out/$h-%p.profraw" "$out/fuzz/fuzz_${h}_replay" $dirs >/dev/null
done
LLVM_PROFILE_FILE="$out/sinks-%p.profraw" "$out/fuzz/fuzz_sinks_replay" corpus/sinks >/dev/null
LLVM_PROFILE_FILE="$out/format-%p.profraw" "$out/fuzz/fuzz_format_replay" corpus/format >/dev/null
llvm-profdata merge -sparse "$out"/*.profraw -o "$out/all.profdata"
llvm-cov report "$out/fuzz/fuzz_check_replay" -object "$out/fuzz/fuzz_repair_replay" -object "$out/fuzz/fuzz_sinks_replay" \
	-object "$out/fuzz/fuzz_format_replay" \
	-instr-profile="$out/all.profdata" validate repair | tail -n +1
