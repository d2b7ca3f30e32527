# SPDX-License-Identifier: GPL-2.0-or-later
# The manual pages of the generated system call aliases (POSIX awk, run
# at build time): from scripts/syscall-aliases.tsv, which
# scripts/syscall-man.sh makes from what translator/syscalls.c derives
# from a kernel (its columns are described there).
#
# awk -f syscall-man.awk -v out=DIR scripts/syscall-aliases.tsv
#     writes DIR/probe::syscall.NAME.3stap and probe::syscall.NAME.return.3stap
#     for each call, and probe::nd_syscall.NAME(.return).3stap, which
#     include them (nd_syscall.NAME is the same probe); and
#     tapset::syscalls.3stap, the list of them all with their variables.

function roff(s) {
	gsub(/\\/, "\\e", s)
	gsub(/-/, "\\-", s)
	if (s ~ /^[.']/) s = "\\&" s
	return s
}

function head(f, pname, summary) {
	print ".\\\" Generated from scripts/syscall-aliases.tsv by scripts/syscall-man.awk: do not edit." > f
	printf ".TH \"PROBE::%s\" 3stap \"\" \"stap-ng\" \"Tapset Probes\"\n", toupper(pname) > f
	print ".SH NAME" > f
	print "probe::" roff(pname) " \\- " roff(summary) > f
}

function value(f, v, text) {
	print ".TP" > f
	print "\\fI" roff(v) "\\fR" > f
	print roff(text) > f
}

# What variable v (of type t) of call name holds, by its name: an
# argument, its user address, its text or its unquoted string.
function describe(v, t, name, kname,    i, base, what) {
	if (v == "name")
		return "the system call's name" (name == kname ? ": \"" name "\"" : \
		    ": \"" name "\" or the kernel's \"" kname "\"")
	if (v == "argstr")
		return "the arguments as text, as strace(1) shows them: " \
		    "flags and constants by name, user strings quoted"
	for (i = 1; i <= na; i++) {
		what = "argument " i (i <= np ? " (" proto[i] ")" : "")
		if (v == arg[i])
			return what (t == "string" ? ", the user string quoted" : "")
		if (v == arg[i] "_unquoted" || v == arg[i] "_str_unquoted")
			return what ", the user string without quotes"
		if (v == arg[i] "_uaddr")
			return what ", a user address"
		if (v == arg[i] "_str")
			return what (t == "string" ? " as argstr shows it" : "")
	}
	return "derived from the arguments (" (t == "string" ? "text" : "a number") \
	    "; see argstr)"
}

/^#/ { next }

# A name may be two calls' (syscall.pipe is pipe and pipe2): one page each.
{
	split($0, col, "\t")
	if (!(col[1] in cnt)) order[++nnames] = col[1]
	rec[col[1], ++cnt[col[1]]] = $0
}

# Call k of the name's: its columns into col, proto, arg.
function load(name, k,    n) {
	n = split(rec[name, k], col, "\t")
	kname = col[2]; nr = col[3]; nr32 = col[4]
	np = col[5] == "-" || col[5] == "void" ? 0 : split(col[5], proto, /, /)
	na = col[6] == "-" ? 0 : split(col[6], arg, / /)
	return n
}

END {
	for (o = 1; o <= nnames; o++)
		pages(order[o])
	overview()
}

# tapset::syscalls(3stap): every alias and its variables but name and
# argstr, which all have, as SystemTap's page of that name lists them.
function overview(    f, o, name, n, i, v, list) {
	f = out "/tapset::syscalls.3stap"
	print ".\\\" Generated from scripts/syscall-aliases.tsv by scripts/syscall-man.awk: do not edit." > f
	print ".TH \"TAPSET::SYSCALLS\" 3stap \"\" \"stap-ng\" \"Tapset Probes\"" > f
	print ".SH NAME\ntapset::syscalls \\- the system call probe aliases" > f
	print ".SH DESCRIPTION" > f
	print roff("Every system call of the target kernel has the aliases syscall.NAME and " \
	    "syscall.NAME.return, and nd_syscall.NAME and nd_syscall.NAME.return, the same " \
	    "probes.  Each entry alias has name and argstr; each return alias has name, " \
	    "retval and retstr.  Below, each alias with its other variables; " \
	    "probe::syscall.NAME(3stap) says what each holds.") > f
	for (o = 1; o <= nnames; o++) {
		name = order[o]
		n = load(name, cnt[name])
		n = n >= 7 && col[7] != "-" ? split(col[7], vars, / /) : 0
		list = ""
		for (i = 1; i <= n; i++) {
			v = vars[i]
			sub(/:.*/, "", v)
			if (v != "name" && v != "argstr")
				list = list (list == "" ? "" : ", ") v
		}
		print ".TP\n\\fBsyscall." roff(name) "\\fR" > f
		print (list == "" ? "(none)" : roff(list)) > f
	}
	print ".SH SEE ALSO" > f
	print ".BR probe::syscall_any (3stap)," > f
	print ".BR stapprobes (3stap)" > f
	close(f)
}

function pages(name,    f, i, k, n, nv, vars, v, t, pname, knames) {
	n = load(name, cnt[name])	# the last one's variables: -L's, the same for all
	nv = n >= 7 && col[7] != "-" ? split(col[7], vars, / /) : 0
	load(name, 1)
	knames = kname
	for (k = 2; k <= cnt[name]; k++) {
		load(name, k)
		knames = knames " and " kname
	}
	load(name, 1)

	pname = "syscall." name
	f = out "/probe::" pname ".3stap"
	head(f, pname, "Record entry into the " knames " system call" (cnt[name] > 1 ? "s" : ""))
	print ".SH SYNOPSIS\n.nf\nsyscall." roff(name) "\nnd_syscall." roff(name) "\n.fi" > f
	print ".SH VALUES" > f
	for (i = 1; i <= nv; i++) {
		v = vars[i]; t = v
		sub(/:.*/, "", v); sub(/^[^:]*:/, "", t)
		value(f, v, describe(v, t, name, kname) " (" t ")")
	}
	print ".SH CONTEXT\nThe process making the system call." > f
	print ".SH DESCRIPTION" > f
	for (k = 1; k <= cnt[name]; k++) {
		load(name, k)
		nr32s = nr32
		gsub(/,/, ", ", nr32s)
		if (k > 1) print ".PP" > f
		print roff("Fires on entry to the " kname " system call: " \
		    (nr == "-1" ? "a 32-bit (ia32) task's only, number " nr32 ", whose arguments come from its 32-bit registers" : \
		    "number " nr " of x86-64" \
		    (nr32 ~ /,/ ? ", and numbers " nr32s " of a 32-bit (ia32) task, whose arguments come from its 32-bit registers" : \
		    nr32 != "-" ? ", and number " nr32 " of a 32-bit (ia32) task, whose arguments come from its 32-bit registers" : \
		    " (a 32-bit task's call of that name, if any, is not covered)")) \
		    ", at the raw_syscalls:sys_enter tracepoint.  The kernel's prototype: long sys_" \
		    kname "(" (col[5] == "-" ? "..." : col[5]) ").") > f
	}
	load(name, 1)
	print ".PP" > f
	print roff("nd_syscall." name " is the same probe.  The alias, its variables and " \
	    "argstr are derived from the target kernel's system call table and prototypes " \
	    "(translator/syscalls.c), so another kernel may differ; " \
	    "stap -L syscall." name " lists what it has there.") > f
	print ".SH SEE ALSO" > f
	print ".BR probe::syscall." roff(name) ".return (3stap)," > f
	print ".BR " roff(kname) " (2)," > f
	print ".BR stapprobes (3stap)" > f
	close(f)

	f = out "/probe::" pname ".return.3stap"
	head(f, pname ".return", "Record return from the " knames " system call" (cnt[name] > 1 ? "s" : ""))
	print ".SH SYNOPSIS\n.nf\nsyscall." roff(name) ".return\nnd_syscall." roff(name) ".return\n.fi" > f
	print ".SH VALUES" > f
	value(f, "name", describe("name", "string", name, kname) " (string)")
	value(f, "retval", "the return value: a negative errno on failure (long)")
	value(f, "retstr", "the return value as text: \"3\", or \"-2 (ENOENT)\" on failure (string)")
	print ".SH CONTEXT\nThe process making the system call." > f
	print ".SH DESCRIPTION" > f
	print roff("Fires on return from the " knames " system call" (cnt[name] > 1 ? "s" : "") \
	    " (at the raw_syscalls:sys_exit tracepoint), for the calls syscall." name " covers.") > f
	print ".SH SEE ALSO" > f
	print ".BR probe::syscall." roff(name) " (3stap)," > f
	print ".BR stapprobes (3stap)" > f
	close(f)

	f = out "/probe::nd_syscall." name ".3stap"
	print ".so man3/probe::syscall." name ".3stap" > f
	close(f)
	f = out "/probe::nd_syscall." name ".return.3stap"
	print ".so man3/probe::syscall." name ".return.3stap" > f
	close(f)
}
