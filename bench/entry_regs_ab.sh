#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the partial-regs ftrace_ops saves per entry hit (issue #14 item 0,
# runtime/fentry.c): `n++` probes on __do_sys_getppid and __do_sys_getpid,
# one on the ops without SAVE_REGS (its body reads no register) and one
# on the SAVE_REGS ops (its body names print_regs() on a path never
# taken), timed by bench/regs_ab.c in alternating rounds of each syscall,
# so that the host's load (other VMs, builds) weighs on both alike.
# Three boots: no tracer, then the two probe kinds one way round and the
# other; the figure is half the difference of the two sessions'
# getpid-getppid medians: full-regs hit - partial-regs hit, in ns, free
# of the two syscalls' own difference.  It only prints.
#
# Usage: bench/entry_regs_ab.sh   (from a built tree; ~3 boots)
# Environment: KVER (default 6.1.0-56-amd64), N calls a round (200000),
#   ROUNDS (21).
set -eu
top=$(cd "$(dirname "$0")/.." && pwd)
KVER=${KVER:-6.1.0-56-amd64} N=${N:-200000} ROUNDS=${ROUNDS:-21}
[ -x "$top/stap" ] || { echo "entry_regs_ab: $top/stap is not built: run make" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/stap-regsab.XXXXXX")
trap 'rm -rf "$work"' EXIT
gcc -O2 -Wall -static -o "$work/regs_ab" "$top/bench/regs_ab.c"

args='probe kernel.function("__do_sys_%s") { n++ }'
full='probe kernel.function("__do_sys_%s") { n++; if (n < 0) print_regs() }'
# Shows the session's output on stderr, prints its median difference.
session() {
	local label=$1 script=$2 out
	out=$(cd "$work" && "$top/stap" -r "$KVER" --vm --vm-timeout=1200 \
		-c "$work/regs_ab $N $ROUNDS" -e "global n; $script" 2>&1) ||
		{ echo "$label: failed:" >&2; echo "$out" | tail -5 >&2; return 1; }
	echo "$out" | sed "s/^/$label: /" >&2
	echo "$out" | sed -n 's/.*getpid-getppid \([-0-9]*\).*/\1/p'
}
echo "== entry_regs_ab.sh $(date -u '+%F %T') UTC kernel=$KVER N=$N ROUNDS=$ROUNDS ($(git -C "$top" rev-parse --short HEAD 2>/dev/null))"
d0=$(session none 'probe begin { }') || exit 1
da=$(session A "$(printf "$args" getppid) $(printf "$full" getpid)") || exit 1
db=$(session B "$(printf "$full" getppid) $(printf "$args" getpid)") || exit 1
echo "getpid-getppid medians: no tracer $d0, A (getpid full, getppid partial) $da, B (swapped) $db ns/call"
echo "full-regs hit - partial-regs hit: $(( (da - db) / 2 )) ns (A - B over 2)"
echo "  checks: A - none = $(( da - d0 )), none - B = $(( d0 - db )) (each the same difference if the two functions' hits cost alike)"
