// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .callee("PATTERN") and .callees(DEPTH) (stapprobes(3stap)): the
 * functions a function calls, for the DWARF families (dwarf_func.c for
 * the kernel, uprobe.c for user files).  A callee is either inlined into
 * its caller (its copy there is probed: being there is being called from
 * there) or called at a call site the DWARF records (its out-of-line
 * copy is probed, and the hit must return to that call: the runtime
 * compares the return addresses, struct stp_callers).  Depth N walks the
 * callees' callees, each level's out-of-line calls one more return
 * address to check.
 */
#include <dwarf.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "../dw.h"

/* The DIE a call site calls: DWARF 5's DW_AT_call_origin, GCC's GNU form's abstract origin. */
static bool call_origin(Dwarf_Die *site, Dwarf_Die *origin)
{
	Dwarf_Attribute a;

	if (!dwarf_attr(site, DW_AT_call_origin, &a) &&
	    !dwarf_attr(site, DW_AT_abstract_origin, &a))
		return false;
	return dwarf_formref_die(&a, origin) != NULL;
}

/* Where a call returns to: DW_AT_call_return_pc, or the GNU form's low_pc. */
static bool call_return_pc(Dwarf_Die *site, uint64_t *pc)
{
	Dwarf_Attribute a;
	Dwarf_Addr addr;

	if (dwarf_attr(site, DW_AT_call_return_pc, &a) || dwarf_attr(site, DW_AT_low_pc, &a)) {
		if (dwarf_formaddr(&a, &addr) == 0) {
			*pc = addr;
			return true;
		}
	}
	return false;
}

/* Caller copies one point may walk: .callees(8) of a busy function fans out. */
#define CALLEE_MAX_WALKS	20000

struct callee_walk {
	struct session *s;
	struct dw_object *o;
	Dwarf *dbg;
	pf_callee_add_fn add;
	void *arg;
	int ncallers;		/* caller copies walked */
	/* the index's sites of each callee name met: one lookup per name */
	struct strmap sites;	/* name -> struct vec * */
	struct vec cached;	/* those vecs, to free */
};

/* A site kept past the index's callback, whose strings are the index's. */
static int push_site(const struct dw_site *site, void *arg)
{
	void **ctx = arg;
	struct session *s = ctx[0];
	struct dw_site *c = arena_alloc(&s->arena, sizeof(*c));

	*c = *site;
	c->name = arena_strdup(&s->arena, site->name);
	c->file = arena_strdup(&s->arena, site->file);
	c->cu = site->cu ? arena_strdup(&s->arena, site->cu) : NULL;
	c->symbol = site->symbol ? arena_strdup(&s->arena, site->symbol) : NULL;
	c->section = site->section ? arena_strdup(&s->arena, site->section) : NULL;
	c->vars = site->vars ? arena_strdup(&s->arena, site->vars) : NULL;
	vec_push(ctx[1], c);
	return 0;
}

static int sites_of(struct callee_walk *cw, const struct dw_pattern *p, struct vec *out)
{
	void *ctx[2] = { cw->s, out };

	return dw_lookup_functions(cw->o, p, push_site, ctx);
}

/* The sites of function name (exact), looked up once per walk. */
static const struct vec *sites_named(struct callee_walk *cw, const char *name)
{
	struct vec **slot = (struct vec **)strmap_put(&cw->sites, name);

	if (!*slot) {
		struct dw_pattern pat = { .name = (char *)name };

		*slot = xcalloc(1, sizeof(**slot));
		vec_push(&cw->cached, *slot);
		if (sites_of(cw, &pat, *slot) < 0)
			(*slot)->len = 0;	/* a failed lookup: no sites */
	}
	return *slot;
}

/* One function a caller calls (its DIE's own scope, pf_each_own_die). */
struct callee_hit {
	const char *name;
	uint64_t die_off;	/* inlined: its DW_TAG_inlined_subroutine; else the callee's */
	bool inlined;
	uint64_t ra;		/* not inlined: where the call returns, as the DWARF has it */
};

/*
 * An inlined copy, or a call site naming its callee (perhaps by a
 * declaration), whose name matches the pattern.  Calls through pointers
 * and tail calls are not callees: no callee, or no return into this
 * function to tell them by.
 */
static int push_callee(Dwarf_Die *die, void *arg)
{
	void **ctx = arg;
	struct session *s = ctx[0];
	const char *pattern = ctx[2];
	struct callee_hit *h;
	Dwarf_Attribute a;
	Dwarf_Die origin;
	const char *name;
	uint64_t ra = 0;
	int tag = dwarf_tag(die);

	if (tag == DW_TAG_inlined_subroutine) {
		origin = *die;
	} else if (tag != DW_TAG_call_site && tag != DW_TAG_GNU_call_site) {
		return 0;
	} else if (dwarf_hasattr(die, DW_AT_call_tail_call) ||
		   dwarf_hasattr(die, DW_AT_GNU_tail_call) ||
		   !call_origin(die, &origin) || !call_return_pc(die, &ra)) {
		return 0;
	}
	name = dwarf_formstring(dwarf_attr_integrate(&origin, DW_AT_name, &a));
	if (!name || fnmatch(pattern, name, 0))
		return 0;
	h = arena_alloc(&s->arena, sizeof(*h));
	h->name = arena_strdup(&s->arena, name);
	h->die_off = dwarf_dieoffset(&origin);
	h->inlined = tag == DW_TAG_inlined_subroutine;
	h->ra = ra;
	vec_push(ctx[1], h);
	return 0;
}

/*
 * Which out-of-line functions named as a call site's callee it calls:
 * the one whose DIE the call names, else (a declaration) the functions
 * of that name that are not static, else those of the caller's unit.
 */
