// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 3, data side: globals, associative arrays, statistics, foreach,
 * delete, and the lock list each probe takes.  Arrays and statistics live
 * in the runtime (runtime/stp_map.h); this file emits the calls.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit.h"

static const char *const stat_ops[] = {
	"count", "sum", "min", "max", "avg", "variance",
};

/* In step with enum stp_stat_op in runtime/stp_map.h. */
static const char *const stat_op_names[] = {
	"STP_STAT_COUNT", "STP_STAT_SUM", "STP_STAT_MIN", "STP_STAT_MAX",
	"STP_STAT_AVG", "STP_STAT_VARIANCE",
};

static const char *stat_op_c(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(stat_ops); i++)
		if (!strcmp(stat_ops[i], name))
			return stat_op_names[i];
	return "STP_STAT_COUNT";
}

const char *emit_global_ref(struct emitter *E, struct symbol *sym)
{
	/* A per-CPU counter is this CPU's slot: see emit_classify_globals. */
	if (sym->pcpu_counter)
		return arena_printf(&E->s->arena, "(*this_cpu_ptr(&g_%s))", sym->cname);
	return arena_printf(&E->s->arena, "g_%s", sym->cname);
}

/* Guarded by one lock per CPU rather than one rwlock (runtime/lock.c). */
static bool pcpu_locked(const struct symbol *g)
{
	return g->type == TY_STATS || g->pcpu_counter;
}

static const char *runtime_type(enum type t)
{
	return t == TY_STRING ? "STP_STRING" : t == TY_STATS ? "STP_STAT" : "STP_LONG";
}

static bool is_map(const struct symbol *sym)
{
	return sym->arity > 0;
}

/*
 * Evaluate n's index list into a frame key array; returns its C name.
 * String keys are pointers: later says whether something evaluated after
 * the keys (an assigned value) may change what they point to.
 */
static const char *keys(struct emitter *E, struct symbol *sym, struct node *args,
			bool later)
{
	const char *vals[9];
	struct node *k;
	int i = 0, id = E->ntemps++;

	for (k = args; k && i < 9; k = k->next)
		vals[i++] = emit_operand(E, k, emit_list_has_effects(k->next) ||
					 (later && k->type == TY_STRING));
	sb_printf(&E->frame, "\tunion stp_key k%d[%d];\n", id, sym->arity);
	for (i = 0, k = args; k && i < 9; k = k->next, i++)
		emit_line(E, "l->k%d[%d].%c = %s;", id, i,
			  sym->key_types[i] == TY_STRING ? 's' : 'l', vals[i]);
	return arena_printf(&E->s->arena, "l->k%d", id);
}

static void overflow_check(struct emitter *E, const char *ret, struct node *n)
{
	emit_line(E, "if (unlikely(%s)) {", ret);
	emit_line(E, "\tc->last_stmt = %s;", emit_where(E, arena_printf(&E->s->arena,
			"identifier '%s'", n->str), &n->loc));
	emit_line(E, "\t_stp_error(c, \"Array overflow, check %s\");",
		  n->sym->global->max_entries ?
		  arena_printf(&E->s->arena, "size limit (%" PRId64 ")",
			       n->sym->global->max_entries) : "MAXMAPENTRIES");
	emit_line(E, "\tgoto %s;", E->err);
	emit_line(E, "}");
}

const char *emit_index_read(struct emitter *E, struct node *n)
{
	const char *k = keys(E, n->sym, n->args, false);
	const char *g = emit_global_ref(E, n->sym);
	const char *t = emit_temp(E, n->sym->type);

	/* Strings are copied: a later store may reuse the element. */
	if (n->sym->type == TY_STRING)
		emit_line(E, "strscpy(%s, _stp_map_get_str(%s, %s), MAXSTRINGLEN);", t, g, k);
	else
		emit_line(E, "%s = _stp_map_get_long(%s, %s);", t, g, k);
	return t;
}

