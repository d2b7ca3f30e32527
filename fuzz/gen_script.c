// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * gen_script SEED: print a random script that is valid by construction
 * (every variable has one type, every function and global is declared),
 * drawn from the grammar: probes begin, end, timer.ms/s and
 * kernel.function (entry and .return), scalar, string, array and
 * statistics globals, functions of numbers and of strings, if/else,
 * for, while, foreach (sorted, limited), delete, printf, string
 * functions and the statistics operators.  The same SEED gives the same
 * script.  fuzz/gen_check.sh builds many of them at pass 4: any failure
 * is a translator bug (its C does not compile, or pass 2 refuses a valid
 * script).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

static unsigned long long rng;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng >> 33) % n;
}

static void out(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
}

static void indent(int d)
{
	while (d--)
		out("\t");
}

/* What the script declares: counts of each kind of global and function. */
enum { NG = 3, NS = 2, NA = 2, NST = 2, NF = 3, NSF = 2 };
/* Locals of the function or probe being written: n0.. numbers, s0.. strings. */
static int nlocals, slocals;
/* Arrays a foreach is iterating (they must not be written in its body). */
static int busy[NA];
static int in_func;		/* index + 1 of the function being written */

static void num_expr(int depth);

static void str_expr(int depth)
{
	unsigned int k = depth > 3 ? rnd(3) : rnd(9);

	switch (k) {
	case 0:
		out("\"%c%c\"", 'a' + rnd(26), 'a' + rnd(26));
		break;
	case 1:
		out("gs%u", rnd(NS));
		break;
	case 2:
		out("s%u", rnd(slocals));
		break;
	case 3:
		str_expr(depth + 1);
		out(" . ");
		str_expr(depth + 1);
		break;
	case 4:
		out("sprintf(\"%%d-%%s\", ");
		num_expr(depth + 1);
		out(", ");
		str_expr(depth + 1);
		out(")");
		break;
	case 5:
		out("substr(");
		str_expr(depth + 1);
		out(", %u, %u)", rnd(3), rnd(4));
		break;
	case 6:
		if (in_func && in_func - 1 - NF <= 0) {
			out("\"f\"");
			break;
		}
		out("sf%u(", rnd(in_func ? in_func - 1 - NF : NSF));
		str_expr(depth + 1);
		out(")");
		break;
	case 7:
		out("(");
		num_expr(depth + 1);
		out(" ? ");
		str_expr(depth + 1);
		out(" : ");
		str_expr(depth + 1);
		out(")");
		break;
	default:
		out("sprint(");
		num_expr(depth + 1);
		out(")");
		break;
	}
}

static void num_expr(int depth)
{
	static const char *const ops[] = { "+", "-", "*", "&", "|", "^", "<<", ">>",
					   "<", "<=", "==", "!=", ">", ">=", "&&", "||" };
	unsigned int k = depth > 3 ? rnd(3) : rnd(14);

	switch (k) {
	case 0:
		out("%d", (int)rnd(100) - 10);
		break;
	case 1:
		out("g%u", rnd(NG));
		break;
	case 2:
		out("n%u", rnd(nlocals));
		break;
	case 3:
	case 4:
		out("(");
		num_expr(depth + 1);
		out(" %s ", ops[rnd(sizeof(ops) / sizeof(ops[0]))]);
		num_expr(depth + 1);
		out(")");
		break;
	case 5:	/* never a zero divisor: the module would stop, not fail to build */
		out("(");
		num_expr(depth + 1);
		out(" %s %u)", rnd(2) ? "/" : "%", 1 + rnd(9));
		break;
	case 6:
		out("ga%u[", rnd(NA));
		num_expr(depth + 1);
		out("]");
		break;
	case 7:
		out("strlen(");
		str_expr(depth + 1);
		out(")");
		break;
	case 8:
		out("@count(gst%u)", rnd(NST));
		break;
	case 9: {
		static const char *const st[] = { "@sum", "@min", "@max", "@avg" };
		unsigned int g = rnd(NST);

		out("(@count(gst%u) ? %s(gst%u) : 0)", g, st[rnd(4)], g);
		break;
	}
	case 10:
		if (in_func == 1 || (in_func > NF)) {
			out("1");
			break;
		}
		out("f%u(", rnd(in_func ? in_func - 1 : NF));
		num_expr(depth + 1);
		out(", ");
		num_expr(depth + 1);
		out(")");
		break;
	case 11:
		out("(");
		num_expr(depth + 1);
		out(" in ga%u)", rnd(NA));
		break;
	case 12:
		out("isinstr(");
		str_expr(depth + 1);
		out(", \"%c\")", 'a' + rnd(26));
		break;
	default:
		out("(!");
		num_expr(depth + 1);
		out(")");
		break;
	}
}

static void stmt(int d, int depth);

static void block(int d, int depth)
{
	int n = 1 + rnd(3);

	out("{\n");
	while (n--)
		stmt(d + 1, depth + 1);
	indent(d);
	out("}");
}

