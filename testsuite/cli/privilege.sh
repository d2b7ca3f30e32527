. "$(dirname "$0")/lib.sh"
# --privilege=stapusr|stapsys|stapdev and --unprivileged (man stap,
# UNPRIVILEGED USERS): what the translator refuses after pass 2
# (translator/privilege.c).  stapusr: only begin, end, error, never,
# process.* and timer.{jiffies,s,ms,us,ns,hz}(N) probes, only tapset
# functions marked unprivileged, no kernel memory; neither level with -g.
# The messages differ from SystemTap 4.8's in wording only: the same
# scripts fail, at the same construct.
expect_rc 1 "$STAP" --privilege=root -p1 -e 'probe begin {}'
is "stap: --privilege=root: not a privilege level (stapusr, stapsys or stapdev)"
expect_rc 1 "$STAP" --privilege=stapusr -g -p1 -e 'probe begin {}'
is "stap: -g and --privilege=stapusr cannot be used together"
expect_rc 1 "$STAP" -g --privilege=stapsys -p1 -e 'probe begin {}'
is "stap: -g and --privilege=stapsys cannot be used together"

# The preprocessor sees the level.
lvl='probe begin { printf("%s\n", %( systemtap_privilege == "stapusr" %? "usr" %: %( systemtap_privilege == "stapsys" %? "sys" %: "dev" %) %)) }'
for o in --privilege=stapusr --unprivileged --privilege; do
	expect_rc 0 "$STAP" $o -p1 -e "$lvl"
	contains '"usr"'
done
expect_rc 0 "$STAP" --privilege=stapsys -p1 -e "$lvl"
contains '"sys"'
expect_rc 0 "$STAP" -p1 -e "$lvl"
contains '"dev"'

# --dump-probe-types lists stapusr's forms only.
expect_rc 0 "$STAP" --privilege=stapusr --dump-probe-types
bad=$(grep -Ev '^(begin|end|error|never|process|timer\.(jiffies|s|sec|ms|msec|us|usec|ns|nsec|hz)\()' <<<"$out")
[ -z "$bad" ] || fail "stapusr forms: $bad"
grep -qx 'timer.ms(number).randomize(number)' <<<"$out" && grep -qx 'process.begin' <<<"$out" ||
	fail "stapusr forms missing: $out"

r=$(debug_kernels | head -n 1)
[ -n "$r" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }
usr() { expect_rc "$1" "$STAP" --privilege=stapusr -p2 -r "$r" -e "$2"; }
# Allowed.
usr 0 'probe begin { println(execname()) } probe timer.s(1), timer.hz(10), timer.jiffies(5) { exit() } probe end, error, never { println(pid()) }'
[ -x "$TOP/testsuite/uprog" ] || fail "testsuite/uprog is not built (make check builds it)"
usr 0 "probe process(\"$TOP/testsuite/uprog\").function(\"main\") { printf(\"%s %d %d %s\\n\", pp(), \$argc, target(), usymname(uaddr())); print_ubacktrace() } probe process.begin { if (execname() =~ \"(u)\") println(matched(1), ngroups(), tid()) }"
# Probe points, the script's own and through aliases.
usr 1 'probe kernel.function("vfs_read") { println(1) }'
contains '<input>:1:7: error: probe point kernel.function("vfs_read@fs/read_write.c:'
contains 'is not allowed with --privilege=stapusr'
contains "hint: stapusr may use begin, end, error, never, process.* and timer.{jiffies,s,ms,us,ns,hz}(N) probes"
usr 1 'probe timer.profile { println(1) }'
contains "<input>:1:7: error: probe point timer.profile is not allowed with --privilege=stapusr"
usr 1 'probe syscall.read { println(1) }'
contains "is not allowed with --privilege=stapusr"
# Tapset functions in C not marked unprivileged, at their definition.
usr 1 'probe begin { printf("%s\n", kernel_string(0)) }'
contains "/conversions.stp:"
contains "error: function 'kernel_string' may not be used with --privilege=stapusr: it is not marked unprivileged"
# Kernel memory.
usr 1 'probe begin { println(@cast(0, "task_struct", "kernel")->pid) }'
contains "<input>:1:23: error: kernel memory may not be read with --privilege=stapusr"
usr 1 'probe begin { println(@cast(0, "struct stat", "<sys/stat.h>")->st_size) }'
contains "<input>:1:23: error: kernel memory may not be read with --privilege=stapusr"
usr 0 "probe process(\"$TOP/testsuite/uprog\").function(\"main\") { println(@cast(\$argv, \"struct stat\", \"<sys/stat.h>\")->st_size) }"
# stapsys and stapdev allow all of these.
for o in --privilege=stapsys --privilege=stapdev; do
	expect_rc 0 "$STAP" $o -p2 -r "$r" -e 'probe kernel.function("vfs_read") { printf("%s %d\n", kernel_string($buf), @cast(task_current(), "task_struct", "kernel")->pid) }'
done
exit 0