const char *emit_index_assign(struct emitter *E, struct node *n)
{
	struct node *lhs = n->lhs;
	struct symbol *sym = lhs->sym;
	const char *k = keys(E, sym, lhs->args, emit_has_effects(n->rhs));
	const char *g = emit_global_ref(E, sym);
	const char *v = emit_expr(E, n->rhs);
	const char *t, *ret = emit_temp(E, TY_LONG);

	if (n->op == OP_NONE) {
		emit_line(E, "%s = _stp_map_set_%s(%s, %s, %s);", ret,
			  sym->type == TY_STRING ? "str" : "long", g, k, v);
		overflow_check(E, ret, lhs);
		return v;
	}
	if (n->op == OP_ADD || n->op == OP_SUB) {
		t = emit_temp(E, TY_LONG);
		emit_line(E, "%s = _stp_map_add_long(%s, %s, %s(%s), &%s);", ret, g, k,
			  n->op == OP_SUB ? "-" : "", v, t);
		overflow_check(E, ret, lhs);
		return t;
	}
	t = emit_temp(E, sym->type);
	if (n->op == OP_CONCAT) {
		emit_line(E, "strscpy(%s, _stp_map_get_str(%s, %s), MAXSTRINGLEN);", t, g, k);
		emit_line(E, "{ size_t len = strnlen(%s, MAXSTRINGLEN); strscpy(%s + len, %s, MAXSTRINGLEN - len); }",
			  t, t, v);
		emit_line(E, "%s = _stp_map_set_str(%s, %s, %s);", ret, g, k, t);
		overflow_check(E, ret, lhs);
		return t;
	}
	emit_line(E, "%s = _stp_map_get_long(%s, %s);", t, g, k);
	switch (n->op) {
	case OP_DIV:
	case OP_MOD:
		emit_line(E, "%s = stp_%s(c, %s, %s, %s);", t, n->op == OP_DIV ? "div" : "mod",
			  t, v, emit_where(E, emit_token_desc(E, &n->rhs->loc), &n->rhs->loc));
		emit_check_error(E);
		break;
	case OP_SHL:
	case OP_SHR:
		emit_line(E, "%s = stp_%s(%s, %s);", t, n->op == OP_SHL ? "shl" : "shr", t, v);
		break;
	default:
		emit_line(E, "%s %s= %s;", t, op_names[n->op], v);
	}
	emit_line(E, "%s = _stp_map_set_long(%s, %s, %s);", ret, g, k, t);
	overflow_check(E, ret, lhs);
	return t;
}

/* a[k]++ and friends: one add, the old or new value as the result. */
const char *emit_index_crement(struct emitter *E, struct node *n)
{
	struct node *lhs = n->lhs;
	const char *k = keys(E, lhs->sym, lhs->args, false);
	const char *t = emit_temp(E, TY_LONG), *ret = emit_temp(E, TY_LONG);
	bool inc = n->op == OP_PREINC || n->op == OP_POSTINC;
	bool post = n->op == OP_POSTINC || n->op == OP_POSTDEC;

	emit_line(E, "%s = _stp_map_add_long(%s, %s, %d, &%s);", ret,
		  emit_global_ref(E, lhs->sym), k, inc ? 1 : -1, t);
	overflow_check(E, ret, lhs);
	if (post)
		emit_line(E, "%s %s= 1;", t, inc ? "-" : "+");
	return t;
}

const char *emit_push(struct emitter *E, struct node *n)
{
	struct node *lhs = n->lhs;

	if (lhs->kind == ND_VAR) {
		const char *v = emit_expr(E, n->rhs);

		emit_line(E, "_stp_stat_add(%s, %s);", emit_global_ref(E, lhs->sym), v);
		return "0";
	}
	const char *k = keys(E, lhs->sym, lhs->args, emit_has_effects(n->rhs));
	const char *v = emit_expr(E, n->rhs);
	const char *ret = emit_temp(E, TY_LONG);

	emit_line(E, "%s = _stp_map_stat_add(%s, %s, %s);", ret,
		  emit_global_ref(E, lhs->sym), k, v);
	overflow_check(E, ret, lhs);
	return "0";
}

const char *emit_in(struct emitter *E, struct node *n)
{
	const char *k = keys(E, n->sym, n->args, false);
	const char *t = emit_temp(E, TY_LONG);

	emit_line(E, "%s = _stp_map_exists(%s, %s);", t, emit_global_ref(E, n->sym), k);
	return t;
}

/* The aggregate a statistic operand names, as a C expression. */
static const char *stat_of(struct emitter *E, struct node *operand)
{
	const char *g = emit_global_ref(E, operand->sym);

	if (operand->kind == ND_VAR)
		return arena_printf(&E->s->arena, "_stp_stat_get(%s)", g);
	return arena_printf(&E->s->arena, "_stp_map_get_stat(%s, %s)", g,
			    keys(E, operand->sym, operand->args, false));
}

