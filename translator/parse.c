// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 1b: recursive-descent parser from tokens to the AST.  Each parse
 * function carries its grammar rule.  On an error the parser reports it,
 * skips to a likely statement or declaration boundary and goes on, so one
 * run shows several mistakes.
 */
#include <stdlib.h>
#include <string.h>

#include "stap.h"

struct parser {
	struct session *s;
	struct srcfile *f;
	struct token *tok;
	struct program *prog;
	int errors;
	int depth;		/* levels entered through nested() */
	bool too_deep;		/* reported: once per file is enough */
};

static struct node *expr(struct parser *p);
static struct node *stmt(struct parser *p);
static struct node *block(struct parser *p);
static struct node *assignment(struct parser *p);

/* Set when a parse function has reported an error and unwinds. */
#define FAIL(p) ((p)->errors != 0)

static const char *const keywords[] = {
	"probe", "global", "function", "if", "else", "while", "for",
	"foreach", "in", "break", "continue", "next", "return", "delete",
	"try", "catch", "private",
};

bool parse_is_keyword(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(keywords); i++)
		if (strlen(keywords[i]) == n && !strncmp(keywords[i], s, n))
			return true;
	return false;
}

static bool is_keyword(const struct token *t)
{
	size_t i;

	if (t->kind != TK_IDENT)
		return false;
	for (i = 0; i < ARRAY_SIZE(keywords); i++)
		if (t->text[0] == keywords[i][0] && tok_is(t, keywords[i]))
			return true;
	return false;
}

static const char *tok_desc(struct parser *p, const struct token *t)
{
	switch (t->kind) {
	case TK_EOF:
		return "end of input";
	case TK_STR:
		return "string literal";
	case TK_NUM:
		return "number";
	case TK_EMBEDDED:
		return "embedded C block";
	default:
		return arena_printf(&p->s->arena, "'%.*s'", t->loc.len,
				    t->text);
	}
}

static void error_tok(struct parser *p, struct token *t, const char *fmt,
		      const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	sb_printf(&sb, fmt, what);
	sb_printf(&sb, ", found %s", tok_desc(p, t));
	if (!p->errors) {
		diag_error(p->s, &t->loc, "%s", sb_str(&sb));
		pp_note_expansion(p->s, t);
	}
	sb_free(&sb);
	p->errors++;
}

static bool peek(struct parser *p, const char *s)
{
	/* The first character settles most tests, without tok_is's strlen. */
	return p->tok->text[0] == s[0] && tok_is(p->tok, s);
}

static bool accept(struct parser *p, const char *s)
{
	if (!peek(p, s))
		return false;
	p->tok = p->tok->next;
	return true;
}

static struct token *expect(struct parser *p, const char *s)
{
	struct token *t = p->tok;

	if (FAIL(p))
		return t;
	if (!accept(p, s)) {
		error_tok(p, t, "expected '%s'", s);
		return t;
	}
	return t;
}

static struct token *advance(struct parser *p)
{
	struct token *t = p->tok;

	if (t->kind != TK_EOF)
		p->tok = t->next;
	return t;
}

/*
 * Embedded C runs unchecked in the kernel: only tapsets and guru mode may
 * have it.  Said while parsing (pass 1, as SystemTap does), and parsing
 * goes on to find the script's other errors.
 */
static void embedded_allowed(struct parser *p, const struct token *t)
{
	if (p->s->guru || t->loc.file->is_tapset)
		return;
	diag_error(p->s, &t->loc, "embedded C is only allowed in guru mode");
	diag_hint(p->s, "run stap with -g if you trust this code");
}

static struct node *new_node(struct parser *p, enum node_kind kind,
			     const struct token *t)
{
	struct node *n = arena_alloc(&p->s->arena, sizeof(*n));

	n->kind = kind;
	n->loc = t->loc;
	return n;
}

/*
 * Nesting is limited so that the parser and the passes after it, which
 * all recurse on the AST, stay well within the stack whatever the input.
 * The AST may be MAX_NESTING deep.  The parser may recurse twice as deep:
 * the canonical form (-p1) of an accepted script must parse again, and it
 * spends up to two levels on one node ("-(x)").
 */
#define MAX_NESTING 500
#define MAX_RECURSION (2 * MAX_NESTING + 8)

static void too_deep(struct parser *p, const struct srcloc *loc)
{
	if (!FAIL(p) && !p->too_deep)
		diag_error(p->s, loc, "expressions and statements nest too deeply "
			   "(at most %d levels)", MAX_NESTING);
	p->too_deep = true;
	p->errors++;
}

/* f(p), one level deeper; past MAX_RECURSION an error and a placeholder. */
static struct node *nested(struct parser *p, struct node *(*f)(struct parser *))
{
	struct node *n;

	if (p->depth >= MAX_RECURSION) {
		too_deep(p, &p->tok->loc);
		return new_node(p, ND_NULL_STMT, p->tok);
	}
	p->depth++;
	n = f(p);
	p->depth--;
	return n;
}

/*
 * The first node of list n whose tree is deeper than budget, or NULL.
 * Loops build deep trees without deep recursion here ("1 + 1 + ... + 1"
 * is left-deep), so bodies are measured once parsed; this walk recurses
 * at most budget levels.
 */
static const struct node *deeper_than(const struct node *n, int budget)
{
	for (; n; n = n->next) {
		const struct node *kids[] = {
			n->lhs, n->rhs, n->cond, n->then, n->els, n->init, n->step,
			n->body, n->args, n->keys, n->value, n->array, n->limit,
			n->catch_var,
		};
		const struct node *deep;

		if (budget <= 0)
			return n;
		for (size_t i = 0; i < ARRAY_SIZE(kids); i++)
			if ((deep = deeper_than(kids[i], budget - 1)))
				return deep;
		for (const struct member *m = n->members; m; m = m->next)
			if ((deep = deeper_than(m->index, budget - 1)))
				return deep;
	}
	return NULL;
}

