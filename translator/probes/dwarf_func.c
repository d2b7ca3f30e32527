// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF function probes (stapprobes(3stap), DWARF section), in the
 * kernel itself:
 *
 *   kernel.function("PATTERN")           every copy, at its entry
 *   kernel.function("PATTERN").call      out-of-line copies only
 *   kernel.function("PATTERN").inline    inlined copies only
 *   kernel.function("PATTERN").return[.maxactive(N)]
 *                                        out-of-line copies' returns
 *   kernel.function("PATTERN").label("LPATTERN")
 *                                        the source labels matching
 *                                        LPATTERN (a glob) in every copy
 *   kernel.function("PATTERN").exported  out-of-line copies of the
 *                                        functions that are not static
 *
 * PATTERN is NAME[@FILE[:LINE[-LINE2]]] with globs, as dw_parse_pattern
 * reads it; the DWARF index (dw.h) of the target kernel resolves it.
 * Each copy of a matched function becomes its own probe (the family's
 * expand hook), whose pp is SystemTap's canonical kernel.function("NAME@
 * FILE:LINE") plus the suffix written, so pp() and -p2 name the match;
 * a copy of its own because target variables ($x, tv_scope below) live
 * in different places in different copies.  Each has one kprobe: at
 * symbol + offset of the probe address (which holds under KASLR; an
 * out-of-line copy's entry, where runtime/fentry.c may use ftrace), or
 * for .return a kretprobe on the entry of the out-of-line copy, with an
 * entry handler when the body reads @entry values.  Inlined copies have no return
 * to probe: .return skips them with a warning, as SystemTap does.
 *
 * The runtime half is runtime/kprobe.c, shared with kprobe.*: this file
 * emits its own table, stp_dwarf_kprobes[], in the same format.  The
 * kprobes of one point share a group, so the runtime treats a refused
 * one as the kprobe family treats a wildcard's: a warning, unless none
 * of the point's kprobes registers.
 *
 * Limits: a kprobe by symbol name resolves to the first kernel symbol
 * of that name, so a static function whose name another static function
 * shares may be probed at the wrong copy: such sites are skipped with a
 * warning.
 */
#include <dwarf.h>
#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "../dw.h"
#include "../emit.h"
#include "../tvar.h"

/* The most functions one point may expand to, and kprobes in all. */
#define DWF_MAX_FUNCS	8000
#define DWF_MAX_KPROBES	10000
/* .maxactive(N): the kernel allocates N instances up front (as kprobe.c). */
#define DWF_MAX_MAXACTIVE	4096

/* Which copies a point probes; the suffix after .function(...). */
enum dwf_kind { DWF_ANY, DWF_CALL, DWF_INLINE, DWF_RETURN, DWF_LABEL, DWF_EXPORTED,
		DWF_CALLEE };

static const char *const dwf_suffix[] = {
	[DWF_ANY] = "", [DWF_CALL] = ".call", [DWF_INLINE] = ".inline",
	[DWF_RETURN] = ".return", [DWF_LABEL] = ".label", [DWF_EXPORTED] = ".exported",
	[DWF_CALLEE] = ".callee",
};

/* What resolve() leaves in the point's resolved_probe.family_data. */
struct dwf_point {
	const char *pattern;	/* the PATTERN argument */
	const struct srcloc *loc;	/* of the argument, for messages */
	enum dwf_kind kind;
	const char *label;	/* .label("LPATTERN") */
	int maxactive;		/* .return.maxactive(N); -1: KRETACTIVE */
	uint64_t addr;		/* function(ADDRESS): a link-time address */
	bool has_addr;
	/* .callee("PATTERN")[.call], .callees[(N)] */
	const char *callee;	/* PATTERN; "*" for .callees */
	int depth;		/* 1, or .callees(N)'s N */
	enum dwf_kind callee_kind;	/* DWF_ANY, DWF_CALL or DWF_RETURN */
};

/* One kprobe: symbol + offset, and the DWARF context of its address. */
struct dwf_kprobe {
	const char *symbol;
	uint64_t offset;
	uint64_t die_off;	/* the copy's DIE, for target variables */
	uint64_t pc;		/* link-time probe address */
	uint64_t entry_pc;	/* link-time entry of the copy */
	bool fentry;		/* at the entry of an out-of-line copy: symbol + 0 */
	uint64_t link;		/* link-time address of symbol + offset */
	uint64_t ftrace;	/* an entry's or .return's fentry call (pf_ftrace_site), or 0 */
	const char *label;	/* .label: the label's name */
	int line;		/* .label: its line, which names the probe */
	/*
	 * .callee: the probe's name as stap -l and pn() give it, and the
	 * return addresses its callers' calls must have, the innermost first.
	 */
	const char *callee_pn;
	const uint64_t *ra;
	int nra;
	const char *vars;	/* the copy's, for stap -L */
};

/* What expand() leaves in each match's family_data. */
struct dwf_func {
	bool is_return;
	bool several;		/* the point has more than one kprobe */
	bool optional;
	int maxactive;
	struct dwf_kprobe *kps;
	int nkps;
};

/* ---- resolving ---- */

static int unexpected(struct session *s, const struct pp_comp *c, const char *after)
{
	static const char *const valid[] = { "call", "inline", "return", "maxactive", "label",
					     "exported", "callee", "callees" };
	const char *near = diag_closest(c->name, valid, (int)ARRAY_SIZE(valid));

	diag_error(s, &c->loc, "unexpected '%s' after %s", c->name, after);
	if (near && strcmp(near, c->name))
		diag_hint(s, "did you mean '.%s'?", near);
	return -1;
}

/* .maxactive(N) after .return, at c; 0 or -1. */
static int resolve_maxactive(struct session *s, const struct pp_comp *c,
			     struct dwf_point *dp)
{
	if (!c->arg || c->arg->kind != ND_NUM) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc,
			   "maxactive needs a number: .maxactive(N)");
		return -1;
	}
	if (c->arg->num < 1 || c->arg->num > DWF_MAX_MAXACTIVE) {
		diag_error(s, &c->arg->loc, "maxactive must be between 1 and %d",
			   DWF_MAX_MAXACTIVE);
		return -1;
	}
	dp->maxactive = (int)c->arg->num;
	return c->next ? unexpected(s, c->next, ".maxactive(N)") : 0;
}

