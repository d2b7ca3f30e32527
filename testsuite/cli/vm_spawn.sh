. "$(dirname "$0")/lib.sh"
# --vm-spawn=PID:CMD: mistakes are caught while parsing options, before any
# pass runs; a good one gives process(PID) its program (CMD's).
exact() { [ "$out" = "$1" ] || fail "expected exactly '$1', got: $out"; }
p='probe process(4242).function("main") { }'
for bad in abc 4242 1:true 0:true -3:true 4242true; do
	expect_rc 1 "$STAP" -r no-such-release --vm-spawn="$bad" -e "$p"
	exact "stap: --vm-spawn: expected PID:CMD (PID above 1), not '$bad'"
done
expect_rc 1 "$STAP" -r no-such-release --vm-spawn=4242:no_such_program_xyz -e "$p"
exact "stap: --vm-spawn: cannot find 'no_such_program_xyz' in PATH"
expect_rc 1 "$STAP" -r no-such-release --vm-spawn='4242:true | cat' -e "$p"
exact "stap: --vm-spawn: 'true | cat' is not a plain command: give a program and its arguments, without shell syntax"
# The spawned pid's program is the command's: its functions resolve.
expect_rc 0 "$STAP" -p2 --vm-spawn="4242:$TOP/testsuite/upid 3" \
	-e 'probe process(4242).function("work") { }'
contains "process(\"$TOP/testsuite/upid\").function(\"work@testsuite/upid.c:"
# Another pid still has to exist here.
expect_rc 1 "$STAP" -p2 --vm-spawn="4242:$TOP/testsuite/upid 3" \
	-e 'probe process(4194000).function("work") { }'
contains "cannot probe pid 4194000: no such process on this machine"
