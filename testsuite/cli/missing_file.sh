. "$(dirname "$0")/lib.sh"
expect_rc 1 "$STAP" -p1 no-such-script.stp
is "stap: cannot read script file 'no-such-script.stp': No such file or directory"
mkdir unreadable.stp
expect_rc 1 "$STAP" -p1 unreadable.stp
is "stap: cannot read script file 'unreadable.stp': Is a directory"
