// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF probes in kernel modules (stapprobes(3stap), DWARF section):
 *
 *   module("MPATTERN").function("PATTERN")[.call|.inline|.return[.maxactive(N)]|.exported]
 *   module("MPATTERN").function("PATTERN").label("LPATTERN")
 *   module("MPATTERN").statement("FUNC@FILE:LINE")     LINE: N, N-M or *
 *
 * MPATTERN is a module name with globs (- and _ alike, as the kernel
 * treats them), or the path of a module file.  dw_find_modules (dw.h)
 * finds the files: those given to --vm-insmod, then the target kernel's
 * /lib/modules/RELEASE/modules.dep; dw_module_open finds and indexes
 * their DWARF.  A named module without debuginfo is an error naming the
 * package; a wildcard skips such modules (with a warning) as long as one
 * has some.
 *
 * Each matched function (or statement line) becomes its own probe, named
 * as stap -l names it: module("stp_test").function("f@stp_test.c:12").
 * Its kprobes are registered by symbol: "MODULE:SYMBOL"+offset, which the
 * kernel resolves in the loaded module (kallsyms' module lookup, on 6.1
 * and 6.12 alike), in the shared kprobe table (kprobe.c, runtime/
 * kprobe.c).  If the module is not loaded when the script starts, its
 * probes wait for it: runtime/kprobe.c registers them when it loads and
 * unregisters them when it unloads.
 *
 * Target variables: each copy of a function (out of line, or inlined at
 * a call site) is its own probe, and tv_scope gives that copy's DIE and
 * probe address in the module's relocated DWARF.  Limit: global
 * variables of the module (DW_OP_addr) are refused, as the module's data
 * address is not known to the generated code.
 */
#include <dwarf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "../dw.h"
#include "../tvar.h"

/* The most functions one point may expand to, and kprobes in all. */
#define DWM_MAX_FUNCS	2000
#define DWM_MAX_KPROBES	10000
#define DWM_MAX_MAXACTIVE	4096

enum dwm_kind { DWM_ANY, DWM_CALL, DWM_INLINE, DWM_RETURN, DWM_EXPORTED, DWM_LABEL,
		DWM_STATEMENT };

static const char *const dwm_suffix[] = {
	[DWM_ANY] = "", [DWM_CALL] = ".call", [DWM_INLINE] = ".inline",
	[DWM_RETURN] = ".return", [DWM_EXPORTED] = ".exported", [DWM_LABEL] = ".label",
	[DWM_STATEMENT] = "",
};

/* What resolve() leaves in the point's family_data. */
struct dwm_point {
	const char *module;	/* MPATTERN */
	const char *pattern;	/* the function or statement PATTERN */
	const struct srcloc *mloc, *loc;	/* of the two arguments */
	enum dwm_kind kind;
	const char *label;	/* .label("LPATTERN") */
	int maxactive;		/* -1: KRETACTIVE */
	bool nearest;		/* .statement(...).nearest */
};

/* One kprobe: "MODULE:SYMBOL" + offset, and the DWARF context there. */
struct dwm_kprobe {
	const char *symbol;
	uint64_t offset;
	uint64_t die_off;	/* the copy's DIE (function or inlined copy) */
	uint64_t pc;		/* the probe address in the module's DWARF */
	uint64_t entry_pc;	/* the copy's entry, where @entry reads */
	bool fentry;		/* at the entry of an out-of-line copy: symbol + 0 */
	const char *label;	/* .label: the label's name and line, which name the probe */
	int line;
};

/*
 * What expand() leaves in each probe's family_data.  One probe per copy,
 * as kernel.function: each address has its own DWARF context, so target
 * variables may live in different places.
 */
struct dwm_probe {
	struct dw_object *mod;
	bool is_return, several, optional;
	int maxactive;
	struct dwm_kprobe kp;
};

/* ---- resolving ---- */

