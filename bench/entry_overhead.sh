#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Per-hit cost of an entry probe whose body is `n++` (issue #14, item 0),
# and with BODIES="count stat printf" also `s[execname()] <<< 1` and
# `printf("%d\n", pid())`:
# ours kernel.function and kprobe.function, SystemTap 4.8 and bpftrace,
# 1 and 2 busy CPUs, all in one VM boot, through the shared
# ../shared/tools/bench/overhead.sh (its header says how it measures).
# It only prints: no figure here fails a build.
#
# Usage: bench/entry_overhead.sh      (from a built tree; ~8 min of VM time)
# Environment: N, RUNS, MODES, KVER, KEEP as overhead.sh reads them;
#   BODIES=which bodies (default count; ~8 min of VM time each);
#   CONFIGS=which tracers (default "ours ours_kprobe stap48 stap48_noov
#   bpftrace");
#   OVERHEAD=path of overhead.sh (default /work/shared/tools/bench/overhead.sh);
#   CONFIGS may also name ours_before (with BEFORE=DIR, a built checkout:
#   its stap and staprun, in the same boot as ours) and ours_fullregs: ours built with
#   -DSTP_FENTRY_FULL_REGS, whose entry probes all take the ftrace_ops
#   with full pt_regs (SAVE_REGS), as before the partial-regs ops
#   (runtime/fentry.c): both in one boot give the before/after ratio;
#   ours_noov, ours with -DSTP_NO_OVERLOAD (no overload check, so no
#   get_cycles() pair at all; ours times about one hit in eight of a hot
#   probe, runtime/context.c: under TCG each guest rdtsc takes a lock
#   that QEMU shares between all vCPUs, cpu_get_ticks()); ours_irqoff,
#   ours with -DINTERRUPTIBLE=0 (interrupts masked for each hit);
#   BPFTRACE_PROBE=kfunc:__do_sys_getppid attaches bpftrace through its BPF
#   trampoline (fentry) instead of a kprobe: the cheapest entry probe the
#   issue names (BTF has no entry for the alias __x64_sys_getppid on 6.1).
#
# .return probes (bench/ret_edit.pl): BODIES="ret retval" measures
#   `.return { n++ }` and `.return { n++; r += $return }` on the same
#   function (bpftrace: kretprobe:, `@n = count()` and `@r = sum(retval)`);
#   CONFIGS may name ours_kret, ours built with -DSTP_NO_FPROBE: every
#   .return a kretprobe, as before runtime/fexit.c (the before/after
#   ratio in one boot), and bpftrace_fexit, bpftrace's program on kfunc:/kretfunc:
#   of BT_FEXIT_FUNC (default __do_sys_getppid) in the same boot.  E.g.
#     BODIES="ret retval" CONFIGS="ours stap48_noov bpftrace bpftrace_fexit"
#   on 6.1, and KVER=6.12.117+deb12-amd64 CONFIGS="ours ours_kret
#   bpftrace bpftrace_fexit" for the fprobe against the kretprobe
#   (SystemTap 4.8 does not build for 6.12).
#
# CPUs: MODES="1cpu 2cpu 4cpu" (any NCPU, N sysloops pinned to CPUs
#   0..N-1) and SMP=vCPUs of the VM (default: the most any mode needs, at
#   least 2).  The shared vmrun.sh fixes -smp 2, so this runs a copy of it
#   with -smp $SMP.  This host has 2 cores: the VM's vCPUs are TCG threads,
#   and with 4 busy vCPUs two share each host core.  The guest cannot see
#   that: a loop's ns/call then includes the time its vCPU waits for a
#   host core, about doubling base and overhead alike.  So a 4cpu figure
#   does NOT say how the probe scales to 4 CPUs (its 4cpu/1cpu ratio is
#   mostly the host's time-sharing, and TCG has no cache model in which
#   CPUs could fight over a line); it DOES say that 4 CPUs hitting at once
#   lose no hit or line, skip nothing and crash nothing, and it compares
#   the tracers with each other (the "vs" columns, same mode, same boot)
#   and each probe with its own base (overhead/base).  Only a host with at
#   least SMP free cores gives the scaling ratio.
#
# overhead.sh knows a session is ready when its kprobe shows in
# /sys/kernel/debug/kprobes/list; ours now attaches through an ftrace_ops
# (runtime/fentry.c), which has no kprobe but shows in tracefs'
# enabled_functions.  So this runs a copy of it that accepts either, and
# shows the enabled_functions line of a probe that has no kprobe.
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
overhead=${OVERHEAD:-/work/shared/tools/bench/overhead.sh}
[ -x "$top/stap" ] || { echo "entry_overhead: $top/stap is not built: run make" >&2; exit 1; }
[ -f "$overhead" ] || { echo "entry_overhead: no $overhead" >&2; exit 1; }
tools=$(dirname "$(dirname "$(readlink -f "$overhead")")")
work=$(mktemp -d "${TMPDIR:-/tmp}/stap-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# The copy lives in work/bench/ beside links to the tools it uses.
mkdir -p "$work/bench"
cp "$(dirname "$(readlink -f "$overhead")")/sysloop.c" "$work/bench/"
for t in kver.sh staprun-path.sh; do ln -s "$tools/$t" "$work/$t"; done
modes=${MODES:-1cpu 2cpu}
need=2
for m in $modes; do
	case $m in
	[1-9]cpu|[1-9][0-9]cpu) [ "${m%cpu}" -gt $need ] && need=${m%cpu};;
	*) echo "entry_overhead: MODES: $m is not NCPU (1cpu, 2cpu, 4cpu...)" >&2; exit 1;;
	esac
