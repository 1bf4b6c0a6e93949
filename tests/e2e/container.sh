#!/bin/sh
# SPDX-License-Identifier: MIT
# The container recipe (Dockerfile): first, without any engine, that its build stage installs
# exactly the README's build packages, its run stage only the run-time libraries, that it runs as
# a non-root user with tracefsck as the entry point, and that .dockerignore keeps what the builds
# need. Then the image is built and run with podman (runc, a private configuration: never /etc),
# from a Debian 12 root made with debootstrap from this machine's apt sources and imported as
# the debian:12 and debian:12-slim the recipe names (no registry is needed; the root and the
# engine's storage are kept in CACHE_DIR between runs). The image, as a non-root user with a
# read-only root and no network: the samples of every format, pristine and damaged, give the
# host build's exit statuses, JSON Lines and SARIF; then the fleet examples run it as their
# engines would (tests/e2e/fleet_examples.py) over 300 traces, merged equal to one host run.
# Skipped (77), with the reason, only where podman, runc or debootstrap is not installed or the
# test is not root; TFK_CONTAINER_ENGINE=docker uses a working docker instead.
# usage: container.sh SOURCE_DIR TDW_MAKE WORK_DIR [TRACEFSCK SAMPLES_DIR CACHE_DIR]
set -u
src=$(cd "$1" && pwd) make=$2 work=$3 host=${4:-} samples=${5:-} cache=${6:-$3.cache}
rm -rf "$work" && mkdir -p "$work" "$cache" && work=$(cd "$work" && pwd) && cache=$(cd "$cache" && pwd) || exit 1
t0=$(date +%s)
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

# Dynamic: build and run it.
engine=${TFK_CONTAINER_ENGINE:-podman}
if [ "$engine" = podman ]; then
	for t in podman runc debootstrap; do
		command -v $t > /dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin command -v $t > /dev/null 2>&1 ||
			{ echo "$t is not installed (scripts/install-deps.sh installs it): image not built, skipped"; exit 77; }
	done
	PATH=$PATH:/usr/sbin:/sbin
	[ "$(id -u)" = 0 ] || { echo "not root: podman's image storage and debootstrap need root here; image not built, skipped"; exit 77; }
	# A private configuration: crun and the default ulimits fail on this kind of machine, and the
	# cgroup manager must be cgroupfs (no systemd); storage under CACHE_DIR, not the system's.
	cat > "$cache/containers.conf" <<-CONF
		[containers]
		default_ulimits = []
		[engine]
		cgroup_manager = "cgroupfs"
		runtime = "runc"
	CONF
	cat > "$cache/storage.conf" <<-CONF
		[storage]
		driver = "overlay"
		graphroot = "$cache/storage"
		runroot = "$cache/run"
	CONF
	export CONTAINERS_CONF="$cache/containers.conf" CONTAINERS_STORAGE_CONF="$cache/storage.conf"
	engine_cmd="podman --runtime runc"
	# The base: Debian 12 from the mirror this machine installs from (its apt sources).
	base=$cache/debian12-root.tar
	if [ ! -s "$base" ]; then
		uris=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
			sed -n -e 's/^URIs: *//p' -e 's/^deb  *\(\[[^]]*\] *\)\{0,1\}\([^ ]*\).*/\2/p' | tr ' ' '\n')
		mirror=$(echo "$uris" | grep -m1 '/debian/*$') || mirror=http://deb.debian.org/debian
		security=$(echo "$uris" | grep -m1 '/debian-security/*$') || security=http://deb.debian.org/debian-security
		t=$(date +%s)
		rm -rf "$cache/root"
		if ! nice -n 10 debootstrap --variant=minbase bookworm "$cache/root" "$mirror" > "$cache/debootstrap.log" 2>&1; then
			bad "debootstrap bookworm from $mirror failed"; tail -5 "$cache/debootstrap.log"; exit 1
		fi
		printf 'deb %s bookworm main\ndeb %s bookworm-updates main\ndeb %s bookworm-security main\n' "$mirror" "$mirror" "$security" \
			> "$cache/root/etc/apt/sources.list"
		rm -rf "$cache/root/var/cache/apt/archives/"*.deb "$cache/root/var/lib/apt/lists/"*
		tar -C "$cache/root" -cf "$base.tmp" . && mv "$base.tmp" "$base" && rm -rf "$cache/root" || exit 1
		ok "Debian 12 root made with debootstrap from $mirror ($(($(date +%s) - t)) s)"
	fi
	if ! $engine_cmd image exists docker.io/library/debian:12 || [ "$base" -nt "$cache/imported" ]; then
		$engine_cmd import "$base" localhost/tracefsck-base:debian12 > "$work/import.log" 2>&1 || { bad "podman import failed"; cat "$work/import.log"; exit 1; }
		$engine_cmd tag localhost/tracefsck-base:debian12 docker.io/library/debian:12 docker.io/library/debian:12-slim || exit 1
		touch "$cache/imported"
	fi
	build_flags="--isolation chroot --pull=never --network host"
	run_flags="--network none --read-only"
