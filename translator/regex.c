// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Regular expressions, compiled at translation time (see regex.h for the
 * syntax, the semantics and the generated interface).
 *
 *   pattern --parse--> AST --build--> Thompson NFA --+--> DFA tables (yes/no)
 *                                                    +--> capture tables
 *
 * The DFA answers "does it match" in one table step per byte.  Only when
 * it says yes and the caller wants groups does the capture pass run: a
 * Pike VM over the NFA's byte-consuming states whose epsilon moves were
 * expanded here, into ordered lists of (target, slots to set), so the
 * kernel side never follows an epsilon edge or recurses.  All its state
 * lives in a caller-provided scratch area whose size is known now.
 */
#include "regex.h"
#include "util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- byte sets ---- */

struct cset {
	uint32_t w[8];
};

static void cs_add(struct cset *c, int b)
{
	c->w[b >> 5] |= 1u << (b & 31);
}

static int cs_has(const struct cset *c, int b)
{
	return (c->w[b >> 5] >> (b & 31)) & 1;
}

static void cs_range(struct cset *c, int lo, int hi)
{
	for (int b = lo; b <= hi; b++)
		cs_add(c, b);
}

/* ---- the compiler's working state ---- */

enum ast_kind {
	A_EMPTY,	/* matches "" (empty branch, "()" body) */
	A_SET,		/* one byte from a set: c . [...] \w */
	A_BOL,		/* ^ */
	A_EOL,		/* $ */
	A_CAT,		/* ab */
	A_ALT,		/* a|b */
	A_REP,		/* a* a+ a? a{m,n}: min, max (-1: no limit) */
	A_GROUP,	/* (a) */
};

struct ast {
	enum ast_kind kind;
	struct ast *a, *b;
	int set;		/* A_SET: index into ctx.sets */
	int min, max;		/* A_REP */
	int group;		/* A_GROUP: 1-based number */
};

enum nfa_kind {
	N_SET,		/* take a byte in sets[arg], go to out */
	N_SPLIT,	/* go to out, or else to out2 (out preferred) */
	N_SAVE,		/* record the position in capture slot arg */
	N_BOL,		/* only at the start of the subject */
	N_EOL,		/* only at its end */
	N_MATCH,
};

struct nfa {
	enum nfa_kind kind;
	int out, out2, arg;
};

/* Context bits for epsilon closures; start[] in the tables is indexed by them. */
#define CTX_EOL 1
#define CTX_BOL 2

/* ngroups: 1 + '(' count.  Everything else is sized at compile time. */
struct rx_prog {
	char *pattern;
	int ngroups;
	int ncls, ndfa, nst, mbytes;
	int empty;		/* "" matches */
	uint8_t cls[256];
	uint16_t *dfa;		/* ndfa * ncls */
	uint8_t *dflag;		/* ndfa */
	uint8_t *member;	/* nst * mbytes */
	uint16_t *next;		/* nst * 2 */
	uint16_t start[4];
	uint16_t *clo;
	int nclo;
	size_t step_cost;
};

#define DF_ACC 1
#define DF_EOLACC 2
#define DF_DEAD 4
#define CLO_FINAL 0xffff

struct dstate {
	int *set, n;
};

struct dfa_build {
	struct dstate *st;
	int nst, capst;
	int *hash;		/* state numbers, -1 empty */
	int hashcap;
};

struct ctx {
	const char *pat;
	int pos;
	jmp_buf fail;
	char *errbuf;
	size_t errlen;
	struct arena arena;

	struct cset *sets;
	int nsets, capsets;
	int ngroups;

	struct nfa *nfa;
	int nnfa, capnfa;
	int start;

	/* closures: scratch marks with a generation counter */
	int *mark;
	int gen;
	int *tmp;
	int ntmp;

	/* capture tables under construction */
	int *stidx;		/* nfa node -> consuming state number, or -1 */
	uint16_t *clo;
	int nclo, capclo;
	uint16_t *ops;
	int nops;
	int *hash;		/* interned closure lists: offsets, -1 empty */
	int hashcap;

	struct dfa_build dfa;
};

static void PRINTF_LIKE(2, 3) __attribute__((noreturn))
fail(struct ctx *c, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(c->errbuf, c->errlen, fmt, ap);
	va_end(ap);
	longjmp(c->fail, 1);
}

/* ---- parser ---- */

static struct ast *new_ast(struct ctx *c, enum ast_kind k, struct ast *a,
			   struct ast *b)
{
	struct ast *n = arena_alloc(&c->arena, sizeof(*n));

	n->kind = k;
	n->a = a;
	n->b = b;
	return n;
}

static struct ast *new_set(struct ctx *c, const struct cset *s)
{
	struct ast *n = new_ast(c, A_SET, NULL, NULL);

	if (c->nsets == c->capsets) {
		c->capsets = c->capsets ? 2 * c->capsets : 16;
		c->sets = xrealloc(c->sets, c->capsets * sizeof(*c->sets));
	}
	c->sets[c->nsets] = *s;
	n->set = c->nsets++;
	return n;
}

static int peek(struct ctx *c, int ahead)
{
	int i;

	for (i = 0; i < ahead; i++)	/* never look past the NUL */
		if (!c->pat[c->pos + i])
			return 0;
	return (unsigned char)c->pat[c->pos + ahead];
}

