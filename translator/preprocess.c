// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 1b: the preprocessor, on the token list between lexing and parsing.
 * Written from the documented behaviour in stap(1), sections PREPROCESSING
 * and PREPROCESSOR MACROS.
 *
 * Two phases, in the order stap(1) gives:
 *
 *   1. Macros.  "@define NAME %( BODY %)" and "@define NAME(a, b) %( BODY %)"
 *      are taken out of the stream wherever they are, even inside
 *      conditional branches ("both TRUE- and FALSE-tokens ... will be
 *      macroexpanded regardless of how the condition is evaluated"), and
 *      each later "@NAME" / "@NAME(x, y)" is replaced by the body, with
 *      "@a" in it replaced by the argument's tokens.  The result is
 *      scanned again, so macros may use macros.  Every token an expansion
 *      makes is a copy whose origin is the "@NAME" it came from.
 *
 *   2. Conditionals.  "%( CONDITION %? TOKENS [%: TOKENS] %)" keeps one
 *      branch; the other is dropped unparsed (it may hold syntax for
 *      another kernel) but its %( %) must balance.  A surviving "@name"
 *      that is neither a built-in operator nor "@N" is an unknown macro.
 *
 * Library macros (*.stpm) are read by pp_load_library_macros(); there the
 * conditionals are evaluated first, so that a conditional may choose
 * between definitions, as stap(1) allows for .stpm files.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "stap.h"

#define PP_MAX_DEPTH 64		/* macro uses nested inside expansions */
#define PP_MAX_TOKENS 1000000	/* tokens made by expansions in one file */
#define PP_MAX_NESTING 1000	/* %( %) taken inside one another */
#define PP_SYSTEMTAP_V "4.8"	/* the SystemTap version we are compatible with */

struct macro {
	const char *name;
	const struct token *def;	/* NAME in "@define NAME" */
	const char **params;
	int nparams;
	bool has_parens;		/* "@define f()": uses need "()" */
	struct token *body;		/* NULL-terminated; only ever copied */
};

struct pp {
	struct session *s;
	struct vec file_macros;		/* struct macro *, this file's */
	long made;			/* tokens made by expansions */
	int cond_depth;			/* %( open around the current token */
	int cond_nesting;		/* live %( being resolved, recursively */
	bool cond_eof;			/* an unterminated %( was reported */
	bool abort;			/* a limit was hit: stop expanding */
};

/* Per-session caches: the library macros and the target's kernel config. */
struct pp_cache {
	struct vec lib_macros;		/* struct macro *, from *.stpm */
	char *config_release;		/* release whose .config is loaded */
	struct strbuf config;
	int config_err;			/* -errno reading it, 0 if read */
	bool config_warned;
};

static struct pp_cache *cache_of(struct session *s)
{
	if (!s->pp)
		s->pp = arena_alloc(&s->arena, sizeof(*s->pp));
	return s->pp;
}

void pp_free(struct session *s)
{
	if (!s->pp)
		return;
	vec_free(&s->pp->lib_macros);
	free(s->pp->config_release);
	sb_free(&s->pp->config);
	s->pp = NULL;
}

/* Operators SystemTap itself gives an '@' name (stap(1) 4.8); these can be
 * neither defined nor reported as unknown macros.  The parser's at_expr()
 * implements a subset and reports the rest itself. */
static const char *const builtin_ops[] = {
	"cast", "var", "defined", "entry", "perf", "const", "probewrite",
	"kregister", "uregister", "kderef", "uderef",
	"count", "sum", "min", "max", "avg", "variance",
	"hist_linear", "hist_log", "define",
};

static bool is_builtin_op(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(builtin_ops); i++)
		if (!strcmp(name, builtin_ops[i]))
			return true;
	return false;
}

/* ---- token lists ---- */

struct list {
	struct token *head, *tail;
};

static void list_add(struct list *l, struct token *t)
{
	t->next = NULL;
	if (l->tail)
		l->tail->next = t;
	else
		l->head = t;
	l->tail = t;
}

static bool at_end(const struct token *t)
{
	return !t || t->kind == TK_EOF;
}

static bool is_punct(const struct token *t, const char *p)
{
	return t && t->kind == TK_PUNCT && tok_is(t, p);
}

static bool is_define(const struct token *t)
{
	return t && t->kind == TK_AT && !strcmp(t->str, "define");
}

/* One of the directive tokens that end a condition or a branch. */
static bool is_branch_end(const struct token *t)
{
	return is_punct(t, "%?") || is_punct(t, "%:") || is_punct(t, "%)");
}

static struct token *copy_token(struct pp *pp, const struct token *t,
				struct token *origin)
{
	struct token *c = arena_alloc(&pp->s->arena, sizeof(*c));

	*c = *t;
	c->next = NULL;
	c->origin = origin;
	return c;
}

/* ---- diagnostics ---- */

/* Groups of uses at one spot, from o: a recursion repeats one use. */
static const struct token *next_group(const struct token *o, int *n)
{
	const struct token *g;

	for (g = o->origin, *n = 1; g && g->loc.at == o->loc.at; g = g->origin)
		++*n;
	return g;
}

