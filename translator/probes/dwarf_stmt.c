// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * DWARF statement probes (stapprobes(3stap), DWARF section), in the
 * kernel itself:
 *
 *   kernel.statement("FUNC@FILE:N")      the code of line N of FUNC
 *   kernel.statement("FUNC@FILE:N-M")    every line from N to M that has code
 *   kernel.statement("FUNC@FILE:*")      every line of FUNC
 *   kernel.statement("FUNC@FILE+N")      line N after FUNC's declaration
 *   kernel.statement("FUNC[@FILE]")      FUNC's entry (no prologue skipped)
 *   kernel.statement("...:N").nearest    the nearest line with code to N
 *                                        (also after +N)
 *   kernel.statement(ADDR)               a link-time kernel address that
 *                                        starts a statement (DWARF-checked)
 *   kernel.statement(ADDR).absolute      a run-time address, guru mode only
 *
 * FUNC and FILE take globs as in kernel.function; FILE also matches a
 * path ending in "/FILE".  The functions come from the DWARF index of
 * the target kernel, their lines from the line table of their compile
 * unit: its rows, in FUNC's own file, not
 * before FUNC's declaration line, at an address inside FUNC's code
 * ranges but outside the functions inlined into it (their lines are
 * theirs).  Inlined copies of FUNC count like
 * out-of-line ones: each has its own addresses.
 *
 * A line may have several rows in one copy (a loop's condition, code the
 * compiler duplicated); the probe goes on the lowest address of those
 * that begin a statement (is_stmt), where the line's code is entered
 * first and its variables are where the DWARF says, so a line runs the
 * handler once per pass in straight-line code.  A line whose rows all
 * lack is_stmt (an optimised "return 0;") is probed at its lowest row:
 * SystemTap probes every line there, is_stmt or not, but an instruction
 * scheduled ahead of its statement often sees the variables before
 * they are set (testsuite/run/kmod_tvars' $acc).
 *
 * Each address is its own probe (the expand hook), named as SystemTap
 * names it, kernel.statement("FUNC@FILE:LINE"), so that tv_scope has
 * one pc and one function to find $locals in.  The kprobe goes at
 * symbol + offset of the ELF symbol holding the address (KASLR-proof),
 * in a stp_stmt_kprobes[] table registered by runtime/kprobe.c.
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

/* The most addresses one point may expand to. */
#define ST_MAX_PROBES	5000

/* Which lines a pattern asks for. */
enum st_kind {
	ST_ENTRY,	/* no line: the function's entry */
	ST_LINES,	/* :N or :N-M */
	ST_ALL,		/* :* */
	ST_RELATIVE,	/* +N from the declaration line */
};

/* What resolve() leaves in the point's family_data. */
struct st_point {
	const char *text;		/* the pattern, NULL for an address */
	const struct srcloc *loc;	/* of the argument */
	char *func, *file;		/* globs; file NULL: any */
	enum st_kind kind;
	int lo, hi;			/* ST_LINES; ST_RELATIVE: lo is N */
	bool nearest;			/* .nearest */
	uint64_t addr;			/* kernel.statement(ADDR) */
	bool is_addr, absolute;
};

/* What expand() leaves in each probe's family_data: one address. */
struct st_probe {
	const char *symbol;	/* NULL: .absolute, addr as is */
	uint64_t offset;
	uint64_t addr;		/* link-time address (run-time for .absolute) */
	bool has_fn;		/* fn_die / entry_pc are known */
	uint64_t fn_die;	/* the function copy holding addr */
	uint64_t entry_pc;
	bool optional, several;
};

/* ---- parsing the pattern ---- */

/*
 * FUNC[@FILE[:N|:N-M|:*|+N]] into p; 0, or -1 with *err (malloc'ed).
 * ':' after FUNC without '@' is accepted as SystemTap does ("FUNC:N").
 */
static int parse_pattern(struct session *s, const char *text, struct st_point *p,
			 char **err)
{
	const char *at = strchr(text, '@'), *rest, *sep;
	char *end;
	long lo, hi;

	rest = at ? at + 1 : text;
	sep = strpbrk(rest, ":+");
	p->func = arena_strndup(&s->arena, text, (size_t)((at ? at : sep ? sep : text +
							      strlen(text)) - text));
	if (at)
		p->file = arena_strndup(&s->arena, rest, (size_t)((sep ? sep : rest +
								   strlen(rest)) - rest));
	p->kind = ST_ENTRY;
	if (!*p->func) {
		*err = xasprintf("empty function name in '%s'", text);
		return -1;
	}
	if (p->file && !*p->file) {
		*err = xasprintf("empty file name after '@' in '%s'", text);
		return -1;
	}
	if (!sep)
		return 0;
	if (*sep == ':' && !strcmp(sep + 1, "*")) {
		p->kind = ST_ALL;
		return 0;
	}
	lo = strtol(sep + 1, &end, 10);
	hi = lo;
	if (*sep == ':' && *end == '-' && end != sep + 1)
		hi = strtol(end + 1, &end, 10);
	if (end == sep + 1 || *end || lo < 0 || hi < lo || hi > 10000000 ||
	    (*sep == ':' && lo == 0)) {
		*err = xasprintf("bad line '%s' in '%s': expected :N, :N-M, :* or +N",
				 sep, text);
		return -1;
	}
	p->kind = *sep == '+' ? ST_RELATIVE : ST_LINES;
	p->lo = (int)lo;
	p->hi = (int)hi;
	return 0;
}

/* ---- resolving ---- */

static int unexpected(struct session *s, const struct pp_comp *c, const char *after)
{
	static const char *const valid[] = { "nearest", "absolute" };
	const char *near = diag_closest(c->name, valid, (int)ARRAY_SIZE(valid));

	diag_error(s, &c->loc, "unexpected '%s' after %s", c->name, after);
	if (near && strcmp(near, c->name))
		diag_hint(s, "did you mean '.%s'?", near);
	return -1;
}

/* kernel.statement("PATTERN")[.nearest], kernel.statement(ADDR)[.absolute] */
static int resolve_stmt(struct session *s, struct probe_point *pt,
			struct resolved_probe *rp)
{
	struct pp_comp *k = pt->comps, *f = k->next, *c;
	struct st_point *sp;
	char *err = NULL;

	if (strcmp(k->name, "kernel") || k->arg || !f || strcmp(f->name, "statement"))
		return 0;
	sp = arena_alloc(&s->arena, sizeof(*sp));
	c = f->next;
	if (f->arg && f->arg->kind == ND_NUM) {
		sp->is_addr = true;
		sp->addr = (uint64_t)f->arg->num;
		sp->loc = &f->arg->loc;
		if (c && !strcmp(c->name, "absolute") && !c->arg) {
			sp->absolute = true;
			c = c->next;
		} else if (c && !strcmp(c->name, "nearest") && !c->arg) {
			sp->nearest = true;
			c = c->next;
		}
		if (c)
			return unexpected(s, c, sp->absolute ? ".absolute" : sp->nearest ?
					  ".nearest" : "kernel.statement(ADDR)");
		if (sp->absolute && !s->guru) {
			diag_error(s, &f->next->loc, "kernel.statement(ADDR).absolute is only "
				   "allowed in guru mode");
			diag_hint(s, "use stap -g, or kernel.statement(ADDR) with a "
				  "link-time address of the kernel's debuginfo");
			return -1;
		}
		if (!sp->addr) {
			diag_error(s, sp->loc, "kernel.statement address must not be 0");
			return -1;
		}
		rp->pp = arena_printf(&s->arena, "kernel.statement(0x%" PRIx64 ")%s", sp->addr,
				      sp->absolute ? ".absolute" : sp->nearest ? ".nearest" : "");
		rp->family_data = sp;
		return 1;
	}
	if (!f->arg || f->arg->kind != ND_STR || !f->arg->str_len ||
	    (int)strlen(f->arg->str) != f->arg->str_len) {
		diag_error(s, f->arg ? &f->arg->loc : &f->loc,
			   "kernel.statement needs a quoted pattern or an address: "
			   "kernel.statement(\"FUNC@FILE:LINE\") or kernel.statement(ADDR)");
		return -1;
	}
	sp->text = f->arg->str;
	sp->loc = &f->arg->loc;
	if (c && !strcmp(c->name, "nearest") && !c->arg) {
		sp->nearest = true;
		c = c->next;
	}
	if (c)
		return unexpected(s, c, sp->nearest ? ".nearest" : "kernel.statement(...)");
	if (parse_pattern(s, sp->text, sp, &err) < 0) {
		diag_error(s, sp->loc, "%s", err);
		free(err);
		return -1;
	}
	if (sp->nearest && sp->kind != ST_LINES && sp->kind != ST_RELATIVE) {
		diag_error(s, &f->next->loc, ".nearest needs a line: "
			   "kernel.statement(\"FUNC@FILE:N\").nearest");
		return -1;
	}
	rp->pp = pf_point_text(s, pt);
	rp->family_data = sp;
	return 1;
}

/* ---- the lines of a function copy ---- */

struct range {
	uint64_t lo, hi;
};

/* A growable array of ranges. */
struct ranges {
	struct range *r;
	int n, cap;
};

/* One line of one copy and the lowest address of its code there. */
struct st_line {
	int line;
	bool stmt;		/* the row begins a statement (is_stmt) */
	uint64_t addr;
};

/* A function copy from the index, copied out of the callback. */
struct st_copy {
	char *name, *file;
	int decl_line;
	bool inlined;
	uint64_t entry_pc, die_off;
	/* The index's symbol + offset of probe_pc, or symbol NULL. */
	char *symbol;
	uint64_t probe_pc, sym_offset;
	/* The copy's code range holding probe_pc: in that symbol too. */
	bool range_known;
	uint64_t range_lo, range_hi;
};

static void add_ranges(Dwarf_Die *die, struct ranges *rs)
{
	Dwarf_Addr base, lo, hi;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &lo, &hi)) > 0) {
		if (lo >= hi || !lo)	/* 0: discarded by the linker */
			continue;
		if (rs->n == rs->cap) {
			rs->cap = rs->cap ? 2 * rs->cap : 16;
			rs->r = xrealloc(rs->r, (size_t)rs->cap * sizeof(*rs->r));
		}
		rs->r[rs->n++] = (struct range){ lo, hi };
	}
}