/* The C locale's classes; the table and class_set() must stay in step. */
static const char *const class_names[] = {
	"alpha", "upper", "lower", "digit", "xdigit", "alnum",
	"punct", "space", "blank", "cntrl", "print", "graph",
};

static void class_set(int which, struct cset *s)
{
	switch (which) {
	case 0: cs_range(s, 'a', 'z'); cs_range(s, 'A', 'Z'); break;
	case 1: cs_range(s, 'A', 'Z'); break;
	case 2: cs_range(s, 'a', 'z'); break;
	case 3: cs_range(s, '0', '9'); break;
	case 4: cs_range(s, '0', '9'); cs_range(s, 'a', 'f');
		cs_range(s, 'A', 'F'); break;
	case 5: cs_range(s, 'a', 'z'); cs_range(s, 'A', 'Z');
		cs_range(s, '0', '9'); break;
	case 6: cs_range(s, '!', '/'); cs_range(s, ':', '@');
		cs_range(s, '[', '`'); cs_range(s, '{', '~'); break;
	case 7: cs_range(s, '\t', '\r'); cs_add(s, ' '); break;
	case 8: cs_add(s, '\t'); cs_add(s, ' '); break;
	case 9: cs_range(s, 1, 31); cs_add(s, 127); break;
	case 10: cs_range(s, ' ', '~'); break;
	case 11: cs_range(s, '!', '~'); break;
	}
}

/* "[.c.]" or "[=c=]" at pos: a single-byte collating element. */
static int parse_coll(struct ctx *c)
{
	int delim = peek(c, 1), start = c->pos, ch;

	c->pos += 2;
	ch = peek(c, 0);
	if (!ch || peek(c, 1) != delim || peek(c, 2) != ']') {
		c->pos = start;
		fail(c, "invalid collating element at offset %d", start);
	}
	c->pos += 3;
	return ch;
}

/* bracket -> '[' '^'? ']'? (class | coll | char ('-' (coll | char))?)* ']' */
static void parse_bracket(struct ctx *c, struct cset *s)
{
	int open = c->pos, neg = 0, first = 1;

	c->pos++;
	if (peek(c, 0) == '^') {
		neg = 1;
		c->pos++;
	}
	for (;;) {
		int ch = peek(c, 0), lo, hi;

		if (!ch)
			fail(c, "unmatched '[' at offset %d", open);
		if (ch == ']' && !first) {
			c->pos++;
			break;
		}
		first = 0;
		if (ch == '[' && peek(c, 1) == ':') {
			int start = c->pos, len, i;
			const char *name = c->pat + c->pos + 2;
			const char *end = strstr(name, ":]");

			len = end ? (int)(end - name) : -1;
			for (i = 0; i < (int)ARRAY_SIZE(class_names); i++)
				if (len == (int)strlen(class_names[i]) &&
				    !strncmp(name, class_names[i], len))
					break;
			if (!end)
				fail(c, "unmatched '[' at offset %d", open);
			if (i == (int)ARRAY_SIZE(class_names))
				fail(c, "unknown character class '[:%.*s:]' at offset %d",
				     len, name, start);
			class_set(i, s);
			c->pos = end + 2 - c->pat;
			if (peek(c, 0) == '-' && peek(c, 1) && peek(c, 1) != ']')
				fail(c, "invalid range start at offset %d", start);
			continue;
		}
		if (ch == '[' && (peek(c, 1) == '.' || peek(c, 1) == '=')) {
			lo = parse_coll(c);
		} else {
			lo = ch;
			c->pos++;
		}
		hi = lo;
		if (peek(c, 0) == '-' && peek(c, 1) && peek(c, 1) != ']') {
			int at = c->pos + 1;

			c->pos++;
			if (peek(c, 0) == '[' && peek(c, 1) == '.') {
				hi = parse_coll(c);
			} else if (peek(c, 0) == '[' &&
				   (peek(c, 1) == ':' || peek(c, 1) == '=')) {
				fail(c, "invalid range end at offset %d", at);
			} else {
				hi = peek(c, 0);
				c->pos++;
			}
			if (hi < lo)
				fail(c, "invalid range end at offset %d (range '%c-%c' is empty)",
				     at, lo, hi);
		}
		cs_range(s, lo, hi);
	}
	if (neg)
		for (int i = 0; i < 8; i++)
			s->w[i] = ~s->w[i];
	s->w[0] &= ~1u;		/* NUL ends the subject: never matched */
}

static struct ast *parse_alt(struct ctx *c);

/* atom -> '(' alt ')' | bracket | '.' | '^' | '$' | '\' char | char */
static struct ast *parse_atom(struct ctx *c)
{
	struct cset s = { { 0 } };
	int ch = peek(c, 0), at = c->pos;

