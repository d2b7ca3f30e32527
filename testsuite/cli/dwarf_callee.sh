# kernel.function("PATTERN").callee("PATTERN") and .callees[(DEPTH)]: the
# functions a function calls (translator/probes/dwarf_func.c), each a
# probe that fires only when called from it (run/kernel_callee runs
# them).  SystemTap 4.8's -l lists only the inlined callees on these
# kernels (it misses DWARF 5's call sites): its lines must be among ours.
. "$(dirname "$0")/lib.sh"

# The arguments and what may follow are checked without debuginfo.
nodw() { expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e "probe kernel.function(\"vfs_read\").$1 { }"; }
nodw 'callees(0)'
contains "<input>:1:43: error: callees' depth must be between 1 and 8"
nodw 'callees("x")'
contains "error: callees needs a number: .callees(DEPTH)"
nodw 'callee'
contains "error: callee needs a quoted argument: .callee(\"PATTERN\")"
nodw 'callee("x").return.maxactive(3)'
contains "error: unexpected 'maxactive' after .return"
nodw 'callee("x@y.c")'
contains 'hint: name the callee alone: .callee("x")'
nodw 'callee("x").inline'
contains "error: unexpected 'inline' after .callee(...)"
nodw 'callees.call'
contains "error: unexpected 'call' after .callees"
nodw 'calee("x")'
contains "hint: did you mean '.callee'?"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe module("nfsd").function("nfsd_svc").callees { }'
contains "error: module(...).function(...).callees is not supported yet"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

L() { sed 's/:[0-9]*")/:L")/g' <<<"$1"; }
for r in $kernels; do
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.function("vfs_read").callees'
	ours=$(L "$out")
	for c in __access_ok add_rchar inc_syscr rw_verify_area; do
		grep -qx "kernel.function(\"vfs_read@fs/read_write.c:L\").callee(\"$c@[^\"]*:L\")" <<<"$ours" ||
			fail "$r: no callee $c: $out"
	done
	[ "$r" != 6.1.0-56-amd64 ] || {
		want='kernel.function("vfs_read@fs/read_write.c:450").callee("__access_ok@include/asm-generic/access_ok.h:31")
kernel.function("vfs_read@fs/read_write.c:450").callee("add_rchar@include/linux/sched/xacct.h:12")
kernel.function("vfs_read@fs/read_write.c:450").callee("inc_syscr@include/linux/sched/xacct.h:22")'
		[ "$(grep -Fxf <(echo "$want") <<<"$out")" = "$want" ] || fail "$r: not SystemTap's: $out"
	}
	# -L: the callee's variables, as 4.8's for an inlined one.
	expect_rc 0 "$STAP" -r "$r" -L 'kernel.function("vfs_read").callee("inc_syscr")'
	[ "$(L "$out")" = 'kernel.function("vfs_read@fs/read_write.c:L").callee("inc_syscr@include/linux/sched/xacct.h:L") $tsk:struct task_struct*' ] ||
		fail "$r: -L: $out"
	expect_rc 0 "$STAP" -r "$r" -L 'kernel.function("vfs_read").callee("rw_verify_area")'
	contains ' $count:size_t'
	# Depth 2 adds the callees' callees, named from their own caller.
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.function("vfs_read").callees(2)'
	grep -qx 'kernel.function("rw_verify_area@fs/read_write.c:L").callee("unsigned_offsets@fs/read_write.c:L")' <<<"$(L "$out")" ||
		fail "$r: callees(2): $out"
	[ "$r" != 6.1.0-56-amd64 ] ||
		grep -qxF 'kernel.function("__access_ok@include/asm-generic/access_ok.h:31").callee("task_size_max@arch/x86/include/asm/page_64.h:87")' <<<"$out" ||
		fail "$r: not SystemTap's callees(2): $out"
	# pp() is the callee's (with .call if written), pn() the path.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read").callee("rw_verify_area").call { }'
	[ "$(L "$out" | grep '<-')" = 'kernel.function("rw_verify_area@fs/read_write.c:L").call /* <- <input>:1:7 */' ] ||
		fail "$r: -p2 of .call: $out"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read").callee("rw_verify_area").return { }'
	[ "$(L "$out" | grep '<-')" = 'kernel.function("rw_verify_area@fs/read_write.c:L").return /* <- <input>:1:7 */' ] ||
		fail "$r: -p2 of .return: $out"
	# Checked at the entry: an entry function, which saves nothing.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.function("vfs_read").callee("rw_verify_area").return { }'
	grep -qF 'c->entry_slots[0] = (int64_t)(0);' <<<"$out" || fail "$r: no entry for .return"
	# An out-of-line callee checks one return address, an inlined one none.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.function("vfs_read").callee("rw_verify_area"), kernel.function("vfs_read").callee("inc_syscr") { }'
	[ "$(grep -c '^	\.n = 1,$' <<<"$out")" = 1 ] && [ "$(grep -c '\.callers = ' <<<"$out")" = 1 ] ||
		fail "$r: callers: $(grep -A4 stp_callers <<<"$out")"
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.function("ksys_write").callees(2) { }'
	grep -q '^	\.n = 2,$' <<<"$out" || fail "$r: no two-level callers in callees(2)"
	# vfs_write's rw_verify_area through ksys_write: the return addresses,
	# innermost first, are in vfs_write, then in ksys_write.
	ra=$(grep -B12 'callee(\\"rw_verify_area@' <<<"$out" | sed -n 's/.*stp_callers_ra_[0-9]*\[\] = { 0x\([0-9a-f]*\)ULL, 0x\([0-9a-f]*\)ULL };/\1 \2/p' | head -n 1)
	inside() {	# ADDR FUNC: is ADDR in FUNC's code (nm -S of the vmlinux)?
		local a s z
		read -r a s z < <(nm -S "/usr/lib/debug/boot/vmlinux-$r" | awk -v f="$2" '$4 == f { print $1, $2; exit }')
		[ -n "$a" ] && (( 0x$1 > 0x$a && 0x$1 <= 0x$a + 0x$s ))
	}
	[ -n "$ra" ] && inside "${ra% *}" vfs_write && inside "${ra#* }" ksys_write ||
		fail "$r: callers of vfs_write's rw_verify_area: '$ra'"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read").callee("nosuch") { }'
	contains "<input>:1:23: error: 'vfs_read' calls no function matching 'nosuch' that can be probed"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read").callee("inc_syscr").call { }'
	contains "error: 'vfs_read' calls no function matching 'inc_syscr' that can be probed"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("nosuch_fn").callees { }'
	contains "error: no kernel function matches 'nosuch_fn'"
	# Optional: dropped.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read").callee("nosuch") ?, begin { }'
