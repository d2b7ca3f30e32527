#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# examples-run: run SystemTap's examples (package systemtap-doc) as their
# "test_installcheck:" lines say, to the end (pass 5), through ours (stap
# --vm) and through SystemTap 4.8 (../shared/tools/reference-stap), both on
# the same 6.1 kernel, and keep what each printed side by side.  The
# examples' own checks only ask that the script runs; most stop after
# "-T 1", so their figures differ run to run: read the pairs, do not diff
# them blindly.  Not part of make check (hours with the reference).
#
#   scripts/examples-run.sh [-k RELEASE] [-o DIR] [-n] [GLOB]
#
#   -k REL   target kernel (default: the newest provisioned 6.1)
#   -o DIR   where NAME.ours and NAME.ref go (default ./examples-run);
#            a NAME.ref already there is kept (the reference is slow)
#   -n       ours only
#   GLOB     only examples whose NAME.meta path matches (e.g. '*/io/*')
# Each file holds the stdout, then stderr lines prefixed 'stderr: ', then
# rc=N.  Prints one line per example: both rcs, and whether stdout's first
# line and the stderr lines (without numbers) agree.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
rel= out=examples-run ours_only=
while getopts "k:o:n" o; do
	case $o in
	k) rel=$OPTARG ;;
	o) out=$OPTARG ;;
	n) ours_only=1 ;;
	*) sed -n '2,21p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
glob=${1:-*}
ex=/usr/share/systemtap/examples
ref=${REFERENCE_STAP:-$top/../shared/tools/reference-stap}
[ -x "$ref" ] || ref=$top/../../shared/tools/reference-stap
[ -d "$ex" ] || { echo "examples-run: no $ex (apt-get install systemtap-doc)" >&2; exit 2; }
if [ -z "$rel" ]; then
	rel=$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sed 's#/lib/modules/##; s#/build##' | sort -V | grep -v rt | tail -1)
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
export STAP_VM_BOOT=vmlinux

# stdout, 'stderr: ' lines, rc=N, as reference-stap prints them
frame() {
	local o=$1 e=$2 rc=$3
	cat "$o"
	sed 's/^/stderr: /' "$e"
	echo "rc=$rc"
}

# A file's stderr lines, numbers blanked, for a rough comparison.
shape() {
	grep '^stderr: ' "$1" | grep -v 'stderr: WARNING: .*kprobes\|^stderr: Pass ' |
		sed 's/[0-9][0-9]*/N/g' | sort -u
}

for m in "$ex"/*/*.meta; do
	[[ $m == $glob ]] || continue
	line=$(sed -n 's/^test_installcheck: *//p' "$m" | head -1)
	name=${m#$ex/}
	name=${name%.meta}
	f=${name//\//_}
	words=()
	eval "words=($line)" 2>/dev/null || { echo "skip $name: unreadable line"; continue; }
	[ "${words[0]:-}" = stap ] || { echo "skip $name: not a stap command: $line"; continue; }
	# Split into the options before the script, the script, and the rest;
	# -c CMD goes to reference-stap's own -c.
	pre=() script= post=() cmd=
	for ((i = 1; i < ${#words[@]}; i++)); do
		w=${words[i]}
		case $w in
		-c) cmd=${words[i + 1]}; i=$((i + 1)); continue ;;
		-[oTGSxsDIrBd]) if [ -z "$script" ]; then pre+=("$w" "${words[i + 1]}"); else post+=("$w" "${words[i + 1]}"); fi
			i=$((i + 1)); continue ;;
		esac
		if [ -z "$script" ] && [[ $w == *.stp ]]; then
			script=$w
		elif [ -z "$script" ]; then
			pre+=("$w")
		else
			post+=("$w")
		fi
	done
	[ -n "$script" ] || { echo "skip $name: no script in: $line"; continue; }
	dir=$(dirname "$m")
	(cd "$dir" && timeout 400 "$top/stap" --vm --vm-timeout=300 -r "$rel" "${pre[@]}" "$script" \
		"${post[@]}" ${cmd:+-c "$cmd"} >"$out/$f.o" 2>"$out/$f.e")
	frame "$out/$f.o" "$out/$f.e" $? >"$out/$f.ours"
	rm -f "$out/$f.o" "$out/$f.e"
	if [ -z "$ours_only" ] && [ ! -s "$out/$f.ref" ]; then
		(cd "$dir" && timeout 600 "$ref" -k "$rel" ${cmd:+-c "$cmd"} "$(readlink -f "$script")" \
			"${pre[@]}" "${post[@]}" >"$out/$f.ref" 2>&1)
	fi
	ro=$(tail -1 "$out/$f.ours")
	rr=$(tail -1 "$out/$f.ref" 2>/dev/null || echo "rc=?")
	same1=same; [ "$(head -1 "$out/$f.ours")" = "$(head -1 "$out/$f.ref" 2>/dev/null)" ] || same1=differs
	same2=same; [ "$(shape "$out/$f.ours")" = "$(shape "$out/$f.ref" 2>/dev/null)" ] || same2=differs
	echo "$name: ours $ro, ref $rr; first line $same1; stderr $same2"
done
