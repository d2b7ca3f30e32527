# kernel.function(ADDRESS) and process(...).function(ADDRESS)[.call|
# .exported|.return] (and a user statement(ADDRESS).nearest): the function whose code holds a link-time address
# (probes.c's pf_func_at), probed at its entry, named by the address as
# SystemTap 4.8 names it.  4.8 on 6.1 (reference-stap) printed pp()
# "kernel.function(0xffffffff813669f0)" for vfs_read + 0x10, ppfunc() ""
# and vfs_read's $count there; its .return of an address never fired.
# 4.8 takes only a function's first address in a user file ("no match"
# inside it); ours takes any address in it, as for the kernel.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }
for r in $kernels; do
	a=$(nm "/usr/lib/debug/boot/vmlinux-$r" | awk '$3 == "vfs_read" { print $1; exit }')
	[ -n "$a" ] || fail "$r: no vfs_read in vmlinux-$r"
	mid=$(printf '0x%x' $((0x$a + 0x10)))
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.function($mid) { }"
	contains "kernel.function($mid) /* <- <input>:1:7 */"
	# stap -l gives the function's own address, as 4.8's does.
	expect_rc 0 "$STAP" -r "$r" -l "kernel.function($mid).call"
	is "kernel.function(0x$a).call"
	expect_rc 0 "$STAP" -r "$r" -L "kernel.function($mid)"
	is "kernel.function(0x$a) \$file:struct file* \$buf:char* \$count:size_t \$pos:loff_t*"
	# At vfs_read's entry, as function("vfs_read"), with its variables.
	expect_rc 0 "$STAP" -p3 -r "$r" -e "probe kernel.function($mid).return { println(\$return + \$count) }"
	contains '.symbol = "vfs_read", .offset = 0x0,'
	contains 'STP_KPROBE_RETURN'
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function(0x10) { }'
	contains "<input>:1:23: error: no kernel function holds 0x10"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function(0x10) ?, begin { }'
	expect_rc 1 "$STAP" -p2 -r "$r" -e "probe kernel.function($mid).inline { }"
	contains "error: kernel.function(ADDRESS) has no .inline: it names one out-of-line function"
done

uprog=$TOP/testsuite/uprog
[ -x "$uprog" ] || fail "testsuite/uprog is not built (make check builds it)"
add=$(nm "$uprog" | awk '$3 == "add" { sub(/^0+/, "", $1); print $1 }')
addmid=$(printf '0x%x' $((0x$add + 1)))
expect_rc 0 "$STAP" -p2 -e "probe process(\"$uprog\").function($addmid).call { }"
is "# probes
process(\"$uprog\").function($addmid).call /* <- <input>:1:7 */"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").function(0x1) { }"
contains "error: no function of $uprog holds 0x1"
# statement(ADDRESS).nearest: the beginning of the statement holding it.
expect_rc 0 "$STAP" -p2 -e "probe process(\"$uprog\").statement($addmid).nearest { }"
contains "process(\"$uprog\").statement(0x$add) /* <- <input>:1:7 */"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").statement(0x1).nearest { }"
contains "error: no statement of $uprog holds 0x1"

# Run: add's calls by uprog 2, and vfs_read's by it.
r=$(first_kernel)
if [ -n "$r" ] && debug_kernels | grep -qFx "$r" && command -v qemu-system-x86_64 >/dev/null; then
	a=$(nm "/usr/lib/debug/boot/vmlinux-$r" | awk '$3 == "vfs_read" { print $1; exit }')
	expect_rc 0 "$STAP" --vm -r "$r" -c "$uprog 2" -e "
probe process(\"$uprog\").function($addmid) { printf(\"%s %d %d\\n\", pp(), \$a, \$b) }
probe kernel.function(0x$a) { if (pid() == target()) n++ }
global n
probe end { printf(\"vfs_read %s\\n\", n ? \"hit\" : \"not hit\") }"
	want="process(\"$uprog\").function($addmid) 0 10
process(\"$uprog\").function($addmid) 1 10
vfs_read hit"
	[ "$(grep -v '^uprog \|^total \|^hello ' <<<"$out")" = "$want" ] || fail "$r: run: $out"
fi
exit 0