	switch (ch) {
	case '(': {
		struct ast *g = new_ast(c, A_GROUP, NULL, NULL);

		g->group = c->ngroups++;
		c->pos++;
		g->a = parse_alt(c);
		if (peek(c, 0) != ')')
			fail(c, "unmatched '(' at offset %d", at);
		c->pos++;
		return g;
	}
	case '[':
		parse_bracket(c, &s);
		return new_set(c, &s);
	case '.':
		c->pos++;
		cs_range(&s, 1, 255);
		return new_set(c, &s);
	case '^':
		c->pos++;
		return new_ast(c, A_BOL, NULL, NULL);
	case '$':
		c->pos++;
		return new_ast(c, A_EOL, NULL, NULL);
	case '*': case '+': case '?': case '{':
		fail(c, "'%c' at offset %d follows nothing that can be repeated",
		     ch, at);
	case '\\':
		ch = peek(c, 1);
		c->pos += 2;
		switch (ch) {
		case 0:
			c->pos = at;
			fail(c, "trailing backslash at offset %d", at);
		case '1': case '2': case '3': case '4': case '5':
		case '6': case '7': case '8': case '9':
			fail(c, "back reference '\\%c' at offset %d is not supported",
			     ch, at);
		case 'b': case 'B': case '<': case '>': case '`': case '\'':
			fail(c, "'\\%c' at offset %d is not supported", ch, at);
		case 'w': case 'W':
			class_set(5, &s);
			cs_add(&s, '_');
			break;
		case 's': case 'S':
			class_set(7, &s);
			break;
		default:
			cs_add(&s, ch);
			return new_set(c, &s);
		}
		if (ch == 'W' || ch == 'S') {
			for (int i = 0; i < 8; i++)
				s.w[i] = ~s.w[i];
			s.w[0] &= ~1u;
		}
		return new_set(c, &s);
	default:
		c->pos++;
		cs_add(&s, ch);
		return new_set(c, &s);
	}
}

static int parse_count(struct ctx *c, int open)
{
	int n = -1;

	while (peek(c, 0) >= '0' && peek(c, 0) <= '9') {
		n = (n < 0 ? 0 : n) * 10 + peek(c, 0) - '0';
		if (n > RX_DUP_MAX)
			fail(c, "repetition count at offset %d exceeds RX_DUP_MAX (%d)",
			     open, RX_DUP_MAX);
		c->pos++;
	}
	return n;
}

/* piece -> atom ('*' | '+' | '?' | '{' count? (',' count?)? '}')* */
static struct ast *parse_piece(struct ctx *c)
{
	struct ast *a = parse_atom(c), *r;
	int ch;

	while ((ch = peek(c, 0)) == '*' || ch == '+' || ch == '?' || ch == '{') {
		int at = c->pos, min, max;

		if (a->kind == A_BOL || a->kind == A_EOL)
			fail(c, "'%c' at offset %d follows an anchor, which cannot be repeated",
			     ch, at);
		c->pos++;
		if (ch == '*') {
			min = 0, max = -1;
		} else if (ch == '+') {
			min = 1, max = -1;
		} else if (ch == '?') {
			min = 0, max = 1;
		} else {
			int comma = 0;

			min = parse_count(c, at);
			max = min;
			if (peek(c, 0) == ',') {
				comma = 1;
				c->pos++;
				max = parse_count(c, at);
			}
			if (peek(c, 0) != '}')
				fail(c, "unmatched '{' at offset %d", at);
			if (min < 0 && !comma)
				fail(c, "invalid repetition count at offset %d", at);
			if (min < 0)
				min = 0;
			c->pos++;
			if (max >= 0 && max < min)
				fail(c, "invalid repetition count {%d,%d} at offset %d",
				     min, max, at);
		}
		r = new_ast(c, A_REP, a, NULL);
		r->min = min;
		r->max = max;
		a = r;
	}
	return a;
}

/* branch -> piece* */
static struct ast *parse_branch(struct ctx *c)
{
	struct ast *a = NULL;
	int ch;

	while ((ch = peek(c, 0)) && ch != '|' && ch != ')') {
		struct ast *p = parse_piece(c);

		a = a ? new_ast(c, A_CAT, a, p) : p;
	}
	return a ? a : new_ast(c, A_EMPTY, NULL, NULL);
}

/* alt -> branch ('|' branch)* */
static struct ast *parse_alt(struct ctx *c)
{
	struct ast *a = parse_branch(c);

	if (peek(c, 0) == '|') {
		c->pos++;
		a = new_ast(c, A_ALT, a, parse_alt(c));
	}
	return a;
}

/* ---- Thompson NFA, built back to front: build(a, next) enters a ---- */

static int new_node(struct ctx *c, enum nfa_kind k, int out, int out2, int arg)
{
	if (c->nnfa == RX_MAX_NFA)
		fail(c, "regular expression too complex (more than RX_MAX_NFA = %d automaton nodes)",
		     RX_MAX_NFA);
	if (c->nnfa == c->capnfa) {
		c->capnfa = c->capnfa ? 2 * c->capnfa : 64;
		c->nfa = xrealloc(c->nfa, c->capnfa * sizeof(*c->nfa));
	}
	c->nfa[c->nnfa] = (struct nfa){ k, out, out2, arg };
	return c->nnfa++;
}

static int build(struct ctx *c, const struct ast *a, int next);

/*
 * a+ : body, then prefer another round.  a* is (a+)?, so an iteration
 * that matched nothing is still an iteration (its groups are set), as
 * in glibc: "(a*)*" on "b" gives group 1 = 0,0.
 */
static int build_plus(struct ctx *c, const struct ast *a, int next)
{
	int loop = new_node(c, N_SPLIT, -1, next, 0);
	int body = build(c, a, loop);

	c->nfa[loop].out = body;
	return body;
}

