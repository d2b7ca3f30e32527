# print_backtrace(), print_stack() and print_syms() print one
# " 0x<16 hex digits> : symbol+0xOFF/0xSIZE [kernel]" line a frame: run
# in the VM on each kernel with debuginfo (their addresses change with
# KASLR, so run/ cannot hold their exact output); print_regs() prints
# its eight lines of registers.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing"; exit 77; }

script='
global hit
probe kprobe.function("ksys_read") {
	if (pid() != target() || hit++)
		next
	print_backtrace(); println("--"); print_stack(backtrace()); println("--")
	print_syms(callers(2)); println("--")
	print_regs()
}'
line='^ 0x[0-9a-f]{16} : [A-Za-z_][A-Za-z0-9_.]*\+0x[0-9a-f]+/0x[0-9a-f]+ \[kernel\]$'
for r in $kernels; do
	# stdout only: stderr may carry notes (indexing the debuginfo).
	out=$("$STAP" --vm -r "$r" -c 'cat /dev/null' -e "$script" 2>stderr.txt); rc=$?
	[ $rc = 0 ] || fail "$r: exit $rc: $(cat stderr.txt) $out"
	first=$(head -n 1 <<<"$out")
	grep -qE '^ 0x[0-9a-f]{16} : ksys_read\+0x[0-9a-f]+/0x[0-9a-f]+ \[kernel\]$' <<<"$first" ||
		fail "$r: the first frame is not ksys_read: $out"
	bt=$(awk '/^--$/{n++} n<3' <<<"$out")
	bad=$(grep -v -e '^--$' <<<"$bt" | grep -vE "$line")
	[ -z "$bad" ] || fail "$r: lines not in SystemTap's format: $bad"
	grep -q 'do_syscall_64+0x' <<<"$out" || fail "$r: no system call entry in the stack: $out"
	# print_stack(backtrace()) prints what print_backtrace() printed.
	a=$(awk '/^--$/{n++; next} n==0' <<<"$out"); b=$(awk '/^--$/{n++; next} n==1' <<<"$out")
	[ "$a" = "$b" ] || fail "$r: print_stack(backtrace()) differs from print_backtrace(): $out"
	c=$(awk '/^--$/{n++; next} n==2' <<<"$out")
	# callers(n): the top frame and n more (SystemTap 4.8 counts n below the top).
	[ "$c" = "$(sed -n 1,3p <<<"$a")" ] || fail "$r: print_syms(callers(2)) is not frames 1-3: $out"
	# print_regs(): the registers at the probe.
	regs=$(awk '/^--$/{n++; next} n==3' <<<"$out")
	grep -qE '^RIP: [0-9a-f]{16}$' <<<"$regs" || fail "$r: no RIP line: $regs"
	grep -qE '^RAX: [0-9a-f]{16} RBX: [0-9a-f]{16} RCX: [0-9a-f]{16}$' <<<"$regs" ||
		fail "$r: no RAX line: $regs"
	[ "$(wc -l <<<"$regs")" = 8 ] || fail "$r: print_regs() printed $(wc -l <<<"$regs") lines: $regs"
done
exit 0
