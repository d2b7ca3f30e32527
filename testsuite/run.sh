#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The test runner behind `make check`.  Groups:
#   parseok/ parseko/   scripts stap -p1 must accept / reject
#   semok/ semko/       scripts stap -p2 must accept / reject
#   cli/                command-line behaviour (*.sh, each a test)
#   unit/               unit-test programs (*_test) built by make check
#   fuzz/replay         builds fuzz/'s libFuzzer harnesses (passes 1-2 and
#                       1-3, ASan + UBSan) and replays the test scripts and
#                       fuzz/regressions/ through them once (make -C fuzz
#                       check); skipped without clang's libFuzzer
#   run/                scripts run in a VM on every provisioned kernel;
#                       NAME.stp with NAME.out (exact stdout), optional
#                       NAME.err (exact stderr), NAME.rc (exit status),
#                       NAME.args (extra stap options, split like shell
#                       words; -c CMD and -x PID go to staprun, @RUN@ is
#                       the run/ directory, @WORKLOAD@ the workload
#                       program (testsuite/workload.c), @UPROG@ the
#                       user-space probe program (testsuite/uprog.c;
#                       also in NAME.argv), @STAPMERGE@ stap-merge, @UBT@ the user-backtrace
#                       program (testsuite/ubt.c; ubt-stripped next to
#                       it; NAME.out says @TESTSUITE@ for the directory
#                       they are in), @UPID@ the process(PID) tests'
#                       program (testsuite/upid.c; started with
#                       --vm-spawn "PID:@UPID@ N", which also stays in
#                       the build's options), @UPLIB@ the .library
#                       tests' program (testsuite/uplib.c, which runs
#                       uplib2 too) and @ULIB@ their shared library
#                       (testsuite/libulib.so), @SYS32@ the 32-bit
#                       system call program (testsuite/sys32.c, i386;
#                       skipped where -m32 cannot build it), @KMOD@ the test
#                       module testsuite/kmod/ built for the kernel under
#                       test; --vm-insmod KO (NAME.ko or .ko.xz) loads KO first;
#                       @RELEASE@ the kernel under test; a KO that is
#                       missing skips the test),
#                       optional NAME.stdin (staprun's stdin, for input.*
#                       probes; /dev/null otherwise)
#   A run/ test's NAME.args may also hold --default-limits, a word for
#   this runner: it keeps the default MAXTRYLOCK and overload protection,
#   raised and off otherwise (see build_one); and --vm-file FILE, another
#   runner word: FILE (a program the -c command execs) is copied into
#   the VM too.
#   Every run/ test's stderr is checked: NAME.err, or else it must be
#   empty; a test with a non-zero NAME.rc must have a NAME.err.
# parseok/: NAME.p1 is the exact expected -p1 output (the canonical form,
#   which must also be a fixed point); every parseok test has one.
# parseko/ semko/: NAME.err is the exact expected stderr; every test has one.
# semok/: an optional NAME.p2 is the exact expected -p2 output (@SRC@ for
#   the script's path), for tests whose elaboration is the point (types,
#   locals, resolved probes); add one only where that output is fixed by
#   the script, not by the kernel or the tapsets' contents.
# All pass groups: NAME.args holds extra stap options (@RUN@ is run/).
# In every NAME.err, @SRC@ stands for the script's path, @RUN@ for run/,
# @TESTSUITE@ for testsuite/ and
# @TAPSET@ for the tapset directory (errors in tapset functions name it).
# In a run/ test's NAME.err and NAME.out, @NUM@ matches any decimal number
#   (figures that vary from run to run, such as cycle counts).
# Ends with "N passed, N failed, N skipped".
#
# run/ modules: each test's `stap -p4 --kbuild-defer` translates it, and
#   one kbuild per kernel (`stap --kbuild-batch`) builds them all; a test
#   that batch did not build is built again by a plain `stap -p4`, whose
#   error the test reports.  The first kernel's modules build while the
#   other groups run, each next kernel's while the VM runs the previous
#   one's.  One VM boot a kernel runs its tests, in two lanes: two
#   kernels' VMs at once (run_vm_group).  A line "== R: builds ... VM
#   ..." gives each phase's CPU and wall seconds.
#
# Environment: TESTS=glob (only matching test names), KERNELS="r1 r2"
# (default: every provisioned kernel), KEEP=1 (keep the work directory),
# KBUILD_BATCH=0 (one kbuild per run/ test, each kernel's builds after the
# previous kernel's VM run: the runner before the batch, for
# bench/check_time.sh), VM_LANES=1 (one kernel's VM at a time).
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
stap="$top/stap"
suite="$top/testsuite"
work=$(mktemp -d "${TMPDIR:-/tmp}/stap-check.XXXXXX")
pass=0 fail=0 skip=0
failed_names=()
export NO_COLOR=1
# The module cache (translator/cache.c): the suite's own, not the user's.
export SYSTEMTAP_DIR="$work/systemtap"

