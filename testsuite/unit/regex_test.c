// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit test for translator/regex.c.  Compiles every pattern below with
 * rx_compile(), emits the matchers with rx_emit_c() into one C file with
 * a small harness, builds that with the host compiler (no libc header
 * before the emitted code: it must only need the integer types), runs it,
 * and checks each answer against the table and against glibc's
 * regcomp/regexec(REG_EXTENDED): match or not, and group 0.  Then the
 * same for a few thousand random patterns and subjects over a small
 * alphabet (fixed seed), where groups 1..n are compared with glibc only
 * for a statistic: we promise a different rule there (see regex.h).
 *
 *   regex_test [-v] [-n FUZZ_PATTERNS] [-k]   (-k keeps the work directory)
 *
 * Environment: CC (default cc).  Prints a FAIL line per failure; exit
 * status 0 if all passed, 1 otherwise, 77 if no C compiler works.
 */
/* By path: with -I translator, <regex.h> would find ours, not glibc's. */
#include "../../translator/regex.h"
#include "util.h"

#include <regex.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ERR (-1)

struct tcase {
	const char *pat;
	const char *subj;
	int match;		/* 1, 0, or ERR: rx_compile must fail with msg */
	const char *want;	/* "s,e s,e ..." for every group, or NULL; ERR: the message */
};