const char *emit_statop(struct emitter *E, struct node *n)
{
	const char *st = stat_of(E, n->args);
	const char *t = emit_temp(E, TY_LONG);
	int64_t shift = n->args->next ? n->args->next->num : 0;

	emit_line(E, "c->last_stmt = %s;", emit_where(E, arena_printf(&E->s->arena,
			"operator '@%s'", n->str), &n->loc));
	emit_line(E, "%s = _stp_stat_extract(c, %s, %s, %" PRId64 ");", t, st,
		  stat_op_c(n->str), shift);
	emit_check_error(E);
	return t;
}

static const char *hist_spec(struct emitter *E, struct symbol *sym)
{
	return arena_printf(&E->s->arena, is_map(sym) ? "&gd_%s.hist" : "&gh_%s", sym->cname);
}

/* print(@hist_*(x)); call names the print, as SystemTap's errors do. */
void emit_print_hist(struct emitter *E, struct node *n, struct node *call)
{
	emit_line(E, "c->last_stmt = %s;", emit_where(E, emit_token_desc(E, &call->loc),
						      &call->loc));
	emit_line(E, "_stp_stat_print_hist(c, %s, %s);", stat_of(E, n->args),
		  hist_spec(E, n->args->sym));
}

void emit_delete(struct emitter *E, struct node *n)
{
	struct node *t = n->lhs;
	struct symbol *sym = t->sym;

	if (t->kind == ND_INDEX) {
		const char *k = keys(E, sym, t->args, false);

		emit_line(E, "_stp_map_delete(%s, %s);", emit_global_ref(E, sym), k);
		return;
	}
	if (sym->kind == SYM_GLOBAL && is_map(sym))
		emit_line(E, "_stp_map_clear(%s);", emit_global_ref(E, sym));
	else if (sym->type == TY_STATS)
		emit_line(E, "_stp_stat_clear(%s);", emit_global_ref(E, sym));
	else if (sym->type == TY_STRING)
		emit_line(E, "%s[0] = '\\0';", sym->kind == SYM_GLOBAL ?
			  emit_global_ref(E, sym) : arena_printf(&E->s->arena, "l->v_%s", sym->name));
	else
		emit_line(E, "%s = 0;", sym->kind == SYM_GLOBAL ? emit_global_ref(E, sym) :
			  arena_printf(&E->s->arena, "l->v_%s", sym->name));
}

static const char *capacity(struct emitter *E, struct symbol *sym)
{
	if (sym->global->max_entries)
		return arena_printf(&E->s->arena, "%" PRId64, sym->global->max_entries);
	return "MAXMAPENTRIES";
}

/*
 * foreach: the runtime sorts the elements into an order array in the
 * frame (so nested walks and other CPUs never share it), then the loop
 * binds the keys and value of each.
 */
void emit_foreach(struct emitter *E, struct node *n)
{
	struct symbol *sym = n->array->sym;
	int id = E->nlabels++, saved_cont = E->cont, i;
	const char *lim = n->limit ? emit_expr(E, n->limit) : "0";
	struct node *k;

	sb_printf(&E->frame, "\tstruct stp_map_entry *order%d[%s];\n\tint64_t n%d, i%d;\n",
		  id, capacity(E, sym), id, id);
	/* "limit 0" (or less) walks nothing; the runtime's 0 means no limit. */
	emit_line(E, "l->n%d = %s_stp_map_sort(%s, l->order%d, %d, %d, %s, %s);", id,
		  n->limit ? arena_printf(&E->s->arena, "%s <= 0 ? 0 : ", lim) : "",
		  emit_global_ref(E, sym), id, n->sort_key, n->sort_dir ? n->sort_dir : 1,
		  stat_op_c(n->sort_stat ? n->sort_stat : "count"), lim);
	emit_loop_start(E, n, 0);
	emit_line(E, "for (l->i%d = 0; l->i%d < l->n%d; l->i%d++) {", id, id, id, id);
	E->indent++;
	E->cont = id;
	emit_line(E, "c->pending++;");
	for (k = n->keys, i = 0; k; k = k->next, i++) {
		if (k->type == TY_STRING)
			emit_line(E, "strscpy(l->v_%s, _stp_map_entry_key_str(l->order%d[l->i%d], %d), MAXSTRINGLEN);",
				  k->str, id, id, i);
		else
			emit_line(E, "l->v_%s = _stp_map_entry_key_long(l->order%d[l->i%d], %d);",
				  k->str, id, id, i);
	}
	if (n->value) {
		if (n->value->type == TY_STRING)
			emit_line(E, "strscpy(l->v_%s, _stp_map_entry_str(l->order%d[l->i%d]), MAXSTRINGLEN);",
				  n->value->str, id, id);
		else
			emit_line(E, "l->v_%s = _stp_map_entry_long(l->order%d[l->i%d]);",
				  n->value->str, id, id);
	}
	emit_loop_body(E, n->body);
	emit_line(E, "cont_%d: __attribute__((unused));", id);
	emit_iteration_end(E, n->body);
	E->indent--;
	emit_line(E, "}");
	E->cont = saved_cont;
}

