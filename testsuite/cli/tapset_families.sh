# stap -L of the socket.*, signal.*, tty.*, generic.*, vfs.*, scsi.* and other aliases: the names and
# types SystemTap 4.8's -L gives on 6.1 for a sample (its $-variables and
# its internal __ ones left out), on every kernel with debuginfo; and a
# .return of an inline-only kernel function is a clear error.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	expect_rc 0 "$STAP" -r "$r" -L 'socket.sendmsg'
	is 'socket.sendmsg name:string size:long protocol:long family:long state:long flags:long type:long'
	expect_rc 0 "$STAP" -r "$r" -L 'socket.read_iter'
	is 'socket.read_iter name:string _sock:long size:long protocol:long family:long state:long flags:long type:long'
	expect_rc 0 "$STAP" -r "$r" -L 'socket.create'
	is 'socket.create name:string protocol:long family:long type:long requester:long'
	expect_rc 0 "$STAP" -r "$r" -L 'socket.close'
	is 'socket.close name:string protocol:long family:long state:long flags:long type:long'
	expect_rc 0 "$STAP" -r "$r" -l 'socket.*.return'
	is $'socket.close.return\nsocket.create.return\nsocket.read_iter.return\nsocket.recvmsg.return\nsocket.sendmsg.return\nsocket.write_iter.return'
	expect_rc 0 "$STAP" -r "$r" -L 'signal.checkperm'
	is 'signal.checkperm name:string sig:long task:long sinfo:long sig_name:string sig_pid:long pid_name:string si_code:string'
	expect_rc 0 "$STAP" -r "$r" -L 'signal.do_action'
	is 'signal.do_action name:string sig:long sig_name:string sigact_addr:long oldsigact_addr:long sa_handler:long sa_mask:long'
	expect_rc 0 "$STAP" -r "$r" -L 'signal.procmask'
	is 'signal.procmask name:string how:long sigset_addr:long oldsigset_addr:long sigset:long'
	expect_rc 0 "$STAP" -r "$r" -L 'signal.pending'
	is 'signal.pending name:string sigset_add:long sigset_size:long'
	expect_rc 0 "$STAP" -r "$r" -L 'signal.systkill.return'
	is 'signal.systkill.return name:string retval:long retstr:string'
	expect_rc 0 "$STAP" -r "$r" -L 'tty.resize'
	is 'tty.resize name:string old_row:long old_col:long old_ypixel:long old_xpixel:long new_row:long new_col:long new_ypixel:long new_xpixel:long'
	expect_rc 0 "$STAP" -r "$r" -L 'tty.open'
	is 'tty.open inode_number:long inode_state:long inode_flags:long file_name:string file_mode:long file_flags:long'
	expect_rc 0 "$STAP" -r "$r" -L 'tty.write'
	is 'tty.write buffer:string nr:long file_name:string driver_name:string'
	expect_rc 0 "$STAP" -r "$r" -l 'tty.*'
	[ "$(wc -l <<<"$out")" = 11 ] || fail "$r: tty.* is not 11 aliases: $out"
	expect_rc 0 "$STAP" -r "$r" -L 'generic.fop.llseek'
	is 'generic.fop.llseek dev:long devname:string ino:long file:long pathname:string offset:long whence:long whence_str:string maxbyte:long name:string argstr:string'
	expect_rc 0 "$STAP" -r "$r" -L 'generic.fop.splice_read'
	is 'generic.fop.splice_read dev:long devname:string ino:long file:long pathname:string dev_major:long dev_minor:long len:long flags:long name:string argstr:string size:long units:string'
	expect_rc 0 "$STAP" -r "$r" -l 'generic.*.*.return'
	is $'generic.aop.writepages.return\ngeneric.fop.llseek.return\ngeneric.fop.mmap.return\ngeneric.fop.open.return\ngeneric.fop.read_iter.return\ngeneric.fop.splice_read.return\ngeneric.fop.write_iter.return'
	expect_rc 0 "$STAP" -r "$r" -L 'scheduler.kthread_stop'
	is 'scheduler.kthread_stop thread_pid:long thread_priority:long name:string'
	expect_rc 0 "$STAP" -r "$r" -L 'scheduler.process_wait'
	is 'scheduler.process_wait pid:long name:string'
	expect_rc 0 "$STAP" -r "$r" -L 'tcp.setsockopt'
	is 'tcp.setsockopt name:string sock:long family:long level:long optname:long optstr:string optlen:long'
	expect_rc 0 "$STAP" -r "$r" -L 'tcp.disconnect.return'
	is 'tcp.disconnect.return name:string ret:long'
	expect_rc 0 "$STAP" -r "$r" -L 'netdev.open'
	is 'netdev.open dev_name:string'
	expect_rc 0 "$STAP" -r "$r" -L 'vm.write_shared'
	is 'vm.write_shared name:string address:long'
	expect_rc 0 "$STAP" -r "$r" -L 'vfs.writev'
	is 'vfs.writev file:long pathname:string dev:long devname:string ino:long pos:long vlen:long vec:long bytes_to_write:long name:string argstr:string'
	expect_rc 0 "$STAP" -r "$r" -L 'ioscheduler.elv_add_request.tp'
	is 'ioscheduler.elv_add_request.tp name:string q:long elevator_name:string rq:long disk_major:long disk_minor:long rq_flags:long'
	expect_rc 0 "$STAP" -r "$r" -L 'signal.send_sig_queue'
	is 'signal.send_sig_queue name:string sigqueue_addr:long sig:long sig_name:string sig_pid:long pid_name:string'
	expect_rc 0 "$STAP" -r "$r" -L 'vfs.do_sync_write'
	is 'vfs.do_sync_write name:string file:long pathname:string dev:long devname:string ino:long len:long pos:long buf:long bytes_to_write:long size:long units:string argstr:string'
	expect_rc 0 "$STAP" -r "$r" -L 'vfs.add_to_page_cache'
	is 'vfs.add_to_page_cache name:string dev:long devname:string ino:long index:long nrpages:long size:long units:string argstr:string'
	expect_rc 0 "$STAP" -r "$r" -L 'scsi.set_state'
	is 'scsi.set_state state:long state_str:string host_no:long channel:long lun:long dev_id:long old_state:long old_state_str:string'
	expect_rc 0 "$STAP" -r "$r" -p2 -e 'probe vfs.add_to_page_cache.return, vfs.do_mpage_readpage, vfs.do_mpage_readpage.return { println(size) }'
	# Gone since 5.16: the alias's clear error, or nothing under "?".
	expect_rc 1 "$STAP" -r "$r" -p2 -e 'probe vfs.__add_to_page_cache { println(1) }'
	grep -q "error: probe alias 'vfs.__add_to_page_cache' has no location on kernel $r" <<<"$out" ||
		fail "$r: no clear error for vfs.__add_to_page_cache: $out"
	expect_rc 0 "$STAP" -r "$r" -p2 -e 'probe vfs.__add_to_page_cache ?, scsi.* ?, begin { println(1) }'
	# scsi_mod's functions need its debuginfo, which Debian does not ship.
	if [ ! -d "/usr/lib/debug/lib/modules/$r" ]; then
		expect_rc 1 "$STAP" -r "$r" -p2 -e 'probe scsi.iodone { println(host_no) }'
		grep -q "error: probe alias 'scsi.iodone' has no location" <<<"$out" ||
			fail "$r: no clear error for scsi.iodone: $out"
	fi
	# sig_ignored has no out-of-line copy on 6.1 or 6.12.
	expect_rc 1 "$STAP" -r "$r" -p4 -e 'probe signal.check_ignored.return { println(retstr) }'
	grep -q "error: no out-of-line copy of 'sig_ignored' to probe the return of" <<<"$out" ||
		fail "$r: no clear error for signal.check_ignored.return: $out"
done
