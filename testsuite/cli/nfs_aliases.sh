# stap -L of the nfs.fop.*, nfs.aop.*, nfs.proc3/4.*, nfs.proc.*, nfsd.* and sunrpc.svc/sched/clnt.* aliases: the names and types
# SystemTap 4.8's -L gives on 6.1 (`/usr/bin/stap -r 6.1.0-56-amd64 -L
# 'nfsd.**' 'sunrpc.*.*' 'nfs.*.*'`, its $-variables left out), for every alias with
# one location, on every kernel with the nfsd/sunrpc module DWARF
# (bootstrap.sh extracts it; skipped without).  Ours differs on purpose in
# these lines: nfsd.create's iap_valid/iap_mode are long where 4.8's are
# "unknown" (its body fails to read them on 6.1), nfsd.proc3.read has
# no vlen (4.8's is "unknown": NFSv3 READ carries no vector length), and
# sunrpc.svc.destroy's five counters are long where 4.8's are "unknown".
# nfs.aop.writepage is listed everywhere (-L reads the alias) but 6.12 has
# no nfs_writepage: nfs.aop.entries takes it under '?'.
# The synchronous nfs.proc.read/write and nfs.proc3/4.rename have no
# location on these kernels and are "never" in 4.8 and ours alike (same
# variables); the new aliases' .return lines are compared too.
# Also: the aggregates resolve on every kernel (sunrpc.svc.return where 6.12
# inlines svc_drop: its '.return ?' must not fall back to sunrpc.svc.drop
# plus a suffix), and -p4 of every alias builds.
. "$(dirname "$0")/lib.sh"

kernels=$(module_debug_kernels fs/nfsd/nfsd.ko net/sunrpc/sunrpc.ko fs/nfs/nfs.ko \
	fs/nfs/nfsv3.ko fs/nfs/nfsv4.ko)
[ -n "$kernels" ] || { echo "no nfsd/sunrpc module debuginfo (run bootstrap.sh as root)"; exit 77; }

