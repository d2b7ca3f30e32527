#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Check the VM runner (translator/vm.c) without the translator or staprun:
# a fake staprun (a busybox shell script) and two tiny kbuild modules, on
# every provisioned kernel or the releases given as arguments.  Checks
# exact bytes on stdout/stderr (no final newline, 400 KB of binary),
# exit statuses and arguments, every CPU's delay loop, a WARN_ON()
# reported as a kernel problem, an oops stopping the run or costing only
# its own job (the rest run in a new boot), an int3 oops like the
# emulator's text-patching race rerun and excused, and on the first
# kernel only (the host's flow), a job past the job limit stopped with
# what the vCPUs did, a boot that never starts init booted again (once),
# and a hung job hitting the timeout without leaving QEMU behind.  Takes
# about 25 s per kernel, and 110 s more on the first.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/vm-selftest.XXXXXX")
trap 'rm -rf "$work"' EXIT
fails=0
ok() { echo "ok   $*"; }
bad() { echo "FAIL $*"; fails=$((fails + 1)); }

cd "$work"
export TMPDIR=$work	# so a QEMU left behind would show $work in pgrep -f
# Boot the uncompressed vmlinux (translator/vm.c, boot_image): 3 s less
# CPU a boot where the image is XZ (6.1), and this boots some 25 times.
export STAP_VM_BOOT=vmlinux
gcc -O2 -g -Wall -Wextra -D_GNU_SOURCE -I "$top/common" -I "$top/translator" \
	-o vm_smoke "$top/testsuite/unit/vm_smoke.c" "$top/translator/vm.c" \
	"$top/translator/vm_cpus.c" "$top/common/util.c" -lelf

# The fake staprun acts on the job's module file name.
cat >staprun <<'EOF'
#!/bin/sh
for m; do :; done
case "${m##*/}" in
hello.ko) echo "hello stdout"; echo "args: $*"; echo "hello stderr" >&2; exit 3 ;;
nonl.ko) printf 'out'; printf 'err' >&2; exit 0 ;;
big.ko) cat "$m"; cat "$m" >&2; exit 0 ;;
hang.ko) echo hanging; exec sleep 1000 ;;
flakyhang.ko) [ -e /tmp/marked ] && exec sleep 1000; echo fine ;;
mark.ko) touch /tmp/marked ;;
cpus.ko) grep -E '^(bogomips|cpu MHz)' /proc/cpuinfo ;;
flaky.ko) [ -e /tmp/marked ] && exec insmod "@WORK@/k-$(uname -r)/int3_vm.ko"; echo fine ;;
*) exec insmod "$m" ;;
esac
EOF
sed -i "s#@WORK@#$work#" staprun
chmod +x staprun
touch hello.ko nonl.ko hang.ko mark.ko flaky.ko flakyhang.ko cpus.ko
head -c 400000 /dev/urandom >big.ko
cat >ok_vm.c <<'EOF'
#include <linux/module.h>
static int __init ok_init(void) { return 0; }
static void __exit ok_exit(void) { }
module_init(ok_init);
module_exit(ok_exit);
MODULE_LICENSE("GPL");
EOF
cat >warn_vm.c <<'EOF'
#include <linux/module.h>
static int __init warn_init(void) { WARN_ON(1); return 0; }
module_init(warn_init);
MODULE_LICENSE("GPL");
EOF
cat >oops_vm.c <<'EOF'
#include <linux/module.h>
static int __init oops_init(void) { return *(volatile int *)0; }
module_init(oops_init);
MODULE_LICENSE("GPL");
EOF
# An int3 just past a function's (IBT) ftrace call site, as the emulator's
# text-patching race leaves it (translator/vm.c); the function never returns.
cat >int3_vm.c <<'EOF'
#include <linux/module.h>
void int3_site(void);
asm(".pushsection .text\n.globl int3_site\n.type int3_site, @function\n"
    "int3_site:\n.byte 0xf3, 0x0f, 0x1e, 0xfa\nint3\nud2\n"
    ".size int3_site, .-int3_site\n.popsection\n");
static int __init int3_init(void) { int3_site(); return 0; }
module_init(int3_init);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := ok_vm.o warn_vm.o oops_vm.o int3_vm.o' >Makefile