static void check_depth(struct parser *p, const struct node *n)
{
	const struct node *deep = deeper_than(n, MAX_NESTING);

	if (deep)
		too_deep(p, &deep->loc);
}

static const char *ident_name(struct parser *p, struct token *t)
{
	return arena_strndup(&p->s->arena, t->text, t->loc.len);
}

static struct token *expect_ident(struct parser *p, const char *what)
{
	struct token *t = p->tok;

	if (FAIL(p))
		return t;
	if (t->kind != TK_IDENT || is_keyword(t)) {
		error_tok(p, t, "expected %s", what);
		return t;
	}
	return advance(p);
}

/* ---- expressions ---- */

/* members -> ( '->' ident | '[' expr ']' )* */
/*
 * members -> ('->' name | '[' expr ']')* ('$' | '$$')?
 * The trailing '$' or '$$' (pretty printing) goes into n->num.
 */
static struct member *members(struct parser *p, struct node *n)
{
	struct member head = { 0 }, *tail = &head;

	while (!FAIL(p) && (peek(p, "->") || peek(p, "["))) {
		struct member *m = arena_alloc(&p->s->arena, sizeof(*m));
		struct token *t = advance(p);

		m->loc = t->loc;
		if (tok_is(t, "->")) {
			/* C members may be script keywords: $skb->next, ->delete */
			if (p->tok->kind == TK_IDENT)
				m->name = ident_name(p, advance(p));
			else
				m->name = ident_name(p, expect_ident(p, "a member name after '->'"));
		} else {
			m->index = expr(p);
			expect(p, "]");
		}
		tail = tail->next = m;
	}
	if (!FAIL(p) && head.next && (peek(p, "$") || peek(p, "$$")))
		n->num = advance(p)->loc.len > 1 ? 2 : 1;
	return head.next;
}

/*
 * e->member (or e$, e$$) after a parenthesized expression, a variable or a call:
 * sem.c gives it the C type of e: a target expression's, or the one a
 * local or a function's result carries (SystemTap's "autocast").
 */
static struct node *autocast_members(struct parser *p, struct node *n)
{
	struct node *a;

	if (FAIL(p) || (!peek(p, "->") && !peek(p, "$") && !peek(p, "$$")))
		return n;
	a = new_node(p, ND_AUTOCAST, p->tok);
	a->lhs = n;
	a->members = members(p, a);
	if (!a->members)	/* e$, e$$: pretty-printed */
		a->num = advance(p)->loc.len > 1 ? 2 : 1;
	return a;
}

/* args -> '(' (expr (',' expr)*)? ')' */
static struct node *call_args(struct parser *p, int *count)
{
	struct node head = { 0 }, *tail = &head;

	*count = 0;
	expect(p, "(");
	if (accept(p, ")"))
		return NULL;
	do {
		tail = tail->next = expr(p);
		(*count)++;
	} while (!FAIL(p) && accept(p, ","));
	expect(p, ")");
	return head.next;
}

static bool is_stat_op(const char *name)
{
	static const char *const ops[] = {
		"count", "sum", "min", "max", "avg", "variance",
	};
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(name, ops[i]))
			return true;
	return false;
}

/* at_expr -> '@' name args members?  (@sum(x), @cast(p, "t")->f, @1) */
static struct node *at_expr(struct parser *p)
{
	struct token *t = advance(p);
	const char *name = t->str;
	struct node *n;
	int nargs;

	if (name[0] >= '0' && name[0] <= '9') {
		n = new_node(p, ND_ARG, t);
		n->num = strtol(name, NULL, 10);
		n->str_arg = true;
		return n;
	}
	if (is_stat_op(name)) {
		n = new_node(p, ND_STATOP, t);
		n->str = name;
		n->args = call_args(p, &nargs);
		if (!FAIL(p) && (nargs < 1 || nargs > (strcmp(name, "variance") ? 1 : 2)))
			diag_error(p->s, &t->loc, "@%s takes %s", name,
				   strcmp(name, "variance") ? "one argument" :
				   "one or two arguments"), p->errors++;
		return n;
	}
	if (!strcmp(name, "hist_linear") || !strcmp(name, "hist_log")) {
		n = new_node(p, ND_HIST, t);
		n->str = name;
		n->args = call_args(p, &nargs);
		if (!FAIL(p) && nargs != (name[5] == 'l' && name[6] == 'i' ? 4 : 1))
			diag_error(p->s, &t->loc, "@%s takes %s", name,
				   name[6] == 'i' ? "four arguments (value, low, high, step)" :
				   "one argument"), p->errors++;
		return n;
	}
	if (!strcmp(name, "cast") || !strcmp(name, "var")) {
		n = new_node(p, name[0] == 'c' ? ND_CAST : ND_ATVAR, t);
		n->args = call_args(p, &nargs);
		n->members = members(p, n);
		return n;
	}
	if (!strcmp(name, "defined") || !strcmp(name, "entry")) {
		n = new_node(p, name[0] == 'd' ? ND_DEFINED : ND_ENTRY, t);
		expect(p, "(");
		n->lhs = expr(p);
		expect(p, ")");
		return n;
	}
	if (!strcmp(name, "perf")) {
		/* @perf("NAME"): a call of tapsets/perf.stp's reader; sem.c checks NAME. */
		n = new_node(p, ND_CALL, t);
		n->str = "__perf_read";
		n->args = call_args(p, &nargs);
		n->num = nargs;
		return n;
	}
	if (!FAIL(p))
		diag_error(p->s, &t->loc, "unknown operator '@%s'", name);
	p->errors++;
	return new_node(p, ND_NUM, t);
}

/* index -> '[' expr (',' expr)* ']' */
static struct node *index_list(struct parser *p)
{
	struct node head = { 0 }, *tail = &head;

