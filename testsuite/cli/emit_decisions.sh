# What the code generator (translator/emit.c, regs_use.c) writes into the
# module's C (-p3) for exit(), the register-use decision and -t, checked
# in seconds; the run/ tests (run/fentry_regs, run/timing) see their
# effect in the VM, only there.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$STAP" -p3 -e 'probe begin { exit() }'
contains '_stp_exit();'
# Without -t no probe is timed and there is no timing report.
grep -q '\.timed\|_stp_timing' <<<"$out" && fail "-t's timing code without -t: $out"
expect_rc 0 "$STAP" -t -p3 -e 'probe begin { exit() }'
contains '.timed = 1,'
contains '_stp_timing_report'

# A handler may run on the cheaper ftrace ops (.args_regs) only when every
# register it reads is one ftrace_caller saves: di is, r12 is not.
expect_rc 0 "$STAP" -g -p3 -e 'function f() %{ (void)STP_TV_REG(c, di); %} probe begin { f() }'
contains '.args_regs = 1,'
expect_rc 0 "$STAP" -g -p3 -e 'function f() %{ (void)STP_TV_REG(c, r12); %} probe begin { f() }'
grep -q 'args_regs' <<<"$out" && fail "a handler reading r12 on the cheaper ops: $out"

# An embedded-C function's STAP_RETVALUE is undefined after its body
# where it was defined: for the long one, not for the void one.
expect_rc 0 "$STAP" -g -p3 -e 'function f:long() %{ STAP_RETVALUE = 1; %} function g() %{ /* none */ %} probe begin { g(); println(f()) }'
u=$(awk '/STAP_RETVALUE = 1;/ { f = 1 } /none/ { f = 0 } /^#undef STAP_RETVALUE/ { print (f ? "f" : "other") }' <<<"$out")
[ "$u" = f ] || fail "#undef STAP_RETVALUE not once, after f's body ($u): $out"

# An array's index list goes into a key array of its arity, each key in
# its type's slot.
expect_rc 0 "$STAP" -p3 -e 'global a probe begin { a[1, "x"] = 2 }'
contains 'union stp_key k0[2];'
contains 'l->k0[0].l = ((int64_t)1LL);'
contains 'l->k0[1].s = "x";'
contains '_stp_map_set_long(g_a, l->k0, ((int64_t)2LL));'

# A global only incremented in probes and read in end is a per-CPU
# counter: each access is this CPU's slot, folded before the read.
expect_rc 0 "$STAP" -p3 -e 'global n probe begin { n++ } probe end { println(n) }'
contains 'static DEFINE_PER_CPU(int64_t, g_n);'
contains 'l->t0 = (*this_cpu_ptr(&g_n))++;'
contains '_stp_pcpu_fold(&g_n);'
grep -v DEFINE_PER_CPU <<<"$out" | grep -Eq '[^&]g_n[^a-z_0-9]' && fail "g_n used as a plain variable: $out"

# A long target variable is read into an int64_t temporary, a string one
# (pretty-printed) copied into a char buffer; needs a kernel's DWARF.
r=$(debug_kernels | head -n 1)
[ -n "$r" ] || { echo "no kernel with DWARF: the target variable part is skipped"; exit 0; }
expect_rc 0 "$STAP" -r "$r" -p3 -e 'probe kernel.function("vfs_read") { println($count) }'
contains 'int64_t t0;'
grep -Eq '^[[:space:]]*l->t0 = \(\(int64_t\)' <<<"$out" || fail "\$count not assigned to l->t0: $out"
grep -q '_tv_dst' <<<"$out" && fail "\$count copied as a string: $out"
expect_rc 0 "$STAP" -r "$r" -p3 -e 'probe kernel.function("vfs_read") { println($file$) }'
contains 'char t0[MAXSTRINGLEN];'
contains 'char *_tv_dst = l->t0;'
exit 0