static const struct tcase cases[] = {
	/* literals, search, anchors */
	{ "abc", "xabcx", 1, "1,4" },
	{ "abc", "ab", 0, NULL },
	{ "", "", 1, "0,0" },
	{ "", "abc", 1, "0,0" },
	{ "a", "", 0, NULL },
	{ "^abc", "abcd", 1, "0,3" },
	{ "^abc", "xabc", 0, NULL },
	{ "abc$", "xabc", 1, "1,4" },
	{ "abc$", "abcx", 0, NULL },
	{ "^$", "", 1, "0,0" },
	{ "^$", "x", 0, NULL },
	{ "^", "abc", 1, "0,0" },
	{ "$", "abc", 1, "3,3" },
	{ "a^b", "a^b", 0, NULL },
	{ "a$b", "a$b", 0, NULL },
	{ "a\\$b", "a$b", 1, "0,3" },
	{ "a\\^b", "a^b", 1, "0,3" },
	{ "(^a|b)", "ba", 1, "0,1 0,1" },
	{ "(^a|b)", "cab", 1, "2,3 2,3" },
	{ "x$|y", "xy", 1, "1,2" },
	{ "$^", "", 1, "0,0" },
	{ "^()$", "", 1, "0,0 0,0" },
	{ "^a*$", "", 1, "0,0" },
	{ "(^|a)$", "", 1, "0,0 0,0" },
	{ "(^|a)$", "ba", 1, "1,2 1,2" },
	{ "^(a|b)*$", "abba", 1, "0,4 3,4" },
	{ "^(a|b)*$", "abca", 0, NULL },
	/* leftmost, then longest */
	{ "a|ab|abc", "abcd", 1, "0,3" },
	{ "(a|ab)(c|bcd)", "abcd", 1, "0,4 0,1 1,4" },
	{ "(a|ab)(bc|c)", "abc", 1, "0,3 0,1 1,3" },
	{ "(ab|a)(bc|c)", "abc", 1, "0,3 0,2 2,3" },
	{ "a*", "baaa", 1, "0,0" },
	{ "a+", "baaa", 1, "1,4" },
	{ "a*b", "aaab", 1, "0,4" },
	{ "b+", "abbbcbb", 1, "1,4" },
	{ "x*y|x", "xxz", 1, "0,1" },
	/* groups and repetition */
	{ "(a*)(a*)", "aa", 1, "0,2 0,2 2,2" },
	{ "(a*)*", "b", 1, "0,0 0,0" },
	{ "(a*)*", "aa", 1, "0,2 0,2" },
	{ "(a*)+", "b", 1, "0,0 0,0" },
	{ "(a|b)*", "ab", 1, "0,2 1,2" },
	{ "(a|(b))*", "ba", 1, "0,2 1,2 0,1" },
	{ "(a(b)?)+", "aba", 1, "0,3 2,3 1,2" },
	{ "(a?)*", "aa", 1, "0,2 1,2" },
	{ "(.*)(.*)", "xy", 1, "0,2 0,2 2,2" },
	{ "x(a*)*y", "xy", 1, "0,2 1,1" },
	{ "(a*)+$", "aab", 1, "3,3 3,3" },
	{ "(a)(b)(c)", "abc", 1, "0,3 0,1 1,2 2,3" },
	{ "((a)(b))", "ab", 1, "0,2 0,2 0,1 1,2" },
	{ "(a)|(b)", "b", 1, "0,1 -1,-1 0,1" },
	{ "(a)|b", "b", 1, "0,1 -1,-1" },
	{ "(a(b(c)))", "abc", 1, "0,3 0,3 1,3 2,3" },
	{ "(cat|dog)s?", "hotdogs", 1, "3,7 3,6" },
	{ "cat|dog|bird", "hotdog", 1, "3,6" },
	{ "([0-9]+)\\.([0-9]+)", "v1.25x", 1, "1,5 1,2 3,5" },
	{ "^([^=]+)=(.*)$", "key=val=x", 1, "0,9 0,3 4,9" },
	{ "([a-z]+)@([a-z]+)\\.com", "mail bob@ex.com now", 1, "5,15 5,8 9,11" },
	{ "(a){0}b", "ab", 1, "1,2 -1,-1" },
	{ "(ab){2}", "ababab", 1, "0,4 2,4" },
	{ "(a|b){2,3}", "abab", 1, "0,3 2,3" },
	/* counted repetition */
	{ "a{2}", "aaa", 1, "0,2" },
	{ "a{2,}", "aaaa", 1, "0,4" },
	{ "a{,2}", "aaa", 1, "0,2" },
	{ "a{1,2}b", "aaab", 1, "1,4" },
	{ "a{0}b", "ab", 1, "1,2" },
	{ "a{3}", "aa", 0, NULL },
	{ "x{2,3}y", "xxxxy", 1, "1,5" },
	{ "a{1}{2}", "xaa", 1, "1,3" },
	{ "a**", "xaa", 1, "0,0" },
	{ "a+*", "aa", 1, "0,2" },
	{ "(ab|c){1,}d", "xababcd", 1, "1,7 5,6" },
	/* brackets */
	{ "[abc]+", "xxbcay", 1, "2,5" },
	{ "[^abc]+", "abxyzc", 1, "2,5" },
	{ "[a-c]+", "dabce", 1, "1,4" },
	{ "[]a]+", "x]a]", 1, "1,4" },
	{ "[^]a]", "]ab", 1, "2,3" },
	{ "[a-]+", "b-a-", 1, "1,4" },
	{ "[%--]", "-", 1, "0,1" },
	{ "[\\]]", "a\\]", 1, "1,3" },
	{ "[[:digit:]]+", "ab123c", 1, "2,5" },
	{ "[[:alpha:]_][[:alnum:]_]*", "9 foo_1 bar", 1, "2,7" },
	{ "[[:space:]]", "a\tb", 1, "1,2" },
	{ "[[:upper:][:digit:]]+", "abC9Dx", 1, "2,5" },
	{ "[[:xdigit:]]+", "xx0fAgz", 1, "2,5" },
	{ "[[:punct:]]", "ab,c", 1, "2,3" },
	{ "[[:lower:]]+", "ABcdE", 1, "2,4" },
	{ "[[:blank:]]", "a\nb c", 1, "3,4" },
	{ "[[:cntrl:]]", "ab\001", 1, "2,3" },
	{ "[[:print:]]+", "\001ab c\002", 1, "1,5" },
	{ "[[:graph:]]+", " ab c", 1, "1,3" },
	{ "[[.a.]]", "ba", 1, "1,2" },
	{ "[[=a=]]", "ba", 1, "1,2" },
	{ "[[.-.]a]+", "x-a-", 1, "1,4" },
	/* dot, escapes, bytes */
	{ "a.c", "abc", 1, "0,3" },
	{ "a.c", "a\nc", 1, "0,3" },
	{ ".", "", 0, NULL },
	{ "a.*b", "xaxxbyb", 1, "1,7" },
	{ "a\\.b", "a.b", 1, "0,3" },
	{ "a\\.b", "axb", 0, NULL },
	{ "\\(a\\)", "(a)", 1, "0,3" },
	{ "a\\*", "aa*", 1, "1,3" },
	{ "\\{", "a{", 1, "1,2" },
	{ "\\w+", "-ab_1-", 1, "1,5" },
	{ "\\W+", "ab-+c", 1, "2,4" },
	{ "\\s+", "a \t b", 1, "1,4" },
	{ "\\S+", "  ab ", 1, "2,4" },
	{ ".", "\xc3\xa9", 1, "0,1" },
	{ "[^a]", "\xff", 1, "0,1" },
	{ "\xc3\xa9", "caf\xc3\xa9", 1, "3,5" },
	/* empty alternatives and groups */
	{ "a|", "b", 1, "0,0" },
	{ "|a", "a", 1, "0,1" },
	{ "()", "x", 1, "0,0 0,0" },
	{ "(|a)", "a", 1, "0,1 0,1" },
	{ "(a||b)", "b", 1, "0,1 0,1" },
	/* typical tracing patterns */
	{ "^(sys_)?(read|write)v?$", "sys_writev", 1, "0,10 0,4 4,9" },
	{ "^/usr/(lib|lib64)/", "/usr/lib64/libc.so", 1, "0,11 5,10" },
	{ "\\.so(\\.[0-9]+)*$", "/lib/libm.so.6.1", 1, "9,16 14,16" },
	{ "^[a-z_]+:[0-9]+$", "vfs_read:12", 1, "0,11" },
	{ "error|fail", "no problems here", 0, NULL },
	/* errors, with their exact text */
	{ "a(b", NULL, ERR, "unmatched '(' at offset 1" },
	{ "a)", NULL, ERR, "unmatched ')' at offset 1" },
	{ "[abc", NULL, ERR, "unmatched '[' at offset 0" },
	{ "[[:alpha:]", NULL, ERR, "unmatched '[' at offset 0" },
	{ "*a", NULL, ERR, "'*' at offset 0 follows nothing that can be repeated" },
	{ "a|*b", NULL, ERR, "'*' at offset 2 follows nothing that can be repeated" },
	{ "(+a)", NULL, ERR, "'+' at offset 1 follows nothing that can be repeated" },
	{ "{1}", NULL, ERR, "'{' at offset 0 follows nothing that can be repeated" },
	{ "^*", NULL, ERR, "'*' at offset 1 follows an anchor, which cannot be repeated" },
	{ "a{2,1}", NULL, ERR, "invalid repetition count {2,1} at offset 1" },
	{ "a{1", NULL, ERR, "unmatched '{' at offset 1" },
	{ "a{", NULL, ERR, "unmatched '{' at offset 1" },
	{ "a{}", NULL, ERR, "invalid repetition count at offset 1" },
	{ "a{256}", NULL, ERR, "repetition count at offset 1 exceeds RX_DUP_MAX (255)" },
	{ "[z-a]", NULL, ERR, "invalid range end at offset 3 (range 'z-a' is empty)" },
	{ "[a-[:alpha:]]", NULL, ERR, "invalid range end at offset 3" },
	{ "[[:alpha:]-z]", NULL, ERR, "invalid range start at offset 1" },
	{ "[[:foo:]]", NULL, ERR, "unknown character class '[:foo:]' at offset 1" },
	{ "[[.ab.]]", NULL, ERR, "invalid collating element at offset 1" },
	{ "(a)\\1", NULL, ERR, "back reference '\\1' at offset 3 is not supported" },
	{ "a\\", NULL, ERR, "trailing backslash at offset 1" },
	{ "\\bfoo", NULL, ERR, "'\\b' at offset 0 is not supported" },
	{ "[ab]*a[ab]{12}", NULL, ERR,
	  "regular expression too complex (more than RX_MAX_DFA = 4096 DFA states)" },
	{ "((a{200}){200})", NULL, ERR,
	  "regular expression too complex (more than RX_MAX_NFA = 4000 automaton nodes)" },
};

