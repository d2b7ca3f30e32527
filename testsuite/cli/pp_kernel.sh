# Preprocessor conditions on the target kernel (-r): kernel_v, kernel_vr
# and CONFIG_ options from its build tree's .config.
. "$(dirname "$0")/lib.sh"
r=$(first_kernel)
[ -n "$r" ] || { echo "no kernel build tree in /lib/modules"; exit 77; }
cfg=/lib/modules/$r/build/.config
[ -r "$cfg" ] || { echo "no $cfg"; exit 77; }
v=${r%%-*}

# The exact release and its version, and comparisons around them.
expect_rc 0 "$STAP" -p1 -r "$r" -e "probe begin {
	%( kernel_vr == \"$r\" %? a = 1 %: a = 0 %)
	%( kernel_v == \"$v\" %? b = 1 %: b = 0 %)
	%( kernel_vr != \"$v\" %? c = 1 %: c = 0 %)
	%( kernel_v > \"2.6.32\" && kernel_v < \"99\" %? d = 1 %: d = 0 %)
	%( kernel_vr == \"${r%%.*}.*\" && kernel_vr != \"1.*\" %? e = 1 %: e = 0 %)
	%( kernel_v >= \"$v\" && kernel_v <= \"$v\" %? f = 1 %: f = 0 %)
}"
for x in a b c d e f; do contains "$x = 1;"; done

# CONFIG_ options: set ones as in .config, unset ones as "".
set_opt=$(grep -m1 -E '^CONFIG_[A-Z0-9_]+=y$' "$cfg" | cut -d= -f1)
mod_opt=$(grep -m1 -E '^CONFIG_[A-Z0-9_]+=m$' "$cfg" | cut -d= -f1)
unset_opt=$(grep -m1 -E '^# CONFIG_[A-Z0-9_]+ is not set$' "$cfg" | cut -d' ' -f2)
[ -n "$set_opt" ] && [ -n "$unset_opt" ] || fail "cannot find options in $cfg"
expect_rc 0 "$STAP" -p1 -r "$r" -e "probe begin {
	%( $set_opt == \"y\" %? a = 1 %: a = 0 %)
	%( $set_opt != \"m\" && $set_opt == \"[ym]\" %? b = 1 %: b = 0 %)
	%( $unset_opt == \"\" %? c = 1 %: c = 0 %)
	%( CONFIG_NO_SUCH_OPTION_AT_ALL == \"\" %? d = 1 %: d = 0 %)
	%( CONFIG_NO_SUCH_OPTION_AT_ALL == \"y\" %? e = 0 %: e = 1 %)
}"
for x in a b c d e; do contains "$x = 1;"; done
if [ -n "$mod_opt" ]; then
	expect_rc 0 "$STAP" -p1 -r "$r" -e "probe begin { %( $mod_opt == \"m\" %? a = 1 %: a = 0 %) }"
	contains "a = 1;"
fi

# A kernel without a build tree: CONFIG_ options compare as unset, once warned.
expect_rc 0 "$STAP" -p1 -r 0.0.1-nosuch -e 'probe begin {
	%( CONFIG_SMP == "" && CONFIG_MODULES == "" %? a = 1 %: a = 0 %)
	%( kernel_v == "0.0.1" && kernel_vr == "0.0.1-nosuch" %? b = 1 %: b = 0 %)
}'
contains "warning: cannot read the kernel configuration /lib/modules/0.0.1-nosuch/build/.config"
contains "a = 1;"
contains "b = 1;"
[ "$(grep -c warning <<<"$out")" = 1 ] || fail "expected one warning: $out"

# -g and script arguments.
expect_rc 0 "$STAP" -p1 -g -e 'probe begin { %( guru_mode == 1 %? a = 1 %: a = 0 %) }'
contains "a = 1;"
expect_rc 0 "$STAP" -p1 -e 'probe begin {
	%( $# == 2 && @# == "2" %? a = 1 %: a = 0 %)
	%( $1 > 10 && @2 == "foo" && @1 == "0x10" %? b = 1 %: b = 0 %)
	%( $# > 2 %? c = @3 %: c = 1 %)
}' 0x10 foo
for x in a b c; do contains "$x = 1;"; done
expect_rc 1 "$STAP" -p1 -e 'probe begin { %( $2 == 1 %? a = 1 %) }' bar
contains "error: no script argument \$2: 1 given"
expect_rc 1 "$STAP" -p1 -e 'probe begin { %( $1 == 1 %? a = 1 %) }' bar
contains "error: script argument \$1 ('bar') is not a number; use @1 to compare it as a string"
exit 0
