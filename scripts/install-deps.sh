#!/bin/sh
# SPDX-License-Identifier: MIT
# Installs what building and testing tracefsck needs, from Debian 12 packages, if missing.
# Runs as root (or through sudo when available). Safe to run again. podman, runc and debootstrap
# build and run the container image (tests/e2e/container.sh), jq merges shards (docs/ci.md).
set -eu
pkgs="cmake make gcc clang libclang-rt-14-dev libcmocka-dev libzstd-dev zlib1g-dev liblzma-dev libarchive-dev bzip2 zip libtraceevent-dev valgrind xz-utils zstd time python3 python3-yaml python3-jsonschema ca-certificates trace-cmd pkgconf linux-perf uftrace babeltrace2 jq podman runc debootstrap"
missing=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
sudo=""
[ "$(id -u)" = 0 ] || sudo="sudo"
echo "installing:$missing"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