/* The suffixes after .function(...); 0 or -1. */
static int resolve_suffix(struct session *s, const struct pp_comp *c, struct dwm_point *dp)
{
	static const char *const valid[] = { "call", "inline", "return", "exported", "label" };
	static const char *const after_return[] = { "maxactive" };

	if (!c)
		return 0;
	/*
	 * A module's call sites are offsets in sections the loader places
	 * apart: the return addresses to check are not there yet.
	 */
	if (!strcmp(c->name, "callee") || !strcmp(c->name, "callees")) {
		diag_error(s, &c->loc, "module(...).function(...).%s is not supported yet",
			   c->name);
		diag_hint(s, "probe the callee and test caller_addr() (or symname(caller_addr())) "
			  "in the handler");
		return -1;
	}
	for (size_t i = 1; i <= DWM_LABEL; i++)
		if (!strcmp(c->name, dwm_suffix[i] + 1))
			dp->kind = (enum dwm_kind)i;
	if (dp->kind == DWM_ANY)
		return pf_unexpected(s, c, "module(...).function(...)", valid, 5);
	if (dp->kind == DWM_LABEL) {
		dp->label = pf_string_arg(s, c, ".label(\"LPATTERN\")");
		if (!dp->label)
			return -1;
	} else if (c->arg) {
		diag_error(s, &c->arg->loc, ".%s takes no argument", c->name);
		return -1;
	}
	c = c->next;
	if (!c)
		return 0;
	if (dp->kind != DWM_RETURN || strcmp(c->name, "maxactive"))
		return pf_unexpected(s, c, dwm_suffix[dp->kind], after_return,
				  dp->kind == DWM_RETURN);
	if (!c->arg || c->arg->kind != ND_NUM) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc,
			   "maxactive needs a number: .maxactive(N)");
		return -1;
	}
	if (c->arg->num < 1 || c->arg->num > DWM_MAX_MAXACTIVE) {
		diag_error(s, &c->arg->loc, "maxactive must be between 1 and %d",
			   DWM_MAX_MAXACTIVE);
		return -1;
	}
	dp->maxactive = (int)c->arg->num;
	return c->next ? pf_unexpected(s, c->next, ".maxactive(N)", NULL, 0) : 0;
}

static int resolve_module(struct session *s, struct probe_point *pt,
			  struct resolved_probe *rp)
{
	static const char *const forms[] = { "function", "statement" };
	struct pp_comp *m = pt->comps, *f = m->next;
	struct dwm_point *dp;
	struct dw_pattern pat;
	char *err = NULL;

