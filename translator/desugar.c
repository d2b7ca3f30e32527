// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Rewrites of the AST before pass 2 checks it (desugar_program, called by
 * sem.c on every program): array slices, which the rest of the
 * translator never sees.
 */
#include <string.h>

#include "stap.h"

/*
 * ---- array slices ----
 * "foreach ([a, b] in x[*, e] limit n) body" becomes
 *     { t1 = e
 *       foreach ([a, b] in x limit n) { if (b != t1) continue
 *                                       body } }
 * so e is evaluated once, before the walk; limit counts every entry
 * walked, matching or not, as SystemTap 4.8's does.
 */
static struct node *mk(struct session *s, enum node_kind kind, const struct node *at)
{
	struct node *n = arena_alloc(&s->arena, sizeof(*n));

	n->kind = kind;
	n->loc = at->loc;
	return n;
}

static struct node *mk_var(struct session *s, const char *name, const struct node *at)
{
	struct node *v = mk(s, ND_VAR, at);

	v->str = name;
	return v;
}

static struct node *mk_bin(struct session *s, enum node_kind kind, enum op op,
			   struct node *l, struct node *r)
{
	struct node *n = mk(s, kind, l);

	n->op = op;
	n->lhs = l;
	n->rhs = r;
	return n;
}

static struct node *mk_stmt(struct session *s, struct node *e)
{
	struct node *st = mk(s, ND_EXPR_STMT, e);

	st->lhs = e;
	return st;
}

static int desugar_slices(struct session *s, struct node *n);

static int desugar_list(struct session *s, struct node *n)
{
	for (; n; n = n->next)
		if (desugar_slices(s, n) < 0)
			return -1;
	return 0;
}

static int desugar_slices(struct session *s, struct node *n)
{
	static int serial;

	if (!n)
		return 0;
	if (desugar_list(s, n->body) < 0 || desugar_slices(s, n->then) < 0 ||
	    desugar_slices(s, n->els) < 0 || desugar_slices(s, n->init) < 0 ||
	    desugar_slices(s, n->step) < 0)
		return -1;
	if (n->kind != ND_FOREACH || !n->slice)
		return 0;

	struct node *loop = mk(s, ND_FOREACH, n), *inner = mk(s, ND_BLOCK, n->body);
	struct node head = { 0 }, *tail = &head, *cond = NULL, *key = n->keys, *e;
	int id = ++serial, i = 0, nslice = 0, nkeys = 0;

	for (e = n->slice; e; e = e->next)
		nslice++;
	for (key = n->keys; key; key = key->next)
		nkeys++;
	if (nslice != nkeys) {
		diag_error(s, &n->slice->loc, "the slice has %d %s but the foreach has %d "
			   "loop %s", nslice, nslice == 1 ? "index" : "indexes", nkeys,
			   nkeys == 1 ? "variable" : "variables");
		return -1;
	}
	for (e = n->slice, key = n->keys; e; e = e->next, key = key->next, i++) {
		if (e->kind == ND_NULL_STMT)
			continue;
		const char *t = arena_printf(&s->arena, "__slice%d_%d", id, i);
		struct node *val = ast_clone(&s->arena, e);
		struct node *ne;

		val->next = NULL;
		tail = tail->next = mk_stmt(s, mk_bin(s, ND_ASSIGN, OP_NONE,
						      mk_var(s, t, e), val));
		ne = mk_bin(s, ND_BINARY, OP_NE, mk_var(s, key->str, key), mk_var(s, t, e));
		cond = cond ? mk_bin(s, ND_BINARY, OP_OR, cond, ne) : ne;
	}
	*loop = *n;
	loop->slice = NULL;
	loop->next = NULL;
	loop->body = inner;
	struct node ihead = { 0 }, *itail = &ihead;

	if (cond) {
		struct node *skip = mk(s, ND_IF, n);

		skip->cond = cond;
		skip->then = mk(s, ND_CONTINUE, n);
		itail = itail->next = skip;
	}
	itail->next = n->body;
	inner->body = ihead.next;
	tail->next = loop;
	/* n becomes the block, in place: its list neighbours stay. */
	struct node *next = n->next;

	memset(n, 0, sizeof(*n));
	n->kind = ND_BLOCK;
	n->loc = loop->loc;
	n->body = head.next;
	n->next = next;
	return 0;
}

/*
 * "[e1, *] in a" and "delete a[e1, *]" become calls of functions made for
 * them, whose source is written here and parsed with the user's script:
 *
 *     function __slice_in3(v0) { foreach ([k0, k1] in a)
 *                                    if (k0 == v0) return 1
 *                                return 0 }
 *     function __slice_del4(v0) { foreach ([k0, k1] in a)
 *                                     if (k0 == v0) __slice_tmp4[k0, k1] = 1
 *                                 foreach ([k0, k1] in __slice_tmp4)
 *                                     delete a[k0, k1]
 *                                 delete __slice_tmp4 }
 *
 * (an array cannot change inside its own foreach, hence the second walk).
 */
static bool has_star(const struct node *args)
{
	for (; args; args = args->next)
		if (args->kind == ND_NULL_STMT)
			return true;
	return false;
}

