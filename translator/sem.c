// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 2: elaboration.  Match probe points to probe families, resolve
 * names (locals, globals, functions, built-ins), substitute command-line
 * arguments, and infer a type for every expression and variable.
 *
 * Types are inferred by repeated passes over the whole program until
 * nothing changes: a use can decide a variable's type before or after
 * the use that needs it.  A last pass reports what stayed unknown and
 * every conflict, pointing at both uses.
 */
#include <fnmatch.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stap.h"
#include "probes/probes.h"
#include "regex.h"
#include "tvar.h"

struct builtin_info {
	const char *name;
	enum builtin id;
	enum type ret;
	int min_args, max_args;		/* max -1: any number */
};

/* In step with enum builtin in stap.h. */
static const struct builtin_info builtins[] = {
	{ "printf", BI_PRINTF, TY_VOID, 1, -1 },
	{ "sprintf", BI_SPRINTF, TY_STRING, 1, -1 },
	{ "print", BI_PRINT, TY_VOID, 1, -1 },
	{ "println", BI_PRINTLN, TY_VOID, 0, -1 },
	{ "sprint", BI_SPRINT, TY_STRING, 1, -1 },
	{ "sprintln", BI_SPRINTLN, TY_STRING, 0, -1 },
	{ "exit", BI_EXIT, TY_VOID, 0, 0 },
	{ "error", BI_ERROR, TY_VOID, 1, 1 },
};

/* One of the things a name stands for, in the order they were added. */
struct chain {
	void *item;
	int idx;		/* aliases: the index in sem.aliases */
	struct chain *next;
};

struct sem {
	struct session *s;
	struct vec globals;	/* struct symbol * */
	struct vec funcs;	/* struct func *, every defined one */
	/* By name, so that big programs and libraries resolve in linear time. */
	struct strmap global_names;	/* name -> struct chain * of symbols */
	struct strmap func_names;	/* name -> struct chain * of funcs */
	struct strmap alias_first;	/* an alias name's first component -> chain */
	struct vec *locals;	/* the current body's frame */
	struct func *func;	/* the current function, or NULL in a probe */
	bool changed;		/* a type was decided in this pass */
	bool final;		/* last pass: report what is unresolved */
	int loop_depth;
	struct vec iterating;	/* struct symbol *: arrays foreach walks now */
	struct vec aliases;	/* struct probe *: every alias definition */
	int sc_parts;		/* SC_PART_*: the system call aliases loaded */
	int sc_tried;		/* SC_PART_*: the ones asked for */
	struct resolved_probe *rp;	/* the probe whose handler is checked */
	int nused;		/* globals used so far (symbol.first_use) */
	const char *pn;		/* the alias the script's point names (pn()) */
};

static void note_use(struct sem *S, struct symbol *sym)
{
	if (sym && sym->kind == SYM_GLOBAL && !sym->first_use)
		sym->first_use = ++S->nused;
}

static struct symbol *new_symbol(struct sem *S, enum sym_kind kind,
				 const char *name, const struct srcloc *loc)
{
	struct symbol *sym = arena_alloc(&S->s->arena, sizeof(*sym));

	sym->kind = kind;
	sym->name = name;
	sym->decl = *loc;
	return sym;
}

/* Add item to key's chain in m, last (once per idx if idx >= 0). */
static void chain_add(struct sem *S, struct strmap *m, const char *key, void *item,
		      int idx)
{
	struct chain **tail = (struct chain **)strmap_put(m, key);
	struct chain *c;

	for (; *tail; tail = &(*tail)->next)
		if (idx >= 0 && (*tail)->idx == idx)
			return;
	c = arena_alloc(&S->s->arena, sizeof(*c));
	c->item = item;
	c->idx = idx;
	*tail = c;
}

static struct symbol *find_in(struct vec *v, const char *name)
{
	int i;

	for (i = 0; v && i < v->len; i++) {
		struct symbol *sym = v->items[i];

		if (!strcmp(sym->name, name))
			return sym;
	}
	return NULL;
}

/* A private function or global is seen only from its own file. */
/*
 * The function a call names.  Functions may be overloaded by their
 * number of parameters (nargs; -1: any), as in SystemTap; a file's own
 * private function wins over a public one.
 */
static int load_syscalls(struct sem *S, const struct srcloc *loc, int parts);

static struct func *find_func_from(struct sem *S, const char *name,
				   const struct srcfile *from, int nargs)
{
	struct func *pub = NULL;

	if (from && from->owner)
		from = from->owner;
	for (struct chain *c = strmap_get(&S->func_names, name); c; c = c->next) {
		struct func *f = c->item;

		if (nargs >= 0 && f->nparams != nargs)
			continue;
		if (f->is_private && f->file == from)
			return f;
		if (!f->is_private || !from)
			pub = pub ? pub : f;
	}
	return pub;
}

static void add_globals(struct sem *S, struct program *prog);
static void add_funcs(struct sem *S, struct program *prog);
static void add_aliases(struct sem *S, struct program *prog);

/*
 * Parse and add the library files that may define name as kind (see
 * session_need_tapsets; kind 0: every file left).  How many were added.
 */
static int lib_need(struct sem *S, char kind, const char *name)
{
	struct vec added = VEC_INIT;
	int i, n;

	session_need_tapsets(S->s, kind, name, &added);
	for (i = 0; i < added.len; i++)
		desugar_program(S->s, added.items[i]);
	for (i = 0; i < added.len; i++) {
		add_globals(S, added.items[i]);
		add_funcs(S, added.items[i]);
	}
	for (i = 0; i < added.len; i++)
		add_aliases(S, added.items[i]);
	n = added.len;
	vec_free(&added);
	return n;
}

static struct func *find_func(struct sem *S, const char *name, int nargs)
{
	return find_func_from(S, name, NULL, nargs);
}

static struct symbol *find_global(struct sem *S, const char *name,
				  const struct srcfile *from)
{
	struct symbol *pub = NULL;

	if (from && from->owner)
		from = from->owner;
	if (!strmap_get(&S->global_names, name))
		lib_need(S, 'g', name);
	for (struct chain *c = strmap_get(&S->global_names, name); c; c = c->next) {
		struct symbol *g = c->item;

		if (g->global->is_private && g->global->file == from)
			return g;
		if (!g->global->is_private)
			pub = pub ? pub : g;
	}
	return pub;
}

/* A statistic has no value of its own, only its aggregates. */
static void stats_as_value(struct sem *S, const char *name, bool elem,
			   const struct srcloc *loc)
{
	const char *ix = elem ? "[...]" : "";

	diag_error(S->s, loc, "statistic '%s' cannot be used as a value", name);
	diag_hint(S->s, "read it with @count(%s%s), @sum(%s%s), @min, @max, @avg, "
		  "or print @hist_log(%s%s)", name, ix, name, ix, name, ix);
}

static const struct builtin_info *find_builtin(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(builtins); i++)
		if (!strcmp(builtins[i].name, name))
			return &builtins[i];
	return NULL;
}

/*
 * Decide *slot as t.  A conflict is reported in the final pass, naming
 * where the first type came from.
 */
static void unify(struct sem *S, enum type *slot, struct srcloc *slot_loc,
		  enum type t, const struct srcloc *loc, const char *what)
{
	if (t == TY_UNKNOWN || t == TY_VOID)
		return;
	if (*slot == TY_UNKNOWN) {
		*slot = t;
		if (slot_loc)
			*slot_loc = *loc;
		S->changed = true;
		return;
	}
	if (*slot != t && S->final) {
		diag_error(S->s, loc, "type mismatch: %s is used as %s here",
			   what, type_name(t));
		if (slot_loc && slot_loc->file)
			diag_note(S->s, slot_loc, "but it is %s here",
				  type_name(*slot));
	}
}

static enum type expr(struct sem *S, struct node *n);
static void stmt(struct sem *S, struct node *n);
static void want_var_type(struct sem *S, struct node *n, enum type t);
static enum type target_expr(struct sem *S, struct node *n, bool lvalue);
static void carry(struct sem *S, struct carried *c, const struct tv_ctype *t,
		  const struct srcloc *loc);
static const struct tv_ctype *ctype_of(struct sem *S, struct node *n);
static enum type autocast(struct sem *S, struct node *n, bool lvalue);


/* A value of type want is needed here. */
/*
 * An operand whose own error was reported already (a target variable
 * that did not resolve, an unknown function): its unknown type is no
 * news, so the errors it would cascade into are not printed.
 */
static bool reported(const struct node *n)
{
	if (n->kind == ND_AUTOCAST)	/* autocast() or tvar.c said why */
		return !n->tv || n->tv->type == TY_UNKNOWN;
	if (n->kind == ND_TARGET || n->kind == ND_CAST || n->kind == ND_ATVAR ||
	    n->kind == ND_ENTRY || n->kind == ND_DEFINED)
		return n->tv && n->tv->type == TY_UNKNOWN;
	return n->kind == ND_CALL && !n->func && n->builtin == BI_NONE;
}

static void expect_type(struct sem *S, struct node *n, enum type want,
			const char *what)
{
	enum type t = expr(S, n);

	if (!S->final || t == want || (t == TY_UNKNOWN && reported(n)))
		return;
	/*
	 * A function that returns nothing is 0 or "" where a value is
	 * wanted, as SystemTap types it from that use: "count && exit()".
	 */
	if ((want == TY_LONG || want == TY_STRING) && n->kind == ND_CALL &&
	    (t == TY_VOID || (t == TY_UNKNOWN && n->func && !n->func->returns_value))) {
		n->type = want;
		return;
	}
	if (t == TY_UNKNOWN)
		diag_error(S->s, &n->loc, "cannot infer the type of %s", what);
	else if (t == TY_VOID)
		diag_error(S->s, &n->loc, "%s has no value (the function returns nothing)",
			   what);
	else
		diag_error(S->s, &n->loc, "%s must be %s, not %s", what,
			   type_name(want), type_name(t));
}

static struct symbol *resolve_var(struct sem *S, struct node *n)
{
	struct symbol *sym = find_in(S->locals, n->str);

	if (!sym)
		sym = find_global(S, n->str, n->loc.file);
	if (!sym) {
		sym = new_symbol(S, SYM_LOCAL, n->str, &n->loc);
		sym->id = S->locals->len;
		vec_push(S->locals, sym);
	}
	note_use(S, sym);
	n->sym = sym;
	return sym;
}

/* $1 / @1 / $# / @#: replaced by literals from the command line. */
static enum type script_arg(struct sem *S, struct node *n)
{
	struct session *s = S->s;