/* ---- declarations, load and unload ---- */

static void hist_init(struct strbuf *c, struct symbol *sym)
{
	struct node *h = sym->hist;

	if (!h) {
		sb_puts(c, "{ .kind = STP_HIST_NONE");
	} else if (!strcmp(h->str, "hist_log")) {
		sb_puts(c, "{ .kind = STP_HIST_LOG");
	} else {
		struct node *lo = h->args->next, *hi = lo->next, *step = hi->next;

		sb_printf(c, "{ .kind = STP_HIST_LINEAR, .start = %" PRId64 ", .stop = %" PRId64
			  ", .interval = %" PRId64, lo->num, hi->num, step->num);
	}
	if (sym->variance)
		sb_printf(c, ", .variance_shift = %" PRId64, sym->variance->args->next->num);
	sb_puts(c, " }");
}

/*
 * Scalars of the user's script are module parameters of their own names,
 * so stap -G NAME=VALUE and staprun's NAME=VALUE set them before the
 * session starts (tapset and private globals are not the user's to set).
 */
bool global_is_param(const struct session *s, const struct symbol *g)
{
	return g->global && g->global->file == s->user_file &&
	       !g->global->is_private && !is_map(g) &&
	       (g->type == TY_LONG || g->type == TY_STRING) &&
	       strncmp(g->name, "_stp", 4);
}

int check_gvars(struct session *s)
{
	int bad = 0;

	for (int i = 0; i < s->gvars.len; i++) {
		const char *arg = s->gvars.items[i], *val = strchr(arg, '=') + 1;
		size_t len = val - 1 - arg;
		struct symbol *g = NULL;
		char *end;

		for (int j = 0; j < s->globals.len && !g; j++) {
			struct symbol *c = s->globals.items[j];

			if (c->global && c->global->file == s->user_file &&
			    strlen(c->name) == len && !strncmp(c->name, arg, len))
				g = c;
		}
		if (!g) {
			util_err("-G %s: the script has no global '%.*s'", arg, (int)len, arg);
			fprintf(stderr, "hint: -G sets a global the script declares "
				"(global %.*s) and uses\n", (int)len, arg);
			bad = 1;
		} else if (!global_is_param(s, g)) {
			util_err("-G %s: '%s' is %s; -G sets a number or a string", arg,
				 g->name, is_map(g) ? "an array" :
				 g->type == TY_STATS ? "a statistic" : "private");
			bad = 1;
		} else if (g->type == TY_LONG) {
			errno = 0;
			(void)strtoll(val, &end, 0);
			if (errno || *end) {
				util_err("-G %s: '%s' is a number, and '%s' is not one",
					 arg, g->name, val);
				bad = 1;
			}
		}
	}
	return bad ? -1 : 0;
}

static void emit_param(const struct session *s, struct strbuf *c,
		       const struct symbol *g)
{
	if (!global_is_param(s, g))
		return;
	/*
	 * The parameter is named after the global, and the macros expand
	 * that name: a global called like a kernel macro (ATTR_MODE, which
	 * linux/fs.h defines) must not be expanded there.
	 */
	sb_printf(c, "#pragma push_macro(\"%s\")\n#undef %s\n", g->name, g->name);
	if (g->type == TY_STRING)
		sb_printf(c, "module_param_string(%s, g_%s, MAXSTRINGLEN, 0);\n",
			  g->name, g->cname);
	else if (g->pcpu_counter)
		sb_printf(c, "static struct stp_pcpu_param gp_%s = { .var = &g_%s };\n"
			  "module_param_cb(%s, &_stp_param_pcpu_s64_ops, &gp_%s, 0);\n",
			  g->cname, g->cname, g->name, g->cname);
	else
		sb_printf(c, "module_param_cb(%s, &_stp_param_s64_ops, &g_%s, 0);\n",
			  g->name, g->cname);
	sb_printf(c, "#pragma pop_macro(\"%s\")\n", g->name);
}

