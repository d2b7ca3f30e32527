. "$(dirname "$0")/lib.sh"
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
# A -D that breaks the C: kbuild must fail cleanly and leave no module.
# stap's temporary directories go under $TMPDIR: a private, empty one
# shows whether the failed build left any behind.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/kbuild_failure.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
expect_rc 1 env TMPDIR="$tmp" "$STAP" -p4 -m broken -r "$r" -D MAXSTRINGLEN=nonsense -e 'probe begin { exit() }'
contains "stap: building the module for $r failed:"
contains "nonsense"
[ ! -e broken.ko ] || fail "a partial broken.ko was left behind"
left=$(ls -A "$tmp")
[ -z "$left" ] || fail "temporary files left behind in \$TMPDIR: $left"
exit 0