releases=("$@")
if [ ${#releases[@]} -eq 0 ]; then
	for b in /lib/modules/*/build; do
		r=${b#/lib/modules/}
		r=${r%/build}
		if [ -e "/boot/vmlinuz-$r" ]; then
			releases+=("$r")
		fi
	done
fi

for r in "${releases[@]}"; do
	echo "== $r"
	mkdir -p "k-$r" "o-$r"
	cp ./*.c Makefile "k-$r/"
	make -s -C "/lib/modules/$r/build" M="$work/k-$r" modules >/dev/null 2>&1 ||
		{ bad "$r: kbuild"; continue; }
	k=$work/k-$r

	t0=$(date +%s.%N)
	if ./vm_smoke -v -o "o-$r" -r "$r" -s ./staprun hello=hello.ko,-x,"a b'c" \
		nonl=nonl.ko big=big.ko ok=$k/ok_vm.ko cpus=cpus.ko >"o-$r/log" 2>&1; then
		ok "$r: clean run ($(echo "$(date +%s.%N) - $t0" | bc | cut -c1-4) s)"
	else
		bad "$r: clean run: $(cat "o-$r/log")"
	fi
	# What it booted: the uncompressed debuginfo vmlinux where there is
	# one (STAP_VM_BOOT=vmlinux, set above), else the compressed image.
	want=/boot/vmlinuz-$r
	[ -e "/usr/lib/debug/boot/vmlinux-$r" ] && want=/usr/lib/debug/boot/vmlinux-$r
	grep -q -- "^vm: .* -kernel $want " "o-$r/log" && ok "$r: booted $want" ||
		bad "$r: not booted from $want: $(grep -- -kernel "o-$r/log")"
	grep -q '^job hello: status 3,' "o-$r/log" && ok "$r: exit status" || bad "$r: exit status"
	[ "$(cat "o-$r/hello.out")" = "hello stdout
args: -x a b'c /jobs/hello/hello.ko" ] && ok "$r: arguments" || bad "$r: arguments"
	[ "$(cat "o-$r/nonl.out")|$(cat "o-$r/nonl.err")" = "out|err" ] &&
		[ "$(wc -c <"o-$r/nonl.out")" = 3 ] && ok "$r: no final newline" ||
		bad "$r: no final newline"
	cmp -s big.ko "o-$r/big.out" && cmp -s big.ko "o-$r/big.err" &&
		ok "$r: 400 KB binary output" || bad "$r: 400 KB binary output"
	grep -q '^job ok: status 0,' "o-$r/log" && ok "$r: insmod" || bad "$r: insmod"
	# The delay loop: every CPU has the boot CPU's loops_per_jiffy (vm.c
	# presets it; the second CPU's own measurement varies with the
	# host's load), and it is the TSC's: BogoMIPS twice the MHz.
	awk -F': *' '/^cpu MHz/ { mhz[n++] = $2 } /^bogomips/ { bm[m++] = $2 }
		END { if (n < 2 || m != n) exit 1
		      for (i = 0; i < m; i++) {
			if (bm[i] != bm[0]) exit 1
			r = bm[i] / (2 * mhz[i]); if (r < 0.99 || r > 1.01) exit 1 } }' "o-$r/cpus.out" &&
		ok "$r: delay loop the TSC's on every CPU" ||
		bad "$r: delay loop: $(cat "o-$r/cpus.out")"

	./vm_smoke -r "$r" -s ./staprun warn=$k/warn_vm.ko after=nonl.ko >"o-$r/log" 2>&1 && rc=0 || rc=$?
	[ $rc = 3 ] && grep -q 'WARNING: CPU' "o-$r/log" && grep -q '^job after: status 0' "o-$r/log" &&
		ok "$r: WARN_ON is a kernel problem" || bad "$r: WARN_ON: $(cat "o-$r/log")"

	./vm_smoke -r "$r" -s ./staprun oops=$k/oops_vm.ko after=nonl.ko >"o-$r/log" 2>&1 && rc=0 || rc=$?
	[ $rc = 2 ] && grep -q 'stopped during job oops (kernel problem)' "o-$r/log" &&
		grep -q 'BUG: kernel NULL pointer' "o-$r/log" &&
		ok "$r: oops stops the run" || bad "$r: oops: $(cat "o-$r/log")"

	./vm_smoke -R 1 -r "$r" -s ./staprun oops=$k/oops_vm.ko after=nonl.ko >"o-$r/log" 2>&1 && rc=0 || rc=$?
	[ $rc = 3 ] && grep -q '^job oops: status -1, .*, crashed$' "o-$r/log" &&
		grep -q '^job after: status 0, stdout 3 bytes, stderr 3 bytes$' "o-$r/log" &&
		grep -q 'BUG: kernel NULL pointer' "o-$r/log" &&
		ok "$r: after an oops the next job runs in a new boot" ||
		bad "$r: oops, new boot: $(cat "o-$r/log")"

	# The flaky job dies of the int3 only after "mark" ran in the same
	# boot; rerun first in a new boot, it ends.
	./vm_smoke -R 2 -f "$k/int3_vm.ko" -r "$r" -s ./staprun \
		mark=mark.ko flaky=flaky.ko after=nonl.ko >"o-$r/log" 2>&1 && rc=0 || rc=$?
	[ $rc = 0 ] && grep -q 'job flaky of an int3 just past an ftrace call site' "o-$r/log" &&
		grep -q '^job flaky: status 0, stdout 5 bytes' "o-$r/log" &&
		grep -q '^job after: status 0' "o-$r/log" &&
		grep -q -e '---- emulator problem ----' "o-$r/log" &&
		grep -q 'int3: 0000' "o-$r/log" && ! grep -q -e '---- kernel problem' "o-$r/log" &&
		ok "$r: the emulator's int3 race: job rerun, excused" || bad "$r: int3 rerun: $(cat "o-$r/log")"

	# A job still running past the job limit (-j) is stopped with the
	# guest, the vCPUs' RIPs named (both idle here: halted in the kernel's
	# safe_halt), and rerun once in a new boot.  flakyhang, which hangs
	# only after mark ran in its boot, then ends, but its hang stays a
	# kernel problem: only an int3 loop is excused (unit/vm_hang_test).
	# hang hangs twice and is given up for the job after it.  The flow is
	# the host's, so one kernel is enough.  The compressed image, so that
	# naming RIPs must undo KASLR's slide.
	if [ "$r" = "${releases[0]}" ]; then
		STAP_VM_BOOT= ./vm_smoke -R 3 -j 5 -r "$r" -s ./staprun mark=mark.ko flakyhang=flakyhang.ko \
			hang=hang.ko after=nonl.ko >"o-$r/log" 2>&1 && rc=0 || rc=$?
		[ $rc = 3 ] && grep -q '^job hang: status -1, .*, crashed, hung$' "o-$r/log" &&
			grep -q '^job flakyhang: status 0, stdout 5 bytes' "o-$r/log" &&
			grep -q '^job after: status 0, stdout 3 bytes' "o-$r/log" &&
			grep -q 'job hang was still running after 5 s: running it again in a new boot' "o-$r/log" &&
			[ "$(grep -c '^stap-vm: job hang still running after 5 s' "o-$r/log")" -ge 2 ] &&
			grep -q '^stap-vm: job flakyhang still running after 5 s' "o-$r/log" &&
			! grep -q -e '---- emulator problem' "o-$r/log" &&
			grep -q '^  CPU#1 RIP [0-9a-f]\{16\} [a-z_]*safe_halt+0x[0-9a-f]*, halted$' "o-$r/log" &&
			! pgrep -f "qemu-system-x86_64.*$work" >/dev/null &&
			ok "$r: job limit: vCPUs named, rerun, the next job in a new boot" ||
			bad "$r: job limit: $(cat "o-$r/log")"

		# A guest that never starts init (faked: its /init stops short,
		# STAP_VM_FAKE_BOOT_HANGS) is stopped at the boot limit (-b),
		# the vCPUs named (the debuginfo vmlinux: no KASLR slide), and
		# booted once more, with only the overall limit (-t) then.
		STAP_VM_FAKE_BOOT_HANGS=1 ./vm_smoke -b 8 -r "$r" -s ./staprun after=nonl.ko \
			>"o-$r/log" 2>&1 && rc=0 || rc=$?
		[ $rc = 0 ] && grep -q '^vm: the guest had not started init after 8 s: booting it again$' "o-$r/log" &&
			grep -q '^job after: status 0, stdout 3 bytes' "o-$r/log" &&
			grep -q -e '---- emulator problem ----' "o-$r/log" &&
			grep -q '^  CPU#0 RIP [0-9a-f]\{16\} [a-z_]*safe_halt+0x[0-9a-f]*, halted$' "o-$r/log" &&
			! grep -q -e '---- kernel problem' "o-$r/log" &&
			ok "$r: a boot hung before init: stopped, booted again" ||
			bad "$r: boot hang: $(cat "o-$r/log")"
		STAP_VM_FAKE_BOOT_HANGS=2 ./vm_smoke -b 5 -t 20 -r "$r" -s ./staprun after=nonl.ko \
			>"o-$r/log" 2>&1 && rc=0 || rc=$?
		[ $rc = 2 ] && [ "$(grep -c 'booting it again' "o-$r/log")" = 1 ] &&
			grep -q 'timed out after 20 s (the guest never started init)' "o-$r/log" &&
			! pgrep -f "qemu-system-x86_64.*$work" >/dev/null &&
			ok "$r: two boots hung: booted again once only" ||
			bad "$r: two boot hangs: $(cat "o-$r/log")"

		# 30 s: enough for the guest to boot and start the job even on a
		# loaded machine (TCG boots in about 7 s idle), so the timeout
		# hits the job.  Also the host's alone: one kernel.
		./vm_smoke -t 30 -r "$r" -s ./staprun hang=hang.ko >"o-$r/log" 2>&1 && rc=0 || rc=$?
		[ $rc = 2 ] && grep -q 'timed out after 30 s in job hang' "o-$r/log" &&
			! pgrep -f "qemu-system-x86_64.*$work" >/dev/null &&
			ok "$r: timeout, no QEMU left" || bad "$r: timeout: $(cat "o-$r/log")"
	fi
done

if [ $fails -gt 0 ]; then
	echo "vm-selftest: $fails failed"
	exit 1
fi
echo "vm-selftest: all passed"