void emit_global_decls(struct session *s, struct strbuf *c)
{
	for (int i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];
		struct node *init = g->global->init;

		if (pcpu_locked(g))
			sb_printf(c, "static DEFINE_PER_CPU(raw_spinlock_t, gl_%s) = "
				  "__RAW_SPIN_LOCK_INITIALIZER(gl_%s);\n", g->cname, g->cname);
		else
			sb_printf(c, "static STP_RWLOCK(gl_%s);\n", g->cname);
		if (is_map(g)) {
			sb_printf(c, "static struct stp_map *g_%s;\n", g->cname);
			sb_printf(c, "static const struct stp_map_desc gd_%s = {\n"
				  "\t.name = \"%s\",\n\t.nkeys = %d,\n\t.key_types = {",
				  g->cname, g->name, g->arity);
			for (int k = 0; k < g->arity; k++)
				sb_printf(c, " %s,", runtime_type(g->key_types[k]));
			sb_printf(c, " },\n\t.value_type = %s,\n\t.max_entries = ",
				  runtime_type(g->type));
			if (g->global->max_entries)
				sb_printf(c, "%" PRId64, g->global->max_entries);
			else
				sb_puts(c, "MAXMAPENTRIES");
			if (g->global->wrap)
				sb_puts(c, ",\n\t.wrap = 1");
			sb_puts(c, ",\n\t.hist = ");
			hist_init(c, g);
			sb_puts(c, ",\n};\n");
		} else if (g->type == TY_STATS) {
			sb_printf(c, "static struct stp_stat_var *g_%s;\n", g->cname);
			sb_printf(c, "static const struct stp_hist_spec gh_%s = ", g->cname);
			hist_init(c, g);
			sb_puts(c, ";\n");
		} else if (g->type == TY_STRING) {
			sb_printf(c, "static char g_%s[MAXSTRINGLEN]", g->cname);
			if (init) {
				sb_puts(c, " = ");
				emit_c_string(c, init->str, init->str_len);
			}
			sb_puts(c, ";\n");
		} else if (g->pcpu_counter) {
			/* Every CPU's copy would get an initializer: see init. */
			sb_printf(c, "static DEFINE_PER_CPU(int64_t, g_%s);\n", g->cname);
		} else {
			sb_printf(c, "static int64_t g_%s", g->cname);
			if (init)
				sb_printf(c, " = %" PRId64 "LL", init->num);
			sb_puts(c, ";\n");
		}
		emit_param(s, c, g);
	}
}

void emit_global_init(struct session *s, struct strbuf *c)
{
	sb_puts(c, "int stp_script_init(void)\n{\n");
	if (s->timing || s->monitor_s)
		sb_puts(c, "\tif (_stp_timing_init())\n\t\tgoto fail;\n");
	for (int i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];

		if (is_map(g))
			sb_printf(c, "\tg_%s = _stp_map_new(&gd_%s);\n\tif (!g_%s)\n\t\tgoto fail;\n",
				  g->cname, g->cname, g->cname);
		else if (g->type == TY_STATS)
			sb_printf(c, "\tg_%s = _stp_stat_new(&gh_%s);\n\tif (!g_%s)\n\t\tgoto fail;\n",
				  g->cname, g->cname, g->cname);
		else if (g->pcpu_counter && g->global->init)
			/* The sum over CPUs is the value; -G NAME= wins. */
			sb_printf(c, "\t%s*per_cpu_ptr(&g_%s, 0) = %" PRId64 "LL;\n",
				  global_is_param(s, g) ?
				  arena_printf(&s->arena, "if (!gp_%s.set)\n\t\t", g->cname) : "",
				  g->cname, g->global->init->num);
	}
	sb_puts(c, "\treturn 0;\nfail: __attribute__((unused));\n\tstp_script_exit();\n"
		"\treturn -ENOMEM;\n}\n\n");
}

void emit_global_exit(struct session *s, struct strbuf *c)
{
	sb_puts(c, "void stp_script_exit(void)\n{\n");
	if (s->timing || s->monitor_s)
		sb_puts(c, "\t_stp_timing_exit();\n");
	for (int i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];
		const char *fn = is_map(g) ? "_stp_map_free" :
				 g->type == TY_STATS ? "_stp_stat_free" : NULL;

		if (fn)
			sb_printf(c, "\tif (g_%s) {\n\t\t%s(g_%s);\n\t\tg_%s = NULL;\n\t}\n",
				  g->cname, fn, g->cname, g->cname);
	}
	sb_puts(c, "}\n\n");
}

/* ---- locks ---- */

/* How a handler uses a global: bits, since one handler may do several. */
enum { ACC_READ = 1, ACC_WRITE = 2, ACC_ADD = 4 /* g++, g += e as a statement */ };

