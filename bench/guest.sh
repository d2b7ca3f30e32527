# SPDX-License-Identifier: GPL-2.0-or-later
# Shell functions for the guest side of the VM benchmarks (busybox sh):
# output_rate.sh and printf_scaling.sh copy this into their guest script.
KL=/sys/kernel/debug/kprobes/list; EF=/sys/kernel/tracing/enabled_functions
# The getppid probe is in: a kprobe, or an entry on our ftrace_ops.
probed() { grep -q getppid $KL 2>/dev/null || grep -q getppid $EF 2>/dev/null; }
alive() { [ -e /proc/$1/stat ] && [ "$(cut -d' ' -f3 /proc/$1/stat)" != Z ]; }
# CPU ticks of PID and its descendants, all threads: utime+stime, stime.
ticks() {
	[ -n "$1" ] || { echo 0 0; return; }
	awk -v root=$1 'FNR == 1 { s = $0; sub(/^.*\) /, "", s); split(s, f, " ");
		pid = FILENAME; sub(/^\/proc\//, "", pid); sub(/\/stat$/, "", pid);
		P[pid] = f[2]; C[pid] = f[12] + f[13]; S[pid] = f[13] }
	END { in_[root] = 1
		do { ch = 0; for (p in P) if (!(p in in_) && (P[p] in in_)) { in_[p] = 1; ch = 1 } } while (ch)
		for (p in in_) { s += C[p]; k += S[p] } print s + 0, k + 0 }' /proc/[0-9]*/stat 2>/dev/null
}
