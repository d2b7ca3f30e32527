#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Per-hit cost of a user-space function probe, ours against SystemTap 4.8
# and bpftrace, in one VM boot (TCG: compare ratios, not absolute times):
#
#   ours      process("uloop").function("ufunc") { n++ }
#   stap48    the same script, built by /usr/bin/stap (SystemTap 4.8)
#   bpftrace  uprobe:uloop:ufunc { @n = count(); }
#
# bench/uloop calls ufunc N times and prints ns/call; each tracer's cost
# is its median over RUNS runs minus the median with no tracer.
#
#   bench/uprobe_overhead.sh            (./stap and staprun/staprun built)
#   N=200000 RUNS=3 KVER=6.1.0-56-amd64 bench/uprobe_overhead.sh
#   TOOLS=DIR: where vmrun.sh is (default /work/shared/tools)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
# The shared tools (vmrun.sh): beside the main tree, wherever this tree is
# (a git worktree is not beside them).
tools=${TOOLS:-/work/shared/tools}
[ -x "$tools/vmrun.sh" ] || tools=$top/../shared/tools
[ -x "$tools/vmrun.sh" ] || { echo "uprobe_overhead: no vmrun.sh: set TOOLS=DIR" >&2; exit 1; }
N=${N:-200000} RUNS=${RUNS:-3}
KVER=${KVER:-$(ls -d /lib/modules/6.1.*/build | sed 's#/lib/modules/##; s#/build##' | grep -v -- -rt- | sort -V | tail -1)}
export KVER
w=$(mktemp -d /tmp/uprobe-bench.XXXXXX); trap 'rm -rf "$w"' EXIT

gcc -O2 -o "$w/uloop" "$top/bench/uloop.c"
cat > "$w/count.stp" <<STP
global n
probe process("$w/uloop").function("ufunc") { n++ }
probe end { printf("count n=%d\n", n) }
STP
echo "building: ours"
# Overload protection off for both: under TCG the guest's cycle counter
# runs on while the (loaded) host holds a vCPU, so a tight loop of n++
# hits can seem to spend most of an interval in handlers, and ours
# stopped the session so ("probe overhead exceeded threshold").
noov=-DSTP_NO_OVERLOAD
(cd "$w" && "$top/stap" -r "$KVER" $noov -p4 -m ours count.stp >/dev/null)
files=("$w/uloop" "$w/ours.ko" "$top/staprun/staprun" "$w/guest.sh")
have48=0 havebt=0
if [ -x /usr/bin/stap ] && [ -x /usr/lib/systemtap/stapio ]; then
	echo "building: SystemTap 4.8"
	# The one-line runtime fix reference-stap applies for 6.1 kernels.
	tw=/usr/share/systemtap/runtime/stp_task_work.c
	if [ -f $tw ] && grep -q 'typeof(&task_work_cancel) ' $tw; then
		sed -i 's/typeof(&task_work_cancel) task_work_cancel_fn/typeof(\&task_work_cancel_func) task_work_cancel_fn/;
			s/kallsyms_lookup_name("task_work_cancel")/kallsyms_lookup_name("task_work_cancel_func")/' $tw
	fi
	if (cd "$w" && /usr/bin/stap -r "$KVER" $noov -p4 -m stap48 count.stp >/dev/null 2>"$w/s48.err"); then
		files+=("$w/stap48.ko" /usr/bin/staprun /usr/lib/systemtap/stapio)
		have48=1
	else
		echo "SystemTap 4.8 could not build it: $(tail -3 "$w/s48.err")"
	fi
fi
if [ -x /usr/bin/bpftrace ]; then
	files+=(/usr/bin/bpftrace)
	havebt=1
fi
cat > "$w/guest.sh" <<GUEST
loop() { for r in \$(seq $RUNS); do $w/uloop $N; done | sed "s/^/@@R \$1 /"; }
loop none
ours=\$(readlink -f $top/staprun/staprun)
\$ours $w/ours.ko > /tmp/ours.out 2>&1 & p=\$!; sleep 3
loop ours; kill -INT \$p; wait \$p; sed 's/^/@@O ours /' /tmp/ours.out
if [ $have48 = 1 ]; then
	/usr/bin/staprun $w/stap48.ko > /tmp/s48.out 2>&1 & p=\$!; sleep 5
	loop stap48; kill -INT \$p; wait \$p; sed 's/^/@@O stap48 /' /tmp/s48.out
fi
if [ $havebt = 1 ]; then
	/usr/bin/bpftrace -e 'uprobe:$w/uloop:ufunc { @n = count(); }' > /tmp/bt.out 2>&1 & p=\$!
	for i in \$(seq 60); do grep -q Attaching /tmp/bt.out && break; sleep 1; done; sleep 2
	loop bpftrace; kill -INT \$p; wait \$p; sed 's/^/@@O bpftrace /' /tmp/bt.out
fi
loop none_end
GUEST
echo "running in one VM boot of $KVER ($N calls x $RUNS runs per configuration)"
"$tools/vmrun.sh" -t 1200 "${files[@]}" -- "sh $w/guest.sh" > "$w/vm.out" 2>&1 || true
if ! grep -q '^@@R ' "$w/vm.out"; then
	echo "uprobe_overhead: the VM run gave no figures:" >&2
	tail -20 "$w/vm.out" >&2
	exit 1
fi
grep '^@@O' "$w/vm.out" | sed 's/^@@O /  /' | grep -v '^  [a-z0-9]* *$' || true
awk -v calls=$((N * RUNS)) '
function med(s,   a, n, i, j, t) { n = split(s, a, " "); for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
	return n ? (n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2) : "" }
/^@@R / { v[$2] = v[$2] " " $3; if (!($2 in seen)) { seen[$2] = 1; order[++k] = $2 } }
END {
	base = med(v["none"])
	printf "\n%-10s %10s %14s\n", "config", "ns/call", "ns/hit added"
	for (i = 1; i <= k; i++) {
		c = order[i]; m = med(v[c])
		printf "%-10s %10.0f %14s\n", c, m, c ~ /^none/ ? "-" : sprintf("%.0f", m - base)
	}
	printf "(calls per configuration: %d; \"none_end\" shows the drift within the boot)\n", calls
}' "$w/vm.out"