void pp_note_expansion(struct session *s, const struct token *t)
{
	const struct token *o;
	int groups = 0, i = 0, n;

	for (o = t->origin; o; o = next_group(o, &n))
		groups++;
	/* A mutual recursion would print a page: show its two ends. */
	for (o = t->origin; o; o = next_group(o, &n), i++) {
		if (groups > 6 && i == 3)
			diag_note(s, NULL, "(%d more macro expansions)", groups - 5);
		next_group(o, &n);
		if (groups > 6 && i >= 3 && i < groups - 2)
			continue;
		if (n > 1)
			diag_note(s, &o->loc, "in expansion of macro '@%s' (nested %d times)",
				  o->str, n);
		else
			diag_note(s, &o->loc, "in expansion of macro '@%s'", o->str);
	}
}

static void pp_error(struct pp *pp, const struct token *t, const char *fmt,
		     ...) PRINTF_LIKE(3, 4);
static void pp_error(struct pp *pp, const struct token *t, const char *fmt,
		     ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	diag_error(pp->s, &t->loc, "%s", sb_str(&sb));
	pp_note_expansion(pp->s, t);
	sb_free(&sb);
}

/* "'%?'", "string literal", "end of input": what a message says was found. */
static const char *describe(struct pp *pp, const struct token *t)
{
	if (!t)
		return "the end of the macro body";
	if (t->kind == TK_EOF)
		return "end of input";
	if (t->kind == TK_STR)
		return arena_printf(&pp->s->arena, "string literal %.*s",
				    t->loc.len, t->text);
	if (t->kind == TK_NUM)
		return arena_printf(&pp->s->arena, "number %.*s", t->loc.len, t->text);
	if (t->kind == TK_EMBEDDED)
		return "embedded C block";
	return arena_printf(&pp->s->arena, "'%.*s'", t->loc.len, t->text);
}

/* ---- phase 1: macros ---- */

static struct macro *find_in(struct vec *v, const char *name)
{
	int i;

	for (i = 0; i < v->len; i++) {
		struct macro *m = v->items[i];

		if (!strcmp(m->name, name))
			return m;
	}
	return NULL;
}

/* A file's own macros hide library macros of the same name. */
static struct macro *find_macro(struct pp *pp, const char *name)
{
	struct macro *m = find_in(&pp->file_macros, name);

	return m ? m : find_in(&cache_of(pp->s)->lib_macros, name);
}

/*
 * define -> '@define' NAME ('(' (PARAM (',' PARAM)*)? ')')? '%(' BODY '%)'
 * BODY is any tokens with balanced %( %).  Returns the token after it.
 */
static struct token *define(struct pp *pp, struct token *at, struct vec *table)
{
	struct token *name = at->next, *t, *open, *last = NULL;
	struct macro *m, *prev;
	struct vec params = VEC_INIT;
	int depth = 1;

	if (at_end(name) || name->kind != TK_IDENT) {
		pp_error(pp, at_end(name) ? at : name,
			 "expected a macro name after '@define', found %s",
			 describe(pp, name));
		return name;
	}
	m = arena_alloc(&pp->s->arena, sizeof(*m));
	m->name = arena_strndup(&pp->s->arena, name->text, name->loc.len);
	if (is_builtin_op(m->name)) {
		pp_error(pp, name, "cannot define '@%s': it is a built-in operator",
			 m->name);
		return name->next;
	}
	m->def = name;
	t = name->next;
	if (is_punct(t, "(")) {
		m->has_parens = true;
		t = t->next;
		while (!is_punct(t, ")")) {
			int i;

			if (at_end(t) || t->kind != TK_IDENT) {
				pp_error(pp, at_end(t) ? name : t,
					 "expected a parameter name in the definition of '@%s', found %s",
					 m->name, describe(pp, t));
				vec_free(&params);
				return t;
			}
			for (i = 0; i < params.len; i++)
				if (strlen(params.items[i]) == (size_t)t->loc.len &&
				    !memcmp(params.items[i], t->text, t->loc.len))
					pp_error(pp, t, "duplicate parameter '%.*s' of macro '@%s'",
						 t->loc.len, t->text, m->name);
			vec_push(&params, arena_strndup(&pp->s->arena, t->text, t->loc.len));
			t = t->next;
			if (is_punct(t, ","))
				t = t->next;
			else if (!is_punct(t, ")")) {
				pp_error(pp, at_end(t) ? name : t,
					 "expected ',' or ')' after a parameter of '@%s', found %s",
					 m->name, describe(pp, t));
				vec_free(&params);
				return t;
			}
		}
		t = t->next;
	}
	m->nparams = params.len;
	m->params = arena_alloc(&pp->s->arena, sizeof(char *) * (params.len + 1));
	if (params.len)
		memcpy(m->params, params.items, sizeof(char *) * params.len);
	vec_free(&params);

