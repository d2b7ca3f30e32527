#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The module cache (translator/cache.c): `stap -p4` of the same script
# built anew (--poison-cache: passes 1-4, kbuild included, runtime
# objects cached) and found in the cache (passes 1-3, then the kept
# module), ours beside SystemTap 4.8 (/usr/bin/stap, if installed), for a
# one-probe script and every system call (syscall.*).  Each in its own
# SYSTEMTAP_DIR.  It only prints.
#
# Usage: bench/module_cache.sh [-n RUNS] [-r RELEASE]
#   -n RUNS     timed runs of each, median reported (default 5)
#   -r RELEASE  kernel (default: the newest 6.1 with debuginfo)
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
runs=5 release=
. "$top/bench/lib.sh"
bench_args module_cache '9,11p' "$@"

names=(one_probe syscall_all)
scripts=(
	'global n; probe kernel.function("vfs_read") { n++ } probe end { println(n) }'
	'global n; probe syscall.* { n++ } probe end { println(n) }'
)
tracers=(ours)
[ -x /usr/bin/stap ] && tracers+=(stap48)
printf '%-12s %-7s %14s %14s %9s\n' script tracer "built (ms)" "cached (ms)" ratio
for i in "${!names[@]}"; do
	for t in "${tracers[@]}"; do
		bin=$stap
		[ "$t" = stap48 ] && bin=/usr/bin/stap
		export SYSTEMTAP_DIR=$work/$t
		cmd=("$bin" -r "$release" -p4 -e "${scripts[$i]}")
		# It must build, or the figures mean nothing.
		"${cmd[@]}" >"$work/out" 2>"$work/err" ||
			{ echo "module_cache: $t cannot build ${names[$i]}: $(tail -3 "$work/err")" >&2; exit 1; }
		built=$(median_ms "${cmd[@]}" --poison-cache)
		cached=$(median_ms "${cmd[@]}")
		printf '%-12s %-7s %14s %14s %8.1fx\n' "${names[$i]}" "$t" "$built" "$cached" \
			"$(awk -v a="$built" -v b="$cached" 'BEGIN { print a / b }')"
	done
done
echo "(kernel $release, median of $runs; 'cached' = a hit: the same script built before)"