want='nfs.aop.write_begin __page:long offset:long to:long page_index:long size:long dev:long ino:long s_id:long devname:string pos:long count:long name:string argstr:string units:string
nfs.aop.write_end __page:long offset:long to:long i_flag:long i_size:long sb_flag:long page_index:long size:long dev:long ino:long s_id:long devname:string pos:long count:long name:string argstr:string units:string
nfs.aop.writepage __page:long dev:long ino:long for_reclaim:long for_kupdate:long i_flag:long i_state:long i_size:long sb_flag:long page_index:long __inode:long wsize:long name:string argstr:string size:long units:string
nfs.aop.writepages dev:long ino:long for_reclaim:long for_kupdate:long nr_to_write:long wsize:long wpages:long name:string argstr:string size:long units:string
nfs.fop.check_flags flag:long name:string argstr:string
nfs.fop.flush dev:long ino:long s_id:long devname:string mode:long ndirty:long name:string argstr:string
nfs.fop.fsync dev:long ino:long s_id:long devname:string ndirty:long name:string argstr:string
nfs.fop.llseek dev:long ino:long s_id:long devname:string maxbyte:long offset:long whence:long whence_str:string name:string argstr:string
nfs.fop.lock dev:long ino:long s_id:long devname:string i_mode:long cmd:long fl_type:long fl_flag:long fl_start:long fl_end:long name:string argstr:string
nfs.fop.mmap dev:long ino:long s_id:long devname:string vm_start:long vm_end:long vm_flags:long parent_name:string file_name:string cache_valid:long cache_time:long attr_time:long name:string argstr:string
nfs.fop.open dev:long ino:long s_id:long devname:string filename:string flag:long i_size:long name:string argstr:string
nfs.fop.read_iter dev:long ino:long s_id:long devname:string pos:long count:long parent_name:string file_name:string cache_valid:long cache_time:long attr_time:long name:string argstr:string size:long units:string
nfs.fop.release dev:long ino:long s_id:long devname:string mode:long name:string argstr:string
nfs.fop.write_iter dev:long ino:long s_id:long devname:string pos:long count:long parent_name:string file_name:string name:string argstr:string size:long units:string
nfs.proc.commit server_ip:string prot:long version:long count:long offset:long bitmask0:long bitmask1:long name:string argstr:string size:long units:string
nfs.proc.handle_exception version:long errorcode:long name:string argstr:string
nfs.proc.open client:long server_ip:string prot:long version:long filename:string flag:long mode:long name:string argstr:string
nfs.proc.read server_ip:string prot:long flags:long count:long offset:long version:long name:string argstr:string size:long units:string
nfs.proc.write server_ip:string prot:long flags:long count:long offset:long version:long bitmask0:long bitmask1:long name:string argstr:string size:long units:string
nfs.proc3.commit_done server_ip:string prot:long count:long timestamp:long version:long status:long name:string argstr:string
nfs.proc3.commit_setup inode:long client:long server_ip:string prot:long version:long count:long offset:long bitmask0:long bitmask1:long name:string argstr:string size:long units:string
nfs.proc3.create client:long server_ip:string prot:long version:long fh:long filelen:long filename:string flag:long mode:long name:string argstr:string
nfs.proc3.lookup client:long server_ip:string prot:long version:long name_len:long filename:string bitmask0:long bitmask1:long name:string argstr:string
nfs.proc3.read_done server_ip:string prot:long count:long timestamp:long version:long status:long name:string argstr:string
nfs.proc3.read_setup inode:long client:long server_ip:string prot:long version:long fh:long count:long offset:long name:string argstr:string size:long units:string
nfs.proc3.remove client:long server_ip:string prot:long version:long fh:long filelen:long filename:string name:string argstr:string
nfs.proc3.rename client:long server_ip:string prot:long old_fh:long old_filelen:long old_name:string new_fh:long new_filelen:long new_name:string version:long name:string argstr:string
nfs.proc3.rename_done client:long server_ip:string prot:long version:long status:long timestamp:long old_fh:long new_fh:long name:string argstr:string
nfs.proc3.rename_setup client:long server_ip:string prot:long version:long fh:long name:string argstr:string
nfs.proc3.write_done server_ip:string prot:long count:long valid:long timestamp:long version:long status:long name:string argstr:string
nfs.proc3.write_setup inode:long client:long server_ip:string prot:long version:long count:long offset:long how:long bitmask0:long bitmask1:long name:string argstr:string size:long units:string
nfs.proc4.commit server_ip:string prot:long version:long count:long offset:long bitmask0:long bitmask1:long name:string argstr:string size:long units:string
nfs.proc4.commit_done server_ip:string prot:long count:long valid:long timestamp:long version:long status:long name:string argstr:string
nfs.proc4.commit_setup inode:long client:long server_ip:string prot:long version:long count:long offset:long bitmask0:long bitmask1:long name:string argstr:string size:long units:string
nfs.proc4.create client:long server_ip:string prot:long version:long fh:long filelen:long filename:string flag:long mode:long name:string argstr:string
nfs.proc4.handle_exception version:long errorcode:long name:string argstr:string
nfs.proc4.lookup client:long server_ip:string prot:long version:long name_len:long filename:string bitmask0:long bitmask1:long name:string argstr:string
nfs.proc4.read_done server_ip:string prot:long count:long timestamp:long version:long status:long name:string argstr:string
nfs.proc4.read_setup inode:long client:long server_ip:string prot:long version:long count:long offset:long name:string argstr:string size:long units:string
nfs.proc4.remove client:long server_ip:string prot:long version:long fh:long filelen:long filename:string name:string argstr:string
nfs.proc4.rename client:long server_ip:string prot:long old_fh:long old_filelen:long old_name:string new_fh:long new_filelen:long new_name:string version:long name:string argstr:string
nfs.proc4.rename_done client:long server_ip:string prot:long version:long timestamp:long status:long old_fh:long new_fh:long name:string argstr:string
nfs.proc4.rename_setup client:long server_ip:string prot:long version:long fh:long name:string argstr:string
nfs.proc4.write_done server_ip:string prot:long count:long valid:long timestamp:long version:long status:long name:string argstr:string
nfs.proc4.write_setup inode:long client:long server_ip:string prot:long version:long count:long offset:long how:long bitmask0:long bitmask1:long name:string argstr:string size:long units:string
nfsd.commit client_ip:string fh:string count:long offset:long flag:long name:string argstr:string size:long units:string
nfsd.create client_ip:string fh:string filelen:long filename:string type:long iap_valid:long iap_mode:long name:string argstr:string
nfsd.dispatch client_ip:string proto:long version:long xid:long prog:long proc:long name:string argstr:string
nfsd.lookup client_ip:string fh:string filelen:long filename:string name:string argstr:string
nfsd.open client_ip:string fh:string access:long type:long name:string argstr:string
nfsd.proc3.commit client_ip:string proto:long version:long fh:long count:long offset:long uid:long gid:long name:string argstr:string size:long units:string
nfsd.proc3.create client_ip:string proto:long version:long fh:long filelen:long filename:string createmode:long uid:long gid:long name:string argstr:string
nfsd.proc3.lookup client_ip:string proto:long version:long fh:long filelen:long filename:string uid:long gid:long name:string argstr:string
nfsd.proc3.read client_ip:string proto:long version:long fh:long count:long offset:long vec:long uid:long gid:long name:string argstr:string size:long units:string
nfsd.proc3.remove client_ip:string proto:long version:long fh:long filelen:long filename:string uid:long gid:long name:string argstr:string
nfsd.proc3.rename client_ip:string proto:long version:long fh:long tfh:long filelen:long filename:string tlen:long tname:string uid:long gid:long name:string argstr:string
nfsd.proc3.write client_ip:string proto:long version:long fh:long count:long offset:long vec:long vlen:long stable:long uid:long gid:long name:string argstr:string size:long units:string
nfsd.proc4.commit client_ip:string proto:long version:long fh:long count:long offset:long uid:long gid:long name:string argstr:string size:long units:string
nfsd.proc4.create client_ip:string proto:long version:long fh:long filelen:long filename:string createmode:long uid:long gid:long name:string argstr:string
nfsd.proc4.lookup client_ip:string proto:long version:long fh:long filelen:long filename:string uid:long gid:long name:string argstr:string
nfsd.proc4.read client_ip:string proto:long version:long fh:long count:long offset:long vec:long vlen:long uid:long gid:long name:string argstr:string size:long units:string
nfsd.proc4.remove client_ip:string proto:long version:long fh:long filelen:long filename:string uid:long gid:long name:string argstr:string
nfsd.proc4.rename client_ip:string proto:long version:long fh:long tfh:long filelen:long filename:string tlen:long tname:string uid:long gid:long name:string argstr:string
nfsd.proc4.write client_ip:string proto:long version:long fh:long vec:long count:long offset:long vlen:long stable:long uid:long gid:long name:string argstr:string size:long units:string
nfsd.read client_ip:string fh:string file:long count:long offset:long vec:long vlen:long name:string argstr:string size:long units:string
nfsd.rename client_ip:string fh:string tfh:string filelen:long filename:string tlen:long tname:string name:string argstr:string
nfsd.unlink client_ip:string fh:string filelen:long filename:string type:long name:string argstr:string
nfsd.write client_ip:string fh:string file:long count:long offset:long vec:long vlen:long name:string argstr:string size:long units:string
sunrpc.clnt.bind_new_program __xprt:long servername:string old_progname:string old_prog:long old_vers:long progname:string prog:long vers:long name:string argstr:string
sunrpc.clnt.call_async __xprt:long servername:string progname:string prog:long vers:long prot:long port:long xid:long dead:long proc:long procname:string flags:long name:string argstr:string
sunrpc.clnt.call_sync __xprt:long servername:string progname:string prog:long vers:long prot:long port:long xid:long dead:long proc:long procname:string flags:long name:string argstr:string
sunrpc.clnt.clone_client __xprt:long servername:string progname:string prog:long vers:long prot:long port:long authflavor:long name:string argstr:string
sunrpc.clnt.create_client servername:string progname:string prog:long vers:long authflavor:long prot:long port:long name:string argstr:string
sunrpc.clnt.restart_call __xprt:long servername:string prog:long xid:long tk_pid:long tk_flags:long tk_priority:long tk_runstate:long name:string argstr:string
sunrpc.clnt.shutdown_client __xprt:long servername:string progname:string prog:long vers:long prot:long port:long authflavor:long clones:long tasks:long netreconn:long rpccnt:long om_ops:long om_ntrans:long om_bytes_sent:long om_bytes_recv:long om_queue:long om_rtt:long om_execute:long name:string argstr:string
sunrpc.sched.delay xid:long prog:long vers:long prot:long tk_pid:long tk_flags:long delay:long name:string argstr:string
sunrpc.sched.execute xid:long prog:long vers:long prot:long tk_pid:long tk_flags:long name:string argstr:string
sunrpc.sched.new_task xid:long prog:long vers:long prot:long flags:long name:string argstr:string
sunrpc.sched.release_task xid:long prog:long vers:long prot:long tk_flags:long name:string argstr:string
sunrpc.svc.authorise sv_name:string peer_ip:long rq_xid:long rq_prog:long rq_vers:long rq_proc:long rq_prot:long name:string argstr:string
sunrpc.svc.create progname:string prog:long pg_nvers:long bufsize:long name:string argstr:string
sunrpc.svc.destroy sv_name:string sv_progname:string sv_prog:long sv_nrthreads:long netcnt:long netcpconn:long rpccnt:long rpcbadfmt:long rpcbadauth:long name:string argstr:string
sunrpc.svc.drop sv_name:string peer_ip:long rq_xid:long rq_prog:long rq_vers:long rq_proc:long rq_prot:long name:string argstr:string
sunrpc.svc.process sv_name:string sv_prog:long sv_nrthreads:long peer_ip:long rq_xid:long rq_prog:long rq_vers:long rq_proc:long rq_prot:long name:string argstr:string
sunrpc.svc.recv sv_name:string sv_prog:long sv_nrthreads:long timeout:long name:string argstr:string
sunrpc.svc.register sv_name:string progname:string prog:long prot:long port:long name:string argstr:string
sunrpc.svc.send sv_name:string peer_ip:long rq_xid:long rq_prog:long rq_vers:long rq_proc:long rq_prot:long name:string argstr:string'

