. "$(dirname "$0")/lib.sh"
# stap --vm with input.char/input.line: stap's stdin, read to its end,
# is the guest staprun's (translator/run.c); without input probes stdin
# is left alone.
k=$(debug_kernels | head -n 1)
[ -n "$k" ] || { echo "no provisioned kernel: run ./bootstrap.sh"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing"; exit 77; }
out=$(printf 'one\ntwo\n' | "$STAP" --vm --vm-timeout=90 -r "$k" -e 'probe input.line { printf("got %s", line); if (line == "two\n") exit() }' 2>&1) ||
	fail "exit $?: $out"
is $'got one\ngot two'
