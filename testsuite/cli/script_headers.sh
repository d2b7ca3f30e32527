# The headers a script's C compiles: the -p3 output and the runtime
# headers it includes ("...", followed through $TOP/runtime/) must not
# pull in the kernel headers that cost every module's compile most
# (<linux/kprobes.h> alone was 0.41 s of the 0.53 s of a begin probe
# printing pid() and execname() on 6.1; sched.h, cred.h, module.h,
# kallsyms.h a quarter to a third of a second each).  Functions needing
# them live in the runtime (runtime/tapset_ctx.c), compiled once per
# kernel; kprobes and timers get their headers only where they are, and
# a kprobe row (stp_kprobe.h) leaves the kernel's struct kprobe to the
# runtime (runtime/kprobe.c): <linux/kprobes.h> was 0.45 s of the 0.65 s
# of a kernel.function script's headers on 6.1.
. "$(dirname "$0")/lib.sh"

heavy='linux/(kprobes|ftrace|sched|cred|module|kallsyms|fs|mm|hrtimer|ptrace|pid|uidgid|sched/task_stack)\.h'

# Every <...> header the C in $out includes, directly or through the
# runtime's own headers.
headers() {
	local todo seen=" " h f
	todo=$(grep -o '^#include "[^"]*"' <<<"$out" | cut -d'"' -f2)
	grep -o '^#include <[^>]*>' <<<"$out" | cut -d'<' -f2 | tr -d '>'
	while set -- $todo; [ $# -gt 0 ]; do
		h=$1; shift; todo=$*
		case $seen in *" $h "*) continue ;; esac
		seen+="$h "
		# Generated into the build directory (translator/build.c): defines only.
		[ "$h" = stap_kfeatures.h ] && continue
		f=$TOP/runtime/$h
		[ -f "$f" ] || fail "the C includes \"$h\", not in $TOP/runtime"
		grep -o '^#include <[^>]*>' "$f" | cut -d'<' -f2 | tr -d '>'
		todo+=" $(grep -o '^#include "[^"]*"' "$f" | cut -d'"' -f2 | tr '\n' ' ')"
	done
}

# The context functions most scripts call, and the time and string ones.
expect_rc 0 "$STAP" -p3 -e 'probe begin {
	printf("%d %d %d %d %d %d %d %d %d %d %s %s %s %d %d %d %d %d\n",
	       pid(), tid(), ppid(), pgrp(), sid(), uid(), euid(), gid(), egid(),
	       cpu(), execname(), pexecname(), module_name(), uaddr(),
	       user_mode(), stack_used(), gettimeofday_us(), strlen(pp()))
	exit()
}'
h=$(headers) || fail "$h"
bad=$(grep -Ex "$heavy" <<<"$h" | sort -u | tr '\n' ' ')
[ -z "$bad" ] || fail "a begin probe's C includes $bad"
grep -q 'stp_kprobe\.h\|stp_timer\.h' <<<"$out" && fail "kprobe or timer rows without such probes: $out"

# The families that need them include them.
expect_rc 0 "$STAP" -p3 -e 'probe timer.ms(100) { exit() }'
contains '#include "stp_timer.h"'
h=$(headers) || fail "$h"
grep -qx 'linux/hrtimer.h' <<<"$h" || fail "a timer probe's C without <linux/hrtimer.h>: $h"
expect_rc 0 "$STAP" -p3 -e 'probe kprobe.function("vfs_read") { exit() }
	probe kprobe.function("vfs_write").return { exit() }'
contains '#include "stp_kprobe.h"'
h=$(headers) || fail "$h"
bad=$(grep -Ex "$heavy" <<<"$h" | sort -u | tr '\n' ' ')
[ -z "$bad" ] || fail "a kprobe's C includes $bad"
# Guru code still finds struct kprobe declared (stp_guru.h).
expect_rc 0 "$STAP" -g -p3 -e '%{ /* guru */ %} probe kprobe.function("vfs_read") { exit() }'
h=$(headers) || fail "$h"
grep -qx 'linux/kprobes.h' <<<"$h" || fail "a guru script's C without <linux/kprobes.h>: $h"

# The DWARF families' rows and target variables, where there is debuginfo.
r=$(debug_kernels | head -n 1)
[ -n "$r" ] || { echo "no kernel debuginfo: kernel.function not checked"; exit 77; }
expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.function("vfs_read") { printf("%d %s\n", $count, $file$) }
	probe kernel.function("vfs_write").return { println(@entry($count)) }
	probe kernel.statement("ksys_read") { exit() }'
contains '#include "stp_kprobe.h"'
h=$(headers) || fail "$h"
bad=$(grep -Ex "$heavy" <<<"$h" | sort -u | tr '\n' ' ')
[ -z "$bad" ] || fail "a kernel.function script's C includes $bad"
exit 0
