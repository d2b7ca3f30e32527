# A global read but never assigned is a warning at its declaration, as in
# SystemTap 4.8 ("never-assigned global variable 'x'", checked with its
# stap -p2 on 6.1): scalars and arrays, in -I tapsets too.  Not warned: a
# global with an initialiser, one assigned by =, ++, <<< or delete, even in
# an "if (0)" or a probe that never fires, one set by -G, one read only by
# an unused function, and anything under -w.  4.8 warns too when the only
# assignment is in an unused function or an optional probe that resolves
# to nothing, and not when an array is sorted by foreach.  4.8 lists
# every global as "(similar: ...)"; ours offers the nearest assigned one,
# if close.
. "$(dirname "$0")/lib.sh"
w() { out=$("$STAP" -p2 "$@" 2>&1 >/dev/null); }

w -e 'global x, abcdefgh, count, counts
global a
probe begin { println(x + abcdefgh + count + @count(a[1])); counts = 1 }'
is "<input>:1:8: warning: global variable 'x' is never assigned: it reads as 0
global x, abcdefgh, count, counts
       ^
<input>:1:11: warning: global variable 'abcdefgh' is never assigned: it reads as 0
global x, abcdefgh, count, counts
          ^~~~~~~~
<input>:1:21: warning: global variable 'count' is never assigned: it reads as 0
global x, abcdefgh, count, counts
                    ^~~~~
hint: did you mean 'counts'?
<input>:2:8: warning: global array 'a' is never assigned: it is always empty
global a
       ^"

w -e 'global s
probe begin { println(s . "") }'
is "<input>:1:8: warning: global variable 's' is never assigned: it reads as \"\"
global s
       ^"

for body in 'x++' 'x += 1' 'if (0) x = 1' 'delete x' 'y[1] <<< 1; x = @count(y[1])'; do
	w -e "global x, y
probe begin { $body; println(x + 1) }"
	is ""
done
w -e 'global x = 5
probe begin { println(x) }'
is ""
w -e 'global x
probe begin { println(x) }
probe end { x = 2 }'
is ""
w -G x=5 -e 'global x
probe begin { println(x + 1) }'
is ""
w -e 'global x
function f() { return x }
probe begin { println(1) }'
is ""
w -w -e 'global x
probe begin { println(x + 1) }'
is ""

# Assigned only in an unused function or an optional probe with no location.
w -e 'global x
function f() { x = 1 }
probe kernel.function("no_such_function_s11d")? { x = 2 }
probe begin { println(x + 1) }'
contains "<input>:1:8: warning: global variable 'x' is never assigned: it reads as 0"

# 4.8 counts a sorted foreach as an assignment, an unsorted one (or one
# with only a limit) not.
w -e 'global c
probe kernel.function("no_such_function_s11d")? { c[pn()]++ }
probe end { foreach (n+ in c) printf("%s = %d\n", n, c[n]) }
probe end { foreach (n in c-) println(c[n]) }'
is ""
w -e 'global c
probe end { foreach (n in c limit 5) println(c[n] + 1) }'
is "<input>:1:8: warning: global array 'c' is never assigned: it is always empty
global c
       ^"

# In a tapset named by -I.
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
printf 'global tsg\nfunction tsread() { return tsg + 1 }\n' >"$d/lib.stp"
w -I "$d" -e 'probe begin { println(tsread()) }'
is "$d/lib.stp:1:8: warning: global variable 'tsg' is never assigned: it reads as 0
global tsg
       ^~~"
exit 0
