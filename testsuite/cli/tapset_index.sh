# The tapset library is parsed on demand (translator/session.c): an index
# of what each file defines (functions, globals, the first component of
# alias names, under every %( %) branch), cached in the cache directory
# under a key of the files' paths, sizes and modification times, tells
# pass 2 which files to parse.  A file changed since is indexed again.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stap-tsidx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export XDG_CACHE_HOME=$tmp/cache SYSTEMTAP_TAPSET=$tmp/lib
cp -r "${TOP:?}/tapsets" "$tmp/lib"
cat >"$tmp/lib/zz_test.stp" <<'STP'
global zz_count = 7, zz_arr[10]
function zz_one:long () { return zz_count }
probe zz.alias, zz_other = begin { zz_var = zz_one() }
%( arch == "nonesuch" %?
function zz_cond:long () { return 1 }
%:
function zz_cond:long () { return 2 }
%)
STP

expect_rc 0 "$STAP" -p2 -e 'probe zz.alias { println(zz_var + zz_cond()) }'
contains 'zz_count:long'
contains 'zz_one:long ()'
contains 'zz_cond:long ()'
[ "$(ls "$tmp/cache/stap-ng/tapsets/" | grep -c '\.idx$')" = 1 ] ||
	fail "no index written: $(ls -R "$tmp/cache")"
expect_rc 0 "$STAP" -p2 -e 'probe zz_other { zz_arr[1] = 1 }'
grep -qx 'zz_arr:long' <<<"$out" || fail "zz_arr is not a global: $out"

# A global added to the file is a global at once: a stale index would
# leave it a local of the probe.  Writing the new index removes those
# not rewritten for a week.
touch -d '10 days ago' "$tmp/cache/stap-ng/tapsets/old.idx"
echo 'global zz_late = 5' >>"$tmp/lib/zz_test.stp"
expect_rc 0 "$STAP" -p2 -e 'probe begin { println(zz_late) }'
grep -qx 'zz_late:long' <<<"$out" || fail "zz_late is not a global: $out"
[ "$(ls "$tmp/cache/stap-ng/tapsets/" | grep -c '\.idx$')" = 2 ] ||
	fail "the changed library was not indexed again: $(ls "$tmp/cache/stap-ng/tapsets")"
[ ! -e "$tmp/cache/stap-ng/tapsets/old.idx" ] || fail "a week-old index was kept"

# Names to suggest come from the whole library.
expect_rc 1 "$STAP" -p2 -e 'probe begin { println(zz_onee()) }'
contains "did you mean 'zz_one'?"
expect_rc 1 "$STAP" -p2 -e 'probe zz.alais { }'
contains "did you mean 'zz.alias'?"
# -v counts every library file, parsed or not, as SystemTap does.
n=$(find "$tmp/lib" -name '*.stp' | wc -l)
expect_rc 0 "$STAP" -v -p2 -e 'probe begin { }'
contains "parsed user script and $n library scripts"
