. "$(dirname "$0")/lib.sh"
# .plt entries in the three x86-64 layouts ld makes: lazy stubs (.plt),
# -z now (.plt, no lazy binding), and -z ibtplt (calls go to .plt.sec):
# each entry stap finds has the name and address objdump labels NAME@plt
# with, and no entry is missed.  (.plt.got entries, for functions also
# taken by address, are not PLT entries to SystemTap: not listed.)
command -v gcc >/dev/null && command -v objdump >/dev/null ||
	{ echo "gcc or objdump missing"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/p.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv)
{
	printf("%d\n", atoi(argc > 1 ? argv[1] : "3"));
	puts(strchr("ab", 'b'));
	return 0;
}
C
for v in "lazy:" "now:-Wl,-z,now" "ibt:-fcf-protection=full -Wl,-z,ibtplt"; do
	b=$tmp/${v%%:*}
	gcc -O0 ${v#*:} -o "$b" "$tmp/p.c" || fail "gcc ${v#*:} failed"
	sec=.plt
	objdump -h "$b" | grep -q ' \.plt\.sec ' && sec=.plt.sec
	want=$(objdump -d -j $sec "$b" | sed -n 's/^0*\([0-9a-f]*\) <\(.*\)@plt>:$/\2 0x\1/p' | sort)
	[ -n "$want" ] || fail "${v%%:*}: objdump shows no PLT entry"
	got=
	expect_rc 0 "$STAP" -l "process(\"$b\").plt"
	for name in $(sed -n 's/.*\.plt("\(.*\)")$/\1/p' <<<"$out"); do
		expect_rc 0 "$STAP" -p2 -e "probe process(\"$b\").plt(\"$name\") { }"
		addr=$(sed -n 's/.*\.statement(\(0x[0-9a-f]*\)).*/\1/p' <<<"$out")
		got+="$name $addr"$'\n'
	done
	got=$(sort <<<"${got%$'\n'}")
	[ "$got" = "$want" ] || fail "${v%%:*} ($sec): stap found
$got
objdump labels
$want"
done
echo ok