static void stmt(int d, int depth)
{
	unsigned int k = depth > 2 ? rnd(6) : rnd(13);
	unsigned int a;

	indent(d);
	switch (k) {
	case 0:
		out("n%u = ", rnd(nlocals));
		num_expr(0);
		break;
	case 1:
		out("s%u = ", rnd(slocals));
		str_expr(0);
		break;
	case 2:
		out("g%u %s ", rnd(NG), rnd(2) ? "+=" : "=");
		num_expr(0);
		break;
	case 3:
		a = rnd(NA);
		if (busy[a]) {
			out("gs%u = ", rnd(NS));
			str_expr(0);
			break;
		}
		out("ga%u[", a);
		num_expr(0);
		out("] %s ", rnd(2) ? "=" : "+=");
		num_expr(0);
		break;
	case 4:
		out("gst%u <<< ", rnd(NST));
		num_expr(0);
		break;
	case 5:
		out("printf(\"%%d %%s\\n\", ");
		num_expr(0);
		out(", ");
		str_expr(0);
		out(")");
		break;
	case 6:
		out("if (");
		num_expr(0);
		out(") ");
		block(d, depth);
		if (rnd(2)) {
			out(" else ");
			block(d, depth);
		}
		break;
	case 7:
		out("for (n%u = 0; n%u < %u; n%u++) ", nlocals - 1, nlocals - 1, 1 + rnd(5),
		    nlocals - 1);
		block(d, depth);
		break;
	case 8: {
		static const char *const sorts[] = { "", "+", "-" };

		a = rnd(NA);
		out("foreach ([n0] in ga%u%s%s) ", a, sorts[rnd(3)], rnd(2) ? " limit 3" : "");
		busy[a]++;
		block(d, depth);
		busy[a]--;
		break;
	}
	case 9:
		a = rnd(NA);
		if (busy[a]) {
			out("println(gs%u)", rnd(NS));
			break;
		}
		out("delete ga%u", a);
		if (rnd(2)) {
			out("[");
			num_expr(0);
			out("]");
		}
		break;
	case 10:
		out("while (n%u < %u) ", nlocals - 1, 3 + rnd(5));
		out("{\n");
		indent(d + 1);
		out("n%u++\n", nlocals - 1);
		stmt(d + 1, depth + 1);
		indent(d);
		out("}");
		break;
	case 11:
		out("foreach (n1 = n2 in ga%u) ", rnd(NA));
		a = rnd(NA);
		out("{\n");
		indent(d + 1);
		out("gst%u <<< n1 + n2\n", rnd(NST));
		indent(d);
		out("}");
		break;
	default:
		out("println(");
		str_expr(0);
		out(")");
		break;
	}
	out("\n");
}

/* The locals a body may read are all set first. */
static void locals_init(int d)
{
	for (int i = 0; i < nlocals; i++) {
		indent(d);
		out("n%d = %u\n", i, rnd(10));
	}
	for (int i = 0; i < slocals; i++) {
		indent(d);
		out("s%d = \"%c\"\n", i, 'a' + rnd(26));
	}
}

static void body(int d)
{
	int n = 2 + rnd(5);

	nlocals = 3;	/* n0 foreach key, n1/n2 foreach value pair, last: loops */
	slocals = 1 + rnd(2);
	locals_init(d);
	while (n--)
		stmt(d, 0);
}

int main(int argc, char **argv)
{
	static const char *const points[] = {
		"begin", "end", "timer.ms(100)", "timer.s(1)",
		"kernel.function(\"vfs_read\")", "kernel.function(\"vfs_write\").return",
	};
	int nprobes;

	if (argc != 2) {
		fprintf(stderr, "usage: gen_script SEED\n");
		return 2;
	}
	rng = strtoull(argv[1], NULL, 10) * 2654435761ULL + 1;
	out("# gen_script %s\n", argv[1]);
	for (int i = 0; i < NG; i++)
		out("global g%d\n", i);
	for (int i = 0; i < NS; i++)
		out("global gs%d\n", i);
	for (int i = 0; i < NA; i++)
		out("global ga%d%s\n", i, rnd(2) ? "[100]" : "");
	for (int i = 0; i < NST; i++)
		out("global gst%d\n", i);
	/* f0..: numbers; each calls only those before it (no recursion). */
	for (int i = 0; i < NF; i++) {
		in_func = i + 1;
		out("\nfunction f%d(a, b) {\n", i);
		body(1);
		out("\treturn a + b + n0\n}\n");
	}
	for (int i = 0; i < NSF; i++) {
		in_func = NF + 1 + i;
		out("\nfunction sf%d:string(x:string) {\n", i);
		body(1);
		out("\treturn x . s0\n}\n");
	}
	/* Every global's type is fixed here, whatever the rest uses. */
	out("\nprobe begin {\n");
	for (int i = 0; i < NG; i++)
		out("\tg%d = %u\n", i, rnd(5));
	for (int i = 0; i < NS; i++)
		out("\tgs%d = \"%c\"\n", i, 'a' + rnd(26));
	for (int i = 0; i < NA; i++)
		out("\tga%d[%u] = %u\n", i, rnd(5), rnd(5));
	for (int i = 0; i < NST; i++)
		out("\tgst%d <<< %u\n", i, rnd(5));
	out("}\n");
	in_func = 0;
	nprobes = 2 + rnd(4);
	for (int i = 0; i < nprobes; i++) {
		out("\nprobe %s {\n", points[i == 0 ? 0 : rnd(6)]);
		body(1);
		if (i == 0)
			out("\tif (g0 > 1000) exit()\n");
		out("}\n");
	}
	out("\nprobe timer.s(2) { exit() }\n");
	return 0;
}