	if (n->kind == ND_ARGC) {
		n->kind = ND_NUM;
		n->num = s->args.len;
		return n->type = TY_LONG;
	}
	if (n->num < 1 || n->num > s->args.len) {
		diag_error(s, &n->loc,
			   "command line argument index %" PRId64 " out of range [1-%d]",
			   n->num, s->args.len);
		diag_hint(s, "give the argument after the script: stap script.stp ARG");
		n->kind = ND_NUM;
		n->num = 0;
		return n->type = TY_LONG;
	}
	const char *text = s->args.items[n->num - 1];

	if (n->str_arg) {
		n->kind = ND_STR;
		n->str = text;
		n->str_len = (int)strlen(text);
		return n->type = TY_STRING;
	}
	char *end;
	long long v = strtoll(text, &end, 0);

	if (!*text || *end) {
		diag_error(s, &n->loc,
			   "command line argument $%" PRId64 " is '%s', not a number",
			   n->num, text);
		diag_hint(s, "use @%" PRId64 " to use an argument as a string", n->num);
		v = 0;
	}
	n->kind = ND_NUM;
	n->num = v;
	return n->type = TY_LONG;
}

/*
 * printd(delim, v1, v2, ...) and printdln, sprintd, sprintdln: print(v1,
 * delim, v2, ...) and its siblings, with the delimiter between values.
 * Rewritten in place once; false (reported) if the call is malformed.
 */
static bool delimited_print(struct sem *S, struct node *n)
{
	static const char *const forms[][2] = {
		{ "printd", "print" }, { "printdln", "println" },
		{ "sprintd", "sprint" }, { "sprintdln", "sprintln" },
	};
	struct node *d = n->args, *v, *last, *copy;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(forms); i++)
		if (!strcmp(n->str, forms[i][0]))
			break;
	if (i == ARRAY_SIZE(forms))
		return true;
	if (n->num < 3) {
		if (S->final)
			diag_error(S->s, &n->loc, "%s() takes a delimiter and at least 2 values, "
				   "not %d argument%s", n->str, (int)n->num, n->num == 1 ? "" : "s");
		return false;
	}
	if (d->kind != ND_STR) {
		if (S->final)
			diag_error(S->s, &d->loc, "the delimiter of %s() must be a string literal",
				   n->str);
		return false;
	}
	n->str = forms[i][1];
	n->args = last = d->next;
	n->num = 1;
	for (v = last->next; v; v = last->next) {
		copy = arena_alloc(&S->s->arena, sizeof(*copy));
		*copy = *d;
		copy->next = v;
		last->next = copy;
		last = v;
		n->num += 2;
	}
	return true;
}

/* @perf("NAME") (parse.c makes it __perf_read): NAME is a .counter's. */
static bool perf_counter_ok(struct sem *S, struct node *n)
{
	struct vec *names = &S->s->perf_counters;

	if (n->num != 1 || n->args->kind != ND_STR) {
		diag_error(S->s, &n->loc, "@perf takes one string literal, a perf counter's name");
		return false;
	}
	for (int i = 0; i < names->len; i++)
		if (!strcmp(names->items[i], n->args->str))
			return true;
	diag_error(S->s, &n->args->loc, "no perf counter '%s'", n->args->str);
	diag_hint(S->s, "declare it with probe perf.TYPE.EVENT.counter(\"%s\") {} "
		  "(e.g. perf.sw.task_clock.process.counter(\"%s\"))",
		  n->args->str, n->args->str);
	return false;
}

static enum type call(struct sem *S, struct node *n)
{
	const struct builtin_info *bi;
	struct node *a;
	int nargs;

	if (!delimited_print(S, n))
		return n->type = TY_UNKNOWN;
	bi = find_builtin(n->str);
	nargs = (int)n->num;
	if (S->final && !strcmp(n->str, "__perf_read") && !perf_counter_ok(S, n))
		return n->type = TY_LONG;

	if (bi) {
		n->builtin = bi->id;
		if (nargs < bi->min_args || (bi->max_args >= 0 && nargs > bi->max_args)) {
			if (S->final)
				diag_error(S->s, &n->loc,
					   "%s() takes %s%d argument%s, not %d", n->str,
					   bi->max_args < 0 ? "at least " : "",
					   bi->min_args, bi->min_args == 1 ? "" : "s", nargs);
			return n->type = bi->ret;
		}
		if (bi->id == BI_PRINTF || bi->id == BI_SPRINTF) {
			struct node *f = n->args;
			int i = 0;

			if (f->kind != ND_STR) {
				expr(S, f);
				if (S->final)
					diag_error(S->s, &f->loc,
						   "the format of %s() must be a string literal",
						   n->str);
				return n->type = bi->ret;
			}
			if (!n->fmt)
				n->fmt = fmt_parse(S->s, f, S->final);
			if (S->final && n->fmt && n->fmt->has_binary && bi->id == BI_SPRINTF)
				diag_error(S->s, &f->loc, "%%b, %%m and %%M write raw bytes: use them with printf, not sprintf");
			if (S->final && n->fmt && n->fmt->nargs != nargs - 1) {
				diag_error(S->s, &f->loc,
					   "format string expects %d argument%s, but %d %s given",
					   n->fmt->nargs, n->fmt->nargs == 1 ? "" : "s",
					   nargs - 1, nargs - 1 == 1 ? "is" : "are");
				return n->type = bi->ret;
			}
			for (a = f->next; a; a = a->next, i++) {
				enum type want = TY_LONG;

				if (n->fmt) {
					/* Walk to the conversion that takes arg i. */
					int k = 0, c;

					for (c = 0; c < n->fmt->n - 1; c++) {
						struct fmt_conv *cv = &n->fmt->convs[c];
						int take = 1 + (cv->width == -2) + (cv->prec == -2);

						if (i < k + take) {
							if (i == k + take - 1 && cv->conv == 's')
								want = TY_STRING;
							break;
						}
						k += take;
					}
					/* As SystemTap, the conversion types an untyped argument. */
					if (!S->final && expr(S, a) == TY_UNKNOWN)
						want_var_type(S, a, want);
					expect_type(S, a, want, want == TY_STRING ?
						    "the argument for %s" : "the argument for a numeric conversion");
				} else {
					expr(S, a);
				}
			}
			return n->type = bi->ret;
		}
		if (bi->id == BI_ERROR) {
			expect_type(S, n->args, TY_STRING, "the error message");
			return n->type = bi->ret;
		}
		for (a = n->args; a; a = a->next) {
			enum type t = expr(S, a);

			if (!S->final)
				continue;
			if (t == TY_UNKNOWN && reported(a))
				continue;
			if (t == TY_UNKNOWN || t == TY_VOID)
				diag_error(S->s, &a->loc, "cannot print a value of unknown type");
			else if (t == TY_STATS && a->kind != ND_HIST &&
				 a->kind != ND_VAR && a->kind != ND_INDEX)	/* reported there */
				diag_error(S->s, &a->loc, "a statistic is printed through @count, "
					   "@sum, ... or @hist_linear/@hist_log");
			else if (a->kind == ND_HIST && bi->id != BI_PRINT && bi->id != BI_PRINTLN)
				diag_error(S->s, &a->loc, "a histogram can only be printed with print or println");
		}
		return n->type = bi->ret;
	}

	struct func *f = find_func_from(S, n->str, n->loc.file, nargs);

	if (!f && lib_need(S, 'f', n->str))
		f = find_func_from(S, n->str, n->loc.file, nargs);
	/* Functions of the generated syscall library load it (syscall_name). */
	if (!f && !(S->sc_tried & SC_PART_ANY) && sc_defines(n->str)) {
		if (load_syscalls(S, &n->loc, SC_PART_ANY) < 0)
			return n->type = TY_UNKNOWN;
		f = find_func_from(S, n->str, n->loc.file, nargs);
	}
	/* Not in the library's index: every file (and every name to suggest). */
	if (!f && lib_need(S, 0, NULL))
		f = find_func_from(S, n->str, n->loc.file, nargs);

	/* No overload takes nargs: name one that exists, for the message. */
	if (!f)
		f = find_func_from(S, n->str, n->loc.file, -1);
	if (f && f->guru && !S->s->guru && S->final && n->id != -1) {
		diag_error(S->s, &n->loc, "%s() needs guru mode (-g): its tapset marks it /* guru */",
			   f->name);
		n->id = -1;
	}
	if (!f) {
		if (S->final && n->id != -1) {	/* -1: reported (operands are checked twice) */
			const char **names = xcalloc((size_t)S->funcs.len + ARRAY_SIZE(builtins),
						     sizeof(char *));
			int k = 0, i;
			const char *near;
			const struct func *hidden = NULL;

			/* Another file's private functions are not offered as
			 * spellings; one of this very name is named instead. */
			for (i = 0; i < S->funcs.len; i++) {
				const struct func *g = S->funcs.items[i];

				if (!g->is_private || g->file == n->loc.file)
					names[k++] = g->name;
				else if (!strcmp(g->name, n->str) && !hidden)
					hidden = g;
			}
			for (i = 0; i < (int)ARRAY_SIZE(builtins); i++)
				names[k++] = builtins[i].name;
			diag_error(S->s, &n->loc, "unresolved function '%s'", n->str);
			n->id = -1;
			near = diag_closest(n->str, names, k);
			if (hidden)
				diag_hint(S->s, "'%s' is private to %s: only that file can call it",
					  n->str, hidden->file->name);
			else if (near)
				diag_hint(S->s, "did you mean '%s'?", near);
			free(names);
		}
		for (a = n->args; a; a = a->next)
			expr(S, a);
		return n->type = TY_UNKNOWN;
	}
	n->func = f;
	if (!f->used) {
		f->used = true;
		S->changed = true;
	}
	if (nargs != f->nparams) {
		if (S->final) {
			diag_error(S->s, &n->loc, "%s() takes %d argument%s, not %d",
				   f->name, f->nparams, f->nparams == 1 ? "" : "s", nargs);
			diag_note(S->s, &f->loc, "%s() is defined here", f->name);
		}
		return n->type = f->type;
	}
	struct param *p = f->params;

	for (a = n->args; a; a = a->next, p = p->next) {
		enum type t = expr(S, a);

		/* As SystemTap, a never-assigned local takes the parameter's type. */
		if (t == TY_UNKNOWN && p->sym->type != TY_UNKNOWN)
			want_var_type(S, a, p->sym->type);
		unify(S, &p->sym->type, &p->sym->type_loc, t, &a->loc,
		      arena_printf(&S->s->arena, "parameter '%s' of %s()", p->name, f->name));
	}
	return n->type = f->type == TY_UNKNOWN ? TY_UNKNOWN : f->type;
}


/* The global array a name refers to, or NULL (reported in the final pass). */
static struct symbol *resolve_array(struct sem *S, const char *name,
				    const struct srcloc *loc, struct node *n)
{
	struct symbol *sym = find_global(S, name, loc->file);

	if (!sym || find_in(S->locals, name)) {
		if (S->final) {
			diag_error(S->s, loc, "'%s' is not a global array", name);
			diag_hint(S->s, "arrays must be declared at top level: global %s", name);
		}
		return NULL;
	}
	if (!sym->is_array) {
		sym->is_array = true;
		S->changed = true;
	}
	note_use(S, sym);
	if (n)
		n->sym = sym;
	return sym;
}

