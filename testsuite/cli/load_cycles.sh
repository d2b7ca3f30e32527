# 40 load/unload cycles of a module whose probes fire all the time
# (issue #15): a loop calls getppid() while staprun loads a module with
# an entry probe on the ftrace site of __do_sys_getppid (our own
# ftrace_ops), a .return probe (a kretprobe) and a stat map, which exits
# by itself once both probes have hit 10 times.  Every cycle must print
# its line and exit 0; no module may be left; an oops or kernel warning
# fails the VM run; and the kernel's memory after the cycles, against
# after three warm-up cycles, may not grow beyond noise:
#   Slab and VmallocUsed at most 1 MB (noise here: about 150 KB),
#   Percpu at most 64 KB (noise: 0), MemAvailable at most 32 MB down
#   (noise: about 10 MB either way, from the page allocator's lists).
# A leaked map (kvfree of its entries left out) grows VmallocUsed/Slab
# past these: Slab by 10 MB over the 40 cycles on 6.1 (100 cycles, as
# before, cost about 1.4 s of VM CPU a cycle more, 4 minutes a make check).
#
# The VM runs its vCPUs on one host thread (vm_smoke -1): with a thread
# per vCPU, QEMU 7.2 lets one vCPU keep running code another rewrote,
# so patching a site the loop keeps calling oopses ("int3" not in memory
# any more) or spins, within a few cycles on 6.1 and 6.12, also with the
# kernel's own tracefs instances and no module of ours (translator/vm.c).
#
# Run through testsuite/unit/vm_smoke.c with a shell script as the
# guest's "staprun" that drives the real one (as cli/fault_sessions.sh).
# SystemTap's reference runner loads one module once, so the lines
# follow staprun(8).  Kernels: $KERNELS, or every one with a kbuild tree.
. "$(dirname "$0")/lib.sh"
vm_smoke_dir cycles
sr=$TOP/staprun/staprun
wl=$TOP/testsuite/workload
cycles=40
{
	echo '#!/bin/sh'
	echo 'for m; do :; done'
	echo "sr=$sr wl=$wl n=$cycles"
	cat <<'DRIVE'
mem() {
	sync; echo 3 >/proc/sys/vm/drop_caches
	awk '/^(MemAvailable|Slab|VmallocUsed|Percpu):/ { printf " %s %d", $1, $2 }' /proc/meminfo
}
(while :; do $wl getppid 1000000 >/dev/null; done) & bg=$!
for i in 1 2 3; do $sr "$m" >/dev/null 2>&1; done
before=$(mem)
ok=0 i=0
while [ $i -lt $n ]; do
	i=$((i + 1))
	out=$($sr "$m" 2>/tmp/err); rc=$?
	if [ $rc = 0 ] && [ "$out" = hits ]; then
		ok=$((ok + 1))
	else
		echo "cycle $i: rc=$rc: $out $(cat /tmp/err)"
	fi
done
after=$(mem)
kill $bg
echo "cycles ok: $ok"
ls /sys/module | grep '^stp_' || echo "no module left"
echo "before:$before"
echo "after:$after"
DRIVE
} >drive
chmod +x drive
script='global n, r, a
probe kernel.function("__do_sys_getppid") { n++; a[tid()] <<< 1 }
probe kernel.function("__do_sys_getppid").return { r++ }
probe timer.ms(10) { if (n >= 10 && r >= 10) { println("hits"); delete a; exit() } }'
# field NAME LINE: the figure after "NAME:" in LINE
field() { set -- "$1" $2; n=$1; shift; while [ $# -gt 1 ]; do [ "$1" = "$n:" ] && { echo "$2"; return; }; shift; done; echo 0; }
for r in ${KERNELS:-$(build_kernels)}; do
	[ -e "/boot/vmlinuz-$r" ] || continue
	vm_smoke_build "$r" stp_cycles "$script"
	./vm_smoke -1 -t 900 -o "o-$r" -f "$sr" -f "$wl" \
		-r "$r" -s ./drive job="$r/stp_cycles.ko" >"log-$r" 2>&1 ||
		fail "$r: the VM run failed: $(cat "log-$r")"
	out=$(cat "o-$r/job.out")
	want="cycles ok: $cycles
no module left"
	[ "$(echo "$out" | sed -n 1,2p)" = "$want" ] || fail "$r: expected
$want
got
$out
stderr: $(cat "o-$r/job.err")"
	before=$(echo "$out" | sed -n 's/^before://p')
	after=$(echo "$out" | sed -n 's/^after://p')
	slab=$(( $(field Slab "$after") - $(field Slab "$before") ))
	vmalloc=$(( $(field VmallocUsed "$after") - $(field VmallocUsed "$before") ))
	percpu=$(( $(field Percpu "$after") - $(field Percpu "$before") ))
	avail=$(( $(field MemAvailable "$before") - $(field MemAvailable "$after") ))
	echo "$r: after $cycles cycles: Slab ${slab} KB, VmallocUsed ${vmalloc} KB, Percpu ${percpu} KB, MemAvailable -${avail} KB"
	[ "$slab" -le 1024 ] && [ "$vmalloc" -le 1024 ] && [ "$percpu" -le 64 ] &&
		[ "$avail" -le 32768 ] ||
		fail "$r: kernel memory grew over $cycles cycles:
before:$before
after:$after"
done
exit 0
