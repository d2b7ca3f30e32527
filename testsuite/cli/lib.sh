# Shared by the cli tests: sourced, not run.  $STAP is the stap under test.
fail() { echo "$*"; exit 1; }
# expect_rc WANT CMD...: run CMD, keep its output in $out, check the status.
expect_rc() {
	local want=$1; shift
	out=$("$@" 2>&1); rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want: $out"
}
contains() { grep -qF -- "$1" <<<"$out" || fail "output lacks '$1': $out"; }
# Releases with a kbuild tree, one a line.
build_kernels() {
	for d in /lib/modules/*/build/Makefile; do
		[ -e "$d" ] || continue
		d=${d#/lib/modules/}; echo "${d%/build/Makefile}"
	done
}
first_kernel() { build_kernels | head -n 1; }
# Releases whose DWARF vmlinux and boot image are both installed.
debug_kernels() {
	for f in /usr/lib/debug/boot/vmlinux-*; do
		r=${f#/usr/lib/debug/boot/vmlinux-}
		[ -e "$f" ] && [ -e "/boot/vmlinuz-$r" ] && echo "$r"
	done
}
# is TEXT: the output is exactly TEXT (use $'...' for several lines).
is() { [ "$out" = "$1" ] || fail "output differs: expected
$1
got
$out"; }
