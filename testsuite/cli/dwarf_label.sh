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
	want=$'kernel.function("do_mkdirat@fs/namei.c:L").label("out_putname")\nkernel.function("do_mkdirat@fs/namei.c:L").label("retry")'
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
