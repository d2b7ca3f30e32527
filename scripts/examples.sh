#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# examples: run SystemTap's example corpus (package systemtap-doc,
# /usr/share/systemtap/examples/*/*.meta) through our stap, each example as
# its "test_check:" line says, stopped after pass N, and list every failure
# with its first error.  Not part of make check; the corpus is the yardstick
# of issue #12 (how many real scripts we accept).
#
#   scripts/examples.sh [-p N] [-k RELEASE] [-j JOBS] [-s STAP] [-t SECS] [GLOB]
#
#   -p N     stop after pass N (default 2)
#   -k REL   target kernel (default: the newest provisioned 6.1)
#   -s STAP  the stap to run (default: ./stap of this tree; /usr/bin/stap
#            gives SystemTap 4.8's own figure for the same lines)
#   -t SECS  time limit per example (default 120)
#   GLOB     only examples whose NAME.meta path matches (e.g. '*/io/*')
# Prints "ok NAME" or "FAIL NAME: first error" per example, then
# "N of M examples pass -pN".  The example's own arguments are kept; its
# -p4 becomes -pN, and -r REL is added.
set -uo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
pass=2 rel= jobs=2 stap=$top/stap tlimit=120
while getopts "p:k:j:s:t:" o; do
	case $o in
	p) pass=$OPTARG ;;
	k) rel=$OPTARG ;;
	j) jobs=$OPTARG ;;
	s) stap=$OPTARG ;;
	t) tlimit=$OPTARG ;;
	*) sed -n '2,21p' "$0"; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
glob=${1:-*}
ex=/usr/share/systemtap/examples
[ -d "$ex" ] || { echo "examples: no $ex (apt-get install systemtap-doc)" >&2; exit 2; }
if [ -z "$rel" ]; then
	rel=$(ls -d /lib/modules/6.1.*/build 2>/dev/null | sed 's#/lib/modules/##; s#/build##' | sort -V | tail -1)
	[ -n "$rel" ] || { echo "examples: no kernel with headers (run ./bootstrap.sh)" >&2; exit 2; }
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/examples.XXXXXX")
trap 'rm -rf "$work"' EXIT

# One example: its .meta path; writes $work/<n>.res ("ok" or the error).
one() {
	local meta=$1 n line words=() i out rc
	n=$(echo "$meta" | sha1sum | cut -c1-12)
	line=$(sed -n 's/^test_check: *//p' "$meta" | head -1)
	[ -n "$line" ] || { echo "skip: no test_check line" >"$work/$n.res"; return; }
	eval "words=($line)" 2>/dev/null || { echo "skip: unreadable test_check line" >"$work/$n.res"; return; }
	[ "${words[0]}" = stap ] || { echo "skip: not a stap command" >"$work/$n.res"; return; }
	for ((i = 1; i < ${#words[@]}; i++)); do
		case ${words[i]} in -*p[0-9]) words[i]=${words[i]%p[0-9]}p$pass ;; esac
	done
	out=$(cd "$(dirname "$meta")" && timeout "$tlimit" "$stap" -r "$rel" "${words[@]:1}" 2>&1 >/dev/null)
	rc=$?
	if [ $rc -eq 0 ]; then
		echo ok >"$work/$n.res"
	elif [ $rc -eq 124 ]; then
		echo "timed out after ${tlimit}s" >"$work/$n.res"
	else
		# The first line that says what is wrong.
		grep -m1 -E 'error' <<<"$out" >"$work/$n.res" ||
			{ head -1 <<<"$out"; echo "(exit $rc)"; } | paste -sd' ' >"$work/$n.res"
	fi
}
export -f one
export work stap rel pass tlimit

metas=()
for m in "$ex"/*/*.meta "$ex"/*/*/*.meta; do
	[ -e "$m" ] || continue
	[[ $m == $glob ]] && metas+=("$m")
done
printf '%s\n' "${metas[@]}" | xargs -P "$jobs" -I{} bash -c 'one "$1"' _ {}

ok=0 total=0 skipped=0
for m in "${metas[@]}"; do
	n=$(echo "$m" | sha1sum | cut -c1-12)
	name=${m#$ex/}
	name=${name%.meta}
	res=$(cat "$work/$n.res" 2>/dev/null || echo "no result")
	case $res in
	ok) ok=$((ok + 1)); total=$((total + 1)); echo "ok $name" ;;
	skip:*) skipped=$((skipped + 1)); echo "skip $name: ${res#skip: }" ;;
	*) total=$((total + 1)); echo "FAIL $name: $res" ;;
	esac
done
echo "$ok of $total examples pass -p$pass ($skipped without a stap test_check line)"
