# The runtime objects a module links are compiled once per kernel and
# runtime key, then cached (translator/build.c): a later module compiles
# only the script's C.  It gets the objects linked whole as rt/X.o and
# the others as the cached archive stp_rt.a, with no rule to make them
# again.  Checked with -k on the first kernel with a kbuild tree: the
# second of two builds says "cached in", its rt/ holds none of the
# archive's members, its archive is the cache's byte for byte, and the module
# defines the same symbols as the first.  -DMAXERRORS is a value the
# runtime reads (runtime/script_params.h), not a key: cached too.
. "$(dirname "$0")/lib.sh"
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel headers installed: run ./bootstrap.sh"; exit 77; }
script='global n probe begin { n = strlen(execname()); printf("%d\n", n); exit() }'
# The build directory stap kept (-k), from its "Keeping" line in $out.
kept() { sed -n 's/^Keeping temporary directory "\(.*\)"$/\1/p' <<<"$out"; }
dirs=()
trap 'rm -rf "${dirs[@]}"' EXIT
# Whether the first build finds the set cached or not depends on the
# cache's state: only the builds after it are checked.
expect_rc 0 "$STAP" -p4 -k -vv -r "$r" -m rc_first -e "$script"
first=$(kept); dirs+=("$first")
[ -f "$first/rc_first.ko" ] || fail "no module from the first build: $out"
for d in "" -DMAXERRORS=3; do
	expect_rc 0 "$STAP" -p4 -k -vv -r "$r" -m rc_again $d -e "$script"
	again=$(kept); dirs+=("$again")
	cache=$(sed -n 's/^Runtime objects: cached in //p' <<<"$out")
	[ -n "$cache" ] || fail "${d:-plain}: the second build did not use the cached runtime: $(grep '^Runtime objects' <<<"$out")"
	[ -f "$again/rc_again.ko" ] || fail "${d:-plain}: no module: $out"
	# No member of the archive is in rt/ (the archive was not made again).
	members=$(ar t "$again/stp_rt.a" | xargs -n1 basename)
	[ "$(wc -l <<<"$members")" -gt 10 ] || fail "${d:-plain}: stp_rt.a has too few members: $members"
	for m in $members; do
		[ ! -e "$again/rt/$m" ] || fail "${d:-plain}: rt/$m is there: the archive was made again"
	done
	[ -n "$(ls "$again"/rt/*.o 2>/dev/null)" ] || fail "${d:-plain}: no object linked whole in rt/"
	cmp -s "$cache/stp_rt.a" "$again/stp_rt.a" ||
		fail "${d:-plain}: stp_rt.a is not the cache's archive"
	defined() { nm "$1" | awk '$2 ~ /^[TDBR]$/ { print $3 }' | sort; }
	diff <(defined "$first/rc_first.ko") <(defined "$again/rc_again.ko") >/dev/null ||
		fail "${d:-plain}: the modules define different symbols: $(diff <(defined "$first/rc_first.ko") <(defined "$again/rc_again.ko") | head)"
done
exit 0
