#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# mutants.sh: how many planted one-line bugs do the fast tests catch?
#
#   scripts/mutants.sh [-n N] [-s SEED] [-g GROUPS] [-r RUNGLOB] [-t SECS]
#                      [-l] [-k] [-f REGEX] [FILE...]
#
# Plants N one-line mutants, one at a time, in FILEs (default: every
# translator/*.c and translator/probes/*.c), rebuilds only `make stap`
# (and a unit-test program that links the file), runs the fast test
# groups and restores the file.  Kinds, sampled round-robin so each
# gets its share: cmp (< <= > >= == != flipped), logic (&& <-> ||), lit
# (an integer literal +1 or -1), bool (true <-> false), if (condition
# negated), del (a call/assignment line deleted), ret (return early: the
# function's next `return ...;`, or `return;` in a void function, put
# before a statement).  The sample is a hash of SEED and each mutant's
# place, so a seed always gives the same mutants on the same sources.
#
# Per mutant it prints FILE:LINE, the change and the verdict: "killed by
# TEST", "SURVIVED" or "no-compile" (counted apart), then "K of N
# killed".  A group that runs longer than SECS (default 300) kills the
# mutant (a hang is a caught bug).  Groups run in two stages, the ones
# most likely to catch the file first (parse groups for the lexer and
# parser, sem groups for sem.c, cli for the rest), and stop at the first
# failure, so a killed mutant costs one build and a few seconds.
#
#   -n N      mutants to plant (default 40)
#   -s SEED   sample seed (default 1)
#   -g GROUPS the test globs to run, space-separated, instead of the
#             default fast groups (parseok parseko semok semko unit and
#             the cli tests that need no VM and take seconds: FAST_CLI)
#   -r GLOB   re-check a survivor on these run/ tests in a VM, on
#             $KERNELS (default 6.1.0-56-amd64): for codegen mutants
#   -t SECS   per-stage timeout
#   -l        only list the sample (no build, no tests)
#   -k        keep going after a failing stage (name every killer)
#   -f REGEX  of the sample, plant only the mutants whose "FILE:LINE: KIND:
#             CHANGE" line (as -l prints it) matches: to re-check
#             survivors, e.g. with -g and slower groups
#
# Cost: a mutant is one object rebuild and link (~3-5 s) plus at most
# the fast groups (~60 s when it survives, a few seconds when killed).
# Measured on the shared 2-core host (load ~17), 40 mutants of the front
# end (lex parse preprocess sem elide desugar ast format .c): 18 min
# wall, 3.6 min CPU; 14 of emit.c emit_map.c probes/*.c: 11 min wall.
# On a host this loaded the FAST_CLI stage alone can pass 300 s: raise
# -t, or re-check a file's mutants with -f and -g naming the tests that
# exercise it (each cli test is ~10 s there).  Seed 1414, 40 mutants of
# emit*.c tvar.c probes/*.c regs_use.c format.c: 39 compile; 20 killed
# by the earlier tests (the probe families' cli tests), 32 with
# cli/emit_decisions, cli/printf_pieces and three sem tests added.
#
# The file is restored from a copy taken before the first mutant, on
# every exit path (also ^C and kill), and stap is rebuilt from it; the
# script refuses to start when a backup from an interrupted run is
# left over.  Only the mutated file is ever written: no git commands
# touch the tree; while it runs, one source file is mutated in the work
# tree, so `git commit -a` there would commit the mutant: add files by
# name.  ^C waits for the build or the tests' process group to end (a
# few seconds).  MUTANTS_TOP (default: this script's tree) is the tree;
# testsuite/cli/mutants.sh runs the script on a toy tree that way.
set -u
# The body is one compound command, parsed whole before it runs: the
# script may be edited while a run is under way.
{

# cli tests that need no VM and take a few seconds each (measured on a
# loaded 2-core host: 2-4 s; the others take 10 s to minutes).
FAST_CLI='bad_options did_you_mean dump_functions dwarf_label dwarf_list
global_G help hwbkpt kprobe_symbols missing_file module_fs_dwarf
no_kernel_tree pass_output point_wildcards pp_kernel syscall_parts
tvar_return_warning unassigned_globals warnings uprobe_list usym_tables
tapset_index staprun_target_held elide_stores global_reads printf_pieces emit_decisions'

n=40 seed=1 groups= runglob= tmo=300 listonly= keepgoing= only=
while getopts n:s:g:r:t:lkf: o; do
	case $o in
	n) n=$OPTARG ;; s) seed=$OPTARG ;; g) groups=$OPTARG ;;
	r) runglob=$OPTARG ;; t) tmo=$OPTARG ;; l) listonly=1 ;; k) keepgoing=1 ;;
	f) only=$OPTARG ;;
	*) sed -n '4,7p' "$0" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
