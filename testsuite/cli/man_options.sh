. "$(dirname "$0")/lib.sh"
# man stap's options that need no kernel: --vp, -R, --rlimit-*,
# --example, --save-uprobes, and the ones not built yet, which say so
# with what to do instead (not "unknown option").
work=$(mktemp -d "${TMPDIR:-/tmp}/man_options.XXXXXX")
trap '[ -n "$KEEP" ] || rm -rf "$work"' EXIT

# --vp ABCDE: a verbosity per pass, added to -v's.
expect_rc 0 "$STAP" --vp 02 -p2 -e 'probe begin { exit() }'
[ "$(grep -c '^Pass ' <<<"$out")" = 1 ] && grep -q '^Pass 2: analyzed script' <<<"$out" ||
	fail "--vp 02 is not pass 2's alone: $out"
expect_rc 0 "$STAP" --vp 00001 -p2 -e 'probe begin { exit() }'
grep -q '^Pass ' <<<"$out" && fail "--vp 00001 made passes 1-2 verbose: $out"
expect_rc 0 "$STAP" -v --vp 0 -p2 -e 'probe begin { exit() }'
[ "$(grep -c '^Pass [12]: ' <<<"$out")" = 2 ] || fail "-v --vp 0 lost a pass line: $out"
expect_rc 1 "$STAP" --vp 0x -p1 -e 'probe begin {}'
is "stap: --vp takes up to 5 digits, a verbosity for each pass, not '0x'"
expect_rc 1 "$STAP" --vp 000000 -p1 -e 'probe begin {}'

# -R DIR: the runtime's sources (pass 4 copies them; -p4 needs a kernel).
r=$(first_kernel)
if [ -n "$r" ]; then
	expect_rc 1 "$STAP" -R "$work/none" -p4 -m rt_none -r "$r" -e 'probe begin { exit() }'
	contains "cannot copy the runtime from $work/none"
fi

# --rlimit-*: set on stap itself, so they reach what it runs.
expect_rc 1 "$STAP" --rlimit-as=1000000 -p2 -e 'probe begin { exit() }'
contains "out of memory"
expect_rc 0 "$STAP" --rlimit-as=4000000000 --rlimit-cpu=60 --rlimit-nproc=1000 \
	--rlimit-stack=8388608 --rlimit-fsize=100000000 -p2 -e 'probe begin { exit() }'
expect_rc 1 "$STAP" --rlimit-cpu=ten -p1 -e 'probe begin {}'
is "stap: --rlimit-cpu takes a number, not 'ten'"

# --example NAME: found by file name under the examples directories.
if [ -f /usr/share/systemtap/examples/general/helloworld.stp ]; then
	expect_rc 0 "$STAP" -p1 --example helloworld.stp
	contains 'println("hello world")'
	expect_rc 1 "$STAP" -p1 --example no_such_example.stp
	contains "stap: example 'no_such_example.stp' was not found under "
	contains "'/usr/share/systemtap/examples'"
fi

expect_rc 0 "$STAP" --save-uprobes -p1 -e 'probe begin {}'

# Not built yet: said so, with the way around, exit 1.
for o in -i --interactive --use-server \
	--list-servers --trust-servers=ssl --sign-module --remote=host \
	--download-debuginfo --sysroot=/ --sysenv=A=B -P --prologue-searching=never \
	--check-version; do
	expect_rc 1 "$STAP" $o -p1 -e 'probe begin {}'
	grep -q "^stap: option '--[a-z-]*' is not supported yet\$" <<<"$out" ||
		fail "$o: $out"
	grep -q '^hint: ' <<<"$out" || fail "$o: no hint: $out"
done
exit 0
