# Shared by the cli tests: sourced, not run.  $STAP is the stap under test.
fail() { echo "$*"; exit 1; }
# expect_rc WANT CMD...: run CMD, keep its output in $out, check the status.
expect_rc() {
	local want=$1; shift
	out=$("$@" 2>&1); rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want: $out"
}
contains() { grep -qF -- "$1" <<<"$out" || fail "output lacks '$1': $out"; }
# Releases with a kbuild tree, one a line.
build_kernels() {
	for d in /lib/modules/*/build/Makefile; do
		[ -e "$d" ] || continue
		d=${d#/lib/modules/}; echo "${d%/build/Makefile}"
	done
}
first_kernel() { build_kernels | head -n 1; }
# Releases whose DWARF vmlinux and boot image are both installed.
debug_kernels() {
	for f in /usr/lib/debug/boot/vmlinux-*; do
		r=${f#/usr/lib/debug/boot/vmlinux-}
		[ -e "$f" ] && [ -e "/boot/vmlinuz-$r" ] && echo "$r"
	done
}
# Of debug_kernels, those with the DWARF of every module named, each as
# its path under kernel/ (fs/nfsd/nfsd.ko), that bootstrap.sh extracted.
module_debug_kernels() {
	local r m ok
	for r in $(debug_kernels); do
		ok=1
		for m; do
			[ -s "/usr/lib/debug/lib/modules/$r/kernel/$m" ] || ok=
		done
		[ -n "$ok" ] && echo "$r"
	done
	return 0
}
# is TEXT: the output is exactly TEXT (use $'...' for several lines).
is() { [ "$out" = "$1" ] || fail "output differs: expected
$1
got
$out"; }
# drive_ready: print, into a vm_smoke driver script (which sets $wl to
# the workload), the guest-side function "ready FILE LINE": wait at most
# 60 s for LINE in FILE, calling getppid() as "warmup" meanwhile.  A
# module says it is ready from its probe on seeing warmup's call, not
# from a begin probe: begin probes run before kprobes are registered.
drive_ready() {
	cat <<'FN'
cp "$wl" /tmp/warmup
ready() {
	i=0
	while ! grep -qx "$2" "$1" 2>/dev/null; do
		i=$((i + 1)); [ $i -gt 600 ] && { echo "not ready: $2"; return 1; }
		/tmp/warmup getppid 1 >/dev/null
		sleep 0.1
	done
}
FN
}

# vm_smoke_dir NAME: cd into a fresh work directory ($work, removed on
# exit unless KEEP is set) with ./vm_smoke built in it
# (testsuite/unit/vm_smoke.c), for VM tests that drive staprun through a
# shell script; exits 77 (skipped) without kernel headers or QEMU.
vm_smoke_dir() {
	[ -n "$(first_kernel)" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
	command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing: run ./bootstrap.sh"; exit 77; }
	work=$(mktemp -d "${TMPDIR:-/tmp}/$1.XXXXXX")
	trap '[ -n "$KEEP" ] || rm -rf "$work"' EXIT
	cd "$work" || exit 1
	gcc -O2 -D_GNU_SOURCE -I "$TOP/common" -I "$TOP/translator" -o vm_smoke \
		"$TOP/testsuite/unit/vm_smoke.c" "$TOP/translator/vm.c" "$TOP/translator/vm_cpus.c" "$TOP/common/util.c" -lelf ||
		fail "cannot build vm_smoke"
}
# vm_smoke_build R NAME SCRIPT [STAP-OPTION...]: in a vm_smoke_dir, build
# SCRIPT for kernel R into R/NAME.ko (and make o-R for vm_smoke's -o).
vm_smoke_build() {
	local r=$1 name=$2 script=$3
	shift 3
	mkdir -p "$r" "o-$r" &&
		(cd "$r" && "$STAP" -p4 "$@" -r "$r" -m "$name" -e "$script" >/dev/null) ||
		fail "$r: cannot build $name"
}
# vm_smoke_job R WANT_OUT [--err WANT_ERR] ARG...: in a vm_smoke_dir, run
# ./drive in a VM of kernel R with ./vm_smoke ARG... (output in o-R, its
# log in log-R), then check the job's stdout, and its stderr with --err.
vm_smoke_job() {
	local r=$1 want_out=$2 want_err= check_err= got
	shift 2
	[ "$1" = --err ] && { check_err=1; want_err=$2; shift 2; }
	./vm_smoke -t 300 -o "o-$r" -r "$r" -s ./drive "$@" >"log-$r" 2>&1 ||
		fail "$r: the VM run failed: $(cat "log-$r")"
	got=$(cat "o-$r/job.out")
	[ "$got" = "$want_out" ] || fail "$r: stdout differs: expected
$want_out
got
$got
stderr: $(cat "o-$r/job.err")"
	[ -n "$check_err" ] || return 0
	got=$(cat "o-$r/job.err")
	[ "$got" = "$want_err" ] || fail "$r: stderr differs: expected
$want_err
got
$got"
}
