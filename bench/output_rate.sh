#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Output path cost and lossless line rate (issue #14, "Output"), for
# `probe kernel.function("__do_sys_getppid") { printf("%d\n", pid()) }`,
# ours against SystemTap 4.8 (built -DSTP_NO_OVERLOAD, as entry_overhead.sh
# builds it for printf), all in ONE VM boot (-smp 2).  It only prints.
#
# Part 1, cost: N getppid() calls on 1 CPU, then on 2 CPUs at once
#   (sysloop, pinned).  Per session: the loops' ns/call, lines delivered,
#   and the CPU time (utime+stime from /proc, all threads, children
#   included) the reader process(es) spent per line: staprun for ours,
#   staprun/stapio for SystemTap.  The reader's time per line is the
#   figure least disturbed by a loaded host: under -smp 2 with both CPUs
#   looping it is time taken from the loops.
# Part 2, lossless rate: one session per tracer; rateloop (bench/rateloop.c)
#   on both CPUs makes getppid() calls at a paced total rate, doubling
#   from RATE0 until lines go missing (counted per loop pid in the output)
#   or the loops cannot reach the rate; then bisects BISECT times.  Prints
#   the highest rate with every line delivered.  Both tracers get the same
#   relay buffer (staprun -b BUF MB).
#
# Usage: bench/output_rate.sh   (from a built tree; ~10-15 min of VM time)
# Environment: N=2000000 calls per loop (part 1); SECS=3 per rate step;
#   RATE0=50000; BISECT=3; BUF=1; PARTS="cost rate"; KVER (default newest
#   6.1, where SystemTap 4.8 builds); CONFIGS="ours stap48";
#   BEFORE=DIR another built checkout, run as config "before" (same boot:
#   before/after figures); KEEP=DIR keeps the raw guest output.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
. "$top/bench/lib.sh"
tools=/work/shared/tools
N=${N:-2000000}; SECS=${SECS:-3}; RATE0=${RATE0:-50000}; BISECT=${BISECT:-3}
BUF=${BUF:-1}; PARTS=${PARTS:-cost rate}
CONFIGS=${CONFIGS:-${BEFORE:+before }ours stap48}
export KVER=${KVER:-$("$tools/kver.sh" 6.1)}
[ -x "$top/stap" ] || { echo "output_rate: $top/stap is not built: run make" >&2; exit 1; }
T=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$T"' EXIT
gcc -O2 -static -o "$T/sysloop" "$tools/bench/sysloop.c"
gcc -O2 -static -o "$T/rateloop" "$top/bench/rateloop.c"

probe='kernel.function("__do_sys_getppid")'
scr="probe $probe { printf(\"%d\\n\", pid()) }"
files=("$T/sysloop" "$T/rateloop")
declare -A run
for c in $CONFIGS; do
	tree=$(config_tree output_rate "$c")
	m=orate_$c
	if [ -n "$tree" ]; then
		(cd "$T" && "$tree/stap" -r "$KVER" -p4 -DSTP_NO_OVERLOAD -m $m -e "$scr") \
			>"$T/$m.log" 2>&1 || { cat "$T/$m.log"; exit 1; }
		srun=$tree/staprun/staprun
		[ -x "$srun" ] || srun=$tree/staprun
		mkdir -p "$T/$c"; cp "$srun" "$T/$c/staprun"; srun=$T/$c/staprun
	else
		(cd "$T" && /usr/bin/stap -r "$KVER" -p4 -DSTP_NO_OVERLOAD -m $m -e "$scr") \
			>"$T/$m.log" 2>&1 || { cat "$T/$m.log"; exit 1; }
		srun=/usr/bin/staprun
		files+=(/usr/lib/systemtap/stapio)
	fi
	files+=("$srun" "$T/$m.ko")
	run[$c]="$srun -b $BUF $T/$m.ko"
	echo "build $c: ${run[$c]}"
done

