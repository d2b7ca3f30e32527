# Overload protection with many short hits (issue #14): a probe on
# getppid() whose body is a 400-step loop, a workload calling getppid()
# without pause.  Each hit is short, but together they keep the CPU in
# handlers most of the time: the session must stop with SystemTap's
# overload error, skip the end probe, and say so at exit, as run/overload
# does for a long timer.profile body.  Since the overload check times only
# about one in eight of a hot probe's hits (runtime/context.c), this is
# the test that the sampled figure still adds up.
#
# The threshold is a quarter of the interval (-DSTP_OVERLOAD_THRESHOLD,
# with the LL that SystemTap 4.8's printf format needs), not the
# default half.  The body is three quarters of each call in guest time
# (9,900 of 13,100 cycles, 6.12 on a quiet host).  On a busy host (make
# check builds modules beside the cli group) QEMU's thread is
# descheduled: the interval grows by that time, but the untimed hits
# are charged at a timed hit's figure, which mostly misses it.  With
# modules building, the calls took 16,900 cycles: at half, one CI run
# on 6.12 never reached the threshold.  A quarter still needs the
# untimed hits: the timed ones alone are about a tenth.
#
# Not a run/ test: its VM runs all vCPUs on one host thread (vm_smoke
# -1).  When the error unregisters the probe, the loop is still calling
# getppid() at full speed, and with a thread per vCPU QEMU 7.2 lets that
# vCPU keep executing the int3 the kernel already patched away: the
# guest soft-locks at __do_sys_getppid+0x0 in about one run of three,
# as it does patching that site with the kernel's own tracefs
# (translator/vm.c, cli/load_cycles).
#
# Expected output: SystemTap 4.8's in reference-stap for the same script,
# workload and -D (its error line, its warning, exit status 1).  With a
# 100-step loop and the default threshold, 4.8 ran to the end: its hits
# take the kprobe's int3 trap, which its overload figure does not
# count, so the body was under half of the CPU; ours stopped.
. "$(dirname "$0")/lib.sh"
vm_smoke_dir overload_short
sr=$TOP/staprun/staprun
wl=$TOP/testsuite/workload
{
	echo '#!/bin/sh'
	echo 'for m; do :; done'
	echo "$sr -c '$wl getppid 1000000' \"\$m\""
	echo 'echo "rc=$?"'
	echo "ls /sys/module | grep '^stp_' || echo 'no module left'"
} >drive
chmod +x drive
script='probe begin { println("start") }
probe kernel.function("__do_sys_getppid") { for (i = 0; i < 400; i++) ; }
probe end { println("not printed: errors skip end probes") }'
want_out='start
rc=1
no module left'
err_re='^ERROR: probe overhead \([0-9]+ cycles\) exceeded threshold \(250000000 cycles\) in last 1000000000 cycles
WARNING: Number of errors: 1, skipped probes: 0$'
for r in ${KERNELS:-$(build_kernels)}; do
	[ -e "/boot/vmlinuz-$r" ] || continue
	vm_smoke_build "$r" stp_ovs "$script" -DSTP_OVERLOAD_THRESHOLD=250000000LL
	./vm_smoke -1 -t 300 -o "o-$r" -f "$sr" -f "$wl" \
		-r "$r" -s ./drive job="$r/stp_ovs.ko" >"log-$r" 2>&1 ||
		fail "$r: the VM run failed: $(cat "log-$r")"
	out=$(cat "o-$r/job.out") err=$(cat "o-$r/job.err")
	[ "$out" = "$want_out" ] || fail "$r: stdout differs: expected
$want_out
got
$out
stderr: $err"
	printf %s "$err" | grep -Ezq "$err_re" || fail "$r: stderr differs: expected (a regular expression)
$err_re
got
$err"
done
exit 0
