# SPDX-License-Identifier: GPL-2.0-or-later
# Shared by the benchmarks: sourced, not run.  They set $runs (timed
# runs) and $work (a scratch directory) first.

# median_ms CMD...: median wall time of $runs runs, in ms with one decimal.
# Bash's EPOCHREALTIME (microseconds) keeps forks out of the timed span.
median_ms() {
	local i t0 t1
	"$@" >/dev/null 2>&1 || true	# warm the page cache
	for ((i = 0; i < runs; i++)); do
		t0=${EPOCHREALTIME/[.,]/}
		"$@" >/dev/null 2>&1
		t1=${EPOCHREALTIME/[.,]/}
		echo $((t1 - t0))
	done | sort -n | awk '{ a[NR] = $1 } END { printf "%.1f", a[int((NR + 1) / 2)] / 1000 }'
}

# peak_mb CMD...: the largest max RSS of 3 runs, in MB, or "n/a".
peak_mb() {
	local i kb max=0
	if [ ! -x /usr/bin/time ]; then
		echo "n/a (no /usr/bin/time: apt-get install time)"
		return
	fi
	for i in 1 2 3; do
		/usr/bin/time -f %M -o "$work/rss" "$@" >/dev/null 2>&1 || true
		kb=$(tail -1 "$work/rss")
		[ "$kb" -gt "$max" ] && max=$kb
	done
	awk -v kb="$max" 'BEGIN { printf "%.1f", kb / 1024 }'
}


# bench_args NAME USAGE-LINES "$@": the -n RUNS and -r RELEASE options of
# the kernel benches into $runs and $release (default: the newest 6.1 with
# debuginfo, where SystemTap 4.8 builds); checks that $stap is built and
# makes $work, removed on exit.
bench_args() {
	local name=$1 usage=$2 o f
	shift 2
	while getopts "n:r:" o; do
		case $o in
		n) runs=$OPTARG ;;
		r) release=$OPTARG ;;
		*) sed -n "$usage" "$0"; exit 2 ;;
		esac
	done
	[ -x "$stap" ] || { echo "$name: $stap is not built: run make" >&2; exit 1; }
	if [ -z "$release" ]; then
		for f in /usr/lib/debug/boot/vmlinux-6.1.*; do
			# Not PREEMPT_RT's, whose name sorts last: 4.8 builds nothing there.
			case $f in *-rt-*) continue ;; esac
			[ -e "$f" ] && release=${f#/usr/lib/debug/boot/vmlinux-}
		done
	fi
	[ -n "$release" ] || { echo "$name: no kernel debuginfo (-r RELEASE)" >&2; exit 1; }
	work=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
	trap 'rm -rf "$work"' EXIT
}

# config_tree BENCH CONFIG: the built checkout a tracer configuration runs
# from: ours (this one), before ($BEFORE) or stap48 (empty: the installed
# SystemTap 4.8).  load_time.sh and output_rate.sh name them alike.
config_tree() {
	case $2 in
	ours)   echo "$top";;
	before) (cd "$BEFORE" && pwd);;
	stap48) echo;;
	*) echo "$1: unknown config $2" >&2; return 1;;
	esac
}
