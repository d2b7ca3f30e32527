# SPDX-License-Identifier: GPL-2.0-or-later
# Tapset doc comments -> manual pages, and their checker (POSIX awk, run
# at build time only).  The format is described in tapsets/README:
#
#     /**
#      * sfunction NAME - Summary      (or: probe NAME, smacro NAME)
#      * @PARAM: what it is             (parameters; an alias's variables)
#      *
#      * Description paragraphs.
#      */
#
# awk -f tapset-man.awk -v mode=man -v out=DIR tapsets/*.stp tapsets/*.stpm
#     writes DIR/function::NAME.3stap and DIR/probe::NAME.3stap for each
#     public function (overloads share a page) and probe alias, and
#     DIR/macro::NAME.3stap for each public macro of a .stpm file (the
#     library macros; a .stp file's @define is its own, with no page).
# awk -f tapset-man.awk -v mode=check FILE...
#     prints "file:line: problem" for each public function, alias or macro of the
#     files that lacks a doc block, a parameter's or variable's @ line, or
#     documents a parameter its signature does not have; exits 1 if any.
# awk -f tapset-man.awk -v mode=coverage FILE...
#     prints "N of M documented" (functions and aliases that pass check).
#
# Public: not private, name not starting with "_".  An alias's variables
# are the plain names its body assigns with "=", less the file's globals
# and names starting with "_" (scratch).

function trim(s) {
	sub(/^[ \t]+/, "", s)
	sub(/[ \t]+$/, "", s)
	return s
}

# Source text with string literals and comments blanked, so that braces
# and "=" inside them do not count.  A "/*" comment may run on: incom.
function clean(s,    r, c, i, n, q) {
	r = ""; n = length(s); q = 0
	for (i = 1; i <= n; i++) {
		c = substr(s, i, 1)
		if (incom) {
			if (c == "*" && substr(s, i + 1, 1) == "/") { incom = 0; i++ }
			continue
		}
		if (q) {
			if (c == "\\") i++
			else if (c == "\"") { q = 0; r = r "\"" }
			continue
		}
		if (c == "\"") { q = 1; r = r "\""; continue }
		if (c == "#" || (c == "/" && substr(s, i + 1, 1) == "/"))
			break
		if (c == "/" && substr(s, i + 1, 1) == "*") { incom = 1; i++; continue }
		r = r c
	}
	return r
}

function public(name) {
	return name !~ /^_/
}

# Take the pending doc block for the item (kind, name) defined at line ln.
# Its parsed parts go to item number nitems.
function take_doc(kind, name, ln,    i, l, sect, at, word, key) {
	nitems++
	it_kind[nitems] = kind; it_name[nitems] = name
	it_file[nitems] = FILENAME; it_line[nitems] = ln
	it_doc[nitems] = 0; it_nat[nitems] = 0
	it_summary[nitems] = ""; it_desc[nitems] = ""; it_ref[nitems] = ""
	if (!havedoc)
		return
	havedoc = 0
	sect = 0	# 0 before the NAME line, 1 @ lines, 2 description
	at = 0
	for (i = 1; i <= ndoc; i++) {
		l = doc[i]
		sub(/^[ \t]*\/\*\*/, "", l)
		sub(/\*\/[ \t]*$/, "", l)
		sub(/^[ \t]*\*/, "", l)
		if (sect == 0) {
			l = trim(l)
			if (l == "")
				continue
			sub(/^(sfunction|function|probe|smacro)[ \t]+/, "", l)
			key = index(l, " - ")
			if (!key || trim(substr(l, 1, key - 1)) != name)
				return	# not this item's block
			it_doc[nitems] = 1
			it_summary[nitems] = trim(substr(l, key + 3))
			sect = 1
			continue
		}
		if (sect == 1 && match(l, /^[ \t]*@[A-Za-z_][A-Za-z0-9_]*:/)) {
			word = substr(l, RSTART, RLENGTH)
			word = trim(word); word = substr(word, 2, length(word) - 2)
			at = ++it_nat[nitems]
			it_at[nitems, at] = word
			it_attext[nitems, at] = trim(substr(l, RSTART + RLENGTH))
			it_atline[nitems, at] = docline + i - 1
			continue
		}
		if (match(l, /^[ \t]*Variables:[ \t]+as[ \t]+/)) {
			# The variables of another alias, documented there.
			word = trim(substr(l, RSTART + RLENGTH))
			sub(/^probe[ \t]+/, "", word)
			sub(/[.,;]*$/, "", word)
			it_ref[nitems] = word
			at = 0
			continue
		}
		if (trim(l) == "") {
			at = 0
			if (sect == 1 && it_nat[nitems])
				sect = 2
			if (sect == 2 && it_desc[nitems] != "")
				it_desc[nitems] = it_desc[nitems] "\n"
			continue
		}
		if (sect == 1 && at) {	# an @ entry's continuation line
			it_attext[nitems, at] = it_attext[nitems, at] " " trim(l)
			continue
		}
		sect = 2
		sub(/^ /, "", l)
		if (it_desc[nitems] == "")
			sub(/^Description:[ \t]*/, "", l)
		it_desc[nitems] = it_desc[nitems] l "\n"
	}
}

