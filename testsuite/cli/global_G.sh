. "$(dirname "$0")/lib.sh"
# stap -G NAME=VALUE: checked when the script is known (pass 3), so a
# typo is an error here rather than a module that insmod refuses.
r=$(first_kernel)
[ -n "$r" ] || { echo "SKIP: no kernel build tree"; exit 77; }
script='global x = 5, s = "a", arr, st; probe begin { arr[1] = 1; st <<< 1; print(x, s, @count(st)) }'
expect_rc 0 "$STAP" -r "$r" -p3 -G x=-0x10 -G s=a.b-c_d -e "$script"
contains 'module_param_cb(x, &_stp_param_s64_ops, &g_x, 0);'
contains 'module_param_string(s, g_s, MAXSTRINGLEN, 0);'
expect_rc 1 "$STAP" -r "$r" -p3 -G nosuch=1 -e "$script"
is $'stap: -G nosuch=1: the script has no global \'nosuch\'\nhint: -G sets a global the script declares (global nosuch) and uses'
expect_rc 1 "$STAP" -r "$r" -p3 -G arr=1 -e "$script"
is "stap: -G arr=1: 'arr' is an array; -G sets a number or a string"
expect_rc 1 "$STAP" -r "$r" -p3 -G st=1 -e "$script"
is "stap: -G st=1: 'st' is a statistic; -G sets a number or a string"
expect_rc 1 "$STAP" -r "$r" -p3 -G x=abc -e "$script"
is "stap: -G x=abc: 'x' is a number, and 'abc' is not one"
# SystemTap's safe set: the value goes to insmod as it is.
for bad in x 'x=' '=1' '1x=2' 'x=a b' 'x="a"'; do
	expect_rc 1 "$STAP" -p1 -G "$bad" -e "$script"
	is "stap: invalid -G '$bad': expected NAME=VALUE, VALUE of letters, digits, '_', '.' and '-'"
done
# Tapset globals are not the user's to set.
expect_rc 1 "$STAP" -r "$r" -p3 -G _stp_target=1 -e "$script"
