#!/bin/sh
# SPDX-License-Identifier: MIT
# The container recipe (Dockerfile): first, without any engine, that its build stage installs
# exactly the README's build packages, its run stage only the run-time libraries, that it runs as
# a non-root user with tracefsck as the entry point, and that .dockerignore keeps what the builds
# need. Then, when a container engine works here (docker info; TFK_CONTAINER_ENGINE=podman for
# another), the image is built and run over fixture traces; otherwise skipped (77), said loudly.
# usage: container.sh SOURCE_DIR TDW_MAKE WORK_DIR
set -u
src=$(cd "$1" && pwd) make=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && work=$(cd "$work" && pwd) || exit 1
fail=0
ok() { echo "ok: $*"; }
bad() { echo "FAIL: $*"; fail=1; }

# Static: the recipe against the README and the run-time list.
df=$src/Dockerfile
grep -q 'SPDX-License-Identifier: MIT' "$df" || bad "Dockerfile lacks its SPDX line"
stage_pkgs() { # stage_pkgs N: the packages the Nth FROM stage apt-get installs, sorted, one a line
	awk -v n="$1" '/^FROM / { s++ } s == n' "$df" | tr '\\' '\n' | tr ' ' '\n' |
		awk '/apt-get$/ { a = 1; next } a && /^install$/ { i = 1; next } /^&&$/ { a = i = 0 } i && !/^-/ && NF' | sort -u
}
readme=$(awk '/^## Install/ { s = 1; next } s && /^## / { exit } s && /apt-get install/ { sub(/.*apt-get install/, ""); print; exit }' "$src/README.md" |
	tr ' ' '\n' | grep -v '^-' | grep . | sort -u)
[ -n "$readme" ] || bad "no apt-get line in README's Install section"
[ "$(stage_pkgs 1)" = "$readme" ] && ok "the build stage installs exactly the README's build packages" ||
	bad "build stage installs [$(stage_pkgs 1 | tr '\n' ' ')], README [$(echo "$readme" | tr '\n' ' ')]"
[ "$(stage_pkgs 2 | tr '\n' ' ')" = "libarchive13 liblzma5 libtraceevent1 libzstd1 zlib1g " ] && ok "the run stage installs only libzstd1, zlib1g, liblzma5, libarchive13, libtraceevent1" ||
	bad "run stage installs [$(stage_pkgs 2 | tr '\n' ' ')]"
[ "$(grep -c '^FROM ' "$df")" = 2 ] && grep -q '^FROM debian:12 AS build' "$df" && grep -q '^FROM debian:12' "$df" &&
	ok "two stages on Debian 12" || bad "not a two-stage Debian 12 build"
user=$(awk '/^FROM / { s++ } s == 2 && /^USER / { print $2 }' "$df")
case $user in '' | root | 0 | 0:* | root:*) bad "the run stage runs as '${user:-root}'" ;; *) ok "runs as user $user" ;; esac
grep -qx 'ENTRYPOINT \["tracefsck"\]' "$df" && ok "tracefsck is the entry point" || bad "ENTRYPOINT is not [\"tracefsck\"]"
for need in CMakeLists.txt cli validate repair fuzz corpus examples include cmake; do
	while read -r pat; do
		case $pat in '#'* | '') continue ;; esac
		# shellcheck disable=SC2254 # the .dockerignore line is a pattern
		case $need in $pat | $pat/*) bad ".dockerignore leaves out $need (pattern $pat)" ;; esac
	done < "$src/.dockerignore"
done
[ $fail = 0 ] || exit 1

# Dynamic: build and run it when an engine works.
engine=${TFK_CONTAINER_ENGINE:-docker}
if ! command -v "$engine" > /dev/null 2>&1; then echo "no container engine ($engine not installed): image not built, skipped"; exit 77; fi
if ! "$engine" info > "$work/info.log" 2>&1; then
	echo "container engine not usable ($engine info failed: $(tail -1 "$work/info.log")): image not built, skipped"
	exit 77
fi
tag=tracefsck-e2e:$$
trap '"$engine" image rm -f "$tag" > /dev/null 2>&1' EXIT
"$engine" build -t "$tag" -f "$df" "$src" > "$work/build.log" 2>&1 || { bad "$engine build failed"; tail -30 "$work/build.log"; exit 1; }
ok "image built"
"$make" clean "$work/clean.dat" && "$make" damaged "$work/damaged.dat" || exit 1
chmod a+r "$work"/*.dat && chmod a+rx "$work"
run() { "$engine" run --rm -v "$work:/data:ro" "$tag" "$@"; }
want=$(sed -n 's/^project(tracefsck VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
# the first line names the version; the lines after it the build's libraries and formats
[ "$(run --version | head -n 1)" = "tracefsck $want" ] && ok "tracefsck $want inside" || bad "--version says '$(run --version)', expected tracefsck $want"
run check clean.dat > "$work/clean.out"; rc=$?
[ $rc = 0 ] && grep -q '^clean.dat: clean: ' "$work/clean.out" && ok "clean trace: exit 0" || bad "clean trace: exit $rc: $(cat "$work/clean.out")"
run check damaged.dat > "$work/damaged.out"; rc=$?
[ $rc = 4 ] && grep -q 'error tracedat.page.bad-commit' "$work/damaged.out" && ok "damaged trace: exit 4, damage named" ||
	bad "damaged trace: exit $rc: $(cat "$work/damaged.out")"
run check --json damaged.dat | grep -q '"verdict":"corrupt"' && ok "JSON output" || bad "no JSON verdict"
uid=$("$engine" run --rm --entrypoint id "$tag" -u)
[ -n "$uid" ] && [ "$uid" != 0 ] && ok "runs as uid $uid" || bad "runs as uid '$uid'"
"$engine" run --rm --entrypoint sh "$tag" -c 'command -v gcc || command -v cmake || command -v cc' > "$work/tools" 2>&1 &&
	bad "build tools in the run image: $(cat "$work/tools")" || ok "no compiler or cmake in the run image"
"$engine" run --rm --entrypoint sh "$tag" -c "dpkg-query -W -f='\${Package}\n' | grep -- '-dev\$'" > "$work/dev" 2>&1 &&
	bad "development packages in the run image: $(tr '\n' ' ' < "$work/dev")" || ok "no -dev package in the run image"
[ $fail = 0 ] && echo "ok: the container builds on Debian 12 and runs tracefsck as a non-root user"
exit $fail