	if (!is_punct(t, "%(")) {
		pp_error(pp, at_end(t) ? name : t,
			 "expected '%%(' to start the body of macro '@%s', found %s",
			 m->name, describe(pp, t));
		diag_hint(pp->s, "a definition reads: @define %s%s %%( BODY %%)",
			  m->name, m->has_parens ? "(a, b)" : "");
		return t;
	}
	open = t;
	for (t = open->next; !at_end(t); last = t, t = t->next) {
		if (is_punct(t, "%("))
			depth++;
		else if (is_punct(t, "%)") && --depth == 0)
			break;
	}
	if (at_end(t)) {
		pp_error(pp, open, "unterminated body of macro '@%s': no matching '%%)'",
			 m->name);
		return t;
	}
	m->body = last ? open->next : NULL;
	if (last)
		last->next = NULL;	/* the body becomes its own list */

	prev = find_in(table, m->name);
	if (prev) {
		pp_error(pp, name, "macro '@%s' redefined", m->name);
		diag_note(pp->s, &prev->def->loc, "the previous definition of '@%s' is here",
			  m->name);
		if (pp->cond_depth > 0)
			diag_hint(pp->s, "macros are defined before conditionals are "
				  "evaluated, so both branches define it; put the "
				  "%%( %%? %%: %%) inside one macro body instead");
	} else {
		vec_push(table, m);
	}
	return t->next;
}

static int param_index(const struct macro *m, const char *name)
{
	int i;

	for (i = 0; i < m->nparams; i++)
		if (!strcmp(m->params[i], name))
			return i;
	return -1;
}

static bool in_origins(const struct token *t, const char *name)
{
	for (; t; t = t->origin)
		if (t->kind == TK_AT && !strcmp(t->str, name))
			return true;
	return false;
}

struct arg {
	struct token *first;
	int n;
};

static struct token *expand(struct pp *pp, struct token *t, int depth,
			    struct list *out);

/*
 * use  -> '@'NAME | '@'NAME '(' (arg (',' arg)*)? ')'
 * arg  -> tokens balanced in () [] {} %( %), without a top-level ','
 * Appends the expansion to out; returns the token after the use.
 */
static struct token *use(struct pp *pp, struct macro *m, struct token *at,
			 int depth, struct list *out)
{
	struct token *t = at->next, *open = t, *b;
	struct arg *args = NULL;
	struct list exp = { 0 };
	int nargs = 0, i;

	if (depth >= PP_MAX_DEPTH) {
		pp_error(pp, at, "macro expansion nested too deeply "
			 "(PP_MAX_DEPTH is %d)", PP_MAX_DEPTH);
		if (in_origins(at->origin, at->str))
			diag_hint(pp->s, "'@%s' expands to itself; macros are expanded "
				  "before %%( %%) conditions are evaluated, so a "
				  "condition cannot end the recursion", at->str);
		pp->abort = true;
		return t;
	}
	if (m->has_parens) {
		int level = 0;

		if (!is_punct(t, "(")) {
			pp_error(pp, at, "macro '@%s' takes %d argument%s: write @%s(%s)",
				 m->name, m->nparams, m->nparams == 1 ? "" : "s", m->name,
				 m->nparams ? "..." : "");
			diag_note(pp->s, &m->def->loc, "'@%s' is defined here", m->name);
			return t;
		}
		t = t->next;
		if (!is_punct(t, ")")) {
			args = xrealloc(args, sizeof(*args) * ++nargs);
			args[0] = (struct arg){ t, 0 };
		}
		for (; !at_end(t); t = t->next) {
			if (level == 0 && is_punct(t, ")"))
				break;
			if (level == 0 && is_punct(t, ",")) {
				args = xrealloc(args, sizeof(*args) * ++nargs);
				args[nargs - 1] = (struct arg){ t->next, 0 };
				continue;
			}
			if (is_punct(t, "(") || is_punct(t, "[") || is_punct(t, "{") ||
			    is_punct(t, "%("))
				level++;
			else if (level > 0 && (is_punct(t, ")") || is_punct(t, "]") ||
					       is_punct(t, "}") || is_punct(t, "%)")))
				level--;
			args[nargs - 1].n++;
		}
		if (at_end(t)) {
			pp_error(pp, open, "unterminated argument list of macro '@%s': "
				 "no matching ')'", m->name);
			free(args);
			return t;
		}
		t = t->next;
		if (nargs != m->nparams) {
			pp_error(pp, at, "macro '@%s' takes %d argument%s, but %d %s given",
				 m->name, m->nparams, m->nparams == 1 ? "" : "s",
				 nargs, nargs == 1 ? "was" : "were");
			diag_note(pp->s, &m->def->loc, "'@%s' is defined here", m->name);
			free(args);
			return t;
		}
	}

	for (b = m->body; b; b = b->next) {
		int p = b->kind == TK_AT ? param_index(m, b->str) : -1;
		struct token *a;

		if (p < 0) {
			list_add(&exp, copy_token(pp, b, at));
			pp->made++;
			continue;
		}
		/* Argument tokens keep their own place: errors in them point
		 * at the use site, where the user wrote them. */
		for (a = args[p].first, i = 0; i < args[p].n; a = a->next, i++) {
			list_add(&exp, copy_token(pp, a, a->origin));
			pp->made++;
		}
	}
	free(args);
	if (pp->made > PP_MAX_TOKENS) {
		pp_error(pp, at, "macro expansion made too many tokens "
			 "(PP_MAX_TOKENS is %d)", PP_MAX_TOKENS);
		pp->abort = true;
		return t;
	}
	expand(pp, exp.head, depth + 1, out);
	return t;
}

