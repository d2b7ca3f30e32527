# staprun -N PID (stap --target-namespaces=PID): the ns_*() functions see
# the pid and user namespaces of PID.  In the VM, unshare(1) starts a
# shell in a new pid namespace (where it is pid 1) and a new user
# namespace (uid 5, gid 7 inside for root outside); once the module runs
# it execs the workload, which calls getppid().  The module, loaded with
# -N naming that shell, prints the ids of the workload's call as its own
# namespaces see them (1, its parent and group outside: 0; uid 5, gid
# 7), and those of staprun's begin probe, which that pid namespace
# cannot see (0) and whose root user is uid 5 there; task_ns_*() (guru
# mode) of the workload's task agree.
# Without -N the ids are those of staprun's (the init) namespaces: the
# plain pid() and uid() (run/ns_ids compares those with SystemTap's).
# stap --target-namespaces=PID passes -N PID on to staprun.
# SystemTap's reference runner cannot pass -N, so the figures follow the
# kernel's namespace rules (pid_namespaces(7), user_namespaces(7)).
. "$(dirname "$0")/lib.sh"
vm_smoke_dir nsids
sr=$TOP/staprun/staprun
wl=$TOP/testsuite/workload
us=$(command -v unshare) || { echo "unshare(1) missing"; exit 77; }
{
	echo '#!/bin/sh'
	echo 'for m; do :; done'
	echo "sr=$sr wl=$wl us=$us"
	drive_ready
	cat <<'DRIVE'
$us --pid --fork --user --map-user=5 --map-group=7 /bin/sh -c \
	'while [ ! -e /tmp/go ]; do sleep 0.1; done; exec '"$wl"' getppid 1' & u=$!
i=0
while [ -z "$(cat /proc/$u/task/$u/children 2>/dev/null)" ]; do
	i=$((i + 1)); [ $i -gt 600 ] && { echo "no child of unshare"; break; }
	sleep 0.1
done
child=$(cat /proc/$u/task/$u/children)
$sr -N $child "$m" >/tmp/out 2>&1 & s=$!
ready /tmp/out ready && touch /tmp/go
wait $s; echo "staprun rc=$?"
wait $u
cat /tmp/out
$sr -N 999999 "$m" 2>&1; echo "rc=$?"
DRIVE
} >drive
chmod +x drive
script='global armed
probe begin { printf("begin %d %d %d %d\n", ns_pid(), ns_tid(), ns_uid(), ns_egid()) }
probe kernel.function("__do_sys_getppid") {
	if (execname() == "warmup" && !armed) {
		armed = 1
		println("ready")
	}
	if (execname() == "workload") {
		printf("%d %d %d %d %d %d %d %d %d\n", ns_pid(), ns_tid(), ns_ppid(), ns_pgrp(),
		       ns_sid(), ns_uid(), ns_euid(), ns_gid(), ns_egid())
		t = task_current()
		printf("task %d %d %d %d %d %d\n", task_ns_pid(t), task_ns_tid(t), task_ns_uid(t),
		       task_ns_euid(t), task_ns_gid(t), task_ns_egid(t))
		exit()
	}
}'
want='staprun rc=0
begin 0 0 5 7
ready
1 1 0 0 0 5 5 7 7
task 1 1 5 5 7 7
staprun: -N 999999: no such process
rc=1'
for r in ${KERNELS:-$(build_kernels)}; do
	[ -e "/boot/vmlinuz-$r" ] || continue
	mkdir -p "$r" "o-$r" &&
		(cd "$r" && "$STAP" -p4 -g -r "$r" -m stp_nsids -e "$script" >/dev/null) ||
		fail "$r: cannot build the module"
	./vm_smoke -t 300 -o "o-$r" -f "$sr" -f "$wl" -f "$us" \
		-r "$r" -s ./drive job="$r/stp_nsids.ko" >"log-$r" 2>&1 ||
		fail "$r: the VM run failed: $(cat "log-$r")"
	out=$(cat "o-$r/job.out")
	[ "$out" = "$want" ] || fail "$r: expected
$want
got
$out
stderr: $(cat "o-$r/job.err")"
	# stap passes --target-namespaces to staprun as -N.
	out=$("$STAP" --vm -r "$r" --target-namespaces=4000000 -e 'probe begin { exit() }' 2>&1)
	rc=$?
	[ $rc = 1 ] && [ "$out" = "staprun: -N 4000000: no such process" ] ||
		fail "$r: stap --target-namespaces=4000000: rc $rc: $out"
done
exit 0
