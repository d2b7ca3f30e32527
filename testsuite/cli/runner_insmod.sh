# testsuite/run.sh: a run/ test whose --vm-insmod module this kernel lacks
# is skipped, saying which module, wherever the module was to come from
# (not only /usr/lib/debug/); never passed, never failed.  The runner runs
# in a copy of the tree with a stand-in stap (and qemu) that "builds" and
# "runs" every test, so only the runner's own choice is under test: a test
# whose module is there passes.
. "$(dirname "$0")/lib.sh"
t=$(mktemp -d "${TMPDIR:-/tmp}/runner_insmod.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/testsuite/run" "$t/bin"
cp "$TOP/testsuite/run.sh" "$t/testsuite/"
cat >"$t/stap" <<'STAP'
#!/bin/bash
# -p4 -m NAME: NAME.ko here; --kbuild-batch: nothing; --vm-batch DIR: each
# DIR/NAME.ko "ran" with no output and status 0.
m= batch=
while [ $# -gt 0 ]; do
	case $1 in
	-m) m=$2; shift ;;
	--vm-batch) batch=$2; shift ;;
	esac
	shift
done
if [ -n "$batch" ]; then
	for ko in "$batch"/*.ko; do
		: >"${ko%.ko}.out"; : >"${ko%.ko}.err"; echo 0 >"${ko%.ko}.rc"
	done
elif [ -n "$m" ]; then
	: >"$m.ko"
fi
exit 0
STAP
printf '#!/bin/sh\nexit 0\n' >"$t/bin/qemu-system-x86_64"
chmod +x "$t/stap" "$t/bin/qemu-system-x86_64"
: >"$t/there.ko"
for n in present missing; do
	echo 'probe begin { exit() }' >"$t/testsuite/run/$n.stp"
	: >"$t/testsuite/run/$n.out"
done
echo "--vm-insmod $t/there.ko" >"$t/testsuite/run/present.args"
echo "--vm-insmod $t/no/such/dir/gone.ko" >"$t/testsuite/run/missing.args"
expect_rc 0 env PATH="$t/bin:$PATH" TESTS='run/*' KERNELS=fake-release "$t/testsuite/run.sh"
contains "PASS: run/present@fake-release"
contains "SKIP: run/missing@fake-release ($t/no/such/dir/gone.ko missing)"
contains "2 passed, 0 failed, 1 skipped"	# and kernel-log
