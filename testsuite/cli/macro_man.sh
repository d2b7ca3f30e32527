# Manual pages of the library macros (tapsets/*.stpm): every public
# macro has a full doc block (scripts/tapset-man.awk -v mode=check: a
# "smacro NAME - Summary" line, an @ line for each parameter) and its
# page macro::NAME(3stap), as SystemTap ships macro::json_output_*(3stap);
# the build's tapset-man/ has them too (what make install copies).  The
# checker must catch each kind of gap in a planted .stpm file.
. "$(dirname "$0")/lib.sh"
# The cli tests share one work directory: keep to a subdirectory of it.
rm -rf macro_man && mkdir macro_man && cd macro_man || fail "no work directory"

gen="$TOP/scripts/tapset-man.awk"
files=$(echo "$TOP"/tapsets/*.stpm)
expect_rc 0 awk -f "$gen" -v mode=check $files
[ -z "$out" ] || fail "checker complains: $out"

# Every public @define of a .stpm file has its page.
mkdir man
expect_rc 0 awk -f "$gen" -v mode=man -v out=man $files
names=$(sed -n 's/^@define[ \t]\{1,\}\([A-Za-z][A-Za-z0-9_]*\).*/\1/p' $files)
[ "$(wc -w <<<"$names")" -ge 30 ] || fail "too few macros found: $names"
for n in $names; do
	[ -s "man/macro::$n.3stap" ] || fail "no page for macro $n"
	if [ -e "$TOP/tapset-man.stamp" ]; then
		[ -s "$TOP/tapset-man/macro::$n.3stap" ] || fail "the build made no page for macro $n (Makefile.am)"
	fi
done
[ "$(ls man | wc -l)" = "$(wc -w <<<"$names")" ] || fail "pages for other than the macros: $(ls man)"

# Planted gaps: no doc block; an undocumented and a misnamed parameter;
# a doc block of another name; a private macro (no page, no complaint);
# a body over lines with a nested %( %) that holds no item.
cat >planted.stpm <<'STP'
@define bare(x) %( @x %)

/**
 * smacro half - Return a
 * @a: the first
 * @c: not a parameter
 */
@define half(a, b) %(
	%( arch == "x86_64" %? @a %: @b %)
	@define notme %( 1 %)
%)

/**
 * smacro other - A block for another name
 */
@define third %( 3 %)

@define __private(q) %( @q %)

/** smacro good - One line, no parameters */
@define good %( 1 %)
STP
expect_rc 1 awk -f "$gen" -v mode=check planted.stpm
contains "planted.stpm:1: macro bare has no doc comment (/** smacro bare - ... */)"
contains "planted.stpm:8: macro half: parameter b is not documented (@b: ...)"
contains "planted.stpm:6: macro half: @c is not a parameter of @half(a, b)"
contains "planted.stpm:16: macro third has no doc comment"
[ "$(wc -l <<<"$out")" = 4 ] || fail "expected exactly 4 complaints: $out"
mkdir pl
expect_rc 0 awk -f "$gen" -v mode=man -v out=pl planted.stpm
[ "$(cd pl && echo *)" = "macro::bare.3stap macro::good.3stap macro::half.3stap macro::third.3stap" ] ||
	fail "planted pages: $(ls pl)"

command -v man >/dev/null || { echo "man(1) missing: rendering not checked"; exit 0; }
expect_rc 0 env MANWIDTH=100 man -l "man/macro::json_output_array_numeric_value.3stap"
contains "macro::json_output_array_numeric_value - Output a numeric metric's value in an array"
contains "@json_output_array_numeric_value(array_name, array_index, metric_name, value)"
# (a long name stands on a line of its own, its text below)
grep -A1 -E '^ +array_index$' <<<"$out" | grep -qE '^ +the index \(a string\) the value is stored at$' ||
	fail "no array_index entry: $out"
expect_rc 0 env MANWIDTH=100 man -l "man/macro::json_output_data_start.3stap"
grep -A1 -E '^ARGUMENTS' <<<"$out" | grep -qE '^ +None$' || fail "no 'None' arguments: $out"
expect_rc 0 env MANWIDTH=100 man -l "man/macro::choose_defined.3stap"
contains "@choose_defined(a, b)"
contains "tapsets/macros.stpm"
exit 0