else
	if ! command -v "$engine" > /dev/null 2>&1; then echo "no container engine ($engine not installed): image not built, skipped"; exit 77; fi
	if ! "$engine" info > "$work/info.log" 2>&1; then
		echo "container engine not usable ($engine info failed: $(tail -1 "$work/info.log")): image not built, skipped"
		exit 77
	fi
	engine_cmd=$engine build_flags="" run_flags="--network none --read-only"
fi
tag=localhost/tracefsck-e2e:$$
trap '$engine_cmd image rm -f "$tag" > /dev/null 2>&1' EXIT
t=$(date +%s)
# shellcheck disable=SC2086 # flag lists
# Without link-time optimisation: the same sources and steps, minutes less (the release build's
# own step of scripts/test.sh links with it).
nice -n 10 $engine_cmd build $build_flags --build-arg JOBS=2 --build-arg LTO=OFF -t "$tag" -f "$df" "$src" > "$work/build.log" 2>&1 ||
	{ bad "$engine build failed"; tail -30 "$work/build.log"; exit 1; }
size=$($engine_cmd image inspect --format '{{.Size}}' "$tag")
ok "image built in $(($(date +%s) - t)) s: $((size / 1000000)) MB ($size bytes)"
"$make" clean "$work/clean.dat" && "$make" damaged "$work/damaged.dat" || exit 1
chmod a+r "$work"/*.dat && chmod a+rx "$work"
# shellcheck disable=SC2086
run() { $engine_cmd run --rm $run_flags -v "$work:/data:ro" "$tag" "$@"; }
want=$(sed -n 's/^project(tracefsck VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
# the first line names the version; the lines after it the build's libraries and formats
[ "$(run --version | head -n 1)" = "tracefsck $want" ] && ok "tracefsck $want inside" || bad "--version says '$(run --version)', expected tracefsck $want"
run check clean.dat > "$work/clean.out"; rc=$?
[ $rc = 0 ] && grep -q '^clean.dat: clean: ' "$work/clean.out" && ok "clean trace: exit 0" || bad "clean trace: exit $rc: $(cat "$work/clean.out")"
run check damaged.dat > "$work/damaged.out"; rc=$?
[ $rc = 4 ] && grep -q 'error tracedat.page.bad-commit' "$work/damaged.out" && ok "damaged trace: exit 4, damage named" ||
	bad "damaged trace: exit $rc: $(cat "$work/damaged.out")"
run check --json damaged.dat | grep -q '"verdict":"corrupt"' && ok "JSON output" || bad "no JSON verdict"
# shellcheck disable=SC2086
uid=$($engine_cmd run --rm $run_flags --entrypoint id "$tag" -u)
[ -n "$uid" ] && [ "$uid" != 0 ] && ok "runs as uid $uid" || bad "runs as uid '$uid'"
# shellcheck disable=SC2086
$engine_cmd run --rm $run_flags --user 0 -v "$work:/data:ro" --entrypoint sh "$tag" -c 'touch /usr/x || touch /data/x' > /dev/null 2>&1 &&
	bad "the root file system or /data is writable" || ok "read-only: even root writes neither the root file system nor /data"
# shellcheck disable=SC2086
$engine_cmd run --rm $run_flags --entrypoint sh "$tag" -c 'command -v gcc || command -v cmake || command -v cc' > "$work/tools" 2>&1 &&
	bad "build tools in the run image: $(cat "$work/tools")" || ok "no compiler or cmake in the run image"
# shellcheck disable=SC2086
$engine_cmd run --rm $run_flags --entrypoint sh "$tag" -c "dpkg-query -W -f='\${Package}\n' | grep -- '-dev\$'" > "$work/dev" 2>&1 &&
	bad "development packages in the run image: $(tr '\n' ' ' < "$work/dev")" || ok "no -dev package in the run image"
[ $fail = 0 ] && ok "the container builds on Debian 12 and runs tracefsck as a non-root user"
if [ -z "$host" ] || [ ! -d "$samples" ]; then echo "no host build or samples given: outputs not compared"; exit $fail; fi
case $host in /*) ;; *) host=$(pwd)/$host ;; esac
. "$src/tests/e2e/fleet_lib.sh"

# The samples of every format, each pristine, cut short and overwritten (39 entries): the image's
# exit status, JSON Lines and SARIF are the host build's. SARIF's %SRCROOT% (the working
# directory: /data inside) is the one difference allowed.
make_uploads "$samples" "$work/formats" 39 || exit 1
chmod -R a+rX "$work/formats"
# shellcheck disable=SC2086
crun() { $engine_cmd run --rm $run_flags -v "$work/formats:/data:ro" "$tag" "$@"; }
# shellcheck disable=SC2086
$engine_cmd run --rm $run_flags -v "$work/formats:/data:ro" --entrypoint sh "$tag" -c \
	'for f in *; do tracefsck check -q "$f" > /dev/null 2>&1; echo "$f $?"; done' > "$work/status.image"
(cd "$work/formats" && for f in *; do "$host" check -q "$f" > /dev/null 2>&1; echo "$f $?"; done) > "$work/status.host"
[ "$(wc -l < "$work/status.host")" = 39 ] && cmp -s "$work/status.image" "$work/status.host" &&
	ok "exit statuses of 39 entries ($(cut -d' ' -f2 "$work/status.host" | sort | uniq -c | awk '{ printf "%s%s x%s", s, $2, $1; s = ", " }')) are the host's" ||
	{ bad "exit statuses differ from the host's"; diff "$work/status.image" "$work/status.host" | head; }
formats=$(cd "$work/formats" && "$host" check --json . | jq -r 'select(.type == "summary") | .format' | sort -u | wc -l)
[ "$formats" -ge 6 ] || bad "only $formats formats among the samples"
for out in json sarif; do
	crun check --$out . > "$work/image.$out"; a=$?
	(cd "$work/formats" && "$host" check --$out .) > "$work/host.$out"; b=$?
	if [ $out = sarif ]; then
		for f in image host; do jq -c 'del(.runs[].originalUriBaseIds)' "$work/$f.sarif" > "$work/$f.sarif.cmp"; done
		out=sarif.cmp
	fi
	[ $a = $b ] && [ -s "$work/host.$out" ] && cmp -s "$work/image.$out" "$work/host.$out" &&
		ok "--${out%.cmp} over $formats formats: the host's output and exit status ($b)" ||
		{ bad "--${out%.cmp}: the image's output (exit $a) differs from the host's (exit $b)"; diff "$work/image.$out" "$work/host.$out" | head -5; }
done

# The fleet examples over 300 traces, with the test's --no-libtraceevent (fleet_examples.py).
ws=$work/fleet
make_uploads "$samples" "$ws/traces" 300 || exit 1
chmod -R a+rX "$ws/traces"
mkdir -p "$ws/results" "$ws/merge" && chmod 777 "$ws/results" && ln -s "$src" "$ws/merge/tracefsck"
export TFK_FLEET_EXTRA="--no-libtraceevent -j2"
(cd "$ws/traces" && "$host" check $TFK_FLEET_EXTRA --json . > "$ws/one.jsonl"; echo $? > "$ws/one.rc"
 "$host" check $TFK_FLEET_EXTRA --sarif . > "$ws/one.sarif")
[ "$(jq -r 'select(.type == "summary") | .file' "$ws/one.jsonl" | wc -l)" = 300 ] || { bad "one host run did not see 300 units"; exit 1; }
t=$(date +%s)
if python3 "$src/tests/e2e/fleet_examples.py" k8s "$src/examples/kubernetes-indexed-job.yaml" "$engine_cmd" "$tag" "$ws/traces" "$ws/results"; then
	merge_jsonl "$ws"/results/shard-*.jsonl | cmp -s - "$ws/one.jsonl" &&
		ok "Kubernetes Indexed Job, $(ls "$ws"/results/shard-*.jsonl | wc -l) pods ($(($(date +%s) - t)) s): the merged JSON Lines are one run's" ||
		bad "Kubernetes Indexed Job: merged JSON Lines differ from one run's"
	# shellcheck disable=SC2046
	st=$(merge_status $(cat "$ws"/results/shard-*.status))
	[ "$st" = "$(cat "$ws/one.rc")" ] && ok "Kubernetes Indexed Job: the shards' statuses make $st, one run's" || bad "Kubernetes: status $st, one run $(cat "$ws/one.rc")"
else
	bad "the Kubernetes Indexed Job did not complete"
fi
t=$(date +%s)
if python3 "$src/tests/e2e/fleet_examples.py" matrix "$src/examples/github-matrix-workflow.yml" "$engine_cmd" "$tag" "$ws"; then
	for f in "$ws/merge/tracefsck.sarif" "$ws/one.sarif"; do jq -c 'del(.runs[].originalUriBaseIds)' "$f" > "$f.cmp"; done
	cmp -s "$ws/merge/tracefsck.sarif.cmp" "$ws/one.sarif.cmp" &&
		ok "Actions matrix, 4 shards ($(($(date +%s) - t)) s): the merged SARIF is one run's" || bad "Actions matrix: merged SARIF differs from one run's"
	[ "$(cat "$ws/merge/gate.rc")" = "$(cat "$ws/one.rc")" ] && ok "Actions matrix: the gate exits $(cat "$ws/one.rc"), as one run" ||
		bad "Actions matrix: the gate exits $(cat "$ws/merge/gate.rc"), one run $(cat "$ws/one.rc")"
else
	bad "the Actions matrix did not complete"
fi

# The Job against the Kubernetes schema (npm's kubernetes-models, cached in CACHE_DIR), where npm is.
if command -v npm > /dev/null 2>&1 && command -v node > /dev/null 2>&1; then
	[ -d "$cache/npm/node_modules/kubernetes-models" ] ||
		npm install --prefix "$cache/npm" --no-audit --no-fund --silent kubernetes-models@5.1.0 yaml@2.9.1 > "$cache/npm.log" 2>&1
	if [ -d "$cache/npm/node_modules/kubernetes-models" ]; then
		cat > "$cache/npm/validate.mjs" <<-'JS'
			import fs from 'fs';
			import YAML from 'yaml';
			import { Job } from 'kubernetes-models/batch/v1/Job';
			try { new Job(YAML.parse(fs.readFileSync(process.argv[2], 'utf8'))).validate(); }
			catch (e) { console.log(e.message); process.exit(1); }
		JS
		node "$cache/npm/validate.mjs" "$src/examples/kubernetes-indexed-job.yaml" > "$work/k8s-schema.log" 2>&1 &&
			ok "the Indexed Job is valid against Kubernetes' batch/v1 Job schema (kubernetes-models 5.1.0)" ||
			bad "the Indexed Job is not a valid batch/v1 Job: $(cat "$work/k8s-schema.log")"
	else
		echo "note: kubernetes-models could not be installed from npm: the Job's schema not checked"
	fi
else
	echo "note: no node and npm: the Job's schema not checked"
fi
echo "container_image: $(($(date +%s) - t0)) s, image $((size / 1000000)) MB"
exit $fail