top=${MUTANTS_TOP:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top" || exit 2
here=$(cd "$(dirname "$0")" && pwd)
[ $# -gt 0 ] || set -- translator/*.c translator/probes/*.c
for f; do [ -f "$f" ] || { echo "mutants.sh: no file $f" >&2; exit 2; }; done

# The mutant enumerator (mawk-compatible awk).
read -r -d '' ENUM <<'AWK'
#
# Mutant enumerator for scripts/mutants.sh (run once per C file).
# Prints one record per possible one-line mutant, fields separated by
# \037 (code has tabs):  RANK KIND FILE LINE DESCRIPTION NEW-LINE-TEXT
# RANK is a hash of SEED, the file, the line and the mutant's kind and
# occurrence: sorting by it gives a seeded, deterministic sample that
# does not depend on awk's rand() (mawk and gawk differ).
# Variables: SEED, FILE (the name to print).
#
# Comments, string and character literals are masked (blanked) before
# operators are looked for, and preprocessor lines are skipped, so that
# a mutant changes code, not text.

BEGIN {
	for (i = 1; i < 256; i++) ord[sprintf("%c", i)] = i
	SEP = "\037"
}
{ src[NR] = $0 }

function hash(s,   h, i) {
	h = 7
	for (i = 1; i <= length(s); i++)
		h = (h * 131 + ord[substr(s, i, 1)]) % 2147483629
	return h
}

# The line with comments and literals blanked; incomment carries a
# block comment over lines.
function mask(s,   out, i, c, n, q) {
	out = ""; n = length(s)
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (incomment) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incomment = 0; out = out "  "; i++ }
			else out = out " "
			continue
		}
		if (c == "/" && substr(s, i + 1, 1) == "*") { incomment = 1; out = out "  "; i++; continue }
		if (c == "/" && substr(s, i + 1, 1) == "/") { while (i <= n) { out = out " "; i++ } break }
		if (c == "\"" || c == "'") {
			q = c; out = out " "
			for (i++; i <= n; i++) {
				c = substr(s, i, 1)
				if (c == "\\") { out = out "  "; i++; continue }
				out = out " "
				if (c == q) break
			}
			continue
		}
		out = out c
	}
	return out
}

function emit(ln, kind, occ, desc, text,   k) {
	k = kind; sub(/[+-]$/, "", k)
	printf "%d%s%s%s%s%s%d%s%s%s%s\n", hash(SEED ":" FILE ":" ln ":" kind ":" occ), SEP, k, SEP, FILE, SEP, ln, SEP, desc, SEP, text
}

# Replace LEN characters at column AT of line LN's text with REP.
function splice(ln, at, len, rep) {
	return substr(src[ln], 1, at - 1) rep substr(src[ln], at + len)
}

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

function isident(c) { return c ~ /[A-Za-z0-9_]/ }