/* kernel.function("PATTERN")[.call|.inline|.return[.maxactive(N)]|.label("LPATTERN")|.exported] */
static int resolve_dwarf(struct session *s, struct probe_point *pt,
			 struct resolved_probe *rp)
{
	struct pp_comp *k = pt->comps, *f = k->next, *c;
	struct dwf_point *dp;
	struct dw_pattern pat;
	char *err = NULL;
	size_t i;

	if (strcmp(k->name, "kernel") || k->arg || !f || strcmp(f->name, "function"))
		return 0;
	dp = arena_alloc(&s->arena, sizeof(*dp));
	if (f->arg && f->arg->kind == ND_NUM) {
		/* function(ADDRESS): the function holding it, by its name for messages. */
		dp->addr = (uint64_t)f->arg->num;
		dp->has_addr = true;
		dp->pattern = arena_printf(&s->arena, "0x%" PRIx64, dp->addr);
	} else if (!f->arg || f->arg->kind != ND_STR || !f->arg->str_len ||
		   (int)strlen(f->arg->str) != f->arg->str_len) {
		diag_error(s, f->arg ? &f->arg->loc : &f->loc,
			   "kernel.function needs a quoted pattern or an address: "
			   "kernel.function(\"NAME[@FILE[:LINE]]\") or kernel.function(ADDRESS)");
		return -1;
	} else {
		dp->pattern = f->arg->str;
	}
	dp->loc = &f->arg->loc;
	dp->kind = DWF_ANY;
	dp->maxactive = -1;
	c = f->next;
	if (c && (!strcmp(c->name, "callee") || !strcmp(c->name, "callees"))) {
		enum pf_callee_suffix suffix;

		if (pf_resolve_callee(s, c, &dp->callee, &dp->depth, &suffix))
			return -1;
		dp->kind = DWF_CALLEE;
		dp->callee_kind = suffix == PF_CALLEE_CALL ? DWF_CALL :
				  suffix == PF_CALLEE_RETURN ? DWF_RETURN : DWF_ANY;
	} else if (c) {
		for (i = 1; i < ARRAY_SIZE(dwf_suffix) - 1; i++)
			if (!strcmp(c->name, dwf_suffix[i] + 1))
				dp->kind = (enum dwf_kind)i;
		if (dp->kind == DWF_ANY)
			return unexpected(s, c, "kernel.function(...)");
		if (dp->kind == DWF_LABEL) {
			dp->label = pf_string_arg(s, c, ".label(\"LPATTERN\")");
			if (!dp->label)
				return -1;
		} else if (c->arg) {
			diag_error(s, &c->arg->loc, ".%s takes no argument", c->name);
			return -1;
		}
		if (c->next && dp->kind == DWF_RETURN && !strcmp(c->next->name, "maxactive")) {
			if (resolve_maxactive(s, c->next, dp))
				return -1;
		} else if (c->next) {
			return unexpected(s, c->next, dwf_suffix[dp->kind]);
		}
	}
	/* SystemTap's forms of an address: its entry, .call, .exported, .return. */
	if (dp->has_addr && (dp->kind == DWF_INLINE || dp->kind == DWF_LABEL ||
			     dp->kind == DWF_CALLEE)) {
		diag_error(s, &c->loc, "kernel.function(ADDRESS) has no .%s: it names one "
			   "out-of-line function", c->name);
		return -1;
	}
	if (dw_parse_pattern(dp->pattern, &pat, &err) < 0) {
		diag_error(s, dp->loc, "%s", err);
		free(err);
		return -1;
	}
	dw_pattern_free(&pat);
	rp->pp = pf_point_text(s, pt);
	rp->family_data = dp;
	return 1;
}

