#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The DWARF index of modules and user files (translator/dwarf_mod.c; the
# builder is dwarf_index.c's, as for the kernel, see bench/dwarf_index.sh):
# for the test module, the test program, libc from its symbol table alone
# and libc from its DWARF (package libc6-dbg), the cold time of
# `stap -l '...function("*")'` (an empty cache: the index is built), the
# warm time (it is read), the index's size and the functions listed.  It
# only prints: no figure fails anything.
#
# Usage: bench/dwarf_objects.sh [-n RUNS]    (medians of RUNS, default 5)
# Environment: STAP=path (default ./stap of this tree), KVER (the kernel
# the test module is built for; default the newest 6.1 with a build tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
runs=5

while getopts "n:" o; do
	case $o in
	n) runs=$OPTARG ;;
	*) sed -n '12,14p' "$0"; exit 2 ;;
	esac
done
[ -x "$stap" ] || { echo "dwarf_objects: $stap is not built: run make" >&2; exit 1; }
KVER=${KVER:-$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sed 's#/lib/modules/##; s#/build##' |
	       grep -v -- -rt- | sort -V | tail -1)}
work=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/nodebug"
libc=/lib/x86_64-linux-gnu/libc.so.6

# run DIR CMD...: wall time of one run in ms with XDG_CACHE_HOME=DIR.
run() {
	local dir=$1 t0 t1
	shift
	t0=${EPOCHREALTIME/[.,]/}
	XDG_CACHE_HOME=$dir "$@" >/dev/null 2>"$work/err" || { echo fail; return; }
	t1=${EPOCHREALTIME/[.,]/}
	echo $(((t1 - t0) / 1000))
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# case NAME CMD...: cold (a new cache each run) and warm medians, db size.
case_() {
	local name=$1 i cold warm n kb
	shift
	cold=$(for ((i = 0; i < runs; i++)); do run "$work/c$i" "$@"; rm -rf "$work/c$i"; done | median)
	run "$work/warm" "$@" >/dev/null
	warm=$(for ((i = 0; i < runs; i++)); do run "$work/warm" "$@"; done | median)
	n=$(XDG_CACHE_HOME=$work/warm "$@" 2>/dev/null | wc -l)
	kb=$(du -ck "$work"/warm/stap-ng/dwarf/*.db 2>/dev/null | tail -1 | cut -f1)
	printf '%-28s %10s %10s %10s %9s\n' "$name" "$cold" "$warm" "${kb:-?}" "$n"
	rm -rf "$work/warm"
}

echo "DWARF index of modules and user files: median of $runs runs, ms"
printf '%-28s %10s %10s %10s %9s\n' "" "cold" "warm" "db (KB)" "listed"
if ko=$("$top/testsuite/kmod/build.sh" "$KVER" 2>/dev/null); then
	case_ "module stp_test ($KVER)" "$stap" -r "$KVER" --vm-insmod "$ko" \
		-l 'module("stp_test").function("*")'
	case_ "module stp_test, -L" "$stap" -r "$KVER" --vm-insmod "$ko" \
		-L 'module("stp_test").function("*")'
else
	echo "module: the test module does not build for $KVER: skipped"
fi
if [ -x "$top/testsuite/uprog" ]; then
	case_ "testsuite/uprog" "$stap" -l "process(\"$top/testsuite/uprog\").function(\"*\")"
else
	echo "testsuite/uprog is not built (make testsuite/uprog): skipped"
fi
case_ "libc, symbol table" env STAP_NG_DEBUGINFO_DIR="$work/nodebug" "$stap" \
	-l "process(\"$libc\").function(\"*\")"
if [ -n "$(ls /usr/lib/debug/.build-id 2>/dev/null)" ]; then
	case_ "libc, DWARF (libc6-dbg)" "$stap" -l "process(\"$libc\").function(\"*\")"
else
	echo "libc, DWARF: no /usr/lib/debug/.build-id (apt-get install libc6-dbg): skipped"
fi