# The .return aliases of nfs.proc3/4.*, nfs.proc.* (but the aggregate
# nfs.proc.entries.return, and release.return, which 4.8 lacks) and
# sunrpc.clnt.shutdown_client, as 4.8 lists them.
want_ret='nfs.proc.commit.return version:long name:string retstr:string size:long units:string
nfs.proc.commit_done.return version:long name:string retstr:string
nfs.proc.commit_setup.return version:long name:string retvalue:long
nfs.proc.create.return name:string version:long retstr:string
nfs.proc.handle_exception.return name:string retstr:string
nfs.proc.lookup.return version:long name:string retstr:string
nfs.proc.open.return name:string retstr:string
nfs.proc.read.return version:long name:string retstr:string
nfs.proc.read_done.return version:long name:string retstr:string
nfs.proc.read_setup.return version:long name:string retvalue:long
nfs.proc.remove.return name:string version:long retstr:string
nfs.proc.rename.return name:string version:long retstr:string
nfs.proc.rename_done.return version:long name:string retstr:string
nfs.proc.rename_setup.return version:long name:string retvalue:long
nfs.proc.write.return version:long name:string retstr:string size:long units:string
nfs.proc.write_done.return version:long name:string retstr:string
nfs.proc.write_setup.return version:long name:string retvalue:long
nfs.proc3.commit_done.return version:long name:string retstr:string
nfs.proc3.commit_setup.return version:long name:string retvalue:long
nfs.proc3.create.return name:string version:long retstr:string
nfs.proc3.lookup.return version:long name:string retstr:string
nfs.proc3.read_done.return version:long name:string retstr:string
nfs.proc3.read_setup.return version:long name:string retvalue:long
nfs.proc3.remove.return name:string version:long retstr:string
nfs.proc3.rename.return name:string version:long retstr:string
nfs.proc3.rename_done.return version:long name:string retstr:string
nfs.proc3.rename_setup.return version:long name:string retvalue:long
nfs.proc3.write_done.return version:long name:string retstr:string
nfs.proc3.write_setup.return version:long name:string retvalue:long
nfs.proc4.commit.return version:long name:string retstr:string size:long units:string
nfs.proc4.commit_done.return version:long name:string retstr:string
nfs.proc4.commit_setup.return version:long name:string retvalue:long
nfs.proc4.create.return name:string version:long retstr:string
nfs.proc4.handle_exception.return name:string retstr:string
nfs.proc4.lookup.return version:long name:string retstr:string
nfs.proc4.read_done.return version:long name:string retstr:string
nfs.proc4.read_setup.return version:long name:string retvalue:long
nfs.proc4.remove.return name:string version:long retstr:string
nfs.proc4.rename.return name:string version:long retstr:string
nfs.proc4.rename_done.return version:long name:string retstr:string
nfs.proc4.rename_setup.return version:long name:string retvalue:long
nfs.proc4.write_done.return version:long name:string retstr:string
nfs.proc4.write_setup.return version:long name:string retvalue:long
sunrpc.clnt.shutdown_client.return name:string retstr:string'