/* ---- expanding: one probe per matched function ---- */

/* A function being collected from the index's sites. */
struct dwf_match {
	const char *name, *file;
	int line;
	int n_inlined_skipped;	/* .return: inlined copies left out */
	struct vec kps;		/* struct dwf_kprobe * */
};

struct dwf_walk {
	struct session *s;
	Dwarf *dbg;		/* .label: where the copies' DIEs are */
	const char *vmlinux;	/* its file, for pf_text_reserved */
	bool by_addr;		/* kprobes go by address: see emit_decls */
	enum dwf_kind kind;
	const char *label;	/* .label: LPATTERN */
	bool callee;		/* .callee: sites come from callee_add */
	uint64_t at_die;	/* function(ADDRESS): the one out-of-line copy, else 0 */
	struct vec matches;	/* struct dwf_match *, in the index's order */
	int nkps;
	int too_many;		/* a limit was hit: DWF_MAX_* */
	int no_symbol;		/* sites outside any ELF symbol, skipped */
	int refused;		/* sites in code the kernel refuses kprobes in */
	const char *refused_sym, *refused_why;	/* the first of those */
	int not_exported;	/* .exported: copies of functions not exported */
	int ambiguous;		/* sites in a symbol whose name is not unique */
	const char *ambiguous_sym;	/* the first of those */
	int unsafe;		/* sites of functions probes must not go on (unsafe.c) */
	const char *unsafe_name, *unsafe_why;	/* the first of those */
	struct vec unsafe_funcs;	/* their distinct names (arena strings), for -v */
};

/* One kprobe at site->symbol + offset (pc there), unless it has one; 1: too many. */
static int add_kprobe(struct dwf_walk *w, struct dwf_match *m, const struct dw_site *site,
		      uint64_t offset, uint64_t pc, bool fentry, const char *label)
{
	struct dwf_kprobe *kp;
	int i;

	/* .callee: the same callee from other callers is another probe. */
	for (i = 0; i < m->kps.len && !w->callee; i++) {
		struct dwf_kprobe *o = m->kps.items[i];

		if (o->offset == offset && !strcmp(o->symbol, site->symbol))
			return 0;
	}
	if (w->nkps == DWF_MAX_KPROBES) {
		w->too_many = DWF_MAX_KPROBES;
		return 1;
	}
	kp = arena_alloc(&w->s->arena, sizeof(*kp));
	kp->symbol = arena_strdup(&w->s->arena, site->symbol);
	kp->offset = offset;
	kp->link = site->probe_pc - site->sym_offset + offset;
	/* An entry's, or a .return's (runtime/fexit.c puts it on an fprobe). */
	kp->ftrace = fentry || (w->kind == DWF_RETURN && !offset) ?
		     pf_ftrace_site(w->vmlinux, kp->link) : 0;
	kp->die_off = site->die_off;
	kp->pc = pc;
	kp->entry_pc = site->entry_pc;
	kp->fentry = fentry;
	kp->label = label ? arena_strdup(&w->s->arena, label) : NULL;
	kp->vars = site->vars ? arena_strdup(&w->s->arena, site->vars) : NULL;
	vec_push(&m->kps, kp);
	w->nkps++;
	return 0;
}