ok()   { pass=$((pass + 1)); echo "PASS: $1"; }
bad()  { fail=$((fail + 1)); failed_names+=("$1"); echo "FAIL: $1"; [ -n "${2:-}" ] && sed 's/^/    /' <<<"$2"; }
skipped() { skip=$((skip + 1)); echo "SKIP: $1 ($2)"; }
selected() { [[ -z "${TESTS:-}" || "$1" == $TESTS ]]; }

# Expected stderr may mention the script's path: @SRC@ stands for it.
expect_file() {
	sed -e "s|@SRC@|$2|g" -e "s|@RUN@|$suite/run|g" -e "s|@TESTSUITE@|$suite|g" \
	    -e "s|@TAPSET@|${SYSTEMTAP_TAPSET:-$top/tapsets}|g" "$1"
}

# Does stderr file $2 match the expected text in file $1 (@NUM@: a number)?
err_matches() {
	local e g re
	grep -qF '@NUM@' "$1" || { cmp -s "$1" "$2"; return; }
	[ "$(wc -l <"$1")" = "$(wc -l <"$2")" ] || return 1
	while IFS= read -r e <&3 && IFS= read -r g <&4; do
		re=$(printf '%s' "$e" | sed -e 's/[][\\.*^$+?(){}|]/\\&/g' -e 's/@NUM@/[0-9]+/g')
		[[ $g =~ ^$re$ ]] || return 1
	done 3<"$1" 4<"$2"
}
# A run/ test's expected stdout: NAME.out with @TESTSUITE@ replaced.
expect_out() { sed -e "s|@TESTSUITE@|$top/testsuite|g" "${1%.stp}.out"; }

