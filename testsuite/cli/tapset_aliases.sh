# stap -l / -L of tapset aliases whose variables' types SystemTap fixes:
# irq_handler's dev_name is the name's address (a long, as SystemTap
# 4.8's -L shows), the netfilter.* families and their variables,
# ioblock_trace.* (no block device in the VM to run them on), the
# tcpmib/ipmib/linuxmib families (24 aliases, which 4.8 cannot all
# resolve on 6.1) and their variables.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }

for r in $kernels; do
	expect_rc 0 "$STAP" -r "$r" -L 'irq_handler.entry'
	is 'irq_handler.entry irq:long action:long handler:long flags:long flags_str:string dev_name:long dev_id:long next_irqaction:long dir:long thread_fn:long thread:long thread_flags:long'
	expect_rc 0 "$STAP" -r "$r" -l 'netfilter.*.*'
	[ "$(wc -l <<<"$out")" = 23 ] || fail "$r: netfilter.*.* is not 23 aliases: $out"
	# '**' stands for one or more components, as in SystemTap's -l (whose
	# list for netfilter.**.*_in is the same four).
	expect_rc 0 "$STAP" -r "$r" -l 'netfilter.**'
	[ "$(wc -l <<<"$out")" = 23 ] || fail "$r: netfilter.** is not 23 aliases: $out"
	expect_rc 0 "$STAP" -r "$r" -l 'netfilter.**.*_in'
	is $'netfilter.bridge.local_in\nnetfilter.ip.local_in\nnetfilter.ipv4.local_in\nnetfilter.ipv6.local_in'
	expect_rc 0 "$STAP" -r "$r" -l 'netfilter.arp.*'
	is $'netfilter.arp.forward\nnetfilter.arp.in\nnetfilter.arp.out'
	expect_rc 0 "$STAP" -r "$r" -L 'netfilter.ip.local_out'
	is 'netfilter.ip.local_out nf_drop:long nf_accept:long nf_stolen:long nf_queue:long nf_repeat:long nf_stop:long indev:long outdev:long indev_name:string outdev_name:string length:long data_str:string data_hex:string pf:string family:long ipproto_tcp:long ipproto_udp:long iphdr:long protocol:long saddr:string daddr:string sport:long dport:long fin:long syn:long rst:long psh:long ack:long urg:long'
	expect_rc 0 "$STAP" -r "$r" -L 'ioblock_trace.request'
	is 'ioblock_trace.request name:string bdev:long bdev_contains:long devname:string ino:long sector:long size:long opf:long flags:long rw:long vcnt:long idx:long phys_segments:long hw_segments:long p_start_sect:long q:long bytes_done:long'
	expect_rc 0 "$STAP" -r "$r" -l 'ioblock_trace.*'
	is $'ioblock_trace.end\nioblock_trace.request'
	for fam in tcpmib:9 ipmib:11 linuxmib:4; do
		expect_rc 0 "$STAP" -r "$r" -l "${fam%:*}.*"
		[ "$(wc -l <<<"$out")" = "${fam#*:}" ] || fail "$r: ${fam%:*}.* is not ${fam#*:} aliases: $out"
	done
	expect_rc 0 "$STAP" -r "$r" -L 'ipmib.InReceives'
	is 'ipmib.InReceives skb:long op:long SourceIsLocal:long key:long'
done
