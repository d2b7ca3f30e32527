# kernel.data(ADDRESS|"SYMBOL")[.length(LEN)].write|.rw probes
# (translator/probes/hwbkpt.c): the point's checks, and the table the
# runtime sets watchpoints from.
. "$(dirname "$0")/lib.sh"

# Needs no symbol table: an address, its length rounded up to what a
# debug register watches.
expect_rc 0 "$STAP" -p3 -r 0.0.0-nosuch -e 'probe kernel.data(0xffffffff82000000).length(3).rw { }'
contains '.addr = 0xffffffff82000000ULL, .link_ref = 0x0ULL, .len = 4, .rw = 1 }'
expect_rc 0 "$STAP" -p3 -r 0.0.0-nosuch -e 'probe kernel.data(4096).write { }'
contains '.addr = 0x1000ULL, .link_ref = 0x0ULL, .len = 1, .rw = 0 }'
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.data(4096).length(16).write { }'
contains "<input>:1:32: error: .length takes a number of bytes from 1 to 8 (x86 debug registers watch at most 8)"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.data(4096) { }'
contains "<input>:1:7: error: kernel.data(...) needs .write or .rw"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.data(4096).wrte { }'
contains "error: unexpected 'wrte' after kernel.data(...)"
contains "hint: did you mean '.write'?"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.data(4096).rw.write { }'
contains "error: unexpected 'write' after .rw"

# A fifth point: a pass-2 warning, as SystemTap gives (x86 has four).
expect_rc 0 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.data(4096).rw, kernel.data(4104).rw, kernel.data(4112).rw, kernel.data(4120).rw { } probe kernel.data(4128).write { }'
contains "<input>:1:104: warning: more than 4 kernel.data probes: x86 has 4 debug registers, so setting this one will fail"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	# A symbol: its link-time address, moved at run time by _printk's.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.data("vm_dirty_ratio").rw { }'
	grep -qE '\.addr = 0xffffffff[0-9a-f]{8}ULL, \.link_ref = 0xffffffff[0-9a-f]{8}ULL, \.len = 1, \.rw = 1 }' <<<"$out" ||
		fail "$r: symbol row: $out"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.data("vm_dirty_ratoi").rw { }'
	contains "<input>:1:19: error: no kernel symbol 'vm_dirty_ratoi'"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.data("vm_dirty_ratio").length(4).rw { }'
	contains "<input>:1:37: error: .length is not valid with a symbol name"
done