struct access {
	unsigned char *mode;	/* by global id */
	int nglobals;
	struct vec visiting;	/* functions on the walk, for recursion */
};

static void note(struct access *A, struct symbol *sym, int mode)
{
	if (sym && sym->kind == SYM_GLOBAL && sym->id < A->nglobals)
		A->mode[sym->id] |= (unsigned char)mode;
}

/* A statement that only adds to a scalar number: "g++", "g -= e", ...? */
static struct node *added_scalar(struct node *e)
{
	if (e->kind == ND_UNARY && e->op >= OP_PREINC && e->lhs->kind == ND_VAR)
		return e->lhs;
	if (e->kind == ND_ASSIGN && (e->op == OP_ADD || e->op == OP_SUB) &&
	    e->lhs->kind == ND_VAR)
		return e->lhs;
	return NULL;
}

static void walk(struct access *A, struct node *n);

static void walk_list(struct access *A, struct node *n)
{
	for (; n; n = n->next)
		walk(A, n);
}

/* What the target of a write (or a stats read) touches. */
static void walk_written(struct access *A, struct node *t, int mode)
{
	if (t->kind == ND_VAR || t->kind == ND_INDEX)
		note(A, t->sym, mode);
	if (t->kind == ND_INDEX)
		walk_list(A, t->args);
}

static void walk(struct access *A, struct node *n)
{
	struct member *m;

	if (!n)
		return;
	switch (n->kind) {
	case ND_BLOCK:
		walk_list(A, n->body);
		return;
	case ND_EXPR_STMT: {
		struct node *v = added_scalar(n->lhs);

		if (!v || !v->sym || v->sym->type != TY_LONG)
			break;
		note(A, v->sym, ACC_ADD);
		if (n->lhs->kind == ND_ASSIGN)
			walk(A, n->lhs->rhs);
		return;
	}
	case ND_VAR:
	case ND_INDEX:
	case ND_IN:
		note(A, n->sym, ACC_READ);
		break;
	case ND_ASSIGN:
		walk_written(A, n->lhs, ACC_WRITE);
		walk(A, n->rhs);
		return;
	case ND_UNARY:
		if (n->op >= OP_PREINC) {
			walk_written(A, n->lhs, ACC_WRITE);
			return;
		}
		break;
	case ND_PUSH:
		/* Statistics are per CPU: adding needs only a read lock. */
		walk_written(A, n->lhs, ACC_READ);
		walk(A, n->rhs);
		return;
	case ND_STATOP:
	case ND_HIST:
		/* Reading aggregates into a shared area: exclusive. */
		walk_written(A, n->args, ACC_WRITE);
		walk_list(A, n->args->next);
		return;
	case ND_DELETE:
		walk_written(A, n->lhs, ACC_WRITE);
		return;
	case ND_FOREACH:
		/* Sorting reorders the array; statistics are aggregated. */
		note(A, n->array->sym, n->array->sym && (n->array->sym->type == TY_STATS ||
							 n->sort_key) ? ACC_WRITE : ACC_READ);
		break;
	case ND_CALL:
		if (n->func) {
			for (int i = 0; i < A->visiting.len; i++)
				if (A->visiting.items[i] == n->func)
					goto args;
			vec_push(&A->visiting, n->func);
			if (n->func->body->kind == ND_BLOCK)
				walk(A, n->func->body);
			A->visiting.len--;
		}
args:
		walk_list(A, n->args);
		return;
	default:
		break;
	}
	walk(A, n->lhs);
	walk(A, n->rhs);
	walk(A, n->cond);
	walk(A, n->then);
	walk(A, n->els);
	walk(A, n->init);
	walk(A, n->step);
	walk(A, n->limit);
	walk(A, n->body);
	for (m = n->members; m; m = m->next)
		walk(A, m->index);
	if (n->kind == ND_INDEX || n->kind == ND_IN)
		walk_list(A, n->args);
}

/* One struct stp_lock_req initializer: see runtime/stp_map.h. */
static void emit_lock_req(struct strbuf *c, const struct symbol *g, bool write)
{
	sb_printf(c, "\t{ .%s = &gl_%s, .write = %s },\n",
		  pcpu_locked(g) ? "pcpu" : "lock", g->cname, write ? "true" : "false");
}

/* Does a handler using g this way need it exclusively? */
static bool exclusive(const struct symbol *g, int mode)
{
	/* Adds to a counter go to this CPU's slot under this CPU's lock. */
	if (g->pcpu_counter)
		return mode != ACC_ADD;
	return mode & (ACC_WRITE | ACC_ADD);
}