static int verbose, keep;
static int nfail;

static void PRINTF_LIKE(1, 2) failf(const char *fmt, ...)
{
	va_list ap;

	nfail++;
	printf("FAIL: ");
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
}

/* A C string literal for s, or for the pattern in messages. */
static void put_cstr(struct strbuf *sb, const char *s)
{
	sb_putc(sb, '"');
	for (; *s; s++) {
		unsigned char ch = *s;

		if (ch == '"' || ch == '\\' || ch == '?' || ch < ' ' || ch > '~')
			sb_printf(sb, "\\%03o", ch);
		else
			sb_putc(sb, ch);
	}
	sb_putc(sb, '"');
}

/* A quoted s for messages; the last four results stay valid. */
static const char *quote(const char *s)
{
	static struct strbuf sb[4];
	static int next;
	struct strbuf *b = &sb[next++ % 4];

	sb_reset(b);
	put_cstr(b, s);
	return sb_str(b);
}

/* ---- the cases one run checks ---- */

struct run {
	const char *pat, *subj;
	int match;		/* expected, or -2 to take glibc's */
	const char *want;	/* expected groups or NULL */
	int ngroups;
	int fn;			/* emitted matcher number */
	/* answers: DFA only, with groups, the groups */
	int r_dfa, r_cap;
	long long g[2 * 16];
	int done;
};

struct batch {
	struct run *runs;
	int n, cap;
	struct strbuf code;	/* emitted matchers */
	int nfn;
	size_t max_scratch;
};

static int add_pattern(struct batch *b, const struct rx_prog *p)
{
	char name[32];

	snprintf(name, sizeof(name), "rx%d", b->nfn);
	rx_emit_c(p, name, &b->code);
	if (rx_scratch_size(p) > b->max_scratch)
		b->max_scratch = rx_scratch_size(p);
	return b->nfn++;
}

static void add_run(struct batch *b, const char *pat, const char *subj,
		    int match, const char *want, int ngroups, int fn)
{
	struct run *r;

	if (b->n == b->cap) {
		b->cap = b->cap ? 2 * b->cap : 256;
		b->runs = xrealloc(b->runs, b->cap * sizeof(*b->runs));
	}
	r = &b->runs[b->n++];
	memset(r, 0, sizeof(*r));
	r->pat = pat;
	r->subj = subj;
	r->match = match;
	r->want = want;
	r->ngroups = ngroups > 16 ? 16 : ngroups;
	r->fn = fn;
}