/* The code ranges of the functions inlined into die, at any depth below it. */
static void nested_inlines(Dwarf_Die *die, struct ranges *rs, int depth)
{
	Dwarf_Die c;

	if (depth > 64 || dwarf_child(die, &c) != 0)
		return;
	do {
		int tag = dwarf_tag(&c);

		if (tag == DW_TAG_inlined_subroutine)
			add_ranges(&c, rs);	/* covers its own nesting */
		else if (tag == DW_TAG_lexical_block)
			nested_inlines(&c, rs, depth + 1);
	} while (dwarf_siblingof(&c, &c) == 0);
}

/*
 * Is a inside one of the ranges, past its start?  The start of an
 * inlined callee's range is also where the caller's line that calls it
 * begins (the line table has a row for each at that address).
 */
static bool inside_ranges(const struct ranges *rs, uint64_t a)
{
	for (int i = 0; i < rs->n; i++)
		if (a > rs->r[i].lo && a < rs->r[i].hi)
			return true;
	return false;
}

/* Does a line-table path name the index's file (relative to the tree)? */
static bool same_file(const char *path, const char *file)
{
	size_t lp = strlen(path), lf = strlen(file);

	if (!strcmp(path, file))
		return true;
	return lp > lf && path[lp - lf - 1] == '/' && !strcmp(path + lp - lf, file);
}

