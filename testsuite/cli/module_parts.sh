# A module links only the runtime its script needs (translator/build.c's
# archive): the -c/-x target's process tree (runtime/target_tree.c, on the
# sched_process_fork tracepoint) only where something reads it.  A
# one-probe module, target() included, must import no tracepoint API
# (nothing to register at start) nor carry the tapset's errno and
# signal tables (tapset_misc.c, once linked for abort()'s message); one
# with target_set_pid() and a process probe must carry the tree and its
# tracepoint.  And the one-probe module's memory beyond its code, .data
# and .bss, stays below 16 KB (SystemTap 4.8's: 6.6 KB and 4 KB): the
# runtime's big buffers are allocated at load for their size, not kept
# in .bss (runtime/ctl.c's message ring was 66 KB there).
. "$(dirname "$0")/lib.sh"
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
rm -f mp_one.ko mp_tree.ko
expect_rc 0 "$STAP" -p4 -m mp_one -r "$r" \
	-e 'global n; probe kernel.function("vfs_read") { if (pid() == target()) n++ }'
syms=$(nm mp_one.ko) || fail "nm mp_one.ko failed"
for s in tracepoint_probe_register for_each_kernel_tracepoint; do
	grep -q " U $s\$" <<<"$syms" && fail "the one-probe module imports $s"
done
grep -q " [Tt] _stp_target_set_start\$" <<<"$syms" &&
	fail "the one-probe module links the target's tree (_stp_target_set_start)"
grep -q " T _stp_errno_str\$" <<<"$syms" &&
	fail "the one-probe module links tapset_misc.o (_stp_errno_str)"
mem=$(size -A mp_one.ko | awk '$1 == ".data" || $1 == ".bss" { n += $2 } END { print n + 0 }')
[ "$mem" -gt 0 ] && [ "$mem" -lt 16384 ] ||
	fail "the one-probe module's .data and .bss are $mem bytes, not under 16 KB: $(size -A mp_one.ko | grep -E '^\.(data|bss)')"
expect_rc 0 "$STAP" -p4 -m mp_tree -r "$r" \
	-e 'probe process.begin { if (target_set_pid(pid())) println(pid()) }'
syms=$(nm mp_tree.ko) || fail "nm mp_tree.ko failed"
grep -q " T _stp_target_set_start\$" <<<"$syms" ||
	fail "target_set_pid() without the target's tree: $(grep _stp_target <<<"$syms")"
grep -q " U tracepoint_probe_register\$" <<<"$syms" ||
	fail "the target's tree without tracepoint_probe_register"
rm -f mp_one.ko mp_tree.ko