/* Define and expand macros in t..end; returns where it stopped. */
static struct token *expand(struct pp *pp, struct token *t, int depth,
			    struct list *out)
{
	while (!at_end(t) && !pp->abort) {
		struct token *next = t->next;
		struct macro *m;

		if (is_define(t)) {
			t = define(pp, t, &pp->file_macros);
			continue;
		}
		if (t->kind == TK_AT && (m = find_macro(pp, t->str))) {
			t = use(pp, m, t, depth, out);
			continue;
		}
		if (depth == 0 && is_punct(t, "%("))
			pp->cond_depth++;
		else if (depth == 0 && is_punct(t, "%)") && pp->cond_depth > 0)
			pp->cond_depth--;
		list_add(out, t);
		t = next;
	}
	return t;
}

/* ---- phase 2: conditions ---- */

/* The target's kernel config option, "" when unset or unknown. */
static const char *kconfig(struct pp *pp, const struct token *t, const char *name)
{
	struct session *s = pp->s;
	struct pp_cache *cache = cache_of(s);
	const char *p, *text;
	size_t n = strlen(name);

	if (!cache->config_release || strcmp(cache->config_release, s->release)) {
		char *path = xasprintf("/lib/modules/%s/build/.config", s->release);

		free(cache->config_release);
		cache->config_release = xstrdup(s->release);
		sb_reset(&cache->config);
		cache->config_err = read_file(path, &cache->config);
		free(path);
	}
	if (cache->config_err) {
		if (!cache->config_warned)
			diag_warn(s, &t->loc, "cannot read the kernel configuration "
				  "/lib/modules/%s/build/.config: %s; CONFIG_ options "
				  "compare as unset", s->release, strerror(-cache->config_err));
		cache->config_warned = true;
		return "";
	}
	text = sb_str(&cache->config);
	/* "CONFIG_X=y" at the start of a line; "# CONFIG_X is not set" is "". */
	for (p = strstr(text, name); p; p = strstr(p + 1, name)) {
		if ((p == text || p[-1] == '\n') && p[n] == '=') {
			const char *v = p + n + 1, *e = strchrnul(v, '\n');

			return arena_strndup(&s->arena, v, e - v);
		}
	}
	return "";
}

/* The architecture as the kernel build calls it (ARCH/SUBARCH): "x86_64",
 * "i386", "arm64"..., the names SystemTap scripts test. */
static const char *host_arch(void)
{
	static struct utsname u;
	const char *m;

	if (!u.machine[0])
		uname(&u);
	m = u.machine;
	if (!fnmatch("i?86", m, 0))
		return "i386";
	if (!strcmp(m, "aarch64"))
		return "arm64";
	if (!strncmp(m, "arm", 3))
		return "arm";
	if (!strncmp(m, "ppc", 3))
		return "powerpc";
	if (!strncmp(m, "s390", 4))
		return "s390";
	if (!strncmp(m, "mips", 4))
		return "mips";
	if (!strncmp(m, "riscv", 5))
		return "riscv";
	return m;
}

/* How a preprocessor variable compares (stap(1), PREPROCESSING). */
enum var_kind {
	VK_VERSION,	/* all six operators, strverscmp; ==/!= glob if wild */
	VK_GLOB,	/* == and != only, fnmatch */
	VK_PRIVILEGE,	/* == and != only, "stapusr" "stapsys" "stapdev" */
	VK_GURU,	/* == and != only, 0 or 1 */
};

static const struct {
	const char *name;
	enum var_kind kind;
} cond_vars[] = {
	{ "kernel_v", VK_VERSION },
	{ "kernel_vr", VK_VERSION },
	{ "systemtap_v", VK_VERSION },
	{ "arch", VK_GLOB },
	{ "runtime", VK_GLOB },
	{ "systemtap_privilege", VK_PRIVILEGE },
	{ "guru_mode", VK_GURU },
};

enum cmp { CMP_LT, CMP_LE, CMP_EQ, CMP_NE, CMP_GT, CMP_GE, CMP_BAD };

static enum cmp cmp_op(const struct token *t)
{
	static const char *const ops[] = { "<", "<=", "==", "!=", ">", ">=" };
	int i;

	for (i = 0; i < (int)ARRAY_SIZE(ops); i++)
		if (is_punct(t, ops[i]))
			return (enum cmp)i;
	return CMP_BAD;
}

static bool cmp_holds(enum cmp op, int c)
{
	switch (op) {
	case CMP_LT: return c < 0;
	case CMP_LE: return c <= 0;
	case CMP_EQ: return c == 0;
	case CMP_NE: return c != 0;
	case CMP_GT: return c > 0;
	case CMP_GE: return c >= 0;
	default: return false;
	}
}