static int cmp_line(const void *a, const void *b)
{
	const struct st_line *x = a, *y = b;

	if (x->line != y->line)
		return x->line - y->line;
	if (x->stmt != y->stmt)
		return y->stmt - x->stmt;
	return (x->addr > y->addr) - (x->addr < y->addr);
}

/*
 * The lines of copy cp that have code, each once with its lowest address
 * (the lowest is_stmt one if it has one),
 * sorted by line, into *out (malloc'ed).  Returns how many, or -1 if the
 * copy's DWARF cannot be read.
 */
static int copy_lines(Dwarf *dbg, const struct st_copy *cp, struct st_line **out)
{
	struct ranges own = { 0 }, nested = { 0 };
	Dwarf_Die die, cu;
	Dwarf_Lines *lines;
	size_t nlines;
	struct st_line *v = NULL;
	int n = 0, cap = 0, i, j;

	*out = NULL;
	if (!dwarf_offdie(dbg, cp->die_off, &die) || !dwarf_diecu(&die, &cu, NULL, NULL) ||
	    dwarf_getsrclines(&cu, &lines, &nlines) != 0)
		return -1;
	add_ranges(&die, &own);
	nested_inlines(&die, &nested, 0);
	for (i = 0; i < own.n; i++) {
		size_t lo = 0, hi = nlines;

		while (lo < hi) {	/* first row at or after the range (rows are by address) */
			size_t mid = (lo + hi) / 2;
			Dwarf_Addr a = 0;

			dwarf_lineaddr(dwarf_onesrcline(lines, mid), &a);
			if (a < own.r[i].lo)
				lo = mid + 1;
			else
				hi = mid;
		}
		for (size_t r = lo; r < nlines; r++) {
			Dwarf_Line *l = dwarf_onesrcline(lines, r);
			Dwarf_Addr a = 0;
			bool end = false, stmt = false;
			const char *src;
			int ln = 0;

			dwarf_lineaddr(l, &a);
			if (a >= own.r[i].hi)
				break;
			dwarf_lineendsequence(l, &end);
			dwarf_linebeginstatement(l, &stmt);
			dwarf_lineno(l, &ln);
			/*
			 * A function's lines follow its declaration: a row
			 * before it is an inlined callee's that GCC placed
			 * just outside the callee's ranges (its last line).
			 */
			if (end || ln < cp->decl_line || ln <= 0 ||
			    inside_ranges(&nested, a))
				continue;
			src = dwarf_linesrc(l, NULL, NULL);
			if (!src || !same_file(src, cp->file))
				continue;
			if (n == cap) {
				cap = cap ? 2 * cap : 64;
				v = xrealloc(v, (size_t)cap * sizeof(*v));
			}
			v[n++] = (struct st_line){ ln, stmt, a };
		}
	}
	if (n)
		qsort(v, (size_t)n, sizeof(*v), cmp_line);
	for (i = j = 0; i < n; i++)	/* keep each line's first (cmp_line) */
		if (!j || v[j - 1].line != v[i].line)
			v[j++] = v[i];
	free(own.r);
	free(nested.r);
	*out = v;
	return j;
}

