# Dead-store elision reaches every place an expression can be: a local
# assigned and never read is elided (with a warning) in a statement, an
# if's condition and branches, a for's init, step and body, a while, a
# foreach limit, a call's argument and an array index.  The warnings'
# variables and positions are SystemTap 4.8's (stap -v -p2: "Eliding
# assignment to 'x': operator '=' at FILE:4:4", and so on); the run/
# dead_store tests check what elision does to a running script.
. "$(dirname "$0")/lib.sh"
cat >elide.stp <<'STP'
global a, g
function f(v) { return v }
probe begin {
	x = 1
	if ((c = 2) > 0) { t = 3 } else { e = 4 }
	for (i = (s = 0); i < 2; i += (p = 1)) { b = i }
	while ((wc = 0)) { wb = 1 }
	foreach (k in a limit (n = 1)) println(k)
	g = f(q = 5)
	a[r = 6] = 7
	println(g, ++a[1])
}
STP
expect_rc 0 "$STAP" -p2 elide.stp
out=$(grep 'warning: eliding assignment' <<<"$out" | sed 's/: warning: eliding assignment to / /; s/: it is never read$//')
is "elide.stp:4:4 'x'
elide.stp:5:9 'c'
elide.stp:5:23 't'
elide.stp:5:38 'e'
elide.stp:6:14 's'
elide.stp:6:35 'p'
elide.stp:6:45 'b'
elide.stp:7:13 'wc'
elide.stp:7:24 'wb'
elide.stp:8:27 'n'
elide.stp:9:10 'q'
elide.stp:10:6 'r'"
# -u keeps them all, silently.
expect_rc 0 "$STAP" -u -p2 elide.stp
grep -q eliding <<<"$out" && fail "-u elided: $out"
exit 0