# A whole simple statement on one line: a call, an assignment or an
# increment, not a declaration or a jump.
function simple_stmt(ln,   t, p) {
	t = trim(m[ln])
	if (t !~ /;$/ || t ~ /^(return|break|continue|goto|case|default|else|do|typedef|struct|union|enum|static|const|unsigned|signed|int|char|long|short|size_t|ssize_t|bool|double|float|void|uint[0-9]+_t|int[0-9]+_t|u[0-9]+|s[0-9]+|if|for|while|switch)[^A-Za-z0-9_]/)
		return 0
	if (t !~ /^[*(]*[A-Za-z_][A-Za-z0-9_]*(\)|->[A-Za-z_][A-Za-z0-9_]*|\.[A-Za-z_][A-Za-z0-9_]*|\[[^]]*\])*[ \t]*(\(|[-+*\/%&|^]?=[^=]|<<=|>>=|\+\+|--)/)
		return 0
	if (gsub(/\(/, "(", t) != gsub(/\)/, ")", t)) return 0
	# The line before must end a statement or open a body (not continue
	# an expression).
	p = trim(m[ln - 1])
	return ln == 1 || p == "" || p ~ /[;{}:)]$/ || p ~ /(^|[^A-Za-z0-9_])else$/
}

END {
	incomment = 0; cont = 0
	for (ln = 1; ln <= NR; ln++) {
		m[ln] = mask(src[ln])
		pre[ln] = cont || m[ln] ~ /^[ \t]*#/
		cont = pre[ln] && src[ln] ~ /\\$/
	}
	# Functions: body from a "{" at column 0 to a "}" at column 0; void
	# when the header says "void NAME(" (not "void *").
	infn = 0; hdr = ""
	for (ln = 1; ln <= NR; ln++) {
		if (m[ln] ~ /^[A-Za-z_]/ && !pre[ln]) hdr = m[ln]
		if (m[ln] ~ /^\{/) { infn = 1; fnvoid = hdr ~ /(^|[ \t])void[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\(/; fstart = ln }
		if (m[ln] ~ /^\}/) { for (k = fstart; k <= ln; k++) fend[k] = ln; infn = 0 }
		body[ln] = infn; isvoid[ln] = fnvoid
	}
	for (ln = 1; ln <= NR; ln++) {
		if (pre[ln] || !body[ln]) continue
		s = m[ln]; n = length(s); occ = 0
		for (i = 1; i <= n; i++) {
			c = substr(s, i, 1); d = substr(s, i + 1, 1); b = i > 1 ? substr(s, i - 1, 1) : ""
			if (c == "<" && b != "<" && d != "<") {
				if (d == "=") emit(ln, "cmp", ++occ, "`<=` -> `<`", splice(ln, i, 2, "<"))
				else emit(ln, "cmp", ++occ, "`<` -> `<=`", splice(ln, i, 1, "<="))
			} else if (c == ">" && b != "-" && b != ">" && d != ">") {
				if (d == "=") emit(ln, "cmp", ++occ, "`>=` -> `>`", splice(ln, i, 2, ">"))
				else emit(ln, "cmp", ++occ, "`>` -> `>=`", splice(ln, i, 1, ">="))
			} else if (c == "=" && d == "=" && b !~ /[=!<>]/) {
				emit(ln, "cmp", ++occ, "`==` -> `!=`", splice(ln, i, 2, "!=")); i++
			} else if (c == "!" && d == "=") {
				emit(ln, "cmp", ++occ, "`!=` -> `==`", splice(ln, i, 2, "==")); i++
			} else if (c == "&" && d == "&") {
				emit(ln, "logic", ++occ, "`&&` -> `||`", splice(ln, i, 2, "||")); i++
			} else if (c == "|" && d == "|") {
				emit(ln, "logic", ++occ, "`||` -> `&&`", splice(ln, i, 2, "&&")); i++
			} else if (c ~ /[0-9]/ && !isident(b) && b != ".") {
				for (j = i; j <= n && substr(s, j, 1) ~ /[0-9]/; j++) ;
				e = substr(s, j, 1)
				lit = substr(s, i, j - i)
				# Not hex/float/suffixed, not a case label (duplicates
				# do not compile), not an array size in a declaration.
				if (!isident(e) && e != "." && s !~ /^[ \t]*case[ \t]/ &&
				    !(b == "[" && e == "]" && trim(s) ~ /^(static |const |unsigned |struct [A-Za-z_0-9]+ )*[A-Za-z_][A-Za-z0-9_]*[ \t*]+[A-Za-z_]/)) {
					if (lit !~ /^0./) {
						emit(ln, "lit+", ++occ, "`" lit "` -> `" (lit + 1) "`", splice(ln, i, j - i, lit + 1))
						if (lit + 0 > 0)
							emit(ln, "lit-", ++occ, "`" lit "` -> `" (lit - 1) "`", splice(ln, i, j - i, lit - 1))
					}
				}
				i = j - 1
			} else if (isident(c) && !isident(b)) {
				for (j = i; j <= n && isident(substr(s, j, 1)); j++) ;
				w = substr(s, i, j - i)
				if (w == "true") emit(ln, "bool", ++occ, "`true` -> `false`", splice(ln, i, 4, "false"))
				else if (w == "false") emit(ln, "bool", ++occ, "`false` -> `true`", splice(ln, i, 5, "true"))
				else if (w == "if") {
					for (k = j; substr(s, k, 1) == " "; k++) ;
					if (substr(s, k, 1) == "(") {
						depth = 0
						for (q = k; q <= n; q++) {
							cc = substr(s, q, 1)
							if (cc == "(") depth++
							else if (cc == ")" && --depth == 0) break
						}
						if (q <= n)
							emit(ln, "if", ++occ, "negate the if condition",
							    substr(src[ln], 1, k) "!(" substr(src[ln], k + 1, q - k - 1) ")" substr(src[ln], q))
					}
				}
				i = j - 1
			}
		}
		if (simple_stmt(ln)) {
			ind = src[ln]; sub(/[^ \t].*$/, "", ind)
			emit(ln, "del", 1, "delete `" trim(src[ln]) "`", ind ";")
			if (isvoid[ln]) {
				emit(ln, "ret", 1, "return early before `" trim(src[ln]) "`", ind "return; " substr(src[ln], length(ind) + 1))
			} else {
				for (k = ln + 1; k <= fend[ln]; k++)
					if (m[k] ~ /^[ \t]*return[ \t(;]/ && trim(m[k]) ~ /;$/ && !pre[k]) {
						emit(ln, "ret", 1, "early `" trim(src[k]) "` before `" trim(src[ln]) "`",
						    ind trim(src[k]) " " substr(src[ln], length(ind) + 1))
						break
					}
			}
		}
	}
}
AWK

scratch=$(mktemp -d "${TMPDIR:-/tmp}/mutants.XXXXXX")
orig= cur=
restore() {
	if [ -n "$cur" ]; then
		# A new mtime, so make rebuilds the object from the original.
		cat "$orig" >"$cur" && rm -f "$orig" "$cur.mutants-backup"
		cur=
	fi
}
finish() {
	local rc=$?
	restore
	[ -z "$listonly" ] && make -s stap >/dev/null 2>&1
	rm -rf "$scratch"
	exit $rc
}
trap finish EXIT
tpid=
# A stage runs in the background so that a signal interrupts `wait` at
# once; timeout passes it on to the tests' process group.
trap 'echo "interrupted: restoring" >&2; [ -n "$tpid" ] && kill -TERM "$tpid" 2>/dev/null; exit 130' INT TERM HUP

for f; do
	[ -e "$f.mutants-backup" ] && { echo "mutants.sh: $f.mutants-backup is left from an interrupted run: restore $f from it first" >&2; trap - EXIT; exit 2; }
	awk -v SEED="$seed" -v FILE="$f" "$ENUM" "$f"
done >"$scratch/all"
# Round-robin over kinds: each kind's mutants in hash order, then the
# i-th of every kind before the (i+1)-th of any.
sort -t$'\037' -k1,1n "$scratch/all" |
	awk -F'\037' '{ print (++seen[$2]) "\037" $0 }' |
	sort -t$'\037' -k1,1n -k2,2n | head -n "$n" | cut -d$'\037' -f3- |
	awk -F'\037' -v re="$only" 're == "" || ($2 ":" $3 ": " $1 ": " $4) ~ re' >"$scratch/sample"
total=$(wc -l <"$scratch/sample")

if [ -n "$listonly" ]; then
	awk -F'\037' '{ printf "%s:%s: %s: %s\n", $2, $3, $1, $4 }' "$scratch/sample"
	trap - EXIT; rm -rf "$scratch"; exit 0
fi

fast_groups() {	# the stages for FILE, one glob list a line
	local f=$1 cli='' c
	for c in $FAST_CLI; do [ -e testsuite/cli/$c.sh ] && cli="$cli cli/$c"; done
	case $f in
	*/lex.c|*/parse.c|*/preprocess.c|*/ast.c|*/dump.c)
		echo "parseok/* parseko/*"; echo "semok/* semko/* unit/*$cli" ;;
	*/sem.c|*/elide.c|*/desugar.c|*/format.c|*/session.c|*/diag.c)
		echo "semok/* semko/*"; echo "parseok/* parseko/* unit/*$cli" ;;
	*/regex.c)
		echo "unit/*"; echo "parseok/* parseko/* semok/* semko/*$cli" ;;
	*)	echo "${cli# }"; echo "parseok/* parseko/* semok/* semko/* unit/*" ;;
	esac
}
# Unit-test programs whose sources name FILE: rebuilt with stap.
unit_progs() {
	[ -f testsuite/unit/local.mk ] || return 0
	awk -v f="$1" '/_SOURCES/ { p = $1; sub(/_SOURCES.*/, "", p) } index($0, f) && p { print p } /^$/ { p = "" }' \
		testsuite/unit/local.mk | sed 's|^testsuite_unit_|testsuite/unit/|' | sort -u
}

