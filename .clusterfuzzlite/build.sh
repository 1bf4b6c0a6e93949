#!/bin/bash -eu
# SPDX-License-Identifier: MIT
# OSS-Fuzz / ClusterFuzzLite build script. It follows their contract: the compiler and flags
# they set ($CC $CFLAGS, $CXX $CXXFLAGS: sanitizers and coverage instrumentation), the engine
# they link ($LIB_FUZZING_ENGINE), the source under $SRC, scratch space in $WORK, and in $OUT for
# every harness of fuzz/ (the names and their seed folders are corpus/MANIFEST's):
#   fuzz_<h>                   the fuzzer
#   fuzz_<h>_seed_corpus.zip   the files of its corpus/MANIFEST folders
#   fuzz_<h>.dict              its dictionary, generated at build time from the library's own
#                              constants (fuzz/gen_dict.c), as for the fuzz preset
#   fuzz_<h>.options           libFuzzer options (input size, time per input, dictionary)
# The fuzzers run on OSS-Fuzz's base-runner image, which holds none of the libraries tracefsck
# uses, so libzstd, zlib and libtraceevent are linked statically. libtraceevent is built here
# with the same flags from $SRC/libtraceevent when the Dockerfile cloned it (Ubuntu 20.04, under
# base-builder, has no package of it); otherwise the system's libtraceevent.a is used.
# tests/e2e/ossfuzz_build.sh runs this script with the variables set as OSS-Fuzz sets them.
set -euo pipefail # also when run as "bash build.sh"
: "${CC:?}" "${CFLAGS?}" "${LIB_FUZZING_ENGINE:?}" "${OUT:?}" "${SRC:?}" "${WORK:?}"
CXX=${CXX:-clang++}
CXXFLAGS=${CXXFLAGS:-$CFLAGS}

# The source: this script's tree, or $SRC/tracefsck when OSS-Fuzz copied the script to $SRC.
# Physical paths: CMake must not see the tree through a link that also leads into $WORK.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)
if [[ -f $here/../corpus/MANIFEST ]]; then src=$(cd "$here/.." && pwd -P); else src=$(cd "$SRC/tracefsck" && pwd -P); fi
build=$WORK/tracefsck-build
cd "$WORK"
jobs=${TFK_BUILD_JOBS:-$(nproc)}
# Programs run during the build (the dictionary generator) carry the sanitizers too.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} UBSAN_OPTIONS=${UBSAN_OPTIONS:-halt_on_error=1}

static_lib() { # static_lib NAME: the path of NAME (libfoo.a) where the compiler finds it, or fail
	local f
	# shellcheck disable=SC2086 # CFLAGS is a list of flags
	f=$("$CC" $CFLAGS -print-file-name="$1")
	[[ $f == /* && -f $f ]] || { echo "build.sh: $1 not found (install its -dev package)" >&2; return 1; }
	echo "$f"
}
cflags=$CFLAGS
if [[ -f $SRC/libtraceevent/Makefile ]]; then
	mkdir -p "$WORK/libtraceevent/include"
	make -C "$SRC/libtraceevent" O="$WORK/libtraceevent" CC="$CC" EXTRA_CFLAGS="$CFLAGS" -j"$jobs" libtraceevent.a
	traceevent=$WORK/libtraceevent/lib/libtraceevent.a
	# its public headers alone (its include/ also holds stand-ins for kernel headers)
	cp -r "$SRC/libtraceevent/include/traceevent" "$WORK/libtraceevent/include/"
	cflags="$cflags -I$WORK/libtraceevent/include"
else
	traceevent=$(static_lib libtraceevent.a)
fi
zstd=$(static_lib libzstd.a)
lzma=$(static_lib liblzma.a)

# Archives (libarchive, with its own codecs) are left out: the runner image has no libarchive.
cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE= \
	-DCMAKE_C_COMPILER="$CC" -DCMAKE_C_FLAGS="$cflags" -DCMAKE_CXX_COMPILER="$CXX" -DCMAKE_CXX_FLAGS="$CXXFLAGS" \
	-DTFK_LIB_FUZZING_ENGINE="$LIB_FUZZING_ENGINE" -DTFK_FUZZ=OFF -DTFK_SANITIZE=OFF -DTFK_BUILD_TESTS=OFF -DTFK_WERROR=OFF -DTFK_ARCHIVES=OFF \
	-DZSTD_LIBRARY="$zstd" -DLZMA_LIBRARY="$lzma" -DZLIB_USE_STATIC_LIBS=ON -DTRACEEVENT_LIBRARY="$traceevent;dl;m"

harnesses=$(awk '/^[a-z]/ { print $1 }' "$src/corpus/MANIFEST")
targets=(fuzz-dicts)
for h in $harnesses; do targets+=("fuzz_$h"); done
cmake --build "$build" --parallel "$jobs" --target "${targets[@]}"

for h in $harnesses; do
	f=fuzz_$h
	cp "$build/fuzz/$f" "$OUT/$f"
	cp "$build/fuzz/$h.dict" "$OUT/$f.dict"
	printf '[libfuzzer]\nmax_len = 70000\ntimeout = 10\ndict = %s.dict\n' "$f" > "$OUT/$f.options"
	# The seed corpus: every file of the harness's folders, named folder-file so names stay apart.
	folders=()
	for d in $(awk -v h="$h" '$1 == h { for (i = 2; i <= NF; i++) print $i }' "$src/corpus/MANIFEST"); do
		folders+=("$src/corpus/$d")
	done
	rm -f "$OUT/${f}_seed_corpus.zip"
	python3 - "$OUT/${f}_seed_corpus.zip" "${folders[@]}" <<'PY'
import os, sys, zipfile
out, folders = sys.argv[1], sys.argv[2:]
with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
    for d in folders:
        for name in sorted(os.listdir(d)):
            path = os.path.join(d, name)
            if os.path.isfile(path) and name != "README.md":
                z.write(path, os.path.basename(d) + "-" + name)
PY
done
echo "build.sh: $(echo $harnesses | wc -w) fuzzers in $OUT"
