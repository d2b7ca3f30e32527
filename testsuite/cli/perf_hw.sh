# perf.hw.* (hardware counters) in a VM: where the guest CPU has a PMU
# (KVM), instructions are sampled and counted; QEMU's TCG CPU has none,
# and the kernel refuses the event (ENOENT): the session must fail to
# start with our message, and the test is then skipped, not passed.
# Also the pass-2 errors of perf points and @perf, on the first kernel.
. "$(dirname "$0")/lib.sh"

r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }

expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe begin { print(@perf("nope")) }'
contains "error: no perf counter 'nope'"
contains 'perf.sw.task_clock.process.counter("nope")'
expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe perf.type(1) { }'
contains 'perf.type(T) needs .config(C)'
expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe perf.sw.cpu_clock.sample(10).counter("c") { }'
contains 'it takes no .sample or .hz'
expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe perf.sw.cpu_clock.counter("c"), perf.sw.task_clock.counter("c") { }'
contains "perf counter 'c' is declared twice"
expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe perf.sw.cpu_clock.samples(10) { }'
contains "unexpected 'samples' after .config(C)"
expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe perf.hw_cache.l1d.read.miss.process("/bin/true").counter("m") { } probe begin { print(@perf("m")) }'
contains 'perf.type(3).config(65536).process("/bin/true").counter("m")'

command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing: run ./bootstrap.sh"; exit 77; }
out=$("$STAP" --vm -r "$r" -e 'global n, c
probe perf.hw.instructions.sample(100000) { n++ }
probe perf.hw.instructions.counter("i") { }
probe timer.ms(300) { c = @perf("i"); exit() }
probe end { printf("%s %s\n", n > 0 ? "sampled" : "none", c > 0 ? "counted" : "zero") }' 2>&1)
rc=$?
if grep -qF 'cannot open perf event type 0 config 1: -2 (this machine does not count that event)' <<<"$out"; then
	grep -qF 'perf.hw.instructions.sample(100000) at <input>:2:1' <<<"$out" || fail "the error does not name the probe: $out"
	[ $rc != 0 ] || fail "a refused perf event left stap with status 0: $out"
	echo "the VM's CPU (QEMU TCG) has no PMU: hardware perf events cannot be counted there"
	exit 77
fi
[ $rc = 0 ] || fail "stap --vm exited $rc: $out"
is 'sampled counted'
