// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .statement("FUNC@FILE:N").nearest for modules and user files (the
 * kernel's has its own index, probes/dwarf_stmt.c): in each function
 * where line N has no code, the closest line of the function's own file
 * that has (the later on a tie), as SystemTap 4.8 resolves it.  Each
 * matching function's statements are read whole, then the lines chosen
 * go to the family's callback.
 */
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "../dw.h"

static const char *adup(struct arena *a, const char *str)
{
	return str ? arena_strdup(a, str) : NULL;
}

struct keep {
	struct session *s;
	struct vec v;		/* struct dw_stmt *, in the arena */
};

static int keep_stmt(const struct dw_stmt *st, void *arg)
{
	struct keep *k = arg;
	struct arena *a = &k->s->arena;
	struct dw_stmt *c = arena_alloc(a, sizeof(*c));

	*c = *st;
	c->func = adup(a, st->func);
	c->decl_file = adup(a, st->decl_file);
	c->file = adup(a, st->file);
	c->symbol = adup(a, st->symbol);
	c->section = adup(a, st->section);
	vec_push(&k->v, c);
	return 0;
}

static int stmt_cmp(const void *a, const void *b)
{
	const struct dw_stmt *x = *(const struct dw_stmt *const *)a;
	const struct dw_stmt *y = *(const struct dw_stmt *const *)b;

	if (x->die_off != y->die_off)
		return x->die_off < y->die_off ? -1 : 1;
	if (x->line != y->line)
		return x->line - y->line;
	return (x->pc > y->pc) - (x->pc < y->pc);
}

/* A line of the function's own file (not a header's inlined code). */
static bool own_line(const struct dw_stmt *st)
{
	return st->file && st->decl_file && !strcmp(st->file, st->decl_file);
}

/* The lines with code either side of a statement's line: SystemTap 4.8's
 * hint ("try :105 or :107") and .nearest's choice between them. */
struct near_lines {
	int want, below, above;
};

static int near_line(const struct dw_stmt *st, void *arg)
{
	struct near_lines *nl = arg;

	if (!own_line(st))
		return 0;
	if (st->line < nl->want && st->line > nl->below)
		nl->below = st->line;
	if (st->line > nl->want && (!nl->above || st->line < nl->above))
		nl->above = st->line;
	return 0;
}

/* .nearest's line: the closer of the two, the later on a tie (0: none). */
static int near_pick(const struct near_lines *nl)
{
	if (!nl->below || (nl->above && nl->above - nl->want <= nl->want - nl->below))
		return nl->above;
	return nl->below;
}

int pf_nearest_stmts(struct session *s, struct dw_object *o, const struct dw_pattern *pat,
		     dw_stmt_fn add, void *arg)
{
	struct dw_pattern all = *pat;
	struct keep k = { .s = s };
	struct dw_stmt **v;
	int n, a, b, i;

	all.line_lo = all.line_hi = 0;
	n = dw_statements(o, &all, keep_stmt, &k);
	v = (struct dw_stmt **)k.v.items;
	if (n >= 0 && k.v.len)
		qsort(v, (size_t)k.v.len, sizeof(*v), stmt_cmp);
	for (a = 0; n >= 0 && a < k.v.len; a = b) {
		int lo = pat->line_lo, hi = pat->line_hi;
		struct near_lines nl = { .want = lo };
		bool has = false;

		for (b = a; b < k.v.len && v[b]->die_off == v[a]->die_off; b++) {
			has |= v[b]->line == lo;
			near_line(v[b], &nl);
		}
		if (lo && !has) {
			lo = hi = near_pick(&nl);
			if (!lo)
				continue;	/* no line of its own file */
		}
		for (i = a; i < b; i++)
			if (!lo || (v[i]->line >= lo && v[i]->line <= hi &&
				    (has || own_line(v[i]))))
				if (add(v[i], arg))
					break;
		if (i < b)
			break;		/* full */
	}
	vec_free(&k.v);
	return n;
}

void pf_near_hint(struct session *s, struct dw_object *o, const char *pattern)
{
	struct dw_pattern pat;
	struct near_lines nl = { 0 };
	char *err = NULL;

	if (dw_parse_pattern(pattern, &pat, &err) < 0) {
		free(err);
		return;
	}
	nl.want = pat.line_lo;
	pat.line_lo = pat.line_hi = 0;
	if (nl.want && dw_statements(o, &pat, near_line, &nl) > 0 && (nl.below || nl.above)) {
		if (nl.below && nl.above)
			diag_hint(s, "nearest lines with code: %d and %d; or add .nearest",
				  nl.below, nl.above);
		else
			diag_hint(s, "nearest line with code: %d; or add .nearest",
				  nl.below ? nl.below : nl.above);
	}
	dw_pattern_free(&pat);
}
