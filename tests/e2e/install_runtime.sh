#!/bin/sh
# SPDX-License-Identifier: MIT
# The README's "Install" section, run as written on a copy of the source, with every package
# the test suite needs but tracefsck does not (CMocka, clang, Valgrind, trace-cmd, perf, ...)
# hidden: in a private mount namespace, /usr is overlaid with whiteouts for their files (the
# whiteouts live in a tmpfs of that namespace; nothing outside it changes). Then the installed
# tracefsck is on PATH, checks the examples, and needs no library beyond the run-time packages
# the README names. Needs root and overlayfs (skipped, 77, otherwise).
# usage: install_runtime.sh SOURCE_DIR WORK_DIR
set -u
src=$(cd "$1" && pwd) work=$2
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
fail=0
bad() { echo "FAIL: $*"; fail=1; }

[ "$(id -u)" = 0 ] || { echo "not root: cannot hide packages in a mount namespace: skipped"; exit 77; }
unshare --mount --propagation private sh -c "mount -t tmpfs tmpfs '$work'" 2>/dev/null ||
	{ echo "unshare --mount or mount not permitted here: skipped"; exit 77; }

# The section's first sh block: the apt-get line (build packages) and the build line.
awk '/^## Install/ { s = 1; next } s && /^## / { exit } s && /^```sh/ { b = 1; next } b && /^```/ { exit } b' \
	"$src/README.md" > "$work/readme.sh"
apt=$(grep 'apt-get install' "$work/readme.sh")
cmds=$(grep -v 'apt-get install' "$work/readme.sh")
[ -n "$apt" ] && [ -n "$cmds" ] || { bad "no apt-get line or no commands in README's Install section"; cat "$work/readme.sh"; exit 1; }
build_pkgs=$(echo "$apt" | sed 's/.*apt-get install//' | tr ' ' '\n' | grep -v '^-' | grep .)
echo "README's build packages:" $build_pkgs
missing=""
for p in $build_pkgs; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"; done
[ -z "$missing" ] || { echo "README's build packages not installed here:$missing: skipped"; exit 77; }

# Test-only: what scripts/install-deps.sh installs beyond the README's list, and their libraries.
all=$(sed -n 's/^pkgs="\(.*\)"$/\1/p' "$src/scripts/install-deps.sh")
hide=""
for p in $all libcmocka0; do
	echo "$build_pkgs" | grep -qx "$p" && continue
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" && hide="$hide $p"
done
for p in libcmocka-dev valgrind; do
	echo "$build_pkgs" | grep -qx "$p" && bad "README's Install section needs the test-only package $p"
done
echo "hidden:$hide"
# Their files under /usr (merged /usr: /lib, /bin, /sbin are links into it), relative to /usr.
for p in $hide; do dpkg-query -L "$p"; done | sed -n 's#^/\(lib\|lib64\|bin\|sbin\)/#/usr/\1/#; s#^/usr/##p' | sort -u > "$work/hidden.list"
[ -s "$work/hidden.list" ] || { bad "no file of a test-only package found to hide"; exit 1; }

# The source, without build trees.
mkdir -p "$work/src" "$work/prefix"
tar -C "$src" --exclude=./build --exclude='./build-*' --exclude=./.git -cf - . | tar -C "$work/src" -xf - || exit 1
prefix=$work/prefix
echo "$cmds" | sed "s#/usr/local#$prefix#g; s#^sudo ##" > "$work/commands.sh"

cat > "$work/inner.sh" <<'EOF'
# Runs in the private mount namespace: hide the files, then follow the README.
set -u
work=$1
mount -t tmpfs tmpfs "$work/ovl" || exit 1
mkdir -p "$work/ovl/upper" "$work/ovl/work"
while IFS= read -r f; do
	if [ -L "/usr/$f" ] || [ -f "/usr/$f" ]; then
		mkdir -p "$work/ovl/upper/$(dirname "$f")" && mknod "$work/ovl/upper/$f" c 0 0 || exit 1
	fi
