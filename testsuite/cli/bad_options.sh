. "$(dirname "$0")/lib.sh"
expect_rc 1 "$STAP" --frobnicate -e 'probe begin {}'
contains "stap: unknown option '--frobnicate'"
contains "hint: see stap --help"
expect_rc 1 "$STAP" -Z
contains "unknown option '-Z'"
expect_rc 1 "$STAP" -p 7 -e 'probe begin {}'
contains "-p takes a pass number from 1 to 5, not '7'"
expect_rc 1 "$STAP" -m 'bad-name' -e 'probe begin {}'
contains "invalid module name 'bad-name'"
expect_rc 1 "$STAP" -D 'X=a b' -e 'probe begin {}'
contains "invalid -D"
expect_rc 1 "$STAP"
contains "stap: no script given"
