. "$(dirname "$0")/lib.sh"
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
rm -f hello.ko
expect_rc 0 "$STAP" -p4 -m hello -r "$r" -e 'probe begin { exit() }'
[ "$out" = "hello.ko" ] || fail "expected 'hello.ko' on stdout, got: $out"
[ -f hello.ko ] || fail "hello.ko was not left in the current directory"
modinfo hello.ko | grep -qx 'license: *GPL' || fail "license is not GPL: $(modinfo hello.ko)"
modinfo -F vermagic hello.ko | grep -q "^$r " || fail "vermagic is not $r: $(modinfo -F vermagic hello.ko)"