/* .label: one copy's labels (pf_each_label), each a kprobe in the copy's symbol. */
struct dwf_labels {
	struct dwf_walk *w;
	struct dwf_match *m;
	const struct dw_site *site;
};

static int add_label(const char *name, uint64_t pc, int line, void *arg)
{
	struct dwf_labels *L = arg;
	uint64_t start = L->site->probe_pc - L->site->sym_offset;
	int ret;

	if (pc < start) {	/* before the copy's symbol */
		L->w->no_symbol++;
		return 0;
	}
	ret = add_kprobe(L->w, L->m, L->site, pc - start, pc, false, name);
	if (!ret && L->m->kps.len && line)
		((struct dwf_kprobe *)L->m->kps.items[L->m->kps.len - 1])->line = line;
	return ret;
}

static int add_site(const struct dw_site *site, void *arg)
{
	struct dwf_walk *w = arg;
	struct dwf_match *m = w->matches.len ? w->matches.items[w->matches.len - 1] : NULL;
	const char *why;
	uint64_t offset, start;
	bool fentry;
	int ncopies;

	/* function(ADDRESS): only the copy holding it. */
	if (w->at_die && (site->inlined || site->die_off != w->at_die))
		return 0;

	if (!m || strcmp(m->name, site->name) || strcmp(m->file, site->file) ||
	    m->line != site->line) {
		if (w->matches.len == DWF_MAX_FUNCS) {
			w->too_many = DWF_MAX_FUNCS;
			return 1;
		}
		m = arena_alloc(&w->s->arena, sizeof(*m));
		m->name = arena_strdup(&w->s->arena, site->name);
		m->file = arena_strdup(&w->s->arena, site->file);
		m->line = site->line;
		vec_push(&w->matches, m);
	}
	if ((w->kind == DWF_CALL && site->inlined) || (w->kind == DWF_INLINE && !site->inlined))
		return 0;
	/* .exported: the out-of-line copies of functions that are not static. */
	if (w->kind == DWF_EXPORTED) {
		if (site->inlined)
			return 0;
		if (!pf_die_external(w->dbg, site->die_off)) {
			w->not_exported++;
			return 0;
		}
	}
	if (w->kind == DWF_RETURN && site->inlined) {
		m->n_inlined_skipped++;
		return 0;
	}
	if (!site->symbol) {
		w->no_symbol++;
		return 0;
	}
	/*
	 * GCC's partial inlining moves a function's tail into NAME.part.N,
	 * which its head (out of line and inlined) calls: no entry of the
	 * function, and a second hit per call.  SystemTap 4.8 leaves it out.
	 */
	if (!site->inlined && strstr(site->symbol, ".part."))
		return 0;
	/* What the symbol table knows; without one, registration decides. */
	if (!pf_ksym_check(w->s->release, site->symbol, &why, &ncopies)) {
		if (why) {
			if (!w->refused++) {
				w->refused_sym = arena_strdup(&w->s->arena, site->symbol);
				w->refused_why = why;
			}
			return 0;
		}
		/* By address (emit_decls), a name's copies are told apart. */
		if (ncopies > 1 && !w->by_addr) {
			if (!w->ambiguous++)
				w->ambiguous_sym = arena_strdup(&w->s->arena, site->symbol);
			return 0;
		}
	}
	/* The kernel's refusals first: they say more. */
	why = pf_unsafe_function(site->name, site->file);
	if (why) {
		if (!w->unsafe++) {
			w->unsafe_name = m->name;
			w->unsafe_why = why;
		}
		if (!w->unsafe_funcs.len ||
		    strcmp(w->unsafe_funcs.items[w->unsafe_funcs.len - 1], m->name))
			vec_push(&w->unsafe_funcs, (void *)m->name);
		return 0;
	}
	if (w->kind == DWF_LABEL) {
		Dwarf_Die die;

		struct dwf_labels L = { w, m, site };

		if (!dwarf_offdie(w->dbg, site->die_off, &die))
			return 0;
		return pf_each_label(&die, w->label, add_label, &L);
	}
	offset = site->sym_offset;
	start = site->probe_pc - site->sym_offset;
	/* A kretprobe goes on the entry: the symbol's start for out-of-line copies. */
	if (w->kind == DWF_RETURN) {
		if (site->entry_pc < start) {	/* the entry is in another symbol */
			w->no_symbol++;
			return 0;
		}
		offset = site->entry_pc - start;
	}
	/*
	 * An out-of-line copy that starts its symbol is probed at its entry,
	 * as SystemTap does, where the runtime can use the fentry call's
	 * ftrace site; the arguments are still in their registers there.
	 */
	fentry = !site->inlined && w->kind != DWF_RETURN && site->entry_pc == start;
	if (fentry)
		offset = 0;
	why = offset ? pf_text_reserved(w->vmlinux, start + offset) : NULL;
	if (why) {
		if (!w->refused++) {
			w->refused_sym = arena_strdup(&w->s->arena, site->symbol);
			w->refused_why = why;
		}
		return 0;
	}
	return add_kprobe(w, m, site, offset,
			  w->kind == DWF_RETURN || fentry ? site->entry_pc : site->probe_pc,
			  fentry, NULL);
}