# Every probe alias of the families, each to one printf: -p4 builds it.
all='probe nfs.fop.entries, nfs.fop.check_flags, nfs.aop.entries, nfs.proc.entries, nfsd.entries, nfsd.proc.entries, sunrpc.entry { printf("%s %s\n", name, argstr) }
probe nfsd.dispatch { printf("%s %s %d %d\n", client_ip, argstr, xid, proc) }
probe nfsd.return, nfsd.proc.return, nfsd.dispatch.return, sunrpc.return { printf("%s %s\n", name, retstr) }
probe begin { printf("%s %s\n", nfsderror(0x02000000), addr_from_rqst_str(0)) }
probe nfs.proc.return, nfs.proc.entries.return { printf("%s\n", name) }
probe nfs.proc.read_setup.return, nfs.proc.write_setup.return, nfs.proc.commit_setup.return { print(retvalue) }
probe nfs.proc.lookup.return, nfs.proc.remove.return, nfs.proc.read_done.return, nfs.proc.write_done.return, nfs.proc.commit_done.return { printf("%d %s\n", version, retstr) }
probe nfs.proc.create.return, nfs.proc.rename.return, nfs.proc.rename_done.return, nfs.proc.read.return { printf("%d %s\n", version, retstr) }
probe nfs.proc.rename_setup.return { print(retvalue) }
probe nfs.proc.commit.return, nfs.proc.write.return { printf("%d %s\n", size, retstr) }
probe nfs.proc.rename { printf("%s %s %d %d %d %d\n", old_name, new_name, old_fh, new_fh, old_filelen, new_filelen) }
probe nfs.proc.rename_done { printf("%d %d %d %d\n", status, timestamp, old_fh, new_fh) }
probe nfs.proc.open, nfs.proc.release, nfs.proc.create { printf("%d %d %d %s %d\n", version, flag, mode, server_ip, prot) }
probe nfs.proc.handle_exception { printf("%d\n", errorcode) }
probe nfs.proc.read, nfs.proc.write, nfs.proc.commit { printf("%d@%d %s\n", count, offset, units) }
probe sunrpc.clnt.shutdown_client { printf("%d %d %d %d %d %d %d %d %d %d %d\n", clones, tasks, netreconn, rpccnt, om_ops, om_ntrans, om_bytes_sent, om_bytes_recv, om_queue, om_rtt, om_execute) }'