/*
 * The harness: the emitted code first, with only the integer types
 * defined, then a main() that runs every case with the scratch exactly
 * as large as promised and filled with junk.
 */
static void write_harness(struct batch *b, struct strbuf *out)
{
	int i;

	sb_puts(out,
		"typedef __UINT8_TYPE__ uint8_t;\n"
		"typedef __UINT16_TYPE__ uint16_t;\n"
		"typedef __INT32_TYPE__ int32_t;\n"
		"typedef __INT64_TYPE__ int64_t;\n");
	rx_emit_engine(out);
	sb_add(out, b->code.buf, b->code.len);
	sb_puts(out,
		"\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
		"typedef int (*rx_fn)(const char *, int64_t *, int, void *);\n"
		"struct c { rx_fn fn; size_t scratch; int ng; const char *s; };\n"
		"static const struct c cases[] = {\n");
	for (i = 0; i < b->n; i++) {
		sb_printf(out, "\t{ rx%d, rx%d_SCRATCH, rx%d_NGROUPS, ",
			  b->runs[i].fn, b->runs[i].fn, b->runs[i].fn);
		put_cstr(out, b->runs[i].subj);
		sb_puts(out, " },\n");
	}
	sb_puts(out,
		"};\n"
		"int main(void)\n"
		"{\n"
		"\tsize_t i;\n"
		"\tint j;\n"
		"\n"
		"\tfor (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {\n"
		"\t\tconst struct c *c = &cases[i];\n"
		"\t\tstatic int64_t g[2 * 16];\n"
		"\t\tint ng = c->ng > 16 ? 16 : c->ng, r1, r2;\n"
		"\t\tvoid *scratch = malloc(c->scratch);\n"
		"\n"
		"\t\tmemset(scratch, 0xa5, c->scratch);\n"
		"\t\tfor (j = 0; j < 2 * 16; j++)\n"
		"\t\t\tg[j] = -7;\n"
		"\t\tr1 = c->fn(c->s, NULL, 0, NULL);\n"
		"\t\tr2 = c->fn(c->s, g, ng, scratch);\n"
		"\t\tprintf(\"%zu %d %d\", i, r1, r2);\n"
		"\t\tfor (j = 0; j < 2 * ng; j++)\n"
		"\t\t\tprintf(\" %lld\", (long long)g[j]);\n"
		"\t\tputchar('\\n');\n"
		"\t\tfree(scratch);\n"
		"\t}\n"
		"\treturn 0;\n"
		"}\n");
}

static const char *cc(void)
{
	const char *c = getenv("CC");

	return c && *c ? c : "cc";
}

static int sanitize = -1;	/* does cc -fsanitize=address,undefined work? */