static struct node *slice_call(struct session *s, struct program *user, struct node *at,
			       const char *array, struct node *args, bool del)
{
	static int serial;
	int id = ++serial, i = 0, n = 0;
	struct strbuf src = STRBUF_INIT, keys = STRBUF_INIT, params = STRBUF_INIT,
		      test = STRBUF_INIT;
	struct node head = { 0 }, *tail = &head, *a;
	struct program prog = { 0 };
	struct srcfile *f;

	for (a = args; a; a = a->next, i++) {
		sb_printf(&keys, "%sk%d", i ? ", " : "", i);
		if (a->kind == ND_NULL_STMT)
			continue;
		sb_printf(&params, "%sv%d", n ? ", " : "", i);
		sb_printf(&test, "%sk%d == v%d", n ? " && " : "", i, i);
		struct node *c = ast_clone(&s->arena, a);

		c->next = NULL;
		tail = tail->next = c;
		n++;
	}
	if (!n)
		sb_puts(&test, "1");
	if (del)
		sb_printf(&src, "global __slice_tmp%d\n"
			  "function __slice_del%d(%s) {\n"
			  "\tforeach ([%s] in %s) if (%s) __slice_tmp%d[%s] = 1\n"
			  "\tforeach ([%s] in __slice_tmp%d) delete %s[%s]\n"
			  "\tdelete __slice_tmp%d\n}\n", id, id, sb_str(&params), sb_str(&keys),
			  array, sb_str(&test), id, sb_str(&keys), sb_str(&keys), id, array,
			  sb_str(&keys), id);
	else
		sb_printf(&src, "function __slice_in%d(%s) {\n"
			  "\tforeach ([%s] in %s) if (%s) return 1\n\treturn 0\n}\n", id,
			  sb_str(&params), sb_str(&keys), array, sb_str(&test));
	f = source_from_string(s, arena_printf(&s->arena, "<slice of %s at %s:%d>", array,
					       at->loc.file->name, at->loc.line), sb_str(&src));
	/* The rewrite may name the file's private arrays. */
	f->owner = at->loc.file;
	f->is_tapset = at->loc.file->is_tapset;
	sb_free(&src);
	sb_free(&keys);
	sb_free(&params);
	sb_free(&test);
	if (parse_file(s, f, &prog) < 0)
		return NULL;
	/* Its function and global join the user's program. */
	struct func **fp = &user->funcs;

	while (*fp)
		fp = &(*fp)->next;
	*fp = prog.funcs;
	struct global **gp = &user->globals;

	while (*gp)
		gp = &(*gp)->next;
	*gp = prog.globals;

	struct node *call = arena_alloc(&s->arena, sizeof(*call));

	call->kind = ND_CALL;
	call->loc = at->loc;
	call->str = arena_printf(&s->arena, del ? "__slice_del%d" : "__slice_in%d", id);
	call->args = head.next;
	call->num = n;
	return call;
}

/* Rewrite slices in n and everything under it; -1 after an error. */
static int slice_exprs(struct session *s, struct program *user, struct node *n)
{
	struct member *m;

	for (; n; n = n->next) {
		if (n->kind == ND_IN && has_star(n->args)) {
			struct node *c = slice_call(s, user, n, n->str, n->args, false);

			if (!c)
				return -1;
			c->next = n->next;
			*n = *c;
			continue;
		}
		if (n->kind == ND_DELETE && n->lhs && n->lhs->kind == ND_INDEX &&
		    has_star(n->lhs->args)) {
			struct node *c = slice_call(s, user, n, n->lhs->str, n->lhs->args, true);
			struct node *next = n->next;

			if (!c)
				return -1;
			memset(n, 0, sizeof(*n));
			n->kind = ND_EXPR_STMT;
			n->loc = c->loc;
			n->lhs = c;
			n->next = next;
			continue;
		}
		if ((n->kind == ND_INDEX || n->kind == ND_IN) && has_star(n->args)) {
			for (struct node *a = n->args; a; a = a->next)
				if (a->kind == ND_NULL_STMT) {
					diag_error(s, &a->loc, "'*' is only an index in a slice: "
						   "foreach (... in a[*, e]), [*, e] in a, "
						   "delete a[*, e]");
					return -1;
				}
		}
		if (slice_exprs(s, user, n->lhs) < 0 || slice_exprs(s, user, n->rhs) < 0 ||
		    slice_exprs(s, user, n->cond) < 0 || slice_exprs(s, user, n->then) < 0 ||
		    slice_exprs(s, user, n->els) < 0 || slice_exprs(s, user, n->init) < 0 ||
		    slice_exprs(s, user, n->step) < 0 || slice_exprs(s, user, n->body) < 0 ||
		    slice_exprs(s, user, n->limit) < 0 || slice_exprs(s, user, n->args) < 0 ||
		    slice_exprs(s, user, n->value) < 0)
			return -1;
		for (m = n->members; m; m = m->next)
			if (slice_exprs(s, user, m->index) < 0)
				return -1;
	}
	return 0;
}

int desugar_program(struct session *s, struct program *p)
{
	for (struct probe *pr = p->probes; pr; pr = pr->next)
		if (slice_exprs(s, p, pr->body) < 0)
			return -1;
	for (struct probe *pr = p->aliases; pr; pr = pr->next)
		if (slice_exprs(s, p, pr->body) < 0)
			return -1;
	for (struct func *f = p->funcs; f; f = f->next)
		if (f->body->kind == ND_BLOCK && slice_exprs(s, p, f->body) < 0)
			return -1;

	for (struct probe *pr = p->probes; pr; pr = pr->next)
		if (desugar_slices(s, pr->body) < 0)
			return -1;
	for (struct probe *pr = p->aliases; pr; pr = pr->next)
		if (desugar_slices(s, pr->body) < 0)
			return -1;
	for (struct func *f = p->funcs; f; f = f->next)
		if (f->body->kind == ND_BLOCK && desugar_slices(s, f->body) < 0)
			return -1;
	return 0;
}

