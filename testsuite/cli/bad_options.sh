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
# -W (man stap): warnings are errors, and fail the pass.
expect_rc 1 "$STAP" -W -p2 -e 'probe begin { y = 1 }'
contains "<input>:1:17: error: eliding assignment to 'y': it is never read"
expect_rc 0 "$STAP" -p2 -e 'probe begin { y = 1 }'
contains "<input>:1:17: warning: eliding assignment to 'y': it is never read"
# The runtime and architecture: kernel modules for x86_64, said plainly.
expect_rc 1 "$STAP" --bpf -p1 -e 'probe begin {}'
is "stap: the bpf runtime is not supported: stap-ng builds kernel modules only (--runtime=kernel)"
expect_rc 1 "$STAP" --runtime=dyninst -p1 -e 'probe begin {}'
is "stap: the dyninst runtime is not supported: stap-ng builds kernel modules only (--runtime=kernel)"
expect_rc 1 "$STAP" --runtime=foo -p1 -e 'probe begin {}'
is "stap: --runtime=foo: not a runtime (kernel, bpf or dyninst)"
expect_rc 1 "$STAP" -a arm64 -p1 -e 'probe begin {}'
is "stap: -a arm64: stap-ng builds x86_64 modules only"
expect_rc 0 "$STAP" --runtime=kernel -a x86_64 -p1 -e 'probe begin {}'
# --compatible: not with a SystemTap later than the one we follow.
expect_rc 1 "$STAP" --compatible=5.1 -e 'probe begin {}'
is "stap: --compatible=5.1: this stap is compatible with SystemTap 4.8, not a later version"
expect_rc 1 "$STAP"
is $'stap: no script given\nhint: stap SCRIPT.stp, or stap -e \'probe begin { ... }\'; see stap --help'
# Options may follow the script and its arguments, as in SystemTap
# (getopt permutes them); "--" ends the options.
expect_rc 0 "$STAP" -e 'probe begin { print(@1) }' arg -p1
is $'probe begin {\n  print(@1);\n}'
expect_rc 0 "$STAP" -p1 -e 'probe begin { print(@2) }' arg -- -p7
expect_rc 1 "$STAP" -p1 -e 'probe begin { print(@1) }' arg -5
is $'stap: unknown option \'-5\'\nhint: see stap --help'
# --color[=WHEN] and SYSTEMTAP_COLORS (keys error, warning, source, caret,
# token; empty or invalid: no color), as SystemTap documents them.
e=$'\033'
expect_rc 1 "$STAP" --color -p2 -e 'probe begin { print(x) }'
is "<input>:1:21: ${e}[01;31merror${e}[0m: variable 'x' is never assigned, so its type is unknown
${e}[00;34mprobe begin { print(${e}[0m${e}[01mx${e}[0m${e}[00;34m) }${e}[0m
                    ${e}[01m^${e}[0m"
SYSTEMTAP_COLORS='error=04:caret=07' expect_rc 1 "$STAP" --colour=always -p2 -e 'probe begin { print(x) }'
is "<input>:1:21: ${e}[04merror${e}[0m: variable 'x' is never assigned, so its type is unknown
probe begin { print(x) }
                    ${e}[07m^${e}[0m"
for spec in '' 'error=01;31:bogus' 'error=red'; do
	SYSTEMTAP_COLORS=$spec expect_rc 1 "$STAP" --color=always -p2 -e 'probe begin { print(x) }'
	contains "<input>:1:21: error: variable"
done
expect_rc 1 "$STAP" --color=never -p2 -e 'probe begin { print(x) }'
contains "<input>:1:21: error: variable"
expect_rc 1 "$STAP" --color=sometimes -p1 -e 'probe begin {}'
is "stap: --color takes never, always or auto, not 'sometimes'"