done < "$work/hidden.list"
mount -t overlay overlay -o "lowerdir=/usr,upperdir=$work/ovl/upper,workdir=$work/ovl/work" /usr || exit 1
for f in /usr/include/cmocka.h /usr/bin/valgrind /usr/bin/clang /usr/bin/trace-cmd; do
	[ -e "$f" ] && { echo "FAIL: $f still visible"; exit 1; }
done
echo "ok: test-only packages hidden ($(wc -l < "$work/hidden.list") files)"
cd "$work/src" || exit 1
status=0
while IFS= read -r cmd; do
	echo "\$ $cmd"
	PATH="$work/prefix/bin:$PATH" sh -c "$cmd" > "$work/cmd.log" 2>&1; rc=$?
	tail -3 "$work/cmd.log"; cat "$work/cmd.log" >> "$work/commands.log"
	echo "(exit $rc)"; echo "$rc" >> "$work/statuses"
done < "$work/commands.sh"
EOF
mkdir -p "$work/ovl"
unshare --mount --propagation private sh "$work/inner.sh" "$work" || { bad "the README's commands could not run"; exit 1; }

grep -q 'CMocka not found' "$work/commands.log" && echo "ok: configured without CMocka (tests not built)" ||
	bad "configure did not report CMocka missing: were the test packages hidden?"
# The build line succeeds; the last line (a check of the damaged example) finds its faults.
[ "$(sed -n 1p "$work/statuses")" = 0 ] || bad "the build line failed (see $work/commands.log)"
[ "$(sed -n '$p' "$work/statuses")" = 4 ] || bad "the README's check of examples/damaged.v6.dat exited $(sed -n '$p' "$work/statuses"), not 4"
for f in bin/tracefsck share/man/man1/tracefsck.1 share/man/man7/tracefsck-faults.7 \
	share/bash-completion/completions/tracefsck share/zsh/site-functions/_tracefsck; do
	[ -f "$prefix/$f" ] || bad "$f not installed"
done
# Without CMocka, ctest does not pass on nothing: its one test says the tests were not built.
ctest --test-dir "$work/src/build/release" > "$work/ctest.log" 2>&1 && bad "ctest passed in a build without its tests"
grep -q tests_not_built "$work/ctest.log" || bad "ctest did not run tests_not_built: $(tail -5 "$work/ctest.log")"
PATH="$prefix/bin:$PATH"
[ "$(command -v tracefsck)" = "$prefix/bin/tracefsck" ] || bad "tracefsck on PATH is $(command -v tracefsck)"
tracefsck check "$work/src/examples/clean.v6.dat" > "$work/clean.out"; rc=$?
[ $rc = 0 ] && grep -q ': clean: ' "$work/clean.out" || bad "installed tracefsck on the clean example: exit $rc, $(cat "$work/clean.out")"
# What it loads comes from the run-time packages alone: those the README names, and what they
# depend on themselves (apt installs that with them: libarchive13 brings its codecs' libraries).
named="libc6 libzstd1 zlib1g liblzma5 libarchive13 libtraceevent1"
allowed=" $named "
queue=$named
while [ -n "$queue" ]; do
	next=""
	for p in $queue; do
		for d in $(dpkg-query -W -f='${Pre-Depends},${Depends}' "$p" 2>/dev/null | tr ',|' '\n\n' |
			sed 's/(.*//; s/:any//; s/ //g' | grep .); do
			case $allowed in *" $d "*) ;; *) allowed="$allowed$d "; next="$next $d" ;; esac
		done
	done
	queue=$next
done
ldd "$prefix/bin/tracefsck" | awk '$3 ~ /^\// { print $3 }' > "$work/libs"
for lib in $(cat "$work/libs"); do
	pkg=$(dpkg-query -S "$(readlink -f "$lib")" 2>/dev/null | cut -d: -f1 | head -1)
	[ -n "$pkg" ] || pkg=$(dpkg-query -S "$lib" 2>/dev/null | cut -d: -f1 | head -1)
	case $allowed in
	*" $pkg "*) ;;
	*) bad "tracefsck loads $lib from '$pkg', not a run-time package the README names (or one they depend on)" ;;
	esac
done
echo "loads: $(tr '\n' ' ' < "$work/libs")"
[ $fail = 0 ] && echo "ok: README's Install section builds, installs and runs with only the build and run-time packages"
exit $fail
