# "did you mean" weighs every candidate: a struct member or a variable
# past the 256th (tvar.c kept only the first 256) is still offered.
. "$(dirname "$0")/lib.sh"
command -v gcc >/dev/null || { echo "gcc missing"; exit 77; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/stap-dym.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
{
	echo 'struct big {'
	for i in $(seq 0 299); do echo "	int m$i;"; done
	echo '};'
	echo 'int use(struct big *b) {'
	for i in $(seq 0 299); do echo "	int v$i = b->m$i;"; done
	echo '	return v0 + v299;'
	echo '}'
	echo 'int main(void) { static struct big b; return use(&b); }'
} >"$tmp/big.c"
gcc -g -O0 -o "$tmp/big" "$tmp/big.c" || fail "gcc failed"

expect_rc 1 "$STAP" -p2 -e "probe process(\"$tmp/big\").function(\"use\") { println(\$b->m299x) }"
contains "has no member 'm299x'"
contains "hint: did you mean '->m299'?"
expect_rc 1 "$STAP" -p2 -e "probe process(\"$tmp/big\").function(\"use\") { println(\$v299x) }"
contains "no variable '\$v299x'"
contains "hint: did you mean '\$v299'?"
