# kprobe.function names checked against each provisioned kernel's
# symbol table (-r): listings, refused symbols, wildcard limits.
. "$(dirname "$0")/lib.sh"
kernels=$(build_kernels)
[ -n "$kernels" ] || { echo "no kernel build tree in /lib/modules"; exit 77; }

for r in $kernels; do
	# -p2 lists the points as written, wildcards unexpanded.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kprobe.function("ksys_read"),
		kprobe.function("vfs_rea*").return.maxactive(8),
		kprobe.module("ext4").function("ext4_sync_fs").call,
		kprobe.function("no_such_fn") ? { }'
	[ "$(grep -A9 '^# probes' <<<"$out")" = '# probes
kprobe.function("ksys_read") /* <- <input>:1:7 */
kprobe.function("vfs_rea*").return.maxactive(8) /* <- <input>:2:3 */
kprobe.module("ext4").function("ext4_sync_fs").call /* <- <input>:3:3 */' ] ||
		fail "$r: unexpected -p2 listing: $out"

	# What the kernel refuses, found in the symbol table.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kprobe.function("do_int3") { }'
	contains "error: cannot probe 'do_int3': it is marked NOKPROBE_SYMBOL() by the kernel"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kprobe.function("start_kernel").return { }'
	contains "error: cannot probe 'start_kernel': it is in .init.text, which the kernel frees after boot"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kprobe.function("exc_int3") { }'
	contains "error: cannot probe 'exc_int3': it is noinstr code"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kprobe.function("vfs_raed") { }'
	contains "hint: did you mean 'vfs_read'?"
	# ... and a wildcard leaves it out.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kprobe.function("do_int?") ?, begin { }'
	grep -q '"do_int3"' <<<"$out" && fail "$r: do_int? matched the blacklisted do_int3"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kprobe.function("*") { }'
	contains "error: '*' matches more than 10000 functions, the most one probe point may probe"

	# A module build tree: the whole expansion is in the C.
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kprobe.function("vfs_rea*") { }'
	contains '.symbol = "vfs_read", .offset = 0x0, .maxactive = -1, .group = 0, .flags = STP_KPROBE_WILDCARD'
done

# No symbol table: exact names are left to registration, wildcards fail.
expect_rc 0 "$STAP" -p2 -r 0.0.1-nosuch -e 'probe kprobe.function("ksys_read") { }'
contains "warning: no symbol table for kernel 0.0.1-nosuch: cannot check this function; registration will"
expect_rc 1 "$STAP" -p2 -r 0.0.1-nosuch -e 'probe kprobe.function("ksys_*") { }'
contains "error: no symbol table for kernel 0.0.1-nosuch to match the wildcard against"
exit 0
