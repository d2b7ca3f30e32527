#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What one test VM boot costs (translator/vm.c): QEMU booting the kernel
# and running one empty job, from the compressed /boot/vmlinuz-R (KASLR
# on; run/'s batches) and from the debuginfo vmlinux through its PVH
# entry (STAP_VM_BOOT=vmlinux; the cli group's 60-odd boots).  Prints the
# median host CPU (user+sys) and wall seconds of RUNS boots each, per
# kernel.  It only prints: the machine is shared and TCG is slow.
#
# Usage: bench/vm_boot.sh [RELEASE...]   (default: every provisioned kernel)
# Environment: RUNS=3.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
RUNS=${RUNS:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
gcc -O2 -D_GNU_SOURCE -I "$top/common" -I "$top/translator" -o "$T/vm_smoke" \
	"$top/testsuite/unit/vm_smoke.c" "$top/translator/vm.c" \
	"$top/translator/vm_cpus.c" "$top/common/util.c" -lelf
printf '#!/bin/sh\necho booted\n' >"$T/staprun"
chmod +x "$T/staprun"
touch "$T/empty.ko"

releases=("$@")
if [ ${#releases[@]} -eq 0 ]; then
	for k in /boot/vmlinuz-*; do releases+=("${k#/boot/vmlinuz-}"); done
fi

# median of the numbers on stdin
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-24s %-9s %9s %9s\n' kernel boot 'CPU (s)' 'wall (s)'
for r in "${releases[@]}"; do
	for how in vmlinuz vmlinux; do
		env=; [ $how = vmlinux ] && env=vmlinux
		[ $how = vmlinux ] && [ ! -e "/usr/lib/debug/boot/vmlinux-$r" ] && continue
		: >"$T/times"
		for ((i = 0; i < RUNS; i++)); do
			STAP_VM_BOOT=$env /usr/bin/time -f '%U %S %e' -a -o "$T/times" \
				"$T/vm_smoke" -r "$r" -s "$T/staprun" "job=$T/empty.ko" >"$T/log" 2>&1 ||
				{ echo "vm_boot: $r ($how) failed: $(cat "$T/log")" >&2; exit 1; }
		done
		cpu=$(awk '{ print $1 + $2 }' "$T/times" | median)
		wall=$(awk '{ print $3 }' "$T/times" | median)
		printf '%-24s %-9s %9s %9s\n' "$r" "$how" "$cpu" "$wall"
	done
done