	expect(p, "[");
	do {
		struct token *t = p->tok;

		/* '*': any index, in slices ("[*, 2] in a", "delete a[*, 2]");
		 * sem.c refuses it anywhere else. */
		if (accept(p, "*"))
			tail = tail->next = new_node(p, ND_NULL_STMT, t);
		else
			tail = tail->next = expr(p);
	} while (!FAIL(p) && accept(p, ","));
	expect(p, "]");
	return head.next;
}

/*
 * primary -> NUM | STR+ | '(' expr ')' | ident | ident args | ident index | EMBEDDED
 *          | '$'name members | '$'N | '@'... | '$#' | '@#'
 */
static struct node *primary(struct parser *p)
{
	struct token *t = p->tok;
	struct node *n;
	int nargs;

	if (FAIL(p))
		return new_node(p, ND_NUM, t);
	switch (t->kind) {
	case TK_NUM:
		n = new_node(p, ND_NUM, advance(p));
		n->num = t->num;
		return n;
	case TK_STR: {
		struct strbuf sb = STRBUF_INIT;

		/* Adjacent literals join, as in C. */
		n = new_node(p, ND_STR, t);
		while (p->tok->kind == TK_STR) {
			sb_add(&sb, p->tok->str, p->tok->str_len);
			advance(p);
		}
		n->str = arena_strndup(&p->s->arena, sb_str(&sb), sb.len);
		n->str_len = (int)sb.len;
		sb_free(&sb);
		return n;
	}
	case TK_DOLLAR:
		advance(p);
		if (t->str[0] >= '0' && t->str[0] <= '9') {
			n = new_node(p, ND_ARG, t);
			n->num = strtol(t->str, NULL, 10);
			return n;
		}
		n = new_node(p, ND_TARGET, t);
		n->str = t->str;
		n->members = members(p, n);
		return n;
	case TK_ARGC:
		n = new_node(p, ND_ARGC, advance(p));
		n->str_arg = t->text[0] == '@';
		return n;
	case TK_AT:
		return at_expr(p);
	case TK_EMBEDDED:
		/* A C expression (guru mode), long unless it says string. */
		embedded_allowed(p, t);
		n = new_node(p, ND_EMBEDDED, advance(p));
		n->str = t->str;
		n->type = strstr(t->str, "/* string */") ? TY_STRING : TY_LONG;
		return n;
	case TK_IDENT:
		if (is_keyword(t))
			break;
		advance(p);
		if (peek(p, "(")) {
			n = new_node(p, ND_CALL, t);
			n->str = ident_name(p, t);
			n->args = call_args(p, &nargs);
			n->num = nargs;
		} else if (peek(p, "[")) {
			n = new_node(p, ND_INDEX, t);
			n->str = ident_name(p, t);
			n->args = index_list(p);
		} else {
			n = new_node(p, ND_VAR, t);
			n->str = ident_name(p, t);
		}
		return autocast_members(p, n);
	case TK_PUNCT:
		if (accept(p, "(")) {
			n = expr(p);
			expect(p, ")");
			return autocast_members(p, n);
		}
		break;
	default:
		break;
	}
	error_tok(p, t, "expected %s", "an expression");
	return new_node(p, ND_NUM, t);
}

/* crement -> primary ('++' | '--')? */
static struct node *postfix(struct parser *p)
{
	struct node *n = primary(p);

	while (!FAIL(p) && (peek(p, "++") || peek(p, "--"))) {
		struct token *t = advance(p);
		struct node *u = new_node(p, ND_UNARY, t);

		u->op = tok_is(t, "++") ? OP_POSTINC : OP_POSTDEC;
		u->lhs = n;
		n = u;
	}
	return n;
}

/* unary -> ('!' | '~' | '-' | '+' | '++' | '--') unary | crement */
static struct node *unary(struct parser *p)
{
	static const struct { const char *tok; enum op op; } ops[] = {
		{ "!", OP_NOT }, { "~", OP_BITNOT }, { "-", OP_NEG },
		{ "+", OP_PLUS }, { "++", OP_PREINC }, { "--", OP_PREDEC },
	};
	size_t i;

	/* & $EXPR: the address of a target expression (op marks it). */
	if (peek(p, "&")) {
		struct token *t = advance(p);
		struct node *n = nested(p, unary);

		if (!FAIL(p) && n->kind != ND_TARGET && n->kind != ND_CAST && n->kind != ND_ATVAR &&
		    n->kind != ND_AUTOCAST) {
			diag_error(p->s, &t->loc, "'&' takes the address of a target expression "
				   "($var, @cast, @var, or a typed value's p->member)");
			p->errors++;
		}
		n->op = OP_BITAND;
		return n;
	}
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (peek(p, ops[i].tok)) {
			struct token *t = advance(p);
			struct node *n;

			/* Fold "-9223372036854775808" so the minimum parses. */
			if (ops[i].op == OP_NEG && p->tok->kind == TK_NUM) {
				n = nested(p, unary);
				if (n->kind == ND_NUM) {
					/* Wraps: -INT64_MIN is INT64_MIN, not UB. */
					n->num = (int64_t)(0 - (uint64_t)n->num);
					n->loc = t->loc;
					return n;
				}
			} else {
				n = nested(p, unary);
			}
			struct node *u = new_node(p, ND_UNARY, t);

			u->op = ops[i].op;
			u->lhs = n;
			return u;
		}
	}
	return postfix(p);
}

struct binop_level {
	const char *toks[6];
	enum op ops[6];
};

/* Binary levels from tightest to loosest; see binary() below. */
static const struct binop_level levels[] = {
	{ { "*", "/", "%" }, { OP_MUL, OP_DIV, OP_MOD } },
	{ { "+", "-" }, { OP_ADD, OP_SUB } },
	{ { "." }, { OP_CONCAT } },
	{ { "<<", ">>" }, { OP_SHL, OP_SHR } },
	{ { "==", "!=", "<=", ">=", "<", ">" },
	  { OP_EQ, OP_NE, OP_LE, OP_GE, OP_LT, OP_GT } },
	/* level 5 is "in", handled in binary() */
	{ { 0 }, { 0 } },
	{ { "&" }, { OP_BITAND } },
	{ { "^" }, { OP_BITXOR } },
	{ { "|" }, { OP_BITOR } },
	{ { "&&" }, { OP_AND } },
	{ { "||" }, { OP_OR } },
};
#define IN_LEVEL 5