/* Check an index list against the array's arity and key types. */
static void index_keys(struct sem *S, struct symbol *sym, struct node *keys,
		       const struct srcloc *loc)
{
	struct node *k;
	int n = 0;

	for (k = keys; k; k = k->next)
		n++;
	if (!sym->arity) {
		sym->arity = n;
		S->changed = true;
	} else if (sym->arity != n && S->final) {
		diag_error(S->s, loc, "array '%s' is used with %d index%s here, but with %d elsewhere",
			   sym->name, n, n == 1 ? "" : "es", sym->arity);
		return;
	}
	if (n > 9) {
		if (S->final)
			diag_error(S->s, loc, "array '%s' has %d indexes; at most 9 are allowed",
				   sym->name, n);
		return;
	}
	n = 0;
	for (k = keys; k; k = k->next, n++) {
		enum type t = expr(S, k);

		if (t == TY_UNKNOWN && sym->key_types[n] != TY_UNKNOWN)
			want_var_type(S, k, sym->key_types[n]);
		if (t == TY_STATS || t == TY_VOID) {
			if (S->final)
				diag_error(S->s, &k->loc, "an array index must be a number or a string");
			continue;
		}
		unify(S, (enum type *)&sym->key_types[n], NULL, t, &k->loc,
		      arena_printf(&S->s->arena, "index %d of array '%s'", n + 1, sym->name));
	}
}

/* Writing to an array foreach is walking is refused, as SystemTap does. */
static void check_not_iterating(struct sem *S, struct symbol *sym,
				const struct srcloc *loc)
{
	for (int i = 0; S->final && i < S->iterating.len; i++)
		if (S->iterating.items[i] == sym)
			diag_error(S->s, loc,
				   "array '%s' cannot be modified inside a foreach over it",
				   sym->name);
}

/*
 * The variable or array element an assignment, ++/--, <<< or delete
 * writes.  Returns its symbol (whose type is the value type), or NULL.
 */
static struct symbol *lvalue(struct sem *S, struct node *n, bool read_too)
{
	struct symbol *sym;

	if (n->kind == ND_VAR) {
		sym = resolve_var(S, n);
		if (sym->is_array && S->final)
			diag_error(S->s, &n->loc, "array '%s' is used without an index",
				   sym->name);
	} else if (n->kind == ND_INDEX) {
		sym = resolve_array(S, n->str, &n->loc, n);
		if (!sym)
			return NULL;
		index_keys(S, sym, n->args, &n->loc);
		check_not_iterating(S, sym, &n->loc);
	} else {
		if (n->kind == ND_TARGET || n->kind == ND_AUTOCAST) {
			enum type t = n->kind == ND_TARGET ? target_expr(S, n, true) :
				      autocast(S, n, true);

			if (t == TY_LONG && n->tv && !n->tv->store && S->final)
				diag_error(S->s, &n->loc, "this target variable cannot be assigned to");
			return NULL;
		}
		expr(S, n);
		if (S->final)
			diag_error(S->s, &n->loc, "this cannot be assigned to: "
				   "expected a variable or an array element");
		return NULL;
	}
	sym->written = true;
	if (read_too)
		sym->read = true;
	return sym;
}

/* The statistic @count(x), @hist_log(x), ... read: a global scalar or element. */
static struct symbol *stat_operand(struct sem *S, struct node *n)
{
	struct symbol *sym;

	if (n->kind == ND_INDEX) {
		sym = resolve_array(S, n->str, &n->loc, n);
		if (sym)
			index_keys(S, sym, n->args, &n->loc);
	} else if (n->kind == ND_VAR) {
		sym = resolve_var(S, n);
		if (sym->kind != SYM_GLOBAL) {
			if (S->final)
				diag_error(S->s, &n->loc,
					   "statistics must be global: declare 'global %s'", sym->name);
			return NULL;
		}
	} else {
		expr(S, n);
		if (S->final)
			diag_error(S->s, &n->loc, "expected a statistics variable or array element");
		return NULL;
	}
	if (!sym)
		return NULL;
	sym->read = true;
	unify(S, &sym->type, &sym->type_loc, TY_STATS, &n->loc,
	      arena_printf(&S->s->arena, "'%s'", sym->name));
	n->type = TY_STATS;
	return sym;
}

static enum type hist(struct sem *S, struct node *n)
{
	struct symbol *sym = stat_operand(S, n->args);
	struct node *a;

	for (a = n->args->next; a; a = a->next) {
		if (a->kind == ND_UNARY && a->op == OP_NEG && a->lhs->kind == ND_NUM) {
			a->kind = ND_NUM;
			a->num = -a->lhs->num;
		}
		if (a->kind != ND_NUM && S->final)
			diag_error(S->s, &a->loc, "@%s parameters must be number literals", n->str);
	}
	if (S->final && n->str[5] == 'l' && n->args->next) {
		struct node *lo = n->args->next, *hi = lo->next, *step = hi->next;

		if (lo->kind == ND_NUM && hi->kind == ND_NUM && step->kind == ND_NUM) {
			if (step->num <= 0)
				diag_error(S->s, &step->loc, "@hist_linear interval must be positive");
			else if (hi->num <= lo->num)
				diag_error(S->s, &hi->loc, "@hist_linear stop must be greater than start");
			else if ((hi->num - lo->num) / step->num > 1000)
				diag_error(S->s, &step->loc,
					   "@hist_linear has %" PRId64 " buckets; at most 1000 are allowed",
					   (hi->num - lo->num) / step->num);
		}
	}
	if (sym) {
		if (!sym->hist) {
			sym->hist = n;
		} else if (S->final && sym->hist != n) {
			struct strbuf a1 = STRBUF_INIT, a2 = STRBUF_INIT;

			ast_print_expr(&a1, sym->hist);
			ast_print_expr(&a2, n);
			/* Same buckets: the print is of the same histogram. */
			if (strcmp(sb_str(&a1) + strcspn(sb_str(&a1), ","),
				   sb_str(&a2) + strcspn(sb_str(&a2), ",")) ||
			    strcmp(sym->hist->str, n->str)) {
				diag_error(S->s, &n->loc,
					   "'%s' is given two different histograms", sym->name);
				diag_note(S->s, &sym->hist->loc, "the first is here");
			}
			sb_free(&a1);
			sb_free(&a2);
		}
	}
	return n->type = TY_STATS;
}

static enum type statop(struct sem *S, struct node *n)
{
	struct symbol *sym = stat_operand(S, n->args);
	struct node *shift = n->args->next;

	if (!shift)
		return n->type = TY_LONG;
	if (shift->kind != ND_NUM || shift->num < 0 || shift->num > 62) {
		if (S->final)
			diag_error(S->s, &shift->loc,
				   "@variance's second argument must be a number from 0 to 62");
		return n->type = TY_LONG;
	}
	/* The shift scales values as they are added: one per statistic. */
	if (sym && !sym->variance) {
		sym->variance = n;
	} else if (sym && S->final && sym->variance->args->next->num != shift->num) {
		diag_error(S->s, &shift->loc,
			   "'%s' is read with two different @variance shifts", sym->name);
		diag_note(S->s, &sym->variance->args->next->loc, "the first is here");
	}
	return n->type = TY_LONG;
}

static enum type push(struct sem *S, struct node *n)
{
	struct symbol *sym;

	expect_type(S, n->rhs, TY_LONG, "the value given to <<<");
	want_var_type(S, n->rhs, TY_LONG);
	if (n->lhs->kind == ND_VAR && (sym = resolve_var(S, n->lhs)) &&
	    sym->kind != SYM_GLOBAL) {
		if (S->final)
			diag_error(S->s, &n->lhs->loc,
				   "statistics must be global: declare 'global %s'", sym->name);
		return TY_VOID;
	}
	sym = lvalue(S, n->lhs, false);
	if (sym)
		unify(S, &sym->type, &sym->type_loc, TY_STATS, &n->loc,
		      arena_printf(&S->s->arena, "'%s'", sym->name));
	n->lhs->type = TY_STATS;
	return n->type = TY_VOID;
}

static enum type in_expr(struct sem *S, struct node *n)
{
	struct symbol *sym = resolve_array(S, n->str, &n->loc, n);

	if (sym) {
		sym->read = true;
		index_keys(S, sym, n->args, &n->loc);
	} else {
		for (struct node *k = n->args; k; k = k->next)
			expr(S, k);
	}
	return n->type = TY_LONG;
}

static enum type assign(struct sem *S, struct node *n)
{
	enum type rt = expr(S, n->rhs);
	struct symbol *sym = lvalue(S, n->lhs, n->op != OP_NONE);
	const char *what;

	if (!sym)
		return TY_UNKNOWN;
	what = arena_printf(&S->s->arena, "%s '%s'", n->lhs->kind == ND_INDEX ?
			    "array" : "variable", sym->name);
	if (n->op == OP_CONCAT)
		rt = TY_STRING;
	else if (n->op != OP_NONE)
		rt = TY_LONG;
	if (rt == TY_VOID && S->final)
		diag_error(S->s, &n->rhs->loc, "the right side has no value");
	if (rt == TY_STATS && S->final)
		diag_error(S->s, &n->rhs->loc, "a statistic cannot be assigned; use <<< to add values");
	if (n->rhs->type == TY_UNKNOWN && sym->type != TY_UNKNOWN)
		want_var_type(S, n->rhs, sym->type);
	unify(S, &sym->type, &sym->type_loc, rt, &n->rhs->loc, what);
	if (n->op == OP_NONE && n->lhs->kind == ND_VAR && sym->kind != SYM_PARAM)
		carry(S, &sym->ct, ctype_of(S, n->rhs), &n->rhs->loc);
	if (sym->type == TY_STATS && S->final)
		diag_error(S->s, &n->loc, "statistics '%s' only take <<<", sym->name);
	n->lhs->type = sym->type;
	return n->type = sym->type;
}

/* Most capture groups a script can read back with matched(n). */
#define MAX_MATCH_GROUPS 10

static void compile_regex(struct sem *S, struct node *n)
{
	char err[256];

	if (memchr(n->rhs->str, '\0', (size_t)n->rhs->str_len)) {
		diag_error(S->s, &n->rhs->loc, "a regular expression cannot contain a NUL byte");
		return;
	}
	n->rx = rx_compile(n->rhs->str, err, sizeof(err));
	if (!n->rx) {
		diag_error(S->s, &n->rhs->loc, "invalid regular expression: %s", err);
		return;
	}
	/* Listed even if rejected below: the session frees what it lists. */
	n->id = S->s->regexes.len;
	vec_push(&S->s->regexes, n);
	if (rx_ngroups(n->rx) > MAX_MATCH_GROUPS)
		diag_error(S->s, &n->rhs->loc,
			   "regular expression has %d groups; matched() can read at most %d",
			   rx_ngroups(n->rx) - 1, MAX_MATCH_GROUPS - 1);
}