struct cond {
	struct pp *pp;
	struct token *t;
	bool failed;
};

/* A literal operand: a string, a number, or a script argument. */
struct operand {
	bool ok, is_str;
	const char *str;
	int64_t num;
	struct token *tok;
};

static void cond_error(struct cond *c, const struct token *t, const char *fmt,
		       ...) PRINTF_LIKE(3, 4);
static void cond_error(struct cond *c, const struct token *t, const char *fmt,
		       ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	sb_vprintf(&sb, fmt, ap);
	va_end(ap);
	pp_error(c->pp, t, "%s", sb_str(&sb));
	sb_free(&sb);
	c->failed = true;
}

/* operand -> STR | NUM | '-' NUM | '$'N | '@'N | '$#' | '@#' */
static struct operand operand(struct cond *c)
{
	struct session *s = c->pp->s;
	struct token *t = c->t;
	struct operand o = { .ok = true, .tok = t };

	if (at_end(t)) {
		o.ok = false;
	} else if (t->kind == TK_STR) {
		o.is_str = true;
		o.str = t->str;
	} else if (t->kind == TK_NUM) {
		o.num = t->num;
	} else if (is_punct(t, "-") && t->next && t->next->kind == TK_NUM) {
		t = t->next;
		o.num = -t->num;
	} else if (t->kind == TK_ARGC) {
		o.is_str = t->text[0] == '@';
		o.num = s->args.len;
		o.str = arena_printf(&s->arena, "%d", s->args.len);
	} else if ((t->kind == TK_DOLLAR || t->kind == TK_AT) &&
		   isdigit((unsigned char)t->str[0])) {
		long n = strtol(t->str, NULL, 10);
		const char *arg;
		char *end;

		if (n < 1 || n > s->args.len) {
			cond_error(c, t, "no script argument %.*s: %d given",
				   t->loc.len, t->text, s->args.len);
			o.ok = false;
			return o;
		}
		arg = s->args.items[n - 1];
		o.is_str = t->kind == TK_AT;
		o.str = arg;
		if (!o.is_str) {
			errno = 0;
			o.num = strtoll(arg, &end, 0);
			if (!*arg || *end || errno) {
				cond_error(c, t, "script argument $%ld ('%s') is not a number; "
					   "use @%ld to compare it as a string", n, arg, n);
				o.ok = false;
				return o;
			}
		}
	} else {
		o.ok = false;
	}
	if (o.ok)
		c->t = t->next;
	return o;
}

static const char *var_names(void)
{
	return "kernel_v, kernel_vr, arch, runtime, CONFIG_*, systemtap_v, "
	       "systemtap_privilege or guru_mode";
}

/* "kernel_v >= "2.6.32"": var is the identifier; returns the truth. */
static bool var_comparison(struct cond *c, struct token *var)
{
	struct session *s = c->pp->s;
	char *name = arena_strndup(&s->arena, var->text, var->loc.len);
	struct token *op_tok = c->t;
	enum cmp op = cmp_op(op_tok);
	enum var_kind kind = VK_GLOB;
	const char *value = NULL, *like = NULL;
	struct operand rhs;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cond_vars); i++)
		if (!strcmp(name, cond_vars[i].name))
			break;
	if (i < ARRAY_SIZE(cond_vars)) {
		kind = cond_vars[i].kind;
	} else if (strncmp(name, "CONFIG_", 7)) {
		const char *cands[ARRAY_SIZE(cond_vars)], *best;

		for (i = 0; i < ARRAY_SIZE(cond_vars); i++)
			cands[i] = cond_vars[i].name;
		best = diag_closest(name, cands, ARRAY_SIZE(cond_vars));
		cond_error(c, var, "unknown preprocessor variable '%s'", name);
		if (best)
			diag_hint(s, "did you mean '%s'?", best);
		else
			diag_hint(s, "a condition tests %s, or compares two literals "
				  "or script arguments", var_names());
		return false;
	}

	if (op == CMP_BAD) {
		cond_error(c, at_end(op_tok) ? var : op_tok,
			   "expected a comparison operator after '%s', found %s",
			   name, describe(c->pp, op_tok));
		return false;
	}
	if (kind != VK_VERSION && op != CMP_EQ && op != CMP_NE) {
		cond_error(c, op_tok, "'%s' can only be compared with == or !=", name);
		return false;
	}
	c->t = op_tok->next;
	rhs = operand(c);
	if (c->failed)
		return false;
	switch (kind) {
	case VK_VERSION:
		like = "a version string, like \"2.6.32\"";
		break;
	case VK_GLOB:
		like = !strcmp(name, "arch") ? "a string, like \"x86_64\"" :
		       !strcmp(name, "runtime") ? "a string, like \"kernel\"" :
		       "a string: \"y\", \"m\", or \"\" for unset";
		break;
	case VK_PRIVILEGE:
		like = "\"stapusr\", \"stapsys\" or \"stapdev\"";
		break;
	case VK_GURU:
		like = "0 or 1";
		break;
	}
	if (!rhs.ok || rhs.is_str != (kind != VK_GURU) ||
	    (kind == VK_GURU && rhs.num != 0 && rhs.num != 1)) {
		cond_error(c, at_end(rhs.tok) ? op_tok : rhs.tok,
			   "'%s' is compared with %s, not %s", name, like,
			   describe(c->pp, rhs.tok));
		return false;
	}

	if (!strcmp(name, "kernel_vr"))
		value = s->release;
	else if (!strcmp(name, "kernel_v"))	/* the release without "-suffix" */
		value = arena_strndup(&s->arena, s->release, strcspn(s->release, "-"));
	else if (!strcmp(name, "systemtap_v"))	/* stap --compatible=VERSION */
		value = s->compatible ? s->compatible : PP_SYSTEMTAP_V;
	else if (!strcmp(name, "arch"))
		value = host_arch();
	else if (!strcmp(name, "runtime"))
		value = "kernel";
	else if (!strcmp(name, "systemtap_privilege"))
		value = priv_names[s->privilege];
	else if (kind == VK_GLOB)
		value = kconfig(c->pp, var, name);

	switch (kind) {
	case VK_VERSION:
		if ((op == CMP_EQ || op == CMP_NE) && strpbrk(rhs.str, "*?["))
			return (fnmatch(rhs.str, value, 0) == 0) == (op == CMP_EQ);
		return cmp_holds(op, strverscmp(value, rhs.str));
	case VK_GLOB:
		return (fnmatch(rhs.str, value, 0) == 0) == (op == CMP_EQ);
	case VK_PRIVILEGE:
		if (strcmp(rhs.str, "stapusr") && strcmp(rhs.str, "stapsys") &&
		    strcmp(rhs.str, "stapdev")) {
			cond_error(c, rhs.tok, "'%s' is compared with %s, not %s",
				   name, like, describe(c->pp, rhs.tok));
			return false;
		}
		return (strcmp(rhs.str, value) == 0) == (op == CMP_EQ);
	case VK_GURU:
		return (rhs.num == s->guru) == (op == CMP_EQ);
	}
	return false;
}

