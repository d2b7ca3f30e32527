#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# refdiff: run testsuite/run/ scripts through SystemTap 4.8 (the reference,
# ../shared/tools/reference-stap, in a 6.1 VM) and through ours (stap --vm on
# the same kernel), and list every difference in stdout, stderr and exit
# status.  Not part of make check: the reference is a large optional install
# and takes about half a minute a script.
#
#   scripts/refdiff.sh [-j N] [-k RELEASE] [-o DIR] [NAME|FILE.stp ...]
#
# With no names, every run/ script.  NAME.args and NAME.argv are honoured as
# by the test runner: -c CMD goes to both, @WORKLOAD@ is copied into the
# reference's VM.  Scripts that need what the reference's VM cannot do
# (--vm-insmod of the test module, -x PID) are listed as not compared, with
# the reason.  Reference results are cached by content under
# ~/.cache/stap-ng/refdiff, so a second run only re-runs ours.
#
# Prints, per script, "same", "DIFF" (with a unified diff) or "skip: why";
# then "N same, N differ, N not compared".  Exits 1 when something differs.
# -o DIR keeps NAME.ref and NAME.ours (stdout, 'stderr: ' lines, rc=N).
# Normalisation: none, except the reference's "dmesg:" lines are dropped
# when it printed none of ours (both runners report kernel problems).
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
ref=${REFERENCE_STAP:-$top/../shared/tools/reference-stap}
jobs=2 rel= keep=
while getopts "j:k:o:" o; do
	case $o in
	j) jobs=$OPTARG ;;
	k) rel=$OPTARG ;;
	o) keep=$OPTARG ;;
	*) sed -n '2,23p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
[ -x "$ref" ] || { echo "refdiff: no reference at $ref (set REFERENCE_STAP)" >&2; exit 2; }
[ -x "$top/stap" ] || { echo "refdiff: stap is not built: run make" >&2; exit 2; }
if [ -z "$rel" ]; then
	rel=$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sed 's#/lib/modules/##; s#/build##' | sort -V | tail -1)
	[ -n "$rel" ] || { echo "refdiff: no 6.1 kernel with headers (run ./bootstrap.sh)" >&2; exit 2; }
fi
[ -x "$top/testsuite/workload" ] || make -C "$top" testsuite/workload >/dev/null ||
	{ echo "refdiff: cannot build testsuite/workload" >&2; exit 2; }

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

# One script: writes $work/NAME.{ref,ours,status}.
one() {
	local f=$1 name words=() argv=() refargs=() ourargs=() stapargs=() i cmd= key
	name=$(basename "$f" .stp)
	if [ -f "${f%.stp}.args" ]; then
		eval "words=($(sed -e "s|@RUN@|$(dirname "$f")|g" \
			-e "s|@WORKLOAD@|$top/testsuite/workload|g" "${f%.stp}.args"))"
	fi
	[ -f "${f%.stp}.argv" ] && eval "argv=($(cat "${f%.stp}.argv"))"
	for ((i = 0; i < ${#words[@]}; i++)); do
		case ${words[i]} in
		--vm-insmod|--vm-insmod=*)
			echo "skip: loads the test module first (the reference's VM cannot)" >"$work/$name.status"; return ;;
		-x)
			echo "skip: -x PID (the reference builds with -p4, then runs staprun alone)" >"$work/$name.status"; return ;;
		-c) cmd=${words[i+1]}; i=$((i + 1)) ;;
		*) stapargs+=("${words[i]}") ;;
		esac
	done
	if [ -n "$cmd" ]; then
		refargs+=(-c "$cmd")
		ourargs+=(-c "$cmd")
		# Programs the command names by absolute path that the reference's
		# busybox VM does not have.
		for w in $cmd; do
			case $w in
			"$top"/*) [ -f "$w" ] && refargs+=(-f "$w") ;;
			esac
		done
	fi
	key=$( { cat "$f"; printf '%s\n' "${refargs[@]}" "${stapargs[@]}" -- "${argv[@]}"; \
		[ -n "$cmd" ] && [[ $cmd == *"$top/testsuite/workload"* ]] && cat "$top/testsuite/workload"; \
		echo "$rel"; } | sha256sum | cut -c1-32)
	if [ -s "$cache/$key" ]; then
		cp "$cache/$key" "$work/$name.ref"
	else
		"$ref" -k "$rel" "${refargs[@]}" "$f" "${stapargs[@]}" "${argv[@]}" >"$work/$name.ref" 2>"$work/$name.referr"
		if grep -q '^rc=' "$work/$name.ref"; then
			cp "$work/$name.ref" "$cache/$key"
		else
			# The reference itself failed (VM time limit, oops): not cached.
			sed 's/^/stderr: /' "$work/$name.referr" >>"$work/$name.ref"
		fi
	fi
	local rc
	(cd "$work" && "$top/stap" -r "$rel" --vm "${ourargs[@]}" "${stapargs[@]}" "$f" "${argv[@]}" \
		>"$work/$name.o" 2>"$work/$name.e"); rc=$?
	{ cat "$work/$name.o"; sed 's/^/stderr: /' "$work/$name.e"; echo "rc=$rc"; } >"$work/$name.ours"
	grep -q '^dmesg: ' "$work/$name.ours" || sed -i '/^dmesg: /d' "$work/$name.ref"
	# The reference builds the module as "ref"; ours as stap_<hash>.
	if cmp -s "$work/$name.ref" "$work/$name.ours"; then
		echo same >"$work/$name.status"
	else
		echo DIFF >"$work/$name.status"
	fi
}
export -f one
export top ref rel work cache

printf '%s\n' "${scripts[@]}" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}

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
