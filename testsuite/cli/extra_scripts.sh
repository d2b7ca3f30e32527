# stap -E SCRIPT (man stap): more script text beside the main script,
# repeatable; its messages name it <input1>, <input2>, ... as SystemTap's
# do (4.8: "identifier 'nosuch' at <input1>:1:23").
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$STAP" -p1 -e 'probe begin { println(1) }' -E 'probe end { println(2) }' -E 'probe end { println(3) }'
is $'probe begin {\n  println(1);\n}\nprobe end {\n  println(2);\n}\nprobe end {\n  println(3);\n}'
expect_rc 1 "$STAP" -p2 -e 'probe begin { println(1) }' -E 'probe begin { println(2) }' -E 'probe begin { println(nosuch()) }'
contains "<input2>:1:23: error: unresolved function 'nosuch'"
# With a script file too; -E alone is no script.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stap-extra.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
printf 'probe begin { println(1) }\n' >"$tmp/main.stp"
expect_rc 0 "$STAP" -p1 "$tmp/main.stp" -E 'probe end { println(2) }'
contains 'probe end {'
expect_rc 1 "$STAP" -p1 -E 'probe end { println(2) }'
contains 'stap: no script given'
exit 0