/* Regular expression match sits with the comparisons. */
static bool match_op(struct parser *p, enum op *op)
{
	if (peek(p, "=~"))
		*op = OP_MATCH;
	else if (peek(p, "!~"))
		*op = OP_NOMATCH;
	else
		return false;
	return true;
}

/*
 * binary(L) -> binary(L-1) (op_L binary(L-1))*   left-associative
 * in-level  -> binary(4) ('in' ident)?  and  '[' expr, ... ']' 'in' ident
 */
static struct node *binary(struct parser *p, int level)
{
	struct node *n;

	if (level < 0)
		return unary(p);
	if (level == IN_LEVEL) {
		/* "[a, b] in arr": a bracket here can only start a key list. */
		if (peek(p, "[")) {
			struct token *t = p->tok;
			struct node *keys = index_list(p), *in;

			in = new_node(p, ND_IN, t);
			in->args = keys;
			in->loc = p->tok->loc;
			if (!FAIL(p) && !accept(p, "in"))
				error_tok(p, p->tok, "expected %s", "'in' after a key list");
			in->str = ident_name(p, expect_ident(p, "an array name after 'in'"));
			return in;
		}
		n = binary(p, level - 1);
		while (!FAIL(p) && peek(p, "in")) {
			struct node *in = new_node(p, ND_IN, p->tok);

			advance(p);
			in->args = n;
			in->str = ident_name(p, expect_ident(p, "an array name after 'in'"));
			n = in;
		}
		return n;
	}
	n = binary(p, level - 1);
	for (;;) {
		const struct binop_level *L = &levels[level];
		enum op op = OP_NONE;
		int i;

		if (FAIL(p))
			return n;
		for (i = 0; i < 6 && L->toks[i]; i++) {
			if (peek(p, L->toks[i])) {
				op = L->ops[i];
				break;
			}
		}
		if (op == OP_NONE && level == 4)
			match_op(p, &op);
		if (op == OP_NONE)
			return n;
		struct node *b = new_node(p, ND_BINARY, advance(p));

		b->op = op;
		b->lhs = n;
		b->rhs = binary(p, level - 1);
		n = b;
	}
}

/* ternary -> logical_or ('?' expr ':' ternary)? */
static struct node *ternary(struct parser *p)
{
	struct node *n = binary(p, (int)ARRAY_SIZE(levels) - 1);

	if (!FAIL(p) && peek(p, "?")) {
		struct node *t = new_node(p, ND_TERNARY, advance(p));

		t->cond = n;
		t->then = expr(p);
		expect(p, ":");
		t->els = nested(p, ternary);
		return t;
	}
	return n;
}

/* assignment -> ternary (assign_op assignment | '<<<' assignment)? */
static struct node *assignment(struct parser *p)
{
	static const struct { const char *tok; enum op op; } ops[] = {
		{ "=", OP_NONE }, { "+=", OP_ADD }, { "-=", OP_SUB },
		{ "*=", OP_MUL }, { "/=", OP_DIV }, { "%=", OP_MOD },
		{ "<<=", OP_SHL }, { ">>=", OP_SHR }, { "&=", OP_BITAND },
		{ "|=", OP_BITOR }, { "^=", OP_BITXOR }, { ".=", OP_CONCAT },
	};
	struct node *n = ternary(p);
	size_t i;

	if (FAIL(p))
		return n;
	if (peek(p, "<<<")) {
		struct node *a = new_node(p, ND_PUSH, advance(p));

		a->lhs = n;
		a->rhs = nested(p, assignment);
		return a;
	}
	for (i = 0; i < ARRAY_SIZE(ops); i++) {
		if (peek(p, ops[i].tok)) {
			struct node *a = new_node(p, ND_ASSIGN, advance(p));

			a->op = ops[i].op;
			a->lhs = n;
			a->rhs = nested(p, assignment);
			return a;
		}
	}
	return n;
}

static struct node *expr(struct parser *p)
{
	return nested(p, assignment);
}

/* ---- statements ---- */

/* Statements end with an optional ';'. */
static void opt_semi(struct parser *p)
{
	accept(p, ";");
}

/* sort -> ('+' | '-')?  after key k (1-based), or after the array (-1) */
static void sort_mark(struct parser *p, struct node *n, int key)
{
	if (!peek(p, "+") && !peek(p, "-"))
		return;
	if (n->sort_key && !FAIL(p)) {
		diag_error(p->s, &p->tok->loc,
			   "only one sort direction may be given in foreach");
		p->errors++;
	}
	n->sort_key = key;
	n->sort_dir = peek(p, "+") ? 1 : -1;
	advance(p);
}

/*
 * foreach -> 'foreach' '(' (ident '=')? keys 'in' ident slice? sort? ('limit' expr)? ')' stmt
 * slice   -> '[' ('*' | expr) (',' ('*' | expr))* ']'
 * keys    -> ident sort? | '[' ident sort? (',' ident sort?)* ']'
 * sort    -> '+' | '-'        (after the array: '@'stat? sort, by value)
 */
static struct node *foreach_stmt(struct parser *p, struct token *kw)
{
	struct node *n = new_node(p, ND_FOREACH, kw);
	struct node head = { 0 }, *tail = &head;
	int k = 0;

	expect(p, "(");
	/* "v = [k] in a" binds the value too. */
	if (p->tok->kind == TK_IDENT && tok_is(p->tok->next, "=")) {
		n->value = new_node(p, ND_VAR, p->tok);
		n->value->str = ident_name(p, advance(p));
		advance(p);
	}
	bool bracket = accept(p, "[");