	if (strcmp(m->name, "module"))
		return 0;
	dp = arena_alloc(&s->arena, sizeof(*dp));
	dp->maxactive = -1;
	dp->module = pf_string_arg(s, m, "module(\"NAME\").function(\"PATTERN\")");
	if (!dp->module)
		return -1;
	dp->mloc = &m->arg->loc;
	if (!f || (strcmp(f->name, "function") && strcmp(f->name, "statement"))) {
		if (f)
			return pf_unexpected(s, f, "module(...)", forms, 2);
		diag_error(s, &m->loc, "module(\"%s\") needs a function or statement: "
			   "module(\"%s\").function(\"PATTERN\")", dp->module, dp->module);
		return -1;
	}
	/* SystemTap 4.8 matches no module address either ("no match"). */
	if (f->arg && f->arg->kind == ND_NUM) {
		diag_error(s, &f->arg->loc, "module(...).%s(ADDRESS) is not supported: a module's "
			   "addresses are offsets in sections the loader places apart", f->name);
		diag_hint(s, "name the function or line: module(\"%s\").%s", dp->module,
			  !strcmp(f->name, "function") ? "function(\"NAME\")"
						       : "statement(\"FUNC@FILE:LINE\")");
		return -1;
	}
	if (!strcmp(f->name, "statement")) {
		dp->kind = DWM_STATEMENT;
		dp->pattern = pf_string_arg(s, f, "statement(\"FUNC@FILE:LINE\")");
		if (!dp->pattern)
			return -1;
		if (f->next && !strcmp(f->next->name, "nearest") && !f->next->arg) {
			dp->nearest = true;
			if (f->next->next)
				return pf_unexpected(s, f->next->next, ".nearest", NULL, 0);
		} else if (f->next) {
			static const char *const after[] = { "nearest" };

			return pf_unexpected(s, f->next, "module(...).statement(...)", after, 1);
		}
		if (!strchr(dp->pattern, ':')) {
			diag_error(s, &f->arg->loc, "statement needs a line: "
				   "\"FUNC@FILE:LINE\", LINE a number, N-M or *");
			return -1;
		}
	} else {
		dp->pattern = pf_string_arg(s, f, "function(\"NAME[@FILE[:LINE]]\")");
		if (!dp->pattern || resolve_suffix(s, f->next, dp))
			return -1;
	}
	dp->loc = &f->arg->loc;
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

/* ---- expanding ---- */

/* A module file dw_find_modules found. */
struct dwm_file {
	char *name, *path;
};

static int add_file(const char *name, const char *path, void *arg)
{
	struct dwm_file *f = xmalloc(sizeof(*f));

	f->name = xstrdup(name);
	f->path = xstrdup(path);
	vec_push(arg, f);
	return 0;
}

static void free_files(struct vec *files)
{
	for (int i = 0; i < files->len; i++) {
		struct dwm_file *f = files->items[i];

		free(f->name);
		free(f->path);
		free(f);
	}
	vec_free(files);
}

/* A function (or statement line) being collected into one probe. */
struct dwm_match {
	const char *name, *file;
	int line;
	const char *stmt_file;	/* statements: the line's own file and line */
	int stmt_line;
	int n_inlined_skipped;
	struct vec kps;		/* struct dwm_kprobe * */
};

struct dwm_walk {
	struct session *s;
	struct dw_object *mod;
	enum dwm_kind kind;
	int near_want;		/* .nearest: the line asked for */
	struct vec matches;	/* struct dwm_match * */
	int nkps, too_many;
	int no_symbol, refused;
	int not_exported;	/* .exported: copies of static functions */
	const char *label;	/* .label: LPATTERN */
	const char *refused_sym, *refused_why;
};

/* Why the kernel refuses a kprobe in a module's section, or NULL. */
static const char *section_refused(const char *section)
{
	if (!section)
		return NULL;
	if (!strncmp(section, ".init.", 6))
		return "is in .init.text, which the kernel frees once the module is loaded";
	if (!strcmp(section, ".kprobes.text"))
		return "is in the kprobes blacklist section (__kprobes)";
	if (!strcmp(section, ".noinstr.text"))
		return "is noinstr code (.noinstr.text), which must not be instrumented";
	return NULL;
}

static struct dwm_match *match_for(struct dwm_walk *w, const char *name, const char *file,
				   int line, const char *stmt_file, int stmt_line)
{
	struct dwm_match *m = w->matches.len ? w->matches.items[w->matches.len - 1] : NULL;

	if (m && !strcmp(m->name, name) && !strcmp(m->file, file) && m->line == line &&
	    (!stmt_file || (!strcmp(m->stmt_file, stmt_file) && m->stmt_line == stmt_line)))
		return m;
	if (w->matches.len == DWM_MAX_FUNCS) {
		w->too_many = DWM_MAX_FUNCS;
		return NULL;
	}
	m = arena_alloc(&w->s->arena, sizeof(*m));
	m->name = arena_strdup(&w->s->arena, name);
	m->file = arena_strdup(&w->s->arena, file);
	m->line = line;
	if (stmt_file)
		m->stmt_file = arena_strdup(&w->s->arena, stmt_file);
	m->stmt_line = stmt_line;
	vec_push(&w->matches, m);
	return m;
}

/* Add a kprobe at symbol + offset to m, once; 0, or 1 at the limit. */
static int add_kprobe(struct dwm_walk *w, struct dwm_match *m, const char *symbol,
		      const char *section, uint64_t offset, uint64_t die_off, uint64_t pc,
		      uint64_t entry_pc)
{
	const char *why = section_refused(section);
	struct dwm_kprobe *kp;

	if (!symbol) {
		w->no_symbol++;
		return 0;
	}
	if (why) {
		if (!w->refused++) {
			w->refused_sym = arena_strdup(&w->s->arena, symbol);
			w->refused_why = why;
		}
		return 0;
	}
	for (int i = 0; i < m->kps.len; i++) {
		kp = m->kps.items[i];
		if (kp->offset == offset && !strcmp(kp->symbol + strcspn(kp->symbol, ":") + 1,
						    symbol))
			return 0;
	}
	if (w->nkps == DWM_MAX_KPROBES) {
		w->too_many = DWM_MAX_KPROBES;
		return 1;
	}
	kp = arena_alloc(&w->s->arena, sizeof(*kp));
	kp->symbol = arena_printf(&w->s->arena, "%s:%s", dw_name(w->mod), symbol);
	kp->offset = offset;
	kp->die_off = die_off;
	kp->pc = pc;
	kp->entry_pc = entry_pc;
	vec_push(&m->kps, kp);
	w->nkps++;
	return 0;
}

/* .label: one copy's labels (pf_each_label), each a kprobe in the copy's symbol. */
struct dwm_labels {
	struct dwm_walk *w;
	struct dwm_match *m;
	const struct dw_site *site;
};

static int add_label(const char *name, uint64_t pc, int line, void *arg)
{
	struct dwm_labels *L = arg;
	const struct dw_site *site = L->site;
	uint64_t start = site->probe_pc - site->sym_offset;
	int n = L->m->kps.len, ret;

	if (pc < start) {	/* before the copy's symbol */
		L->w->no_symbol++;
		return 0;
	}
	ret = add_kprobe(L->w, L->m, site->symbol, site->section, pc - start, site->die_off,
			 pc, site->entry_pc);
	if (L->m->kps.len > n) {
		struct dwm_kprobe *kp = L->m->kps.items[n];

		kp->label = arena_strdup(&L->w->s->arena, name);
		kp->line = line;
	}
	return ret;
}

static int add_site(const struct dw_site *site, void *arg)
{
	struct dwm_walk *w = arg;
	struct dwm_match *m = match_for(w, site->name, site->file, site->line, NULL, 0);
	uint64_t offset = site->sym_offset, start = site->probe_pc - site->sym_offset;
	bool fentry;
	int n, ret;

	if (!m)
		return 1;
	if ((w->kind == DWM_CALL && site->inlined) || (w->kind == DWM_INLINE && !site->inlined))
		return 0;
	/* .exported: out-of-line copies of functions that are not static (dwarf_func.c). */
	if (w->kind == DWM_EXPORTED) {
		if (site->inlined)
			return 0;
		if (!pf_die_external(dw_dwarf(w->mod), site->die_off)) {
			w->not_exported++;
			return 0;
		}
	}
	if (w->kind == DWM_RETURN && site->inlined) {
		m->n_inlined_skipped++;
		return 0;
	}
	if (w->kind == DWM_LABEL) {
		struct dwm_labels L = { w, m, site };
		Dwarf_Die die;

		if (!site->symbol) {
			w->no_symbol++;
			return 0;
		}
		if (!dwarf_offdie(dw_dwarf(w->mod), site->die_off, &die))
			return 0;
		return pf_each_label(&die, w->label, add_label, &L);
	}
	/* A kretprobe goes on the entry, in the same symbol. */
	if (w->kind == DWM_RETURN && site->symbol) {
		if (site->entry_pc < start) {
			w->no_symbol++;
			return 0;
		}
		offset = site->entry_pc - start;
	}
	/* An out-of-line copy's entry, where ftrace may serve: see dwarf_func.c. */
	fentry = site->symbol && !site->inlined && w->kind != DWM_RETURN &&
		 site->entry_pc == start;
	if (fentry)
		offset = 0;
	n = m->kps.len;
	ret = add_kprobe(w, m, site->symbol, site->section, offset, site->die_off,
			 w->kind == DWM_RETURN || fentry ? site->entry_pc : site->probe_pc,
			 site->entry_pc);
	if (m->kps.len > n)
		((struct dwm_kprobe *)m->kps.items[n])->fentry = fentry;
	return ret;
}

static int add_stmt(const struct dw_stmt *st, void *arg)
{
	struct dwm_walk *w = arg;
	struct dwm_match *m = match_for(w, st->func, st->decl_file, st->decl_line, st->file,
					st->line);

	if (!m)
		return 1;
	return add_kprobe(w, m, st->symbol, st->section, st->sym_offset, st->die_off, st->pc,
			  st->entry_pc);
}

/* Report "subject: message[\nhint: text]" at loc, as an error or warning. */
static void report(struct session *s, const struct srcloc *loc, const char *err, bool warn)
{
	const char *hint = strstr(err, "\nhint: ");
	int n = hint ? (int)(hint - err) : (int)strlen(err);

	if (warn)
		diag_warn(s, loc, "%.*s", n, err);
	else
		diag_error(s, loc, "%.*s", n, err);
	if (hint)
		diag_hint(s, "%s", hint + 7);
}

/* Module names near a missing one's, for a hint. */
struct dwm_near {
	size_t len;
	struct vec names;	/* char * */
};

static int add_name(const char *name, const char *path, void *arg)
{
	struct dwm_near *n = arg;
	size_t l = strlen(name);

	/* Only names diag_closest could accept: length within 3. */
	if ((l > n->len ? l - n->len : n->len - l) <= 3)
		vec_push(&n->names, xstrdup(name));
	return 0;
}

static void hint_no_module(struct session *s, const char *pattern)
{
	struct dwm_near near = { .len = strlen(pattern) };
	const char *best = NULL;

	if (!strpbrk(pattern, "*?[/")) {
		dw_find_modules(s->release, "*", (const char *const *)s->vm_insmod.items,
				s->vm_insmod.len, add_name, &near);
		best = diag_closest(pattern, (const char *const *)near.names.items,
				    near.names.len);
	}
	if (best)
		diag_hint(s, "did you mean '%s'?", best);
	else
		diag_hint(s, "modules come from --vm-insmod and /lib/modules/%s/modules.dep; "
			  "give a module of your own with --vm-insmod PATH.ko or "
			  "module(\"/path/to/NAME.ko\")", s->release);
	for (int i = 0; i < near.names.len; i++)
		free(near.names.items[i]);
	vec_free(&near.names);
}

/* The probe of one copy of a match, pushed onto out. */
static void push_probe(struct session *s, struct dwm_walk *w, const struct dwm_point *dp,
		       bool optional, struct dwm_match *m, int j, struct vec *out)
{
	struct dwm_probe *p = arena_alloc(&s->arena, sizeof(*p));
	struct resolved_probe *x = arena_alloc(&s->arena, sizeof(*x));

	p->mod = w->mod;
	p->is_return = dp->kind == DWM_RETURN;
	p->optional = optional;
	p->maxactive = dp->maxactive;
	p->kp = *(struct dwm_kprobe *)m->kps.items[j];
	if (dp->kind == DWM_STATEMENT) {
		x->pp = arena_printf(&s->arena, "module(\"%s\").statement(\"%s@%s:%d\")",
				     dw_name(w->mod), m->name, m->stmt_file,
				     m->stmt_line);
		/* stap -l names the line asked for, as SystemTap 4.8's does. */
		if (dp->nearest)
			x->list_pp = arena_printf(&s->arena, "module(\"%s\").statement(\"%s@%s:%d\")"
						  ".nearest", dw_name(w->mod), m->name,
						  m->stmt_file, w->near_want);
	}
	else if (p->kp.label)	/* by the label's line, as kernel.function's (dwarf_func.c) */
	{
		x->pp = arena_printf(&s->arena, "module(\"%s\").function(\"%s@%s:%d\")",
				     dw_name(w->mod), m->name, m->file,
				     p->kp.line ? p->kp.line : m->line);
		x->label = p->kp.label;
	}
	else
		x->pp = arena_printf(&s->arena, "module(\"%s\").function(\"%s@%s:%d\")%s",
				     dw_name(w->mod), m->name, m->file, m->line,
				     dwm_suffix[dp->kind]);
	if (dp->maxactive > 0)
		x->pp = arena_printf(&s->arena, "%s.maxactive(%d)", x->pp, dp->maxactive);
	x->family_data = p;
	vec_push(out, x);
}

static int add_func_name(const struct dw_func *fn, void *arg)
{
	vec_push(arg, xstrdup(fn->name));
	return 0;
}

/* The hint for a function name that matched nothing in module m. */
static void hint_no_function(struct session *s, struct dw_object *m, const char *pattern)
{
	struct dw_pattern any = { .name = "*" };
	struct vec names = VEC_INIT;
	size_t n = strcspn(pattern, "@");
	char *name = xstrndup(pattern, n);
	const char *best = NULL;

	if (!strpbrk(name, "*?[") && dw_list_functions(m, &any, add_func_name, &names) > 0)
		best = diag_closest(name, (const char *const *)names.items, names.len);
	if (best)
		diag_hint(s, "did you mean '%s'?", best);
	else
		diag_hint(s, "stap -l 'module(\"%s\").function(\"*\")' lists its functions",
			  dw_name(m));
	for (int i = 0; i < names.len; i++)
		free(names.items[i]);
	vec_free(&names);
	free(name);
}

/* Why one module gave no probe: an error at dp->loc. */
static void no_match_error(struct session *s, const struct dwm_point *dp,
			   const struct dwm_walk *w, const char *mname)
{
	const char *what = dp->kind == DWM_STATEMENT ? "statement" : "function";
	int skipped = 0;

	for (int i = 0; i < w->matches.len; i++)
		skipped += ((struct dwm_match *)w->matches.items[i])->n_inlined_skipped;
	if (skipped)
		diag_error(s, dp->loc, "no out-of-line copy of '%s' in module %s to probe "
			   "the return of (%d inlined %s skipped)", dp->pattern, mname, skipped,
			   skipped == 1 ? "copy" : "copies");
	else if (w->refused)
		diag_error(s, dp->loc, "cannot probe '%s' in module %s: its code in '%s' %s",
			   dp->pattern, mname, w->refused_sym, w->refused_why);
	else if (w->no_symbol)
		diag_error(s, dp->loc, "'%s' matches only code outside module %s's symbols",
			   dp->pattern, mname);
	else if (w->matches.len && dp->kind == DWM_LABEL)
		diag_error(s, dp->loc, "no label matching '%s' in '%s' in module %s", dp->label,
			   dp->pattern, mname);
	else if (w->not_exported)
		diag_error(s, dp->loc, "no function matching '%s' in module %s is exported "
			   "(all are static)", dp->pattern, mname);
	else if (w->matches.len)
		diag_error(s, dp->loc, "no %s copy of '%s' in module %s to probe",
			   dp->kind == DWM_INLINE ? "inlined" : "out-of-line", dp->pattern,
			   mname);
	else
		diag_error(s, dp->loc, "no %s in module %s matches '%s'", what, mname,
			   dp->pattern);
	if (dp->kind == DWM_STATEMENT && !dp->nearest)
		pf_near_hint(s, w->mod, dp->pattern);
	else if (!w->matches.len)
		hint_no_function(s, w->mod, dp->pattern);
}

static int expand_module(struct session *s, struct resolved_probe *rp, struct vec *out)
{
	const struct dwm_point *dp = rp->family_data;
	bool optional = rp->point->optional;
	bool wild = strpbrk(dp->module, "*?[") != NULL;
	struct vec files = VEC_INIT;
	struct dw_pattern pat;
	char *err = NULL, *first_err = NULL;
	int ret = -1, n, i, nopened = 0, nskipped = 0;

	if (dw_parse_pattern(dp->pattern, &pat, &err) < 0) {
		diag_error(s, dp->loc, "%s", err);	/* resolve checked it */
		free(err);
		return -1;
	}
	n = dw_find_modules(s->release, dp->module, (const char *const *)s->vm_insmod.items,
			    s->vm_insmod.len, add_file, &files);
	if (n <= 0) {
		ret = optional ? 0 : -1;
		if (!optional) {
			diag_error(s, dp->mloc, "no module matches '%s' for kernel %s", dp->module,
				   s->release);
			hint_no_module(s, dp->module);
		}
		goto out;
	}
	for (i = 0; i < files.len; i++) {
		struct dwm_file *f = files.items[i];
		struct dwm_walk w = { .s = s, .kind = dp->kind, .label = dp->label,
				      .near_want = pat.line_lo };
		int before = out->len;

		w.mod = dw_module_open(s->release, f->name, f->path, &err);
		if (!w.mod) {
			if (!first_err)
				first_err = err;
			else
				free(err);
			err = NULL;
			nskipped++;
			continue;
		}
		nopened++;
		n = dp->kind != DWM_STATEMENT ? dw_lookup_functions(w.mod, &pat, add_site, &w) :
		    dp->nearest ? pf_nearest_stmts(s, w.mod, &pat, add_stmt, &w) :
		    dw_statements(w.mod, &pat, add_stmt, &w);
		if (n < 0 && !w.too_many) {
			diag_error(s, dp->loc, "dwarf: cannot look up '%s' in module %s (%s)",
				   dp->pattern, f->name, strerror(-n));
			goto out;
		}
		if (w.too_many || out->len + w.matches.len > DWM_MAX_FUNCS) {
			diag_error(s, dp->loc, "'%s' matches more than %d %s, the most one probe "
				   "point may probe", dp->pattern, w.too_many ? w.too_many :
				   DWM_MAX_FUNCS, w.too_many == DWM_MAX_KPROBES ? "addresses" :
				   "functions");
			goto out;
		}
		for (int j = 0; j < w.matches.len; j++) {
			struct dwm_match *m = w.matches.items[j];

			for (int k = 0; k < m->kps.len; k++)
				push_probe(s, &w, dp, optional, m, k, out);
		}
		/* A wildcard module is fine as long as one module matches. */
		if (out->len == before && !optional && !wild)
			no_match_error(s, dp, &w, f->name);
		for (int j = 0; j < w.matches.len; j++)
			vec_free(&((struct dwm_match *)w.matches.items[j])->kps);
		vec_free(&w.matches);
		if (out->len == before && !optional && !wild)
			goto out;
	}
	if (!nopened) {
		ret = optional ? 0 : -1;
		if (!optional) {
			report(s, dp->mloc, first_err, false);
			if (files.len > 1)
				diag_hint(s, "none of the %d modules matching '%s' has debuginfo",
					  files.len, dp->module);
		}
		goto out;
	}
	if (nskipped && !optional)
		diag_warn(s, dp->mloc, "skipped %d of the %d modules matching '%s': no "
			  "debuginfo", nskipped, files.len, dp->module);
	/* As kernel.function: a refused kprobe of several is only a warning. */
	for (i = 0; i < out->len; i++)
		((struct dwm_probe *)((struct resolved_probe *)out->items[i])->family_data)
			->several = out->len > 1;
	ret = out->len;
	if (!ret && !optional) {
		diag_error(s, dp->loc, "no %s matches '%s' in the modules matching '%s'",
			   dp->kind == DWM_STATEMENT ? "statement" : "function", dp->pattern,
			   dp->module);
		ret = -1;
	}
out:
	free(first_err);
	free_files(&files);
	dw_pattern_free(&pat);
	return ret;
}

/* ---- target variables ---- */

static int tv_scope(struct session *s, struct resolved_probe *rp, const struct srcloc *loc,
		    struct tv_scope *out)
{
	struct dwm_probe *p = rp->family_data;

