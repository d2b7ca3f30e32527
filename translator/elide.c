// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * After pass 2: dead-store elision (as SystemTap does unless -u) and the
 * marking of globals whose value the elided program reads (autoprint).
 */
#include <string.h>

#include "stap.h"

/*
 * ---- dead stores ----
 * As SystemTap does unless -u: an assignment to a local variable that is
 * never read is replaced by its value, then an expression statement that
 * has no effect is dropped, both with a warning.  So "x = 1 / 0" with x
 * unused raises no error.  Reads are those pass 2 saw, before any
 * elision (SystemTap does not repeat it either).
 */
struct elide {
	struct session *s;
	struct vec pure, impure;	/* struct func *, decided */
	struct vec visiting;		/* struct func *, being decided */
	bool warned;
};

static bool has_effects(struct elide *D, const struct node *n, bool in_func);

static bool is_local(const struct node *n)
{
	return n && n->kind == ND_VAR && n->sym && n->sym->kind != SYM_GLOBAL;
}

static bool in_vec(const struct vec *v, const void *p)
{
	for (int i = 0; i < v->len; i++)
		if (v->items[i] == p)
			return true;
	return false;
}

/* A function without effects: one that only computes its value. */
static bool func_pure(struct elide *D, struct func *f)
{
	bool pure;

	if (f->body->kind == ND_EMBEDDED)
		return f->pure;
	if (in_vec(&D->pure, f) || in_vec(&D->visiting, f))
		return true;
	if (in_vec(&D->impure, f))
		return false;
	vec_push(&D->visiting, f);
	pure = !has_effects(D, f->body, true);
	D->visiting.len--;
	vec_push(pure ? &D->pure : &D->impure, f);
	return pure;
}

static bool list_has_effects(struct elide *D, const struct node *n, bool in_func)
{
	for (; n; n = n->next)
		if (has_effects(D, n, in_func))
			return true;
	return false;
}

/*
 * Does n change state or print?  In a function body (in_func) its own
 * locals do not count: what matters is what a caller could see.
 */
static bool has_effects(struct elide *D, const struct node *n, bool in_func)
{
	const struct member *m;

	if (!n)
		return false;
	switch (n->kind) {
	case ND_ASSIGN:
	case ND_DELETE:
		if (!in_func || !is_local(n->lhs))
			return true;
		break;
	case ND_UNARY:
		if (n->op >= OP_PREINC && (!in_func || !is_local(n->lhs)))
			return true;
		break;
	case ND_PUSH:
	case ND_EMBEDDED:
	case ND_NEXT:
		return true;
	case ND_CALL:
		if (n->builtin && n->builtin != BI_SPRINTF && n->builtin != BI_SPRINT &&
		    n->builtin != BI_SPRINTLN)
			return true;
		if (n->func && !func_pure(D, n->func))
			return true;
		break;
	case ND_BLOCK:
		return list_has_effects(D, n->body, in_func);
	default:
		break;
	}
	if (has_effects(D, n->lhs, in_func) || has_effects(D, n->rhs, in_func) ||
	    has_effects(D, n->cond, in_func) || has_effects(D, n->then, in_func) ||
	    has_effects(D, n->els, in_func) || has_effects(D, n->init, in_func) ||
	    has_effects(D, n->step, in_func) || has_effects(D, n->body, in_func) ||
	    has_effects(D, n->limit, in_func) || list_has_effects(D, n->args, in_func))
		return true;
	for (m = n->members; m; m = m->next)
		if (has_effects(D, m->index, in_func))
			return true;
	return false;
}

static void elide_hint(struct elide *D)
{
	if (!D->warned)
		diag_hint(D->s, "stap -u keeps them");
	D->warned = true;
}

static void elide_stores_list(struct elide *D, struct node *n);