/* ---- expanding: one probe per address ---- */

static int add_copy(const struct dw_site *site, void *arg)
{
	struct vec *v = arg;
	struct st_copy *cp = xcalloc(1, sizeof(*cp));

	cp->name = xstrdup(site->name);
	cp->file = xstrdup(site->file);
	cp->decl_line = site->line;
	cp->inlined = site->inlined;
	cp->entry_pc = site->entry_pc;
	cp->die_off = site->die_off;
	cp->symbol = site->symbol ? xstrdup(site->symbol) : NULL;
	cp->probe_pc = site->probe_pc;
	cp->sym_offset = site->sym_offset;
	vec_push(v, cp);
	return 0;
}

static void free_copies(struct vec *v)
{
	for (int i = 0; i < v->len; i++) {
		struct st_copy *cp = v->items[i];

		free(cp->name);
		free(cp->file);
		free(cp->symbol);
		free(cp);
	}
	vec_free(v);
}

struct st_expand {
	struct session *s;
	const struct st_point *sp;
	struct dw_object *k;
	bool optional;
	struct vec *out;
	int refused, ambiguous, no_symbol;
	const char *refused_sym, *refused_why;
};

/*
 * The symbol + offset of addr in copy cp.  A contiguous code range lies
 * in one symbol, so an address in the range that holds the copy's probe
 * pc is in the symbol the index found for that; others (a .cold part)
 * are looked up in the ELF symbol table, which takes longer to load.
 */
static int copy_symbol(struct st_expand *e, struct st_copy *cp, uint64_t addr,
		       const char **sym, uint64_t *off)
{
	Dwarf_Die die;
	Dwarf_Addr base, lo, hi;
	ptrdiff_t o = 0;

	if (cp && cp->symbol && !cp->range_known) {
		cp->range_known = true;
		if (dwarf_offdie(dw_dwarf(e->k), cp->die_off, &die))
			while ((o = dwarf_ranges(&die, o, &base, &lo, &hi)) > 0)
				if (cp->probe_pc >= lo && cp->probe_pc < hi) {
					cp->range_lo = lo;
					cp->range_hi = hi;
					break;
				}
	}
	if (cp && cp->symbol && addr >= cp->range_lo && addr < cp->range_hi &&
	    cp->probe_pc >= cp->sym_offset) {
		*sym = cp->symbol;
		*off = addr - (cp->probe_pc - cp->sym_offset);
		return 0;
	}
	return dw_symbolize(e->k, addr, sym, off);
}

/*
 * One probe named pp at link-time address addr, in function copy cp
 * (NULL: none known); 0, or 1 at the limit.
 */
static int add_probe(struct st_expand *e, struct st_copy *cp, const char *pp,
		     uint64_t addr)
{
	struct session *s = e->s;
	struct resolved_probe *x;
	struct st_probe *p;
	const char *sym, *why;
	uint64_t off;
	int ncopies;

	if (e->out->len == ST_MAX_PROBES)
		return 1;
	if (copy_symbol(e, cp, addr, &sym, &off) < 0) {
		e->no_symbol++;
		return 0;
	}
	/* What the symbol table knows; without one, registration decides. */
	if (!pf_ksym_check(s->release, sym, &why, &ncopies)) {
		if (why) {
			if (!e->refused++) {
				e->refused_sym = arena_strdup(&s->arena, sym);
				e->refused_why = why;
			}
			return 0;
		}
		if (ncopies > 1) {
			e->ambiguous++;
			return 0;
		}
	}
	p = arena_alloc(&s->arena, sizeof(*p));
	p->symbol = arena_strdup(&s->arena, sym);
	p->offset = off;
	p->addr = addr;
	p->has_fn = cp != NULL;
	p->fn_die = cp ? cp->die_off : 0;
	p->entry_pc = cp ? cp->entry_pc : 0;
	p->optional = e->optional;
	x = arena_alloc(&s->arena, sizeof(*x));
	x->pp = pp;
	x->family_data = p;
	vec_push(e->out, x);
	return 0;
}