/* Compile and run the harness; fill in the answers.  0, or -1. */
static int run_batch(struct batch *b, const char *dir, const char *tag)
{
	struct strbuf src = STRBUF_INIT, out = STRBUF_INIT;
	char *cfile = xasprintf("%s/%s.c", dir, tag);
	char *exe = xasprintf("%s/%s", dir, tag);
	char *argv[24];
	int argc = 0, rc, ret = -1;
	char *line, *save = NULL;

	write_harness(b, &src);
	if (write_file(cfile, src.buf, src.len) < 0) {
		failf("%s: cannot write", cfile);
		goto out;
	}
	if (verbose)
		printf("%s: %zu bytes of C for %d matchers\n", tag, src.len, b->nfn);
	argv[argc++] = (char *)cc();
	argv[argc++] = "-std=gnu11";
	argv[argc++] = "-O2";
	argv[argc++] = "-Wall";
	argv[argc++] = "-Wextra";
	argv[argc++] = "-Werror";
	argv[argc++] = "-Wdeclaration-after-statement";
	argv[argc++] = "-Wframe-larger-than=256";	/* probe-context stack */
	argv[argc++] = "-Wno-unused-parameter";
	if (sanitize > 0) {
		argv[argc++] = "-fsanitize=address,undefined";
		argv[argc++] = "-fno-sanitize-recover=all";
	}
	argv[argc++] = "-o";
	argv[argc++] = exe;
	argv[argc++] = cfile;
	argv[argc] = NULL;
	rc = run_cmd(argv, NULL, &out, 300);
	if (rc != 0) {
		failf("%s: %s failed (%d):\n%.4000s", tag, cc(), rc, sb_str(&out));
		goto out;
	}
	sb_reset(&out);
	argv[0] = exe;
	argv[1] = NULL;
	rc = run_cmd(argv, NULL, &out, 300);
	if (rc != 0) {
		failf("%s: harness exited %d:\n%.4000s", tag, rc, sb_str(&out));
		goto out;
	}
	for (line = strtok_r(out.buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		int i, j, n;
		char *p = line;
		struct run *r;

		if (sscanf(p, "%d %n", &i, &n) != 1 || i < 0 || i >= b->n)
			continue;
		r = &b->runs[i];
		p += n;
		if (sscanf(p, "%d %d%n", &r->r_dfa, &r->r_cap, &n) != 2)
			continue;
		p += n;
		for (j = 0; j < 2 * r->ngroups; j++) {
			if (sscanf(p, " %lld%n", &r->g[j], &n) != 1)
				break;
			p += n;
		}
		r->done = 1;
	}
	ret = 0;
out:
	sb_free(&src);
	sb_free(&out);
	free(cfile);
	free(exe);
	return ret;
}

static void fmt_groups(struct strbuf *sb, const long long *g, int n)
{
	for (int i = 0; i < n; i++)
		sb_printf(sb, "%s%lld,%lld", i ? " " : "", g[2 * i], g[2 * i + 1]);
}

/*
 * glibc's answer: 1/0 for match, -1 if it rejects the pattern, -2 if it
 * hangs (glibc's regexec can loop forever filling in groups for some
 * nested empty repetitions, e.g. "(()|a+)*b*" style patterns; we give it
 * a second).  With ng == 1 only group 0 is asked for, which glibc finds
 * without that code.
 */
static sigjmp_buf glibc_hung;

static void on_alarm(int sig)
{
	siglongjmp(glibc_hung, 1);
}

static int glibc_match(const char *pat, const char *subj, long long *g, int ng)
{
	static regex_t re;	/* static: survives the siglongjmp */
	static regmatch_t m[16];
	int rc, i;

	if (regcomp(&re, pat, REG_EXTENDED))
		return -1;
	signal(SIGALRM, on_alarm);
	if (sigsetjmp(glibc_hung, 1))
		return -2;	/* re leaks: glibc may be mid-update */
	alarm(1);
	rc = regexec(&re, subj, ng < 16 ? ng : 16, m, 0);
	alarm(0);
	for (i = 0; i < ng && i < 16; i++) {
		g[2 * i] = rc ? -1 : m[i].rm_so;
		g[2 * i + 1] = rc ? -1 : m[i].rm_eo;
	}
	regfree(&re);
	return rc == 0;
}

/*
 * ---- an independent referee for the random patterns ----
 *
 * glibc is not always right: "b{2}c+c|$.|a*(b)?(^[a-b]|()?)+" on "bbb"
 * gives 0,3 (only "b" at 0 can match: [a-b] must follow ^).  So the
 * random cases are judged by this set-based matcher instead, and glibc's
 * disagreements with it are counted.  It knows only the generator's
 * syntax, shares no code with regex.c, and computes for a node and a
 * start the set of possible end positions (subject <= 63 bytes); group 0
 * is then the leftmost start with a non-empty set and its largest end.
 */
enum { O_SET, O_EMPTY, O_BOL, O_EOL, O_CAT, O_ALT, O_REP };

struct onode {
	int kind, a, b, min, max;	/* max -1: no limit */
	unsigned char in[256];
};

struct oracle {
	struct onode n[512];
	int len;
	const char *p;
	const char *s;
	int slen;
};

static int o_new(struct oracle *o, int kind, int a, int b)
{
	struct onode *x = &o->n[o->len];

	memset(x, 0, sizeof(*x));
	x->kind = kind;
	x->a = a;
	x->b = b;
	return o->len++;
}

static int o_alt(struct oracle *o);

static int o_num(struct oracle *o)
{
	int v = -1;

	while (*o->p >= '0' && *o->p <= '9')
		v = (v < 0 ? 0 : v * 10) + *o->p++ - '0';
	return v;
}

static int o_piece(struct oracle *o)
{
	int x, y, i;

	switch (*o->p) {
	case '(':
		o->p++;
		x = o_alt(o);
		o->p++;			/* ')' */
		break;
	case '^':
		o->p++;
		return o_new(o, O_BOL, 0, 0);
	case '$':
		o->p++;
		return o_new(o, O_EOL, 0, 0);
	case '.':
		o->p++;
		x = o_new(o, O_SET, 0, 0);
		memset(o->n[x].in + 1, 1, 255);
		break;
	case '[': {
		int neg = o->p[1] == '^';

		o->p += 1 + neg;
		x = o_new(o, O_SET, 0, 0);
		while (*o->p != ']') {
			int lo = *o->p++, hi = lo;

			if (*o->p == '-' && o->p[1] != ']') {
				hi = o->p[1];
				o->p += 2;
			}
			for (i = lo; i <= hi; i++)
				o->n[x].in[i] = 1;
		}
		o->p++;
		if (neg)
			for (i = 1; i < 256; i++)
				o->n[x].in[i] = !o->n[x].in[i];
		break;
	}
	default:
		x = o_new(o, O_SET, 0, 0);
		o->n[x].in[(unsigned char)*o->p++] = 1;
	}
	for (;;) {
		int min, max;

		if (*o->p == '*')
			min = 0, max = -1;
		else if (*o->p == '+')
			min = 1, max = -1;
		else if (*o->p == '?')
			min = 0, max = 1;
		else if (*o->p == '{') {
			o->p++;
			min = o_num(o);
			max = min;
			if (*o->p == ',') {
				o->p++;
				max = o_num(o);
			}
			if (min < 0)
				min = 0;
		} else {
			return x;
		}
		o->p++;
		y = o_new(o, O_REP, x, 0);
		o->n[y].min = min;
		o->n[y].max = max;
		x = y;
	}
}

static int o_alt(struct oracle *o)
{
	int x = o_new(o, O_EMPTY, 0, 0);

	while (*o->p && *o->p != '|' && *o->p != ')')
		x = o_new(o, O_CAT, x, o_piece(o));
	if (*o->p == '|') {
		o->p++;
		x = o_new(o, O_ALT, x, o_alt(o));
	}
	return x;
}

/* End positions node x can reach from any start in the set from. */
static uint64_t o_ends(const struct oracle *o, int x, uint64_t from)
{
	const struct onode *n = &o->n[x];
	uint64_t r = 0, cur, next, all;
	int i, k;

	switch (n->kind) {
	case O_SET:
		for (i = 0; i < o->slen; i++)
			if ((from >> i & 1) && n->in[(unsigned char)o->s[i]])
				r |= 1ULL << (i + 1);
		return r;
	case O_EMPTY:
		return from;
	case O_BOL:
		return from & 1;
	case O_EOL:
		return from & (1ULL << o->slen);
	case O_CAT:
		return o_ends(o, n->b, o_ends(o, n->a, from));
	case O_ALT:
		return o_ends(o, n->a, from) | o_ends(o, n->b, from);
	case O_REP:
		cur = from;
		for (k = 0; k < n->min; k++)
			cur = o_ends(o, n->a, cur);
		all = cur;
		for (k = n->min; n->max < 0 || k < n->max; k++) {
			next = o_ends(o, n->a, cur);
			if ((all | next) == all && n->max < 0)
				break;	/* nothing new: a fixpoint */
			all |= next;
			cur = next;
		}
		return all;
	}
	return 0;
}

/* 1 and group 0 in g[0..1], or 0. */
static int oracle_match(const char *pat, const char *subj, long long *g)
{
	static struct oracle o;
	int root, st, e;

	o.len = 0;
	o.p = pat;
	o.s = subj;
	o.slen = strlen(subj);
	root = o_alt(&o);
	for (st = 0; st <= o.slen; st++) {
		uint64_t ends = o_ends(&o, root, 1ULL << st);

		if (!ends)
			continue;
		for (e = o.slen; !(ends >> e & 1); e--)
			;
		g[0] = st;
		g[1] = e;
		return 1;
	}
	return 0;
}

static int glibc_wrong;		/* random cases where glibc and the referee differ */

/*
 * Check one run.  The expected answer is the table's, which must agree
 * with glibc; for random cases (match == -2) it is the referee's, and
 * glibc's disagreements are only counted.  *groups_agree: whether groups
 * 1..n equal glibc's (a statistic; -1 when glibc cannot tell).
 */
static int check_run(const struct run *r, int *groups_agree)
{
	struct strbuf a = STRBUF_INIT, w = STRBUF_INIT;
	long long gg[2 * 16], og[2] = { -1, -1 }, *ref = gg;
	int gm = glibc_match(r->pat, r->subj, gg, 1);
	int random = r->match == -2, want = r->match, ok = 1;
	const char *what = NULL;

	*groups_agree = -1;
	if (!r->done) {
		failf("%s on %s: no answer from the harness", quote(r->pat), quote(r->subj));
		return 0;
	}
	if (random) {
		want = oracle_match(r->pat, r->subj, og);
		ref = og;
		if (gm != want || (want && (gg[0] != og[0] || gg[1] != og[1]))) {
			glibc_wrong++;
			if (verbose)
				printf("note: glibc is wrong: %s on %s: glibc %d %lld,%lld, referee %d %lld,%lld\n",
				       quote(r->pat), quote(r->subj), gm, gm == 1 ? gg[0] : -1,
				       gm == 1 ? gg[1] : -1, want, og[0], og[1]);
		}
	}
	fmt_groups(&a, r->g, r->ngroups);
	if (!random && gm == -2)
		what = "glibc hangs";
	else if (!random && gm < 0)
		what = "glibc rejects the pattern";
	else if (!random && gm != want)
		what = "the table disagrees with glibc";
	else if (r->r_dfa != want)
		what = "DFA answer wrong";
	else if (r->r_cap != want)
		what = "capture pass answer wrong";
	else if (want && (r->g[0] != ref[0] || r->g[1] != ref[1]))
		what = random ? "group 0 differs from the referee" : "group 0 differs from glibc";
	else if (want && r->want && strcmp(a.buf, r->want))
		what = "groups differ from the table";
	if (what) {
		ok = 0;
		if (gm == 1)
			fmt_groups(&w, gg, 1);
		failf("%s on %s: %s: match %d/%d (want %d, glibc %d), groups %s, glibc %s%s%s",
		      quote(r->pat), quote(r->subj), what, r->r_dfa, r->r_cap, want, gm,
		      a.buf ? a.buf : "-", w.buf ? w.buf : "-",
		      r->want ? ", table " : "", r->want ? r->want : "");
	} else if (!want) {
		*groups_agree = 1;
	} else if (gm == 1 && gg[0] == r->g[0] && gg[1] == r->g[1] &&
		   glibc_match(r->pat, r->subj, gg, r->ngroups) == 1) {
		*groups_agree = !memcmp(r->g, gg, 2 * r->ngroups * sizeof(*gg));
		if (verbose > 1 && !*groups_agree) {
			fmt_groups(&w, gg, r->ngroups);
			printf("note: %s on %s: groups %s, glibc %s\n", quote(r->pat),
			       quote(r->subj), a.buf, w.buf);
		}
	}
	sb_free(&a);
	sb_free(&w);
	return ok;
}

/* ---- random patterns over {a,b}, subjects over {a,b,c} ---- */

static uint64_t rng = 0x9e3779b97f4a7c15ULL;

static unsigned rnd(unsigned n)
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return (unsigned)((rng * 0x2545f4914f6cdd1dULL) >> 33) % n;
}