/* x = v with x never read: v alone, wherever the assignment is. */
static void elide_stores(struct elide *D, struct node *n)
{
	struct member *m;

	if (!n)
		return;
	if (n->kind == ND_BLOCK) {
		elide_stores_list(D, n->body);
		return;
	}
	elide_stores(D, n->lhs);
	elide_stores(D, n->rhs);
	elide_stores(D, n->cond);
	elide_stores(D, n->then);
	elide_stores(D, n->els);
	elide_stores(D, n->init);
	elide_stores(D, n->step);
	elide_stores(D, n->body);
	elide_stores(D, n->limit);
	elide_stores_list(D, n->args);
	for (m = n->members; m; m = m->next)
		elide_stores(D, m->index);
	if (n->kind == ND_ASSIGN && n->op == OP_NONE && is_local(n->lhs) &&
	    !n->lhs->sym->read) {
		struct node *next = n->next;

		if (!n->loc.file->is_tapset) {
			diag_warn(D->s, &n->loc, "eliding assignment to '%s': it is never read",
				  n->lhs->sym->name);
			elide_hint(D);
		}
		*n = *n->rhs;
		n->next = next;
	}
}

static void elide_stores_list(struct elide *D, struct node *n)
{
	for (; n; n = n->next)
		elide_stores(D, n);
}

static bool is_empty(const struct node *n)
{
	const struct node *k;

	if (!n || n->kind == ND_NULL_STMT)
		return true;
	if (n->kind != ND_BLOCK)
		return false;
	for (k = n->body; k; k = k->next)
		if (!is_empty(k))
			return false;
	return true;
}

/* Expression statements with no effect go. */
static void elide_exprs(struct elide *D, struct node *n)
{
	if (!n)
		return;
	switch (n->kind) {
	case ND_BLOCK:
		for (struct node *k = n->body; k; k = k->next)
			elide_exprs(D, k);
		break;
	case ND_EXPR_STMT:
		if (has_effects(D, n->lhs, false))
			break;
		if (!n->loc.file->is_tapset)
			diag_warn(D->s, &n->lhs->loc, "eliding an expression without effects");
		n->kind = ND_NULL_STMT;
		break;
	case ND_IF:
		elide_exprs(D, n->then);
		elide_exprs(D, n->els);
		/* "if (x) {}" goes too, and with it the read of x. */
		if (is_empty(n->then) && is_empty(n->els) && !has_effects(D, n->cond, false)) {
			if (!n->loc.file->is_tapset)
				diag_warn(D->s, &n->loc, "eliding an if statement without effects");
			n->kind = ND_NULL_STMT;
		}
		break;
	case ND_WHILE:
	case ND_FOR:
		elide_exprs(D, n->body);
		break;
	case ND_FOREACH:
		elide_exprs(D, n->body);
		/* A walk that does nothing, or nothing at all ("limit 0"), goes. */
		if ((is_empty(n->body) && !has_effects(D, n->limit, false)) ||
		    (n->limit && n->limit->kind == ND_NUM && n->limit->num <= 0)) {
			if (!n->loc.file->is_tapset)
				diag_warn(D->s, &n->loc, "eliding a foreach loop without effects");
			n->kind = ND_NULL_STMT;
		}
		break;
	case ND_TRY:
		elide_exprs(D, n->body);
		elide_exprs(D, n->els);
		break;
	default:
		break;
	}
}

static void mark_value_reads(struct node *n);

static void mark_value_reads_list(struct node *n)
{
	for (; n; n = n->next)
		mark_value_reads(n);
}

static void mark_value_read(struct node *n)
{
	if (n && n->sym && n->sym->kind == SYM_GLOBAL)
		n->sym->value_read = true;
}

/*
 * An expression whose value is not used: a store (x = v, x++, x += v,
 * x <<< v) there writes x without reading it.
 */