/* SystemTap's name of a line's probe: kernel.statement("FUNC@FILE:LINE"). */
static const char *line_pp(struct session *s, const struct st_copy *cp, int line)
{
	return arena_printf(&s->arena, "kernel.statement(\"%s@%s:%d\")", cp->name,
			    cp->file, line);
}

/* "450 and 452": the lines with code around want, for a hint. */
static char *nearby_lines(const struct st_line *v, int n, int want)
{
	struct strbuf sb = STRBUF_INIT;
	int i, below = -1, above = -1;

	for (i = 0; i < n; i++) {
		if (v[i].line < want)
			below = i;
		else if (above < 0)
			above = i;
	}
	if (below >= 0)
		sb_printf(&sb, "%d", v[below].line);
	if (above >= 0)
		sb_printf(&sb, "%s%d", below >= 0 ? " and " : "", v[above].line);
	return sb_steal(&sb);
}

/* The line .nearest picks for want: the closest with code, the later on a tie. */
static int nearest_line(const struct st_line *v, int n, int want)
{
	int best = v[0].line;

	for (int i = 1; i < n; i++) {
		int d = abs(v[i].line - want), bd = abs(best - want);

		if (d < bd || (d == bd && v[i].line > best))
			best = v[i].line;
	}
	return best;
}

/* Are all the copies of one function (name, file, declaration line)? */
static bool one_function(const struct vec *copies)
{
	const struct st_copy *a = copies->items[0];

	for (int i = 1; i < copies->len; i++) {
		const struct st_copy *b = copies->items[i];

		if (strcmp(a->name, b->name) || strcmp(a->file, b->file) ||
		    a->decl_line != b->decl_line)
			return false;
	}
	return true;
}

static int expand_pattern(struct st_expand *e)
{
	struct session *s = e->s;
	const struct st_point *sp = e->sp;
	struct dw_pattern pat = { .name = sp->func, .file = sp->file };
	struct vec copies = VEC_INIT;
	Dwarf *dbg = dw_dwarf(e->k);
	struct st_line *lines = NULL, *first_lines = NULL;
	int nfirst = 0, ncode_copies = 0, ret = -1, n, i, j;
	bool full = false;

	if (!dbg) {
		diag_error(s, sp->loc, "cannot read the DWARF of %s", dw_debuginfo(e->k));
		return -1;
	}
	n = dw_lookup_functions(e->k, &pat, add_copy, &copies);
	if (n < 0) {
		diag_error(s, sp->loc, "dwarf: cannot look up '%s' in the index of kernel %s (%s)",
			   sp->text, s->release, strerror(-n));
		goto out;
	}
	for (i = 0; i < copies.len && !full; i++) {
		struct st_copy *cp = copies.items[i];
		int lo = sp->lo, hi = sp->hi;

		if (sp->kind == ST_ENTRY) {
			full = add_probe(e, cp, line_pp(s, cp, cp->decl_line), cp->entry_pc);
			continue;
		}
		n = copy_lines(dbg, cp, &lines);
		if (n <= 0)
			continue;
		ncode_copies++;
		if (sp->kind == ST_RELATIVE)
			lo = hi = cp->decl_line + sp->lo;
		int want = lo, first = e->out->len;

		if (sp->nearest) {
			bool has = false;

			for (j = 0; j < n; j++)
				has |= lines[j].line == lo;
			if (!has)
				lo = hi = nearest_line(lines, n, lo);
		}
		for (j = 0; j < n && !full; j++)
			if (sp->kind == ST_ALL || (lines[j].line >= lo && lines[j].line <= hi))
				full = add_probe(e, cp, line_pp(s, cp, lines[j].line),
						 lines[j].addr);
		/* stap -l names the line asked for, as SystemTap 4.8's does. */
		for (j = first; sp->nearest && j < e->out->len; j++)
			((struct resolved_probe *)e->out->items[j])->list_pp =
				arena_printf(&s->arena, "kernel.statement(\"%s@%s:%d\").nearest",
					     cp->name, cp->file, want);
		if (!first_lines) {
			first_lines = lines;
			nfirst = n;
		} else {
			free(lines);
		}
		lines = NULL;
	}
	if (full) {
		diag_error(s, sp->loc, "'%s' matches more than %d addresses, the most one "
			   "probe point may probe", sp->text, ST_MAX_PROBES);
		goto out;
	}
	if (e->out->len || e->optional) {
		ret = e->out->len;
		goto out;
	}
	if (!copies.len) {
		diag_error(s, sp->loc, "no kernel function matches '%s'", sp->func);
		diag_hint(s, "stap -l 'kernel.function(\"%s\")' lists the functions it "
			  "would match", sp->func);
	} else if (e->refused) {
		diag_error(s, sp->loc, "cannot probe '%s': its code in '%s' %s",
			   sp->text, e->refused_sym, e->refused_why);
	} else if (e->ambiguous) {
		diag_error(s, sp->loc, "cannot probe '%s': its code is only in functions "
			   "whose symbol names are not unique", sp->text);
	} else if (e->no_symbol) {
		diag_error(s, sp->loc, "'%s' matches only code outside the kernel's symbols",
			   sp->text);
	} else if (!ncode_copies) {
		diag_error(s, sp->loc, "no line records for '%s'", sp->text);
	} else if (!one_function(&copies)) {
		char what[48];

		/* Line numbers mean something per function: no nearby lines to give. */
		if (sp->kind == ST_RELATIVE)
			snprintf(what, sizeof(what), "+%d", sp->lo);
		else if (sp->lo == sp->hi)
			snprintf(what, sizeof(what), "line %d", sp->lo);
		else
			snprintf(what, sizeof(what), "lines %d-%d", sp->lo, sp->hi);
		diag_error(s, sp->loc, "no code at %s in the functions matching '%s'", what,
			   sp->text);
		diag_hint(s, "stap -l 'kernel.statement(\"%s@%s:*\")' lists their lines that "
			  "have code", sp->func, sp->file ? sp->file : "*");
	} else {
		const struct st_copy *cp = copies.items[0];
		int want = sp->kind == ST_RELATIVE ? cp->decl_line + sp->lo : sp->lo;
		char *near = nearby_lines(first_lines, nfirst, want);

		if (sp->lo == sp->hi || sp->kind == ST_RELATIVE)
			diag_error(s, sp->loc, "no code at line %d of %s in '%s'", want,
				   cp->file, cp->name);
		else
			diag_error(s, sp->loc, "no code at lines %d-%d of %s in '%s'", sp->lo,
				   sp->hi, cp->file, cp->name);
		if (*near)
			diag_hint(s, "nearest lines with code: %s; or add .nearest", near);
		diag_hint(s, "stap -l 'kernel.statement(\"%s@%s:*\")' lists the lines "
			  "that have code", cp->name, cp->file);
		free(near);
	}
out:
	free(lines);
	free(first_lines);
	free_copies(&copies);
	return ret;
}

