# Shared by the cli tests: sourced, not run.  $STAP is the stap under test.
fail() { echo "$*"; exit 1; }
# expect_rc WANT CMD...: run CMD, keep its output in $out, check the status.
expect_rc() {
	local want=$1; shift
	out=$("$@" 2>&1); rc=$?
	[ "$rc" = "$want" ] || fail "'$*' exited $rc, expected $want: $out"
}
contains() { grep -qF -- "$1" <<<"$out" || fail "output lacks '$1': $out"; }
first_kernel() {
	for d in /lib/modules/*/build/Makefile; do
		[ -e "$d" ] || continue
		d=${d#/lib/modules/}; echo "${d%/build/Makefile}"; return
	done
}