# Run the globs in $1; on a failure set killer to the first failing
# test's name and return 1.  Not in a subshell: the trap needs tpid.
run_stage() {
	local pat out rc
	pat="@($(tr ' ' '\n' <<<"$1" | grep . | paste -sd'|'))"
	TMPDIR=$scratch TESTS=$pat KERNELS=${KERNELS:-6.1.0-56-amd64} \
		timeout -k 10 "$tmo" bash -O extglob testsuite/run.sh >"$scratch/out" 2>&1 </dev/null &
	tpid=$!; wait $tpid; rc=$?; tpid=
	out=$(cat "$scratch/out")
	killer=
	[ $rc -eq 0 ] && return 0
	if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then killer="timeout (${tmo}s) in $1"; return 1; fi
	killer=$(grep -m1 '^FAIL: ' <<<"$out" | sed 's/^FAIL: //')
	[ -n "$killer" ] || killer="run.sh exit $rc"
	return 1
}

make -s stap >/dev/null 2>&1 || { echo "mutants.sh: the unmutated tree does not build" >&2; exit 2; }
killed=0 survived=0 nocomp=0 i=0
while IFS=$'\037' read -r -u 3 kind file line desc text; do
	i=$((i + 1))
	orig=$scratch/orig
	cp -p "$file" "$orig"; cp -p "$file" "$file.mutants-backup"; cur=$file
	NEW=$text awk -v L="$line" 'FNR == L { print ENVIRON["NEW"]; next } { print }' "$orig" >"$file"
	verdict=
	progs=$(unit_progs "$file")
	if ! make -s stap $progs >"$scratch/build.log" 2>&1; then
		verdict="no-compile"; nocomp=$((nocomp + 1))
	else
		if [ -n "$groups" ]; then stages=$groups; else stages=$(fast_groups "$file"); fi
		killers=
		while IFS= read -r st; do
			[ -n "$st" ] || continue
			if ! run_stage "$st"; then
				killers="$killers${killers:+, }$killer"
				[ -n "$keepgoing" ] || break
			fi
		done <<<"$stages"
		if [ -z "$killers" ] && [ -n "$runglob" ] && ! run_stage "$runglob"; then
			killers="$killer (VM)"
		fi
		if [ -n "$killers" ]; then verdict="killed by $killers"; killed=$((killed + 1))
		else verdict="SURVIVED"; survived=$((survived + 1)); fi
	fi
	restore
	printf '%s:%s: [%s] %s: %s\n' "$file" "$line" "$kind" "$desc" "$verdict"
done 3<"$scratch/sample"
compiled=$((total - nocomp))
echo "$killed of $compiled killed ($survived survived; $nocomp of $total did not compile)"
exit
}
