. "$(dirname "$0")/lib.sh"
expect_rc 0 "$STAP" -v -p2 -e 'probe begin { exit() }'
n=$(find "$TOP/tapsets" -name "*.stp" | wc -l)	# every tapset file is parsed
contains "Pass 1: parsed user script and $n library scripts in "
contains "Pass 2: analyzed script in "
contains "begin /* <- <input>:1:7 */"
expect_rc 0 "$STAP" -p3 -e 'probe begin { printf("%d\n", 1) }'
contains '#include "stp_runtime.h"'
contains '_stp_printf(c, "%lld\n", (long long)((int64_t)1LL));'