static int build(struct ctx *c, const struct ast *a, int next)
{
	int t, i, s;

	switch (a->kind) {
	case A_EMPTY:
		return next;
	case A_SET:
		return new_node(c, N_SET, next, -1, a->set);
	case A_BOL:
		return new_node(c, N_BOL, next, -1, 0);
	case A_EOL:
		return new_node(c, N_EOL, next, -1, 0);
	case A_CAT:
		return build(c, a->a, build(c, a->b, next));
	case A_ALT:
		s = new_node(c, N_SPLIT, -1, -1, 0);
		t = build(c, a->a, next);
		c->nfa[s].out = t;
		t = build(c, a->b, next);
		c->nfa[s].out2 = t;
		return s;
	case A_GROUP:
		t = new_node(c, N_SAVE, next, -1, 2 * a->group + 1);
		t = build(c, a->a, t);
		return new_node(c, N_SAVE, t, -1, 2 * a->group);
	case A_REP:
		if (a->max < 0) {
			if (a->min == 0) {
				t = build_plus(c, a->a, next);
				return new_node(c, N_SPLIT, t, next, 0);
			}
			t = build_plus(c, a->a, next);
			i = 1;
		} else {	/* a{m,n}: m copies, then a(a(a)?)? nested n-m deep */
			t = next;
			for (i = a->min; i < a->max; i++) {
				int body = build(c, a->a, t);

				t = new_node(c, N_SPLIT, body, next, 0);
			}
			i = 0;
		}
		for (; i < a->min; i++)
			t = build(c, a->a, t);
		return t;
	}
	return next;
}

/* ---- epsilon closures ---- */

static void new_gen(struct ctx *c)
{
	c->gen++;
	c->ntmp = 0;
}

/*
 * Nodes a DFA state is made of: byte-consuming nodes, the match node, and
 * '$' nodes not yet passed (they decide acceptance at the end).
 */
