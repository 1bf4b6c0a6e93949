#!/bin/sh
# SPDX-License-Identifier: MIT
# `cmake --install` into a temporary prefix, then build a program against the installed
# library with pkg-config alone (shared and static) and compare what it finds with the CLI.
# usage: install.sh BUILD_DIR TDW_MAKE WORK_DIR
set -u
wrap=${TFK_WRAP:-}
build=$1 make=$2 work=$3
prefix=$work/prefix
rm -rf "$work" && mkdir -p "$work" || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }
cmake --install "$build" --prefix "$prefix" > "$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }

libdir=$(dirname "$(find "$prefix" -name libtracefsck.so.0 | head -1)")
[ -d "$libdir" ] || { bad "no libtracefsck.so.0 installed"; exit 1; }
for f in bin/tracefsck include/tracefsck/tracefsck.h include/tracefsck/policy.h \
	share/man/man1/tracefsck.1 share/man/man7/tracefsck-faults.7 share/doc/tracefsck/LICENSE \
	share/bash-completion/completions/tracefsck share/zsh/site-functions/_tracefsck; do
	[ -f "$prefix/$f" ] || bad "$f not installed"
done
for f in "$libdir/libtracefsck.a" "$libdir/libtracefsck.so" "$libdir/pkgconfig/tracefsck.pc"; do
	[ -e "$f" ] || bad "$f not installed"
done
for h in "$(dirname "$0")"/../../include/tracefsck/*.h; do
	cmp -s "$h" "$prefix/include/tracefsck/$(basename "$h")" || bad "header $(basename "$h") not installed as is"
done
grep -q '^\.TH TRACEFSCK-FAULTS 7' "$prefix/share/man/man7/tracefsck-faults.7" || bad "tracefsck-faults(7) is not a man page"
grep -q 'core\.input\.unrecognised' "$prefix/share/man/man7/tracefsck-faults.7" || bad "tracefsck-faults(7) lacks the catalog"
grep -q '^complete -F _tracefsck tracefsck$' "$prefix/share/bash-completion/completions/tracefsck" || bad "the bash completion installed is not one"
head -1 "$prefix/share/zsh/site-functions/_tracefsck" | grep -q '^#compdef tracefsck$' || bad "the zsh completion installed is not one"

# The shared library exports exactly the functions the public headers declare.
grep -ohE '\btfk_[a-z_0-9]+\(' "$prefix"/include/tracefsck/*.h | tr -d '(' | sort -u > "$work/api"
nm -D --defined-only "$libdir/libtracefsck.so" | awk '$2 == "T" { sub(/@.*/, "", $3); print $3 }' | sort -u > "$work/exported"
[ "$(wc -l < "$work/api")" -ge 20 ] || bad "found only $(wc -l < "$work/api") API functions in the headers"
diff "$work/api" "$work/exported" > "$work/api.diff" || { bad "exports differ from the headers (< headers, > library)"; cat "$work/api.diff"; }

export PKG_CONFIG_PATH="$libdir/pkgconfig"
version=$("$prefix/bin/tracefsck" --version | awk 'NR == 1 { print $2 }')
[ "$(pkg-config --modversion tracefsck)" = "$version" ] || bad "pkg-config version $(pkg-config --modversion tracefsck), binary $version"
cc=${CC:-cc}
src=$(dirname "$0")/../install/embed.c
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Werror $(pkg-config --cflags tracefsck) "$src" -o "$work/embed" $(pkg-config --libs tracefsck) ||
	{ bad "building against the installed shared library"; exit 1; }
# shellcheck disable=SC2046
$cc -std=c11 -Wall -Werror $(pkg-config --cflags tracefsck) "$src" -o "$work/embed-static" "$libdir/libtracefsck.a" \
	$(pkg-config --static --libs tracefsck | sed 's/-ltracefsck//') || { bad "building against the static library"; exit 1; }
LD_LIBRARY_PATH="$libdir" ldd "$work/embed" | grep -q "libtracefsck.so.0 => $libdir" || bad "embed does not load the installed libtracefsck.so.0"
ldd "$work/embed-static" | grep -q libtracefsck && bad "embed-static still needs libtracefsck.so"

"$make" damaged "$work/damaged.dat" || exit 1
"$prefix/bin/tracefsck" check --json "$work/damaged.dat" > "$work/cli.json"
sed -n 's/.*"code":"\([^"]*\)","severity":"\([^"]*\)","offset":\([0-9]*\).*/\1 \3 \2/p' "$work/cli.json" > "$work/cli.txt"
[ -s "$work/cli.txt" ] || bad "the CLI found nothing in the damaged fixture"
events=$(sed -n 's/.*"type":"summary".*"events":\([0-9]*\).*/\1/p' "$work/cli.json")
[ "${events:-0}" -gt 0 ] || bad "the CLI walked no event of the damaged fixture"
for prog in embed embed-static; do
	LD_LIBRARY_PATH="$libdir" $wrap "$work/$prog" "$work/damaged.dat" > "$work/$prog.out" || bad "$prog failed"
	grep -v '^verdict ' "$work/$prog.out" | diff "$work/cli.txt" - > /dev/null || bad "$prog and the CLI disagree"
	grep -q "^verdict corrupt, $events events, library $version\$" "$work/$prog.out" || bad "$prog verdict: $(tail -1 "$work/$prog.out")"
done
first=$(head -1 "$work/cli.txt" | cut -d' ' -f1)
LD_LIBRARY_PATH="$libdir" $wrap "$work/embed" "$work/damaged.dat" "$first" > "$work/policy.out"
grep -q "^$first " "$work/policy.out" && bad "embed with $first disabled still lists it"
[ $fail = 0 ] && echo "ok: installed into $prefix; shared and static builds via pkg-config agree with the CLI ($(wc -l < "$work/cli.txt") findings)"
exit $fail
