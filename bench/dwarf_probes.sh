#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Resolving kernel probes, side by side with SystemTap's `stap -p2` where
# it is installed (/usr/bin/stap), on every kernel with debuginfo in
# /usr/lib/debug/boot (issue #4's speed targets):
#   - a one-probe script reading a target variable, cold (no DWARF index
#     yet: the name is indexed alone while the whole index is built in the
#     background; also with the whole index built first) and warm;
#   - a script of 50 wildcard probe points, warm;
#   - `stap -l 'kernel.function("*")'`, warm.
# Targets: cold no slower than SystemTap; warm one-probe < 100 ms;
# the listing < 1 s.  It only prints: no figure fails anything.
#
# Usage: bench/dwarf_probes.sh [-n RUNS]    (median of RUNS, default 5)
# Environment: STAP (default ./stap of this tree), REF_STAP (default
# /usr/bin/stap; set it empty to skip the reference), REF_TIMEOUT (seconds
# one run may take, default 300).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
ref=${REF_STAP-/usr/bin/stap}
runs=5

while getopts "n:" o; do
	case $o in
	n) runs=$OPTARG ;;
	*) sed -n '14,17p' "$0"; exit 2 ;;
	esac
done
[ -x "$stap" ] || { echo "dwarf_probes: $stap is not built: run make" >&2; exit 1; }
[ -n "$ref" ] && [ ! -x "$ref" ] && ref=
work=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# ms CMD...: wall time of one run in ms; "fail" if it failed, ">Ns" if it
# ran longer than $REF_TIMEOUT seconds (SystemTap's listing can take many
# minutes).
ms() {
	local t0 t1 rc
	t0=${EPOCHREALTIME/[.,]/}
	timeout -k 5 "${REF_TIMEOUT:-300}" "$@" >/dev/null 2>"$work/err"; rc=$?
	[ $rc = 124 ] && { echo ">${REF_TIMEOUT:-300}s"; return; }
	[ $rc = 0 ] || { echo fail; return; }
	t1=${EPOCHREALTIME/[.,]/}
	awk -v us=$((t1 - t0)) 'BEGIN { printf "%.0f", us / 1000 }'
}

# median_ms CMD...: median of $runs warm runs.
median_ms() {
	local i
	"$@" >/dev/null 2>&1 || { echo fail; return; }
	for ((i = 0; i < runs; i++)); do ms "$@"; echo; done |
		sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'
}

one='probe kernel.function("vfs_read") { printf("%d\n", $count) }'
# 50 wildcard points over common prefixes.
prefixes="vfs_ ksys_ do_sys_ ext4_ tcp_ udp_ ip_ sock_ kmem_ kmalloc page_ filemap_
mm_ sched_ wake_up_ schedule try_to_ mutex_ down_ up_ rcu_ irq_ timer_ hrtimer_
blk_ bio_ submit_ generic_ path_ dput d_ iput inode_ file_ fget fput seq_
proc_ sysfs_ kobject_ device_ driver_ pci_ netif_ dev_ skb_ napi_ signal_ send_sig"
many=$work/many.stp
for p in $prefixes; do echo "probe kernel.function(\"$p*\") ? { }"; done >"$many"

printf "%-24s %-30s %12s %12s  %s\n" kernel case stap-ng "stap $( [ -n "$ref" ] && "$ref" -V 2>&1 | sed -n '1s/.*version \([0-9.]*\).*/\1/p')" target
for f in /usr/lib/debug/boot/vmlinux-*; do
	[ -e "$f" ] || continue
	r=${f#/usr/lib/debug/boot/vmlinux-}
	# Cold: an empty cache (SystemTap has no such cache): the name is
	# indexed alone, and a detached child builds the whole index, which is
	# waited for so that it does not run into the figures below.  "whole":
	# the same with the whole index built first (STAP_NG_INDEX=whole).
	cold=$(XDG_CACHE_HOME=$work/cold-$r ms "$stap" -p2 -r "$r" -e "$one")
	for i in $(seq 300); do
		ls "$work/cold-$r"/stap-ng/dwarf/*.db >/dev/null 2>&1 && break
		sleep 1
	done
	whole=$(STAP_NG_INDEX=whole XDG_CACHE_HOME=$work/whole-$r ms "$stap" -p2 -r "$r" -e "$one")
	refcold=-; refwarm=-; refmany=-; refl=-
	if [ -n "$ref" ]; then
		refcold=$(ms "$ref" -p2 -r "$r" -e "$one")
		refwarm=$(median_ms "$ref" -p2 -r "$r" -e "$one")
		# SystemTap takes minutes on these two: one run each.
		refmany=$(ms "$ref" -p2 -r "$r" "$many")
		refl=$(ms "$ref" -l 'kernel.function("*")' -r "$r")
	fi
	warm=$(median_ms "$stap" -p2 -r "$r" -e "$one")
	mny=$(median_ms "$stap" -p2 -r "$r" "$many")
	lst=$(median_ms "$stap" -l 'kernel.function("*")' -r "$r")
	printf "%-24s %-30s %10s ms %10s ms  %s\n" "$r" "one probe, cold" "$cold" "$refcold" "<= stap"
	printf "%-24s %-30s %10s ms %10s ms  %s\n" "$r" "one probe, cold, whole index" "$whole" "-" "-"
	printf "%-24s %-30s %10s ms %10s ms  %s\n" "$r" "one probe, warm" "$warm" "$refwarm" "< 100 ms"
	printf "%-24s %-30s %10s ms %10s ms  %s\n" "$r" "50 wildcard probes, warm" "$mny" "$refmany" "-"
	printf "%-24s %-30s %10s ms %10s ms  %s\n" "$r" "-l kernel.function(\"*\")" "$lst" "$refl" "< 1000 ms"
done
