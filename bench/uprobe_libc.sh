#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Every libc function at once (issue #13's target):
#   probe process("/lib/x86_64-linux-gnu/libc.so.6").function("*") { }
# from libc's symbol table (Debian without libc6-dbg), thousands of points.
#
#  - stap -p2: cold (an empty XDG_CACHE_HOME) once, and the median of RUNS
#    warm runs; the number of probe points it lists.
#  - stap -p3 and -p4 (build) times, the C and module sizes: not targets,
#    printed so that a change there shows.
#  - at run time, in one VM boot: the time from the begin probe to the
#    first timer hit once the session runs (what registering every uprobe
#    takes), and the whole staprun run (load, register, exit, unregister,
#    unload); any warning about skipped points.
#
#   bench/uprobe_libc.sh                 (./stap and staprun/staprun built)
#   RUNS=9 KVER=6.12.117+deb12-amd64 bench/uprobe_libc.sh
#   TOOLS=DIR: where vmrun.sh is (default /work/shared/tools)
#
# Targets: -p2 warm well under a second; registering in seconds.
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

cat > "$work/all.stp" <<STP
global t0, n
probe begin { t0 = gettimeofday_us() }
probe timer.ms(1) { if (!n++) { printf("@@REG %d\n", gettimeofday_us() - t0); exit() } }
probe process("$libc").function("*") { }
STP

points=$("$stap" -p2 "$work/all.stp" | grep -c '^process(' || true)
t0=${EPOCHREALTIME/[.,]/}
XDG_CACHE_HOME=$work/cache "$stap" -p2 "$work/all.stp" >/dev/null
t1=${EPOCHREALTIME/[.,]/}
cold=$(awk -v us=$((t1 - t0)) 'BEGIN { printf "%.1f", us / 1000 }')
warm=$(median_ms "$stap" -p2 "$work/all.stp")
# CPU time of one warm run: on a loaded host the wall time is mostly waiting.
cpu=n/a
if [ -x /usr/bin/time ]; then
	/usr/bin/time -f '%U %S' -o "$work/cpu" "$stap" -p2 "$work/all.stp" >/dev/null 2>&1
	cpu=$(tail -1 "$work/cpu" | awk '{ printf "%.1f", ($1 + $2) * 1000 }')
fi
p3=$(median_ms "$stap" -r "$KVER" -p3 "$work/all.stp")
csize=$("$stap" -r "$KVER" -p3 "$work/all.stp" | wc -c)
t0=${EPOCHREALTIME/[.,]/}
(cd "$work" && "$stap" -r "$KVER" -p4 -m libcall "$work/all.stp" >/dev/null)
t1=${EPOCHREALTIME/[.,]/}
p4=$(awk -v us=$((t1 - t0)) 'BEGIN { printf "%.1f", us / 1000 }')

"$tools/vmrun.sh" -t 900 "$work/libcall.ko" "$top/staprun/staprun" -- "
	s=\$(readlink -f $top/staprun/staprun)
	a=\$(cut -d' ' -f1 /proc/uptime)
	\$s $work/libcall.ko > /tmp/out 2> /tmp/err; rc=\$?
	b=\$(cut -d' ' -f1 /proc/uptime)
	cat /tmp/out; sed 's/^/stderr: /' /tmp/err; echo \"@@RUN \$a \$b \$rc\"" > "$work/vm.out" 2>&1 || true
reg=$(sed -n 's/^@@REG \([0-9]*\).*/\1/p' "$work/vm.out" | tr -d '\r')
run=$(awk '/^@@RUN / { printf "%.2f", $3 - $2 }' "$work/vm.out")
vmrc=$(awk '/^@@RUN / { print $4 }' "$work/vm.out")

echo "libc function(\"*\"): $points probe points ($libc, symbol table)"
printf '%-34s %12s   %s\n' "" "figure" "target"
printf '%-34s %9s ms   %s\n' "stap -p2, cold" "$cold" "-"
printf '%-34s %9s ms   %s\n' "stap -p2, warm (median of $runs)" "$warm" "well under 1000 ms"
printf '%-34s %9s ms   %s\n' "stap -p2, warm, CPU (user+sys)" "$cpu" "-"
printf '%-34s %9s ms   %s\n' "stap -p3, warm" "$p3" "-"
printf '%-34s %9s KB   %s\n' "generated C" "$((csize / 1024))" "-"
printf '%-34s %9s ms   %s\n' "stap -p4 (build), once" "$p4" "-"
if [ -n "$reg" ]; then
	printf '%-34s %9s ms   %s\n' "VM: begin to running (register)" \
		"$(awk -v us="$reg" 'BEGIN { printf "%.1f", us / 1000 }')" "seconds, not minutes"
	printf '%-34s %9s s    %s\n' "VM: whole staprun run" "$run" "-"
	[ "$vmrc" = 0 ] || echo "staprun exited $vmrc"
	grep '^stderr: ' "$work/vm.out" | head -5 || true
else
	echo "the VM run gave no figure:"; tail -20 "$work/vm.out"
fi
echo "(KVER=$KVER; host load: $(cut -d' ' -f1-3 /proc/loadavg))"
