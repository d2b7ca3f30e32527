# Probe points SystemTap lists but no kernel we build for can have
# (translator/probes/obsolete.c): an error that says why and what to
# use instead; dropped when optional; never what a wildcard stands for.
. "$(dirname "$0")/lib.sh"

expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.mark("sched_switch").format("%d") { }'
contains "<input>:1:14: error: kernel markers are not available: Linux removed them in 2.6.32, so kernel 0.0.0-nosuch has none"
contains "hint: probe its tracepoints instead: stap -l 'kernel.trace(\"*\")' lists them"
expect_rc 1 "$STAP" -p2 -e 'probe process("/bin/sh").insn.block { }'
contains "<input>:1:26: error: process(...).insn is not available: single-stepping probes need utrace, which Linux never merged"
expect_rc 0 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.mark("x") ?, process("/bin/sh").insn ?, begin { }'
is "# probes
begin /* <- <input>:1:54 */"
# process.* is process.begin, .end, ... (and .plt, as in 4.8), not .insn.
expect_rc 0 "$STAP" -p2 -c /bin/true -e 'probe process.* { }'
contains "process.begin /* <- <input>:1:7 */"
