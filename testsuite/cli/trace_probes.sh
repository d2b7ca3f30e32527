# kernel.trace("[SYSTEM:]NAME") resolved from the DWARF of every kernel
# with debuginfo (translator/probes/trace.c): listing, -p2 names, the
# prototypes' C, and the errors.  trace_systems.sh checks the systems
# against the kernel's own tracefs in the VM.
. "$(dirname "$0")/lib.sh"

# No debuginfo: the dw layer's message, naming the package.
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.trace("sched_switch") { }'
contains "<input>:1:20: error: dwarf: no debuginfo for kernel 0.0.0-nosuch"
contains "hint: install linux-image-0.0.0-nosuch-dbg"
# ... an optional point is dropped instead.
expect_rc 0 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.trace("sched_switch") ?, begin { }'
expect_rc 1 "$STAP" -l 'kernel.trace("sched:*")' -r 0.0.0-nosuch
contains "stap: dwarf: no debuginfo for kernel 0.0.0-nosuch"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	# -L: the prototype, as the tracepoint names and types its arguments.
	expect_rc 0 "$STAP" -r "$r" -L 'kernel.trace("sched:sched_switch")'
	[ "$out" = 'kernel.trace("sched:sched_switch") $preempt:bool $prev:struct task_struct* $next:struct task_struct* $prev_state:unsigned int' ] ||
		fail "$r: -L sched_switch: $out"
	# Without a system, the name is looked up in every system.
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.trace("sched_process_exec")'
	[ "$out" = 'kernel.trace("sched:sched_process_exec")' ] || fail "$r: -l exec: $out"
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.trace("raw_syscalls:sys_en*")'
	[ "$out" = 'kernel.trace("raw_syscalls:sys_enter")' ] || fail "$r: -l sys_enter: $out"
	# Globs in both parts; every listed point has a system and a name.
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.trace("*:*")'
	all=$out
	[ "$(wc -l <<<"$all")" -gt 300 ] || fail "$r: few tracepoints: $(wc -l <<<"$all")"
	bad=$(grep -vE '^kernel\.trace\("[a-z0-9_]+:[A-Za-z0-9_]+"\)$' <<<"$all" | head -3)
	[ -z "$bad" ] || fail "$r: odd -l lines: $bad"
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.trace("*")'
	[ "$out" = "$all" ] || fail "$r: \"*\" and \"*:*\" list differently"
	# DECLARE_TRACE-only tracepoints take their header's system.
	grep -qxF 'kernel.trace("sched:sched_update_nr_running_tp")' <<<"$all" ||
		fail "$r: no sched:sched_update_nr_running_tp"
	# Nothing matches: status 1, as SystemTap.
	expect_rc 1 "$STAP" -r "$r" -l 'kernel.trace("no_such_tp_*")'

	# One probe per match, named as stap -l names it.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("sched:sched_process_*") { }'
	want=$("$STAP" -l 'kernel.trace("sched:sched_process_*")' -r "$r")
	[ "$(sed -n 's| /\* <- <input>:1:7 \*/$||p' <<<"$out" | sort)" = "$want" ] ||
		fail "$r: wildcard -p2 listing differs from -l: $out"

	# The callback takes as many unsigned longs as the tracepoint has
	# arguments; narrower ones are truncated and extended by their type.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.trace("sched_switch") { println($prev_state, $preempt, $$parms) }'
	contains 'static void stp_tp_fn4(void *data, unsigned long a0, unsigned long a1, unsigned long a2, unsigned long a3)'
	contains '{ .probe = &stp_probe_0, .name = "sched_switch", .fn = (void *)stp_tp_fn4, .flags = 0, .nr = -1, .nr32 = -1 },'
	contains '(unsigned long)(u32)c->args[3]'
	contains '(unsigned long)(u8)c->args[0]'
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.trace("sched_process_exec") { println($old_pid) }'
	contains '(unsigned long)(long)(s32)c->args[1]'
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.trace("sched_switch") ? { }'
	contains '.flags = STP_TRACEPOINT_OPTIONAL, .nr = -1, .nr32 = -1 },'

	# Errors, with the hint that helps.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("sched_swich") { }'
	contains "<input>:1:20: error: no tracepoint matches 'sched_swich'"
	contains "hint: did you mean 'sched_switch'?"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("irq:sched_switch") { }'
	contains "error: no tracepoint matches 'irq:sched_switch'"
	contains "hint: 'sched_switch' is in system 'sched': kernel.trace(\"sched:sched_switch\")"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("no_such_tp_*") { }'
	contains "error: no tracepoint matches 'no_such_tp_*'"
	contains "hint: stap -l 'kernel.trace(\"*\")' lists the tracepoints of kernel $r"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("no_such_tp") ?, begin { }'
	# A struct passed by value does not fit the unsigned-long callback.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("xen:xen_mmu_set_pte") { }'
	contains "error: cannot probe tracepoint 'xen_mmu_set_pte': it passes a struct by value"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("xen:xen_mmu_*") { }'
	contains "warning: skipped "
	contains "that cannot be probed: 'xen_mmu_"
	# Target variables are the arguments, nothing else.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.trace("sched_switch") { println($nosuch) }'
	contains "<input>:1:46: error: no target variable '\$nosuch' here"
	contains 'hint: variables here: $preempt $prev $next $prev_state'
done
exit 0