static void access_init(struct session *s, struct access *A)
{
	for (int i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];

		if (g->id + 1 > A->nglobals)
			A->nglobals = g->id + 1;
	}
	A->mode = xcalloc((size_t)A->nglobals + 1, 1);
}

/*
 * A scalar number that some handler only adds to ("hits++") is kept per
 * CPU: such handlers add to their CPU's slot under that CPU's lock, so a
 * hot counter costs no shared cache line.  Any other use takes every
 * CPU's lock and first folds the slots into its own (_stp_pcpu_fold),
 * after which the slot is the value.  Runs before any code is emitted.
 */
void emit_classify_globals(struct session *s)
{
	for (int i = 0; i < s->handlers.len; i++) {
		struct probe *pr = s->handlers.items[i];
		struct access A = { 0 };

		access_init(s, &A);
		walk(&A, pr->body);
		for (int k = 0; k < s->globals.len; k++) {
			struct symbol *g = s->globals.items[k];

			if (A.mode[g->id] == ACC_ADD && g->type == TY_LONG && !is_map(g))
				g->pcpu_counter = true;
		}
		free(A.mode);
		vec_free(&A.visiting);
	}
}

int emit_locks(struct session *s, struct strbuf *c, const char *name,
	       struct node *body, struct strbuf *after)
{
	struct access A = { 0 };
	int i, n = 0;

	access_init(s, &A);
	walk(&A, body);
	/* In global-id order: every handler locks in the same order. */
	for (i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];
		int mode = A.mode[g->id];

		if (!mode)
			continue;
		if (!n)
			sb_printf(c, "static const struct stp_lock_req %s[] = {\n", name);
		emit_lock_req(c, g, exclusive(g, mode));
		if (g->pcpu_counter && exclusive(g, mode))
			sb_printf(after, "\t_stp_pcpu_fold(&g_%s);\n", g->cname);
		n++;
	}
	if (n)
		sb_puts(c, "};\n\n");
	free(A.mode);
	vec_free(&A.visiting);
	return n;
}

/* ---- globals written but never read: printed when the script ends ---- */

static void autoprint_value(struct strbuf *code, struct symbol *g, const char *prefix_fmt,
			    const char *prefix_args, const char *lval, const char *lstr,
			    const char *lstat)
{
	if (g->type == TY_STRING)
		sb_printf(code, "\t_stp_printf(c, \"%s=\\\"%%s\\\"\\n\"%s, %s);\n",
			  prefix_fmt, prefix_args, lstr);
	else if (g->type == TY_STATS)
		/* SystemTap prints an empty one's count in hex, the rest in decimal. */
		sb_printf(code, "\tst = %s;\n"
			  "\tif (!st || !_stp_stat_extract(c, st, STP_STAT_COUNT, 0))\n"
			  "\t\t_stp_printf(c, \"%s @count=0x0\\n\"%s);\n"
			  "\telse\n"
			  "\t\t_stp_printf(c, \"%s @count=%%lld @min=%%lld @max=%%lld @sum=%%lld @avg=%%lld\\n\"%s,\n"
			  "\t\t\t(long long)_stp_stat_extract(c, st, STP_STAT_COUNT, 0),\n"
			  "\t\t\t(long long)_stp_stat_extract(c, st, STP_STAT_MIN, 0),\n"
			  "\t\t\t(long long)_stp_stat_extract(c, st, STP_STAT_MAX, 0),\n"
			  "\t\t\t(long long)_stp_stat_extract(c, st, STP_STAT_SUM, 0),\n"
			  "\t\t\t(long long)_stp_stat_extract(c, st, STP_STAT_AVG, 0));\n",
			  lstat, prefix_fmt, prefix_args, prefix_fmt, prefix_args);
	else
		sb_printf(code, "\t_stp_printf(c, \"%s=%%lld\\n\"%s, (long long)%s);\n",
			  prefix_fmt, prefix_args, lval);
}

static int cmp_first_use(const void *a, const void *b)
{
	const struct symbol *x = *(struct symbol *const *)a, *y = *(struct symbol *const *)b;

	return x->first_use - y->first_use;
}

/*
 * SystemTap prints the script's globals that were written but whose value
 * is never used (++ and += do not count; "in" and foreach do) when the session
 * ends normally, in the order the script first uses
 * them: numbers in decimal, strings quoted, arrays element by element by
 * value, largest first (statistics by @count).  Emitted as one more end
 * probe, run after all others.
 */