FNR == 1 {
	indoc = 0; havedoc = 0; inc = 0; incom = 0; inalias = 0; inmacro = 0
	libbody = 0
	for (g in globals) delete globals[g]
	for (g in macro) delete macro[g]
}

# Embedded C: nothing in it is a tapset item.
inc {
	if ($0 ~ /%\}/) inc = 0
	next
}

indoc {
	doc[++ndoc] = $0
	if ($0 ~ /\*\//) { indoc = 0; havedoc = 1 }
	next
}

# The body of a library macro being read (depth: open "%(" in it).
libbody {
	libbody += count_of($0, "%(") - count_of($0, "%)")
	next
}

# A library macro (.stpm): "@define NAME[(a, b)] %( BODY %)", an item
# with parameters like a function's.
FILENAME ~ /\.stpm$/ && /^@define[ \t]+[A-Za-z_]/ {
	l = $0
	sub(/^@define[ \t]+/, "", l)
	match(l, /^[A-Za-z_][A-Za-z0-9_]*/)
	name = substr(l, 1, RLENGTH)
	l = substr(l, RLENGTH + 1)
	take_doc(public(name) ? "macro" : "skip", name, FNR)
	it_np[nitems] = 0
	sig = "@" name
	if (match(l, /^[ \t]*\([^)]*\)/)) {
		p = substr(l, RSTART, RLENGTH)
		l = substr(l, RSTART + RLENGTH)
		sub(/^[ \t]*\(/, "", p); sub(/\)$/, "", p)
		np = split(p, pa, /,/)
		for (i = 1; i <= np; i++) {
			w1 = trim(pa[i])
			if (w1 != "") it_p[nitems, ++it_np[nitems]] = w1
		}
		sig = sig "(" p ")"
		gsub(/[ \t]*,[ \t]*/, ", ", sig)
	}
	it_sig[nitems] = sig
	libbody = count_of(l, "%(") - count_of(l, "%)")
	next
}

# A macro of this file: an alias that uses it assigns what it assigns.
inmacro {
	if ($0 ~ /^%\)/) inmacro = 0
	else macro[mname] = macro[mname] "\n" $0
	next
}