static enum type binary(struct sem *S, struct node *n)
{
	switch (n->op) {
	case OP_CONCAT:
		expect_type(S, n->lhs, TY_STRING, "the left operand of '.'");
		/* "$file.f_flags": as in SystemTap, '.' only joins strings */
		if (S->final && n->lhs->type == TY_LONG && n->rhs->kind == ND_VAR &&
		    (n->lhs->kind == ND_TARGET || n->lhs->kind == ND_CAST ||
		     n->lhs->kind == ND_ATVAR))
			diag_hint(S->s, "'.' joins strings; to read member '%s', write '->%s'",
				  n->rhs->str, n->rhs->str);
		expect_type(S, n->rhs, TY_STRING, "the right operand of '.'");
		return n->type = TY_STRING;
	case OP_MATCH:
	case OP_NOMATCH:
		want_var_type(S, n->lhs, TY_STRING);
		expect_type(S, n->lhs, TY_STRING, "the left operand of a regular expression match");
		if (n->rhs->kind != ND_STR) {
			expr(S, n->rhs);
			if (S->final)
				diag_error(S->s, &n->rhs->loc,
					   "the regular expression must be a string literal");
			return n->type = TY_LONG;
		}
		if (S->final && !n->rx)
			compile_regex(S, n);
		return n->type = TY_LONG;
	case OP_EQ: case OP_NE: case OP_LT: case OP_LE: case OP_GT: case OP_GE: {
		/* Strings or numbers, both sides alike. */
		enum type l = expr(S, n->lhs), r = expr(S, n->rhs);

		/* A variable or an array element takes the other side's type. */
		if (l == TY_UNKNOWN && r != TY_UNKNOWN)
			want_var_type(S, n->lhs, r);
		if (r == TY_UNKNOWN && l != TY_UNKNOWN)
			want_var_type(S, n->rhs, l);
		l = expr(S, n->lhs);
		r = expr(S, n->rhs);
		if (S->final && l != r && !reported(n->lhs) && !reported(n->rhs)) {
			if (l == TY_UNKNOWN || r == TY_UNKNOWN)
				diag_error(S->s, &n->loc, "cannot infer the types compared here");
			else
				diag_error(S->s, &n->loc,
					   "comparison of %s with %s: both sides must be numbers or both strings",
					   type_name(l), type_name(r));
		}
		return n->type = TY_LONG;
	}
	default:
		expect_type(S, n->lhs, TY_LONG,
			    arena_printf(&S->s->arena, "the left operand of '%s'", op_names[n->op]));
		expect_type(S, n->rhs, TY_LONG,
			    arena_printf(&S->s->arena, "the right operand of '%s'", op_names[n->op]));
		return n->type = TY_LONG;
	}
}

/* Give an untyped variable operand the type the operator needs. */
static void want_var_type(struct sem *S, struct node *n, enum type t)
{
	if (n->kind == ND_VAR) {
		struct symbol *sym = resolve_var(S, n);

		unify(S, &sym->type, &sym->type_loc, t, &n->loc, "variable");
	} else if (n->kind == ND_INDEX && n->sym && n->sym->type != TY_STATS) {
		unify(S, &n->sym->type, &n->sym->type_loc, t, &n->loc, "array");
	}
}

/*
 * $var, @cast, @var, @entry, @defined: tvar.c resolves them against the
 * probe's DWARF.  Index expressions and @cast's pointer are ordinary
 * script expressions, checked here.
 */
/* @entry(expr): every target and @var inside expr is read at entry. */
static void entry_targets(struct sem *S, struct node *n)
{
	for (; n; n = n->next) {
		if (n->kind == ND_TARGET || n->kind == ND_ATVAR) {
			if (!n->tv)
				tv_resolve_at_entry(S->s, S->rp, n);
			continue;
		}
		entry_targets(S, n->lhs);
		entry_targets(S, n->rhs);
		entry_targets(S, n->cond);
		entry_targets(S, n->then);
		entry_targets(S, n->els);
		entry_targets(S, n->args);
	}
}

/*
 * @defined(e->f) with e a typed value: whether its type has that member,
 * decided once e's type is known (or, in the final pass, that it has
 * none: 0).  Until then n has no code, so nothing folds it too early.
 */
static enum type defined_autocast(struct sem *S, struct node *n, struct node *a)
{
	const struct tv_ctype *ct;
	struct tv_code *out;

	if (n->tv)
		return TY_LONG;
	expr(S, a->lhs);
	ct = ctype_of(S, a->lhs);
	if (!ct && !S->final)
		return TY_LONG;
	out = arena_alloc(&S->s->arena, sizeof(*out));
	out->type = TY_LONG;
	out->constant = true;
	out->code = ct && tv_resolve_autocast(S->s, S->func ? NULL : S->rp, a, ct, false,
					      true) != TY_UNKNOWN ? "1" : "0";
	n->tv = out;
	return TY_LONG;
}

static enum type target_expr(struct sem *S, struct node *n, bool lvalue)
{
	struct node *inner = n;

	if (n->kind == ND_ENTRY && n->lhs->kind != ND_TARGET && !S->func) {
		entry_targets(S, n->lhs);
		return n->type = expr(S, n->lhs);
	}

	while (inner->kind == ND_DEFINED || inner->kind == ND_ENTRY)
		inner = inner->lhs;
	if (inner->kind == ND_TARGET || inner->kind == ND_CAST || inner->kind == ND_ATVAR) {
		if (inner->kind == ND_CAST && inner->args)
			expect_type(S, inner->args, TY_LONG, "@cast's pointer");
		for (struct member *m = inner->members; m; m = m->next)
			if (m->index)
				expect_type(S, m->index, TY_LONG, "an index");
	} else if (n->kind == ND_DEFINED && inner->kind == ND_AUTOCAST && inner->members &&
		   n->lhs == inner) {
		return n->type = defined_autocast(S, n, inner);
	} else if (n->kind == ND_DEFINED) {
		expr(S, inner);	/* @defined(script expression): always 1 */
	}
	if (S->func && (inner->kind == ND_TARGET || n->kind == ND_ENTRY)) {
		if (!n->tv) {
			diag_error(S->s, &n->loc, "target variables are only available in probe "
				   "handlers, not in functions");
			diag_hint(S->s, "pass the value to the function as an argument");
			n->tv = arena_alloc(&S->s->arena, sizeof(*n->tv));	/* once */
		}
		return TY_UNKNOWN;
	}
	return n->type = tv_resolve(S->s, S->func ? NULL : S->rp, n, lvalue);
}

/* A constant @defined(...) (or its negation) as 0/1; -1 if not one. */
static int defined_const(struct sem *S, struct node *c)
{
	bool neg = false;

	while (c->kind == ND_UNARY && c->op == OP_NOT) {
		neg = !neg;
		c = c->lhs;
	}
	/* In a function only @cast is known: $vars are the caller's. */
	if (c->kind != ND_DEFINED || (S->func && (!c->lhs || c->lhs->kind != ND_CAST)))
		return -1;
	if (target_expr(S, c, false) != TY_LONG || !c->tv || !c->tv->constant)
		return -1;
	return (c->tv->code[0] == '1') != neg;
}

/*
 * Fold "@defined($x) ? $x : 0" and "if (@defined($x)) ..." so the dead
 * branch, which may name a variable that does not exist here, is never
 * resolved.  The node is replaced in place (its next link kept).
 * Returns whether it was; the branch kept may be one to fold in turn.
 */
static bool fold_defined(struct sem *S, struct node *n)
{
	int v = defined_const(S, n->cond);
	struct node *keep, *next = n->next;

	if (v < 0)
		return false;
	keep = v ? n->then : n->els;
	if (!keep) {	/* if without else */
		struct srcloc loc = n->loc;

		memset(n, 0, sizeof(*n));
		n->kind = ND_NULL_STMT;
		n->loc = loc;
	} else {
		*n = *keep;
	}
	n->next = next;
	return true;
}

/* A C type for c to carry, given by the value at loc ("autocast"). */
static void carry(struct sem *S, struct carried *c, const struct tv_ctype *t,
		  const struct srcloc *loc)
{
	if (!t || c->other)
		return;
	if (!c->type) {
		c->type = t;
		c->loc = *loc;
		S->changed = true;
	} else if (!tv_ctype_same(S->s, c->type, t)) {
		c->other = t;
		c->other_loc = *loc;
		S->changed = true;
	}
}

static const struct tv_ctype *func_ctype(struct sem *S, struct func *f)
{
	/* An embedded-C function's declared type, looked up when read through. */
	if (f->returns_cast && !f->ct.type) {
		struct tv_ctype *ct = arena_alloc(&S->s->arena, sizeof(*ct));

		ct->decl = f->returns_cast;
		carry(S, &f->ct, ct, &f->loc);
	}
	return f->ct.other ? NULL : f->ct.type;
}

/*
 * The C type n's value carries, or NULL: a target expression's, a
 * variable's or a function's that was given one (SystemTap 4.8 types
 * neither parameters, nor array elements, nor "c ? $p : 0").
 */
static const struct tv_ctype *ctype_of(struct sem *S, struct node *n)
{
	switch (n->kind) {
	case ND_TARGET:
	case ND_CAST:
	case ND_ATVAR:
	case ND_AUTOCAST:
		return n->tv && n->tv->type == TY_LONG ? n->tv->ctype : NULL;
	case ND_VAR:
		return n->sym && n->sym->kind != SYM_PARAM && !n->sym->ct.other ?
		       n->sym->ct.type : NULL;
	case ND_CALL:
		return n->func ? func_ctype(S, n->func) : NULL;
	case ND_ASSIGN:
		return n->op == OP_NONE ? ctype_of(S, n->rhs) : NULL;
	default:
		return NULL;
	}
}

