# staprun's session modes, run in a VM on every provisioned kernel through
# testsuite/unit/vm_smoke.c, with a shell script as the guest's "staprun"
# that drives the real one.  Expected lines: staprun(8), and SystemTap
# 4.8's staprun run by hand in reference-stap's VM where it can.
# - -L starts the probes and detaches, leaving them running (the 20 ms
#   timer ticks on: the driver waits for 25 ticks in its procfs file);
#   -A attaches (the output meanwhile is in the buffers), Ctrl-C ends the
#   session and unloads the module.  -A with nothing loaded is an error.
# - The buffer is stap -s's default, 16 MB a CPU (the VM has the free
#   memory for it; 4.8's is the same, its "buffer size from 16" says).
# - A staprun killed with SIGKILL leaves a module whose probes stopped at
#   the close of .cmd: -A drains what the end probe printed and unloads
#   it, and staprun -d unloads such a module too.
# - SIGQUIT (Ctrl-\) detaches as -L does, with 4.8's words; SIGUSR2 moves
#   -o FILE's output on to FILE.1, then FILE.2, and with -S SIZE,N on to
#   the rotation's next file, the newest N kept (4.8: the same files).
# - -d '*' unloads the modules no staprun is attached to, saying "Module
#   NAME removed." (4.8 looks for them where its own modules keep no
#   files, and removes none); -d NAME of a module in use, or of none, says
#   it "is not a zombie systemtap module" and exits 234, as 4.8 does.
# - -D -o FILE runs the session in the background, printing its pid.  -o
#   on a full device is an error (exit 1; 4.8 says so but exits 0).  -w
#   hides warnings and the error summary, not errors (as 4.8).
# - -R loads the module as NAME_PID; -r N:URI sets remote_id() and
#   remote_uri(); -M SECS prints the probe table.
# - stap -F's module overwrites its oldest output instead (flight
#   recorder), in a 1 MB buffer (-b 1).
# - A signal while staprun loads the module (held opening a FIFO as its
#   module, fed once the signal is in): SIGQUIT, SIGINT and SIGTERM end
#   staprun with status 1 and no module left loaded, no session run, as
#   4.8's staprun does (run by hand with a FIFO, and with a kill 0.05 s
#   after its start); SIGUSR2 changes nothing (4.8: the same).
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
	echo "warn=$work/fl/stp_warn.ko"
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
echo "default buffer: $(cat /sys/module/stp_detach/parameters/_stp_bufsize) MB"
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
$sr "$m" & p=$!
wait_for /proc/systemtap/stp_detach/ticks 25; { kill -KILL $p; wait $p; } 2>/dev/null
$sr -d stp_detach; echo "d after SIGKILL rc=$?"
[ -e /sys/module/stp_detach ] || echo "unloaded"
$sr "$m" & p=$!
wait_for /proc/systemtap/stp_detach/ticks 25; kill -QUIT $p; wait $p; echo "QUIT rc=$?"
[ -e /sys/module/stp_detach ] && echo "left loaded"
$sr -A stp_detach & p=$!
sleep 1; kill -INT $p; wait $p; echo "A after QUIT rc=$?"
$sr -o /tmp/sw "$m" & p=$!
wait_for /proc/systemtap/stp_detach/ticks 25; kill -USR2 $p
sleep 1; kill -USR2 $p; sleep 1; kill -INT $p; wait $p; echo "USR2 rc=$?"
for f in /tmp/sw*; do echo "$f: $(cat $f)"; done
$sr -S 1,2 -o /tmp/rs "$m" & p=$!
wait_for /proc/systemtap/stp_detach/ticks 1; kill -USR2 $p
sleep 1; kill -USR2 $p; sleep 1; kill -USR2 $p; sleep 1; kill -INT $p; wait $p; echo "USR2 -S rc=$?"
for f in /tmp/rs*; do echo "$f: $(cat $f)"; done
$sr -o /dev/full "$m"; echo "full rc=$?"
[ -e /sys/module/stp_detach ] || echo "unloaded"
$sr -R "$m" >/dev/null & p=$!
i=0; until ls /sys/module | grep -q '^stp_detach_' || [ $i -ge 600 ]; do sleep 0.1; i=$((i + 1)); done
$sr -L "$m" 2>/dev/null
wait_for /proc/systemtap/stp_detach/ticks 25
$sr -d '*'; echo "d star rc=$?"
[ -e /sys/module/stp_detach ] || echo "detached one unloaded"
ls /sys/module | grep -q '^stp_detach_' && echo "attached one kept"
$sr -d "$(ls /sys/module | grep '^stp_detach_')" 2>/tmp/d.err; echo "d attached rc=$?"
sed 's/stp_detach_[0-9]*/stp_detach_PID/' /tmp/d.err >&2
$sr -d nosuch; echo "d nosuch rc=$?"
kill -INT $p; wait $p; echo "attached rc=$?"
pid=$($sr -D -o /tmp/bg "$m"); echo "D rc=$?"
wait_for /proc/systemtap/stp_detach/ticks 25; kill -INT "$pid"
i=0; while [ -e /sys/module/stp_detach ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
cat /tmp/bg
$sr -w "$warn"; echo "w rc=$?"
$sr "$warn"; echo "no w rc=$?"
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
$sr -b 1 -L "$flight" >/dev/null; echo "flight L rc=$?"
echo "flight buffer: $(cat /sys/module/stp_flight/parameters/_stp_bufsize) MB"
wait_for /proc/systemtap/stp_flight/lines 40000
$sr -A stp_flight >/tmp/f.out & p=$!
sleep 1; kill -INT $p; wait $p; echo "flight A rc=$?"
awk '$1 == "end" { end = 1; next }
     { if (NR == 1) first = $1; else if ($1 != prev + 1) gap = 1; prev = $1
       if (length($0) != 100) bad = 1 }
     END { print "flight: overwritten", (first > 10000 ? "yes" : "no"),
           "consecutive", (gap || bad ? "no" : "yes"), "end", (end ? "yes" : "no") }' /tmp/f.out
mkdir -p /tmp/ld
for sig in QUIT INT TERM USR2; do
	mkfifo /tmp/ld/stp_detach.ko
	$sr /tmp/ld/stp_detach.ko & p=$!
	i=0; until grep -q wait_for_partner /proc/$p/wchan 2>/dev/null || [ $i -ge 600 ]; do
		sleep 0.1; i=$((i + 1)); done
	kill -$sig $p; cat "$m" >/tmp/ld/stp_detach.ko & c=$!
	if [ $sig = USR2 ]; then wait_for /proc/systemtap/stp_detach/ticks 25; kill -INT $p; fi
	# Not for ever: a staprun that let the signal go runs on (30 s at most).
	i=0; while kill -0 $p 2>/dev/null && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
	kill -0 $p 2>/dev/null && { echo "$sig while loading: still running"; kill -KILL $p; }
	wait $p; echo "$sig while loading rc=$?"
	[ -e /sys/module/stp_detach ] && { echo "left loaded"; $sr -d stp_detach; } || echo "not loaded"
	kill $c 2>/dev/null; rm -f /tmp/ld/stp_detach.ko
done
DRIVE
} >drive
chmod +x drive
script='global n
probe begin { printf("begin\n") }
probe timer.ms(20) { n++ }
probe procfs("ticks").read { $value = sprint(n) }
probe end { printf("end %s\n", n >= 25 ? "ticked on" : "stopped early") }'
# -F: with no reader the module prints 4 MB into a 1 MB buffer (-b 1; by
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
# staprun -w: no warnings from the script, nor the summary of its errors
# (nor that of transport failures), as in SystemTap 4.8; errors still.
warn_script='global z = 0
probe begin { warn("careful"); printf("x\n"); println(1 / z) }
probe begin(1) { exit() }'
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
default buffer: 16 MB
left loaded
end ticked on
A rc=0
unloaded
A with nothing loaded rc=1
begin
end ticked on
A after SIGKILL rc=0
unloaded
begin
d after SIGKILL rc=0
unloaded
begin
QUIT rc=0
left loaded
end ticked on
A after QUIT rc=0
USR2 rc=0
/tmp/sw: begin
/tmp/sw.1: 
/tmp/sw.2: end ticked on
USR2 -S rc=0
/tmp/rs.2: 
/tmp/rs.3: end ticked on
full rc=1
unloaded
begin
Module stp_detach removed.
d star rc=0
detached one unloaded
attached one kept
d attached rc=234
d nosuch rc=234
attached rc=0
D rc=0
begin
end ticked on
x
w rc=1
x
no w rc=1
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
flight buffer: 1 MB
flight A rc=0
flight: overwritten yes consecutive yes end yes
QUIT while loading rc=1
not loaded
INT while loading rc=1
not loaded
TERM while loading rc=1
not loaded
begin
end ticked on
USR2 while loading rc=0
not loaded'
want_err='
Disconnecting from systemtap module.
To reconnect, type "staprun -A stp_detach"
staprun: cannot attach: no module stp_detach is loaded