static void mark_store(struct node *n)
{
	if (!n)
		return;
	if (n->kind == ND_ASSIGN || n->kind == ND_PUSH ||
	    (n->kind == ND_UNARY && n->op >= OP_PREINC)) {
		if (n->lhs->kind == ND_INDEX)
			mark_value_reads_list(n->lhs->args);
		else if (n->lhs->kind != ND_VAR)
			mark_value_reads(n->lhs);
		mark_value_reads(n->rhs);
		return;
	}
	mark_value_reads(n);
}

/*
 * Which globals does the (elided) program read the value of?  Those that
 * are only written, incremented or added to in statements of their own
 * ("n++", not "if (n++)") are printed at the end, as SystemTap prints
 * them.
 */
static void mark_value_reads(struct node *n)
{
	struct member *m;

	if (!n)
		return;
	switch (n->kind) {
	case ND_BLOCK:
		mark_value_reads_list(n->body);
		return;
	case ND_NULL_STMT:	/* maybe an elided statement: its parts are gone */
		return;
	case ND_VAR:
		mark_value_read(n);
		return;
	case ND_INDEX:
		mark_value_read(n);
		mark_value_reads_list(n->args);
		return;
	case ND_EXPR_STMT:
		mark_store(n->lhs);
		return;
	case ND_FOR:
		mark_store(n->init);
		mark_store(n->step);
		mark_value_reads(n->cond);
		mark_value_reads(n->body);
		return;
	case ND_ASSIGN:
	case ND_UNARY:
		/* x++ or x += 1 whose value is used reads x (x = v does not). */
		if (n->kind == ND_UNARY && n->op < OP_PREINC)
			break;
		if (n->kind == ND_UNARY || n->op != OP_NONE)
			mark_value_read(n->lhs);
		mark_store(n);
		return;
	case ND_PUSH:
		mark_store(n);
		return;
	case ND_IN:
		/* A test "k in a" uses a (SystemTap 4.8 does not print it). */
		mark_value_read(n);
		mark_value_reads_list(n->args);
		return;
	case ND_DELETE:
		mark_value_read(n->lhs);
		if (n->lhs->kind == ND_INDEX)
			mark_value_reads_list(n->lhs->args);
		return;
	case ND_STATOP:
	case ND_HIST:
		mark_value_read(n->args);
		if (n->args->kind == ND_INDEX)
			mark_value_reads_list(n->args->args);
		mark_value_reads_list(n->args->next);
		return;
	case ND_FOREACH:
		mark_value_read(n->array);
		mark_value_reads(n->limit);
		mark_value_reads(n->body);
		return;
	default:
		break;
	}
	mark_value_reads(n->lhs);
	mark_value_reads(n->rhs);
	mark_value_reads(n->cond);
	mark_value_reads(n->then);
	mark_value_reads(n->els);
	mark_value_reads(n->init);
	mark_value_reads(n->step);
	mark_value_reads(n->body);
	mark_value_reads(n->limit);
	mark_value_reads_list(n->args);
	for (m = n->members; m; m = m->next)
		mark_value_reads(m->index);
}

void elide_find_value_reads(struct session *s)
{
	int i;

	for (i = 0; i < s->handlers.len; i++)
		mark_value_reads(((struct probe *)s->handlers.items[i])->body);
	for (i = 0; i < s->funcs.len; i++) {
		struct func *f = s->funcs.items[i];

		if (f->body->kind == ND_BLOCK)
			mark_value_reads(f->body);
	}
}

/*
 * ---- tapset stores, to a fixed point ----
 * An alias defines many variables a probe body seldom reads (argstr,
 * filename, flags_str...), each computed from others.  One round of
 * elision drops argstr but keeps what it read; these rounds go on
 * until nothing changes, for tapset code only (silent, and user code
 * keeps SystemTap's one round and its warnings).
 */
/*
 * By name, not symbol: a body that several probes share (one user body
 * behind each point of an alias) has its variables bound to one of
 * those probes' locals, so a symbol's flag would be another probe's.
 */
