. "$(dirname "$0")/lib.sh"
expect_rc 1 "$STAP" --frobnicate -e 'probe begin {}'
is $'stap: unknown option \'--frobnicate\'\nhint: see stap --help'
expect_rc 1 "$STAP" -Z
is $'stap: unknown option \'-Z\'\nhint: see stap --help'
expect_rc 1 "$STAP" -p 7 -e 'probe begin {}'
is "stap: -p takes a pass number from 1 to 5, not '7'"
expect_rc 1 "$STAP" -m 'bad-name' -e 'probe begin {}'
is "stap: invalid module name 'bad-name': use letters, digits and '_' (at most 55, not starting with a digit)"
expect_rc 1 "$STAP" -D 'X=a b' -e 'probe begin {}'
is "stap: invalid -D 'X=a b': expected NAME or NAME=VALUE, VALUE without spaces or quotes"
expect_rc 1 "$STAP"
is $'stap: no script given\nhint: stap SCRIPT.stp, or stap -e \'probe begin { ... }\'; see stap --help'
# Options may follow the script and its arguments, as in SystemTap
# (getopt permutes them); "--" ends the options.
expect_rc 0 "$STAP" -e 'probe begin { print(@1) }' arg -p1
is $'probe begin {\n  print(@1);\n}'
expect_rc 0 "$STAP" -p1 -e 'probe begin { print(@2) }' arg -- -p7
expect_rc 1 "$STAP" -p1 -e 'probe begin { print(@1) }' arg -5
is $'stap: unknown option \'-5\'\nhint: see stap --help'
