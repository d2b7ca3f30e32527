. "$(dirname "$0")/lib.sh"
# -c and -x: mistakes are caught while parsing options, before any pass
# runs (a kernel release that does not exist is never looked at).
exact() { [ "$out" = "$1" ] || fail "expected exactly '$1', got: $out"; }
p='probe begin { println(target()) }'
expect_rc 1 "$STAP" -r no-such-release -c no_such_program_xyz -e "$p"
exact "stap: -c: cannot find 'no_such_program_xyz' in PATH"
expect_rc 1 "$STAP" -r no-such-release -c './no/such/prog arg' -e "$p"
exact "stap: -c: cannot run './no/such/prog': No such file or directory"
expect_rc 1 "$STAP" -r no-such-release -c '' -e "$p"
exact "stap: -c: empty command"
expect_rc 1 "$STAP" -r no-such-release -c "echo 'unbalanced" -e "$p"
exact "stap: -c: cannot parse 'echo 'unbalanced' (unbalanced quotes?)"
expect_rc 1 "$STAP" -c true -x 1 -e "$p"
exact "stap: -c and -x cannot be used together"
expect_rc 1 "$STAP" -x 1 -c true -e "$p"
exact "stap: -c and -x cannot be used together"
for bad in abc 0 -5 12x 4294967297 ''; do
	expect_rc 1 "$STAP" -x "$bad" -e "$p"
	exact "stap: -x takes a process id, not '$bad'"
	expect_rc 1 "$STAP" --target-namespaces="$bad" -e "$p"
	exact "stap: --target-namespaces takes a process id, not '$bad'"
done
# Good options pass the check (-p2 stops before anything needs a kernel).
expect_rc 0 "$STAP" -p2 -c 'true --ignored "two words"' -e "$p"
expect_rc 0 "$STAP" -p2 -c 'echo a | cat' -e "$p"	# shell syntax: sh -c
expect_rc 0 "$STAP" -p2 -x 1 -e "$p"
contains "target:long ()"

# staprun checks its own -c/-x before touching any module.
staprun="$TOP/staprun/staprun"
expect_rc 1 "$staprun" -x abc no.ko
exact "staprun: -x: expected a process id, not 'abc'"
expect_rc 1 "$staprun" -c true -x 1 no.ko
exact "staprun: -c and -x cannot be used together"
expect_rc 0 "$staprun" -h
contains "-c CMD"
# staprun(8)'s letters: -b is the buffer size, -T the read interval in
# ms, -S needs -o, -N takes a live pid (cli/target_namespaces runs it).
expect_rc 1 "$staprun" -b 0 no.ko
exact "staprun: -b: buffer size must be 1 to 4095 MB, not '0'"
expect_rc 1 "$staprun" -T x no.ko
exact "staprun: -T: expected milliseconds between reads, not 'x'"
expect_rc 1 "$staprun" -S 1,2 no.ko
exact "staprun: -S needs -o FILE: the files to switch between"
expect_rc 1 "$staprun" -o f -S 0 no.ko
exact "staprun: -S: expected SIZE[,N] (megabytes 1-4095, then how many files to keep), not '0'"
expect_rc 1 "$staprun" -N 4000000 no.ko
exact "staprun: -N 4000000: no such process"
expect_rc 1 "$staprun" -N 0 no.ko
exact "staprun: -N: expected a process id, not '0'"
expect_rc 1 "$staprun" -A -N 1 no.ko
contains "staprun: -A attaches to a running module: -c, -x, -N,"
expect_rc 1 "$staprun" -b
contains "staprun: -b requires an argument"
expect_rc 1 "$staprun" -Z no.ko
contains "staprun: unknown option '-Z'"
expect_rc 0 "$staprun" -V
contains "staprun (stap-ng)"
# stap checks -S as well, and wants -o with it.
expect_rc 1 "$STAP" -p1 -S 5 -e 'probe begin {}'
exact "stap: -S needs -o FILE: the files to switch between"
expect_rc 1 "$STAP" -p1 -o f -S 5,x -e 'probe begin {}'
exact "stap: -S takes SIZE[,N]: megabytes per output file (1-4095), then how many files to keep; not '5,x'"
expect_rc 1 "$staprun" -C sometimes no.ko
exact "staprun: -C takes never, always or auto, not 'sometimes'"
expect_rc 1 "$staprun" -r host no.ko
exact "staprun: -r takes N:URI (N from 0), not 'host'"
expect_rc 1 "$staprun" -M 0 no.ko
exact "staprun: -M takes the seconds between probe tables, not '0'"
