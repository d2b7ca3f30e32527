# Probes on modules that SystemTap's example scripts name (io/enospc:
# ext4, xfs, btrfs; security-band-aids/cve-2017-6074: the dccp* glob)
# resolve with their target variables from the module debug files
# bootstrap.sh extracts, on every kernel that has them; a module glob
# matches each module that has the function (dccp_ipv4 and dccp_ipv6, not
# dccp or dccp_diag).  Skipped on a machine without those files.
. "$(dirname "$0")/lib.sh"

kernels=$(module_debug_kernels fs/ext4/ext4.ko fs/xfs/xfs.ko fs/btrfs/btrfs.ko \
	net/dccp/dccp_ipv4.ko net/dccp/dccp_ipv6.ko)
[ -n "$kernels" ] || { echo "no ext4/xfs/btrfs/dccp module debuginfo (run bootstrap.sh as root)"; exit 77; }

want='module("ext4").function("ext4_should_retry_alloc").return
module("xfs").function("xfs_vn_mknod").return
module("btrfs").function("btrfs_check_data_free_space").return
module("dccp_ipv4").function("dccp_v4_connect")
module("dccp_ipv6").function("dccp_v6_connect")'
for r in $kernels; do
	got=$("$STAP" -r "$r" -p2 -e '
probe module("ext4").function("ext4_should_retry_alloc").return,
      module("xfs").function("xfs_vn_mknod").return,
      module("btrfs").function("btrfs_check_data_free_space").return { println($return) }
probe module("dccp*").function("dccp_v?_connect") { println($sk->__sk_common->skc_dport) }' 2>&1) ||
		fail "$r: -p2 failed: $got"
	got=$(printf '%s\n' "$got" | sed -n 's/@[^"]*"/"/; s/ \/\*.*//; /^module(/p')
	[ "$got" = "$want" ] || fail "$r: probes differ:
$(diff <(echo "$want") <(echo "$got"))"
done