/* Names near a missing function's, for a hint; the caller frees them. */
struct dwf_near {
	const char *name;
	size_t len;
	struct vec cands;	/* char * */
};

static int add_near(const struct dw_func *fn, void *arg)
{
	struct dwf_near *n = arg;
	size_t l = strlen(fn->name);

	/* Only names diag_closest could accept: length within 3. */
	if ((l > n->len ? l - n->len : n->len - l) <= 3)
		vec_push(&n->cands, xstrdup(fn->name));
	return 0;
}

/* Why a point matched nothing: the hint that helps most. */
static void hint_no_match(struct session *s, struct dw_object *k,
			  const struct dw_pattern *p)
{
	struct dw_pattern any = { .name = p->name };
	struct dwf_near near = { .name = p->name, .len = strlen(p->name) };
	const char *best;
	int i, n;

	if (p->file || p->line_lo) {
		/* The function exists, somewhere else. */
		n = dw_list_functions(k, &any, add_near, &near);
		if (n > 0) {
			diag_hint(s, "'%s' exists but not at @%s%s; stap -l "
				  "'kernel.function(\"%s\")' lists where", p->name,
				  p->file ? p->file : "*", p->line_lo ? ":LINE" : "",
				  p->name);
			goto out;
		}
	}
	if (strpbrk(p->name, "*?["))
		goto out;
	any.name = "*";
	if (dw_list_functions(k, &any, add_near, &near) <= 0)
		goto out;
	best = diag_closest(p->name, (const char *const *)near.cands.items, near.cands.len);
	if (best)
		diag_hint(s, "did you mean '%s'?", best);
out:
	for (i = 0; i < near.cands.len; i++)
		free(near.cands.items[i]);
	vec_free(&near.cands);
}

/*
 * -v: what a point left out as unsafe (unsafe.c) or refused by the
 * kernel, as a note; -vv names every unsafe function.
 */
static void note_skipped(struct session *s, const struct dwf_point *dp,
			 const struct dwf_walk *w)
{
	if (w->unsafe) {
		diag_note(s, dp->loc, "skipped %d %s in %d %s that probes must not go on, "
			  "'%s' among them: it %s", w->unsafe,
			  w->unsafe == 1 ? "address" : "addresses", w->unsafe_funcs.len,
			  w->unsafe_funcs.len == 1 ? "function" : "functions",
			  w->unsafe_name, w->unsafe_why);
		if (s->verbose >= 2)
			for (int i = 0; i < w->unsafe_funcs.len; i++)
				diag_hint(s, "skipped '%s'",
					  (const char *)w->unsafe_funcs.items[i]);
	}
	if (w->refused)
		diag_note(s, dp->loc, "skipped %d %s the kernel refuses kprobes in, in '%s' "
			  "among others: it %s", w->refused,
			  w->refused == 1 ? "address" : "addresses", w->refused_sym,
			  w->refused_why);
}

/* ---- .callee: the functions a matched function calls ---- */

/* Probe callee copy t of caller, called through chain (outermost first). */
static int add_callee(const struct dw_site *caller, const struct dw_site *t,
		      const uint64_t *chain, int nchain, void *arg)
{
	void **ctx = arg;
	struct dwf_walk *w = ctx[0];
	const struct dwf_point *dp = ctx[1];
	struct dwf_match *last = w->matches.len ? w->matches.items[w->matches.len - 1] : NULL;
	int before = last ? last->kps.len : 0, ret;
	struct dwf_match *m;
	struct dwf_kprobe *kp;
	uint64_t *ra;

	w->kind = dp->callee_kind;
	ret = add_site(t, w);
	w->kind = DWF_CALLEE;
	m = w->matches.len ? w->matches.items[w->matches.len - 1] : NULL;
	if (ret || !m || m->kps.len == (m == last ? before : 0))
		return ret;
	kp = m->kps.items[m->kps.len - 1];
	kp->callee_pn = arena_printf(&w->s->arena, "kernel.function(\"%s@%s:%d\").callee(\"%s@%s:%d\")%s",
				     caller->name, caller->file, caller->line, t->name, t->file,
				     t->line, dwf_suffix[dp->callee_kind]);
	ra = arena_alloc(&w->s->arena, sizeof(*ra) * (size_t)(nchain ? nchain : 1));
	for (int i = 0; i < nchain; i++)
		ra[i] = chain[nchain - 1 - i];
	kp->ra = ra;
	kp->nra = nchain;
	return 0;
}