/*
 * kernel.statement(ADDR): a link-time address that must start a
 * statement in some function's line table (guru mode waives that).
 */
static int expand_addr(struct st_expand *e)
{
	struct session *s = e->s;
	const struct st_point *sp = e->sp;
	Dwarf *dbg = dw_dwarf(e->k);
	Dwarf_Die cu, *scopes = NULL, fn;
	struct st_copy cp = { 0 };
	Dwarf_Addr la = 0, entry, addr = sp->addr;
	bool stmt = false, have_fn = false;
	int n, i;

	if (!dbg || !dwarf_addrdie(dbg, sp->addr, &cu)) {
		if (e->optional)
			return 0;
		diag_error(s, sp->loc, "no kernel code at 0x%" PRIx64 " in the DWARF of "
			   "kernel %s", sp->addr, s->release);
		diag_hint(s, "kernel.statement(ADDR) takes a link-time address (as in "
			  "System.map); with -g, .absolute takes a run-time one");
		return -1;
	}
	stmt = pf_stmt_begin(&cu, sp->addr, &la);
	/* .nearest: the beginning of the statement holding it. */
	if (sp->nearest && stmt)
		addr = la;
	if ((!stmt || la != addr) && !s->guru) {
		if (e->optional)
			return 0;
		diag_error(s, sp->loc, "0x%" PRIx64 " is not at the beginning of a statement",
			   sp->addr);
		if (stmt)
			diag_hint(s, "the statement holding it begins at 0x%" PRIx64 ": probe "
				  "that, or add .nearest, or use stap -g to probe it anyway", la);
		else
			diag_hint(s, "use an address stap -l 'kernel.statement(\"FUNC@FILE:*\")' "
				  "lines start at, or stap -g to probe it anyway");
		return -1;
	}
	/* The innermost function around it gives $locals their scope. */
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (i = 0; i < n && !have_fn; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine) {
			fn = scopes[i];
			have_fn = true;
		}
	}
	free(scopes);
	if (have_fn) {
		cp.die_off = dwarf_dieoffset(&fn);
		cp.entry_pc = dwarf_entrypc(&fn, &entry) == 0 ? entry : addr;
	}
	add_probe(e, have_fn ? &cp : NULL,
		  arena_printf(&s->arena, "kernel.statement(0x%" PRIx64 ")", addr), addr);
	if (e->out->len || e->optional)
		return e->out->len;
	if (e->refused)
		diag_error(s, sp->loc, "cannot probe 0x%" PRIx64 ": its code in '%s' %s",
			   sp->addr, e->refused_sym, e->refused_why);
	else if (e->ambiguous)
		diag_error(s, sp->loc, "cannot probe 0x%" PRIx64 ": it is in a function whose "
			   "symbol name is not unique", sp->addr);
	else
		diag_error(s, sp->loc, "0x%" PRIx64 " is outside the kernel's function symbols",
			   sp->addr);
	return -1;
}