	memset(out, 0, sizeof(*out));
	/* Its globals are refused: their address is not known (see above). */
	if (!tv_object_fn_scope(p->mod, p->kp.die_off, p->kp.pc, p->kp.entry_pc, p->is_return,
				out)) {
		diag_error(s, loc, "dwarf: cannot read the DWARF of module %s (%s)",
			   dw_name(p->mod), dw_debuginfo(p->mod));
		return -1;
	}
	return 0;
}

/* ---- emitting ---- */

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	int i, group = 0;

	sb_puts(c, "/* module(...) probes: runtime/kprobe.c registers them. */\n"
		"#include \"stp_kprobe.h\"\n"
		"static struct stp_kprobe stp_dwmod_kprobes[] = {\n");
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct dwm_probe *p = rp->family_data;
		unsigned flags = (p->is_return ? PF_KP_RETURN : 0) |
				 (p->optional ? PF_KP_OPTIONAL : 0) |
				 (p->several ? PF_KP_WILDCARD : 0);

		/* The matches of one point are adjacent: one group. */
		if (i && rp->point != ((struct resolved_probe *)probes->items[i - 1])->point)
			group = i;
		pf_kprobe_row_entry(c, rp->id, p->kp.symbol, p->kp.offset, p->maxactive, group,
				    flags | (p->kp.fentry ? PF_KP_FENTRY : 0),
				    rp->entry_exprs.len);
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_start(c, "stp_dwmod_kprobes");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_stop(c, "stp_dwmod_kprobes");
}

const struct probe_family pf_dwarf_mod = {
	.name = "module",
	.forms = (const char *const[]){
		"module(S).function(S)[.call|.inline|.return[.maxactive(N)]|.exported|.label(S)]",
		"module(S).statement(S)[.nearest]",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_module,
	.expand = expand_module,
	.tv_scope = tv_scope,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