{
cat <<EOF
#!/bin/sh
N=$N; SECS=$SECS; RATE0=$RATE0; BISECT=$BISECT; T=$T
EOF
cat "$top/bench/guest.sh"
cat <<'EOF'
start() {  # OUT COMMAND...: the tracer in the background, until its probe is in
	o=$1; shift
	"$@" > $o 2> $o.err &
	pid=$!
	i=0
	while [ $i -lt 600 ] && alive $pid && ! probed; do sleep 0.5; i=$((i+1)); done
	probed || { echo "@@W not ready: $(cat $o.err)"; return 1; }
	sleep 1
}
stop() {
	kill -INT $pid; i=0
	while alive $pid && [ $i -lt 240 ]; do sleep 0.5; i=$((i+1)); done
	wait $pid; echo "@@X $cfg rc=$? $(grep -v '^$' $o.err | tr '\n' '|')"
}
# Until the output stops growing: the reader caught up.
drain() {
	a=-1; b=$(wc -c < $1)
	while [ $a != $b ]; do sleep 2; a=$b; b=$(wc -c < $1); done
}
hz=$(getconf CLK_TCK 2>/dev/null || echo 100)
cost() {  # CFG COMMAND...
	cfg=$1; shift
	for mode in 1cpu 2cpu; do
		o=/tmp/$cfg.$mode.out
		start $o "$@" || continue
		tk=$(ticks $pid); t0=${tk% *}; s0=${tk#* }; l0=$(wc -l < $o)
		if [ $mode = 1cpu ]; then
			v=$(taskset -c 0 $T/sysloop $N); ns="${v%% *}"
		else
			taskset -c 0 $T/sysloop $N > /tmp/a & p1=$!
			taskset -c 1 $T/sysloop $N > /tmp/b & p2=$!
			wait $p1 $p2; a=$(cat /tmp/a); b=$(cat /tmp/b); ns="${a%% *}/${b%% *}"
		fi
		drain $o
		tk=$(ticks $pid); t1=${tk% *}; s1=${tk#* }; l1=$(wc -l < $o)
		stop
		echo "@@C $cfg $mode ns/call=$ns lines=$((l1 - l0)) reader_ticks=$((t1 - t0)) hz=$hz delivered=$(($(wc -l < $o) - l0)) sys_ticks=$((s1 - s0))"
		rm -f $o
	done
}
step() {  # RATE: both loops at RATE/2 each; prints "lost achieved"
	taskset -c 0 $T/rateloop $(($1 / 2)) $SECS > /tmp/a & p1=$!
	taskset -c 1 $T/rateloop $(($1 / 2)) $SECS > /tmp/b & p2=$!
	wait $p1 $p2
	drain $o
	set -- $(cat /tmp/a) $(cat /tmp/b)
	got=$(grep -c -e "^$1\$" -e "^$4\$" $o)
	echo "$(($2 + $5 - got)) $(($3 + $6))"
}
rate() {  # CFG COMMAND...
	cfg=$1; shift
	o=/tmp/$cfg.rate.out
	start $o "$@" || return
	r=$RATE0; good=0; gach=0; bad=0
	while :; do
		set -- $(step $r)
		echo "@@S $cfg rate=$r lost=$1 achieved=$2"
		if [ $1 -ne 0 ]; then bad=$r; break; fi
		good=$r; gach=$2
		# The loops fell short of the rate: as fast as they go.
		[ $2 -lt $((r * 9 / 10)) ] && break
		r=$((r * 2))
	done
	k=0
	while [ $bad -gt 0 ] && [ $k -lt $BISECT ]; do
		r=$(((good + bad) / 2))
		set -- $(step $r)
		echo "@@S $cfg rate=$r lost=$1 achieved=$2"
		if [ $1 -ne 0 ]; then bad=$r; else good=$r; gach=$2; fi
		k=$((k + 1))
	done
	echo "@@L $cfg lossless=$gach first_lossy=$bad"
	stop
	rm -f $o
}
EOF
for p in $PARTS; do
	for c in $CONFIGS; do echo "$p $c ${run[$c]}"; done
done
} > "$T/guest.sh"
files+=("$T/guest.sh")

echo "== output_rate.sh $(date -u '+%F %T UTC') kernel=$KVER N=$N SECS=$SECS BUF=${BUF}MB configs='$CONFIGS' ($(git -C "$top" rev-parse --short HEAD))"
"$tools/vmrun.sh" -t 3000 "${files[@]}" -- "sh $T/guest.sh" > "$T/vm.out" 2>&1 || true
[ -n "${KEEP:-}" ] && { mkdir -p "$KEEP"; cp "$T/vm.out" "$KEEP/"; }
grep -a -v '^@@' "$T/vm.out" | head -20
echo
echo "Part 1: reader CPU per line (utime+stime of staprun/stapio, its threads and children)"
printf '%-7s %-5s %-15s %10s %10s %15s %5s  %s\n' config mode ns/call lines reader-ms reader-ns/line sys% "delivered/made"
awk -v N=$N '/^@@C / { split($4, a, "="); split($5, l, "="); split($6, t, "="); split($7, h, "=");
	ms = t[2] * 1000 / h[2];
	split($8, d, "="); split($9, k, "="); made = ($3 == "2cpu" ? 2 : 1) * N
	printf "%-7s %-5s %-15s %10d %10.0f %15.0f %5.0f  %d/%d\n", $2, $3, a[2], l[2], ms, l[2] ? ms * 1e6 / l[2] : 0,
		t[2] ? 100 * k[2] / t[2] : 0, d[2], made }
	/^@@W|^@@X/ { print "  " $0 }' "$T/vm.out"
echo
echo "Part 2: lossless line rate, lines/s in total over 2 CPUs (steps of ${SECS}s each)"
# lost < 0: more lines than calls, i.e. lines delivered twice.  The
# figure is the rate the loops achieved in the last lossless step, not the
# one asked for (at the top they fall short of it).
grep -a '^@@S' "$T/vm.out" | sed 's/^@@S /  /; s/lost=-\([0-9]*\)/lost=0 DUPLICATED=\1/' || true
awk '/^@@L / { split($3, g, "="); split($4, b, "=");
	printf "%-7s highest lossless rate %d lines/s%s\n", $2, g[2],
		b[2] ? " (lines lost at " b[2] ")" : " (no loss at the fastest the loops went)" }' "$T/vm.out"