Disconnecting from systemtap module.
To reconnect, type "staprun -A stp_detach"
staprun: output: cannot write /dev/full: No space left on device
ERROR: Cannot attach to module stp_detach_PID control channel; not running?
ERROR: '"'"'stp_detach_PID'"'"' is not a zombie systemtap module.
ERROR: Cannot attach to module nosuch control channel; not running?
ERROR: '"'"'nosuch'"'"' is not a zombie systemtap module.
ERROR: division by 0 near operator '"'"'/'"'"' at <input>:2:57
WARNING: careful
ERROR: division by 0 near operator '"'"'/'"'"' at <input>:2:57
WARNING: Number of errors: 1, skipped probes: 0

Disconnecting from systemtap module.
To reconnect, type "staprun -A stp_flight"'
for r in ${KERNELS:-$(build_kernels)}; do
	[ -e "/boot/vmlinuz-$r" ] || continue
	mkdir -p "$r" "o-$r" && (cd "$r" && "$STAP" -p4 -r "$r" -m stp_detach -e "$script" >/dev/null) ||
		fail "$r: cannot build the module"
	(cd "$r" && "$STAP" -p4 -F -r "$r" -m stp_flight -e "$flight_script" >/dev/null) ||
		fail "$r: cannot build the flight recorder module"
	(cd "$r" && "$STAP" -p4 -r "$r" -m stp_warn -e "$warn_script" >/dev/null) ||
		fail "$r: cannot build the warn() module"
	(cd "$r" && "$STAP" -p4 -r "$r" -m stp_remote -e "$remote_script" >/dev/null) ||
		fail "$r: cannot build the remote_id module"
	(cd "$r" && "$STAP" -p4 --monitor -r "$r" -m stp_mon -e "$mon_script" >/dev/null) ||
		fail "$r: cannot build the --monitor module"
	mkdir -p fl && cp "$r/stp_flight.ko" "$r/stp_remote.ko" "$r/stp_mon.ko" "$r/stp_warn.ko" fl/
	vm_smoke_job "$r" "$want_out" --err "$want_err" -f "$sr" -f "$work/fl/stp_flight.ko" \
		-f "$work/fl/stp_remote.ko" -f "$work/fl/stp_mon.ko" -f "$work/fl/stp_warn.ko" \
		job="$r/stp_detach.ko"
done
exit 0
