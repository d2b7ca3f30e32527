. "$(dirname "$0")/lib.sh"
# The module cache (translator/cache.c; man stap, CACHING): a module is
# kept in $SYSTEMTAP_DIR/cache/HH/stap_KEY.ko with its C, and the same
# build again loads it instead of running kbuild.  The key is what the
# build reads: a change of script, -D, -B or runtime source is a new
# module; --poison-cache rebuilds, --disable-cache neither reads nor
# writes, --clean-cache prunes to cache_mb_limit.  Pass 5 runs a cached
# module in a VM.
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
work=$(mktemp -d "${TMPDIR:-/tmp}/module_cache.XXXXXX")
trap '[ -n "$KEEP" ] || rm -rf "$work"' EXIT
export SYSTEMTAP_DIR=$work/sd
cd "$work" || exit 1
script='probe begin { printf("%d\n", 42); exit() }'
entry_re="^$SYSTEMTAP_DIR/cache/([0-9a-f]{2})/stap_\\1[0-9a-f]{30}\\.ko\$"

expect_rc 0 "$STAP" -p4 -r "$r" -e "$script"
first=$out
grep -Eq "$entry_re" <<<"$first" || fail "-p4 did not print a cache entry: $first"
[ -f "$first" ] && [ -f "${first%.ko}.c" ] || fail "no module and C in the cache: $(find "$SYSTEMTAP_DIR")"
grep -qF '#include "stp_runtime.h"' "${first%.ko}.c" || fail "the cached C is not the script's: $(head -3 "${first%.ko}.c")"
[ -z "$(ls ./*.ko 2>/dev/null)" ] || fail "-p4 without -m left a module here: $(ls ./*.ko)"
# staprun names a module by its file: the file's name is the module's.
name=$(modinfo -F name "$first")
[ "$name.ko" = "${first##*/}" ] || fail "module $name is in ${first##*/}"
[ "$(cat "$SYSTEMTAP_DIR/cache/cache_mb_limit")" = 256 ] &&
	[ "$(cat "$SYSTEMTAP_DIR/cache/cache_clean_interval_s")" = 300 ] ||
	fail "no default limits: $(head "$SYSTEMTAP_DIR"/cache/cache_*)"

# The same build again: the kept module, no kbuild, SystemTap's -v line.
expect_rc 0 "$STAP" -v -p4 -r "$r" -e "$script"
grep -qx "Pass 4: using cached $first" <<<"$out" || fail "not a cache hit: $out"
[ "$(tail -n 1 <<<"$out")" = "$first" ] || fail "the hit printed another path: $out"

# Whatever goes into the build is in the key.
keyed() {
	expect_rc 0 "$@"
	grep -Eq "$entry_re" <<<"$out" || fail "'$*' printed no cache entry: $out"
	[ "$out" != "$first" ] || fail "'$*' hit the entry of a different build"
}
keyed "$STAP" -p4 -r "$r" -e 'probe begin { printf("%d\n", 43); exit() }'
keyed "$STAP" -p4 -r "$r" -DMAXACTION=5000 -e "$script"
keyed "$STAP" -p4 -r "$r" -B KBUILD_VERBOSE=0 -e "$script"
# A runtime that differs by one comment: its own module (and objects).
cp -r "$TOP/runtime" rt
echo "/* changed */" >>rt/stp_runtime.h
SYSTEMTAP_RUNTIME=$work/rt keyed "$STAP" -p4 -r "$r" -e "$script"

# --poison-cache builds again and writes the entry anew.
touch -d '2001-01-01' "$first"
expect_rc 0 "$STAP" -v --poison-cache -p4 -r "$r" -e "$script"
grep -q '^Pass 4: compiled C into "stap_' <<<"$out" || fail "--poison-cache read the cache: $out"
[ "$(stat -c %Y "$first")" -gt 1000000000 ] && [ "$(tail -n 1 <<<"$out")" = "$first" ] ||
	fail "--poison-cache did not write the entry again: $out"

# --disable-cache: no entry read or made; -p4 leaves the module here.
before=$(find "$SYSTEMTAP_DIR" -type f | sort)
expect_rc 0 "$STAP" -v --disable-cache -p4 -r "$r" -DMAXACTION=7000 -e "$script"
mod=$(tail -n 1 <<<"$out")
[[ $mod =~ ^stap_[0-9a-f]{32}\.ko$ ]] && [ -f "$mod" ] || fail "--disable-cache: no module here: $out"
[ "$before" = "$(find "$SYSTEMTAP_DIR" -type f | sort)" ] || fail "--disable-cache wrote to the cache"

# --clean-cache prunes to the limit, least recently used first: the
# oldest entry, made 1 MiB larger, goes; that brings the rest under the
# 1 MiB limit, so the others stay.
ls "$SYSTEMTAP_DIR"/cache/*/stap_*.ko >entries
[ "$(wc -l <entries)" = 5 ] || fail "expected 5 entries: $(cat entries)"
old=$(grep -vx "$first" entries | head -n 1)
head -c 1048576 /dev/zero >>"${old%.ko}.c"
touch -d '2002-02-02' $(grep -vx "$first" entries)
touch -d '2001-01-01' "$old" "${old%.ko}.c"
echo 1 >"$SYSTEMTAP_DIR/cache/cache_mb_limit"
rest=$(grep -vx "$old" entries)
[ "$(cat $rest $(sed 's/\.ko$/.c/' <<<"$rest") | wc -c)" -lt 1048576 ] ||
	fail "the entries left would not fit the test's 1 MiB limit"
expect_rc 0 "$STAP" -v --clean-cache
contains "Cache: removed 1 of 5 entries"
[ ! -e "$old" ] && [ ! -e "${old%.ko}.c" ] || fail "--clean-cache kept the oldest entry"
for e in $rest; do
	[ -f "$e" ] || fail "--clean-cache removed $e, a newer entry"
done

# Pass 5 from the cache, in a VM.
k=$(debug_kernels | grep -Fx "$r")
if [ -n "$k" ] && command -v qemu-system-x86_64 >/dev/null; then
	expect_rc 0 "$STAP" -v --vm --vm-timeout=90 -r "$r" -e "$script"
	grep -qx "Pass 4: using cached $first" <<<"$out" || fail "pass 5 did not use the cache: $out"
	grep -qx 42 <<<"$out" || fail "the cached module did not run: $out"
fi
exit 0