/* Why (e)->f has no C type to read through: e's two, or none. */
static void no_ctype(struct sem *S, struct node *n, struct node *base)
{
	const char *op = !n->members ? (n->num > 1 ? "$$" : "$") : n->members->name ? "->" : "[";
	const struct carried *c = base->kind == ND_VAR && base->sym ? &base->sym->ct :
				  base->kind == ND_CALL && base->func ? &base->func->ct : NULL;
	const char *what = base->kind == ND_VAR ? arena_printf(&S->s->arena, "'%s'", base->str) :
			   arena_printf(&S->s->arena, "%s()", base->str);

	if (c && c->other) {
		diag_error(S->s, &n->loc, "'%s' follows %s, which is given values of two C "
			   "types, so it has none", op, what);
		diag_note(S->s, &c->loc, "a '%s' here", tv_ctype_name(S->s, c->type));
		diag_note(S->s, &c->other_loc, "a '%s' here", tv_ctype_name(S->s, c->other));
		diag_hint(S->s, "give it one: @cast(EXPR, \"struct NAME\")->member");
		return;
	}
	if (base->kind == ND_VAR && base->sym && base->sym->kind == SYM_PARAM) {
		diag_error(S->s, &n->loc, "'%s' follows parameter %s, and parameters carry no "
			   "C type (as in SystemTap)", op, what);
		diag_hint(S->s, "give it one: @cast(%s, \"struct NAME\")->member", base->str);
		return;
	}
	if (base->kind == ND_VAR || base->kind == ND_CALL)
		diag_error(S->s, &n->loc, "'%s' follows %s, which has no C type: only a target "
			   "expression ($var, @cast, @var) gives one", op, what);
	else
		diag_error(S->s, &n->loc, "'%s' follows an expression with no C type: only a "
			   "target expression ($var, @cast, @var) can have members", op);
	diag_hint(S->s, "give it a type: @cast(EXPR, \"struct NAME\")->member");
}

/*
 * (e)->f.  Once e is a target expression ($var, @cast, @var; a
 * @choose_defined ternary folds to one) that is a value of its own (a
 * pointer), the members continue its chain and n becomes that
 * expression.  Otherwise e is a script value that may carry a C type
 * (a local, a call: "autocast"), and n reads through it.
 */
static enum type autocast(struct sem *S, struct node *n, bool lvalue)
{
	struct node *base = n->lhs, *next = n->next;
	struct member *chain = n->members, **tail;
	const struct tv_ctype *ct;
	int pretty = n->num;
	enum op op = n->op;	/* &(e)->f */

	while (base->kind == ND_TERNARY && fold_defined(S, base))
		;
	if ((base->kind != ND_TARGET && base->kind != ND_CAST && base->kind != ND_ATVAR) ||
	    base->op == OP_BITAND || base->num) {
		expr(S, base);
		ct = ctype_of(S, base);
		if (!ct) {
			if (S->final && !reported(base))
				no_ctype(S, n, base);
			return n->type = TY_UNKNOWN;
		}
		return n->type = tv_resolve_autocast(S->s, S->func ? NULL : S->rp, n, ct, lvalue,
						     false);
	}
	/* e must be a value first: a pointer, not a struct (as SystemTap). */
	if (expr(S, base) == TY_UNKNOWN)
		return TY_UNKNOWN;
	*n = *base;
	n->next = next;
	n->tv = NULL;
	for (tail = &n->members; *tail; tail = &(*tail)->next)
		;
	*tail = chain;
	n->num = pretty;
	n->op = op;
	return lvalue ? target_expr(S, n, true) : expr(S, n);
}

static enum type expr(struct sem *S, struct node *n)
{
	struct symbol *sym;

	switch (n->kind) {
	case ND_NUM:
		return n->type = TY_LONG;
	case ND_STR:
		return n->type = TY_STRING;
	case ND_EMBEDDED:	/* typed (and allowed) by the parser */
		return n->type;
	case ND_ARG:
	case ND_ARGC:
		return script_arg(S, n);
	case ND_VAR:
		sym = resolve_var(S, n);
		sym->read = true;
		if (sym->is_array || (sym->kind == SYM_GLOBAL && sym->global->is_array)) {
			if (S->final)
				diag_error(S->s, &n->loc, "array '%s' is used without an index",
					   sym->name);
			return TY_UNKNOWN;
		}
		if (sym->type == TY_STATS && S->final)
			stats_as_value(S, sym->name, false, &n->loc);
		if (S->final && sym->type == TY_UNKNOWN && !sym->written &&
		    sym->kind == SYM_LOCAL && !sym->unassigned_reported) {
			diag_error(S->s, &n->loc,
				   "variable '%s' is never assigned, so its type is unknown",
				   sym->name);
			sym->type = TY_LONG;	/* no cascade of type errors */
			sym->unassigned_reported = true;
		}
		return n->type = sym->type;
	case ND_CALL:
		return call(S, n);
	case ND_ASSIGN:
		return assign(S, n);
	case ND_BINARY:
		if (n->op != OP_CONCAT && n->op < OP_EQ) {
			want_var_type(S, n->lhs, TY_LONG);
			want_var_type(S, n->rhs, TY_LONG);
		} else if (n->op == OP_CONCAT) {
			want_var_type(S, n->lhs, TY_STRING);
			want_var_type(S, n->rhs, TY_STRING);
		}
		return binary(S, n);
	case ND_UNARY:
		if (n->op >= OP_PREINC) {
			sym = lvalue(S, n->lhs, true);
			if (sym)
				unify(S, &sym->type, &sym->type_loc, TY_LONG, &n->loc,
				      arena_printf(&S->s->arena, "'%s'", sym->name));
			return n->type = TY_LONG;
		}
		want_var_type(S, n->lhs, TY_LONG);
		expect_type(S, n->lhs, TY_LONG,
			    arena_printf(&S->s->arena, "the operand of '%s'", op_names[n->op]));
		return n->type = TY_LONG;
	case ND_TERNARY: {
		enum type a, b;

		/* Nested: "@defined(a) ? a : @defined(b) ? b : c" (@choose_defined). */
		while (n->kind == ND_TERNARY && fold_defined(S, n))
			;
		if (n->kind != ND_TERNARY)
			return expr(S, n);

		expect_type(S, n->cond, TY_LONG, "the condition");
		a = expr(S, n->then);
		b = expr(S, n->els);
		if (a == TY_UNKNOWN)
			want_var_type(S, n->then, b);
		if (b == TY_UNKNOWN)
			want_var_type(S, n->els, a);
		if (S->final && a != b)
			diag_error(S->s, &n->loc,
				   "the two branches of '?:' have different types (%s and %s)",
				   type_name(a), type_name(b));
		return n->type = a;
	}
	case ND_AUTOCAST:
		return autocast(S, n, false);
	case ND_INDEX:
		sym = resolve_array(S, n->str, &n->loc, n);
		if (!sym)
			return TY_UNKNOWN;
		sym->read = true;
		index_keys(S, sym, n->args, &n->loc);
		if (sym->type == TY_STATS && S->final)
			stats_as_value(S, sym->name, true, &n->loc);
		return n->type = sym->type;
	case ND_IN:
		return in_expr(S, n);
	case ND_STATOP:
		return statop(S, n);
	case ND_HIST:
		return hist(S, n);
	case ND_PUSH:
		return push(S, n);
	case ND_TARGET:
	case ND_CAST:
	case ND_ATVAR:
	case ND_ENTRY:
	case ND_DEFINED:
		return target_expr(S, n, false);
	default:
		return TY_UNKNOWN;
	}
}

/* foreach ([k1, k2] in a- limit n), foreach (v = [k] in a), foreach (k in a) */
static void foreach_stmt(struct sem *S, struct node *n)
{
	struct symbol *sym = resolve_array(S, n->array->str, &n->array->loc, n);
	struct node *k;
	int i = 0, nkeys = 0;

	for (k = n->keys; k; k = k->next)
		nkeys++;
	if (sym) {
		sym->read = true;
		sym->sorted = sym->sorted || n->sort_key;
		n->array->sym = sym;
		if (!sym->arity) {
			sym->arity = nkeys;
			S->changed = true;
		} else if (sym->arity != nkeys && S->final) {
			diag_error(S->s, &n->array->loc,
				   "foreach has %d key variable%s but array '%s' has %d index%s",
				   nkeys, nkeys == 1 ? "" : "s", sym->name, sym->arity,
				   sym->arity == 1 ? "" : "es");
		}
		for (k = n->keys; k && i < 9; k = k->next, i++) {
			struct symbol *v = resolve_var(S, k);

			if (v->kind == SYM_GLOBAL) {
				if (S->final)
					diag_error(S->s, &k->loc,
						   "foreach key variable '%s' must be local, not global",
						   v->name);
				continue;
			}
			v->written = true;
			unify(S, &v->type, &v->type_loc, sym->key_types[i], &n->array->loc,
			      arena_printf(&S->s->arena, "variable '%s'", v->name));
			unify(S, (enum type *)&sym->key_types[i], NULL, v->type, &k->loc,
			      arena_printf(&S->s->arena, "index %d of array '%s'", i + 1, sym->name));
			k->type = v->type;
		}
		if (n->value) {
			struct symbol *v = resolve_var(S, n->value);

			v->written = true;
			if (sym->type == TY_STATS) {
				if (S->final)
					diag_error(S->s, &n->value->loc,
						   "the value of statistics array '%s' cannot be bound; "
						   "use @count(%s[...]) and the like", sym->name, sym->name);
			} else {
				unify(S, &v->type, &v->type_loc, sym->type, &n->array->loc,
				      arena_printf(&S->s->arena, "variable '%s'", v->name));
				unify(S, &sym->type, &sym->type_loc, v->type, &n->value->loc,
				      arena_printf(&S->s->arena, "array '%s'", sym->name));
			}
			n->value->type = v->type;
		}
		if (n->sort_stat && sym->type != TY_STATS && S->final)
			diag_error(S->s, &n->array->loc,
				   "sorting by @%s needs a statistics array", n->sort_stat);
	}
	if (n->limit) {
		want_var_type(S, n->limit, TY_LONG);
		expect_type(S, n->limit, TY_LONG, "the limit");
	}
	S->loop_depth++;
	if (sym)
		vec_push(&S->iterating, sym);
	stmt(S, n->body);
	if (sym)
		S->iterating.len--;
	S->loop_depth--;
}

/* delete a[k], delete a (every element), delete x (back to 0 or "") */
static void delete_stmt(struct sem *S, struct node *n)
{
	struct node *t = n->lhs;
	struct symbol *sym;

	if (t->kind == ND_VAR) {
		sym = resolve_var(S, t);
		if (sym->kind == SYM_GLOBAL && (sym->is_array || sym->global->is_array)) {
			resolve_array(S, t->str, &t->loc, t);
			check_not_iterating(S, sym, &t->loc);
		}
		sym->written = true;
		/* SystemTap keeps stores to a local it deletes (dead stores). */
		if (sym->kind != SYM_GLOBAL)
			sym->read = true;
		t->type = sym->type;
		return;
	}
	if (t->kind == ND_INDEX) {
		sym = lvalue(S, t, false);
		if (sym)
			t->type = sym->type;
		return;
	}
	expr(S, t);
	if (S->final)
		diag_error(S->s, &t->loc, "delete takes a variable, an array or an array element");
}

static void stmt_list(struct sem *S, struct node *n)
{
	for (; n; n = n->next)
		stmt(S, n);
}

