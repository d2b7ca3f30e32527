#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The system call aliases (translator/syscalls.c) at pass 2, against the
# targets of issue #12, and SystemTap 4.8 where it is installed:
#   - every alias: stap -p2 -e 'probe syscall.* { printf("%s %s\n", name, argstr) }'
#     (SystemTap: 3.2 s and 410 MB on the 6.1 kernel; ours at most a tenth);
#   - one alias, warm: stap -p2 -e 'probe syscall.read { println(argstr) }'
#     (under 100 ms with the whole library loaded).
# It only prints: no figure here fails a build.
#
# Usage: bench/syscalls.sh [-n RUNS] [-r RELEASE]
# Environment: STAP=path (default: ./stap of this tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
runs=11 release=

. "$top/bench/lib.sh"
bench_args syscalls 12,13p "$@"

all='probe syscall.* { printf("%s %s\n", name, argstr) }'
one='probe syscall.read { println(argstr) }'
"$stap" -r "$release" -p2 -e "$all" >"$work/all.out" 2>&1 ||
	{ echo "syscalls: stap -p2 fails:"; head "$work/all.out"; exit 1; } >&2
n=$(grep -c '^kernel.trace' "$work/all.out")
echo "kernel $release: syscall.* is $n probes; median of $runs runs, peak RSS of 3"
printf '%-26s %14s %14s %14s\n' "" "syscall.* (ms)" "(MB)" "one alias (ms)"
printf '%-26s %14s %14s %14s\n' "target" "< 320" "< 41" "< 100"
printf '%-26s %14s %14s %14s\n' "stap-ng ($(basename "$stap"))" \
	"$(median_ms "$stap" -r "$release" -p2 -e "$all")" \
	"$(peak_mb "$stap" -r "$release" -p2 -e "$all")" \
	"$(median_ms "$stap" -r "$release" -p2 -e "$one")"
sys=/usr/bin/stap
if [ -x "$sys" ] && "$sys" -r "$release" -p2 -e "$one" >/dev/null 2>&1; then
	runs=3
	printf '%-26s %14s %14s %14s\n' "SystemTap ($sys, 3 runs)" \
		"$(median_ms "$sys" -r "$release" -p2 -e "$all")" \
		"$(peak_mb "$sys" -r "$release" -p2 -e "$all")" \
		"$(median_ms "$sys" -r "$release" -p2 -e "$one")"
else
	echo "SystemTap: not installed for $release, no comparison"
fi
