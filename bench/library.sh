#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Pass 2 with the whole tapset library, next to SystemTap 4.8 where it is
# installed (issue #12 item 6): warm `stap -p2` of
#   - a script of one begin probe (the library's cost alone),
#   - one tapset alias: probe vfs.read { println(bytes_to_read) } (< 100 ms),
#   - a ~2,900-line generated script (bench/gen_script.sh 100).
# Median wall time of N runs, user+sys CPU time of the median run's
# kind (machines shared with test VMs have a wall time of little
# meaning), peak RSS of 3 runs.  syscall.* is bench/syscalls.sh's.
# It only prints: no figure here fails a build.
#
# Usage: bench/library.sh [-n RUNS] [-r RELEASE]
# Environment: STAP=path (default: ./stap of this tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
runs=11 release=

. "$top/bench/lib.sh"
bench_args library 14,15p "$@"

# cpu_ms CMD...: user+sys CPU time of one run, in ms.
cpu_ms() {
	/usr/bin/time -f '%U %S' -o "$work/cpu" "$@" >/dev/null 2>&1 || true
	awk '{ printf "%.0f", ($1 + $2) * 1000 }' "$work/cpu"
}

"$top/bench/gen_script.sh" 100 >"$work/big.stp"
printf 'probe begin { exit() }\n' >"$work/begin.stp"
printf 'probe vfs.read { println(bytes_to_read) }\n' >"$work/alias.stp"
echo "kernel $release; wall: median of $runs runs; cpu: one run; RSS: peak of 3"
printf '%-28s %22s %22s %22s\n' "" "begin (ms/cpu/MB)" "vfs.read (ms/cpu/MB)" \
	"$(wc -l <"$work/big.stp")-line script"
row() {	# NAME STAP
	local name=$1 exe=$2 cells=() f
	for f in begin alias big; do
		if "$exe" -r "$release" -p2 "$work/$f.stp" >/dev/null 2>&1; then
			cells+=("$(median_ms "$exe" -r "$release" -p2 "$work/$f.stp")/$(cpu_ms "$exe" -r "$release" -p2 "$work/$f.stp")/$(peak_mb "$exe" -r "$release" -p2 "$work/$f.stp")")
		else
			cells+=("rejected")
		fi
	done
	printf '%-28s %22s %22s %22s\n' "$name" "${cells[@]}"
}
printf '%-28s %22s %22s %22s\n' "target" "" "< 100 ms" ""
row "stap-ng ($(basename "$stap"))" "$stap"
sys=/usr/bin/stap
if [ -x "$sys" ]; then
	runs=3
	row "SystemTap ($sys, 3 runs)" "$sys"
else
	echo "SystemTap: not installed, no comparison"
fi
