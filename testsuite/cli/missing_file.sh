. "$(dirname "$0")/lib.sh"
expect_rc 1 "$STAP" -p1 no-such-script.stp
[ "$out" = "stap: cannot read script file 'no-such-script.stp': No such file or directory" ] || fail "got: $out"
mkdir unreadable.stp
expect_rc 1 "$STAP" -p1 unreadable.stp
contains "cannot read script file 'unreadable.stp'"
