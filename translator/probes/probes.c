// SPDX-License-Identifier: GPL-2.0-or-later
/* The table of probe families and helpers they share. */
#include <dwarf.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"
#include "../dw.h"
#include "../tvar.h"

extern const struct probe_family pf_begin, pf_end, pf_error, pf_never;
extern const struct probe_family pf_timer;
extern const struct probe_family pf_dwarf_func, pf_dwarf_mod, pf_dwarf_stmt, pf_kprobe;
extern const struct probe_family pf_trace, pf_procfs, pf_netfilter, pf_uprobe, pf_utask;
extern const struct probe_family pf_hwbkpt, pf_perf, pf_obsolete;

/* Tried in order; the first family that claims a point gets it. */
const struct probe_family *const pf_families[] = {
	/*
	 * Start and stop code run in this order too: timers and kprobes
	 * stop before end probes run.
	 */
	&pf_begin, &pf_timer, &pf_dwarf_func, &pf_dwarf_mod, &pf_dwarf_stmt, &pf_kprobe,
	&pf_trace, &pf_procfs, &pf_netfilter, &pf_uprobe, &pf_utask, &pf_hwbkpt, &pf_perf,
	&pf_end, &pf_error, &pf_never, &pf_obsolete,
};
const int pf_nfamilies = (int)ARRAY_SIZE(pf_families);

char *pf_point_text(struct session *s, const struct probe_point *pt)
{
	struct strbuf sb = STRBUF_INIT;
	const struct pp_comp *c;
	char *out;

	for (c = pt->comps; c; c = c->next) {
		sb_puts(&sb, c->name);
		if (c->arg) {
			sb_putc(&sb, '(');
			ast_print_expr(&sb, c->arg);
			sb_putc(&sb, ')');
		}
		if (c->next)
			sb_putc(&sb, '.');
	}
	out = arena_strdup(&s->arena, sb_str(&sb));
	sb_free(&sb);
	return out;
}

/*
 * The session's kernel DWARF (tv_kernel: its DIEs outlive pass 2),
 * reporting a failure at loc, or on stderr when loc is NULL, unless quiet.
 */
struct dw_object *pf_kernel(struct session *s, const struct srcloc *loc, bool quiet)
{
	char *err = NULL;
	struct dw_object *k = tv_kernel(s, &err);
	const char *hint = err ? strstr(err, "\nhint: ") : NULL;

	if (k || quiet || !err)
		goto out;
	if (!loc)	/* err: "subject: message" and perhaps "\nhint: ..." */
		fprintf(stderr, "%s: %s\n", util_progname, err);
	else if (!hint)
		diag_error(s, loc, "%s", err);
	else {
		diag_error(s, loc, "%.*s", (int)(hint - err), err);
		diag_hint(s, "%s", hint + 7);
	}
out:
	free(err);
	return k;
}

void pf_rewrite_walk(struct session *s, struct node **np, pf_rewrite_fn fn, void *arg)
{
	for (struct node *n = *np; n; np = &(*np)->next, n = *np) {
		if (fn(s, np, arg))
			continue;
		pf_rewrite_walk(s, &n->lhs, fn, arg);
		pf_rewrite_walk(s, &n->rhs, fn, arg);
		pf_rewrite_walk(s, &n->cond, fn, arg);
		pf_rewrite_walk(s, &n->then, fn, arg);
		pf_rewrite_walk(s, &n->els, fn, arg);
		pf_rewrite_walk(s, &n->init, fn, arg);
		pf_rewrite_walk(s, &n->step, fn, arg);
		pf_rewrite_walk(s, &n->body, fn, arg);
		pf_rewrite_walk(s, &n->limit, fn, arg);
		pf_rewrite_walk(s, &n->args, fn, arg);
		pf_rewrite_walk(s, &n->value, fn, arg);
		for (struct member *m = n->members; m; m = m->next)
			pf_rewrite_walk(s, &m->index, fn, arg);
	}
}

struct node *pf_call_node(struct session *s, const struct node *at, const char *fn,
			  struct node *arg)
{
	struct node *n = arena_alloc(&s->arena, sizeof(*n));

