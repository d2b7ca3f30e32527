# Target variables that cannot be read are pass-2 errors with the spot
# and a hint (translator/tvar.c), checked on every kernel with DWARF.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { println($cont) }'
	contains "<input>:1:46: error: no variable '\$cont' in ksys_read at 0x"
	contains "hint: did you mean '\$count'?"
	[ "$(grep -c error: <<<"$out")" = 1 ] || fail "$r: one error expected: $out"

	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read") { println($file->f_mod) }'
	contains "error: 'struct file' has no member 'f_mod'"
	contains "hint: did you mean '->f_mode'?"
	# '.' joins strings, as in SystemTap: a member needs '->'.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read") { println($file.f_flags) }'
	contains "<input>:1:45: error: the left operand of '.' must be string, not long"
	contains "hint: '.' joins strings; to read member 'f_flags', write '->f_flags'"

	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { $count = 1 }'
	contains "error: writing to target variable '\$count' needs guru mode (-g)"
	expect_rc 0 "$STAP" -p2 -g -r "$r" -e 'probe kernel.function("ksys_read") { $count = 1 }'

	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { println($return) }'
	contains "error: '\$return' is only available in .return probes"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { println(@entry($count)) }'
	contains "error: @entry is only meaningful in .return probes"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { println($$bogus) }'
	contains "error: unknown '\$\$bogus': use \$\$vars, \$\$parms, \$\$locals or \$\$return"

	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe begin { println($x) }'
	contains "error: probe point 'begin' has no target variables"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'function f() { return $x } probe kernel.function("ksys_read") { println(f()) }'
	contains "error: target variables are only available in probe handlers, not in functions"

	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read") { println($file->f_path) }'
	contains "error: '\$file->f_path' is a struct ('struct path'), not a number"
	contains "hint: read one of its members with ->NAME, or print it with \$file->f_path\$"

	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe begin { println(@cast(0, "struct no_such_struct")->x) }'
	contains "error: @cast: no type 'struct no_such_struct' in the debuginfo of kernel"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_read") { println($file->f_path->dentry->d_iname[99]) }'
	contains "error: index 99 is out of bounds: the array has "

	# A global in a .return probe is its value at the entry, a number.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("copy_process").return { println($total_forks) }'
	expect_rc 1 "$STAP" -p2 -g -r "$r" -e 'probe kernel.function("copy_process").return { $total_forks = 1 }'
	contains "error: '\$total_forks' in a .return probe is the global's value at entry: it cannot be assigned"
	contains 'hint: @var("total_forks") reads the global at the return'
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("copy_process").return { println($total_forks$) }'
	contains "error: '\$total_forks\$' in a .return probe is the global's value at entry: it cannot be saved as a string"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read").return { println($nope) }'
	contains "(a .return probe sees parameters and globals only)"

	# Variables the compiler dropped at the probe address.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { println($ret) }'
	contains "error: '\$ret' is not accessible at this address (pc 0x"

	# @defined folds: the branch naming a missing variable is dropped.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("ksys_read") { println(@defined($nope) ? $nope : $count) }'
done
exit 0