static int expand_dwarf(struct session *s, struct resolved_probe *rp, struct vec *out)
{
	const struct dwf_point *dp = rp->family_data;
	bool optional = rp->point->optional;
	struct dwf_walk w = { .s = s, .kind = dp->kind, .label = dp->label };
	struct dw_object *k = NULL;
	struct dw_pattern pat;
	char *err = NULL;
	int ret = -1, n, i, j, skipped = 0, nskipped_funcs = 0;

	if (dw_parse_pattern(dp->pattern, &pat, &err) < 0) {
		diag_error(s, dp->loc, "%s", err);	/* resolve checked it */
		free(err);
		return -1;
	}
	k = pf_kernel(s, dp->loc, optional);	/* the session's: DIEs outlive pass 2 */
	if (!k) {
		/* '?': a point that cannot be resolved is dropped, as SystemTap does. */
		ret = optional ? 0 : -1;
		goto out;
	}
	w.dbg = dw_dwarf(k);
	w.vmlinux = dw_debuginfo(k);
	{
		uint64_t printk;

		w.by_addr = pf_ksym_addr(s->release, "_printk", &printk) == 1;
	}
	/* Callers are told by address: KASLR moves them as it moves _printk. */
	if (dp->kind == DWF_CALLEE && !w.by_addr) {
		diag_error(s, dp->loc, "callee probes need kernel %s's symbol table "
			   "(System.map) to know their callers", s->release);
		goto out;
	}
	if (dp->has_addr) {
		const char *name = NULL;

		w.at_die = pf_func_at(w.dbg, dp->addr, &name);
		if (!w.at_die) {
			ret = optional ? 0 : -1;
			if (!optional) {
				diag_error(s, dp->loc, "no kernel function holds 0x%" PRIx64, dp->addr);
				diag_hint(s, "kernel.function(ADDRESS) takes a link-time address, "
					  "as System.map and nm vmlinux give them");
			}
			goto out;
		}
		dw_pattern_free(&pat);
		pat = (struct dw_pattern){ .name = xstrdup(name) };
		n = dw_lookup_functions(k, &pat, add_site, &w);
	} else if (dp->kind == DWF_CALLEE) {
		void *ctx[2] = { &w, (void *)dp };

		w.callee = true;
		n = pf_walk_callees(s, k, &pat, dp->callee, dp->depth, add_callee, ctx);
	} else {
		n = dw_lookup_functions(k, &pat, add_site, &w);
	}
	if (dp->kind == DWF_CALLEE && (n == -E2BIG || w.too_many)) {
		diag_error(s, dp->loc, "the callees of '%s' to depth %d are more than one probe "
			   "point may probe", dp->pattern, dp->depth);
		diag_hint(s, "ask for fewer: a smaller .callees(DEPTH), or .callee(\"PATTERN\")");
		goto out;
	}
	if (n < 0 && !w.too_many) {
		diag_error(s, dp->loc, "dwarf: cannot look up '%s' in the index of kernel %s (%s)",
			   dp->pattern, s->release, strerror(-n));
		goto out;
	}
	if (w.too_many) {
		diag_error(s, dp->loc, "'%s' matches more than %d %s, the most one probe "
			   "point may probe", dp->pattern, w.too_many,
			   w.too_many == DWF_MAX_FUNCS ? "functions" : "addresses");
		goto out;
	}
	for (i = 0; i < w.matches.len; i++) {
		struct dwf_match *m = w.matches.items[i];
		struct dwf_func *df;
		struct resolved_probe *x;

		if (m->n_inlined_skipped && !m->kps.len) {
			skipped += m->n_inlined_skipped;
			nskipped_funcs++;
		}
		if (!m->kps.len)
			continue;
		/*
		 * One probe per copy: each address has its own DWARF context,
		 * so target variables may live in different places.
		 */
		for (j = 0; j < m->kps.len; j++) {
			df = arena_alloc(&s->arena, sizeof(*df));
			df->is_return = dp->kind == DWF_RETURN ||
					(dp->kind == DWF_CALLEE && dp->callee_kind == DWF_RETURN);
			df->several = w.nkps > 1;
			df->optional = optional;
			df->nkps = 1;
			df->kps = arena_alloc(&s->arena, sizeof(*df->kps));
			df->kps[0] = *(struct dwf_kprobe *)m->kps.items[j];
			df->maxactive = dp->maxactive;
			x = arena_alloc(&s->arena, sizeof(*x));
			/*
			 * SystemTap names a label's probe as a function's, by the
			 * label's line, without the .label (pp() in 4.8's runs of
			 * process(...).label, whose naming kernel labels share).
			 */
			x->pp = arena_printf(&s->arena, "kernel.function(\"%s@%s:%d\")%s", m->name,
					     m->file, df->kps[0].line ? df->kps[0].line : m->line,
					     dp->kind == DWF_LABEL ? "" :
					     dp->kind == DWF_CALLEE ? dwf_suffix[dp->callee_kind] :
					     dwf_suffix[dp->kind]);
			/* A callee's pp() is the callee's, its pn() the whole path. */
			if (df->kps[0].callee_pn) {
				x->pn = x->list_pp = df->kps[0].callee_pn;
				x->callers = df->kps[0].ra;
				x->ncallers = df->kps[0].nra;
				if (df->is_return)
					pf_callee_entry_slot(x);
			}
			/* SystemTap names an address's probe by the address. */
			if (dp->has_addr) {
				x->pp = arena_printf(&s->arena, "kernel.function(%s)%s", dp->pattern,
						     dwf_suffix[dp->kind]);
				/* stap -l gives the function's own address, as 4.8's. */
				x->list_pp = arena_printf(&s->arena, "kernel.function(0x%" PRIx64
							  ")%s", df->kps[0].entry_pc,
							  dwf_suffix[dp->kind]);
			}
			if (dp->maxactive > 0)
				x->pp = arena_printf(&s->arena, "%s.maxactive(%d)", x->pp,
						     dp->maxactive);
			x->label = df->kps[0].label;
			/* stap -L of a point only a script resolves (list.c) */
			if (dp->kind != DWF_RETURN && !df->is_return)
				x->list_vars = df->kps[0].vars;
			x->family_data = df;
			vec_push(out, x);
		}
	}
	/*
	 * SystemTap skips them silently; say so where it explains an error
	 * (nothing else to probe) or with -v.
	 */
	if (nskipped_funcs && !optional && (!out->len || s->verbose)) {
		struct dwf_match *m = NULL;

		for (i = 0; i < w.matches.len && !m; i++)
			if (((struct dwf_match *)w.matches.items[i])->n_inlined_skipped)
				m = w.matches.items[i];
		if (nskipped_funcs == 1)
			diag_warn(s, dp->loc, "cannot probe .return of inline-only function "
				  "'%s' (%d inlined %s skipped)", m->name, skipped,
				  skipped == 1 ? "copy" : "copies");
		else
			diag_warn(s, dp->loc, "cannot probe .return of %d inline-only "
				  "functions, '%s' among them (%d inlined copies skipped)",
				  nskipped_funcs, m->name, skipped);
	}
	if (s->verbose && (w.unsafe || w.refused))
		note_skipped(s, dp, &w);
	if (w.ambiguous && !optional)
		diag_warn(s, dp->loc, "skipped %d %s in '%s'%s: a kprobe by symbol name "
			  "reaches only the first of the kernel's symbols of that name",
			  w.ambiguous, w.ambiguous == 1 ? "address" : "addresses",
			  w.ambiguous_sym, w.ambiguous > 1 ? " and others" : "");
	if (out->len) {
		ret = out->len;
		goto out;
	}
	ret = 0;
	if (optional)
		goto out;
	ret = -1;
	if (nskipped_funcs)
		diag_error(s, dp->loc, "no out-of-line copy of '%s' to probe the return of",
			   dp->pattern);
	else if (w.unsafe && w.unsafe >= w.refused)	/* the commoner reason */
		diag_error(s, dp->loc, "cannot probe '%s': '%s' %s", dp->pattern,
			   w.unsafe_name, w.unsafe_why);
	else if (w.refused)
		diag_error(s, dp->loc, "cannot probe '%s': its code in '%s' %s",
			   dp->pattern, w.refused_sym, w.refused_why);
	else if (w.ambiguous)
		diag_error(s, dp->loc, "cannot probe '%s': its code is only in functions "
			   "whose symbol names are not unique", dp->pattern);
	else if (w.no_symbol)
		diag_error(s, dp->loc, "'%s' matches only code outside the kernel's symbols",
			   dp->pattern);
	else if (w.not_exported)
		diag_error(s, dp->loc, "no function matching '%s' is exported (all are static)",
			   dp->pattern);
	else if (dp->kind == DWF_CALLEE && n > 0)
		diag_error(s, dp->loc, "'%s' calls no function matching '%s' that can be probed",
			   dp->pattern, dp->callee);
	else if (w.matches.len && dp->kind == DWF_LABEL)
		diag_error(s, dp->loc, "no label matching '%s' in '%s'", dp->label,
			   dp->pattern);
	else if (w.matches.len)
		diag_error(s, dp->loc, "no %s copy of '%s' to probe",
			   dp->kind == DWF_INLINE ? "inlined" : "out-of-line", dp->pattern);
	else
		diag_error(s, dp->loc, "no kernel function matches '%s'", dp->pattern);
	if (dp->kind == DWF_CALLEE && n > 0)
		diag_hint(s, "callees are the calls the DWARF records: not those through "
			  "pointers, nor tail calls");
	else if (!w.matches.len)
		hint_no_match(s, k, &pat);
out:
	/* The matches themselves are in the arena. */
	for (i = 0; i < w.matches.len; i++)
		vec_free(&((struct dwf_match *)w.matches.items[i])->kps);
	vec_free(&w.matches);
	vec_free(&w.unsafe_funcs);
	dw_pattern_free(&pat);
	free(err);
	return ret;
}