	do {
		struct token *t = expect_ident(p, "a loop variable name");
		struct node *v = new_node(p, ND_VAR, t);

		v->str = ident_name(p, t);
		tail = tail->next = v;
		sort_mark(p, n, ++k);
	} while (bracket && !FAIL(p) && accept(p, ","));
	if (bracket)
		expect(p, "]");
	n->keys = head.next;
	if (!FAIL(p) && !accept(p, "in"))
		error_tok(p, p->tok, "expected %s", "'in'");
	n->array = new_node(p, ND_VAR, p->tok);
	n->array->str = ident_name(p, expect_ident(p, "an array name"));
	/* A slice: "in a[*, e]" walks the entries whose indexes match. */
	if (!FAIL(p) && accept(p, "[")) {
		struct node shead = { 0 }, *stail = &shead;

		do {
			struct token *t = p->tok;

			if (accept(p, "*")) {
				stail = stail->next = new_node(p, ND_NULL_STMT, t);
			} else {
				stail = stail->next = expr(p);
			}
		} while (!FAIL(p) && accept(p, ","));
		expect(p, "]");
		n->slice = shead.next;
	}
	if (p->tok->kind == TK_AT && is_stat_op(p->tok->str)) {
		n->sort_stat = advance(p)->str;
		if (!peek(p, "+") && !peek(p, "-"))
			error_tok(p, p->tok, "expected %s", "'+' or '-' after the statistic to sort by");
	}
	sort_mark(p, n, -1);
	if (accept(p, "limit"))
		n->limit = expr(p);
	expect(p, ")");
	n->body = stmt(p);
	return n;
}

/*
 * stmt -> block | ';' | 'if' '(' expr ')' stmt ('else' stmt)?
 *       | 'while' '(' expr ')' stmt | 'for' '(' expr? ';' expr? ';' expr? ')' stmt
 *       | foreach | 'break' | 'continue' | 'next' | 'return' expr?
 *       | 'delete' expr | 'try' block 'catch' ('(' ident ')')? block | expr
 */
static struct node *statement(struct parser *p)
{
	struct token *t = p->tok;
	struct node *n;

	if (FAIL(p))
		return new_node(p, ND_NULL_STMT, t);
	if (peek(p, "{"))
		return block(p);
	if (accept(p, ";"))
		return new_node(p, ND_NULL_STMT, t);
	if (accept(p, "if")) {
		n = new_node(p, ND_IF, t);
		expect(p, "(");
		n->cond = expr(p);
		expect(p, ")");
		n->then = stmt(p);
		if (accept(p, "else"))
			n->els = stmt(p);
		return n;
	}
	if (accept(p, "while")) {
		n = new_node(p, ND_WHILE, t);
		expect(p, "(");
		n->cond = expr(p);
		expect(p, ")");
		n->body = stmt(p);
		return n;
	}
	if (accept(p, "for")) {
		n = new_node(p, ND_FOR, t);
		expect(p, "(");
		if (!peek(p, ";"))
			n->init = expr(p);
		expect(p, ";");
		if (!peek(p, ";"))
			n->cond = expr(p);
		expect(p, ";");
		if (!peek(p, ")"))
			n->step = expr(p);
		expect(p, ")");
		n->body = stmt(p);
		return n;
	}
	if (accept(p, "foreach"))
		return foreach_stmt(p, t);
	if (accept(p, "break") || accept(p, "continue") || accept(p, "next")) {
		n = new_node(p, tok_is(t, "break") ? ND_BREAK :
			     tok_is(t, "continue") ? ND_CONTINUE : ND_NEXT, t);
		opt_semi(p);
		return n;
	}
	if (accept(p, "return")) {
		n = new_node(p, ND_RETURN, t);
		if (!peek(p, ";") && !peek(p, "}"))
			n->lhs = expr(p);
		opt_semi(p);
		return n;
	}
	if (accept(p, "delete")) {
		n = new_node(p, ND_DELETE, t);
		n->lhs = expr(p);
		opt_semi(p);
		return n;
	}
	if (accept(p, "try")) {
		n = new_node(p, ND_TRY, t);
		n->body = block(p);
		if (!FAIL(p) && !accept(p, "catch"))
			error_tok(p, p->tok, "expected %s", "'catch' after the try block");
		if (accept(p, "(")) {
			struct token *v = expect_ident(p, "a variable for the error message");

			n->catch_var = new_node(p, ND_VAR, v);
			n->catch_var->str = ident_name(p, v);
			expect(p, ")");
		}
		n->els = block(p);
		return n;
	}
	if (t->kind == TK_IDENT && is_keyword(t)) {
		error_tok(p, t, "expected %s", "a statement");
		return new_node(p, ND_NULL_STMT, t);
	}
	n = new_node(p, ND_EXPR_STMT, t);
	n->lhs = expr(p);
	opt_semi(p);
	return n;
}

static struct node *stmt(struct parser *p)
{
	return nested(p, statement);
}

/* Skip to the end of the statement after an error, and go on. */
static void recover_stmt(struct parser *p)
{
	int depth = 0;

	p->errors = 0;
	while (p->tok->kind != TK_EOF) {
		if (peek(p, "{"))
			depth++;
		if (peek(p, "}")) {
			if (depth-- == 0)
				return;
		}
		if (peek(p, ";") && depth == 0) {
			advance(p);
			return;
		}
		advance(p);
	}
}

/* block -> '{' stmt* '}' */
static struct node *block(struct parser *p)
{
	struct node *b = new_node(p, ND_BLOCK, p->tok);
	struct node head = { 0 }, *tail = &head;
	struct token *open = p->tok;

	expect(p, "{");
	if (FAIL(p))
		return b;
	while (!peek(p, "}")) {
		if (p->tok->kind == TK_EOF) {
			diag_error(p->s, &open->loc,
				   "unclosed '{': the file ended before its '}'");
			p->errors++;
			return b;
		}
		tail = tail->next = stmt(p);
		if (FAIL(p))
			recover_stmt(p);
	}
	advance(p);
	b->body = head.next;
	return b;
}

