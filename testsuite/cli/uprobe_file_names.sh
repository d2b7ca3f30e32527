. "$(dirname "$0")/lib.sh"
# The source file a user function or statement is named by is the one
# libdw gives, as SystemTap 4.8 names it: the compiler's argument, joined
# with the compile directory when it is a bare name.  4.8's names (stap
# -l on programs built these five ways in /tmp/cal): "gcc c.c" ->
# /tmp/cal/c.c, "gcc ./c.c" -> ./c.c, "gcc /tmp/cal/c.c" -> /tmp/cal/c.c,
# "gcc sub/c.c" -> sub/c.c, "cd sub; gcc ../c.c" -> ../c.c.  A file
# pattern still matches the name's last components (leaf@c.c).
command -v gcc >/dev/null || { echo "gcc missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/sub"
printf '%s\n' '__attribute__((noinline)) int leaf(int x) { return x * 3; }' \
	'int main(int argc, char **argv) { return leaf(argc); }' >"$tmp/c.c"
cp "$tmp/c.c" "$tmp/sub/c.c"
(cd "$tmp" && gcc -g -O2 -o bare c.c && gcc -g -O2 -o dot ./c.c &&
 gcc -g -O2 -o abs "$tmp/c.c" && gcc -g -O2 -o rel sub/c.c &&
 cd sub && gcc -g -O2 -o ../up ../c.c) || fail "gcc failed"
for v in "bare:$tmp/c.c" "dot:./c.c" "abs:$tmp/c.c" "rel:sub/c.c" "up:../c.c"; do
	b=$tmp/${v%%:*}
	expect_rc 0 "$STAP" -l "process(\"$b\").function(\"leaf@c.c\")"
	is "process(\"$b\").function(\"leaf@${v#*:}:1\")"
	expect_rc 0 "$STAP" -l "process(\"$b\").statement(\"main@c.c:2\")"
	is "process(\"$b\").statement(\"main@${v#*:}:2\")"
done