for r in $kernels; do
	got=
	for pat in 'nfs.fop.*' 'nfs.aop.*' 'nfs.proc3.*' 'nfs.proc4.*' 'nfsd.*' 'nfsd.proc3.*' 'nfsd.proc4.*' 'sunrpc.svc.*' 'sunrpc.sched.*' 'sunrpc.clnt.*' \
		   'nfs.proc.open' 'nfs.proc.handle_exception' 'nfs.proc.read' 'nfs.proc.write' 'nfs.proc.commit'; do
		expect_rc 0 "$STAP" -r "$r" -L "$pat"
		got+=$(grep -vE '\.return |\.entries |^nfsd\.return |\.entry ' <<<"$out")$'\n'
	done
	out=$(LC_ALL=C sort <<<"${got%$'\n'}")
	is "$want"
	got=
	for pat in 'nfs.proc3.*.return' 'nfs.proc4.*.return' 'nfs.proc.*.return' 'sunrpc.clnt.shutdown_client.return'; do
		expect_rc 0 "$STAP" -r "$r" -L "$pat"
		got+=$(grep -vE '^nfs\.proc\.(entries|release)\.return ' <<<"$out")$'\n'
	done
	out=$(LC_ALL=C sort <<<"${got%$'\n'}")
	is "$want_ret"
	# The aggregates, and the '?' of an inline-only .return.
	expect_rc 0 "$STAP" -r "$r" -p2 -e 'probe sunrpc.svc.return, sunrpc.sched.return, nfsd.proc.return { print(retstr) }'
done
# -p4 on every kernel (about half a minute each).
for r in $kernels; do
	expect_rc 0 "$STAP" -r "$r" -p4 -e "$all"
done
exit 0
