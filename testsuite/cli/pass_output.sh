. "$(dirname "$0")/lib.sh"
expect_rc 0 "$STAP" -v -p2 -e 'probe begin { exit() }'
n=$(find "$TOP/tapsets" -name "*.stp" | wc -l)	# every tapset file is parsed
# SystemTap's -v lines: memory (virt/res/shr/data kb) and CPU/real times.
grep -Eq "^Pass 1: parsed user script and $n library scripts using [0-9]+virt/[0-9]+res/[0-9]+shr/[0-9]+data kb, in [0-9]+usr/[0-9]+sys/[0-9]+real ms\.\$" <<<"$out" ||
	fail "no pass 1 line in SystemTap's form: $out"
grep -Eq "^Pass 2: analyzed script: 1 probe, [0-9]+ functions?, [0-9]+ embeds?, 0 globals using [0-9]+virt/[0-9]+res/[0-9]+shr/[0-9]+data kb, in [0-9]+usr/[0-9]+sys/[0-9]+real ms\.\$" <<<"$out" ||
	fail "no pass 2 line in SystemTap's form: $out"
contains "begin /* <- <input>:1:7 */"
expect_rc 0 "$STAP" -p3 -e 'probe begin { printf("%d\n", 1); printf("%5d|\n", 2) }'
contains '#include "stp_runtime.h"'
# Plain %d/%s print piece by piece; anything else goes through vsnprintf.
contains '_stp_print_lld(c, (long long)((int64_t)1LL));'
contains '_stp_print_n(c, "\n", 1);'
contains '_stp_printf(c, "%5lld|\n", (long long)((int64_t)2LL));'
expect_rc 0 "$STAP" -v -p3 -e 'probe begin { exit() }'
grep -Eq '^Pass 3: translated to C into "/[^"]*/stp_script\.c" using [0-9]+virt/[0-9]+res/[0-9]+shr/[0-9]+data kb, in [0-9]+usr/[0-9]+sys/[0-9]+real ms\.$' <<<"$out" ||
	fail "no pass 3 line in SystemTap's form: $out"