done
# Too deep a walk of a busy function: an error, not an endless pass 2.
r=$(head -n 1 <<<"$kernels")
expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("do_sys_openat2").callees(8) { }'
contains "error: the callees of 'do_sys_openat2' to depth 8 are more than one probe point may probe"

# process(...).function(...).callee(...): testsuite/uprog's calls; the
# out-of-line ones check user return addresses (file offsets), and the
# module gets the file's unwind tables without any ubacktrace() in the
# script.
uprog=$TOP/testsuite/uprog
[ -x "$uprog" ] || fail "testsuite/uprog is not built (make check builds it)"
expect_rc 0 "$STAP" -l "process(\"$uprog\").function(\"main\").callees"
for c in add@testsuite/uprog.c:43 fib@testsuite/uprog.c:55 'atoi@/usr/include/stdlib.h:362'; do
	grep -qxF "process(\"$uprog\").function(\"main@testsuite/uprog.c:100\").callee(\"$c\")" <<<"$out" ||
		fail "uprog: no callee $c: $out"
done
expect_rc 0 "$STAP" -l "process(\"$uprog\").function(\"fib\").callees(3)"
is "process(\"$uprog\").function(\"fib@testsuite/uprog.c:55\").callee(\"fib@testsuite/uprog.c:55\")"
expect_rc 0 "$STAP" -p3 -e "probe process(\"$uprog\").function(\"main\").callee(\"add\") { }"
contains '	.match = _stp_ucallers_match,'
grep -q '^const struct stp_usymtab _stp_usym_tables\[\] = {$' <<<"$out" &&
	[ "$(grep -c '\.syms = { \.name = ' <<<"$out")" -ge 2 ] || fail "uprog: no unwind tables"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").function(\"add\").callee(\"*\") { }"
contains "error: 'add' calls no function matching '*' that can be probed"

# A call names its callee's DIE, or only a declaration: a static helper
# in a.c and an external one in c.c share the name, and each caller gets
# its own.
command -v gcc >/dev/null || exit 0
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
printf '%s\n' '__attribute__((noinline)) static int helper(int x) { asm volatile(""); return x + 1; }' \
	'__attribute__((noinline)) int caller(int x) { return helper(x) * 2; }' >"$tmp/a.c"
printf '%s\n' '__attribute__((noinline)) int helper(int x) { asm volatile(""); return x - 1; }' \
	'int caller(int);' 'int main(int argc, char **argv) { return caller(argc) + helper(argc); }' >"$tmp/c.c"
(cd "$tmp" && gcc -O2 -g -o dup a.c c.c) || fail "gcc failed"
expect_rc 0 "$STAP" -l "process(\"$tmp/dup\").function(\"*\").callee(\"helper\")"
is "process(\"$tmp/dup\").function(\"caller@$tmp/a.c:2\").callee(\"helper@$tmp/a.c:1\")
process(\"$tmp/dup\").function(\"main@$tmp/c.c:3\").callee(\"helper@$tmp/c.c:1\")"