/*
 * comparison -> VAR op operand | operand op operand
 * Parentheses and '!' are not part of the language (stap(1): "parentheses
 * are not supported yet").
 */
static bool comparison(struct cond *c)
{
	struct session *s = c->pp->s;
	struct token *t = c->t, *op_tok;
	struct operand lhs, rhs;
	enum cmp op;
	int d;

	if (is_punct(t, "(")) {
		cond_error(c, t, "parentheses are not supported in preprocessor conditions");
		diag_hint(s, "'&&' binds tighter than '||'; nest a %%( %%) "
			  "conditional for other groupings");
		return false;
	}
	if (is_punct(t, "!")) {
		cond_error(c, t, "'!' is not supported in preprocessor conditions");
		diag_hint(s, "use the opposite comparison, or swap the %%? and %%: branches");
		return false;
	}
	if (t && t->kind == TK_IDENT) {
		c->t = t->next;
		return var_comparison(c, t);
	}
	lhs = operand(c);
	if (c->failed)
		return false;
	if (!lhs.ok) {
		cond_error(c, t, "expected a preprocessor condition, found %s",
			   describe(c->pp, t));
		diag_hint(s, "a condition tests %s, or compares two literals or "
			  "script arguments", var_names());
		return false;
	}
	op_tok = c->t;
	op = cmp_op(op_tok);
	if (op == CMP_BAD) {
		cond_error(c, at_end(op_tok) ? t : op_tok,
			   "expected a comparison operator, found %s",
			   describe(c->pp, op_tok));
		return false;
	}
	c->t = op_tok->next;
	rhs = operand(c);
	if (c->failed)
		return false;
	if (!rhs.ok || rhs.is_str != lhs.is_str) {
		cond_error(c, at_end(rhs.tok) ? op_tok : rhs.tok,
			   "expected %s to compare with, found %s",
			   lhs.is_str ? "a string" : "a number",
			   describe(c->pp, rhs.tok));
		return false;
	}
	if (lhs.is_str)
		d = strcmp(lhs.str, rhs.str);
	else
		d = lhs.num < rhs.num ? -1 : lhs.num > rhs.num;
	return cmp_holds(op, d);
}

/* and -> comparison ('&&' comparison)*   (every term is checked) */
static bool cond_and(struct cond *c)
{
	bool v = comparison(c);

	while (!c->failed && is_punct(c->t, "&&")) {
		c->t = c->t->next;
		v = comparison(c) && v;
	}
	return v;
}

/* or -> and ('||' and)* */
static bool cond_or(struct cond *c)
{
	bool v = cond_and(c);

	while (!c->failed && is_punct(c->t, "||")) {
		c->t = c->t->next;
		v = cond_and(c) || v;
	}
	return v;
}

static struct token *skip_condition(struct token *t)
{
	while (!at_end(t) && !is_branch_end(t))
		t = t->next;
	return t;
}

static struct token *cond_seq(struct pp *pp, struct token *t, bool live,
			      struct list *out);

