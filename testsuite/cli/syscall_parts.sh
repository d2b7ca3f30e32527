# The generated system call library (translator/syscalls.c) is parsed in
# parts, as probe points ask for them (syscall.* spares the parse of the
# .return and nd_syscall aliases: bench/syscalls.sh's memory figure).
# Points asking for each part in turn, in one script, all resolve: the
# parts the first point did not need are loaded later.  (Planted bug
# seen failing: syscall.NAME.return not asking for the .return part.)
. "$(dirname "$0")/lib.sh"
rel=$(debug_kernels | head -n 1)
[ -n "$rel" ] || { echo "no kernel debuginfo"; exit 77; }
script='probe syscall.read { println(name) }
probe syscall.read.return { println(retstr) }
probe nd_syscall.write.return { println(retstr) }
probe nd_syscall.close { println(argstr) }
probe syscall_any { println(name) }
probe begin { println(syscall_name(0)) }
probe syscall.*.return { println(retstr) }'
expect_rc 0 "$STAP" -r "$rel" -p2 -e "$script"
n=$(grep -c '^kernel.trace("raw_syscalls:sys_e' <<<"$out")
calls=$(grep -c '^kernel.trace("raw_syscalls:sys_exit' <<<"$out")
[ "$n" -gt 100 ] && [ "$calls" -gt 100 ] || fail "expected syscall.*.return's probes: $n probes, $calls returns"
contains "syscall_name:string (nr:long)"
# A part asked for first through a function, then by points.
expect_rc 0 "$STAP" -r "$rel" -p2 -e 'probe begin { println(syscall_name(0)) }
probe syscall.read.return { println(retstr) }'
contains 'kernel.trace("raw_syscalls:sys_exit")'
exit 0
