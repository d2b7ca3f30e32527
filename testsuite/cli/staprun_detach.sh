# staprun -L starts the probes and detaches, leaving them running;
# staprun -A attaches to the running module (its output meanwhile is in
# the buffers), Ctrl-C ends it and unloads it.  A staprun killed with
# SIGKILL leaves a module whose probes stopped at the close of .cmd: -A
# drains what the end probe printed and unloads it.  Detached, the
# 20 ms timer keeps ticking until -A (the driver waits for 25 ticks in its procfs file).  -A with nothing
# loaded is an error.  -R loads the module as NAME_PID; -r N:URI sets
# remote_id() and remote_uri(); -M SECS prints the probe table.  stap -F's module overwrites its oldest output
# instead (flight recorder).  Run in a VM on every provisioned kernel, through
# testsuite/unit/vm_smoke.c with a shell script as the guest's "staprun"
# that drives the real one.  (SystemTap 4.8's reference runner cannot
# detach, so the expected lines follow staprun(8).)
. "$(dirname "$0")/lib.sh"
vm_smoke_dir detach
sr=$TOP/staprun/staprun
{
	echo '#!/bin/sh'
	echo 'for m; do :; done'
	echo "sr=$sr"
	echo "flight=$work/fl/stp_flight.ko"
	echo "remote=$work/fl/stp_remote.ko"
	echo "mon=$work/fl/stp_mon.ko"
	cat <<'DRIVE'
# Until the module's procfs file FILE says at least N (60 s at most): a
# loaded host's VM may get few timer ticks in a second.
wait_for() {
	i=0
	until [ "$(cat "$1" 2>/dev/null || echo 0)" -ge "$2" ] || [ $i -ge 600 ]; do
		sleep 0.1; i=$((i + 1))
	done
}
$sr -L "$m"; echo "L rc=$?"
[ -e /sys/module/stp_detach ] && echo "left loaded"
wait_for /proc/systemtap/stp_detach/ticks 25
$sr -A stp_detach & p=$!
sleep 1; kill -INT $p; wait $p; echo "A rc=$?"
[ -e /sys/module/stp_detach ] || echo "unloaded"
$sr -A stp_detach; echo "A with nothing loaded rc=$?"
$sr "$m" & p=$!
wait_for /proc/systemtap/stp_detach/ticks 25; { kill -KILL $p; wait $p; } 2>/dev/null
$sr -A stp_detach; echo "A after SIGKILL rc=$?"
[ -e /sys/module/stp_detach ] || echo "unloaded"
$sr -R -L "$m" >/dev/null 2>/tmp/r.err; n=$(sed -n 's/.*staprun -A \(.*\)"$/\1/p' /tmp/r.err)
case $n in stp_detach_[0-9]*) echo "renamed" ;; *) echo "not renamed: $n" ;; esac
[ -e /sys/module/stp_detach ] || echo "old name free"
$sr -A "$n" >/dev/null & p=$!
sleep 1; kill -INT $p; wait $p; echo "renamed A rc=$?"
[ -e "/sys/module/$n" ] || echo "renamed unloaded"
$sr "$remote"; $sr -r 3:ssh://host.example "$remote"
$sr -M 1 "$mon" 2>/tmp/m.err & p=$!
sleep 3; kill -INT $p; wait $p; echo "monitor rc=$?"
[ "$(grep -c 'index *hits *avg cycles *probe' /tmp/m.err)" -ge 2 ] && echo "monitor: tables"
grep -q '^0 *[0-9][0-9]* *[0-9][0-9]*  timer.ms(100) (<input>:2:1)$' /tmp/m.err && echo "monitor: timer row"
$sr -L "$flight" >/dev/null; echo "flight L rc=$?"
wait_for /proc/systemtap/stp_flight/lines 40000
$sr -A stp_flight >/tmp/f.out & p=$!
sleep 1; kill -INT $p; wait $p; echo "flight A rc=$?"
awk '$1 == "end" { end = 1; next }
     { if (NR == 1) first = $1; else if ($1 != prev + 1) gap = 1; prev = $1
       if (length($0) != 100) bad = 1 }
     END { print "flight: overwritten", (first > 10000 ? "yes" : "no"),
           "consecutive", (gap || bad ? "no" : "yes"), "end", (end ? "yes" : "no") }' /tmp/f.out
DRIVE
} >drive
chmod +x drive
script='global n
probe begin { printf("begin\n") }
probe timer.ms(20) { n++ }
probe procfs("ticks").read { $value = sprint(n) }
probe end { printf("end %s\n", n >= 25 ? "ticked on" : "stopped early") }'
# -F: with no reader the module prints 4 MB into a 1 MB buffer (by
# count, not for a time: a loaded host's VM gets fewer ticks); attached
# once its procfs file counts them all, staprun gets the newest lines,
# whole and in order, and not the first ones.
flight_script='global n
probe timer.ms(1) {
	if (n < 40000)
		for (i = 0; i < 200; i++)
			printf("%10d %089d\n", ++n, 0)
}
probe procfs("lines").read { $value = sprint(n) }
probe end { printf("end\n") }'
# staprun -r N:URI: remote_id() and remote_uri() (SystemTap 4.8 prints
# "-1 []" without it).
remote_script='probe begin { printf("%d [%s]\n", remote_id(), remote_uri()); exit() }'
# staprun -M 1 with a module built by stap --monitor: the probe table,
# redrawn every second while the session runs.
mon_script='global n
probe timer.ms(100) { n++ }
probe end { printf("ticks %s\n", n > 0 ? "yes" : "no") }'
want_out='begin
L rc=0
left loaded
end ticked on
A rc=0
unloaded
A with nothing loaded rc=1
begin
end ticked on
A after SIGKILL rc=0
unloaded
renamed
old name free
renamed A rc=0
renamed unloaded
-1 []
3 [ssh://host.example]
ticks yes
monitor rc=0
monitor: tables
monitor: timer row
flight L rc=0
flight A rc=0
flight: overwritten yes consecutive yes end yes'
want_err='
Disconnecting from systemtap module.
To reconnect, type "staprun -A stp_detach"
staprun: cannot attach: no module stp_detach is loaded

Disconnecting from systemtap module.
To reconnect, type "staprun -A stp_flight"'
for r in ${KERNELS:-$(build_kernels)}; do
	[ -e "/boot/vmlinuz-$r" ] || continue
	mkdir -p "$r" "o-$r" && (cd "$r" && "$STAP" -p4 -r "$r" -m stp_detach -e "$script" >/dev/null) ||
		fail "$r: cannot build the module"
	(cd "$r" && "$STAP" -p4 -F -r "$r" -m stp_flight -e "$flight_script" >/dev/null) ||
		fail "$r: cannot build the flight recorder module"
	(cd "$r" && "$STAP" -p4 -r "$r" -m stp_remote -e "$remote_script" >/dev/null) ||
		fail "$r: cannot build the remote_id module"
	(cd "$r" && "$STAP" -p4 --monitor -r "$r" -m stp_mon -e "$mon_script" >/dev/null) ||
		fail "$r: cannot build the --monitor module"
	mkdir -p fl && cp "$r/stp_flight.ko" "$r/stp_remote.ko" "$r/stp_mon.ko" fl/
	vm_smoke_job "$r" "$want_out" --err "$want_err" -f "$sr" -f "$work/fl/stp_flight.ko" \
		-f "$work/fl/stp_remote.ko" -f "$work/fl/stp_mon.ko" job="$r/stp_detach.ko"
done
exit 0