done
export SMP=${SMP:-$need} MODES="$modes"
[ "$SMP" -ge "$need" ] || { echo "entry_overhead: MODES=\"$modes\" needs SMP>=$need" >&2; exit 1; }
# vmrun.sh with -smp $SMP instead of its fixed -smp 2.
sed 's/ -smp 2 / -smp ${SMP:-2} /' "$tools/vmrun.sh" >"$work/vmrun.sh"
chmod +x "$work/vmrun.sh"
grep -q -- '-smp ${SMP:-2} ' "$work/vmrun.sh" ||
	{ echo "entry_overhead: $tools/vmrun.sh changed: cannot set its -smp" >&2; exit 1; }
ef=/sys/kernel/tracing/enabled_functions
sed -e "s|^KL=/sys/kernel/debug/kprobes/list\$|&\\
probed() { grep -q getppid \$KL 2>/dev/null \|\| grep -q getppid $ef 2>/dev/null; }|" \
    -e 's|if grep -q getppid \$KL 2>/dev/null; then|if probed; then|' \
    -e "s|grep getppid \$KL \| while read l; do echo \"@@K|{ grep getppid \$KL \|\| grep getppid $ef; } \| while read l; do echo \"@@K|" \
    -e 's|elif ! grep -q getppid \$KL; then|elif ! probed; then|' \
    -e 's|^\(    ours)  *scr=.*bld=\$STAP\);;$|\1; [ $body = printf ] \&\& flags="$OURS_PRINTF_FLAGS";;|' \
    -e "s|^\(    [a-z]*)  *echo '\)kprobe:__x64_sys_getppid|\1${BPFTRACE_PROBE:-kprobe:__x64_sys_getppid}|" \
    -e 's|for tool in ours ours_kprobe |for tool in ours ours_before ours_fullregs ours_noov ours_irqoff ours_kret ours_kprobe |' \
    -e 's|^    ours)  *scr=\(.*\)bld=\$STAP\(.*\);;$|&\
    ours_fullregs) scr=\1bld=$STAP\2; flags="$flags -DSTP_FENTRY_FULL_REGS";;\
    ours_noov) scr=\1bld=$STAP\2; flags="$flags -DSTP_NO_OVERLOAD";;\
    ours_irqoff) scr=\1bld=$STAP\2; flags="$flags -DINTERRUPTIBLE=0";;\
    ours_kret) scr=\1bld=$STAP\2; flags="$flags -DSTP_NO_FPROBE";;\
    ours_before) scr=\1bld=$BEFORE/stap\2;;|' \
    -e 's|^\(    case \$tool in stap48\*) cmd\[\$name\]="\$S48RUN \$T/\$m.ko";;\) |\1 ours_before) cmd[$name]="$BEFORE_RUN $T/$m.ko";; |' \
    -e 's|^files+=("\$STAPRUN" |files+=(${BEFORE_RUN:+"$BEFORE_RUN"} "$STAPRUN" |' \
    "$overhead" | perl "$top/bench/ncpu_edit.pl" | perl "$top/bench/ret_edit.pl" \
    >"$work/bench/overhead.sh" || exit 1
