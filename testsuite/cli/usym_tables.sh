# The user files' tables a script gets (translator/usyms.c, ucfi.c), from
# stap -p3: the probed program's symbols and .eh_frame rows when a user
# symbol function is used, none otherwise; libc's with --ldd; a -d file
# that is not there is a warning.  The rows are checked where ubt's code
# fixes them: leaf() keeps a frame pointer (CFA rbp+16 from its third
# instruction), nofp() has none (CFA rsp+64 in its body).
. "$(dirname "$0")/lib.sh"

r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel build tree"; exit 77; }
ubt=$(cd "$(dirname "$0")/.." && pwd)/ubt
[ -x "$ubt" ] || { echo "testsuite/ubt is not built: run make check"; exit 77; }
leaf=$(nm "$ubt" | awk '$3 == "leaf" { print $1 }')
nofp=$(nm "$ubt" | awk '$3 == "nofp" { print $1 }')
# ubt is not PIE: link-time address 0x40xxxx is file offset 0xxxx.
leaf_body=$(printf '{0x%x,16,1,-1,-2}' $((0x$leaf - 0x400000 + 4)))
nofp_body=$(printf '{0x%x,64,0,-1,0}' $((0x$nofp - 0x400000 + 4)))

uses='probe process("'$ubt'").function("leaf") { print(usymname(uaddr())) }'
expect_rc 0 "$STAP" -r "$r" -p3 -e "$uses"
contains ".name = \"$ubt\""
contains "$leaf_body"
contains "$nofp_body"
grep -q 'libc.so' <<<"$out" && fail "libc's table without --ldd: $out"

expect_rc 0 "$STAP" -r "$r" -p3 --ldd -e "$uses"
contains '.name = "/lib/x86_64-linux-gnu/libc.so.6"'

# No user symbol function: no tables, even for a probed program.
expect_rc 0 "$STAP" -r "$r" -p3 -e 'probe process("'$ubt'").function("leaf") { print(1) }'
grep -q "\.name = \"$ubt\"" <<<"$out" && fail "a table nothing uses: $out"

# -d with a relative path: made absolute (the module looks it up at run time).
expect_rc 0 bash -c "cd '$(dirname "$ubt")' && '$STAP' -r '$r' -p3 -d ./ubt -e 'probe begin { print(usymname(0)) }'"
contains ".name = \"$ubt\""

expect_rc 0 "$STAP" -r "$r" -p3 -d /nonexistent -e 'probe begin { print(usymname(0)) }'
contains 'stap: warning: no symbols for /nonexistent: No such file or directory'
exit 0