static int expand_stmt(struct session *s, struct resolved_probe *rp, struct vec *out)
{
	const struct st_point *sp = rp->family_data;
	struct st_expand e = { .s = s, .sp = sp, .optional = rp->point->optional, .out = out };
	int n;

	if (sp->absolute) {
		struct st_probe *p = arena_alloc(&s->arena, sizeof(*p));
		struct resolved_probe *x = arena_alloc(&s->arena, sizeof(*x));

		p->addr = sp->addr;
		p->optional = e.optional;
		x->pp = rp->pp;
		x->family_data = p;
		vec_push(out, x);
		return 1;
	}
	/* '?': a point that cannot be resolved is dropped, as SystemTap does. */
	e.k = pf_kernel(s, sp->loc, e.optional);
	if (!e.k)
		return e.optional ? 0 : -1;
	n = sp->is_addr ? expand_addr(&e) : expand_pattern(&e);
	for (int i = 0; i < out->len; i++)
		((struct st_probe *)((struct resolved_probe *)out->items[i])->family_data)
			->several = out->len > 1;
	return n;
}

/* ---- target variables ---- */

static int tv_scope(struct session *s, struct resolved_probe *rp,
		    const struct srcloc *loc, struct tv_scope *out)
{
	const struct st_probe *p = rp->family_data;
	struct dw_object *k;

	if (!p->has_fn) {
		diag_error(s, loc, "%s has no DWARF context for target variables", rp->pp);
		if (!p->symbol)
			diag_hint(s, "an .absolute address has none; kernel.statement(ADDR) "
				  "without .absolute has");
		return -1;
	}
	k = pf_kernel(s, loc, false);
	if (!k)
		return -1;
	if (!tv_object_fn_scope(k, p->fn_die, p->addr, p->entry_pc, false, out)) {
		diag_error(s, loc, "cannot read the DWARF of %s for target variables", rp->pp);
		return -1;
	}
	out->args = NULL;
	out->nargs = 0;
	return 0;
}

/* ---- listing: stap -l / -L ---- */

/* Does variable d have a value at pc (a location there, or a constant)? */
static bool has_location(Dwarf_Die *d, uint64_t pc)
{
	Dwarf_Attribute a;
	Dwarf_Op *ops;
	size_t nops;

	if (dwarf_hasattr_integrate(d, DW_AT_const_value))
		return true;
	return dwarf_attr_integrate(d, DW_AT_location, &a) &&
	       dwarf_getlocation_addr(&a, pc, &ops, &nops, 1) > 0;
}

/*
 * "$a:int $b:char*": what a probe at pc in copy fn can read, as -L lists
 * it: every parameter, then the locals in scope there (outermost scope
 * first) that have a location at pc.
 */
