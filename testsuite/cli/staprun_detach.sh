# staprun -L starts the probes and detaches, leaving them running;
# staprun -A attaches to the running module (its output meanwhile is in
# the buffers), Ctrl-C ends it and unloads it.  A staprun killed with
# SIGKILL leaves a module whose probes stopped at the close of .cmd: -A
# drains what the end probe printed and unloads it.  Detached, the
# 20 ms timer keeps ticking for the second before -A (25 ticks or more).  -A with nothing
# loaded is an error.  Run in a VM on every provisioned kernel, through
# testsuite/unit/vm_smoke.c with a shell script as the guest's "staprun"
# that drives the real one.  (SystemTap 4.8's reference runner cannot
# detach, so the expected lines follow staprun(8).)
. "$(dirname "$0")/lib.sh"
[ -n "$(first_kernel)" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing: run ./bootstrap.sh"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/detach.XXXXXX")
trap '[ -n "$KEEP" ] || rm -rf "$work"' EXIT
cd "$work" || exit 1
gcc -O2 -D_GNU_SOURCE -I "$TOP/common" -I "$TOP/translator" -o vm_smoke \
	"$TOP/testsuite/unit/vm_smoke.c" "$TOP/translator/vm.c" "$TOP/common/util.c" ||
	fail "cannot build vm_smoke"
sr=$TOP/staprun/staprun
{
	echo '#!/bin/sh'
	echo 'for m; do :; done'
	echo "sr=$sr"
	cat <<'DRIVE'
$sr -L "$m"; echo "L rc=$?"
[ -e /sys/module/stp_detach ] && echo "left loaded"
sleep 1
$sr -A stp_detach & p=$!
sleep 1; kill -INT $p; wait $p; echo "A rc=$?"
[ -e /sys/module/stp_detach ] || echo "unloaded"
$sr -A stp_detach; echo "A with nothing loaded rc=$?"
$sr "$m" & p=$!
sleep 1; { kill -KILL $p; wait $p; } 2>/dev/null
$sr -A stp_detach; echo "A after SIGKILL rc=$?"
[ -e /sys/module/stp_detach ] || echo "unloaded"
DRIVE
} >drive
chmod +x drive
script='global n
probe begin { printf("begin\n") }
probe timer.ms(20) { n++ }
probe end { printf("end %s\n", n >= 25 ? "ticked on" : "stopped early") }'
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
unloaded'
want_err='
Disconnecting from systemtap module.
To reconnect, type "staprun -A stp_detach"
staprun: cannot attach: no module stp_detach is loaded'
for r in $(build_kernels); do
	[ -e "/boot/vmlinuz-$r" ] || continue
	mkdir -p "$r" "o-$r" && (cd "$r" && "$STAP" -p4 -r "$r" -m stp_detach -e "$script" >/dev/null) ||
		fail "$r: cannot build the module"
	./vm_smoke -t 120 -o "o-$r" -f "$sr" -r "$r" -s ./drive job="$r/stp_detach.ko" >"log-$r" 2>&1 ||
		fail "$r: the VM run failed: $(cat "log-$r")"
	out=$(cat "o-$r/job.out")
	[ "$out" = "$want_out" ] || fail "$r: stdout differs: expected
$want_out
got
$out
stderr: $(cat "o-$r/job.err")"
	out=$(cat "o-$r/job.err")
	[ "$out" = "$want_err" ] || fail "$r: stderr differs: expected
$want_err
got
$out"
done
exit 0
