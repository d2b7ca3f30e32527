# kernel.function("PATTERN").exported: as SystemTap 4.8 reads
# "exported", the out-of-line copies of the matching functions with
# external linkage (DW_AT_external: not static), EXPORT_SYMBOL or not
# (translator/probes/dwarf_func.c).
. "$(dirname "$0")/lib.sh"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("vfs_read").exportd { }'
contains "hint: did you mean '.exported'?"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("vfs_read").exported.return { }'
contains "error: unexpected 'return' after .exported"

# process(...).function(...).exported: the same rule in a user program;
# functions known only from the symbol table (crt's) count as visible.
# SystemTap 4.8's list for testsuite/uprog, where thread_main is static.
[ -x "$TOP/testsuite/uprog" ] || fail "testsuite/uprog is not built (make check builds it)"
expect_rc 0 "$STAP" -p2 -e "probe process(\"$TOP/testsuite/uprog\").function(\"*\").exported { }"
got=$(grep -o 'function("[a-z_0-9]*' <<<"$out" | cut -c11- | sort | tr '\n' ' ')
[ "$got" = "__do_global_dtors_aux _fini _init _start add deregister_tm_clones fib frame_dummy greet main register_tm_clones scale " ] ||
	fail "uprog: not SystemTap's list: $got"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }
names() { sed -n 's|^kernel.function("\([a-z_0-9]*\)@.*")\.[a-z]* /\* <- <input>:1:7 \*/$|\1|p' <<<"$out" | sort -u; }
for r in $kernels; do
	vmlinux=/usr/lib/debug/boot/vmlinux-$r
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_*").call { }'
	all=$(names)
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_*").exported { }'
	exp=$(names)
	[ "$(wc -l <<<"$exp")" -gt 40 ] || fail "$r: too few: $exp"
	# What .call has and .exported leaves out is static: a local symbol.
	global=$(nm "$vmlinux" | sed -n 's/^[0-9a-f]* T \(vfs_[a-z_0-9]*\)$/\1/p' | sort -u)
	[ -z "$(comm -23 <(echo "$exp") <(echo "$global"))" ] ||
		fail "$r: static, yet exported: $(comm -23 <(echo "$exp") <(echo "$global"))"
	left=$(comm -23 <(echo "$all") <(echo "$exp"))
	[ -n "$left" ] || fail "$r: .exported left nothing out"
	[ -z "$(comm -12 <(echo "$left") <(echo "$global"))" ] ||
		fail "$r: global, yet left out: $(comm -12 <(echo "$left") <(echo "$global"))"
	static=$(head -n 1 <<<"$left")
	expect_rc 1 "$STAP" -p2 -r "$r" -e "probe kernel.function(\"$static\").exported { }"
	contains "error: no function matching '$static' is exported (all are static)"
done
# module("nfsd").function(...).exported: the same rule in a module.
mnames() { sed -n 's|^module("nfsd").function("\([a-z_0-9]*\)@.*")\.[a-z]* /\* <- <input>:1:7 \*/$|\1|p' <<<"$out" | sort -u; }
for r in $(module_debug_kernels fs/nfsd/nfsd.ko); do
	ko=/usr/lib/debug/lib/modules/$r/kernel/fs/nfsd/nfsd.ko
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe module("nfsd").function("nfsd_*").call { }'
	all=$(mnames)
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe module("nfsd").function("nfsd_*").exported { }'
	exp=$(mnames)
	global=$(nm "$ko" | sed -n 's/^[0-9a-f]* T \(nfsd_[a-z_0-9]*\)$/\1/p' | sort -u)
	[ "$(wc -l <<<"$exp")" -gt 20 ] || fail "$r: nfsd: too few: $exp"
	[ -z "$(comm -23 <(echo "$exp") <(echo "$global"))" ] ||
		fail "$r: nfsd: static, yet exported: $(comm -23 <(echo "$exp") <(echo "$global"))"
	left=$(comm -23 <(echo "$all") <(echo "$exp"))
	[ -n "$left" ] && [ -z "$(comm -12 <(echo "$left") <(echo "$global"))" ] ||
		fail "$r: nfsd: left out: $left"
done
# SystemTap 4.8's list on 6.1 (reference-stap's kernel), less the GCC
# cold part vfs_get_tree.cold, which 4.8 probes as a function of its own.
r=6.1.0-56-amd64
if grep -qx "$r" <<<"$kernels"; then
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("vfs_*").exported { }'
	want="vfs_cancel_lock vfs_clean_context vfs_clone_file_range vfs_copy_file_range vfs_create vfs_create_mount vfs_dedupe_file_range vfs_dedupe_file_range_one vfs_dup_fs_context vfs_fadvise vfs_fallocate vfs_fchmod vfs_fchown vfs_fileattr_get vfs_fileattr_set vfs_fstat vfs_fstatat vfs_fsync vfs_fsync_range vfs_get_fsid vfs_get_link vfs_get_super vfs_get_tree vfs_getattr vfs_getattr_nosec vfs_getxattr vfs_getxattr_alloc vfs_inode_has_locks vfs_iocb_iter_read vfs_iocb_iter_write vfs_ioctl vfs_iter_read vfs_iter_write vfs_kern_mount vfs_link vfs_listxattr vfs_llseek vfs_lock_file vfs_mkdir vfs_mknod vfs_mkobj vfs_open vfs_parse_fs_param vfs_parse_fs_param_source vfs_parse_fs_string vfs_path_lookup vfs_path_parent_lookup vfs_read vfs_readlink vfs_removexattr vfs_rename vfs_rmdir vfs_set_acl_prepare vfs_setlease vfs_setpos vfs_setxattr vfs_statfs vfs_submount vfs_symlink vfs_test_lock vfs_tmpfile_open vfs_truncate vfs_unlink vfs_utimes vfs_write"
	[ "$(names | tr '\n' ' ')" = "$want " ] || fail "$r: not SystemTap's list: $(diff <(tr ' ' '\n' <<<"$want") <(names))"
fi
exit 0