	n->kind = ND_CALL;
	n->loc = at->loc;
	n->str = fn;
	n->args = arg;
	n->num = arg ? 1 : 0;	/* the argument count, as the parser sets it */
	n->next = at->next;
	return n;
}

int pf_unexpected(struct session *s, const struct pp_comp *c, const char *after,
		  const char *const *valid, int nvalid)
{
	const char *near = nvalid ? diag_closest(c->name, valid, nvalid) : NULL;

	diag_error(s, &c->loc, "unexpected '%s' after %s", c->name, after);
	if (near && strcmp(near, c->name))
		diag_hint(s, "did you mean '.%s'?", near);
	return -1;
}

const char *pf_string_arg(struct session *s, const struct pp_comp *c, const char *usage)
{
	if (c->arg && c->arg->kind == ND_STR && c->arg->str_len &&
	    (int)strlen(c->arg->str) == c->arg->str_len)
		return c->arg->str;
	diag_error(s, c->arg ? &c->arg->loc : &c->loc, "%s needs a quoted argument: %s",
		   c->name, usage);
	return NULL;
}

int pf_each_own_die(Dwarf_Die *parent, pf_die_fn fn, void *arg)
{
	Dwarf_Die child;
	int ret = 0;

	if (dwarf_child(parent, &child) != 0)
		return 0;
	do {
		ret = dwarf_tag(&child) == DW_TAG_lexical_block ? pf_each_own_die(&child, fn, arg)
								: fn(&child, arg);
	} while (!ret && dwarf_siblingof(&child, &child) == 0);
	return ret;
}

struct each_label {
	const char *pattern;
	pf_label_fn fn;
	void *arg;
};

static int label_die(Dwarf_Die *die, void *arg)
{
	struct each_label *e = arg;
	Dwarf_Attribute a;
	Dwarf_Addr pc;
	const char *name;
	int line;

	if (dwarf_tag(die) != DW_TAG_label)
		return 0;
	name = dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &a));
	if (!name || fnmatch(e->pattern, name, 0) || dwarf_lowpc(die, &pc))
		return 0;	/* a label the compiler dropped has no address */
	if (dwarf_decl_line(die, &line) != 0)
		line = 0;
	return e->fn(name, pc, line, e->arg);
}

int pf_each_label(Dwarf_Die *parent, const char *pattern, pf_label_fn fn, void *arg)
{
	struct each_label e = { pattern, fn, arg };

	return pf_each_own_die(parent, label_die, &e);
}

bool pf_die_external(Dwarf *dbg, uint64_t die_off)
{
	Dwarf_Die die;

	return dwarf_offdie(dbg, die_off, &die) && dwarf_hasattr_integrate(&die, DW_AT_external);
}

uint64_t pf_func_at(Dwarf *dbg, uint64_t addr, const char **name)
{
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Attribute a;
	uint64_t off = 0;
	int n = dbg && dwarf_addrdie(dbg, addr, &cu) ? dwarf_getscopes(&cu, addr, &scopes) : 0;

	for (int i = n - 1; i >= 0 && !off; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram) {
			*name = dwarf_formstring(dwarf_attr_integrate(&scopes[i], DW_AT_name, &a));
			off = *name ? dwarf_dieoffset(&scopes[i]) : 0;
		}
	free(scopes);
	return off;
}

bool pf_stmt_begin(Dwarf_Die *cu, Dwarf_Addr addr, Dwarf_Addr *begin)
{
	Dwarf_Lines *lines;
	size_t n;
	bool found = false;

	if (dwarf_getsrclines(cu, &lines, &n) != 0)
		return false;
	for (size_t i = 0; i < n; i++) {
		Dwarf_Line *l = dwarf_onesrcline(lines, i);
		Dwarf_Addr a;
		bool end = false;

		if (!l || dwarf_lineaddr(l, &a) || a > addr)
			continue;
		dwarf_lineendsequence(l, &end);
		if (!end && (!found || a > *begin)) {
			*begin = a;
			found = true;
		}
	}
	return found;
}