chmod +x "$work/bench/overhead.sh"
# A printf flood spends most of each interval in the handler under TCG,
# so the overload protection of ours (as of plain SystemTap) ends the
# session; its printf sessions are built like stap48_noov, the column the
# table compares them with.  OURS_PRINTF_FLAGS= (empty) measures the plain build.
export OURS_PRINTF_FLAGS=${OURS_PRINTF_FLAGS--DSTP_NO_OVERLOAD}
export BT_FEXIT_FUNC=${BT_FEXIT_FUNC:-__do_sys_getppid}
# Each edit above must have happened, or the copy would wait in vain.
n=$(grep -c 'probed' "$work/bench/overhead.sh" || true)
if [ "$n" -ne 3 ] || ! grep -q "grep getppid $ef; }" "$work/bench/overhead.sh" ||
   ! grep -q 'OURS_PRINTF_FLAGS' "$work/bench/overhead.sh" ||
   [ "$(grep -c 'ours_fullregs' "$work/bench/overhead.sh")" -ne 2 ] ||
   [ "$(grep -c 'ours_kret' "$work/bench/overhead.sh")" -ne 2 ] ||
   [ "$(grep -c 'ours_noov' "$work/bench/overhead.sh")" -ne 2 ] ||
   [ "$(grep -c 'ours_irqoff' "$work/bench/overhead.sh")" -ne 2 ] ||
   [ "$(grep -c 'ours_before\|BEFORE_RUN' "$work/bench/overhead.sh")" -ne 4 ]; then
	echo "entry_overhead: $overhead changed: cannot adapt its readiness check" >&2
	exit 1
fi

# CONFIGS=ours_before: BEFORE=DIR, another built checkout (main, say):
# its stap and staprun as one more configuration in the same boot, so
# that before/after figures share their baselines.
if [[ " ${CONFIGS:-} " == *" ours_before "* ]]; then
	[ -x "${BEFORE:-}/stap" ] || { echo "entry_overhead: ours_before needs BEFORE=a built checkout" >&2; exit 1; }
	BEFORE=$(cd "$BEFORE" && pwd)
	BEFORE_RUN=$BEFORE/staprun/staprun
	# A copy: the initramfs holds files by path, and ours is also .../staprun/staprun.
	mkdir -p "$work/before"; cp "$BEFORE_RUN" "$work/before/staprun"
	BEFORE_RUN=$work/before/staprun
	export BEFORE BEFORE_RUN
fi
cd "$top"
bodies=$(echo "${BODIES:-count}" | tr -s ' ' '|')
configs=$(echo "${CONFIGS:-ours ours_kprobe stap48 stap48_noov bpftrace}" | tr -s ' ' '|')
ONLY="^($configs)-($bodies)\$" "$work/bench/overhead.sh" |
	sed -n '/^== overhead.sh/,/^   host:/p; /^== Summary/,$p'
echo "bpftrace attached to ${BPFTRACE_PROBE:-kprobe:__x64_sys_getppid}"
case " ${BODIES:-count} " in
*" printf "*) echo "ours' printf sessions built with: ${OURS_PRINTF_FLAGS:-(no flags)}";;
esac
cat <<'EOF'

Targets (issue #14): ours kernel.function's overhead below both SystemTap
4.8's and bpftrace's in each mode (the "vs" columns under 1), its 2cpu
overhead at most 1.2x its 1cpu one, and no skipped hits.
EOF