struct live {
	struct vec names;	/* const char *: locals read */
};

static bool is_live(const struct live *L, const char *name)
{
	for (int i = 0; i < L->names.len; i++)
		if (!strcmp(L->names.items[i], name))
			return true;
	return false;
}

static void mark_live(struct live *L, struct node *n);

static void mark_live_list(struct live *L, struct node *n)
{
	for (; n; n = n->next)
		mark_live(L, n);
}

static void mark_live(struct live *L, struct node *n)
{
	struct member *m;

	/* An elided statement keeps its parts, which no longer run. */
	if (!n || n->kind == ND_NULL_STMT)
		return;
	if (n->kind == ND_VAR && is_local(n) && !is_live(L, n->sym->name))
		vec_push(&L->names, (void *)n->sym->name);
	if (n->kind == ND_ASSIGN && n->op == OP_NONE && is_local(n->lhs)) {
		mark_live(L, n->rhs);
		return;
	}
	if (n->kind == ND_BLOCK) {
		mark_live_list(L, n->body);
		return;
	}
	mark_live(L, n->lhs);
	mark_live(L, n->rhs);
	mark_live(L, n->cond);
	mark_live(L, n->then);
	mark_live(L, n->els);
	mark_live(L, n->init);
	mark_live(L, n->step);
	mark_live(L, n->body);
	mark_live(L, n->limit);
	mark_live_list(L, n->args);
	mark_live_list(L, n->keys);
	mark_live(L, n->value);
	mark_live(L, n->array);
	for (m = n->members; m; m = m->next)
		mark_live(L, m->index);
}

static bool drop_tapset_stores(const struct live *L, struct node *n)
{
	struct member *m;
	bool changed = false;

	for (; n; n = n->next) {
		if (n->kind == ND_NULL_STMT)
			continue;
		if (n->kind == ND_ASSIGN && n->op == OP_NONE && is_local(n->lhs) &&
		    !is_live(L, n->lhs->sym->name) && n->loc.file->is_tapset) {
			struct node *next = n->next;

			*n = *n->rhs;
			n->next = next;
			changed = true;
		}
		changed |= drop_tapset_stores(L, n->lhs) | drop_tapset_stores(L, n->rhs) |
			   drop_tapset_stores(L, n->cond) | drop_tapset_stores(L, n->then) |
			   drop_tapset_stores(L, n->els) | drop_tapset_stores(L, n->init) |
			   drop_tapset_stores(L, n->step) | drop_tapset_stores(L, n->body) |
			   drop_tapset_stores(L, n->limit) | drop_tapset_stores(L, n->args);
		for (m = n->members; m; m = m->next)
			changed |= drop_tapset_stores(L, m->index);
	}
	return changed;
}

/* One round on a handler body: true if a store went. */
static bool elide_tapset(struct node *body)
{
	struct live L = { VEC_INIT };
	bool changed;

	mark_live(&L, body);
	changed = drop_tapset_stores(&L, body);
	vec_free(&L.names);
	return changed;
}

void elide_dead_stores(struct session *s)
{
	struct elide D = { .s = s };
	int i, pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < s->handlers.len; i++) {
			struct probe *pr = s->handlers.items[i];

			if (pass)
				elide_exprs(&D, pr->body);
			else
				elide_stores(&D, pr->body);
		}
		for (i = 0; i < s->funcs.len; i++) {
			struct func *f = s->funcs.items[i];

			if (f->body->kind != ND_BLOCK)
				continue;
			if (pass)
				elide_exprs(&D, f->body);
			else
				elide_stores(&D, f->body);
		}
	}
	for (i = 0; i < s->handlers.len; i++) {
		struct probe *pr = s->handlers.items[i];

		while (elide_tapset(pr->body))
			elide_exprs(&D, pr->body);
	}
	vec_free(&D.pure);
	vec_free(&D.impure);
	vec_free(&D.visiting);
}
