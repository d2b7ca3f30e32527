# Two sessions at once (issue #15): two modules loaded together probing
# the same function each count every call, and the second keeps counting
# once the first is gone.  The second one used to fail to load with
# ENOMEM: the runtime's static per-CPU buffers (4.8 KB a module) came
# from the kernel's 8 KB reserve shared by all modules (now
# runtime/stp_scratch.h).  An oops or kernel warning fails the VM run.
# Run through testsuite/unit/vm_smoke.c with a shell script as the
# guest's "staprun" that drives the real one (as cli/staprun_detach.sh).
# SystemTap's reference runner cannot load two modules at once, so the
# expected lines follow staprun(8).  Kernels: $KERNELS, or every one with
# a kbuild tree.
. "$(dirname "$0")/lib.sh"
vm_smoke_dir sessions
sr=$TOP/staprun/staprun
wl=$TOP/testsuite/workload
{
	echo '#!/bin/sh'
	echo 'for m; do :; done'
	echo "sr=$sr wl=$wl b=$work/ko/stp_twob.ko"
	drive_ready
	cat <<'DRIVE'
$sr "$m" >/tmp/a.out 2>&1 & pa=$!
$sr "$b" >/tmp/b.out 2>&1 & pb=$!
ready /tmp/a.out "A ready" && ready /tmp/b.out "B ready"
$wl getppid 1000
kill -INT $pa; wait $pa; echo "A rc=$?"
$wl getppid 500
kill -INT $pb; wait $pb; echo "B rc=$?"
cat /tmp/a.out /tmp/b.out
ls /sys/module | grep '^stp_' || echo "no module left"
DRIVE
} >drive
chmod +x drive
# Ready once the probe fires, not from a begin probe: begin probes run
# before kprobes are registered (in SystemTap 4.8 too: a kernel.function
# probe does not see a call made from a begin probe), and counting calls
# made in between failed the test about one run in four.
two_script='global n, armed
probe kernel.function("__do_sys_getppid") {
	if (execname() == "workload")
		n++
	else if (execname() == "warmup" && !armed) {
		armed = 1
		println("@ ready")
	}
}
probe end { printf("@ %d\n", n) }'
want_out='A rc=0
B rc=0
A ready
A 1000
B ready
B 1500
no module left'
for r in ${KERNELS:-$(build_kernels)}; do
	[ -e "/boot/vmlinuz-$r" ] || continue
	mkdir -p "$r" "o-$r" ko &&
		(cd "$r" && "$STAP" -p4 -r "$r" -m stp_twoa -e "${two_script//@/A}" >/dev/null &&
		 "$STAP" -p4 -r "$r" -m stp_twob -e "${two_script//@/B}" >/dev/null) ||
		fail "$r: cannot build the modules"
	cp "$r/stp_twob.ko" ko/
	vm_smoke_job "$r" "$want_out" -f "$sr" -f "$wl" -f "$work/ko/stp_twob.ko" \
		job="$r/stp_twoa.ko"
done
exit 0
