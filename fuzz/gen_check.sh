#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build N random valid scripts (fuzz/gen_script.c, seeds FIRST..FIRST+N-1)
# at pass 4 for kernel RELEASE; every one must build with no error.  A
# failure leaves SEED.stp and SEED.err in the work directory, which is
# printed.  Two builds at a time (the machine is shared).
#
#   fuzz/gen_check.sh [N [FIRST [RELEASE]]]     (defaults: 200, 1, newest)
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-200} first=${2:-1}
rel=${3:-$(ls /lib/modules | sort -V | tail -n 1)}
work=$(mktemp -d "${TMPDIR:-/tmp}/gen_check.XXXXXX")
cc -O2 -Wall -o "$work/gen_script" "$top/fuzz/gen_script.c" || exit 1
one() {	# seed
	"$work/gen_script" "$1" >"$work/$1.stp"
	if (cd "$work" && "$top/stap" -r "$rel" -w -p4 -m "g$1" "$1.stp" >/dev/null 2>"$1.err"); then
		rm -f "$work/$1.stp" "$work/$1.err" "$work/g$1.ko"
	else
		echo "FAIL: seed $1: $(grep -m1 -E 'error' "$work/$1.err")"
	fi
}
export -f one
export work top rel
seq "$first" $((first + n - 1)) | xargs -P 2 -I{} bash -c 'one {}' | tee "$work/failures"
bad=$(grep -c '^FAIL' "$work/failures")
echo "$((n - bad)) of $n scripts built for $rel, $bad failed (work: $work)"
[ "$bad" -eq 0 ]
