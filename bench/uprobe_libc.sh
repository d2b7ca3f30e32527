#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every libc function at once (issue #13's target):
#   probe process("/lib/x86_64-linux-gnu/libc.so.6").function("*") { }
# twice: from libc's symbol table alone (Debian without libc6-dbg; here
# STAP_NG_DEBUGINFO_DIR names an empty directory, so that an installed
# libc6-dbg is not found) and, if libc6-dbg is installed, from its DWARF.
#
#  - stap -p2: cold (an empty XDG_CACHE_HOME) once, and the median of RUNS
#    warm runs, and the CPU time of one warm run; the probe points listed.
#  - stap -p3 and -p4 (build) times, the C size: not targets, printed so
#    that a change there shows.
#  - at run time, in one VM boot: the time from the begin probe to the
#    first timer hit once the session runs (what registering every uprobe
#    takes), and the whole staprun run (load, register, exit, unregister,
#    unload); any warning about skipped points.
#
#   bench/uprobe_libc.sh                 (./stap and staprun/staprun built)
#   RUNS=9 KVER=6.12.117+deb12-amd64 bench/uprobe_libc.sh
#   TOOLS=DIR: where vmrun.sh is (default /work/shared/tools)
#
# Targets: -p2 warm (symbol table) well under a second; registering in
# seconds.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
tools=${TOOLS:-/work/shared/tools}
[ -x "$tools/vmrun.sh" ] || tools=$top/../shared/tools
[ -x "$tools/vmrun.sh" ] || { echo "uprobe_libc: no vmrun.sh: set TOOLS=DIR" >&2; exit 1; }
runs=${RUNS:-5}
KVER=${KVER:-$(ls -d /lib/modules/6.1.*/build | sed 's#/lib/modules/##; s#/build##' |
	       grep -v -- -rt- | sort -V | tail -1)}
export KVER
libc=/lib/x86_64-linux-gnu/libc.so.6
work=$(mktemp -d "${TMPDIR:-/tmp}/uprobe-libc.XXXXXX"); trap 'rm -rf "$work"' EXIT
. "$top/bench/lib.sh"
mkdir "$work/nodebug"

cat > "$work/all.stp" <<STP
global t0, n
probe begin { t0 = gettimeofday_us() }
probe timer.ms(1) { if (!n++) { printf("@@REG %d\n", gettimeofday_us() - t0); exit() } }
probe process("$libc").function("*") { }
STP

ms() { awk -v us="$1" 'BEGIN { printf "%.1f", us / 1000 }'; }

configs=(symtab)
dpkg -s libc6-dbg >/dev/null 2>&1 && configs+=(dwarf)
declare -A points cold warm cpu p3 csize p4
for cfg in "${configs[@]}"; do
	if [ $cfg = symtab ]; then
		export STAP_NG_DEBUGINFO_DIR=$work/nodebug
	else
		unset STAP_NG_DEBUGINFO_DIR
	fi
	echo "measuring: $cfg" >&2
	points[$cfg]=$("$stap" -p2 "$work/all.stp" | grep -c '^process(' || true)
	t0=${EPOCHREALTIME/[.,]/}
	XDG_CACHE_HOME=$work/cache-$cfg "$stap" -p2 "$work/all.stp" >/dev/null
	t1=${EPOCHREALTIME/[.,]/}
	cold[$cfg]=$(ms $((t1 - t0)))
	warm[$cfg]=$(median_ms "$stap" -p2 "$work/all.stp")
	# CPU time of one warm run: on a loaded host the wall time is mostly waiting.
	cpu[$cfg]=n/a
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$work/cpu" "$stap" -p2 "$work/all.stp" >/dev/null 2>&1
		cpu[$cfg]=$(tail -1 "$work/cpu" | awk '{ printf "%.0f", ($1 + $2) * 1000 }')
	fi
	p3[$cfg]=$(median_ms "$stap" -r "$KVER" -p3 "$work/all.stp")
	csize[$cfg]=$(( $("$stap" -r "$KVER" -p3 "$work/all.stp" | wc -c) / 1024 ))
	t0=${EPOCHREALTIME/[.,]/}
	(cd "$work" && "$stap" -r "$KVER" -p4 -m libc_$cfg "$work/all.stp" >/dev/null)
	t1=${EPOCHREALTIME/[.,]/}
	p4[$cfg]=$(ms $((t1 - t0)))
done
unset STAP_NG_DEBUGINFO_DIR

guest='s=$(readlink -f '"$top"'/staprun/staprun)'
files=("$top/staprun/staprun")
for cfg in "${configs[@]}"; do
	files+=("$work/libc_$cfg.ko")
	guest+="
	a=\$(cut -d' ' -f1 /proc/uptime)
	\$s $work/libc_$cfg.ko > /tmp/out 2> /tmp/err; rc=\$?
	b=\$(cut -d' ' -f1 /proc/uptime)
	sed 's/^/@@$cfg /' /tmp/out; sed 's/^/@@$cfg stderr: /' /tmp/err; echo \"@@$cfg RUN \$a \$b \$rc\""
done
echo "running both in one VM boot of $KVER" >&2
"$tools/vmrun.sh" -t 1200 "${files[@]}" -- "$guest" > "$work/vm.out" 2>&1 || true
tr -d '\r' < "$work/vm.out" > "$work/vm.txt"

row() {	# label unit target values...
	local label=$1 unit=$2 target=$3; shift 3
	printf '%-32s' "$label"
	for v in "$@"; do printf ' %12s' "$v"; done
	printf '  %-4s %s\n' "$unit" "$target"
}
declare -A reg run
for cfg in "${configs[@]}"; do
	r=$(sed -n "s/^@@$cfg @@REG \([0-9]*\).*/\1/p" "$work/vm.txt")
	reg[$cfg]=${r:+$(ms "$r")}
	run[$cfg]=$(awk -v c="@@$cfg" '$1 == c && $2 == "RUN" { printf "%.2f", $4 - $3 }' "$work/vm.txt")
done
echo "process(\"$libc\").function(\"*\")"
row "" "" "target" "${configs[@]}"
row "probe points" "" "-" $(for c in "${configs[@]}"; do echo ${points[$c]}; done)
row "stap -p2, cold" ms "-" $(for c in "${configs[@]}"; do echo ${cold[$c]}; done)
row "stap -p2, warm (median of $runs)" ms "well under 1000 (symtab)" $(for c in "${configs[@]}"; do echo ${warm[$c]}; done)
row "stap -p2, warm, CPU (user+sys)" ms "-" $(for c in "${configs[@]}"; do echo ${cpu[$c]}; done)
row "stap -p3, warm" ms "-" $(for c in "${configs[@]}"; do echo ${p3[$c]}; done)
row "generated C" KB "-" $(for c in "${configs[@]}"; do echo ${csize[$c]}; done)
row "stap -p4 (build), once" ms "-" $(for c in "${configs[@]}"; do echo ${p4[$c]}; done)
row "VM: begin to running (register)" ms "seconds, not minutes" $(for c in "${configs[@]}"; do echo ${reg[$c]:-none}; done)
row "VM: whole staprun run" s "-" $(for c in "${configs[@]}"; do echo ${run[$c]:-none}; done)
grep -E '^@@[a-z]+ (stderr: |RUN .* [1-9][0-9]*$)' "$work/vm.txt" | head -10 || true
for cfg in "${configs[@]}"; do
	[ -n "${reg[$cfg]}" ] || { echo "the VM run gave no figure for $cfg:"; tail -20 "$work/vm.txt"; break; }
done
echo "(KVER=$KVER; host load: $(cut -d' ' -f1-3 /proc/loadavg))"