static char *vars_at(Dwarf *dbg, uint64_t fn_off, uint64_t pc)
{
	struct strbuf sb = STRBUF_INIT;
	struct vec seen = VEC_INIT;
	Dwarf_Die fn, cu, *scopes = NULL;
	int n, i, top = -1;

	if (!dwarf_offdie(dbg, fn_off, &fn) || !dwarf_diecu(&fn, &cu, NULL, NULL))
		return xstrdup("");
	n = dwarf_getscopes(&cu, pc, &scopes);
	for (i = 0; i < n && top < 0; i++)
		if (dwarf_dieoffset(&scopes[i]) == fn_off)
			top = i;
	if (top < 0) {	/* pc outside fn: its parameters alone */
		free(scopes);
		scopes = &fn;
		top = 0;
		n = 0;
	}
	for (int pass = 0; pass < 2; pass++) {
		/* pass 0: fn's parameters; pass 1: locals, outermost scope first */
		for (i = pass ? top : top; i >= (pass ? 0 : top); i--) {
			Dwarf_Die c;

			if (dwarf_child(&scopes[i], &c) != 0)
				continue;
			do {
				Dwarf_Attribute a;
				Dwarf_Die t;
				const char *name;
				char *tn;
				int tag = dwarf_tag(&c);
				bool dup = false;

				if (tag != (pass ? DW_TAG_variable : DW_TAG_formal_parameter) ||
				    dwarf_hasattr_integrate(&c, DW_AT_external) ||
				    dwarf_hasattr(&c, DW_AT_declaration))
					continue;
				/* Locals only where a probe at pc can read them. */
				if (pass && !has_location(&c, pc))
					continue;
				name = dwarf_attr_integrate(&c, DW_AT_name, &a) ?
				       dwarf_formstring(&a) : NULL;
				if (!name)
					continue;
				for (int j = 0; j < seen.len && !dup; j++)
					dup = !strcmp(seen.items[j], name);
				if (dup)
					continue;
				vec_push(&seen, (void *)name);
				tn = dwarf_attr_integrate(&c, DW_AT_type, &a) &&
				     dwarf_formref_die(&a, &t) ? dw_type_name(&t) : xstrdup("void");
				sb_printf(&sb, "%s$%s:%s", sb.len ? " " : "", name, tn);
				free(tn);
			} while (dwarf_siblingof(&c, &c) == 0);
		}
	}
	if (n > 0)
		free(scopes);
	vec_free(&seen);
	return sb.len ? sb_steal(&sb) : xstrdup("");
}

int pf_stmt_list(struct session *s, const char *pattern, bool with_vars,
		 struct vec *lines)
{
	static const char pre[] = "kernel.statement(\"";
	struct st_point sp = { 0 };
	struct vec out = VEC_INIT, done = VEC_INIT;
	struct st_expand e = { .s = s, .sp = &sp, .optional = true, .out = &out };
	size_t len = strlen(pattern);
	char *text, *perr = NULL;
	int n;

	if (strncmp(pattern, pre, strlen(pre)))
		return 1;
	/* .nearest: as a script resolves it (list.c), named as asked. */
	if (len > 10 && !strcmp(pattern + len - 10, "\").nearest"))
		return 1;
	if (len < strlen(pre) + 2 || strcmp(pattern + len - 2, "\")")) {
		util_err("cannot list '%s': expected kernel.statement(\"FUNC@FILE:LINE\")",
			 pattern);
		return -1;
	}
	text = arena_strndup(&s->arena, pattern + strlen(pre), len - strlen(pre) - 2);
	sp.text = text;
	if (parse_pattern(s, text, &sp, &perr) < 0) {
		util_err("%s", perr);
		free(perr);
		return -1;
	}
	e.k = pf_kernel(s, NULL, false);
	if (!e.k)
		return -1;
	n = expand_pattern(&e);
	for (int i = 0; n > 0 && i < out.len; i++) {
		struct resolved_probe *x = out.items[i];
		const struct st_probe *p = x->family_data;
		bool dup = false;

		/* One line per point: the copies of a line share its pp. */
		for (int j = 0; j < done.len && !dup; j++)
			dup = !strcmp(done.items[j], x->pp);
		if (dup)
			continue;
		vec_push(&done, (void *)x->pp);
		if (with_vars && p->has_fn) {
			char *v = vars_at(dw_dwarf(e.k), p->fn_die, p->addr);

			vec_push(lines, *v ? xasprintf("%s %s", x->pp, v) : xstrdup(x->pp));
			free(v);
		} else {
			vec_push(lines, xstrdup(x->pp));
		}
	}
	vec_free(&out);
	vec_free(&done);
	return 0;
}

/* ---- emitting ---- */

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	int i, group = 0;

	(void)s;
	sb_puts(c, "/* kernel.statement probes: runtime/kprobe.c registers them. */\n"
		"#include \"stp_kprobe.h\"\n"
		"static struct stp_kprobe stp_stmt_kprobes[] = {\n");
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct st_probe *p = rp->family_data;
		unsigned flags = (p->optional ? PF_KP_OPTIONAL : 0) |
				 (p->several ? PF_KP_WILDCARD : 0);

		/* The probes of one point are adjacent: one group. */
		if (i && rp->point != ((struct resolved_probe *)probes->items[i - 1])->point)
			group = i;
		pf_kprobe_row(c, rp->id, p->symbol, p->symbol ? p->offset : p->addr, -1,
			      group, flags);
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_start(c, "stp_stmt_kprobes");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	pf_kprobe_emit_stop(c, "stp_stmt_kprobes");
}

const struct probe_family pf_dwarf_stmt = {
	.name = "kernel.statement",
	.forms = (const char *const[]){
		"kernel.statement(S)[.nearest]",
		"kernel.statement(N)[.absolute|.nearest]",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_stmt,
	.expand = expand_stmt,
	.tv_scope = tv_scope,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
