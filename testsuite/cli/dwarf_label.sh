# kernel.function("PATTERN").label("LPATTERN"): the source labels of every
# copy of the function (translator/probes/dwarf_func.c), named as
# SystemTap names them: by the label's own line.
. "$(dirname "$0")/lib.sh"

# The argument and what may follow are checked without debuginfo.
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("do_mkdirat").label { }'
contains "<input>:1:37: error: label needs a quoted argument: .label(\"LPATTERN\")"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("do_mkdirat").label("retry").return { }'
contains "error: unexpected 'return' after .label"
expect_rc 1 "$STAP" -p2 -r 0.0.0-nosuch -e 'probe kernel.function("do_mkdirat").lable("retry") { }'
contains "hint: did you mean '.label'?"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("do_mkdirat").label("*") { }'
	want=$'kernel.function("do_mkdirat@fs/namei.c:L")\nkernel.function("do_mkdirat@fs/namei.c:L")'
	got=$(sed -n 's| /\* <- <input>:1:7 \*/$||p' <<<"$out" | sed 's/:[0-9]*")/:L")/' | sort)
	[ "$got" = "$want" ] || fail "$r: -p2 listing: $out"
	# Each at its own line, not the function's.
	[ "$(grep -o 'namei.c:[0-9]*' <<<"$out" | sort -u | wc -l)" = 2 ] || fail "$r: label lines: $out"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("do_mkdirat").label("nosuch") { }'
	contains "<input>:1:23: error: no label matching 'nosuch' in 'do_mkdirat'"
	# $name$ where the compiler dropped name (at label error2 it is
	# optimised out on 6.1 and 6.12) prints "?", as in $$vars, where
	# $name is an error.
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe kernel.function("join_session_keyring").label("error2") { println($name) }'
	contains "error: '\$name' is not accessible at this address"
	expect_rc 0 "$STAP" -p3 -r "$r" -e 'probe kernel.function("join_session_keyring").label("error2") { println($name$) }'
	contains '_stp_tv_append(_tv_dst, "?");'
	# Optional: dropped.
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe kernel.function("do_mkdirat").label("nosuch") ?, begin { }'
done

# module(...).function(...).label: nfsd's "out" labels on every kernel
# with its debuginfo; on 6.1 SystemTap 4.8's list, less the GCC .cold
# parts (4.8 probes those at their entry, as functions of their own).
mlabels() { sed -n 's|^module("nfsd").function("\(nfsd_[a-z_0-9]*@[^"]*\.c:[0-9]*\)") /\* <- <input>:1:7 \*/$|\1|p' <<<"$out" | sort | tr '\n' ' '; }
for r in $(module_debug_kernels fs/nfsd/nfsd.ko); do
	expect_rc 0 "$STAP" -p2 -r "$r" -e 'probe module("nfsd").function("nfsd_*").label("out") { }'
	got=$(mlabels)
	[ "$(wc -w <<<"$got")" -gt 10 ] || fail "$r: nfsd labels: $out"
	[ "$r" != 6.1.0-56-amd64 ] || [ "$got" = "nfsd_access@fs/nfsd/vfs.c:834 nfsd_cache_insert@fs/nfsd/nfscache.c:447 nfsd_cache_lookup@fs/nfsd/nfscache.c:564 nfsd_create_locked@fs/nfsd/vfs.c:1468 nfsd_cross_mnt@fs/nfsd/vfs.c:175 nfsd_file_cache_init@fs/nfsd/filecache.c:767 nfsd_getxattr@fs/nfsd/vfs.c:2225 nfsd_inet6addr_event@fs/nfsd/nfssvc.c:523 nfsd_inetaddr_event@fs/nfsd/nfssvc.c:491 nfsd_link@fs/nfsd/vfs.c:1700 nfsd_listxattr@fs/nfsd/vfs.c:2292 nfsd_lookup@fs/nfsd/vfs.c:333 nfsd_mkdir@fs/nfsd/nfsctl.c:1189 nfsd_readdir@fs/nfsd/vfs.c:2097 nfsd_rename@fs/nfsd/vfs.c:1852 nfsd_set_fh_dentry@fs/nfsd/nfsfh.c:293 nfsd_setattr@fs/nfsd/vfs.c:599 nfsd_svc@fs/nfsd/nfssvc.c:816 nfsd_symlink@fs/nfsd/vfs.c:1629 nfsd_test_lock@fs/nfsd/nfs4state.c:7885 nfsd_unlink@fs/nfsd/vfs.c:1940 nfsd_write@fs/nfsd/vfs.c:1243 " ] ||
		fail "$r: not SystemTap's nfsd labels: $got"
	expect_rc 1 "$STAP" -p2 -r "$r" -e 'probe module("nfsd").function("nfsd_svc").label("nosuch") { }'
	contains "error: no label matching 'nosuch' in 'nfsd_svc' in module nfsd"
done

# process(...).function(...).label: testsuite/uprog's one label, done: in
# scale (-g -O0), named as SystemTap 4.8 names it (run/uprobe_label).
uprog=$TOP/testsuite/uprog
[ -x "$uprog" ] || fail "testsuite/uprog is not built (make check builds it)"
expect_rc 0 "$STAP" -p2 -e "probe process(\"$uprog\").function(\"*\").label(\"*\") { }"
[ "$(grep -c '<- <input>' <<<"$out")" = 1 ] || fail "uprog labels: $out"
contains "process(\"$uprog\").function(\"scale@testsuite/uprog.c:52\") /* <- <input>:1:7 */"
# stap -l names label probes with their .label, as SystemTap 4.8's does
# (pp() does not).
expect_rc 0 "$STAP" -l "process(\"$uprog\").function(\"*\").label(\"*\")"
is "process(\"$uprog\").function(\"scale@testsuite/uprog.c:52\").label(\"done\")"
for r in $kernels; do
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.function("do_mkdirat").label("*")'
	[ "$(sed 's/:[0-9]*")/:L")/' <<<"$out")" = 'kernel.function("do_mkdirat@fs/namei.c:L").label("retry")
kernel.function("do_mkdirat@fs/namei.c:L").label("out_putname")' ] || fail "$r: -l of labels: $out"
done
expect_rc 1 "$STAP" -p2 -e "probe process(\"$uprog\").function(\"main\").label(\"nosuch\") { }"
contains "error: no label matching 'nosuch' in 'main' in $uprog"
