#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# refdiff: run testsuite/run/ scripts through SystemTap 4.8 (the reference,
# ../shared/tools/reference-stap, in a 6.1 VM) and through ours (stap --vm on
# the same kernel, in one VM boot through testsuite/run.sh), and list every
# difference in stdout, run-time stderr and exit status (build warnings are
# left out on both sides: the reference prints its build log only when the
# build fails).  Not part of make check: the reference is a large optional install
# and takes about half a minute a script.
#
#   scripts/refdiff.sh [-j N] [-k RELEASE] [-o DIR] [NAME|FILE.stp ...]
#
# With no names, every run/ script.  NAME.args and NAME.argv are honoured as
# by the test runner: -c CMD goes to both (to the reference through a
# script that execs it when CMD has a single quote), the programs of
# ours it names (@WORKLOAD@, @UPROG@, @UBT@) are copied into the
# reference's VM.  Scripts that need what the reference's VM cannot do
# (--vm-insmod of the test module, -x PID, staprun's -o and -S) are listed
# as not compared, with the reason, and so are those the test runner skips
# for us.  Reference results are cached by content (script, arguments and
# programs) under ~/.cache/stap-ng/refdiff, so a second run only re-runs ours.
#
# Prints, per script, "same", "DIFF" (with a unified diff) or "skip: why";
# then "N same, N differ, N not compared".  Exits 1 when something differs.
# -o DIR keeps NAME.ref and NAME.ours (stdout, 'stderr: ' lines, rc=N).
# Normalisation: "at FILE:LINE:COL" in either tapset library becomes "at
# TAPSET"; the reference's "dmesg:" lines are dropped when it printed none
# of ours (both runners report kernel problems).  Scripts SystemTap 4.8
# will not build are listed as not compared, with its first error.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
# ../shared from the main checkout, ../../shared from a worktree in ../wt.
ref=${REFERENCE_STAP:-$top/../shared/tools/reference-stap}
[ -n "${REFERENCE_STAP:-}" ] || [ -x "$ref" ] || ref=$top/../../shared/tools/reference-stap
jobs=2 rel= keep=
while getopts "j:k:o:" o; do
	case $o in
	j) jobs=$OPTARG ;;
	k) rel=$OPTARG ;;
	o) keep=$OPTARG ;;
	*) sed -n '2,30p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -x "$ref" ] || { echo "refdiff: no reference at $ref (set REFERENCE_STAP)" >&2; exit 2; }
[ -x "$top/stap" ] || { echo "refdiff: stap is not built: run make" >&2; exit 2; }
if [ -z "$rel" ]; then
	rel=$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sed 's#/lib/modules/##; s#/build##' | grep -v -- -rt- | sort -V | tail -1)
	[ -n "$rel" ] || { echo "refdiff: no 6.1 kernel with headers (run ./bootstrap.sh)" >&2; exit 2; }
fi
# The programs run/ tests start (make check builds them; run.sh skips a
# test whose program is missing).
make -C "$top" testsuite/workload testsuite/uprog testsuite/ubt testsuite/ubt-stripped >/dev/null ||
	{ echo "refdiff: cannot build the test programs (testsuite/workload, uprog, ubt)" >&2; exit 2; }

