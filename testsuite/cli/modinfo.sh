# stap --modinfo NAME=VALUE (man stap): the pair goes into the module's
# information, where modinfo(8) reads it (4.8: `modinfo -F foo` prints
# "bar"); a NAME that is not a C identifier is refused.
. "$(dirname "$0")/lib.sh"

expect_rc 0 "$STAP" -p3 --modinfo foo=bar --modinfo 'desc=a "quoted" value' -e 'probe begin { exit() }'
contains 'MODULE_INFO(foo, "bar");'
contains 'MODULE_INFO(desc, "a \"quoted\" value");'
expect_rc 1 "$STAP" -p1 --modinfo '=x' -e 'probe begin {}'
is "stap: --modinfo '=x': expected NAME=VALUE, NAME of letters, digits and '_'"
expect_rc 1 "$STAP" -p1 --modinfo 'a-b=x' -e 'probe begin {}'
contains "expected NAME=VALUE"

r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
command -v modinfo >/dev/null || { echo "modinfo (kmod) is missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stap-modinfo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
expect_rc 0 "$STAP" -p4 -r "$r" -m t_modinfo --modinfo foo=bar --modinfo 'desc=a "quoted" value' -e 'probe begin { exit() }'
[ "$(modinfo -F foo t_modinfo.ko)" = bar ] || fail "modinfo foo: $(modinfo t_modinfo.ko)"
[ "$(modinfo -F desc t_modinfo.ko)" = 'a "quoted" value' ] || fail "modinfo desc: $(modinfo t_modinfo.ko)"
exit 0
