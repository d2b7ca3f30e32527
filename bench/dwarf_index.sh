#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The DWARF index (translator/dwarf.c) on every kernel whose debuginfo is in
# /usr/lib/debug/boot: cold index time (1 thread and all cores), warm
# `stap -l 'kernel.function("*")'`, warm one-pattern lookups, database size
# and peak RSS, next to the targets.  It only prints: no figure fails a build.
#
# Usage: bench/dwarf_index.sh [-n RUNS] [-d]
#   -n RUNS  timed warm runs, median reported (default 11)
#   -d       drop the page cache before each cold index (root only): the
#            figure then includes reading the vmlinux from disk
# Environment: STAP=path (default: ./stap of this tree).  The cold indexes
# go to a temporary XDG_CACHE_HOME; the user's cache is not touched.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
stap=${STAP:-$top/stap}
runs=11 drop=
target_all_ms=1000 target_one_ms=100

while getopts "n:d" o; do
	case $o in
	n) runs=$OPTARG ;;
	d) drop=1 ;;
	*) sed -n '8,13p' "$0"; exit 2 ;;
	esac
done
[ -x "$stap" ] || { echo "dwarf_index: $stap is not built: run make" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "dwarf_index: needs /usr/bin/time (apt-get install time)" >&2; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME=$work/cache

# median_ms CMD...: median wall time of $runs runs, in ms with one decimal.
median_ms() {
	local i t0 t1
	"$@" >/dev/null 2>&1 || true	# warm the page cache
	for ((i = 0; i < runs; i++)); do
		t0=${EPOCHREALTIME/[.,]/}
		"$@" >/dev/null 2>&1 || true
		t1=${EPOCHREALTIME/[.,]/}
		echo $((t1 - t0))
	done | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1000 }'
}

# rss_mb CMD...: max RSS of one run, in MB.
rss_mb() {
	/usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 || true
	awk -v kb="$(tail -1 "$work/rss")" 'BEGIN { printf "%.1f", kb / 1024 }'
}

# cold THREADS RELEASE: index from scratch; sets secs, mb, idx (the
# database's own index_seconds: DWARF walk + merge + write, no image read).
cold() {
	local t0 t1
	rm -rf "$XDG_CACHE_HOME/stap-ng"	# the image build-id too: a first run
	[ -n "$drop" ] && sync && echo 3 >/proc/sys/vm/drop_caches
	t0=${EPOCHREALTIME/[.,]/}
	# whole: the full walk in this process, not one name and a background build
	STAP_NG_INDEX=whole STAP_NG_DWARF_THREADS=$1 /usr/bin/time -f %M -o "$work/rss" \
		"$stap" -l 'kernel.function("ksys_read")' -r "$2" >/dev/null 2>"$work/err" ||
		{ cat "$work/err" >&2; return 1; }
	t1=${EPOCHREALTIME/[.,]/}
	secs=$(awk -v us=$((t1 - t0)) 'BEGIN { printf "%.1f", us / 1e6 }')
	mb=$(awk -v kb="$(tail -1 "$work/rss")" 'BEGIN { printf "%.0f", kb / 1024 }')
	db=$(ls "$XDG_CACHE_HOME"/stap-ng/dwarf/*.db)
	idx=$(sqlite3 "$db" "SELECT value FROM meta WHERE key = 'index_seconds'" 2>/dev/null || echo "?")
}

ncpu=$(nproc)
echo "DWARF index: $ncpu cores; warm figures are the median of $runs runs${drop:+; cold runs start with an empty page cache}"
printf '%-24s %10s %10s %10s %10s %10s %10s %9s\n' "" "cold 1thr" "cold ${ncpu}thr" \
	"RSS cold" "-l * (ms)" "one (ms)" "-L one" "db (MB)"
printf '%-24s %10s %10s %10s %10s %10s %10s %9s\n' "target" "once" "once" "" \
	"< $target_all_ms" "< $target_one_ms" "< $target_one_ms" ""
found=
for vmlinux in /usr/lib/debug/boot/vmlinux-*; do
	[ -e "$vmlinux" ] || continue
	found=1
	r=${vmlinux#/usr/lib/debug/boot/vmlinux-}
	cold 1 "$r"
	c1="$secs s"
	cold "$ncpu" "$r"
	cn="$secs s" cmb="$mb MB" cidx=$idx
	all=$(median_ms "$stap" -l 'kernel.function("*")' -r "$r")
	nall=$("$stap" -l 'kernel.function("*")' -r "$r" | wc -l)
	allmb=$(rss_mb "$stap" -l 'kernel.function("*")' -r "$r")
	one=$(median_ms "$stap" -l 'kernel.function("ksys_read")' -r "$r")
	onel=$(median_ms "$stap" -L 'kernel.function("vfs_*@fs/read_write.c")' -r "$r")
	onemb=$(rss_mb "$stap" -l 'kernel.function("ksys_read")' -r "$r")
	size=$(du -m "$db" | cut -f1)
	printf '%-24s %10s %10s %10s %10s %10s %10s %9s\n' "$r" "$c1" "$cn" "$cmb" "$all" \
		"$one" "$onel" "$size"
	echo "    ($(wc -c <"$vmlinux" | awk '{ printf "%.0f", $1 / 1048576 }') MB vmlinux;" \
		"$nall functions listed; index proper $cidx s, the rest is reading the" \
		"build-id of /boot/vmlinuz-$r; warm RSS: -l * $allmb MB, one $onemb MB)"
done
[ -n "$found" ] || echo "no /usr/lib/debug/boot/vmlinux-*: install linux-image-RELEASE-dbg"

if command -v stap >/dev/null && [ "$(readlink -f "$(command -v stap)")" != "$(readlink -f "$stap")" ]; then
	echo "SystemTap: $(command -v stap) is installed; compare by hand:" \
		"time stap -l 'kernel.function(\"*\")'"
else
	echo "SystemTap: not installed, no comparison"
fi
