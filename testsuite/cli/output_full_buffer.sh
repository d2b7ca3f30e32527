. "$(dirname "$0")/lib.sh"
# A begin probe floods a 1 MB buffer (-s 1) faster than staprun drains it,
# so writes are refused (counted as transport failures) and the flood
# ends with the buffer full.  What does arrive must be each line once, in
# order: once relay has refused a writer, the sub-buffer it would have
# written is the oldest one, read first; when the reader has caught up
# with no write since, that slot holds nothing new (runtime/relay.c,
# subbuf_end).  Reading it as the one being written printed its 128 KB a
# second time, at the end of the output.  Kernels: $KERNELS, or every one
# with a DWARF vmlinux.
command -v qemu-system-x86_64 >/dev/null || { echo "qemu-system-x86_64 missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
script='probe begin { for (i = 0; i < 40000; i++) printf("%0199d\n", i); exit() }'
n=0
for r in ${KERNELS:-$(debug_kernels)}; do
	[ -e "/boot/vmlinuz-$r" ] || continue
	n=$((n + 1))
	expect_rc 0 "$STAP" --vm -r "$r" -s 1 -DMAXACTION=1000000 -o "$tmp/out" -e "$script"
	contains "transport failures"
	# Every line 200 bytes, numbers rising: nothing twice, nothing torn.
	v=$(awk 'length($0) != 199 || (NR > 1 && $0 + 0 <= last) { print "line " NR ": " substr($0, 180); exit }
		 { last = $0 + 0 } END { if (NR < 2) print "only " NR " lines" }' "$tmp/out")
	[ -z "$v" ] || fail "$r: $v (of $(wc -l < "$tmp/out") lines)"
done
[ $n -gt 0 ] || { echo "no kernel to boot"; exit 77; }
exit 0