static void gen_alt(struct strbuf *sb, int depth);

static void gen_piece(struct strbuf *sb, int depth)
{
	static const char *const atoms[] = {
		"a", "b", "a", "b", "a", ".", "[ab]", "[^a]", "[a-b]", "c",
	};
	static const char *const quants[] = {
		"*", "+", "?", "{2}", "{0,2}", "{1,}", "{,1}", "*", "+", "?",
	};
	unsigned r = rnd(24);

	if (r == 0) {
		sb_putc(sb, '^');
		return;
	}
	if (r == 1) {
		sb_putc(sb, '$');
		return;
	}
	if (r < 6 && depth < 3) {
		sb_putc(sb, '(');
		gen_alt(sb, depth + 1);
		sb_putc(sb, ')');
	} else if (r == 6) {
		sb_puts(sb, "()");
	} else {
		sb_puts(sb, atoms[rnd(ARRAY_SIZE(atoms))]);
	}
	if (rnd(3) == 0)
		sb_puts(sb, quants[rnd(ARRAY_SIZE(quants))]);
}

static void gen_alt(struct strbuf *sb, int depth)
{
	int n = 1 + rnd(3);

	while (n--)
		gen_piece(sb, depth);
	if (rnd(4) == 0) {
		sb_putc(sb, '|');
		gen_alt(sb, depth + 1);
	}
}