run_pass_group() {	# dir pass want(ok|ko)
	local dir=$1 p=$2 want=$3 f name out err rc
	for f in "$suite/$dir"/*.stp; do
		[ -e "$f" ] || continue
		name="$dir/$(basename "$f" .stp)"
		selected "$name" || continue
		local args=()
		[ -f "${f%.stp}.args" ] && eval "args=($(sed "s|@RUN@|$suite/run|g" "${f%.stp}.args"))"
		out=$("$stap" -p"$p" "${args[@]}" "$f" 2>"$work/err"); rc=$?
		err=$(cat "$work/err")
		if [ "$want" = ok ]; then
			if [ $rc -ne 0 ]; then bad "$name" "exit $rc: $err"; continue; fi
			if [ -n "$err" ]; then bad "$name" "unexpected stderr: $err"; continue; fi
			if [ "$p" = 1 ]; then
				# The canonical form is written down: a printer that
				# garbles an operator the same way twice is still caught.
				if [ ! -f "${f%.stp}.p1" ]; then bad "$name" "no ${f%.stp}.p1 (the expected -p1 output)"; continue; fi
				if ! diff -q "${f%.stp}.p1" <(printf '%s\n' "$out") >/dev/null; then
					bad "$name" "-p1 output differs from $name.p1:
$(diff "${f%.stp}.p1" <(printf '%s\n' "$out") | head -20)"
					continue
				fi
				# ... and must be a fixed point.
				printf '%s\n' "$out" >"$work/re.stp"
				local again; again=$("$stap" -p1 "${args[@]}" "$work/re.stp" 2>&1)
				if [ "$again" != "$out" ]; then
					bad "$name" "re-parsing -p1 output differs: $(diff <(echo "$out") <(echo "$again") | head -20)"
					continue
				fi
			elif [ -f "${f%.stp}.p2" ]; then
				local want2; want2=$(expect_file "${f%.stp}.p2" "$f")
				if [ "$want2" != "$out" ]; then
					bad "$name" "-p2 output differs from $name.p2:
$(diff <(echo "$want2") <(echo "$out") | head -20)"
					continue
				fi
			fi
			ok "$name"
		else
			if [ $rc -ne 1 ]; then bad "$name" "expected exit 1, got $rc: $err"; continue; fi
			if [ -z "$err" ]; then bad "$name" "no diagnostic printed"; continue; fi
			# Any error would do otherwise: the script must fail for
			# the reason it was written for, with that message.
			if [ ! -f "${f%.stp}.err" ]; then bad "$name" "no ${f%.stp}.err (the expected diagnostic); got: $err"; continue; fi
			local exp; exp=$(expect_file "${f%.stp}.err" "$f")
			if [ "$exp" != "$err" ]; then
				bad "$name" "stderr differs:
$(diff <(echo "$exp") <(echo "$err"))"
				continue
			fi
			ok "$name"
		fi
	done
}

run_cli() {
	local f name out
	for f in "$suite/cli"/*.sh; do
		[ -e "$f" ] || continue
		name="cli/$(basename "$f" .sh)"
		[ "$name" = cli/lib ] && continue	# sourced by the others
		selected "$name" || continue
		# Each test's CPU and wall seconds, for the group's line below.
		# STAP_VM_BOOT=vmlinux: their VMs boot the uncompressed vmlinux
		# (translator/vm.c), 3 s of CPU less a boot on 6.1, and the group
		# boots some 60 times; run/'s batches keep KASLR's layout.
		{ time { out=$(cd "$work" && STAP="$stap" TOP="$top" STAP_VM_BOOT=vmlinux bash "$f" 2>&1); rc=$?; }; } 2>"$work/t"
		echo "$name $(tail -1 "$work/t")" >>"$work/cli-times"
		case $rc in
		0) ok "$name" ;;
		77) skipped "$name" "$(tail -1 <<<"$out")" ;;
		*) bad "$name" "$out" ;;
		esac
	done
	group_time cli
}

# "== GROUP: N tests, U+S s CPU (user+sys), R s wall" and the slowest eight
# (by CPU) from $work/GROUP-times (NAME USER SYS WALL a line): where make
# check's time goes, in CI's log too.
group_time() {
	[ -s "$work/$1-times" ] || return 0
	awk -v g="$1" '{ u += $2; s += $3; w += $4; n++ }
		END { printf "== %s: %d tests, %.0f+%.0f s CPU (user+sys), %.0f s wall; slowest:", g, n, u, s, w }' "$work/$1-times"
	sort -k5 -rn <(awk '{ print $0, $2 + $3 }' "$work/$1-times") | head -8 |
		awk '{ printf " %s %.0f/%.0f", $1, $5, $4 } END { print " (CPU/wall s)" }'
}

# unit/NAME_test: programs make check builds; exit 0 passes, 77 skips.
run_unit() {
	local f name out rc
	for f in "$suite/unit"/*_test; do
		[ -x "$f" ] || continue
		name="unit/$(basename "$f")"
		selected "$name" || continue
		out=$(cd "$work" && "$f" 2>&1); rc=$?
		case $rc in
		0) ok "$name" ;;
		77) skipped "$name" "$(tail -1 <<<"$out")" ;;
		*) bad "$name" "$(tail -40 <<<"$out")" ;;
		esac
	done
}

provisioned_kernels() {
	local r
	for d in /lib/modules/*/build/Makefile; do
		[ -e "$d" ] || continue
		r=${d#/lib/modules/}; r=${r%/build/Makefile}
		[ -e "/boot/vmlinuz-$r" ] && echo "$r"
	done
}

# NAME.args (or another of its files, $3) with its @WORDS@ replaced, on stdout.
expand_args() {	# script kmod [file]
	sed -e "s|@RUN@|$(dirname "$1")|g" -e "s|@WORKLOAD@|$top/testsuite/workload|g" \
	    -e "s|@UPROG@|$top/testsuite/uprog|g" -e "s|@UBT@|$top/testsuite/ubt|g" \
	    -e "s|@UPID@|$top/testsuite/upid|g" -e "s|@UPLIB@|$top/testsuite/uplib|g" \
	    -e "s|@STAPMERGE@|$top/staprun/stap-merge|g" \
	    -e "s|@ULIB@|$top/testsuite/libulib.so|g" -e "s|@SYS32@|$top/testsuite/sys32|g" \
	    -e "s|@KMOD@|$2|g" -e "s|@RELEASE@|${TEST_RELEASE:-}|g" "${3:-${1%.stp}.args}"
}

build_one() {	# script release dir kmod [defer]
	# The VM's CPUs are host threads that the (shared) host can stop for
	# tens of milliseconds, also while one holds a global's lock; with the
	# default MAXTRYLOCK (1000 waits of TRYLOCKDELAY 10 us) a probe on the
	# other CPU may give up, and its "skipped probes" warning would make
	# stderr differ at random: wait up to 1 s.  For the same reason the
	# overload check is off: under TCG the guest's cycle counter runs on
	# while the host has the CPU's thread stopped, so a short begin probe
	# may seem to take more than STP_OVERLOAD_THRESHOLD cycles.  A test
	# whose NAME.args has --default-limits (a word for this runner only)
	# keeps the defaults.  -DSTP_CHECK_IRQS: a handler that turns
	# interrupts back on warns (runtime/context.c), which fails the
	# kernel-log check; in the same set, so it costs no runtime build.
	local f=$1 r=$2 dir=$3 name words=() args=() lockwait=(-DMAXTRYLOCK=100000 -DSTP_NO_OVERLOAD -DSTP_CHECK_IRQS) i
	name=$(basename "$f" .stp)
	[ -f "${f%.stp}.args" ] && eval "words=($(expand_args "$f" "$4"))"
	# Pass-5 options (-c -x -s -S -o -G) are not part of the module: stap --vm-batch hands
	# NAME.staprun-args (one argument a line) to the job's staprun, and
	# loads the modules in NAME.insmod first.  --vm-insmod also stays in
	# the build's options: module("NAME") probes find NAME's DWARF there.
	for ((i = 0; i < ${#words[@]}; i++)); do
		case ${words[i]} in
		-c|-x|-S|-o|-G) printf '%s\n%s\n' "${words[i]}" "${words[i+1]}" >>"$dir/t_$name.staprun-args"; i=$((i + 1)) ;;
		-s) printf -- '-b\n%s\n' "${words[i+1]}" >>"$dir/t_$name.staprun-args"; i=$((i + 1)) ;;	# staprun(8)'s letter
		--vm-insmod)
			# A module this kernel lacks (a distribution module's debug
			# copy bootstrap.sh did not extract, say): skip, saying why.
			# The test module's failure to build is the test's failure.
			if [ ! -e "${words[i+1]}" ] && [ "${words[i+1]}" != "$4" ]; then
				local why="${words[i+1]} missing"
				[[ ${words[i+1]} == /usr/lib/debug/* ]] && why+=": run ./bootstrap.sh as root"
				echo "$why" >"$dir/t_$name.skip"
				return
			fi
			echo "${words[i+1]}" >>"$dir/t_$name.insmod"; args+=("${words[i]}" "${words[i+1]}"); i=$((i + 1)) ;;
		--vm-file) echo "${words[i+1]}" >>"$dir/t_$name.files"; i=$((i + 1)) ;;
		--vm-spawn) echo "${words[i+1]}" >"$dir/t_$name.spawn"; args+=("${words[i]}" "${words[i+1]}"); i=$((i + 1)) ;;
		--default-limits) lockwait=() ;;
		*) args+=("${words[i]}") ;;
		esac
	done
	args=("${lockwait[@]}" "${args[@]}")
	[ -f "${f%.stp}.stdin" ] && cp "${f%.stp}.stdin" "$dir/t_$name.stdin"
	# NAME.argv: the script's own arguments ($1, @2, ...), as shell words.
	local argv=()
	[ -f "${f%.stp}.argv" ] && eval "argv=($(expand_args "$f" "$4" "${f%.stp}.argv"))"
	# defer: stap leaves the build directory in kb/ for build_kernel's one kbuild.
	local defer=(); [ -n "${5:-}" ] && defer=(--kbuild-defer "$dir/kb")
	(cd "$dir" && "$stap" -p4 "${defer[@]}" -r "$r" -m "t_$name" "${args[@]}" "$f" "${argv[@]}" >/dev/null 2>"$dir/t_$name.build-err") ||
		echo "build failed" >"$dir/t_$name.build-failed"
}
export -f build_one expand_args
export stap top

# Build run/ tests $4... (and the test module if $3 is 1) for kernel $1
# into directory $2.  Each test's stap -p4 --kbuild-defer translates and
# leaves its build directory in kb/; one kbuild then builds them all (see
# translator/build.c).  A test that batch did not build is built again by
# its own plain stap -p4, whose error message the test reports.
build_kernel() {	# release dir kmod_tests test...
	local r=$1 dir=$2 kmod=/nonexistent/stp_test.ko f name rest=()
	shift 2
	if [ "$1" = 1 ]; then
		kmod=$("$suite/kmod/build.sh" "$r" 2>"$dir/kmod-err") || kmod=/nonexistent/stp_test.ko
	fi
	shift
	export TEST_RELEASE=$r
	if [ "${KBUILD_BATCH:-1}" = 0 ]; then
		printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'build_one "$1" "$2" "$3" "$4"' _ {} "$r" "$dir" "$kmod"
		return
	fi
	mkdir -p "$dir/kb"
	printf '%s\n' "$@" | xargs -P 2 -I{} bash -c 'build_one "$1" "$2" "$3" "$4" defer' _ {} "$r" "$dir" "$kmod"
	(cd "$dir" && "$stap" -r "$r" --kbuild-batch "$dir/kb" >/dev/null 2>"$dir/kbuild-batch-err")
	for f in "$@"; do
		name=t_$(basename "$f" .stp)
		[ -e "$dir/$name.ko" ] || [ -e "$dir/$name.skip" ] || [ -e "$dir/$name.build-failed" ] && continue
		# build_one appends to these: start them afresh.
		rm -f "$dir/$name".{staprun-args,insmod,files,spawn,stdin}
		rest+=("$f")
	done
	[ ${#rest[@]} -gt 0 ] && printf '%s\n' "${rest[@]}" |
		xargs -P 2 -I{} bash -c 'build_one "$1" "$2" "$3" "$4"' _ {} "$r" "$dir" "$kmod"
	rm -rf "$dir/kb"
}

# Does run/ test $1 use @WORD@ $2 in its NAME.args?
uses() { cat "${1%.stp}.args" "${1%.stp}.argv" 2>/dev/null | grep -qF "@$2@"; }

# vm_select: the run/ tests selected (vm_tests), whether one uses @KMOD@,
# the kernels, and the tests skipped with why (printed by run_vm_group).
vm_tests=() vm_kmod=0 vm_kernels=() vm_skips=() vm_bpid=
vm_select() {
	local f kernels
	for f in "$suite/run"/*.stp; do
		[ -e "$f" ] || continue
		selected "run/$(basename "$f" .stp)" || continue
		# make check builds the test programs; a bare run.sh may not have.
		# @WORD@ a test uses, and the file it needs under testsuite/.
		local need missing=
		for need in WORKLOAD:workload UPROG:uprog UPID:upid UPLIB:uplib ULIB:libulib.so \
			    UBT:ubt-stripped SYS32:sys32; do
			if uses "$f" "${need%%:*}" && [ ! -e "$top/testsuite/${need#*:}" ]; then
				missing=testsuite/${need#*:}
				break
			fi
		done
		if [ -n "$missing" ]; then
			vm_skips+=("run/$(basename "$f" .stp)|$missing is not built: run make check (or make $missing)")
			continue
		fi
		uses "$f" KMOD && vm_kmod=1
		vm_tests+=("$f")
	done
	[ ${#vm_tests[@]} -gt 0 ] || return
	kernels=${KERNELS:-$(provisioned_kernels)}
	local why=
	[ -z "$kernels" ] && why="no provisioned kernel: run ./bootstrap.sh"
	command -v qemu-system-x86_64 >/dev/null || why="qemu-system-x86_64 missing: run ./bootstrap.sh"
	if [ -n "$why" ]; then
		for f in "${vm_tests[@]}"; do vm_skips+=("run/$(basename "$f" .stp)|$why"); done
		vm_tests=()
		return
	fi
	vm_kernels=($kernels)
}

# The modules build in the background, one kernel after another, from
# the start: while the other groups run (one program at a time, which
# leaves a core idle) and while the VMs run (a VM is often idle too,
# waiting on a test's timer or its workload).  A kernel's VM starts once
# its modules are built (DIR/built) and the groups before it are done.
# KBUILD_BATCH=0: one kbuild per test, and each kernel's builds after the
# previous VM, as before.  Each phase's CPU (user, system) and wall
# seconds go to build-time and vm-time, and a line after the kernel's
# results (bench/check_time.sh reads it).
TIMEFORMAT='%U %S %R'
vm_build_all() {
	local r
	vm_bpid=
	[ ${#vm_kernels[@]} -gt 0 ] && [ "${KBUILD_BATCH:-1}" != 0 ] || return
	for r in "${vm_kernels[@]}"; do
		mkdir -p "$work/vm-$r"
		echo "== building ${#vm_tests[@]} modules for $r (in the background)"
	done
	(
		for r in "${vm_kernels[@]}"; do
			{ time build_kernel "$r" "$work/vm-$r" $vm_kmod "${vm_tests[@]}"; } 2>"$work/vm-$r/build-time"
			touch "$work/vm-$r/built"
		done
		# Reaped only by run_vm_group's wait at its end: bash reaps a
		# child that ends whenever it waits for any, and adds its CPU
		# to what it is timing then (the cli test running when the
		# last build ended showed all three kernels' builds).
		while [ ! -e "$work/builds-reaped" ] && kill -0 $$ 2>/dev/null; do sleep 1; done
	) & vm_bpid=$!
}

# vm_run_kernel K: kernel K's modules (built in the background, or here
# if those builds died or KBUILD_BATCH=0), run in one VM boot in
# DIR/vm/; DIR/vm-done when it has ended.  Its own subshell's time is
# its VM's, not a build reaped meanwhile.
vm_run_kernel() {
	local r=${vm_kernels[$1]} f n
	local dir=$work/vm-$r vdir=$work/vm-$r/vm
	while [ -n "$vm_bpid" ] && [ ! -e "$dir/built" ] && kill -0 "$vm_bpid" 2>/dev/null; do
		sleep 1
	done
	if [ ! -e "$dir/built" ]; then
		mkdir -p "$dir"
		echo "== building ${#vm_tests[@]} modules for $r"
		{ time build_kernel "$r" "$dir" $vm_kmod "${vm_tests[@]}"; } 2>"$dir/build-time"
	fi
	mkdir -p "$vdir"
	for f in "${vm_tests[@]}"; do mv "$dir/t_$(basename "$f" .stp)".* "$vdir/" 2>/dev/null; done
	echo "== running them in a VM of $r"
	n=$(ls "$vdir" | grep -c '\.ko$')
	touch "$work/vm-started"
	( time { "$stap" -r "$r" --vm-batch "$vdir" --vm-timeout=$((60 + 10 * n)) 2>"$vdir/vm-err"
		 echo $? >"$vdir/vm-rc"; } ) 2>"$dir/vm-time"
	touch "$dir/vm-done"
}

# vm_report_kernel K: kernel K's verdicts, once its VM run has ended.
vm_report_kernel() {
	local r=${vm_kernels[$1]} f name vmrc
	local dir=$work/vm-$r vdir=$work/vm-$r/vm
	vmrc=$(cat "$vdir/vm-rc" 2>/dev/null || echo 1)
	for f in "${vm_tests[@]}"; do
		name=$(basename "$f" .stp)
		local t="run/$name@$r" base="$vdir/t_$name"
		if [ -f "$base.skip" ]; then skipped "$t" "$(cat "$base.skip")"; continue; fi
		if uses "$f" KMOD && [ -s "$dir/kmod-err" ]; then bad "$t" "the test module did not build: $(head -20 "$dir/kmod-err")"; continue; fi
		if [ -f "$base.build-failed" ]; then bad "$t" "build failed: $(cat "$base.build-err")"; continue; fi
		if [ -f "$base.crashed" ]; then bad "$t" "the guest kernel died during this test (the tests after it ran in a new boot):
$(head -40 "$vdir/kernel-problem")"; continue; fi
		if [ -f "$base.hung" ]; then bad "$t" "this test was still running after the VM runner's limit, in two boots (the tests after it ran in a new boot):
$(head -40 "$vdir/kernel-problem")"; continue; fi
		if [ "$vmrc" != 0 ] || [ ! -f "$base.rc" ]; then bad "$t" "VM run failed (stap exit status $vmrc): $(cat "$vdir/vm-err")"; continue; fi
		local want_rc=0; [ -f "${f%.stp}.rc" ] && want_rc=$(cat "${f%.stp}.rc")
		local got_rc; got_rc=$(cat "$base.rc")
		expect_out "$f" >"$dir/expected-out"
		if ! err_matches "$dir/expected-out" "$base.out"; then
			bad "$t" "stdout differs:
$(diff <(expect_out "$f") "$base.out" | head -20)
stderr: $(head -5 "$base.err")"; continue
		fi
		# stderr is always checked: NAME.err, or else nothing at all.
		if [ "$want_rc" != 0 ] && [ ! -f "${f%.stp}.err" ]; then
			bad "$t" "exit status $want_rc expected but no ${f%.stp}.err says why; stderr: $(head -5 "$base.err")"; continue
		fi
		if [ -f "${f%.stp}.err" ]; then
			expect_file "${f%.stp}.err" "$f" >"$dir/expected-err"
			if ! err_matches "$dir/expected-err" "$base.err"; then
				bad "$t" "stderr differs:
$(diff <(expect_file "${f%.stp}.err" "$f") "$base.err" | head -20)"; continue
			fi
		elif [ -s "$base.err" ]; then
			bad "$t" "unexpected stderr (add ${f%.stp}.err if it is right):
$(head -20 "$base.err")"; continue
		fi
		if [ "$got_rc" != "$want_rc" ]; then bad "$t" "exit status $got_rc, expected $want_rc; stderr: $(head -5 "$base.err")"; continue; fi
		ok "$t"
	done
	local bt vt; read -r -a bt < <(tail -1 "$dir/build-time"); read -r -a vt < <(tail -1 "$dir/vm-time")
	echo "== $r: builds ${bt[0]:-?}+${bt[1]:-?} s CPU (user+sys), ${bt[2]:-?} s wall; VM ${vt[0]:-?}+${vt[1]:-?} s CPU, ${vt[2]:-?} s wall"
	if [ -f "$vdir/emulator-problem" ]; then
		echo "note: on $r the guest kernel died of an int3 just past an ftrace call site, or hung with a vCPU looping on one: the emulator's text-patching race (translator/vm.c); the test it stopped passed in a new boot:"
		head -30 "$vdir/emulator-problem" | sed 's/^/note:   /'
	fi
	if [ -f "$vdir/kernel-problem" ]; then
		bad "kernel-log@$r" "$(head -40 "$vdir/kernel-problem")"
	elif [ "$vmrc" = 0 ]; then
		ok "kernel-log@$r"
	fi
}

# Two lanes of VMs: the even kernels' in one, as soon as each kernel's
# modules are built; the odd kernels' and then fuzz in the other, once
# every kernel's modules are built (two VMs beside a build on two cores
# made timing-sensitive output tests fail: run/big_output) and 20 s
# after the last VM started, so that two guests do not boot at once.
# A VM leaves a core mostly idle (a test's timer, its workload): one
# after another, the three kernels' VMs took 530 s with one core idle.
# The verdicts come in kernel order.  VM_LANES=1: one lane, fuzz beside
# it.
vm_lane2() {
	local k r
	for r in "${vm_kernels[@]}"; do
		while [ ! -e "$work/vm-$r/built" ] && kill -0 "$vm_bpid" 2>/dev/null; do sleep 1; done
	done
	while [ ! -e "$work/vm-started" ] ||
	      [ $(($(date +%s) - $(stat -c %Y "$work/vm-started"))) -lt 20 ]; do
		sleep 1
	done
	for ((k = 1; k < ${#vm_kernels[@]}; k += 2)); do vm_run_kernel $k; done
	if [ -n "$vm_fuzz" ]; then { time run_fuzz 1; } 2>"$work/fuzz-time"; fi
}

vm_lanes() {
	[ "${VM_LANES:-2}" = 2 ] && [ ${#vm_kernels[@]} -ge 2 ] && [ -n "$vm_bpid" ]
}

run_vm_group() {
	local s k lane1 lane2=
	for s in "${vm_skips[@]}"; do skipped "${s%%|*}" "${s#*|}"; done
	[ ${#vm_tests[@]} -gt 0 ] || return
	if vm_lanes; then
		vm_lane2 & lane2=$!
		[ -z "$vm_fuzz" ] || fuzz_pid=$lane2
		( for ((k = 0; k < ${#vm_kernels[@]}; k += 2)); do vm_run_kernel $k; done ) & lane1=$!
		for ((k = 0; k < ${#vm_kernels[@]}; k++)); do
			while [ ! -e "$work/vm-${vm_kernels[k]}/vm-done" ] &&
			      { kill -0 $lane1 || kill -0 $lane2; } 2>/dev/null; do
				sleep 1
			done
			vm_report_kernel $k
		done
		wait $lane1
		[ -n "$vm_fuzz" ] || wait $lane2
	else
		for ((k = 0; k < ${#vm_kernels[@]}; k++)); do
			vm_run_kernel $k
			vm_report_kernel $k
		done
	fi
	[ -z "$vm_bpid" ] || { touch "$work/builds-reaped"; wait "$vm_bpid"; }
}

# The fuzz harnesses only rot when nothing builds them: build and replay.
# Their verdict goes to $work/fuzz-verdict (ok, or skip/bad and why).
run_fuzz() {
	printf 'int LLVMFuzzerTestOneInput(const char *d, unsigned long n) { return 0; }\n' >"$work/fz.c"
	if ! clang -fsanitize=fuzzer,address,undefined -o "$work/fz" "$work/fz.c" >/dev/null 2>&1; then
		printf 'skip\nclang with libFuzzer missing: apt-get install clang\n' >"$work/fuzz-verdict"
	elif make -C "$top/fuzz" -j"$1" check >"$work/fuzz.log" 2>&1; then
		echo ok >"$work/fuzz-verdict"
	else
		{ echo bad; grep -E -A3 'error|ERROR|SUMMARY|round trip' "$work/fuzz.log" | head -30; } >"$work/fuzz-verdict"
	fi
}

# With run/ tests selected, fuzz builds beside the VMs, one job at a time
# (in the second lane, after its VMs): a VM leaves a core mostly idle,
# and fuzz then costs make check no wall time of its own.  Alone, it
# runs at once, two jobs.
fuzz_pid= vm_fuzz=
fuzz_start() {
	selected fuzz/replay || return 0
	if [ ${#vm_tests[@]} -gt 0 ] && [ ${#vm_kernels[@]} -gt 0 ]; then
		if vm_lanes; then
			vm_fuzz=1	# in the second lane, after its VMs
		else
			( { time run_fuzz 1; } 2>"$work/fuzz-time" ) & fuzz_pid=$!
		fi
	else
		{ time run_fuzz 2; } 2>"$work/fuzz-time"
	fi
}
fuzz_report() {
	selected fuzz/replay || return 0
	[ -z "$fuzz_pid" ] || wait "$fuzz_pid"
	local t v; read -r -a t < <(tail -1 "$work/fuzz-time")
	echo "== fuzz: ${t[0]:-?}+${t[1]:-?} s CPU (user+sys), ${t[2]:-?} s wall${fuzz_pid:+ (beside the VMs)}"
	v=$(head -1 "$work/fuzz-verdict" 2>/dev/null || echo bad)
	case $v in
	ok) ok fuzz/replay ;;
	skip) skipped fuzz/replay "$(tail -n +2 "$work/fuzz-verdict")" ;;
	*) bad fuzz/replay "$(tail -n +2 "$work/fuzz-verdict" 2>/dev/null || echo 'no verdict')" ;;
	esac
}

[ -x "$stap" ] || { echo "stap is not built: run make"; echo "0 passed, 1 failed"; exit 1; }
vm_select
vm_build_all
# timed LABEL COMMAND...: runs it in this shell, then "== LABEL: U+S s CPU
# (user+sys), R s wall" (the CPU of what it waited for: not the builds).
timed() {
	local label=$1 t
	shift
	{ time "$@"; } 2>"$work/timed"
	head -n -1 "$work/timed" >&2
	read -r -a t < <(tail -1 "$work/timed")
	echo "== $label: ${t[0]}+${t[1]} s CPU (user+sys), ${t[2]} s wall"
}
passes() {
	run_pass_group parseok 1 ok
	run_pass_group parseko 1 ko
	run_pass_group semok 2 ok
	run_pass_group semko 2 ko
}
timed "parse and sem groups" passes
run_cli
timed unit run_unit
fuzz_start
run_vm_group
fuzz_report

if [ -n "${KEEP:-}" ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
if [ $fail -gt 0 ]; then echo "failed: ${failed_names[*]}"; fi
echo "$pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