/* ---- declarations ---- */

/* Whether t is $N or @N, a command-line argument. */
static bool is_arg_token(const struct token *t)
{
	return (t->kind == TK_DOLLAR || t->kind == TK_AT) && t->str &&
	       t->str[0] >= '1' && t->str[0] <= '9';
}

/* The text of argument $N / @N at t, or NULL (reported) if not given. */
static const char *arg_text(struct parser *p, const struct token *t)
{
	long n = strtol(t->str, NULL, 10);

	if (n < 1 || n > p->s->args.len) {
		diag_error(p->s, &t->loc, "probe point uses %.*s, but %d argument%s given",
			   t->loc.len, t->text, p->s->args.len,
			   p->s->args.len == 1 ? " is" : "s are");
		diag_hint(p->s, "pass it after the script: stap SCRIPT.stp ARG1 ARG2 ...");
		p->errors++;
		return NULL;
	}
	return p->s->args.items[n - 1];
}

/*
 * $N or @N where a probe point component goes: the argument's text is a
 * piece of probe point (stap callgraph.stp 'kernel.function("vfs_*")'
 * with "probe $1.call"), so its tokens take the place of the $N token.
 */
static bool splice_arg(struct parser *p)
{
	struct token *t = p->tok, *toks, *last;
	const char *text = arg_text(p, t);
	struct srcfile *f;

	if (!text)
		return false;
	f = source_from_string(p->s, arena_printf(&p->s->arena, "<argument %.*s>",
						    t->loc.len, t->text), text);
	toks = lex_file(p->s, f);
	if (!toks) {
		p->errors++;
		return false;
	}
	if (toks->kind == TK_EOF) {
		diag_error(p->s, &t->loc, "argument %.*s is empty: no probe point", t->loc.len,
			   t->text);
		p->errors++;
		return false;
	}
	for (last = toks; last->next->kind != TK_EOF; last = last->next)
		;
	last->next = t->next;
	p->tok = toks;
	return true;
}

/*
 * A probe point's string argument: string literals and arguments $N/@N
 * side by side, joined ("probe $1.statement(@2 "@*:*")").  A lone $N
 * that reads as a number is that number.
 */
static struct node *pp_string_arg(struct parser *p)
{
	struct token *first = p->tok;
	struct strbuf sb = STRBUF_INIT;
	struct node *n;
	int parts = 0;
	bool number = false;
	long long v = 0;

	while (is_arg_token(p->tok) || p->tok->kind == TK_STR) {
		struct token *t = advance(p);
		const char *text = t->kind == TK_STR ? t->str : arg_text(p, t);
		char *e;

		if (!text)
			break;
		if (t->kind == TK_STR) {
			sb_add(&sb, t->str, (size_t)t->str_len);
		} else {
			v = strtoll(text, &e, 0);
			number = t->kind == TK_DOLLAR && *text && !*e;
			sb_puts(&sb, text);
		}
		parts++;
	}
	if (parts == 1 && number) {
		n = new_node(p, ND_NUM, first);
		n->num = v;
	} else {
		n = new_node(p, ND_STR, first);
		n->str = arena_strndup(&p->s->arena, sb_str(&sb), sb.len);
		n->str_len = (int)sb.len;
	}
	sb_free(&sb);
	return n;
}

/* component -> (name | '$N' | '@N') ('(' (literal | ('$N' | '@N' | string)+) ')')?
 *              name may hold '*' wildcards */
static struct pp_comp *pp_component(struct parser *p)
{
	struct pp_comp *c = arena_alloc(&p->s->arena, sizeof(*c));
	struct token *t = p->tok;
	struct strbuf sb = STRBUF_INIT;
	const char *end = t->text;

	if (is_arg_token(t)) {
		if (!splice_arg(p))
			return c;
		t = p->tok;
		end = t->text;
	}
	c->loc = t->loc;
	/* Join touching identifier and '*' tokens: "sys*_read", "*". */
	while ((p->tok->kind == TK_IDENT || peek(p, "*") || p->tok->kind == TK_NUM) &&
	       (sb.len == 0 || p->tok->text == end)) {
		sb_add(&sb, p->tok->text, p->tok->loc.len);
		end = p->tok->text + p->tok->loc.len;
		advance(p);
	}
	if (!sb.len) {
		error_tok(p, t, "expected %s", "a probe point component");
		sb_free(&sb);
		return c;
	}
	c->name = arena_strndup(&p->s->arena, sb_str(&sb), sb.len);
	c->loc.len = (int)sb.len;
	sb_free(&sb);
	if (accept(p, "(")) {
		struct token *a = p->tok;

		if (is_arg_token(a) || a->kind == TK_STR) {
			c->arg = pp_string_arg(p);
		} else if (a->kind == TK_STR || a->kind == TK_NUM ||
		    (tok_is(a, "-") && a->next->kind == TK_NUM)) {
			c->arg = unary(p);
		} else {
			error_tok(p, a, "expected %s",
				  "a string or number literal as probe point argument");
		}
		expect(p, ")");
	}
	return c;
}

/* A copy of the component list from, ending in tail (shared, not copied). */
static struct pp_comp *comps_join(struct parser *p, const struct pp_comp *from,
				  struct pp_comp *tail)
{
	struct pp_comp head = { 0 }, *t = &head;

	for (; from; from = from->next) {
		t = t->next = arena_alloc(&p->s->arena, sizeof(*t));
		*t = *from;
	}
	t->next = tail;
	return head.next;
}

/* An alternative's '?' / '!': on the last components of alts[from..]. */
static void pp_markers(struct parser *p, struct vec *alts, int from)
{
	bool opt = false, suff = false;

	for (;;) {
		if (accept(p, "?"))
			opt = true;
		else if (accept(p, "!"))
			opt = suff = true;
		else
			break;
	}
	for (int i = from; (opt || suff) && i < alts->len; i++) {
		struct pp_comp *c = alts->items[i];

		while (c && c->next)
			c = c->next;
		if (c) {
			c->optional |= opt;
			c->sufficient |= suff;
		}
	}
}