static void stmt(struct sem *S, struct node *n)
{
	switch (n->kind) {
	case ND_BLOCK:
		stmt_list(S, n->body);
		break;
	case ND_EXPR_STMT:
		expr(S, n->lhs);
		break;
	case ND_NULL_STMT:
		break;
	case ND_IF:
		while (n->kind == ND_IF && fold_defined(S, n))
			;
		if (n->kind != ND_IF) {
			stmt(S, n);
			break;
		}
		want_var_type(S, n->cond, TY_LONG);
		expect_type(S, n->cond, TY_LONG, "the condition");
		stmt(S, n->then);
		if (n->els)
			stmt(S, n->els);
		break;
	case ND_WHILE:
	case ND_FOR:
		if (n->init)
			expr(S, n->init);
		if (n->cond) {
			want_var_type(S, n->cond, TY_LONG);
			expect_type(S, n->cond, TY_LONG, "the condition");
		}
		if (n->step)
			expr(S, n->step);
		S->loop_depth++;
		stmt(S, n->body);
		S->loop_depth--;
		break;
	case ND_BREAK:
	case ND_CONTINUE:
		if (!S->loop_depth && S->final)
			diag_error(S->s, &n->loc, "'%s' outside of a loop",
				   n->kind == ND_BREAK ? "break" : "continue");
		break;
	case ND_NEXT:
		if (S->func && S->final)
			diag_error(S->s, &n->loc, "'next' is only allowed in a probe body");
		break;
	case ND_RETURN:
		if (!S->func) {
			if (S->final)
				diag_error(S->s, &n->loc,
					   "'return' outside of a function: use 'next' to leave a probe");
			break;
		}
		if (n->lhs) {
			enum type t = expr(S, n->lhs);

			S->func->returns_value = true;

			if (t == TY_UNKNOWN)
				want_var_type(S, n->lhs, S->func->type);
			unify(S, &S->func->type, NULL, t, &n->lhs->loc,
			      arena_printf(&S->s->arena, "the value %s() returns", S->func->name));
			carry(S, &S->func->ct, ctype_of(S, n->lhs), &n->lhs->loc);
		}
		break;
	case ND_FOREACH:
		foreach_stmt(S, n);
		break;
	case ND_DELETE:
		delete_stmt(S, n);
		break;
	case ND_TRY:
		stmt(S, n->body);
		if (n->catch_var) {
			struct symbol *sym = resolve_var(S, n->catch_var);

			sym->written = true;
			unify(S, &sym->type, &sym->type_loc, TY_STRING, &n->catch_var->loc,
			      arena_printf(&S->s->arena, "variable '%s'", sym->name));
			n->catch_var->type = TY_STRING;
		}
		stmt(S, n->els);
		break;
	default:
		break;
	}
}

static void add_globals(struct sem *S, struct program *prog)
{
	struct global *g;

	for (g = prog->globals; g; g = g->next) {
		struct chain *same = strmap_get(&S->global_names, g->name);
		struct symbol *old = same ? same->item : NULL, *sym;

		/* Private names of different files do not collide. */
		if (old && (g->is_private || old->global->is_private) &&
		    g->file != old->global->file)
			old = NULL;

		if (old) {
			if (g->file->is_tapset && !old->global->file->is_tapset)
				continue;
			diag_error(S->s, &g->loc, "global '%s' is declared twice", g->name);
			diag_note(S->s, &old->decl, "first declared here");
			continue;
		}
		sym = new_symbol(S, SYM_GLOBAL, g->name, &g->loc);
		sym->global = g;
		sym->id = S->globals.len;
		sym->cname = g->is_private ?
			arena_printf(&S->s->arena, "%s__%d", g->name, sym->id) : g->name;
		g->sym = sym;
		if (g->init) {
			sym->type = g->init->kind == ND_STR ? TY_STRING : TY_LONG;
			sym->type_loc = g->init->loc;
		}
		vec_push(&S->globals, sym);
		chain_add(S, &S->global_names, g->name, sym, -1);
	}
}

static void add_funcs(struct sem *S, struct program *prog)
{
	struct func *f;

	for (f = prog->funcs; f; f = f->next) {
		/* Overloads by arity are distinct functions. */
		struct func *old = find_func(S, f->name, f->nparams);
		struct param *p;

		if (old && (f->is_private || old->is_private) && f->file != old->file)
			old = NULL;
		if (old) {
			/* A script's own function overrides the library's. */
			if (f->file->is_tapset && !old->file->is_tapset)
				continue;
			diag_error(S->s, &f->loc, "function '%s' is defined twice", f->name);
			diag_note(S->s, &old->loc, "first defined here");
			continue;
		}
		if (find_builtin(f->name)) {
			diag_error(S->s, &f->loc,
				   "function '%s' has the name of a built-in function", f->name);
			continue;
		}
		for (p = f->params; p; p = p->next) {
			if (find_in(&f->locals, p->name)) {
				diag_error(S->s, &p->loc, "parameter '%s' is declared twice", p->name);
				continue;
			}
			p->sym = new_symbol(S, SYM_PARAM, p->name, &p->loc);
			p->sym->type = p->type;
			p->sym->type_loc = p->loc;
			p->sym->written = true;
			p->sym->id = f->locals.len;
			vec_push(&f->locals, p->sym);
		}
		f->id = S->funcs.len;
		vec_push(&S->funcs, f);
		chain_add(S, &S->func_names, f->name, f, -1);
	}
}

static bool is_glob(const char *name)
{
	return strpbrk(name, "*?[") != NULL;
}

/*
 * Aliases are filed under their first component as written: a wildcard
 * in an alias's name is a literal character, as in SystemTap 4.8 (alias
 * m* is named by "m*" and by a pattern such as "*", never by "mine").
 */
static void add_aliases(struct sem *S, struct program *prog)
{
	for (struct probe *a = prog->aliases; a; a = a->next) {
		for (struct probe_point *nm = a->alias_names; nm; nm = nm->next)
			chain_add(S, &S->alias_first, nm->comps->name, a, S->aliases.len);
		vec_push(&S->aliases, a);
	}
}

/*
 * The aliases that may match pt, in definition order: those filed under
 * its first component; every alias if that component is a wildcard.
 */
static void alias_candidates(struct sem *S, const struct probe_point *pt, struct vec *out)
{
	if (pt->comps)
		lib_need(S, 'a', pt->comps->name);
	if (!pt->comps || is_glob(pt->comps->name)) {
		for (int i = 0; i < S->aliases.len; i++)
			vec_push(out, S->aliases.items[i]);
		return;
	}
	for (const struct chain *x = strmap_get(&S->alias_first, pt->comps->name); x; x = x->next)
		vec_push(out, x->item);
}

/*
 * Load the parts of the generated system call library (syscalls.c) not
 * yet in the session: their aliases and functions.  0, or -1 after a
 * message at loc (the parts may be asked for again).
 */
static int load_syscalls(struct sem *S, const struct srcloc *loc, int parts)
{
	struct program *p;

	parts &= ~S->sc_parts;
	S->sc_tried |= parts;
	if (!parts)
		return 0;
	p = arena_alloc(&S->s->arena, sizeof(*p));
	if (sc_tapset_parts(S->s, loc, p, parts) < 0)
		return -1;
	S->sc_parts |= parts;
	vec_push(&S->s->tapset_files, p);
	add_funcs(S, p);
	add_aliases(S, p);
	return 0;
}

static int cmp_priority(const void *a, const void *b)
{
	const struct resolved_probe *x = *(void *const *)a, *y = *(void *const *)b;

	if (x->priority != y->priority)
		return x->priority < y->priority ? -1 : 1;
	return x->id - y->id;
}

/*
 * Does use name the alias name (use's wildcards match the name's
 * components, which are literal)?  With suffix, name may match only the
 * first components of use: *suffix is then the rest ("miscellany.return"
 * of alias miscellany: ".return"), which goes on each of its locations.
 */
static bool alias_matches(const struct probe_point *use, const struct probe_point *name,
			  struct pp_comp **suffix)
{
	struct pp_comp *u = use->comps;
	const struct pp_comp *a = name->comps;

	for (; u && a; u = u->next, a = a->next) {
		if (fnmatch(u->name, a->name, 0))
			return false;
		if (!u->arg != !a->arg)
			return false;
		if (u->arg) {
			struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
			bool same;

			ast_print_expr(&x, u->arg);
			ast_print_expr(&y, a->arg);
			same = !strcmp(sb_str(&x), sb_str(&y));
			sb_free(&x);
			sb_free(&y);
			if (!same)
				return false;
		}
	}
	if (suffix && u && !a) {
		*suffix = u;
		return true;
	}
	return !u && !a;
}

/* q with the components of suffix after its own (alias suffixes). */
static struct probe_point *with_suffix(struct sem *S, const struct probe_point *q,
				       const struct pp_comp *suffix)
{
	struct probe_point *p = arena_alloc(&S->s->arena, sizeof(*p));
	struct pp_comp **tail = &p->comps;
	const struct pp_comp *lists[2] = { q->comps, suffix }, *c;

	*p = *q;
	p->next = NULL;
	for (int i = 0; i < 2; i++)
		for (c = lists[i]; c; c = c->next) {
			*tail = arena_alloc(&S->s->arena, sizeof(**tail));
			**tail = *c;
			(*tail)->next = NULL;
			tail = &(*tail)->next;
		}
	return p;
}

/* { first; second } as a new block, for alias prologues and epilogues. */
static struct node *join_blocks(struct sem *S, struct node *first, struct node *second)
{
	struct node *b = arena_alloc(&S->s->arena, sizeof(*b));
	struct node *x = arena_alloc(&S->s->arena, sizeof(*x));
	struct node *y = arena_alloc(&S->s->arena, sizeof(*y));

	*x = *first;
	*y = *second;
	x->next = y;
	y->next = NULL;
	b->kind = ND_BLOCK;
	b->loc = first->loc;
	b->body = x;
	return b;
}

/* "probe x if (cond)": the hit does nothing unless cond holds. */
static struct node *guard(struct sem *S, struct node *cond)
{
	struct node *n = arena_alloc(&S->s->arena, sizeof(*n));
	struct node *not = arena_alloc(&S->s->arena, sizeof(*not));
	struct node *next = arena_alloc(&S->s->arena, sizeof(*next));

	not->kind = ND_UNARY;
	not->op = OP_NOT;
	not->loc = cond->loc;
	not->lhs = cond;
	next->kind = ND_NEXT;
	next->loc = cond->loc;
	n->kind = ND_IF;
	n->loc = cond->loc;
	n->cond = not;
	n->then = next;
	return n;
}

/* The handler that runs body for user probe pr: one per distinct body. */
static struct probe *handler_for(struct sem *S, struct probe *pr, struct node *body)
{
	struct session *s = S->s;
	struct probe *h;

