# A parameter (or global) read in a .return probe is its value at entry:
# SystemTap 4.8 warns "confusing usage, value is captured as @entry(...)"
# at the use, once per text, not for @entry(), @defined(), $return (nor
# $return$ and $return$$, the return value printed) or tapset code (socket.create.return reads $protocol); -w hides it.  Texts
# and columns as `stap -r 6.1.0-56-amd64 -p2` (4.8) prints them.
. "$(dirname "$0")/lib.sh"

kernels=$(debug_kernels)
[ -n "$kernels" ] || { echo "no kernel debuginfo (/usr/lib/debug/boot/vmlinux-*)"; exit 77; }
w='warning: confusing usage, value is captured as'
tail=' in .return probe [man stapprobes] RETURN PROBES'
script='probe kernel.function("vfs_read").return {
	a = @entry($count) + @defined($count) + $return + strlen($return$ . $return$$)
	printf("%d %d %s %s %s\n", a, $count + $count, $$parms, $file$, $file->f_path$$)
}
probe kernel.function("vfs_write").return { println($count) }
probe socket.create.return { println(protocol) }'

for r in $kernels; do
	expect_rc 0 "$STAP" -p2 -r "$r" -e "$script"
	got=$(grep -F "$w" <<<"$out")
	want="<input>:3:32: $w @entry(\$count)$tail
<input>:3:49: $w @entry(\$\$parms)$tail
<input>:3:58: $w @entry(\$file->\$)$tail
<input>:3:66: $w @entry(\$file->f_path->\$\$)$tail"
	[ "$got" = "$want" ] || fail "$r: expected
$want
got
$got"
	expect_rc 0 "$STAP" -w -p2 -r "$r" -e "$script"
	grep -qF "$w" <<<"$out" && fail "$r: -w printed: $out"
done
exit 0
