# -w suppresses the translator's warnings, and the hints and notes that go
# with them, but not errors.  Unused globals and functions are elided
# silently, as SystemTap 4.8 does (a note at -vv).
. "$(dirname "$0")/lib.sh"
script='global unused, counts, count; function f() { return 1 }
probe begin { counts = 1; println(count + 1); exit() }'
expect_rc 0 "$STAP" -p2 -e "$script"
contains "warning: global variable 'count' is never assigned: it reads as 0"
contains "hint: did you mean 'counts'?"
grep -q "eliding" <<<"$out" && fail "unused global or function reported: $out"
expect_rc 0 "$STAP" -vv -p2 -e "$script"
contains "note: eliding unused global 'unused'"
contains "note: eliding unused function 'f'"
out=$("$STAP" -w -p2 -e "$script" 2>&1 >/dev/null); rc=$?
[ $rc = 0 ] && [ -z "$out" ] || fail "-w: exit $rc, stderr: $out"
expect_rc 1 "$STAP" -w -p2 -e 'global unused; probe begin { x = nosuch() }'
contains "error: unresolved function 'nosuch'"
grep -q warning <<<"$out" && fail "-w printed a warning: $out"
exit 0