static char *gen_subject(void)
{
	int n = rnd(9), i;
	char *s = xmalloc(n + 1);

	for (i = 0; i < n; i++)
		s[i] = "aabbc"[rnd(5)];
	s[n] = 0;
	return s;
}

/* ---- main ---- */

static void usage(void)
{
	fprintf(stderr, "usage: regex_test [-v] [-k] [-n FUZZ_PATTERNS]\n");
	exit(2);
}

/* Sizes of a few typical patterns, for the report (-v). */
static void report_sizes(void)
{
	static const char *const typical[] = {
		"^sys_(read|write)$", "^([^=]+)=(.*)$", "\\.so(\\.[0-9]+)*$",
		"([0-9]+)\\.([0-9]+)\\.([0-9]+)", "[[:alpha:]_][[:alnum:]_]*",
	};
	char err[256];

	for (size_t i = 0; i < ARRAY_SIZE(typical); i++) {
		struct rx_prog *p = rx_compile(typical[i], err, sizeof(err));
		struct strbuf sb = STRBUF_INIT;

		if (!p)
			continue;
		rx_emit_c(p, "f", &sb);
		printf("size %-34s groups %d, DFA+capture tables %zu B, scratch %zu B, emitted C %zu B, step cost %zu\n",
		       quote(typical[i]), rx_ngroups(p), rx_table_size(p),
		       rx_scratch_size(p), sb.len, rx_step_cost(p));
		sb_free(&sb);
		rx_free(p);
	}
}