/^@define[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*%\([ \t]*$/ {
	mname = $2
	macro[mname] = ""
	inmacro = 1
	next
}

# The body of an alias being read: collect the names it assigns.
inalias {
	alias_text($0)
	next
}

/^\/\*\*/ {
	ndoc = 1; doc[1] = $0; docline = FNR
	if ($0 ~ /\*\//) havedoc = 1
	else indoc = 1
	next
}

/^[ \t]*$/ { next }

/^(private[ \t]+)?global[ \t]/ {
	l = clean($0)
	sub(/^(private[ \t]+)?global[ \t]+/, "", l)
	n = split(l, w, /[^A-Za-z0-9_]+/)
	for (i = 1; i <= n; i++) if (w[i] != "") globals[w[i]] = 1
}

/^(private[ \t]+)?function[ \t]/ {
	priv = $0 ~ /^private/
	l = $0
	sub(/^(private[ \t]+)?function[ \t]+/, "", l)
	match(l, /^[A-Za-z_][A-Za-z0-9_]*/)
	name = substr(l, 1, RLENGTH)
	if (priv || !public(name)) { havedoc = 0; fn_c($0); next }
	take_doc("function", name, FNR)
	# The signature: "name[:type] (a[:type], ...)", maybe over more lines.
	first = $0
	while (l !~ /\)/ && (getline more) > 0) {
		l = l " " more
		first = first " " more
	}
	sig = l
	sub(/\).*/, ")", sig)
	gsub(/[ \t]+/, " ", sig)
	sub(/ \(/, "(", sig)
	it_sig[nitems] = sig
	p = sig
	sub(/^[^(]*\(/, "", p); sub(/\)$/, "", p)
	np = split(p, pa, /,/)
	it_np[nitems] = 0
	for (i = 1; i <= np; i++) {
		w1 = trim(pa[i]); sub(/:.*/, "", w1)
		if (w1 != "") it_p[nitems, ++it_np[nitems]] = w1
	}
	fn_c(first)
	next
}

/^probe[ \t]+[A-Za-z_][A-Za-z0-9_.]*[ \t]*\+?=/ {
	l = $0
	sub(/^probe[ \t]+/, "", l)
	match(l, /^[A-Za-z_][A-Za-z0-9_.]*/)
	name = substr(l, 1, RLENGTH)
	take_doc(public(name) ? "probe" : "skip", name, FNR)
	it_np[nitems] = 0
	for (v in seen) delete seen[v]
	inalias = 1; depth = 0; opened = 0
	alias_text(substr(l, RLENGTH + 1))
	next
}

{ havedoc = 0 }

# The word a doc block's NAME line starts with, by kind of item.
function doc_word(kind) {
	return kind == "function" ? "sfunction" : (kind == "macro" ? "smacro" : "probe")
}

function count_of(s, t,    n, i) {
	n = 0
	while ((i = index(s, t)) > 0) { n++; s = substr(s, i + length(t)) }
	return n
}

# A function line opening embedded C.
function fn_c(line) {
	if (line ~ /%\{/ && line !~ /%\}/) inc = 1
}

# Note the plain names that the cleaned text l assigns with "=" (not ==,
# <=, !=, +=, ->NAME, $NAME, @x) as variables of the current alias.
function assigned(l,    rest, v, c) {
	rest = " " l
	while (match(rest, /[^A-Za-z0-9_$@>.][A-Za-z_][A-Za-z0-9_]*[ \t]*=/)) {
		v = substr(rest, RSTART + 1, RLENGTH - 1)
		c = substr(rest, RSTART + RLENGTH, 1)
		rest = substr(rest, RSTART + RLENGTH)
		if (c == "=") continue
		sub(/[ \t]*=$/, "", v)
		if (v ~ /^_/ || (v in globals) || (v in seen)) continue
		seen[v] = 1
		it_p[nitems, ++it_np[nitems]] = v
	}
}

# "@NAME" in l of a macro this file defines: what it assigns counts too,
# and so do the macros it uses in turn (to a depth of 8).
function expand(l, depth,    rest, v, n, i, mlines) {
	rest = l
	while (depth < 8 && match(rest, /@[A-Za-z_][A-Za-z0-9_]*/)) {
		v = substr(rest, RSTART + 1, RLENGTH - 1)
		rest = substr(rest, RSTART + RLENGTH)
		if (!(v in macro)) continue
		n = split(macro[v], mlines, "\n")
		for (i = 1; i <= n; i++) {
			assigned(clean(mlines[i]))
			expand(clean(mlines[i]), depth + 1)
		}
	}
}

function alias_text(line,    l, i, c, n, rest, v) {
	l = clean(line)
	if (!opened) {
		i = index(l, "{")
		if (!i) return
		opened = 1
		l = substr(l, i)
	}
	assigned(l)
	expand(l, 0)
	n = length(l)
	for (i = 1; i <= n; i++) {
		c = substr(l, i, 1)
		if (c == "{") depth++
		else if (c == "}" && --depth == 0) { inalias = 0; return }
	}
}

# troff-safe text.
function roff(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	if (s ~ /^[.']/) s = "\\&" s
	return s
}

function check(    i, j, k, ok, bad, nbad, total, good, what) {
	total = 0; good = 0; nbad = 0
	for (i = 1; i <= nitems; i++) {
		if (it_kind[i] == "skip") continue
		total++
		what = it_kind[i] " " it_name[i]
		bad = 0
		if (!it_doc[i]) {
			if (mode == "check") printf "%s:%d: %s has no doc comment (/** %s %s - ... */)\n", it_file[i],
			    it_line[i], what, doc_word(it_kind[i]), it_name[i]
			bad++
		} else {
			for (j = 1; j <= it_np[i]; j++) {
				ok = 0
				for (k = 1; k <= it_nat[i]; k++) if (it_at[i, k] == it_p[i, j]) ok = 1
				if (!ok) {
					if (mode == "check") printf "%s:%d: %s: %s %s is not documented (@%s: ...)\n",
					    it_file[i], it_line[i], what,
					    it_kind[i] == "probe" ? "variable" : "parameter",
					    it_p[i, j], it_p[i, j]
					bad++
				}
			}
			for (k = 1; k <= it_nat[i]; k++) {
				if (it_attext[i, k] == "") {
					if (mode == "check") printf "%s:%d: %s: @%s has no description\n", it_file[i],
					    it_atline[i, k], what, it_at[i, k]
					bad++
				}
				# Aliases may document variables of the alias they build on.
				if (it_kind[i] == "probe") continue
				ok = 0
				for (j = 1; j <= it_np[i]; j++) if (it_at[i, k] == it_p[i, j]) ok = 1
				if (!ok) {
					if (mode == "check") printf "%s:%d: %s: @%s is not a parameter of %s\n", it_file[i],
					    it_atline[i, k], what, it_at[i, k], it_sig[i]
					bad++
				}
			}
			if (it_summary[i] == "") {
				if (mode == "check") printf "%s:%d: %s: the NAME line has no summary\n", it_file[i],
				    it_line[i], what
				bad++
			}
		}
		if (!bad) good++
		nbad += bad
	}
	if (mode == "coverage")
		printf "%d of %d documented\n", good, total
	return nbad
}

function page(kind, name,    f, i, j, k, d, n, ln, pre, first, sect, shown) {
	f = out "/" kind "::" name ".3stap"
	first = 0
	for (i = 1; i <= nitems; i++)
		if (it_kind[i] == kind && it_name[i] == name) {
			if (!first) first = i
			if (it_doc[i] && !it_doc[first]) first = i
		}
	print ".\\\" Generated from " it_file[first] " by scripts/tapset-man.awk: do not edit." > f
	printf ".TH \"%s::%s\" 3stap \"\" \"stap-ng\" \"%s\"\n", toupper(kind), toupper(name),
	    kind == "function" ? "Tapset Functions" : (kind == "macro" ? "Tapset Macros" : "Tapset Probes") > f
	print ".SH NAME" > f
	print kind "::" roff(name) " \\- " roff(it_summary[first] != "" ? it_summary[first] : "(undocumented)") > f
	print ".SH SYNOPSIS" > f
	print ".nf" > f
	for (i = 1; i <= nitems; i++)
		if (it_kind[i] == kind && it_name[i] == name)
			print roff(kind == "probe" ? "probe " name : it_sig[i]) > f
	print ".fi" > f
	sect = 0
	for (i = 1; i <= nitems; i++) {
		if (it_kind[i] != kind || it_name[i] != name) continue
		for (k = 1; k <= it_nat[i]; k++) {
			if ((it_at[i, k]) in shown) continue	# overloads share names
			shown[it_at[i, k]] = 1
			if (!sect++)
				print ".SH " (kind == "probe" ? "VALUES" : "ARGUMENTS") > f
			print ".TP" > f
			print "\\fI" roff(it_at[i, k]) "\\fR" > f
			print roff(it_attext[i, k]) > f
		}
	}
	if (kind == "macro" && !sect)
		print ".SH ARGUMENTS\nNone" > f
	sect = 0
	for (i = 1; i <= nitems; i++) {
		if (it_kind[i] != kind || it_name[i] != name) continue
		if (it_desc[i] == "" && (i == first || it_summary[i] == "")) continue
		if (!sect++) print ".SH DESCRIPTION" > f
		else print ".PP" > f
		# Overloads: each one's own summary heads its text.
		if (i != first && it_summary[i] != "")
			print roff(it_sig[i] ": " it_summary[i]) "\n.PP" > f
		n = split(it_desc[i], d, "\n")
		pre = 0
		for (j = 1; j <= n; j++) {
			ln = d[j]
			if (ln ~ /^[ \t][ \t]/) {	# indented: an example, kept as is
				if (!pre) { print ".PP\n.RS\n.nf" > f; pre = 1 }
				print roff(ln) > f
				continue
			}
			if (pre) { print ".fi\n.RE" > f; pre = 0 }
			if (trim(ln) == "") {
				if (j < n && trim(d[j + 1]) != "") print ".PP" > f
				continue
			}
			print roff(ln) > f
		}
		if (pre) print ".fi\n.RE" > f
	}
	print ".SH FILES" > f
	ln = it_file[first]
	sub(/.*\//, "", ln)
	print roff("tapsets/" ln) > f
	print ".SH SEE ALSO" > f
	if (kind == "macro") {
		print ".BR stap (1)" > f	# its MACROS section
	} else {
		print ".BR stap (1)," > f
		print ".BR stapprobes (3stap)" > f
	}
	close(f)
}

# Give item i the @ entries of the alias its "Variables: as NAME" names
# (that alias's own reference first), those it does not have itself.
function resolve(i, depth,    j, k, m, have) {
	if (it_ref[i] == "" || depth > 8) return
	for (j = 1; j <= nitems; j++)
		if (it_kind[j] == "probe" && it_name[j] == it_ref[i]) break
	if (j > nitems) {
		if (mode == "check") printf "%s:%d: probe %s: no alias %s to take the variables of\n",
		    it_file[i], it_line[i], it_name[i], it_ref[i]
		badref++
		it_ref[i] = ""
		return
	}
	resolve(j, depth + 1)
	for (k = 1; k <= it_nat[j]; k++) {
		have = 0
		for (m = 1; m <= it_nat[i]; m++) if (it_at[i, m] == it_at[j, k]) have = 1
		if (have) continue
		m = ++it_nat[i]
		it_at[i, m] = it_at[j, k]
		it_attext[i, m] = it_attext[j, k]
		it_atline[i, m] = it_atline[j, k]
	}
	it_ref[i] = ""
}

END {
	for (i = 1; i <= nitems; i++) resolve(i, 0)
	if (mode == "check" || mode == "coverage")
		exit (check() + badref) && mode == "check" ? 1 : 0
	if (mode != "man" || out == "") {
		print "usage: awk -f tapset-man.awk -v mode=man|check|coverage [-v out=DIR] FILE..." > "/dev/stderr"
		exit 2
	}
	for (i = 1; i <= nitems; i++) {
		key = it_kind[i] SUBSEP it_name[i]
		if (key in done || it_kind[i] == "skip") continue
		done[key] = 1
		page(it_kind[i], it_name[i])
	}
}
