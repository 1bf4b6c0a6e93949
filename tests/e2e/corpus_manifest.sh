#!/bin/sh
# SPDX-License-Identifier: MIT
# corpus/MANIFEST against the harness list and the corpus folders: every harness has seeds,
# every folder feeds a harness, none is empty, and every regression input has its note.
# usage: corpus_manifest.sh PROJECT_ROOT
set -u
root=$1 fail=0
bad() { echo "FAIL: $*"; fail=1; }
harnesses=$(sed -n 's/^set(TFK_HARNESSES \(.*\))$/\1/p' "$root/fuzz/CMakeLists.txt")
[ -n "$harnesses" ] || bad "no TFK_HARNESSES in fuzz/CMakeLists.txt"
listed=$(grep -v '^#' "$root/corpus/MANIFEST" | awk 'NF { print $1 }' | sort)
[ "$(echo $harnesses | tr ' ' '\n' | sort)" = "$listed" ] ||
	bad "harnesses [$harnesses] but MANIFEST lists [$(echo $listed)]"
folders=$(grep -v '^#' "$root/corpus/MANIFEST" | awk 'NF { for (i = 2; i <= NF; i++) print $i }' | sort -u)
for d in $folders; do
	n=$(find "$root/corpus/$d" -type f ! -name README.md 2>/dev/null | wc -l)
	[ "$n" -gt 0 ] || bad "corpus/$d is listed but missing or empty"
done
for d in "$root"/corpus/*/; do
	d=$(basename "$d")
	echo "$folders" | grep -qx "$d" || bad "corpus/$d feeds no harness in MANIFEST"
done
for f in "$root"/corpus/regress/*; do
	f=$(basename "$f")
	[ "$f" = README.md ] && continue
	grep -q "^| $f |" "$root/corpus/regress/README.md" || bad "corpus/regress/$f has no line in its README"
done
for f in $(sed -n 's/^| \([a-z]*-[0-9a-f]*\) |.*/\1/p' "$root/corpus/regress/README.md"); do
	[ -f "$root/corpus/regress/$f" ] || bad "README names corpus/regress/$f, which is missing"
done
big=$(find "$root/corpus" -type f -size +64k)
[ -z "$big" ] || bad "seeds over 64 KiB: $big"
[ $fail = 0 ] && echo "ok: $(echo $harnesses | wc -w) harnesses, $(echo $folders | wc -w) corpus folders, regress notes complete"
exit $fail
