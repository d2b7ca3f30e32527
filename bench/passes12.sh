#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Time `stap -p2` (parse + elaborate, whole tapset library loaded) on a
# generated ~300-line script and print the median wall time and the peak
# RSS next to the targets.  It only prints: no figure here fails a build.
#
# Usage: bench/passes12.sh [-n RUNS] [-s SECTIONS] [-k]
#   -n RUNS      timed runs, median reported (default 21)
#   -s SECTIONS  script size: ~28 lines per section + ~40 (default 10)
#   -k           keep the generated script and print its path
# Environment: STAP=path (default: ./stap of this tree).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
runs=21 sections=10 keep=
target_ms=50 target_mb=50

while getopts "n:s:k" o; do
	case $o in
	n) runs=$OPTARG ;;
	s) sections=$OPTARG ;;
	k) keep=1 ;;
	*) sed -n '8,12p' "$0"; exit 2 ;;
	esac
done
[ -x "$stap" ] || { echo "passes12: $stap is not built: run make" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
[ -n "$keep" ] || trap 'rm -rf "$work"' EXIT
script=$work/bench.stp
"$top/bench/gen_script.sh" "$sections" >"$script"

# The script must elaborate, or the figures mean nothing.
if ! "$stap" -p2 "$script" >"$work/p2.out" 2>"$work/p2.err"; then
	echo "passes12: stap -p2 rejects the generated script:" >&2
	head -20 "$work/p2.err" >&2
	exit 1
fi


. "$top/bench/lib.sh"

tapset_dir=${SYSTEMTAP_TAPSET:-$top/tapsets}
ntapsets=$(find "$tapset_dir" -name '*.stp' 2>/dev/null | wc -l)
nlines=$(wc -l <"$script")

echo "stap -p2 on a generated $nlines-line script ($sections sections), $ntapsets tapset files in $tapset_dir"
echo "median of $runs runs; peak RSS is the largest of 3 runs"
ms=$(median_ms "$stap" -p2 "$script")
mb=$(peak_mb "$stap" -p2 "$script")
printf '%-22s %12s %12s\n' "" "time (ms)" "peak RSS (MB)"
printf '%-22s %12s %12s\n' "target" "< $target_ms" "< $target_mb"
printf '%-22s %12s %12s\n' "stap-ng ($(basename "$stap"))" "$ms" "$mb"

# SystemTap itself, if installed outside this tree (it is not by default).
sys=$(command -v stap || true)
if [ -n "$sys" ] && [ "$(readlink -f "$sys")" != "$(readlink -f "$stap")" ]; then
	if "$sys" -p2 "$script" >/dev/null 2>&1; then
		printf '%-22s %12s %12s\n' "SystemTap ($sys)" \
			"$(median_ms "$sys" -p2 "$script")" "$(peak_mb "$sys" -p2 "$script")"
	else
		echo "SystemTap ($sys) rejects the script at -p2: not compared"
	fi
else
	echo "SystemTap: not installed, no comparison"
fi
if [ -n "$keep" ]; then echo "script kept: $script"; fi