scripts=()
if [ $# -eq 0 ]; then
	scripts=("$top"/testsuite/run/*.stp)
else
	for a; do
		case $a in
		*.stp) scripts+=("$(readlink -f "$a")") ;;
		*) scripts+=("$top/testsuite/run/$a.stp") ;;
		esac
	done
fi

cache=${XDG_CACHE_HOME:-$HOME/.cache}/stap-ng/refdiff
work=$(mktemp -d "${TMPDIR:-/tmp}/refdiff.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$cache" ${keep:+"$keep"}

# Paths of this checkout, as the run tests' @WORDS@.
normalise() {
	sed -e "s|$top/testsuite/workload|@WORKLOAD@|g" -e "s|$top/testsuite/run/|@RUN@/|g"
}

# Locations in tapset files differ necessarily (our tapsets are our own):
# "at FILE:LINE:COL" of either library becomes "at TAPSET".
untapset() {
	sed -E -e "s#at /usr/share/systemtap/tapset/[^ ]*:[0-9]+:[0-9]+#at TAPSET#g" \
	       -e "s#at $top/tapsets/[^ ]*:[0-9]+:[0-9]+#at TAPSET#g"
}

# A test's NAME.args or NAME.argv with the runner's @WORDS@ replaced.
words() {	# script file
	sed -e "s|@RUN@|$(dirname "$1")|g" -e "s|@WORKLOAD@|$top/testsuite/workload|g" \
	    -e "s|@UPROG@|$top/testsuite/uprog|g" -e "s|@UBT@|$top/testsuite/ubt|g" \
	    -e "s|@STAPMERGE@|$top/staprun/stap-merge|g" "$2"
}

# One script: writes $work/NAME.{ref,status}.
one() {
	local f=$1 name words=() argv=() refargs=() stapargs=() progs=() i cmd= key w
	name=$(basename "$f" .stp)
	if [ -f "${f%.stp}.args" ]; then
		eval "words=($(words "$f" "${f%.stp}.args"))"
	fi
	[ -f "${f%.stp}.argv" ] && eval "argv=($(words "$f" "${f%.stp}.argv"))"
	for ((i = 0; i < ${#words[@]}; i++)); do
		case ${words[i]} in
		--vm-insmod|--vm-insmod=*)
			echo "skip: loads the test module first (the reference's VM cannot)" >"$work/$name.status"; return ;;
		-x)
			echo "skip: -x PID (the reference builds with -p4, then runs staprun alone)" >"$work/$name.status"; return ;;
		-o|-o?*|-S|-S?*)
			echo "skip: ${words[i]}: reference-stap runs staprun with no output file options" >"$work/$name.status"; return ;;
		-c) cmd=${words[i+1]}; i=$((i + 1)) ;;
		--default-limits) ;;	# a word for our test runner only
		*) stapargs+=("${words[i]}") ;;
		esac
	done
	# reference-stap runs staprun -c 'CMD' in its VM, which a CMD with a
	# single quote of its own breaks ("sh -c 'x y'"): such a CMD goes in a
	# script that execs it (same pid, same command line), run by path.
	if [[ $cmd == *\'* ]]; then
		printf '#!/bin/sh\nexec %s\n' "$cmd" >"$work/$name.cmd"
		chmod +x "$work/$name.cmd"
		refargs+=(-c "$work/$name.cmd" -f "$work/$name.cmd")
	elif [ -n "$cmd" ]; then
		refargs+=(-c "$cmd")
	fi
	# Programs of ours that the command or the script's arguments name
	# (process("@UPROG@") probes), which the reference's busybox VM
	# does not have.
	for w in $cmd "${argv[@]}"; do
		case $w in
		"$top"/*) [ -f "$w" ] && refargs+=(-f "$w") && progs+=("$w") ;;
		esac
	done
	# By content, not path: outputs are stored with paths normalised, so
	# every checkout shares the cache.  The programs are part of it: a
	# result from before one was built (or changed) is not reused.
	key=$( { cat "$f"; cat "${f%.stp}.args" "${f%.stp}.argv" 2>/dev/null; \
		for w in ${progs[@]+"${progs[@]}"}; do cat "$w"; done; \
		[ -f "$work/$name.cmd" ] && echo "by a script"; \
		echo "$rel"; } | sha256sum | cut -c1-32)
	if [ -s "$cache/$key" ]; then
		cp "$cache/$key" "$work/$name.ref"
	else
		"$ref" -k "$rel" "${refargs[@]}" "$f" "${stapargs[@]}" "${argv[@]}" 2>"$work/$name.referr" |
			normalise >"$work/$name.ref"
		if grep -q '^rc=' "$work/$name.ref"; then
			# Keep why the reference would not build it.
			grep -q '^rc=build-failed' "$work/$name.ref" &&
				grep -m1 -E 'error' "$work/$name.referr" | sed 's/^/reason: /' >>"$work/$name.ref"
			cp "$work/$name.ref" "$cache/$key"
		else
			# The reference itself failed (VM time limit, oops): not cached.
			sed 's/^/stderr: /' "$work/$name.referr" >>"$work/$name.ref"
		fi
	fi
	if grep -q '^rc=build-failed' "$work/$name.ref"; then
		echo "skip: SystemTap 4.8 rejects it: $(sed -n 's/^reason: //p' "$work/$name.ref" | head -1)" >"$work/$name.status"
		return
	fi
	echo compare >"$work/$name.status"
}

# Ours: the test runner's own VM batch (one boot for all), kept.
ours_batch() {
	local names=() f kept
	for f in "${scripts[@]}"; do
		[ "$(cat "$work/$(basename "$f" .stp).status")" = compare ] &&
			names+=("run/$(basename "$f" .stp)")
	done
	[ ${#names[@]} -gt 0 ] || return 0
	(IFS='|'; KEEP=1 KERNELS=$rel TESTS="@(${names[*]})" bash -O extglob \
		"$top/testsuite/run.sh" >"$work/run.log" 2>&1)
	kept=$(sed -n 's/^work directory kept: //p' "$work/run.log")
	[ -n "$kept" ] || { echo "refdiff: the test runner kept no work directory" >&2; return 1; }
	for f in "${scripts[@]}"; do
		local name base
		name=$(basename "$f" .stp)
		[ "$(cat "$work/$name.status")" = compare ] || continue
		base=$kept/vm-$rel/vm/t_$name
		if grep -q "^SKIP: run/$name " "$work/run.log"; then
			sed -n "s|^SKIP: run/$name (\(.*\))\$|skip: ours skipped it: \1|p" "$work/run.log" >"$work/$name.status"
			continue
		elif [ -f "$base.build-failed" ]; then
			{ sed 's/^/stderr: /' "$base.build-err"; echo "rc=build-failed"; } |
				normalise >"$work/$name.ours"
		else
			{ cat "$base.out" 2>/dev/null; sed 's/^/stderr: /' "$base.err" 2>/dev/null
			  echo "rc=$(cat "$base.rc" 2>/dev/null || echo none)"; } | normalise >"$work/$name.ours"
		fi
		grep -q '^dmesg: ' "$work/$name.ours" || sed -i '/^dmesg: /d' "$work/$name.ref"
		untapset <"$work/$name.ref" >"$work/$name.ref.u" && mv "$work/$name.ref.u" "$work/$name.ref"
		untapset <"$work/$name.ours" >"$work/$name.ours.u" && mv "$work/$name.ours.u" "$work/$name.ours"
		if cmp -s "$work/$name.ref" "$work/$name.ours"; then
			echo same >"$work/$name.status"
		else
			echo DIFF >"$work/$name.status"
		fi
	done
	rm -rf "$kept"
}
export -f one normalise words untapset
export top ref rel work cache

printf '%s\n' "${scripts[@]}" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}
ours_batch

same=0 differ=0 skipped=0
for f in "${scripts[@]}"; do
	name=$(basename "$f" .stp)
	st=$(cat "$work/$name.status" 2>/dev/null || echo "skip: no result")
	case $st in
	same) same=$((same + 1)); echo "same: $name" ;;
	DIFF)
		differ=$((differ + 1)); echo "DIFF: $name"
		diff -u -a --label "reference/$name" --label "ours/$name" "$work/$name.ref" "$work/$name.ours" | sed 's/^/    /'
		;;
	*) skipped=$((skipped + 1)); echo "$st" | sed "s/^skip:/skip: $name:/" ;;
	esac
	if [ -n "$keep" ]; then
		cp "$work/$name.ref" "$keep/$name.ref" 2>/dev/null
		cp "$work/$name.ours" "$keep/$name.ours" 2>/dev/null
	fi
done
echo "$same same, $differ differ, $skipped not compared"
[ $differ -eq 0 ]
