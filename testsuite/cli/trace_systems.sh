# The systems stap gives tracepoints (read from the vmlinux's trace events,
# translator/dwarf.c dw_tracepoints) are the kernel's own: every tracepoint
# stap lists that has a directory in the booted kernel's tracefs events/
# has it under the same system, and every tracefs event of a tracepoint is
# listed.  One VM boot per kernel with debuginfo.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing: run ./bootstrap.sh"; exit 77; }

for r in $kernels; do
	[ -d "/lib/modules/$r/build" ] || continue
	expect_rc 0 "$STAP" -r "$r" -l 'kernel.trace("*")'
	ours=$(sed -n 's/^kernel\.trace("\(.*\):\(.*\)")$/\2 \1/p' <<<"$out" | sort)
	# "system/name/" for each event directory, from inside the VM.
	expect_rc 0 "$STAP" --vm -r "$r" -c "sh -c 'cd /sys/kernel/tracing/events || cd /sys/kernel/debug/tracing/events; for d in */*/; do echo \$d; done'" -e 'probe begin { }'
	theirs=$(sed -n 's|^\([a-z0-9_]*\)/\([A-Za-z0-9_]*\)/$|\2 \1|p' <<<"$out" | sort)
	[ "$(wc -l <<<"$theirs")" -gt 300 ] || fail "$r: tracefs listing too short: $out"
	# Same name, other system: a wrong system.
	wrong=$(join <(echo "$ours") <(echo "$theirs") | awk '$2 != $3' | head -5)
	[ -z "$wrong" ] || fail "$r: systems differ from tracefs (name ours theirs): $wrong"
	# Listed with no event: only tracepoints declared without one
	# (DECLARE_TRACE, named *_tp by convention).
	extra=$(comm -23 <(echo "$ours") <(echo "$theirs") | grep -v '_tp ' | head -5)
	[ -z "$extra" ] || fail "$r: listed tracepoints without a tracefs event: $extra"
	# Events not listed: only those that are no tracepoint of their own
	# (syscalls, ftrace) or whose prototype stap refuses.
	missing=$(comm -13 <(echo "$ours") <(echo "$theirs") | awk '$2 != "syscalls" && $2 != "ftrace" {print $1}')
	for n in $missing; do
		expect_rc 1 "$STAP" -p2 -r "$r" -e "probe kernel.trace(\"$n\") { }"
		contains "error: cannot probe tracepoint '$n': it "
	done
done
exit 0