int main(int argc, char **argv)
{
	struct batch tb = { 0 }, fb = { 0 };
	char err[256], *dir;
	int nfuzz = 2000, opt, i, j, checked = 0, gagree = 0, gtotal = 0;
	struct vec progs = VEC_INIT, strs = VEC_INIT;
	struct strbuf probe = STRBUF_INIT;

	util_progname = "regex_test";
	while ((opt = getopt(argc, argv, "vkn:")) != -1) {
		switch (opt) {
		case 'v': verbose++; break;
		case 'k': keep = 1; break;
		case 'n': nfuzz = atoi(optarg); break;
		default: usage();
		}
	}
	dir = make_temp_dir("regex_test.");
	if (!dir)
		util_die("cannot make a temporary directory");

	/* Is there a compiler, and can it sanitize? */
	{
		char *src = xasprintf("%s/probe.c", dir), *exe = xasprintf("%s/probe", dir);
		char *av[] = { (char *)cc(), "-fsanitize=address,undefined", "-o", exe, src, NULL };
		char *av2[] = { (char *)cc(), "-o", exe, src, NULL };

		write_file(src, "int main(void){return 0;}\n", 26);
		sanitize = run_cmd(av, NULL, &probe, 60) == 0;
		if (!sanitize && run_cmd(av2, NULL, &probe, 60) != 0) {
			printf("SKIP: no working C compiler (%s)\n", cc());
			rm_rf(dir);
			return 77;
		}
		if (sanitize) {	/* and the result runs (ASan may not, e.g. under ptrace) */
			char *av3[] = { exe, NULL };

			sanitize = run_cmd(av3, NULL, &probe, 60) == 0;
		}
		free(src);
		free(exe);
	}
	if (verbose)
		printf("compiler %s%s\n", cc(), sanitize ? " with ASan/UBSan" : "");

	/* The table. */
	for (i = 0; i < (int)ARRAY_SIZE(cases); i++) {
		const struct tcase *t = &cases[i];
		struct rx_prog *p = rx_compile(t->pat, err, sizeof(err));

		if (t->match == ERR) {
			checked++;
			if (p)
				failf("%s: compiled, expected error \"%s\"", quote(t->pat), t->want);
			else if (strcmp(err, t->want))
				failf("%s: error \"%s\", expected \"%s\"", quote(t->pat), err, t->want);
			rx_free(p);
			continue;
		}
		if (!p) {
			failf("%s: %s", quote(t->pat), err);
			continue;
		}
		add_run(&tb, t->pat, t->subj, t->match, t->want, rx_ngroups(p), add_pattern(&tb, p));
		rx_free(p);
	}
	if (run_batch(&tb, dir, "table") == 0) {
		for (i = 0; i < tb.n; i++) {
			checked++;
			check_run(&tb.runs[i], &j);
		}
	}

	/* Random patterns: glibc decides match and group 0. */
	for (i = 0; i < nfuzz; i++) {
		struct strbuf sb = STRBUF_INIT;
		struct rx_prog *p;
		regex_t re;
		char *pat;
		int fn;

		gen_alt(&sb, 0);
		pat = sb_steal(&sb);
		vec_push(&strs, pat);
		if (regcomp(&re, pat, REG_EXTENDED)) {
			if (verbose > 1)
				printf("note: glibc rejects %s\n", quote(pat));
			continue;
		}
		regfree(&re);
		p = rx_compile(pat, err, sizeof(err));
		if (!p) {
			failf("%s: %s (glibc accepts it)", quote(pat), err);
			continue;
		}
		fn = add_pattern(&fb, p);
		for (j = 0; j < 3; j++) {
			char *s = gen_subject();

			vec_push(&strs, s);
			add_run(&fb, pat, s, -2, NULL, rx_ngroups(p), fn);
		}
		vec_push(&progs, p);
	}
	if (fb.n && run_batch(&fb, dir, "fuzz") == 0) {
		for (i = 0; i < fb.n; i++) {
			int agree;

			checked++;
			if (check_run(&fb.runs[i], &agree) && agree >= 0) {
				gtotal++;
				gagree += agree;
			}
		}
	}
	printf("regex_test: %d checks (%d table, %d random over %d patterns), %d failed; "
	       "glibc wrong in %d random cases; random groups 1..n equal to glibc's in %d of %d\n",
	       checked, (int)ARRAY_SIZE(cases), fb.n, fb.nfn, nfail, glibc_wrong, gagree, gtotal);
	if (verbose) {
		struct strbuf eng = STRBUF_INIT;

		rx_emit_engine(&eng);
		printf("engine: %zu B of C, emitted once per file\n", eng.len);
		sb_free(&eng);
		printf("largest scratch: table %zu B, random %zu B\n", tb.max_scratch, fb.max_scratch);
		report_sizes();
	}

	for (i = 0; i < progs.len; i++)
		rx_free(progs.items[i]);
	for (i = 0; i < strs.len; i++)
		free(strs.items[i]);
	vec_free(&progs);
	vec_free(&strs);
	sb_free(&tb.code);
	sb_free(&fb.code);
	free(tb.runs);
	free(fb.runs);
	sb_free(&probe);
	if (keep)
		printf("work directory kept: %s\n", dir);
	else
		rm_rf(dir);
	free(dir);
	return nfail ? 1 : 0;
}