/* ---- emitting ---- */

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	int i, j, group = 0;
	uint64_t printk = 0;

	/* Without the symbol's address the kernel resolves the name. */
	if (pf_ksym_addr(s->release, "_printk", &printk) != 1)
		printk = 0;
	sb_puts(c, "/* kernel.function probes: runtime/kprobe.c registers them. */\n"
		"#include \"stp_kprobe.h\"\n"
		"static struct stp_kprobe stp_dwarf_kprobes[] = {\n");
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct dwf_func *df = rp->family_data;
		unsigned flags = (df->is_return ? PF_KP_RETURN : 0) |
				 (df->optional ? PF_KP_OPTIONAL : 0) |
				 (df->several ? PF_KP_WILDCARD : 0);

		/* The matches of one point are adjacent: one group. */
		if (i && rp->point != ((struct resolved_probe *)probes->items[i - 1])->point)
			group = i;
		for (j = 0; j < df->nkps; j++)
			pf_kprobe_row_link(c, rp->id, df->kps[j].symbol, df->kps[j].offset,
					   df->maxactive, group,
					   flags | (df->kps[j].fentry ? PF_KP_FENTRY : 0),
					   rp->entry_exprs.len, df->kps[j].link, printk,
					   df->kps[j].ftrace);
	}
	sb_puts(c, "};\n\n");
}

/* Target variables: the DWARF context of the probe's one address. */
static int tv_scope(struct session *s, struct resolved_probe *rp, const struct srcloc *loc,
		    struct tv_scope *out)
{
	const struct dwf_func *df = rp->family_data;
	const struct dwf_kprobe *kp = &df->kps[0];
	struct dw_object *k = pf_kernel(s, loc, false);

	if (!k)
		return -1;
	if (!tv_object_fn_scope(k, kp->die_off, kp->pc, kp->entry_pc, df->is_return, out)) {
		diag_error(s, loc, "cannot read the DWARF of %s for target variables", rp->pp);
		return -1;
	}
	return 0;
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_start(c, "stp_dwarf_kprobes");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_stop(c, "stp_dwarf_kprobes");
}

const struct probe_family pf_dwarf_func = {
	.name = "kernel",
	.forms = (const char *const[]){
		"kernel.function(S)[.call|.inline|.return[.maxactive(N)]|.label(S)|.exported|"
		".callee(S)[.call|.return]|.callees[(N)]]",
		"kernel.function(N)[.call|.exported|.return[.maxactive(N)]]",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_dwarf,
	.expand = expand_dwarf,
	.tv_scope = tv_scope,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
