#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Load time (issue #14, "Module size and load time"): the wall time of a
# whole session whose script exits at once -- staprun loads the module,
# the probes are registered, `begin` runs exit(), the probes are removed
# and the module unloaded -- for ours and SystemTap 4.8 (staprun/stapio),
# all in ONE VM boot, RUNS runs each (bench/spawn_time.c: median, min,
# max).  Three scripts: one probe, the 4.8-style `kernel.function("vfs_*")`
# wildcard and every system call (`syscall.*`), so the figure shows both
# the fixed cost of a module and the cost per probe.  It only prints.
# TCG times are only good as ratios within the boot.
#
# Usage: bench/load_time.sh   (from a built tree; ~3 min of builds, ~3 min of VM)
# Environment: RUNS=11; KVER (default newest 6.1, where SystemTap 4.8
#   builds); CONFIGS="ours stap48"; BEFORE=DIR another built checkout, run
#   as config "before" in the same boot; KEEP=DIR keeps the raw guest output.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
tools=/work/shared/tools
RUNS=${RUNS:-11}
CONFIGS=${CONFIGS:-${BEFORE:+before }ours stap48}
export KVER=${KVER:-$("$tools/kver.sh" 6.1)}
[ -x "$top/stap" ] || { echo "load_time: $top/stap is not built: run make" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
gcc -O2 -static -o "$T/spawn_time" "$top/bench/spawn_time.c"

names=(one_probe vfs_wild syscall_all)
scripts=(
	'global n; probe kernel.function("vfs_read") { n++ } probe begin { exit() } probe end { if (n < 0) println(n) }'
	'global n; probe kernel.function("vfs_*") { n++ } probe begin { exit() } probe end { if (n < 0) println(n) }'
	'global n; probe syscall.* { n++ } probe begin { exit() } probe end { if (n < 0) println(n) }'
)
files=("$T/spawn_time")
guest=$T/guest.sh
echo "#!/bin/sh" > "$guest"
echo "== load_time.sh $(date -u '+%F %T UTC') kernel=$KVER RUNS=$RUNS configs='$CONFIGS' ($(git -C "$top" rev-parse --short HEAD))"
for c in $CONFIGS; do
	tree=$(config_tree load_time "$c")
	if [ -n "$tree" ]; then
		st=$tree/stap
		srun=$tree/staprun/staprun
		mkdir -p "$T/$c"; cp "$srun" "$T/$c/staprun"; srun=$T/$c/staprun
	else
		st=/usr/bin/stap
		srun=/usr/bin/staprun
		files+=(/usr/lib/systemtap/stapio)
	fi
	files+=("$srun")
	for i in "${!names[@]}"; do
		m=lt_${c}_${names[$i]}
		if ! (cd "$T" && "$st" -r "$KVER" -p4 -m "$m" -e "${scripts[$i]}") >"$T/$m.log" 2>&1; then
			echo "build $c ${names[$i]}: failed ($(grep -m1 -i error "$T/$m.log"))"
			continue
		fi
		files+=("$T/$m.ko")
		strip -g -o "$T/$m.s.ko" "$T/$m.ko"
		echo "build $c ${names[$i]}: $(stat -c %s "$T/$m.s.ko") bytes stripped"
		# One unmeasured run first: page cache, debugfs, kallsyms caches.
		cat >> "$guest" <<EOF
$srun $T/$m.ko > /dev/null 2>&1
echo "@@T $c ${names[$i]} \$($T/spawn_time $RUNS sh -c '$srun $T/$m.ko > /dev/null 2>&1')"
EOF
	done
done
echo 'dmesg | grep -E "BUG:|Oops|WARNING: CPU|Call Trace" | head -5' >> "$guest"
files+=("$guest")
"$tools/vmrun.sh" -t 1800 "${files[@]}" -- "sh $guest" > "$T/vm.out" 2>&1 || true
[ -n "${KEEP:-}" ] && { mkdir -p "$KEEP"; cp "$T/vm.out" "$KEEP/"; }
grep -a -v '^@@' "$T/vm.out" | head -20
echo
echo "Session wall time, load to unload, ms (median of $RUNS; min-max; failed runs)"
printf '%-11s %-7s %10s %17s %7s\n' script config median min-max failed
awk '/^@@T / { printf "%-11s %-7s %10.1f %8.1f-%-8.1f %7d\n", $3, $2, $4 / 1000, $5 / 1000, $6 / 1000, $7 }' "$T/vm.out" | sort -s -k1,1
