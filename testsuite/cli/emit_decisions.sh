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
exit 0
