#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build.sh RELEASE: build the test module stp_test.ko against kernel
# RELEASE's kbuild tree (/lib/modules/RELEASE/build) and print its path.
#
# The .ko is cached per kernel build and module source under
#   ${XDG_CACHE_HOME:-$HOME/.cache}/stap-ng/kmod/RELEASE-KEY/stp_test.ko
# where KEY hashes stp_test.c, Kbuild, this script and the tree's .config
# and Module.symvers (which change with every kernel build), so a rebuilt
# kernel or an edited module gets a new .ko and a repeat costs nothing.
# The build runs in a temporary directory renamed into place: concurrent
# callers see a whole .ko or none.  Exits non-zero with kbuild's output
# on stderr if the build fails.
set -eu
release=${1:?usage: build.sh RELEASE}
src=$(cd "$(dirname "$0")" && pwd)
kdir=/lib/modules/$release/build
[ -e "$kdir/Makefile" ] || { echo "build.sh: no kbuild tree $kdir (install linux-headers-$release)" >&2; exit 1; }

key=$(cat "$src/stp_test.c" "$src/Kbuild" "$0" "$kdir/.config" \
	"$kdir/Module.symvers" 2>/dev/null | sha256sum | cut -c1-16)
cache=${XDG_CACHE_HOME:-${HOME:-/tmp}/.cache}/stap-ng/kmod
out=$cache/$release-$key
if [ -s "$out/stp_test.ko" ]; then
	echo "$out/stp_test.ko"
	exit 0
fi
mkdir -p "$cache"
tmp=$(mktemp -d "$cache/build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cp "$src/stp_test.c" "$src/Kbuild" "$tmp/"
if ! make -s -C "$kdir" M="$tmp" modules >"$tmp/log" 2>&1; then
	echo "build.sh: building stp_test.ko for $release failed:" >&2
	cat "$tmp/log" >&2
	exit 1
fi
mkdir -p "$tmp/out"
cp "$tmp/stp_test.ko" "$tmp/out/"
# Another caller may have won the race: its .ko is as good as ours.
mv -T "$tmp/out" "$out" 2>/dev/null || [ -s "$out/stp_test.ko" ]
echo "$out/stp_test.ko"
