#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-or-later
# check_time.sh -- what make check's run/ group costs, before and after
# batching the module builds (testsuite/run.sh, KBUILD_BATCH).
#
#   make && make testsuite/workload testsuite/uprog ...   # as make check
#   bench/check_time.sh                        # run/[a-c]*, on 6.1
#   TESTS='run/*' KERNELS='6.1.0-56-amd64 6.12.117+deb12-amd64' bench/check_time.sh
#
# Runs the subset through testsuite/run.sh twice: KBUILD_BATCH=0
# (one `stap -p4`, so one kbuild, per test per kernel; the next kernel's
# builds after this one's VM run: the runner as it was)
# and the default (each test's stap -p4 --kbuild-defer, one kbuild for
# them all, the next kernel's builds during this one's VM run, one VM
# a kernel).  For each it prints the
# builds' and the VM runs' CPU seconds (user+sys: the host is shared, so
# wall time alone says little), wall seconds, the number of kbuild runs
# (top-level `make -C KDIR M=...`, counted by a make on PATH that logs and
# execs the real one) and the result line, which must be the same.  Then
# the CPU per test and its extrapolation to the whole run/ group on the
# three CI kernels: (CPU of the subset / its tests) x run/ tests x 3.
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
export TESTS=${TESTS:-'run/[a-c]*'} KERNELS=${KERNELS:-6.1.0-56-amd64}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/check_time.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
real_make=$(command -v make)
mkdir "$tmp/bin"
cat >"$tmp/bin/make" <<EOF
#!/bin/bash
for a; do case \$a in M=*) echo x >>"$tmp/kbuilds.\$KB_MODE"; break;; esac; done
exec "$real_make" "\$@"
EOF
chmod +x "$tmp/bin/make"
ntests=$(for f in "$top"/testsuite/run/*.stp; do n=run/$(basename "$f" .stp); [[ $n == $TESTS ]] && echo; done | wc -l)
nall=$(ls "$top"/testsuite/run/*.stp | wc -l)
nk=$(wc -w <<<"$KERNELS")
echo "subset: TESTS='$TESTS' ($ntests tests) on $KERNELS; run/ has $nall tests"

declare -A cpu_b cpu_v
for mode in 0 1; do
	label=$([ $mode = 0 ] && echo before || echo after)
	: >"$tmp/kbuilds.$mode"
	start=$EPOCHREALTIME
	KB_MODE=$mode PATH="$tmp/bin:$PATH" KBUILD_BATCH=$mode "$top/testsuite/run.sh" >"$tmp/out.$mode" 2>&1
	wall=$(echo "$EPOCHREALTIME - $start" | bc)
	# "== R: builds U+S s CPU (user+sys), W s wall; VM U+S s CPU, W s wall"
	read -r b v < <(sed -n 's/^== .*: builds \([0-9.]*\)+\([0-9.]*\) s CPU.*VM \([0-9.]*\)+\([0-9.]*\) s CPU.*/\1 \2 \3 \4/p' "$tmp/out.$mode" |
		awk '{b += $1 + $2; v += $3 + $4} END {printf "%.1f %.1f\n", b, v}')
	cpu_b[$mode]=$b cpu_v[$mode]=$v
	printf '%-7s builds %7.1f s CPU, VM %7.1f s CPU, run.sh %6.1f s wall, %4d kbuild runs; %s\n' \
		"$label" "$b" "$v" "$wall" "$(wc -l <"$tmp/kbuilds.$mode")" "$(tail -1 "$tmp/out.$mode")"
	grep '^== .*: builds' "$tmp/out.$mode" | sed 's/^/          /'
	grep '^FAIL' "$tmp/out.$mode" | sed 's/^/          /'
done
for mode in 0 1; do
	label=$([ $mode = 0 ] && echo before || echo after)
	awk -v b="${cpu_b[$mode]}" -v v="${cpu_v[$mode]}" -v n="$ntests" -v k="$nk" -v all="$nall" -v l="$label" 'BEGIN {
		pb = b / (n * k); pv = v / (n * k)
		printf "%-7s per test and kernel: builds %.2f s CPU, VM %.2f s CPU; whole run/ group on 3 kernels: %.0f min CPU (builds %.0f, VM %.0f)\n",
			l, pb, pv, (pb + pv) * all * 3 / 60, pb * all * 3 / 60, pv * all * 3 / 60 }'
done
