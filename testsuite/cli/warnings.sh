# -w suppresses the translator's warnings, and the hints and notes that go
# with them, but not errors.
. "$(dirname "$0")/lib.sh"
script='global unused; function f() { return 1 } probe begin { exit() }'
expect_rc 0 "$STAP" -p2 -e "$script"
contains "warning: eliding unused global 'unused'"
contains "warning: eliding unused function 'f'"
out=$("$STAP" -w -p2 -e "$script" 2>&1 >/dev/null); rc=$?
[ $rc = 0 ] && [ -z "$out" ] || fail "-w: exit $rc, stderr: $out"
expect_rc 1 "$STAP" -w -p2 -e 'global unused; probe begin { x = nosuch() }'
contains "error: unresolved function 'nosuch'"
grep -q warning <<<"$out" && fail "-w printed a warning: $out"
exit 0