/*
 * At the end of the file every %( still open is unterminated: say so for
 * the innermost only, not once per level.
 */
static void unterminated(struct pp *pp, const struct token *start)
{
	if (pp->cond_eof)
		return;
	pp->cond_eof = true;
	pp_error(pp, start, "unterminated preprocessor conditional: no matching '%%)'");
}

/*
 * conditional -> '%(' condition '%?' tokens ('%:' tokens)? '%)'
 * Appends the kept branch to out when live; returns the token after '%)'.
 */
static struct token *conditional(struct pp *pp, struct token *start,
				 bool live, struct list *out)
{
	struct cond c = { .pp = pp, .t = start->next };
	struct token *t;
	bool val;
	int depth = 1;

	if (live && pp->cond_nesting > PP_MAX_NESTING) {
		pp_error(pp, start, "preprocessor conditionals nest too deeply "
			 "(PP_MAX_NESTING is %d)", PP_MAX_NESTING);
		live = false;	/* skip it whole, without recursing */
	}
	if (!live) {
		/* Dropped unread: it may be written for another kernel, or
		 * another SystemTap.  Only the %( %) must balance. */
		for (t = start->next; !at_end(t); t = t->next) {
			if (is_punct(t, "%("))
				depth++;
			else if (is_punct(t, "%)") && --depth == 0)
				return t->next;
		}
		unterminated(pp, start);
		return t;
	}
	val = cond_or(&c);
	if (!c.failed && !is_punct(c.t, "%?") && !at_end(c.t)) {
		cond_error(&c, c.t, "expected %s after the condition, found %s",
			   is_branch_end(c.t) ? "'%?'" : "'&&', '||' or '%?'",
			   describe(pp, c.t));
		diag_note(pp->s, &start->loc, "in this preprocessor conditional");
	}
	t = c.t;
	if (c.failed) {		/* reported: keep neither branch */
		live = false;
		t = skip_condition(t);
	}
	if (is_punct(t, "%?"))
		t = cond_seq(pp, t->next, live && val, out);
	if (is_punct(t, "%:"))
		t = cond_seq(pp, t->next, live && !val, out);
	while (is_punct(t, "%?") || is_punct(t, "%:")) {
		pp_error(pp, t, "unexpected '%.*s': each '%%(' takes one '%%?' and "
			 "at most one '%%:'", t->loc.len, t->text);
		diag_note(pp->s, &start->loc, "in this preprocessor conditional");
		t = cond_seq(pp, t->next, false, out);
	}
	if (is_punct(t, "%)"))
		return t->next;
	unterminated(pp, start);
	return t;
}

/*
 * "@define NAME(...) %( BODY %)" passed through untouched: only .stpm
 * files reach phase 2 with definitions in them, and their bodies are not
 * conditionals.  Returns the token after the definition.
 */
static struct token *pass_define(struct token *at, bool live, struct list *out)
{
	struct token *t = at, *next;
	int depth = 0;

	while (!at_end(t) && !is_punct(t, "%(") &&
	       (t == at || t->kind == TK_IDENT || is_punct(t, "(") ||
		is_punct(t, ",") || is_punct(t, ")"))) {
		next = t->next;
		if (live)
			list_add(out, t);
		t = next;
	}
	if (!is_punct(t, "%("))
		return t;	/* malformed: define() will say why */
	for (; !at_end(t); t = next) {
		next = t->next;
		if (is_punct(t, "%("))
			depth++;
		else if (is_punct(t, "%)"))
			depth--;
		if (live)
			list_add(out, t);
		if (depth == 0)
			return next;
	}
	return t;
}

static void unknown_macro(struct pp *pp, struct token *t)
{
	struct session *s = pp->s;
	struct macro *m = find_macro(pp, t->str);
	struct vec cands = VEC_INIT;
	const char *best;
	size_t i;
	int j;

	pp_error(pp, t, "unknown macro '@%s'", t->str);
	if (m) {
		diag_note(s, &m->def->loc, "'@%s' is defined here, after its use", t->str);
		diag_hint(s, "define macros before using them");
		return;
	}
	for (i = 0; i < ARRAY_SIZE(builtin_ops); i++)
		if (strcmp(builtin_ops[i], "define"))
			vec_push(&cands, (void *)builtin_ops[i]);
	for (j = 0; j < pp->file_macros.len; j++)
		vec_push(&cands, (void *)((struct macro *)pp->file_macros.items[j])->name);
	for (j = 0; j < cache_of(pp->s)->lib_macros.len; j++)
		vec_push(&cands, (void *)((struct macro *)cache_of(pp->s)->lib_macros.items[j])->name);
	best = diag_closest(t->str, (const char *const *)cands.items, cands.len);
	if (best)
		diag_hint(s, "did you mean '@%s'?", best);
	else
		diag_hint(s, "define it before its use: @define %s %%( ... %%)", t->str);
	vec_free(&cands);
}