static bool callee_is(struct callee_walk *cw, const struct callee_hit *h,
		      const struct dw_site *caller, const struct dw_site *t,
		      const struct vec *sites)
{
	int by_die = 0, external = 0;

	for (int i = 0; i < sites->len; i++) {
		const struct dw_site *o = sites->items[i];

		if (o->inlined)
			continue;
		by_die += o->die_off == h->die_off;
		external += pf_die_external(cw->dbg, o->die_off);
	}
	if (by_die)
		return t->die_off == h->die_off;
	if (external)
		return pf_die_external(cw->dbg, t->die_off);
	return !t->cu || !caller->cu || !strcmp(t->cu, caller->cu);
}

/*
 * The callees matching pattern of caller copy caller, reached through the
 * calls in chain (their return addresses, outermost first), and theirs
 * down to depth levels.
 */
static int walk(struct callee_walk *cw, const struct dw_site *caller,
		const uint64_t *chain, int nchain, int depth, const char *pattern)
{
	struct session *s = cw->s;
	struct vec hits = VEC_INIT;
	void *ctx[3] = { s, &hits, (void *)pattern };
	Dwarf_Die die;
	int ret = 0;

	if (!caller->die_off || !dwarf_offdie(cw->dbg, caller->die_off, &die))
		return 0;
	if (++cw->ncallers > CALLEE_MAX_WALKS)
		return -E2BIG;
	pf_each_own_die(&die, push_callee, ctx);
	for (int i = 0; i < hits.len && !ret; i++) {
		const struct callee_hit *h = hits.items[i];
		const struct vec *sites = sites_named(cw, h->name);
		uint64_t *next = arena_alloc(&s->arena, sizeof(*next) * (size_t)(nchain + 1));
		int n = nchain;

		if (nchain)
			memcpy(next, chain, sizeof(*next) * (size_t)nchain);
		if (!h->inlined)
			next[n++] = h->ra;
		for (int j = 0; j < sites->len && !ret; j++) {
			const struct dw_site *t = sites->items[j];

			if (h->inlined ? t->die_off != h->die_off
				       : t->inlined || !callee_is(cw, h, caller, t, sites))
				continue;
			ret = cw->add(caller, t, next, n, cw->arg);
			if (!ret && depth > 1)
				ret = walk(cw, t, next, n, depth - 1, "*");
		}
	}
	vec_free(&hits);
	return ret;
}

int pf_walk_callees(struct session *s, struct dw_object *o, const struct dw_pattern *callers,
		    const char *pattern, int depth, pf_callee_add_fn add, void *arg)
{
	struct callee_walk cw = { .s = s, .o = o, .dbg = dw_dwarf(o), .add = add, .arg = arg,
				  .sites = STRMAP_INIT, .cached = VEC_INIT };
	struct vec sites = VEC_INIT;
	int n = sites_of(&cw, callers, &sites), ret = 0;

	for (int i = 0; i < sites.len && !ret; i++)
		ret = walk(&cw, sites.items[i], NULL, 0, depth, pattern);
	vec_free(&sites);
	for (int i = 0; i < cw.cached.len; i++) {
		vec_free(cw.cached.items[i]);
		free(cw.cached.items[i]);
	}
	vec_free(&cw.cached);
	strmap_free(&cw.sites);
	return n < 0 ? n : ret == -E2BIG ? ret : cw.ncallers;
}

int pf_resolve_callee(struct session *s, const struct pp_comp *c, const char **pattern,
		      int *depth, enum pf_callee_suffix *suffix)
{
	static const char *const valid[] = { "call", "return" };

	*suffix = PF_CALLEE_ANY;
	*depth = 1;
	if (!strcmp(c->name, "callees")) {
		*pattern = "*";
		if (c->arg && c->arg->kind != ND_NUM) {
			diag_error(s, &c->arg->loc, "callees needs a number: .callees(DEPTH)");
			return -1;
		}
		if (c->arg && (c->arg->num < 1 || c->arg->num > PF_MAX_CALLEE_DEPTH)) {
			diag_error(s, &c->arg->loc, "callees' depth must be between 1 and %d",
				   PF_MAX_CALLEE_DEPTH);
			return -1;
		}
		if (c->arg)
			*depth = (int)c->arg->num;
		return c->next ? pf_unexpected(s, c->next, ".callees", NULL, 0) : 0;
	}
	*pattern = pf_string_arg(s, c, ".callee(\"PATTERN\")");
	if (!*pattern)
		return -1;
	if (strchr(*pattern, '@')) {
		diag_error(s, &c->arg->loc, "a callee's @FILE is not supported yet");
		diag_hint(s, "name the callee alone: .callee(\"%.*s\")",
			  (int)(strchr(*pattern, '@') - *pattern), *pattern);
		return -1;
	}
	c = c->next;
	if (!c)
		return 0;
	if (strcmp(c->name, "call") && strcmp(c->name, "return"))
		return pf_unexpected(s, c, ".callee(...)", valid, 2);
	if (c->arg) {
		diag_error(s, &c->arg->loc, ".%s takes no argument", c->name);
		return -1;
	}
	*suffix = c->name[0] == 'c' ? PF_CALLEE_CALL : PF_CALLEE_RETURN;
	return c->next ? pf_unexpected(s, c->next, c->name[0] == 'c' ? ".call" : ".return",
				       NULL, 0) : 0;
}

void pf_callee_entry_slot(struct resolved_probe *rp)
{
	/* Nothing to save: the slot only makes the runtime run the entry. */
	if (rp->ncallers && !rp->entry_exprs.len)
		vec_push(&rp->entry_exprs, (void *)"0");
}