	for (int i = 0; i < s->handlers.len; i++) {
		h = s->handlers.items[i];
		if (h->body == body)
			return h;
	}
	if (body == pr->body) {
		h = pr;
	} else {
		h = arena_alloc(&s->arena, sizeof(*h));
		*h = *pr;
		memset(&h->locals, 0, sizeof(h->locals));
		h->body = body;
	}
	h->id = s->handlers.len;
	vec_push(&s->handlers, h);
	return h;
}

static bool uses_targets(const struct node *n)
{
	for (; n; n = n->next) {
		if (n->kind == ND_TARGET || n->kind == ND_ENTRY || n->kind == ND_DEFINED)
			return true;
		if (uses_targets(n->lhs) || uses_targets(n->rhs) || uses_targets(n->cond) ||
		    uses_targets(n->then) || uses_targets(n->els) || uses_targets(n->init) ||
		    uses_targets(n->step) || uses_targets(n->body) || uses_targets(n->args) ||
		    uses_targets(n->keys) || uses_targets(n->value) || uses_targets(n->limit))
			return true;
		for (const struct member *m = n->members; m; m = m->next)
			if (uses_targets(m->index))
				return true;
	}
	return false;
}

/*
 * Give resolved probe rp its handler.  Probes of families with target
 * variables whose body reads some get a copy of the body of their own:
 * the same $x lives in different places at different addresses.  So do
 * those of families that rewrite bodies (procfs's $value).
 */
static void bind_handler(struct sem *S, struct probe *pr, struct resolved_probe *rp,
			 struct node *body)
{
	const struct probe_family *f = rp->family;

	/* A body of its own only where it reads the context ($var, $value). */
	if ((f->rewrite_body || f->tv_scope) && uses_targets(body)) {
		struct probe *h = arena_alloc(&S->s->arena, sizeof(*h));

		*h = *pr;
		memset(&h->locals, 0, sizeof(h->locals));
		h->body = ast_clone(&S->s->arena, body);
		if (f->rewrite_body)
			h->body = f->rewrite_body(S->s, rp, h->body);
		if (f->tv_scope)
			h->tv_rp = rp;
		h->id = S->s->handlers.len;
		vec_push(&S->s->handlers, h);
		rp->probe = h;
		rp->body = h->body;
		return;
	}
	rp->probe = handler_for(S, pr, body);
	rp->body = body;
}

static void no_such_probe(struct sem *S, struct probe_point *pt)
{
	struct session *s = S->s;
	const char *text = pf_point_text(s, pt);
	struct vec names = VEC_INIT;
	int k;

	diag_error(s, &pt->loc, "unknown probe point '%s'", text);
	/* The whole point against every alias name and family. */
	for (k = 0; k < pf_nfamilies; k++)
		vec_push(&names, (void *)pf_families[k]->name);
	pf_form_texts(s, pt, &names);
	for (k = 0; k < S->aliases.len; k++) {
		struct probe *a = S->aliases.items[k];

		for (struct probe_point *nm = a->alias_names; nm; nm = nm->next)
			vec_push(&names, pf_point_text(s, nm));
	}
	const char *near = diag_closest(text, (const char **)names.items, names.len);

	vec_free(&names);
	if (near)
		diag_hint(s, "did you mean '%s'?", near);
	else
		diag_hint(s, "stap -l 'PATTERN' lists probe points: kernel.function(\"*\"), "
			  "syscall.*, kernel.trace(\"*\"); other families: begin, end, error, "
			  "never, timer, kernel.statement, kprobe");
}

/*
 * Resolve one point of user probe pr, whose handler runs body.  A point
 * naming aliases expands to their points with the prologue/epilogue
 * joined to body; otherwise a probe family claims it.  Returns the
 * number of probes it became.
 */
static int resolve_point(struct sem *S, struct probe *pr, struct probe_point *pt,
			 struct node *body, int depth);
static bool has_glob_name(const struct probe_point *pt);
static int resolve_family(struct sem *S, struct probe *pr, struct probe_point *pt,
			  struct node *body);

/*
 * The probes of alias a, which pt names as name (then suffix): each of
 * its locations, with a copy of its body joined to the user's.  Their
 * number, or -1 after an error.
 */
static int use_alias(struct sem *S, struct probe *pr, struct probe_point *pt,
		     struct probe *a, struct probe_point *name,
		     const struct pp_comp *suffix, struct node *body, int depth)
{
	struct session *s = S->s;
	/* A copy of the alias's body for each use: pass 2 binds its
	 * variables to the locals of the using probe. */
	struct node *ab = ast_clone(&s->arena, a->body);
	struct node *b = a->alias_epilogue ? join_blocks(S, body, ab) :
		join_blocks(S, ab, body);
	int here = 0;

	/* pn() is the alias as the script names it, wildcards resolved. */
	if (depth == 0) {
		S->pn = pf_point_text(s, name);
		if (suffix) {
			struct probe_point sp = { .comps = (struct pp_comp *)suffix };

			S->pn = arena_printf(&s->arena, "%s.%s", S->pn, pf_point_text(s, &sp));
		}
	}

	for (struct probe_point *q = a->points; q; q = q->next) {
		struct probe_point *qs = suffix ? with_suffix(S, q, suffix) : q;
		int n = resolve_point(S, pr, qs, b, depth + 1);

		/* Not in the library's index: every file, and again. */
		if (n == 0 && !q->optional && lib_need(S, 0, NULL))
			n = resolve_point(S, pr, qs, b, depth + 1);

		if (n < 0)
			return -1;
		if (n == 0 && !q->optional) {
			no_such_probe(S, q);
			return -1;
		}
		here += n;
		/* "!": the first location the kernel has is enough. */
		if (n > 0 && q->sufficient)
			break;
	}
	/* Every location optional and none here: not on this kernel. */
	if (!here && !pt->optional && !strchr(pf_point_text(s, pt), '*')) {
		struct strbuf where = STRBUF_INIT;

		for (struct probe_point *q = a->points; q; q = q->next)
			sb_printf(&where, "%s%s", q == a->points ? "" : ", ",
				  pf_point_text(s, q));
		diag_error(s, &pt->loc, "probe alias '%s' has no location on kernel %s: "
			   "none of %s", pf_point_text(s, name), s->release,
			   sb_str(&where));
		diag_hint(s, "add '?' after the point to skip it where it is missing");
		sb_free(&where);
		return -1;
	}
	return here;
}

static int resolve_point(struct sem *S, struct probe *pr, struct probe_point *pt,
			 struct node *body, int depth)
{
	struct session *s = S->s;
	struct vec cands = VEC_INIT;
	int matched = 0, named = 0, first_glob, i;

	if (depth > 16) {
		diag_error(s, &pt->loc, "probe alias expansion is too deep (a loop of aliases?)");
		return -1;
	}
	if (depth == 0)
		S->pn = NULL;	/* not an alias, unless use_alias says */
	/*
	 * The system call aliases exist once a point asks for them; one
	 * whose first component is a wildcard (*.profile) may not mean them:
	 * then a kernel without them (no DWARF) is no error.
	 */
	first_glob = pt->comps && is_glob(pt->comps->name);
	if (pt->comps && sc_wanted(pt->comps->name) && (sc_parts(pt) & ~S->sc_parts)) {
		int r;

		/* On failure, a later syscall.NAME says why. */
		s->diag_quiet += first_glob;
		r = load_syscalls(S, &pt->loc, sc_parts(pt));
		s->diag_quiet -= first_glob;
		if (r < 0 && !first_glob)
			return -1;
	}
	alias_candidates(S, pt, &cands);
	/*
	 * Whole names first; an alias suffix only where none matches, and
	 * only after a first component written out (*.profile is not every
	 * one-component alias with .profile after it).  An alias named whole
	 * that has no location here (all optional) is not then taken for
	 * another with a suffix: x.return's own alias, not x's with .return.
	 */
	for (int round = 0; round < 2 - first_glob && !matched && !named; round++) {
		for (i = 0; i < cands.len; i++) {
			struct probe *a = cands.items[i];
			struct probe_point *name;
			struct pp_comp *suffix = NULL;
			int here;

			for (name = a->alias_names; name; name = name->next)
				if (alias_matches(pt, name, round ? &suffix : NULL))
					break;
			if (!name)
				continue;
			named |= !round;
			here = use_alias(S, pr, pt, a, name, suffix, body, depth);
			if (here < 0) {
				vec_free(&cands);
				return -1;
			}
			matched += here;
		}
	}
	vec_free(&cands);
	/*
	 * A wildcard stands for every alias and every family form it
	 * matches (process.* is process.begin, process.end, ...); a plain
	 * name for an alias, else for what a family makes of it.
	 */
	if (has_glob_name(pt)) {
		struct vec forms = VEC_INIT;

		pf_form_points(s, pt, &forms);
		for (i = 0; i < forms.len; i++) {
			int n = resolve_family(S, pr, forms.items[i], body);

			if (n < 0) {
				vec_free(&forms);
				return -1;
			}
			matched += n;
		}
		vec_free(&forms);
		return matched;
	}
	return matched || named ? matched : resolve_family(S, pr, pt, body);
}

static bool has_glob_name(const struct probe_point *pt)
{
	for (const struct pp_comp *c = pt->comps; c; c = c->next)
		if (is_glob(c->name))
			return true;
	return false;
}

/* Point pt as the family that claims it sees it; as resolve_point. */
static int resolve_family(struct sem *S, struct probe *pr, struct probe_point *pt,
			  struct node *body)
{
	struct session *s = S->s;
	int i, r = 0;
	struct resolved_probe *rp = arena_alloc(&s->arena, sizeof(*rp));

	rp->point = pt;
	rp->pn = S->pn;
	rp->id = s->probes.len;
	for (i = 0; i < pf_nfamilies && !r; i++) {
		r = pf_families[i]->resolve(s, pt, rp);
		if (r == 1)
			rp->family = pf_families[i];
	}
	if (r <= 0)
		return r;
	if (pt->cond)
		body = join_blocks(S, guard(S, pt->cond), body);
	if (!rp->family->expand) {
		bind_handler(S, pr, rp, body);
		vec_push(&s->probes, rp);
		return 1;
	}
	/* One probe per match, all running the same handler. */
	struct vec more = VEC_INIT;
	int n = rp->family->expand(s, rp, &more);

	for (i = 0; i < more.len; i++) {
		struct resolved_probe *x = more.items[i];

		x->family = rp->family;
		x->point = pt;
		/* An alias's name, else the family's (a callee's path from its caller). */
		if (S->pn)
			x->pn = S->pn;
		/* SystemTap's pn() names a label probe's label, its pp() does not. */
		if (!x->pn && x->label)
			x->pn = arena_printf(&s->arena, "%s.label(\"%s\")", x->pp, x->label);
		x->priority = rp->priority;
		x->id = s->probes.len;
		bind_handler(S, pr, x, body);
		vec_push(&s->probes, x);
	}
	vec_free(&more);
	/* 0: an optional point that matched nothing, dropped by the caller. */
	return n < 0 ? -1 : n;
}

