# A module links only the runtime its script needs (translator/build.c's
# archive): the -c/-x target's process tree (runtime/target_tree.c, on the
# sched_process_fork tracepoint) only where something reads it.  A
# one-probe module, target() included, must import no tracepoint API
# (nothing to register at start) nor carry the tapset's errno and
# signal tables (tapset_misc.c, once linked for abort()'s message); one
# with target_set_pid() and a process probe must carry the tree and its
# tracepoint.
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
expect_rc 0 "$STAP" -p4 -m mp_tree -r "$r" \
	-e 'probe process.begin { if (target_set_pid(pid())) println(pid()) }'
syms=$(nm mp_tree.ko) || fail "nm mp_tree.ko failed"
grep -q " T _stp_target_set_start\$" <<<"$syms" ||
	fail "target_set_pid() without the target's tree: $(grep _stp_target <<<"$syms")"
grep -q " U tracepoint_probe_register\$" <<<"$syms" ||
	fail "the target's tree without tracepoint_probe_register"
rm -f mp_one.ko mp_tree.ko
