# kernel.function("PATTERN")[.call|.inline|.return] probes resolved through
# the DWARF index (translator/probes/dwarf_func.c) of every kernel with
# debuginfo in /usr/lib/debug/boot; the index is built once per kernel
# build (see dwarf_list.sh).
. "$(dirname "$0")/lib.sh"

# No debuginfo: the dw layer's message, naming the package.
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("ksys_read") { }'
contains "<input>:1:23: error: dwarf: no debuginfo for kernel 0.0.0-nosuch: none of /usr/lib/debug/boot/vmlinux-0.0.0-nosuch /usr/lib/debug/lib/modules/0.0.0-nosuch/vmlinux exists"
contains "hint: install linux-image-0.0.0-nosuch-dbg"
# ... an optional point is dropped instead.
expect_rc 0 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("ksys_read") ?, begin { }'
# Suffixes and arguments are checked without debuginfo.
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("ksys_read").retrun { }'
contains "error: unexpected 'retrun' after kernel.function(...)"
contains "hint: did you mean '.return'?"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function { }'
contains "error: kernel.function needs a quoted pattern or an address: kernel.function(\"NAME[@FILE[:LINE]]\") or kernel.function(ADDRESS)"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function(42).label("x") { }'
contains "error: kernel.function(ADDRESS) has no .label: it names one out-of-line function"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	# One probe per match, named as stap -l names it.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { }'
	grep -qE '^kernel\.function\("ksys_read@fs/read_write\.c:[0-9]+"\) /\* <- <input>:1:7 \*/$' <<<"$out" ||
		fail "$r: -p2 listing: $out"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_*@fs/read_write.c").return { }'
	want=$("$STAP" -l 'kernel.function("ksys_*@fs/read_write.c").return' -r "$r")
	[ "$(sed -n 's| /\* <- <input>:1:7 \*/$||p' <<<"$out" | sort)" = "$want" ] ||
		fail "$r: wildcard -p2 listing differs from -l: $out"

	# Registration: the entry, symbol + 0, on the ftrace site where the
	# kernel has one (runtime/fentry.c), as SystemTap probes optimized
	# code; kretprobes at +0.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.function("ksys_read") { }'
	contains '.symbol = "ksys_read", .offset = 0x0, .maxactive = -1, .group = 0, .flags = STP_KPROBE_FENTRY, .link = 0x'
	# ... registered by the link-time address, moved by the KASLR offset
	# (_printk's): no kallsyms_lookup_name() per kprobe.
	a=$(nm "/usr/lib/debug/boot/vmlinux-$r" | awk '$3 == "ksys_read" { print $1 }')
	p=$(nm "/usr/lib/debug/boot/vmlinux-$r" | awk '$3 == "_printk" { print $1 }')
	contains ".link = 0x${a}ULL, .link_ref = 0x${p}ULL, .ftrace = 0x"
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.function("ksys_read").return { }'
	contains '.symbol = "ksys_read", .offset = 0x0, .maxactive = -1, .group = 0, .flags = STP_KPROBE_RETURN, .link = 0x'

	# A symbol that only aliases another function (SYSCALL_DEFINE0's
	# __x64_sys_NAME = __do_sys_NAME) resolves to that function through
	# the symbol table, with its variables, exact name or glob.
	expect_rc 0 "$STAP" -L 'kernel.function("__x64_sys_getppid")' -r "$r"
	grep -qxE 'kernel\.function\("__do_sys_getppid@kernel/sys\.c:[0-9]+"\) \$__unused:struct pt_regs const\*' <<<"$out" ||
		fail "$r: -L of the alias __x64_sys_getppid: $out"
	expect_rc 0 "$STAP" -l 'kernel.function("__x64_sys_getpp*")' -r "$r"
	grep -qxE 'kernel\.function\("__do_sys_getppid@kernel/sys\.c:[0-9]+"\)' <<<"$out" ||
		fail "$r: -l of the glob __x64_sys_getpp*: $out"
	# ... but not with @FILE: an alias has no source file (as SystemTap).
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("__x64_sys_getppid@kernel/sys.c") { }'
	contains "error: no kernel function matches '__x64_sys_getppid@kernel/sys.c'"

	# Nothing matches: the exact message, and the closest name.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_raed") { }'
	contains "<input>:1:23: error: no kernel function matches 'ksys_raed'"
	contains "hint: did you mean 'ksys_read'?"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read@fs/namei.c") { }'
	contains "error: no kernel function matches 'ksys_read@fs/namei.c'"
	contains "hint: 'ksys_read' exists but not at @fs/namei.c; stap -l 'kernel.function(\"ksys_read\")' lists where"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("no_such_function_xyz") ?, begin { }'

	# What the kernel refuses, known from its symbol table (as kprobe.*).
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("do_int3") { }'
	contains "error: cannot probe 'do_int3': its code in 'do_int3' is marked NOKPROBE_SYMBOL() by the kernel"

	# fdput is only ever inlined: no return to probe, no .call.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("fdput").return { }'
	contains "warning: cannot probe .return of inline-only function 'fdput' ("
	contains "error: no out-of-line copy of 'fdput' to probe the return of"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("fdput").call { }'
	contains "error: no out-of-line copy of 'fdput' to probe"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("fdput").inline { }'
	contains '").inline /* <- <input>:1:7 */'
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read").inline { }'
	contains "error: no inlined copy of 'ksys_read' to probe"
done
exit 0