/* tokens -> (conditional | define | token)*  up to EOF, %?, %: or %) */
/*
 * $N whose argument is not a number stands for the argument's tokens, as
 * in SystemTap (stap script.stp "tid()" "@sum" '$return < 0'): append
 * them to out, each with t as its origin, and return true.  Numbers stay
 * $N, which the parser and sem turn into literals.
 */
static bool script_arg_tokens(struct pp *pp, struct token *t, struct list *out,
			      struct token **next)
{
	struct session *s = pp->s;
	const char *text;
	char *end;
	long n;

	if (!isdigit((unsigned char)t->str[0]))
		return false;
	n = strtol(t->str, &end, 10);
	if (*end || n < 1 || n > s->args.len)
		return false;	/* sem reports an index out of range */
	text = s->args.items[n - 1];
	/* SystemTap substitutes $N as text: a name right after it joins it
	 * ("$2name" with "b" is the identifier bname). */
	if (t->next && t->next->kind == TK_IDENT && t->next->text == t->text + t->loc.len &&
	    t->next->loc.file == t->loc.file) {
		text = arena_printf(&s->arena, "%s%.*s", text, t->next->loc.len, t->next->text);
		*next = t->next->next;
	} else {
		strtoll(text, &end, 0);
		if (*text && !*end)
			return false;
	}
	struct srcfile *f = source_from_string(s, arena_printf(&s->arena, "<argument $%ld>", n),
					       text);
	struct token *toks = lex_file(s, f);

	if (!toks)
		return true;	/* lex_file reported why */
	for (struct token *a = toks; a->kind != TK_EOF; ) {
		struct token *next = a->next;

		a->origin = t;
		list_add(out, a);
		a = next;
	}
	return true;
}

static struct token *cond_seq(struct pp *pp, struct token *t, bool live,
			      struct list *out)
{
	while (!at_end(t) && !is_branch_end(t)) {
		struct token *next = t->next;

		if (is_punct(t, "%(")) {
			pp->cond_nesting++;
			t = conditional(pp, t, live, out);
			pp->cond_nesting--;
			continue;
		}
		if (is_define(t)) {
			t = pass_define(t, live, out);
			continue;
		}
		if (live) {
			if (t->kind == TK_AT && !isdigit((unsigned char)t->str[0]) &&
			    !is_builtin_op(t->str))
				unknown_macro(pp, t);
			if (t->kind == TK_DOLLAR && script_arg_tokens(pp, t, out, &next)) {
				t = next;
				continue;
			}
			list_add(out, t);
		}
		t = next;
	}
	return t;
}

/* The whole list, EOF-terminated, with conditionals resolved. */
static struct token *cond_pass(struct pp *pp, struct token *t)
{
	struct list out = { 0 };

	for (;;) {
		t = cond_seq(pp, t, true, &out);
		if (at_end(t))
			break;
		pp_error(pp, t, "'%.*s' without a matching '%%('", t->loc.len, t->text);
		t = t->next;
	}
	if (t)
		list_add(&out, t);
	return out.head;
}

/* ---- entry points ---- */

struct token *pp_run(struct session *s, struct token *toks)
{
	struct pp pp = { .s = s };
	struct list out = { 0 };
	struct token *eof;
	int errors = s->errors;

	if (!toks)
		return NULL;
	for (eof = toks; eof->kind != TK_EOF; eof = eof->next)
		;
	expand(&pp, toks, 0, &out);
	list_add(&out, eof);
	toks = out.head;
	if (s->errors == errors)
		toks = cond_pass(&pp, toks);
	vec_free(&pp.file_macros);
	return s->errors > errors ? NULL : toks;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int pp_load_library_macros(struct session *s, const char *dir)
{
	struct pp pp = { .s = s };
	struct vec names = VEC_INIT;
	struct dirent *e;
	DIR *d = opendir(dir);
	int errors = s->errors, i;

	if (!d) {
		if (errno == ENOENT)
			return 0;
		util_err("cannot read tapset directory '%s': %s", dir, strerror(errno));
		return -1;
	}
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);

		if (e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".stpm"))
			vec_push(&names, xstrdup(e->d_name));
	}
	closedir(d);
	if (names.len)	/* qsort(NULL, 0, ...) is undefined */
		qsort(names.items, names.len, sizeof(char *), cmp_names);

	for (i = 0; i < names.len; i++) {
		char *path = xasprintf("%s/%s", dir, (char *)names.items[i]);
		struct srcfile *f = source_load(s, path);
		struct token *t;

		free(path);
		if (!f) {
			s->errors++;
			continue;
		}
		f->is_tapset = true;
		t = lex_file(s, f);
		if (!t)
			continue;
		t = cond_pass(&pp, t);
		while (!at_end(t)) {
			if (is_define(t)) {
				t = define(&pp, t, &cache_of(s)->lib_macros);
				continue;
			}
			pp_error(&pp, t, "expected '@define', found %s: a library macro "
				 "file holds only macro definitions and conditionals",
				 describe(&pp, t));
			while (!at_end(t) && !is_define(t))
				t = t->next;
		}
	}
	for (i = 0; i < names.len; i++)
		free(names.items[i]);
	vec_free(&names);
	return s->errors > errors ? -1 : 0;
}