/*
 * seq -> elem ('.' elem)*    elem -> component | '{' seq (',' seq)* '}'
 * Brace expansion (stapprobes(3stap)): every combination, in product
 * order, as a vec of component lists.
 */
static void pp_seq(struct parser *p, struct vec *out)
{
	struct vec cur = VEC_INIT;
	int i, j;

	vec_push(&cur, NULL);	/* one empty sequence */
	do {
		struct vec alts = VEC_INIT, next = VEC_INIT;
		struct token *start = p->tok;

		/* A marked alternative must end the point (as in SystemTap 4.8). */
		for (i = 0; i < cur.len && !FAIL(p); i++) {
			const struct pp_comp *c = cur.items[i];

			while (c && c->next)
				c = c->next;
			if (c && (c->optional || c->sufficient)) {
				diag_error(p->s, &start->loc, "the probe point goes on after "
					   "a '?' or '!' inside braces");
				diag_hint(p->s, "a '?' or '!' in braces must end the point; "
					  "mark the whole point instead: foo.{a, b}.c?");
				p->errors++;
			}
		}
		if (FAIL(p))
			break;
		if (accept(p, "{")) {
			if (++p->depth > 32) {
				error_tok(p, p->tok, "expected %s", "braces nested less deeply");
				vec_free(&alts);
				break;
			}
			do {
				int k = alts.len;

				pp_seq(p, &alts);
				pp_markers(p, &alts, k);
			} while (!FAIL(p) && accept(p, ","));
			p->depth--;
			if (!FAIL(p))
				expect(p, "}");
		} else {
			vec_push(&alts, pp_component(p));
		}
		if (FAIL(p)) {
			vec_free(&alts);
			break;
		}
		/* Each sequence so far, followed by each alternative. */
		for (i = 0; i < cur.len; i++)
			for (j = 0; j < alts.len; j++) {
				struct pp_comp *a = comps_join(p, alts.items[j], NULL);

				vec_push(&next, comps_join(p, cur.items[i], a));
			}
		vec_free(&cur);
		vec_free(&alts);
		cur = next;
	} while (accept(p, "."));
	for (i = 0; i < cur.len; i++)
		vec_push(out, cur.items[i]);
	vec_free(&cur);
}

/* probe_point -> seq ('?' | '!')* ('if' '(' expr ')')?
 * One probe_point per expansion of the braces, chained by next. */
static struct probe_point *probe_point(struct parser *p)
{
	struct probe_point head = { 0 }, *tail = &head, *pp;
	struct srcloc loc = p->tok->loc;
	struct vec seqs = VEC_INIT;
	bool optional = false, sufficient = false;
	struct node *cond = NULL;
	int i;

	pp_seq(p, &seqs);
	for (;;) {
		if (accept(p, "?"))
			optional = true;
		else if (accept(p, "!"))
			optional = sufficient = true;
		else
			break;
	}
	if (!FAIL(p) && accept(p, "if")) {
		expect(p, "(");
		cond = expr(p);
		check_depth(p, cond);
		expect(p, ")");
	}
	if (!seqs.len)
		vec_push(&seqs, NULL);
	for (i = 0; i < seqs.len; i++) {
		pp = tail = tail->next = arena_alloc(&p->s->arena, sizeof(*pp));
		pp->loc = loc;
		pp->comps = seqs.items[i];
		pp->optional = optional;
		pp->sufficient = sufficient;
		for (struct pp_comp *c = pp->comps; c; c = c->next) {
			pp->optional |= c->optional;
			pp->sufficient |= c->sufficient;
		}
		pp->cond = cond;
	}
	vec_free(&seqs);
	return head.next;
}

static struct probe_point *probe_points(struct parser *p)
{
	struct probe_point head = { 0 }, *tail = &head;

	do {
		tail->next = probe_point(p);
		while (tail->next)
			tail = tail->next;
	} while (!FAIL(p) && accept(p, ","));
	return head.next;
}

/* probe -> 'probe' points block | 'probe' points ('=' | '+=') points block */
static void probe_decl(struct parser *p, struct token *kw)
{
	struct probe *pr = arena_alloc(&p->s->arena, sizeof(*pr));
	struct probe_point *pts = probe_points(p);

	pr->loc = kw->loc;
	pr->file = p->f;
	pr->privileged = p->f->is_tapset;
	if (!FAIL(p) && (peek(p, "=") || peek(p, "+="))) {
		pr->is_alias = true;
		pr->alias_epilogue = peek(p, "+=");
		advance(p);
		pr->alias_names = pts;
		pts = probe_points(p);
	}
	pr->points = pts;
	pr->body = block(p);
	check_depth(p, pr->body);
	if (FAIL(p))
		return;
	struct probe **pp = pr->is_alias ? &p->prog->aliases : &p->prog->probes;

	while (*pp)
		pp = &(*pp)->next;
	*pp = pr;
}

static enum type type_annotation(struct parser *p)
{
	struct token *t;

	if (!accept(p, ":"))
		return TY_UNKNOWN;
	t = expect_ident(p, "a type (long or string)");
	if (tok_is(t, "long"))
		return TY_LONG;
	if (tok_is(t, "string"))
		return TY_STRING;
	if (!FAIL(p)) {
		diag_error(p->s, &t->loc, "unknown type '%.*s'", t->loc.len,
			   t->text);
		diag_hint(p->s, "the types are 'long' and 'string'");
		p->errors++;
	}
	return TY_UNKNOWN;
}