bool emit_autoprint(struct session *s, struct strbuf *frames, struct strbuf *code)
{
	struct vec show = VEC_INIT;
	int i, k;

	if (s->no_global_display)	/* --no-global-var-display */
		return false;
	for (i = 0; i < s->globals.len; i++) {
		struct symbol *g = s->globals.items[i];

		if (g->written && !g->value_read && !g->global->file->is_tapset &&
		    g->type != TY_UNKNOWN)
			vec_push(&show, g);
	}
	if (!show.len) {
		vec_free(&show);
		return false;
	}
	qsort(show.items, (size_t)show.len, sizeof(void *), cmp_first_use);
	sb_puts(frames, "struct frame_autoprint {\n");
	for (i = 0; i < show.len; i++) {
		struct symbol *g = show.items[i];

		if (is_map(g))
			sb_printf(frames, "\tstruct stp_map_entry *order_%s[%s];\n", g->cname,
				  g->global->max_entries ? arena_printf(&s->arena, "%" PRId64,
					g->global->max_entries) : "MAXMAPENTRIES");
	}
	sb_puts(frames, "\tchar unused;\n};\n");

	sb_puts(code, "static const struct stp_lock_req locks_autoprint[] = {\n");
	for (i = 0; i < show.len; i++) {
		struct symbol *g = show.items[i];

		/* Sorting an array reorders it; statistics are aggregated. */
		emit_lock_req(code, g, g->type == TY_STATS || is_map(g) || g->pcpu_counter);
	}
	sb_puts(code, "};\n\nstatic void probe_autoprint(struct stp_context *c)\n{\n"
		"\tstruct frame_autoprint *l = &((union stp_frame *)c->locals)[0].autoprint;\n"
		"\tconst struct stp_stat *st __attribute__((unused));\n"
		"\tint64_t n __attribute__((unused)), i __attribute__((unused));\n\n");
	sb_printf(code, "\tif (!_stp_lock_globals(locks_autoprint, %d))\n\t\treturn;\n", show.len);
	for (i = 0; i < show.len; i++) {
		struct symbol *g = show.items[i];

		if (g->pcpu_counter) {
			sb_printf(code, "\t_stp_pcpu_fold(&g_%s);\n", g->cname);
			autoprint_value(code, g, g->name, "",
					arena_printf(&s->arena, "(*this_cpu_ptr(&g_%s))", g->cname),
					NULL, NULL);
			continue;
		}
		if (!is_map(g)) {
			autoprint_value(code, g, g->name, "", arena_printf(&s->arena, "g_%s", g->cname),
					arena_printf(&s->arena, "g_%s", g->cname),
					arena_printf(&s->arena, "_stp_stat_get(g_%s)", g->cname));
			continue;
		}
		struct strbuf fmt = STRBUF_INIT, args = STRBUF_INIT;

		sb_printf(&fmt, "%s[", g->name);
		for (k = 0; k < g->arity; k++) {
			if (g->key_types[k] == TY_STRING) {
				sb_printf(&fmt, "%s\\\"%%s\\\"", k ? "," : "");
				sb_printf(&args, ", _stp_map_entry_key_str(e, %d)", k);
			} else {
				sb_printf(&fmt, "%s%%lld", k ? "," : "");
				sb_printf(&args, ", (long long)_stp_map_entry_key_long(e, %d)", k);
			}
		}
		sb_putc(&fmt, ']');
		sb_printf(code, "\tn = _stp_map_sort(g_%s, l->order_%s, -1, -1, STP_STAT_COUNT, 0);\n"
			  "\tfor (i = 0; i < n; i++) {\n"
			  "\t\tconst struct stp_map_entry *e = l->order_%s[i];\n\n",
			  g->cname, g->cname, g->cname);
		autoprint_value(code, g, sb_str(&fmt), sb_str(&args), "_stp_map_entry_long(e)",
				"_stp_map_entry_str(e)", "_stp_map_entry_stat(e)");
		sb_puts(code, "\t}\n");
		sb_free(&fmt);
		sb_free(&args);
	}
	sb_printf(code, "\t_stp_unlock_globals(locks_autoprint, %d);\n\t(void)l;\n}\n\n", show.len);
	sb_puts(code, "static const struct stp_probe stp_probe_autoprint = {\n"
		"\t.pp = \"end\",\n\t.loc = \"\",\n\t.handler = probe_autoprint,\n"
		"\t.state = STP_SESSION_STOPPING,\n};\n\n");
	vec_free(&show);
	return true;
}
