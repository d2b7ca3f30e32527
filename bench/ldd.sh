#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What --ldd costs: a script printing a user backtrace in testsuite/ubt,
# translated (-p3: symbol tables and .eh_frame rows extracted) and built
# (-p4) with and without --ldd (which adds libc's tables), with the size of
# the generated C and of the module.  It only prints.
#
# Usage: bench/ldd.sh [RUNS [RELEASE]]
#   RUNS     timed runs, median reported (default 5)
#   RELEASE  kernel to build for (default: the newest provisioned)
# Environment: STAP=path (default: ./stap of this tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
runs=${1:-5} rel=${2:-$(ls /lib/modules | sort -V | tail -1)}
[ -x "$stap" ] || { echo "ldd: $stap is not built: run make" >&2; exit 1; }
[ -x "$top/testsuite/ubt" ] || { echo "ldd: run make testsuite/ubt" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$top/bench/lib.sh"
echo 'probe process(@1).function("leaf") { print_ubacktrace() }' >"$work/bt.stp"

printf '%-10s %12s %12s %12s %12s\n' "" "-p3 (ms)" "-p4 (ms)" "C (KB)" ".ko (KB)"
for opt in "" --ldd; do
	args=(-r "$rel" $opt)
	p3=$(median_ms "$stap" "${args[@]}" -p3 "$work/bt.stp" "$top/testsuite/ubt")
	p4=$(cd "$work" && median_ms "$stap" "${args[@]}" -p4 -m bt "$work/bt.stp" "$top/testsuite/ubt")
	c=$("$stap" "${args[@]}" -p3 "$work/bt.stp" "$top/testsuite/ubt" | wc -c)
	ko=$(stat -c %s "$work/bt.ko")
	printf '%-10s %12s %12s %12d %12d\n' "${opt:-(none)}" "$p3" "$p4" $((c / 1024)) $((ko / 1024))
done
