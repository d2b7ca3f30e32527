# stap --dump-probe-aliases: every probe alias of the tapset library and
# of the system call library, "NAME = POINTS" a line, sorted, as SystemTap
# prints them (its '!' and '?' kept).  The system call aliases are made
# from the kernel's debuginfo: without it they are left out, and said so.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$STAP" -r 0.0.0-nosuch --dump-probe-aliases
contains 'vfs.read = kernel.function("vfs_read")'
contains "stap: listed without the system call aliases (syscall.*, nd_syscall.*), which need kernel 0.0.0-nosuch's debuginfo"
grep -q '^syscall\.openat ' <<<"$out" && fail "system call aliases without debuginfo: $out"
grep -q '^[a-z_0-9.]* = .*[!?]\(, \|$\)' <<<"$out" || fail "no alias with an optional or sufficient point: $out"
bad=$(grep -v '^[A-Za-z_][A-Za-z0-9_.*]* = \|^stap: \|^hint: ' <<<"$out" | head -3)
[ -z "$bad" ] || fail "lines not in the NAME = POINTS form: $bad"
grep ' = ' <<<"$out" | cut -d' ' -f1 | LC_ALL=C sort -c 2>/dev/null || fail "not sorted by name"

r=$(first_kernel)
[ -e "/usr/lib/debug/boot/vmlinux-$r" ] || { echo "no debuginfo for $r"; exit 77; }
expect_rc 0 "$STAP" -r "$r" --dump-probe-aliases
contains 'syscall.openat = '
contains 'nd_syscall.openat = '
contains 'syscall.openat.return = '
grep -q "^stap: " <<<"$out" && fail "a note with debuginfo: $out"
exit 0
