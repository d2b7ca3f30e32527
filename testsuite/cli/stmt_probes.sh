# kernel.statement("FUNC@FILE:LINE"), line ranges, :*, +N, .nearest,
# kernel.statement(ADDR) and .absolute, resolved from the DWARF line tables
# of every kernel with debuginfo (translator/probes/dwarf_stmt.c).  Line
# numbers differ between kernels: they are taken from stap's own listing
# and checked against each other, never written down here.
. "$(dirname "$0")/lib.sh"

expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.statement("vfs_read@fs/read_write.c:*") { }'
contains "<input>:1:24: error: dwarf: no debuginfo for kernel 0.0.0-nosuch"
contains "hint: install linux-image-0.0.0-nosuch-dbg"
expect_rc 0 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.statement("vfs_read@fs/read_write.c:*") ?, begin { }'
# .absolute needs no debuginfo, but guru mode.
expect_rc 0 "$STAP" -p3 -g -r 0.0.0-nosuch -e 'probe kernel.statement(0xffffffff81000010).absolute { }'
contains '.addr = 0xffffffff81000010UL, .maxactive = -1, .group = 0, .flags = 0 }'
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.statement(0xffffffff81000010).absolute { }'
contains "error: kernel.statement(ADDR).absolute is only allowed in guru mode"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	decl=$("$STAP" -r "$r" -l 'kernel.function("vfs_read")' | sed -n 's/.*:\([0-9]*\)")$/\1/p')
	[ -n "$decl" ] || fail "$r: no vfs_read"
	# Every line of vfs_read with code: its own lines, after its declaration.
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.statement("vfs_read@*:*")'
	bad=$(grep -vE '^kernel\.statement\("vfs_read@fs/read_write\.c:[0-9]+"\)$' <<<"$out" | head -3)
	[ -z "$bad" ] || fail "$r: odd lines: $bad"
	lines=$(sed 's/.*:\([0-9]*\)")$/\1/' <<<"$out" | sort -n)
	[ "$(wc -l <<<"$lines")" -ge 8 ] || fail "$r: few lines in vfs_read: $lines"
	[ "$(head -1 <<<"$lines")" -ge "$decl" ] || fail "$r: a line before vfs_read's declaration ($decl): $lines"
	# SystemTap's lines: every line with a row in the line table, whether
	# or not a row begins a statement (is_stmt); vfs_read's 454 (return
	# -EBADF) has no row that does.  The set is reference-stap's (4.8,
	# -p2) on the one kernel it runs.  Each line goes at its lowest
	# is_stmt address if it has one (467: 4.8 takes the lower, non-is_stmt
	# +0x7c, ahead of the statement), else at its lowest (454).
	if [ "$r" = 6.1.0-56-amd64 ]; then
		[ "$(echo $lines)" = "451 454 455 456 457 458 459 461 462 464 467 468 469 470 472 473 474 475 477 478 479" ] ||
			fail "$r: vfs_read's lines are not SystemTap's: $(echo $lines)"
		expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.statement("vfs_read@fs/read_write.c:454"),
			kernel.statement("vfs_read@fs/read_write.c:467") { }'
		contains '.symbol = "vfs_read", .offset = 0x13, '
		contains '.symbol = "vfs_read", .offset = 0x8a, '
	fi
	expect_rc 0 "$STAP" -r "$r" -L 'kernel.statement("vfs_read@*:*")'
	grep -q ' \$file:struct file\* \$buf:char\* \$count:size_t \$pos:loff_t\*' <<<"$out" ||
		fail "$r: -L lacks vfs_read's parameters: $out"

	# Two lines with code and a gap between them.
	lo= hi=
	prev=
	for l in $lines; do
		if [ -n "$prev" ] && [ $((l - prev)) -ge 2 ]; then lo=$prev hi=$l; break; fi
		prev=$l
	done
	[ -n "$lo" ] || fail "$r: no gap in vfs_read's lines: $lines"
	gap=$((lo + 1))
	expect_rc 1 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_read@fs/read_write.c:$gap\") { }"
	contains "<input>:1:24: error: no code at line $gap of fs/read_write.c in 'vfs_read'"
	contains "hint: nearest lines with code: $lo and $hi; or add .nearest"
	contains "hint: stap -l 'kernel.statement(\"vfs_read@fs/read_write.c:*\")' lists the lines that have code"
	# .nearest: the closer of the two, the later on a tie.
	near=$hi
	[ $((gap - lo)) -lt $((hi - gap)) ] && near=$lo
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_read@fs/read_write.c:$gap\").nearest { }"
	contains "kernel.statement(\"vfs_read@fs/read_write.c:$near\") /* <- <input>:1:7 */"
	# stap -l names the line asked for, as SystemTap 4.8's does.
	expect_rc 0 "$STAP" -r "$r" -l "kernel.statement(\"vfs_read@*:$gap\").nearest"
	is "kernel.statement(\"vfs_read@fs/read_write.c:$gap\").nearest"
	# A range takes the lines in it that have code; +N counts from the declaration.
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_read@fs/read_write.c:$lo-$hi\") { }"
	[ "$(grep -c '^kernel\.statement' <<<"$out")" = 2 ] || fail "$r: range $lo-$hi: $out"
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_read@fs/read_write.c+$((hi - decl))\") { }"
	contains "kernel.statement(\"vfs_read@fs/read_write.c:$hi\") /* <- <input>:1:7 */"
	# Several functions: line numbers are theirs, no nearby lines to offer.
	expect_rc 1 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_*@fs/read_write.c:$gap\") { }"
	contains "error: no code at line $gap in the functions matching 'vfs_*@fs/read_write.c:$gap'"
	contains "hint: stap -l 'kernel.statement(\"vfs_*@fs/read_write.c:*\")' lists their lines that have code"
	# ... but a line with code is found in the one function that has it.
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"*@fs/read_write.c:$hi\") { }"
	[ "$(grep '^kernel\.statement' <<<"$out")" = "kernel.statement(\"vfs_read@fs/read_write.c:$hi\") /* <- <input>:1:7 */" ] ||
		fail "$r: *@fs/read_write.c:$hi: $out"
	# pp() names the line; -p2 names every address of it.
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_read@fs/read_write.c:$hi\") { println(pp()) }"
	contains "kernel.statement(\"vfs_read@fs/read_write.c:$hi\") /* <- <input>:1:7 */"

	# No line: the function's entry, no prologue skipped.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.statement("vfs_read") { }'
	contains '.symbol = "vfs_read", .offset = 0x0, .maxactive = -1, .group = 0, .flags = 0 }'
	# A link-time address becomes symbol + offset.  Debian's
	# /boot/System.map is a one-line stub, so the address comes from the
	# symbol table of the debuginfo vmlinux (the one the tests need anyway).
	command -v nm >/dev/null || { echo "nm (binutils) is missing: cannot check kernel.statement(ADDR)"; exit 77; }
	addr=$(nm "/usr/lib/debug/boot/vmlinux-$r" | awk '$3 == "vfs_read" && $2 ~ /^[Tt]$/ { print $1; exit }')
	[ -n "$addr" ] || fail "$r: no vfs_read in the symbol table of /usr/lib/debug/boot/vmlinux-$r"
	{
		expect_rc 0 "$STAP" -p3 -r "$r" -e "probe kernel.statement(0x$addr) { }"
		contains '.symbol = "vfs_read", .offset = 0x0, .maxactive = -1, .group = 0, .flags = 0 }'
		contains "kernel.statement(0x$addr)"
		odd=$(printf '%x' $((0x$addr + 1)))
		expect_rc 1 "$STAP" -p2 -r "$r" -e "probe kernel.statement(0x$odd) { }"
		contains "error: 0x$odd is not at the beginning of a statement"
		contains "hint: the statement holding it begins at 0x$addr: probe that, or add .nearest"
		# .nearest: that statement's beginning.
		expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement(0x$odd).nearest { }"
		contains "kernel.statement(0x$addr) /* <- <input>:1:7 */"
		# A line-table row GCC does not mark is_stmt begins one too, as
		# SystemTap 4.8 reads them (vfs_read + 5 on 6.1).
		[ "$r" != 6.1.0-56-amd64 ] ||
			expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement($(printf '0x%x' $((0x$addr + 5)))) { }"
		expect_rc 0 "$STAP" -p3 -g -r "$r" -e "probe kernel.statement(0x$odd) { }"
		contains '.symbol = "vfs_read", .offset = 0x1, '
	}

	# What the kernel refuses, and what does not exist.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.statement("do_int3@*:*") { }'
	contains "error: cannot probe 'do_int3@*:*': its code in 'do_int3' is marked NOKPROBE_SYMBOL() by the kernel"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.statement("no_such_fn_xyz@*:10") { }'
	contains "error: no kernel function matches 'no_such_fn_xyz'"
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.statement("no_such_fn_xyz@*:10") ?, begin { }'
	# Target variables are looked up at the line's address.
	expect_rc 1 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_read@fs/read_write.c:$hi\") { println(\$nosuch) }"
	contains "error: no variable '\$nosuch' in vfs_read at 0x"
	contains 'hint: variables here: $file $buf $count $pos $ret'
	expect_rc 0 "$STAP" -p2 -r "$r" -e "probe kernel.statement(\"vfs_read@fs/read_write.c:$hi\") { println(\$count) }"
done
exit 0