/* Pragmas in embedded C: comments the translator reads. */
static void embedded_pragmas(struct parser *p, struct func *fn, const struct token *t)
{
	const char *code = t->str, *ty = strstr(code, "/* returns: "), *end;

	fn->pure = strstr(code, "/* pure */") != NULL;
	/* "myproc-": for the user's own processes; the runtime does not check that yet. */
	fn->unprivileged = strstr(code, "/* unprivileged */") ||
			   strstr(code, "/* myproc-unprivileged */");
	fn->guru = strstr(code, "/* guru */") != NULL;
	/*
	 * "returns: struct T *": the result is a pointer to the kernel's T,
	 * as SystemTap's "return & @cast(...)" in script makes it; sem.c
	 * resolves it as &@cast(0, "struct T", "kernel") for the type alone.
	 */
	end = ty ? strstr(ty, " */") : NULL;
	if (end) {
		struct node *c = new_node(p, ND_CAST, t), *a;

		ty += strlen("/* returns: ");
		while (end > ty && end[-1] == ' ')
			end--;
		if (end > ty && end[-1] == '*')
			end--;
		while (end > ty && end[-1] == ' ')
			end--;
		c->op = OP_BITAND;
		c->args = a = new_node(p, ND_NUM, t);
		a = a->next = new_node(p, ND_STR, t);
		a->str = arena_strndup(&p->s->arena, ty, (size_t)(end - ty));
		a->str_len = (int)(end - ty);
		a->next = new_node(p, ND_STR, t);
		a->next->str = "kernel";
		a->next->str_len = 6;
		fn->returns_cast = c;
	}
}

/* function -> 'function' ident (':' type)? '(' (param (',' param)*)? ')' (block | EMBEDDED) */
static void function_decl(struct parser *p, struct token *kw, bool priv)
{
	struct func *fn = arena_alloc(&p->s->arena, sizeof(*fn));
	struct param head = { 0 }, *tail = &head;
	struct token *name = expect_ident(p, "a function name");

	fn->loc = name->loc;
	fn->name = ident_name(p, name);
	fn->file = p->f;
	fn->is_private = priv;
	fn->type = type_annotation(p);
	expect(p, "(");
	if (!FAIL(p) && !peek(p, ")")) {
		do {
			struct param *pa = arena_alloc(&p->s->arena, sizeof(*pa));
			struct token *t = expect_ident(p, "a parameter name");

			pa->loc = t->loc;
			pa->name = ident_name(p, t);
			pa->type = type_annotation(p);
			tail = tail->next = pa;
			fn->nparams++;
		} while (!FAIL(p) && accept(p, ","));
	}
	expect(p, ")");
	fn->params = head.next;
	if (!FAIL(p) && p->tok->kind == TK_EMBEDDED) {
		struct token *t = advance(p);

		embedded_allowed(p, t);
		fn->body = new_node(p, ND_EMBEDDED, t);
		fn->body->str = t->str;
		embedded_pragmas(p, fn, t);
	} else {
		fn->body = block(p);
		check_depth(p, fn->body);
	}
	if (FAIL(p))
		return;
	struct func **fp = &p->prog->funcs;

	while (*fp)
		fp = &(*fp)->next;
	*fp = fn;
}

/* global -> 'global' gvar (',' gvar)* ';'?
 * gvar -> ident '%'? ('[' NUM ']')? ('=' literal)?    '%': wrap around */
static void global_decl(struct parser *p, bool priv)
{
	do {
		struct global *g = arena_alloc(&p->s->arena, sizeof(*g));
		struct token *t = expect_ident(p, "a global variable name");

		g->loc = t->loc;
		g->name = ident_name(p, t);
		g->file = p->f;
		g->is_private = priv;
		g->wrap = accept(p, "%");
		if (accept(p, "[")) {
			struct token *n = p->tok;

			g->is_array = true;
			if (n->kind == TK_NUM) {
				g->max_entries = n->num;
				advance(p);
			} else if (!FAIL(p)) {
				error_tok(p, n, "expected %s", "the array's size (a number)");
			}
			expect(p, "]");
		}
		if (!FAIL(p) && accept(p, "=")) {
			struct token *v = p->tok;

			if (v->kind == TK_STR || v->kind == TK_NUM ||
			    (tok_is(v, "-") && v->next->kind == TK_NUM))
				g->init = unary(p);
			else
				error_tok(p, v, "expected %s",
					  "a number or string literal as initial value");
		}
		if (FAIL(p))
			return;
		struct global **gp = &p->prog->globals;

		while (*gp)
			gp = &(*gp)->next;
		*gp = g;
	} while (accept(p, ","));
	opt_semi(p);
}

static void recover_decl(struct parser *p)
{
	p->errors = 0;
	while (p->tok->kind != TK_EOF && !peek(p, "probe") &&
	       !peek(p, "global") && !peek(p, "function") &&
	       !peek(p, "private") && p->tok->kind != TK_EMBEDDED)
		advance(p);
}

/* file -> (probe | global | function | 'private' (global | function) | EMBEDDED)* */
int parse_file(struct session *s, struct srcfile *f, struct program *out)
{
	struct parser p = { .s = s, .f = f, .prog = out };
	int errors_before = s->errors;

	p.tok = pp_run(s, lex_file(s, f));
	if (!p.tok)
		return -1;
	while (p.tok->kind != TK_EOF) {
		struct token *t = p.tok;
		bool priv = accept(&p, "private");

		if (accept(&p, "probe") && !priv) {
			probe_decl(&p, t);
		} else if (accept(&p, "global")) {
			global_decl(&p, priv);
		} else if (accept(&p, "function")) {
			function_decl(&p, t, priv);
		} else if (p.tok->kind == TK_EMBEDDED && !priv) {
			struct node *n = new_node(&p, ND_EMBEDDED, p.tok);
			struct node **np = &out->embedded;

			embedded_allowed(&p, p.tok);
			n->str = advance(&p)->str;
			while (*np)
				np = &(*np)->next;
			*np = n;
		} else {
			error_tok(&p, p.tok, "expected %s", priv ?
				  "'global' or 'function' after 'private'" :
				  "'probe', 'global', 'function' or '%{'");
		}
		if (FAIL(&p))
			recover_decl(&p);
	}
	return s->errors > errors_before ? -1 : 0;
}