static void resolve_probes(struct sem *S, struct program *prog)
{
	struct probe *pr;

	for (pr = prog->probes; pr; pr = pr->next) {
		struct probe_point *pt;

		for (pt = pr->points; pt; pt = pt->next) {
			int n = resolve_point(S, pr, pt, pr->body, 0);

			/* Not in the library's index: every file, and again. */
			if (n == 0 && !pt->optional && lib_need(S, 0, NULL))
				n = resolve_point(S, pr, pt, pr->body, 0);
			if (n == 0 && !pt->optional)
				no_such_probe(S, pt);
			/* "!": the first point that resolves is enough. */
			if (n > 0 && pt->sufficient)
				break;
		}
	}
}

/*
 * A library file's own probes (argv.stp's begin that fills argv) join
 * the session once the script uses one of the file's globals.  True if
 * some did.
 */
static bool add_tapset_probes(struct sem *S)
{
	bool added = false;

	for (int i = 0; i < S->s->tapset_files.len; i++) {
		struct program *tp = S->s->tapset_files.items[i];
		struct global *g;

		if (!tp->probes || tp->probes_in)
			continue;
		for (g = tp->globals; g; g = g->next)
			if (g->sym && (g->sym->read || g->sym->written))
				break;
		if (!g)
			continue;
		tp->probes_in = true;
		resolve_probes(S, tp);
		added = true;
	}
	return added;
}

static void sort_probes(struct session *s)
{
	if (s->probes.len)	/* qsort(NULL, 0, ...) is undefined */
		qsort(s->probes.items, (size_t)s->probes.len, sizeof(void *), cmp_priority);
}

/* As SystemTap, a local read but never assigned is a warning: it is 0 or "". */
static void warn_unassigned(struct sem *S)
{
	for (int i = 0; S->final && i < S->locals->len; i++) {
		const struct symbol *sym = S->locals->items[i];

		if (sym->kind == SYM_LOCAL && sym->read && !sym->written &&
		    !sym->unassigned_reported &&
		    (sym->type == TY_LONG || sym->type == TY_STRING))
			diag_warn(S->s, &sym->decl, "variable '%s' is never assigned: it reads as %s",
				  sym->name, sym->type == TY_STRING ? "\"\"" : "0");
	}
}

/* -G NAME=... sets the global from the command line. */
static bool set_by_option(const struct session *s, const char *name)
{
	size_t n = strlen(name);

	for (int i = 0; i < s->gvars.len; i++) {
		const char *arg = s->gvars.items[i];

		if (!strncmp(arg, name, n) && arg[n] == '=')
			return true;
	}
	return false;
}

/*
 * As SystemTap, a global that is read but never assigned (no assignment,
 * initialiser, delete, <<< or -G in the probes and functions in use) is a
 * warning, in -I tapsets too: it is likely a misspelt name.  As in 4.8, a
 * sorted foreach counts as an assignment, so an array only an optional
 * probe fills is not warned of when it is printed in order.  4.8 lists
 * every global as "similar"; the nearest assigned one, if close, is
 * offered instead.
 */
/*
 * A global of the installed library that a script's choice of functions
 * leaves unassigned (json.stp's array bookkeeping in a script with no
 * json_add_array) is the library's business: 4.8 says nothing of it and
 * the user cannot act on it.  -I tapsets are the user's own code.
 */
static bool in_stock_library(const struct session *s, const struct srcfile *f)
{
	size_t n = strlen(s->tapset_dir);

	return f->is_tapset && !strncmp(f->name, s->tapset_dir, n) && f->name[n] == '/';
}

static void warn_unassigned_globals(struct sem *S)
{
	const char **names = xcalloc((size_t)S->globals.len + 1, sizeof(*names));
	int i, k = 0;

	for (i = 0; i < S->globals.len; i++) {
		const struct symbol *o = S->globals.items[i];

		if (o->written || o->global->init)
			names[k++] = o->name;
	}
	for (i = 0; i < S->globals.len; i++) {
		const struct symbol *g = S->globals.items[i];

		if (!g->read || g->written || g->sorted || g->global->init ||
		    set_by_option(S->s, g->name) || in_stock_library(S->s, g->global->file))
			continue;
		if (g->is_array || g->type == TY_STATS)
			diag_warn(S->s, &g->decl, "global %s '%s' is never assigned: "
				  "it is always empty",
				  g->is_array ? "array" : "aggregate", g->name);
		else if (g->type == TY_UNKNOWN)
			diag_warn(S->s, &g->decl, "global variable '%s' is never assigned",
				  g->name);
		else
			diag_warn(S->s, &g->decl, "global variable '%s' is never assigned: "
				  "it reads as %s", g->name, g->type == TY_STRING ? "\"\"" : "0");
		const char *near = diag_closest(g->name, names, k);

		if (near)
			diag_hint(S->s, "did you mean '%s'?", near);
	}
	free(names);
}

static void check_bodies(struct sem *S)
{
	struct session *s = S->s;
	/* Each handler's first probe (a handler's id is its index). */
	int nfirst = s->handlers.len, i;
	struct resolved_probe **first = xcalloc((size_t)nfirst + 1, sizeof(*first));

	for (i = s->probes.len - 1; i >= 0; i--) {
		struct resolved_probe *rp = s->probes.items[i];
		int id = rp->probe->id;

		if (id >= 0 && id < nfirst && s->handlers.items[id] == rp->probe)
			first[id] = rp;
	}
	for (i = 0; i < s->handlers.len; i++) {
		struct probe *pr = s->handlers.items[i];

		S->locals = &pr->locals;
		S->func = NULL;
		S->rp = pr->tv_rp ? pr->tv_rp : i < nfirst ? first[i] : NULL;
		stmt(S, pr->body);
		warn_unassigned(S);
		S->rp = NULL;
	}
	free(first);
	for (i = 0; i < S->funcs.len; i++) {
		struct func *f = S->funcs.items[i];

		if (!f->used)
			continue;
		S->locals = &f->locals;
		S->func = f;
		if (f->body->kind == ND_BLOCK) {
			stmt(S, f->body);
			warn_unassigned(S);
		}
	}
}

int sem_elaborate(struct session *s)
{
	struct sem S = { .s = s };
	int pass, i;

	if (desugar_program(s, &s->user) < 0)
		return -1;
	for (i = 0; i < s->tapset_files.len; i++)
		if (desugar_program(s, s->tapset_files.items[i]) < 0)
			return -1;

	add_globals(&S, &s->user);
	add_funcs(&S, &s->user);
	for (i = 0; i < s->tapset_files.len; i++) {
		struct program *tp = s->tapset_files.items[i];

		add_globals(&S, tp);
		add_funcs(&S, tp);
	}
	add_aliases(&S, &s->user);
	for (i = 0; i < s->tapset_files.len; i++)
		add_aliases(&S, s->tapset_files.items[i]);
	resolve_probes(&S, &s->user);
	sort_probes(s);
	if (s->errors)
		goto out;
	if (!s->probes.len) {
		diag_error(s, NULL, "no probes found");
		goto out;
	}
	do {
		for (pass = 0; pass < 50; pass++) {
			S.changed = false;
			check_bodies(&S);
			if (!S.changed)
				break;
		}
	} while (add_tapset_probes(&S) && !s->errors);
	sort_probes(s);
	if (s->errors)
		goto out;
	S.final = true;
	check_bodies(&S);
	warn_unassigned_globals(&S);
	for (i = 0; i < S.globals.len; i++) {
		struct symbol *g = S.globals.items[i];

		if (g->type == TY_UNKNOWN && !g->global->is_array && (g->read || g->written))
			diag_error(s, &g->decl, "cannot infer the type of global '%s'", g->name);
		if (g->global->wrap && !g->arity && (g->read || g->written)) {
			diag_error(s, &g->decl, "global '%s' is declared to wrap around ('%%') "
				   "but is not an array", g->name);
			diag_hint(s, "'%%' lets a full array drop its oldest element: "
				  "use it on arrays only");
		}
		/* Unused globals and functions go silently, as in SystemTap. */
		if (g->read || g->written)
			vec_push(&s->globals, g);
		else if (!g->global->file->is_tapset && s->verbose >= 2)
			diag_note(s, &g->decl, "eliding unused global '%s'", g->name);
	}
	for (i = 0; i < S.funcs.len; i++) {
		struct func *f = S.funcs.items[i];

		if (!f->used) {
			if (!f->file->is_tapset && s->verbose >= 2)
				diag_note(s, &f->loc, "eliding unused function '%s'", f->name);
			continue;
		}
		if (f->type == TY_UNKNOWN)
			f->type = TY_VOID;
		vec_push(&s->funcs, f);
	}
	if (!s->errors && !s->unoptimized)
		elide_dead_stores(s);
	if (!s->errors)
		elide_find_value_reads(s);
out:
	vec_free(&S.globals);
	vec_free(&S.funcs);
	vec_free(&S.aliases);
	strmap_free(&S.global_names);
	strmap_free(&S.func_names);
	strmap_free(&S.alias_first);
	vec_free(&S.iterating);
	return s->errors ? -1 : 0;
}

static void print_locals(struct strbuf *sb, struct vec *v)
{
	int i;

	for (i = 0; i < v->len; i++) {
		struct symbol *sym = v->items[i];

		if (sym->kind == SYM_LOCAL)
			sb_printf(sb, "  local %s:%s\n", sym->name, type_name(sym->type));
	}
}

void sem_print(struct session *s, struct strbuf *sb)
{
	int i;

	if (s->globals.len)
		sb_puts(sb, "# globals\n");
	for (i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];

		sb_printf(sb, "%s:%s\n", g->name, type_name(g->type));
	}
	if (s->funcs.len)
		sb_puts(sb, "# functions\n");
	for (i = 0; i < s->funcs.len; i++) {
		struct func *f = s->funcs.items[i];
		struct param *p;

		sb_printf(sb, "%s:%s (", f->name, type_name(f->type));
		for (p = f->params; p; p = p->next)
			sb_printf(sb, "%s:%s%s", p->name, type_name(p->sym->type),
				  p->next ? ", " : "");
		sb_puts(sb, ")\n");
		print_locals(sb, &f->locals);
	}
	sb_puts(sb, "# probes\n");
	for (i = 0; i < s->probes.len; i++) {
		struct resolved_probe *rp = s->probes.items[i];

		sb_printf(sb, "%s /* <- %s:%d:%d */\n", rp->pp,
			  rp->point->loc.file->name, rp->point->loc.line,
			  rp->point->loc.col);
		print_locals(sb, &rp->probe->locals);
	}
}