static void dfa_closure(struct ctx *c, int n, int ctx)
{
	const struct nfa *x;

	while (n >= 0 && c->mark[n] != c->gen) {
		c->mark[n] = c->gen;
		x = &c->nfa[n];
		switch (x->kind) {
		case N_SET:
		case N_MATCH:
			c->tmp[c->ntmp++] = n;
			return;
		case N_SPLIT:
			dfa_closure(c, x->out, ctx);
			n = x->out2;
			break;
		case N_SAVE:
			n = x->out;
			break;
		case N_BOL:
			if (!(ctx & CTX_BOL))
				return;
			n = x->out;
			break;
		case N_EOL:
			if (!(ctx & CTX_EOL)) {
				c->tmp[c->ntmp++] = n;
				return;
			}
			n = x->out;
			break;
		}
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/*
 * Does a DFA state's set reach the match node at the end of the subject?
 * set must not be c->tmp, which this overwrites.
 */
static int accepts_at_end(struct ctx *c, const int *set, int n, int ctx)
{
	int i, found = 0;

	new_gen(c);
	for (i = 0; i < n; i++)
		if (c->nfa[set[i]].kind == N_EOL)
			dfa_closure(c, c->nfa[set[i]].out, ctx);
		else if (c->nfa[set[i]].kind == N_MATCH)
			found = 1;
	for (i = 0; i < c->ntmp; i++)
		if (c->nfa[c->tmp[i]].kind == N_MATCH)
			found = 1;
	return found;
}

/* ---- DFA by subset construction ---- */

static uint64_t set_hash(const int *set, int n)
{
	return hash_bytes(HASH_INIT, set, n * sizeof(*set));
}

static void dfa_rehash(struct dfa_build *d)
{
	int i;

	free(d->hash);
	d->hashcap = d->hashcap ? 2 * d->hashcap : 256;
	d->hash = xmalloc(d->hashcap * sizeof(*d->hash));
	for (i = 0; i < d->hashcap; i++)
		d->hash[i] = -1;
	for (i = 0; i < d->nst; i++) {
		uint64_t h = set_hash(d->st[i].set, d->st[i].n);
		int j = h & (d->hashcap - 1);

		while (d->hash[j] >= 0)
			j = (j + 1) & (d->hashcap - 1);
		d->hash[j] = i;
	}
}

/* The state for the set in c->tmp (sorted here), added if new. */
static int dfa_intern(struct ctx *c, struct dfa_build *d)
{
	uint64_t h;
	int j;

	qsort(c->tmp, c->ntmp, sizeof(*c->tmp), cmp_int);
	h = set_hash(c->tmp, c->ntmp);
	for (j = h & (d->hashcap - 1); d->hash[j] >= 0; j = (j + 1) & (d->hashcap - 1)) {
		struct dstate *s = &d->st[d->hash[j]];

		if (s->n == c->ntmp && !memcmp(s->set, c->tmp, s->n * sizeof(int)))
			return d->hash[j];
	}
	if (d->nst == RX_MAX_DFA)
		fail(c, "regular expression too complex (more than RX_MAX_DFA = %d DFA states)",
		     RX_MAX_DFA);
	if (d->nst == d->capst) {
		d->capst = d->capst ? 2 * d->capst : 64;
		d->st = xrealloc(d->st, d->capst * sizeof(*d->st));
	}
	d->st[d->nst].n = c->ntmp;
	d->st[d->nst].set = xmalloc((c->ntmp + 1) * sizeof(int));
	memcpy(d->st[d->nst].set, c->tmp, c->ntmp * sizeof(int));
	d->hash[j] = d->nst;
	if (2 * ++d->nst > d->hashcap)
		dfa_rehash(d);
	return d->nst - 1;
}

/* Partition the bytes into classes no set tells apart. */
static void byte_classes(struct ctx *c, struct rx_prog *p)
{
	int map[512], i, b;

	memset(p->cls, 0, sizeof(p->cls));
	p->ncls = 1;
	for (i = 0; i < c->nsets; i++) {
		int n = 0;

		for (b = 0; b < 2 * p->ncls; b++)
			map[b] = -1;
		for (b = 0; b < 256; b++) {
			int k = 2 * p->cls[b] + cs_has(&c->sets[i], b);

			if (map[k] < 0)
				map[k] = n++;
			p->cls[b] = map[k];
		}
		p->ncls = n;
	}
}

static void build_dfa(struct ctx *c, struct rx_prog *p, struct dfa_build *d)
{
	int rep[256], s, k, i, changed;
	uint8_t *live;

	for (i = 255; i >= 0; i--)
		rep[p->cls[i]] = i;
	dfa_rehash(d);

	new_gen(c);		/* "": '$' nodes pass, so look for the match */
	dfa_closure(c, c->start, CTX_BOL | CTX_EOL);
	for (i = 0; i < c->ntmp; i++)
		if (c->nfa[c->tmp[i]].kind == N_MATCH)
			p->empty = 1;
	new_gen(c);
	dfa_closure(c, c->start, CTX_BOL);
	dfa_intern(c, d);

	/* d->st grows while we walk it; p->dfa keeps pace, row by row. */
	for (s = 0; s < d->nst; s++) {
		int acc = 0;

		p->dfa = xrealloc(p->dfa, d->capst * p->ncls * sizeof(*p->dfa));
		p->dflag = xrealloc(p->dflag, d->capst);
		for (i = 0; i < d->st[s].n; i++)
			if (c->nfa[d->st[s].set[i]].kind == N_MATCH)
				acc = 1;
		p->dflag[s] = acc ? DF_ACC : 0;
		if (!acc && accepts_at_end(c, d->st[s].set, d->st[s].n, CTX_EOL))
			p->dflag[s] |= DF_EOLACC;
		for (k = 0; k < p->ncls; k++) {
			int t = 0;

			if (!acc) {	/* the matcher stops in accepting states */
				new_gen(c);
				for (i = 0; i < d->st[s].n; i++) {
					const struct nfa *x = &c->nfa[d->st[s].set[i]];

					if (x->kind == N_SET && cs_has(&c->sets[x->arg], rep[k]))
						dfa_closure(c, x->out, 0);
				}
				dfa_closure(c, c->start, 0);	/* search: start anew */
				t = dfa_intern(c, d);
			}
			p->dfa[s * p->ncls + k] = t;
		}
	}
	p->ndfa = d->nst;
	p->dflag = xrealloc(p->dflag, p->ndfa);

	/* Dead states: no accepting state is reachable from them. */
	live = xcalloc(p->ndfa, 1);
	do {
		changed = 0;
		for (s = 0; s < p->ndfa; s++) {
			if (live[s])
				continue;
			if (p->dflag[s] & (DF_ACC | DF_EOLACC))
				live[s] = 1;
			for (k = 0; k < p->ncls && !live[s]; k++)
				live[s] = live[p->dfa[s * p->ncls + k]];
			changed |= live[s];
		}
	} while (changed);
	for (s = 0; s < p->ndfa; s++)
		if (!live[s])
			p->dflag[s] |= DF_DEAD;
	free(live);
}

/* ---- capture tables ---- */

static void clo_push(struct ctx *c, int v)
{
	if (c->nclo == c->capclo) {
		c->capclo = c->capclo ? 2 * c->capclo : 256;
		c->clo = xrealloc(c->clo, c->capclo * sizeof(*c->clo));
	}
	c->clo[c->nclo++] = v;
}

/*
 * Append to clo, in priority order, every byte-consuming node or match
 * that n reaches by epsilon moves under ctx, with the capture slots set
 * on the way; a node reached twice keeps its first (preferred) path.
 */
static void pike_closure(struct ctx *c, int n, int ctx, int *count)
{
	const struct nfa *x;
	int i, depth = c->nops;

	while (n >= 0 && c->mark[n] != c->gen) {
		c->mark[n] = c->gen;
		x = &c->nfa[n];
		switch (x->kind) {
		case N_SET:
		case N_MATCH:
			clo_push(c, x->kind == N_SET ? c->stidx[n] : CLO_FINAL);
			clo_push(c, c->nops);
			for (i = 0; i < c->nops; i++)
				clo_push(c, c->ops[i]);
			(*count)++;
			n = -1;
			break;
		case N_SPLIT:
			pike_closure(c, x->out, ctx, count);
			n = x->out2;
			break;
		case N_SAVE:
			c->ops[c->nops++] = x->arg;
			n = x->out;
			break;
		case N_BOL:
			n = ctx & CTX_BOL ? x->out : -1;
			break;
		case N_EOL:
			n = ctx & CTX_EOL ? x->out : -1;
			break;
		}
	}
	c->nops = depth;
}

/* Offset of the closure list for (n, ctx) in clo, shared when equal. */
static int closure_list(struct ctx *c, int n, int ctx, size_t *len)
{
	int off = c->nclo, count = 0, j, size;
	uint64_t h;

	clo_push(c, 0);
	new_gen(c);
	pike_closure(c, n, ctx, &count);
	c->clo[off] = count;
	size = c->nclo - off;
	*len = size;
	h = hash_bytes(HASH_INIT, c->clo + off, size * sizeof(*c->clo));
	for (j = h & (c->hashcap - 1); c->hash[j] >= 0; j = (j + 1) & (c->hashcap - 1)) {
		int o = c->hash[j];

		if (o + size <= off && !memcmp(c->clo + o, c->clo + off, size * sizeof(*c->clo))) {
			c->nclo = off;	/* have it already */
			return o;
		}
	}
	c->hash[j] = off;
	if (off >= CLO_FINAL - 1)
		fail(c, "regular expression too complex (capture tables exceed %d entries)",
		     CLO_FINAL - 1);
	return off;
}

static void build_captures(struct ctx *c, struct rx_prog *p)
{
	int n, i, k;
	size_t len, worst, total = 0;

	p->nst = 0;
	c->stidx = xmalloc(c->nnfa * sizeof(int));
	for (n = 0; n < c->nnfa; n++)
		c->stidx[n] = c->nfa[n].kind == N_SET ? p->nst++ : -1;
	c->ops = xmalloc((2 * c->ngroups + c->nnfa + 1) * sizeof(*c->ops));
	c->hashcap = 64;
	while (c->hashcap < 4 * (2 * p->nst + 4))
		c->hashcap *= 2;
	c->hash = xmalloc(c->hashcap * sizeof(int));
	for (i = 0; i < c->hashcap; i++)
		c->hash[i] = -1;

	p->mbytes = (p->ncls + 7) / 8;
	p->member = xcalloc(p->nst ? p->nst * p->mbytes : 1, 1);
	p->next = xcalloc(p->nst ? 2 * p->nst : 1, sizeof(*p->next));
	worst = 0;
	for (i = 0; i < 4; i++) {
		p->start[i] = closure_list(c, c->start, i, &len);
		worst = len > worst ? len : worst;
	}
	total = worst;
	for (n = 0; n < c->nnfa; n++) {
		const struct nfa *x = &c->nfa[n];
		int s = c->stidx[n];

		if (s < 0)
			continue;
		for (k = 0; k < 256; k++)
			if (cs_has(&c->sets[x->arg], k))
				p->member[s * p->mbytes + p->cls[k] / 8] |= 1 << (p->cls[k] % 8);
		p->next[2 * s] = closure_list(c, x->out, 0, &len);
		worst = len;
		p->next[2 * s + 1] = closure_list(c, x->out, CTX_EOL, &len);
		total += len > worst ? len : worst;
	}
	p->clo = c->clo;
	p->nclo = c->nclo;
	c->clo = NULL;
	/* per thread: the list entries plus copying the slots */
	p->step_cost = total + (size_t)p->nst * 2 * p->ngroups;
	if (rx_scratch_size(p) > RX_MAX_SCRATCH)
		fail(c, "regular expression too complex (its capture matcher needs %zu bytes; RX_MAX_SCRATCH is %d)",
		     rx_scratch_size(p), RX_MAX_SCRATCH);
}

/* ---- the interface ---- */

struct rx_prog *rx_compile(const char *pattern, char *errbuf, size_t errlen)
{
	/* On the heap: longjmp would leave changed locals indeterminate. */
	struct ctx *c = xcalloc(1, sizeof(*c));
	struct rx_prog *p = xcalloc(1, sizeof(*p));
	struct dfa_build *d = &c->dfa;
	struct ast *a;
	int i;

	c->pat = pattern;
	c->errbuf = errbuf;
	c->errlen = errlen;
	c->ngroups = 1;
	if (setjmp(c->fail)) {
		rx_free(p);
		p = NULL;
		goto out;
	}
	a = parse_alt(c);
	if (peek(c, 0) == ')')
		fail(c, "unmatched ')' at offset %d", c->pos);
	p->ngroups = c->ngroups;
	c->start = build(c, a, new_node(c, N_MATCH, -1, -1, 0));
	c->mark = xcalloc(c->nnfa, sizeof(int));
	c->tmp = xmalloc((c->nnfa + 1) * sizeof(int));
	byte_classes(c, p);
	build_dfa(c, p, d);
	build_captures(c, p);
	p->pattern = xstrdup(pattern);
out:
	for (i = 0; i < d->nst; i++)
		free(d->st[i].set);
	free(d->st);
	free(d->hash);
	arena_free(&c->arena);
	free(c->sets);
	free(c->nfa);
	free(c->mark);
	free(c->tmp);
	free(c->stidx);
	free(c->clo);
	free(c->ops);
	free(c->hash);
	free(c);
	return p;
}

void rx_free(struct rx_prog *p)
{
	if (!p)
		return;
	free(p->pattern);
	free(p->dfa);
	free(p->dflag);
	free(p->member);
	free(p->next);
	free(p->clo);
	free(p);
}

int rx_ngroups(const struct rx_prog *p)
{
	return p->ngroups;
}

/* Must match the layout _stp_rx_exec() carves out of scratch. */
size_t rx_scratch_size(const struct rx_prog *p)
{
	size_t nslot = 2 * p->ngroups;
	size_t list = 1 + p->nst + p->nst * nslot;

	return 4 * (2 * list + 2 * nslot + p->nst);
}

size_t rx_step_cost(const struct rx_prog *p)
{
	return p->step_cost;
}

size_t rx_table_size(const struct rx_prog *p)
{
	return 256 + 2 * (size_t)p->ndfa * p->ncls + p->ndfa +
	       (size_t)p->nst * p->mbytes + 4 * (size_t)p->nst + 2 * p->nclo;
}

/*
 * The matcher every emitted regex calls.  Layout of scratch, in int32_t:
 * two thread lists {count, state[nst], slots[nst][nslot]}, the best match
 * so far [nslot], the slots of a thread starting now [nslot], and a mark
 * per state holding the position it was last added at.
 */
static const char engine[] =
	"#ifndef _STP_RX_ENGINE\n"
	"#define _STP_RX_ENGINE\n"
	"/* Regex matcher shared by the regexes below: see translator/regex.h. */\n"
	"struct _stp_rx {\n"
	"\tconst uint8_t *cls;\t/* byte -> byte class */\n"
	"\tconst uint16_t *dfa;\t/* [state][class] -> state; 0 starts */\n"
	"\tconst uint8_t *dflag;\t/* 1 accepts, 2 accepts at the end, 4 dead */\n"
	"\tconst uint8_t *member;\t/* [nfa state][class bit]: takes the byte */\n"
	"\tconst uint16_t *next;\t/* [nfa state][at end]: closure after it */\n"
	"\tconst uint16_t *clo;\t/* closures: n, n * {state, nops, slot...} */\n"
	"\tuint16_t start[4];\t/* closure of the start [at 0 * 2 + at end] */\n"
	"\tuint16_t ncls, nst, nslot, mbytes;\n"
	"\tuint8_t empty;\t\t/* \"\" matches */\n"
	"};\n"
	"\n"
	"static int _stp_rx_dfa(const struct _stp_rx *rx, const unsigned char *p)\n"
	"{\n"
	"\tunsigned int st = 0;\n"
	"\n"
	"\tif (!*p)\n"
	"\t\treturn rx->empty;\n"
	"\tfor (;;) {\n"
	"\t\tuint8_t f = rx->dflag[st];\n"
	"\n"
	"\t\tif (f & 1)\n"
	"\t\t\treturn 1;\n"
	"\t\tif (f & 4)\n"
	"\t\t\treturn 0;\n"
	"\t\tif (!*p)\n"
	"\t\t\treturn (f & 2) != 0;\n"
	"\t\tst = rx->dfa[st * rx->ncls + rx->cls[*p++]];\n"
	"\t}\n"
	"}\n"
	"\n"
	"/* Follow closure id from slots cap at pos into list, or into best. */\n"
	"static void _stp_rx_add(const struct _stp_rx *rx, unsigned int id,\n"
	"\t\t\tconst int32_t *cap, int32_t pos, int32_t *list,\n"
	"\t\t\tint32_t *mark, int32_t *best)\n"
	"{\n"
	"\tconst uint16_t *e = rx->clo + id;\n"
	"\tunsigned int n = *e++, ns = rx->nslot, i, tgt, nops;\n"
	"\tint32_t *dst;\n"
	"\n"
	"\tfor (; n; n--, e += 2 + nops) {\n"
	"\t\ttgt = e[0];\n"
	"\t\tnops = e[1];\n"
	"\t\tif (tgt == 0xffff) {\t/* a match: leftmost, then longest */\n"
	"\t\t\tif (best[0] >= 0 && (cap[0] > best[0] ||\n"
	"\t\t\t\t\t     (cap[0] == best[0] && pos <= best[1])))\n"
	"\t\t\t\tcontinue;\n"
	"\t\t\tdst = best;\n"
	"\t\t} else {\n"
	"\t\t\tif (mark[tgt] == pos)\n"
	"\t\t\t\tcontinue;\n"
	"\t\t\tmark[tgt] = pos;\n"
	"\t\t\tlist[1 + list[0]] = tgt;\n"
	"\t\t\tdst = list + 1 + rx->nst + list[0] * ns;\n"
	"\t\t\tlist[0]++;\n"
	"\t\t}\n"
	"\t\tfor (i = 0; i < ns; i++)\n"
	"\t\t\tdst[i] = cap[i];\n"
	"\t\tfor (i = 0; i < nops; i++)\n"
	"\t\t\tdst[e[2 + i]] = pos;\n"
	"\t\tif (tgt == 0xffff)\n"
	"\t\t\tdst[1] = pos;\n"
	"\t}\n"
	"}\n"
	"\n"
	"static int _stp_rx_exec(const struct _stp_rx *rx, const char *s,\n"
	"\t\t\tint64_t *groups, int ngroups_max, void *scratch)\n"
	"{\n"
	"\tconst unsigned char *p = (const unsigned char *)s;\n"
	"\tunsigned int ns = rx->nslot, nst = rx->nst, lsize, i, t, k, c;\n"
	"\tint32_t *cur, *nxt, *best, *seed, *mark, *tmp, pos;\n"
	"\n"
	"\tif (!_stp_rx_dfa(rx, p))\n"
	"\t\treturn 0;\n"
	"\tif (!groups || ngroups_max <= 0)\n"
	"\t\treturn 1;\n"
	"\tlsize = 1 + nst + nst * ns;\n"
	"\tcur = scratch;\n"
	"\tnxt = cur + lsize;\n"
	"\tbest = nxt + lsize;\n"
	"\tseed = best + ns;\n"
	"\tmark = seed + ns;\n"
	"\tfor (i = 0; i < ns; i++)\n"
	"\t\tbest[i] = seed[i] = -1;\n"
	"\tfor (i = 0; i < nst; i++)\n"
	"\t\tmark[i] = -1;\n"
	"\tcur[0] = 0;\n"
	"\tfor (pos = 0;; pos++) {\n"
	"\t\tc = p[pos];\n"
	"\t\tif (best[0] < 0) {\t/* no match yet: a thread starts here */\n"
	"\t\t\tseed[0] = pos;\n"
	"\t\t\t_stp_rx_add(rx, rx->start[(pos == 0) * 2 + (c == 0)], seed,\n"
	"\t\t\t\t    pos, cur, mark, best);\n"
	"\t\t}\n"
	"\t\tif (!c || (!cur[0] && best[0] >= 0))\n"
	"\t\t\tbreak;\n"
	"\t\tk = rx->cls[c];\n"
	"\t\tnxt[0] = 0;\n"
	"\t\tfor (t = 0; t < (unsigned int)cur[0]; t++) {\n"
	"\t\t\tunsigned int st = cur[1 + t];\n"
	"\t\t\tconst int32_t *cap = cur + 1 + nst + t * ns;\n"
	"\n"
	"\t\t\tif (best[0] >= 0 && cap[0] > best[0])\n"
	"\t\t\t\tcontinue;\t/* starts right of the match */\n"
	"\t\t\tif (rx->member[st * rx->mbytes + k / 8] & (1 << (k % 8)))\n"
	"\t\t\t\t_stp_rx_add(rx, rx->next[2 * st + !p[pos + 1]], cap,\n"
	"\t\t\t\t\t    pos + 1, nxt, mark, best);\n"
	"\t\t}\n"
	"\t\ttmp = cur;\n"
	"\t\tcur = nxt;\n"
	"\t\tnxt = tmp;\n"
	"\t}\n"
	"\tif (best[0] < 0)\n"
	"\t\treturn 0;\t/* cannot happen: the DFA said yes */\n"
	"\tif ((unsigned int)ngroups_max > ns / 2)\n"
	"\t\tngroups_max = ns / 2;\n"
	"\tfor (i = 0; i < 2 * (unsigned int)ngroups_max; i++)\n"
	"\t\tgroups[i] = best[i];\n"
	"\treturn 1;\n"
	"}\n"
	"#endif /* _STP_RX_ENGINE */\n";

static void emit_u16(struct strbuf *out, const char *type, const char *fn,
		     const char *name, const uint16_t *v, size_t n)
{
	size_t i;

	sb_printf(out, "static const %s %s_%s[%zu] = {", type, fn, name, n ? n : 1);
	for (i = 0; i < n; i++)
		sb_printf(out, "%s%u,", i % 16 ? " " : "\n\t", v[i]);
	sb_puts(out, n ? "\n};\n" : " 0 };\n");
}

static void emit_u8(struct strbuf *out, const char *fn, const char *name,
		    const uint8_t *v, size_t n)
{
	size_t i;

	sb_printf(out, "static const uint8_t %s_%s[%zu] = {", fn, name, n ? n : 1);
	for (i = 0; i < n; i++)
		sb_printf(out, "%s%u,", i % 16 ? " " : "\n\t", v[i]);
	sb_puts(out, n ? "\n};\n" : " 0 };\n");
}

void rx_emit_engine(struct strbuf *out)
{
	sb_puts(out, engine);
}

void rx_emit_c(const struct rx_prog *p, const char *fn, struct strbuf *out)
{
	const char *s;

	/* The pattern as a comment: no "*" "/" and no line breaks in it. */
	sb_puts(out, "\n/* regex \"");
	for (s = p->pattern; *s; s++) {
		unsigned char ch = *s;

		if (ch == '/' && s > p->pattern && s[-1] == '*')
			sb_puts(out, "\\/");
		else if (ch < ' ' || ch > '~')
			sb_printf(out, "\\%03o", ch);
		else
			sb_putc(out, ch);
	}
	sb_printf(out, "\": %d DFA states, %d NFA states, %d byte classes */\n",
		  p->ndfa, p->nst, p->ncls);
	sb_printf(out, "#define %s_NGROUPS %d\n", fn, p->ngroups);
	sb_printf(out, "#define %s_SCRATCH %zu\n", fn, rx_scratch_size(p));
	emit_u8(out, fn, "cls", p->cls, 256);
	emit_u16(out, "uint16_t", fn, "dfa", p->dfa, (size_t)p->ndfa * p->ncls);
	emit_u8(out, fn, "dflag", p->dflag, p->ndfa);
	emit_u8(out, fn, "member", p->member, (size_t)p->nst * p->mbytes);
	emit_u16(out, "uint16_t", fn, "next", p->next, 2 * (size_t)p->nst);
	emit_u16(out, "uint16_t", fn, "clo", p->clo, p->nclo);
	sb_printf(out,
		  "static const struct _stp_rx %s_rx = {\n"
		  "\t%s_cls, %s_dfa, %s_dflag, %s_member, %s_next, %s_clo,\n"
		  "\t{ %u, %u, %u, %u }, %d, %d, %d, %d, %d\n"
		  "};\n",
		  fn, fn, fn, fn, fn, fn, fn,
		  p->start[0], p->start[1], p->start[2], p->start[3],
		  p->ncls, p->nst, 2 * p->ngroups, p->mbytes, p->empty);
	sb_printf(out,
		  "static __attribute__((__unused__)) int %s(const char *s, int64_t *groups,\n"
		  "\t\tint ngroups_max, void *scratch)\n"
		  "{\n"
		  "\treturn _stp_rx_exec(&%s_rx, s, groups, ngroups_max, scratch);\n"
		  "}\n",
		  fn, fn);
}
