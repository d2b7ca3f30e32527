# Tapset doc comments (format: tapsets/README) and the manual pages made
# from them by scripts/tapset-man.awk.  The checker must pass on every
# tapset file (every public function and probe alias has its full doc
# block); it must catch each kind of gap in a planted file; the pages
# must render.
. "$(dirname "$0")/lib.sh"

gen="$TOP/scripts/tapset-man.awk"
files=$(echo "$TOP"/tapsets/*.stp)
expect_rc 0 awk -f "$gen" -v mode=check $files
[ -z "$out" ] || fail "checker complains: $out"

# Planted gaps: a missing, a misnamed and an empty @ line; an undocumented
# alias variable; an item with no doc block at all; a parameter on the
# second line of a signature; a variable a nested macro assigns, in an
# alias and in one that shares its @ lines; a share of a missing alias.
cat >planted.stp <<'STP'
/**
 * sfunction two - Return a plus b
 * @a: the first
 */
function two:long (a:long, b:long) { return a + b }

/**
 * sfunction three - Return a
 * @x: wrong name
 * @a:
 */
function three:long (a:long) { return a }

/**
 * probe p.q - A begin
 * @name: "p.q"
 */
probe p.q = begin { name = "p.q"; count = 3 # not: x = 1
	if (count == 3) __scratch = 1
}

function bare:long () { return 1 }
function __internal:long (z) { return z }

/**
 * sfunction multi - Return a
 * @a: the first
 */
function multi:long (a:long,
		     c:long) { return a }

@define inner %(
	deep = 2
%)
@define outer %(
	@inner
	mid = 1
%)
/**
 * probe m.one - Variables from macros
 * @mid: documented
 */
probe m.one = begin { @outer }

/**
 * probe m.two - Shares m.one's
 *
 * Variables: as m.one
 */
probe m.two = begin { @outer }

/**
 * probe m.three - Shares a missing alias's
 *
 * Variables: as m.none
 */
probe m.three = begin { }
STP
expect_rc 1 awk -f "$gen" -v mode=check planted.stp
contains "planted.stp:5: function two: parameter b is not documented (@b: ...)"
contains "planted.stp:9: function three: @x is not a parameter of three:long(a:long)"
contains "planted.stp:10: function three: @a has no description"
contains "planted.stp:18: probe p.q: variable count is not documented (@count: ...)"
contains "planted.stp:22: function bare has no doc comment"
contains "planted.stp:29: function multi: parameter c is not documented (@c: ...)"
contains "planted.stp:43: probe m.one: variable deep is not documented (@deep: ...)"
contains "planted.stp:50: probe m.two: variable deep is not documented (@deep: ...)"
contains "planted.stp:57: probe m.three: no alias m.none to take the variables of"
[ "$(wc -l <<<"$out")" = 9 ] || fail "expected exactly 9 complaints: $out"
expect_rc 0 awk -f "$gen" -v mode=coverage planted.stp
is "1 of 8 documented"

# Pages: one per public function name and alias of the listed files.
mkdir man
expect_rc 0 awk -f "$gen" -v mode=man -v out=man $files
for f in $files; do
	for n in $(sed -n 's/^function \([A-Za-z][A-Za-z0-9_]*\).*/\1/p' "$f"); do
		[ -s "man/function::$n.3stap" ] || fail "no page for function $n (${f##*/})"
	done
	for n in $(sed -n 's/^probe \([A-Za-z][A-Za-z0-9_.]*\)[ \t]*+*=.*/\1/p' "$f"); do
		[ -s "man/probe::$n.3stap" ] || fail "no page for probe $n (${f##*/})"
	done
done
command -v man >/dev/null || { echo "man(1) missing: rendering not checked"; exit 0; }
expect_rc 0 env MANWIDTH=80 man -l "man/probe::socket.sendmsg.3stap"
contains "probe::socket.sendmsg - A message is being sent on a socket"
contains "VALUES"
grep -qE '^ +size +the message.s size in bytes' <<<"$out" || fail "no size entry: $out"
expect_rc 0 env MANWIDTH=80 man -l "man/function::d_name.3stap"
contains "ARGUMENTS"
contains "d_name:string(dentry:long)"
exit 0
