#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Module size (issue #14, "Module size"): for a few scripts, the .ko that
# ours builds (./stap -p4) beside SystemTap 4.8's (/usr/bin/stap -p4) for
# the same kernel: bytes of the file, of the file with its symbol table
# and debug sections stripped (strip -g; what modules ship as), and the
# text/data/bss of size(1).  SystemTap 4.8 builds only for 6.1 on this
# host (it fails on 6.12): its column is empty for other kernels.  No VM,
# no root: pass 4 only.  It only prints.
#
# Usage: bench/module_size.sh   (from a built tree; ~1 min per kernel)
# Environment: KVERS kernels (default "6.1.0-56-amd64 6.12.117+deb12-amd64");
#   REF=/usr/bin/stap (empty: ours only); KEEP=DIR keeps the modules;
#   NM=N also lists ours' N biggest symbols per module (nm --size-sort).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
KVERS=${KVERS:-6.1.0-56-amd64 6.12.117+deb12-amd64}
REF=${REF-/usr/bin/stap}
[ -x "$top/stap" ] || { echo "module_size: $top/stap is not built: run make" >&2; exit 1; }
work=${KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/stap-msize.XXXXXX")}
mkdir -p "$work"
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT

names=(one_probe printf_timer stats backtrace syscall)
scripts=(
	'global n; probe kernel.function("vfs_read") { n++ }'
	'global n; probe kernel.function("vfs_read") { n++ } probe timer.s(1) { printf("%d\n", n) }'
	'global s; probe kernel.function("vfs_read") { s[execname()] <<< 1 } probe end { foreach (k in s) printf("%s %d %d\n", k, @count(s[k]), @avg(s[k])); print(@hist_log(s["stapio"])) }'
	'probe kernel.function("vfs_read") { print_backtrace(); exit() }'
	'probe syscall.openat { printf("%s %s\n", execname(), argstr) }'
)

# NAME LABEL TOOL KVER: prints "file stripped text data bss" or "failed".
measure() {
	local m=$1 tool=$3 k=$4 d=$work/$2-$4
	mkdir -p "$d"
	if ! (cd "$d" && "$tool" -r "$k" -p4 -m "$m" -e "$script") >"$d/$m.log" 2>&1 ||
	   [ ! -f "$d/$m.ko" ]; then
		echo "failed"
		return
	fi
	strip -g -o "$d/$m.stripped.ko" "$d/$m.ko"
	echo "$(stat -c %s "$d/$m.ko") $(stat -c %s "$d/$m.stripped.ko")" \
		"$(size "$d/$m.ko" | awk 'NR == 2 { print $1, $2, $3 }')"
}

echo "== module_size.sh $(date -u '+%F %T') UTC ($(git -C "$top" rev-parse --short HEAD 2>/dev/null))"
echo "   bytes of the .ko; stripped = strip -g; text/data/bss from size(1); ref = ${REF:-none}"
for k in $KVERS; do
	echo
	echo "kernel $k"
	printf '%-13s %-5s %9s %9s %8s %7s %7s\n' script tool file stripped text data bss
	for i in "${!names[@]}"; do
		script=${scripts[$i]}
		m=msz_${names[$i]}
		for tool in ours ref; do
			case $tool in
			ours) t=$top/stap;;
			ref) [ -n "$REF" ] || continue; t=$REF;;
			esac
			r=$(measure "$m" $tool "$t" "$k")
			# shellcheck disable=SC2086
			printf '%-13s %-5s %9s %9s %8s %7s %7s\n' "${names[$i]}" $tool $r
		done
		ko=$work/ours-$k/$m.ko
		if [ -n "${NM:-}" ] && [ -f "$ko" ]; then
			nm --size-sort -S "$ko" | tail -n "$NM" | tac |
				while read -r _ sz t name; do
					printf '    %6d %s %s\n' $((16#$sz)) "$t" "$name"
				done
		fi
	done
done
echo
echo "Target (issue #14): ship only what the kernel needs; SystemTap 4.8's one-probe"
echo "module is the mark."
