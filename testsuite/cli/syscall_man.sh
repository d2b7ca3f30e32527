# The manual pages of the generated syscall.NAME aliases: made by
# scripts/syscall-man.awk from scripts/syscall-aliases.tsv (kept in the
# tree, as the build has no kernel to derive it from), one for each
# call's entry and return, nd_syscall's including them.  Where the kernel
# the table was made from is installed, the table must be what
# scripts/syscall-man.sh makes from it now (else: run that script).
. "$(dirname "$0")/lib.sh"

tsv="$TOP/scripts/syscall-aliases.tsv"
mkdir man
expect_rc 0 awk -f "$TOP/scripts/syscall-man.awk" -v out=man "$tsv"
[ -z "$out" ] || fail "syscall-man.awk complains: $out"
n=$(grep -v '^#' "$tsv" | cut -f1 | sort -u | wc -l)
[ "$n" -gt 300 ] || fail "only $n calls in $tsv"
for f in syscall.open syscall.open.return syscall.lseek syscall.getpid.return; do
	[ -s "man/probe::$f.3stap" ] || fail "no page for $f"
	[ -s "man/probe::nd_$f.3stap" ] || fail "no page for nd_$f"
done
# and tapset::syscalls, the list of them all
[ "$(ls man | wc -l)" = $((4 * n + 1)) ] || fail "expected $((4 * n + 1)) pages, not $(ls man | wc -l)"
grep -qx '.so man3/probe::syscall.open.3stap' man/probe::nd_syscall.open.3stap ||
	fail "nd_syscall.open's page does not include syscall.open's"
# Two calls, one alias: both on its page.
grep -q 'Fires on entry to the pipe2 system call' man/probe::syscall.pipe.3stap ||
	fail "syscall.pipe's page lacks pipe2"

# The table is what the translator derives (the kernel it names, if here).
rel=$(sed -n '1s/.* from kernel \([^:]*\):.*/\1/p' "$tsv")
[ -n "$rel" ] || fail "no kernel named in the table's first line"
if [ -e "/lib/modules/$rel/build/Makefile" ] && [ -e "/usr/lib/debug/boot/vmlinux-$rel" ]; then
	expect_rc 0 bash "$TOP/scripts/syscall-man.sh" -s "$STAP" -o now.tsv "$rel"
	diff "$tsv" now.tsv >diff.out || fail "scripts/syscall-aliases.tsv is stale: \
run scripts/syscall-man.sh $rel; $(head -20 diff.out)"
else
	echo "kernel $rel (build tree and debuginfo) missing: freshness not checked"
fi

command -v man >/dev/null || { echo "man(1) missing: rendering not checked"; exit 0; }
expect_rc 0 env MANWIDTH=200 man -l "man/probe::syscall.open.3stap"
contains "probe::syscall.open - Record entry into the open system call"
contains "nd_syscall.open"
# (a long name stands on a line of its own, its text below)
grep -qE '^ +filename_unquoted$' <<<"$out" || fail "no filename_unquoted entry: $out"
contains "argument 1 (char const *filename), the user string quoted (string)"
contains "argument 1 (char const *filename), the user string without quotes (string)"
contains "argument 2 (int flags) as argstr shows it (string)"
grep -qE '^ +mode +argument 3 \(umode_t mode\) \(long\)' <<<"$out" || fail "no mode entry: $out"
contains "number 2 of x86-64, and number 5 of a 32-bit (ia32) task"
contains "long sys_open(char const *filename, int flags, umode_t mode)"
# ia32's own forms of a call, under its alias (sc_variant32): their numbers too.
expect_rc 0 env MANWIDTH=200 man -l "man/probe::syscall.clock_nanosleep.3stap"
# (man justifies the line: spaces squeezed)
tr -s ' ' <<<"$out" | grep -q "number 230 of x86-64, and numbers 407, 267 of a 32-bit (ia32) task" ||
	fail "clock_nanosleep's page lacks its ia32 numbers: $out"
expect_rc 0 env MANWIDTH=200 man -l "man/tapset::syscalls.3stap"
grep -A1 -E '^ +syscall\.open$' <<<"$out" | grep -qE '^ +filename, filename_unquoted, flags, flags_str, mode$' ||
	fail "tapset::syscalls lacks open's variables: $out"
expect_rc 0 env MANWIDTH=200 man -l "man/probe::syscall.open.return.3stap"
contains "probe::syscall.open.return - Record return from the open system call"
contains "retstr"
exit 0
