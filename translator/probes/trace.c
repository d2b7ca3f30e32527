// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoint probes (stapprobes(3stap), TRACEPOINTS):
 *
 *   kernel.trace("NAME")          NAME in any system
 *   kernel.trace("SYSTEM:NAME")   "sched:sched_switch"
 *
 * Both parts take globs (* ? [..]).  Each matched tracepoint becomes its
 * own probe (the family's expand hook) whose pp is SystemTap's
 * kernel.trace("SYSTEM:NAME"), and whose target variables are the
 * tracepoint's arguments as its prototype names them ($prev, $next,
 * $$parms).
 *
 * The tracepoints, their systems and prototypes come from the target
 * kernel's debuginfo (dw_tracepoints: the __traceiter_NAME function of
 * each tracepoint has the prototype as its parameters after __data), never
 * from the running kernel, so -r RELEASE works for any installed kernel.
 *
 * At run time (runtime/tracepoint.c) the kernel calls a registered probe
 * as fn(void *data, ARGS...).  The generated callback for a tracepoint
 * of N arguments is declared fn(void *data, unsigned long a0, ..., aN-1).
 * That is sound on x86-64 (the SysV ABI) because every argument this
 * family accepts is of INTEGER class and at most 8 bytes (integers,
 * enums, bool, pointers): each travels in one register, or beyond the
 * sixth in one 8-byte stack slot, in order, whatever its C type.  The
 * bits above a narrower argument are unspecified, so the C read for it
 * truncates and sign- or zero-extends by its DWARF type.  Tracepoints
 * whose prototype has anything else (a struct or union by value, a
 * floating-point or 128-bit value) or more than TR_MAX_ARGS arguments
 * are refused.
 *
 * Limits: tracepoints of modules are not probed (their tracepoints are
 * only known once the module is loaded).  DWARF for the kernel is
 * required, as for kernel.function.
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

/* The most arguments a tracepoint may have to be probed. */
#define TR_MAX_ARGS	16
/* The most tracepoints one point may expand to. */
#define TR_MAX_MATCHES	5000

/* What resolve() leaves in the point's family_data. */
struct tr_point {
	const char *pattern;		/* the argument as written */
	const char *sys, *name;		/* its globs; sys "*" when not given */
	const struct srcloc *loc;	/* of the argument, for messages */
	const char *nr;			/* .nr("CALL"): one system call, or NULL */
	const char *nr32;		/* .compat(N): its 32-bit (ia32) number, or NULL */
};

/* One argument of a tracepoint. */
struct tr_arg {
	const char *name;
	Dwarf_Die type;		/* as declared (typedefs kept, for -L and tvar) */
	const char *cexpr;	/* its value as an unsigned long, from c->args[i] */
};

/* What expand() leaves in each match's family_data. */
struct tr_probe {
	const char *name, *system;
	const char *nr, *nr32;		/* see struct tr_point */
	bool optional;
	int nargs;
	struct tr_arg *args;
};

/* ---- a tracepoint's prototype ---- */

/* DW_AT_name, also through DW_AT_abstract_origin. */
static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_name, &a) ? dwarf_formstring(&a) : NULL;
}

static bool die_type(Dwarf_Die *die, Dwarf_Die *out)
{
	Dwarf_Attribute a;

	return dwarf_attr_integrate(die, DW_AT_type, &a) && dwarf_formref_die(&a, out);
}

/*
 * The C read of argument i of type t (see the top of the file), or NULL
 * with *why set if an argument of that type cannot be passed this way.
 */
static const char *arg_cexpr(struct session *s, Dwarf_Die *t, int i, const char **why)
{
	Dwarf_Die u = *t;
	Dwarf_Attribute a;
	Dwarf_Word size = 8, enc = DW_ATE_unsigned;
	int depth = 0;

	for (;;) {
		int tag = dwarf_tag(&u);

		if (depth++ > 16) {
			*why = "has a type too deeply nested";
			return NULL;
		}
		if (tag == DW_TAG_typedef || tag == DW_TAG_const_type ||
		    tag == DW_TAG_volatile_type || tag == DW_TAG_restrict_type ||
		    tag == DW_TAG_atomic_type) {
			if (!die_type(&u, &u)) {	/* const void: not a value */
				*why = "has no value type";
				return NULL;
			}
			continue;
		}
		if (tag == DW_TAG_pointer_type)
			break;
		if (tag == DW_TAG_base_type || tag == DW_TAG_enumeration_type) {
			if (dwarf_attr(&u, DW_AT_byte_size, &a))
				dwarf_formudata(&a, &size);
			if (tag == DW_TAG_base_type && dwarf_attr(&u, DW_AT_encoding, &a))
				dwarf_formudata(&a, &enc);
			if (tag == DW_TAG_enumeration_type) {
				Dwarf_Die under;

				/* An enum's sign is its underlying type's. */
				if (die_type(&u, &under) && dwarf_attr(&under, DW_AT_encoding, &a))
					dwarf_formudata(&a, &enc);
			}
			break;
		}
		*why = tag == DW_TAG_structure_type ? "passes a struct by value" :
		       tag == DW_TAG_union_type ? "passes a union by value" :
		       "has an argument that is not an integer or a pointer";
		return NULL;
	}
	if (enc == DW_ATE_float || enc == DW_ATE_complex_float) {
		*why = "passes a floating-point value";
		return NULL;
	}
	if (size > 8 || size == 0 || (size & (size - 1))) {
		*why = "passes a value wider than a register";
		return NULL;
	}
	if (size == 8)
		return arena_printf(&s->arena, "c->args[%d]", i);
	if (enc == DW_ATE_signed || enc == DW_ATE_signed_char)
		return arena_printf(&s->arena, "(unsigned long)(long)(s%d)c->args[%d]",
				    (int)size * 8, i);
	return arena_printf(&s->arena, "(unsigned long)(u%d)c->args[%d]", (int)size * 8, i);
}

/*
 * Read the prototype of tracepoint tp into pr.  0; -1 with *why if it
 * cannot be probed.
 */
static int read_args(struct session *s, Dwarf *dbg, const struct dw_tracepoint *tp,
		     struct tr_probe *pr, const char **why)
{
	Dwarf_Die fn, c;
	struct tr_arg args[TR_MAX_ARGS];
	bool first = true;
	int n = 0;

	*why = NULL;
	if (!dbg || !dwarf_offdie(dbg, tp->die_off, &fn)) {
		*why = "has no readable DWARF";
		return -1;
	}
	if (dwarf_child(&fn, &c) == 0) {
		do {
			const char *name;

			if (dwarf_tag(&c) != DW_TAG_formal_parameter)
				continue;
			if (first) {	/* void *__data: the registrant's data */
				first = false;
				continue;
			}
			if (n == TR_MAX_ARGS) {
				*why = "has more arguments than a probe can take (TR_MAX_ARGS is 16)";
				return -1;
			}
			name = die_name(&c);
			if (!name || !die_type(&c, &args[n].type)) {
				*why = "has an argument without a name or type in its DWARF";
				return -1;
			}
			args[n].name = arena_strdup(&s->arena, name);
			args[n].cexpr = arg_cexpr(s, &args[n].type, n, why);
			if (!args[n].cexpr)
				return -1;
			n++;
		} while (dwarf_siblingof(&c, &c) == 0);
	}
	pr->nargs = n;
	pr->args = arena_alloc(&s->arena, (size_t)(n ? n : 1) * sizeof(*pr->args));
	memcpy(pr->args, args, (size_t)n * sizeof(*args));
	return 0;
}

/* ---- resolving ---- */

static bool has_wildcard(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/* kernel.trace("[SYSTEM:]NAME") */
static int resolve_trace(struct session *s, struct probe_point *pt,
			 struct resolved_probe *rp)
{
	struct pp_comp *k = pt->comps, *t = k->next;
	struct tr_point *tp;
	const char *arg, *colon;

	if (strcmp(k->name, "kernel") || k->arg || !t || strcmp(t->name, "trace"))
		return 0;
	if (!t->arg || t->arg->kind != ND_STR || !t->arg->str_len ||
	    (int)strlen(t->arg->str) != t->arg->str_len) {
		diag_error(s, t->arg ? &t->arg->loc : &t->loc,
			   "kernel.trace needs a quoted tracepoint name: "
			   "kernel.trace(\"[SYSTEM:]NAME\")");
		return -1;
	}
	tp = arena_alloc(&s->arena, sizeof(*tp));
	/*
	 * kernel.trace("raw_syscalls:sys_enter").nr("openat"): only when
	 * the current call is that one (x86-64 __NR_openat), the form the
	 * syscall.* aliases use, as SystemTap's use the same tracepoints.
	 * .compat(N) after it: also a 32-bit (ia32) task's call number N;
	 * .nr(-1).compat(N): only that one.
	 */
	if (t->next && !strcmp(t->next->name, "nr") &&
	    (!t->next->next || (!strcmp(t->next->next->name, "compat") &&
				!t->next->next->next)) &&
	    (!strcmp(t->arg->str, "raw_syscalls:sys_enter") ||
	     !strcmp(t->arg->str, "raw_syscalls:sys_exit"))) {
		const struct node *a = t->next->arg, *b = t->next->next ? t->next->next->arg : NULL;

		if (a && a->kind == ND_NUM && a->num >= -1 && a->num < 4096) {
			/* -2: no x86-64 call, which no call number equals */
			tp->nr = arena_printf(&s->arena, "%d", a->num < 0 ? -2 : (int)a->num);
		} else if (a && a->kind == ND_STR && a->str_len &&
			   !a->str[strspn(a->str, "abcdefghijklmnopqrstuvwxyz0123456789_")]) {
			tp->nr = arena_printf(&s->arena, "__NR_%s", a->str);
		} else {
			diag_error(s, a ? &a->loc : &t->next->loc, ".nr needs a system call "
				   "number or name: .nr(0), .nr(\"read\")");
			return -1;
		}
		if (t->next->next && !(b && b->kind == ND_NUM && b->num >= 0 && b->num < 4096)) {
			diag_error(s, b ? &b->loc : &t->next->next->loc, ".compat needs a 32-bit "
				   "system call number: .compat(5)");
			return -1;
		}
		if (b)
			tp->nr32 = arena_printf(&s->arena, "%d", (int)b->num);
	} else if (t->next) {
		diag_error(s, &t->next->loc, "unexpected '%s' after kernel.trace(...)",
			   t->next->name);
		return -1;
	}
	arg = t->arg->str;
	tp->pattern = arg;
	tp->loc = &t->arg->loc;
	colon = strchr(arg, ':');
	tp->sys = colon ? arena_strndup(&s->arena, arg, (size_t)(colon - arg)) : "*";
	tp->name = colon ? colon + 1 : arg;
	if (!*tp->sys || !*tp->name || strchr(tp->name, ':')) {
		diag_error(s, tp->loc, "bad tracepoint '%s': expected NAME or SYSTEM:NAME", arg);
		return -1;
	}
	rp->pp = pf_point_text(s, pt);
	rp->family_data = tp;
	return 1;
}

/* ---- expanding: one probe per tracepoint ---- */

struct tr_walk {
	struct session *s;
	const struct tr_point *tp;
	Dwarf *dbg;
	bool optional;
	struct vec *out;
	int nmatched;
	int refused;			/* matched, but the prototype cannot be probed */
	const char *refused_name, *refused_why;
	struct vec names;		/* every name, for a hint: char * (arena) */
	const char *other_sys;		/* the name exists, in this other system */
};

static int add_tracepoint(const struct dw_tracepoint *dt, void *arg)
{
	struct tr_walk *w = arg;
	struct session *s = w->s;
	struct tr_probe *pr;
	struct resolved_probe *x;
	const char *why;

	vec_push(&w->names, arena_strdup(&s->arena, dt->name));
	if (fnmatch(w->tp->name, dt->name, 0))
		return 0;
	if (fnmatch(w->tp->sys, dt->system, 0)) {
		if (!w->other_sys)
			w->other_sys = arena_strdup(&s->arena, dt->system);
		return 0;
	}
	if (++w->nmatched > TR_MAX_MATCHES)
		return 1;
	pr = arena_alloc(&s->arena, sizeof(*pr));
	pr->name = arena_strdup(&s->arena, dt->name);
	pr->system = arena_strdup(&s->arena, dt->system);
	pr->nr = w->tp->nr;
	pr->nr32 = w->tp->nr32;
	pr->optional = w->optional;
	if (read_args(s, w->dbg, dt, pr, &why) < 0) {
		if (!w->refused++) {
			w->refused_name = pr->name;
			w->refused_why = why;
		}
		return 0;
	}
	x = arena_alloc(&s->arena, sizeof(*x));
	x->pp = arena_printf(&s->arena, "kernel.trace(\"%s:%s\")", pr->system, pr->name);
	x->family_data = pr;
	vec_push(w->out, x);
	return 0;
}

/*
 * The tracepoints an exact name resolved to, kept for the session: the
 * syscall.* aliases name raw_syscalls:sys_enter/sys_exit hundreds of
 * times, and each walk of the kernel's tracepoints costs milliseconds.
 */
struct tr_memo {
	const char *pattern;
	struct tr_probe *pr;	/* one: an exact name matches one tracepoint */
};

static struct tr_probe *memo_find(const struct session *s, const char *pattern)
{
	for (int i = 0; i < s->trace_memo.len; i++) {
		const struct tr_memo *m = s->trace_memo.items[i];

		if (!strcmp(m->pattern, pattern))
			return m->pr;
	}
	return NULL;
}

static int expand_trace_walk(struct session *s, struct resolved_probe *rp, struct vec *out);

static int expand_trace(struct session *s, struct resolved_probe *rp, struct vec *out)
{
	const struct tr_point *tp = rp->family_data;
	struct tr_probe *pr = has_wildcard(tp->pattern) ? NULL : memo_find(s, tp->pattern);
	int n;

	if (pr) {
		struct tr_probe *copy = arena_alloc(&s->arena, sizeof(*copy));
		struct resolved_probe *x = arena_alloc(&s->arena, sizeof(*x));

		*copy = *pr;
		copy->nr = tp->nr;
		copy->nr32 = tp->nr32;
		copy->optional = rp->point->optional;
		x->pp = arena_printf(&s->arena, "kernel.trace(\"%s:%s\")", copy->system,
				     copy->name);
		x->family_data = copy;
		vec_push(out, x);
		return 1;
	}
	n = expand_trace_walk(s, rp, out);
	if (n == 1 && !has_wildcard(tp->pattern)) {
		struct tr_memo *m = arena_alloc(&s->arena, sizeof(*m));

		m->pattern = arena_strdup(&s->arena, tp->pattern);
		m->pr = ((struct resolved_probe *)out->items[out->len - 1])->family_data;
		vec_push(&s->trace_memo, m);
	}
	return n;
}

static int expand_trace_walk(struct session *s, struct resolved_probe *rp, struct vec *out)
{
	const struct tr_point *tp = rp->family_data;
	bool optional = rp->point->optional;
	struct tr_walk w = { .s = s, .tp = tp, .optional = optional, .out = out };
	bool wild = has_wildcard(tp->pattern);
	struct dw_object *k;
	const char *near;
	int n, ret;

	/* '?': a point that cannot be resolved is dropped, as SystemTap does. */
	k = pf_kernel(s, tp->loc, optional);
	if (!k)
		return optional ? 0 : -1;
	w.dbg = dw_dwarf(k);
	n = dw_tracepoints(k, add_tracepoint, &w);
	ret = -1;
	if (w.nmatched > TR_MAX_MATCHES) {
		diag_error(s, tp->loc, "'%s' matches more than %d tracepoints, the most one "
			   "probe point may probe", tp->pattern, TR_MAX_MATCHES);
		goto out;
	}
	if (n < 0) {
		diag_error(s, tp->loc, "cannot list the tracepoints of kernel %s: %s",
			   s->release, n == -ENOENT ? "its vmlinux has no trace events "
			   "this version understands" : strerror(-n));
		goto out;
	}
	if (w.refused && (!wild || !out->len) && !optional) {
		diag_error(s, tp->loc, "cannot probe tracepoint '%s': it %s",
			   w.refused_name, w.refused_why);
		goto out;
	}
	if (w.refused && !optional)
		diag_warn(s, tp->loc, "skipped %d %s matching '%s' that cannot be probed: "
			  "'%s' %s", w.refused, w.refused == 1 ? "tracepoint" : "tracepoints",
			  tp->pattern, w.refused_name, w.refused_why);
	ret = out->len;
	if (out->len || optional)
		goto out;
	ret = -1;
	diag_error(s, tp->loc, "no tracepoint matches '%s'", tp->pattern);
	if (w.other_sys && !has_wildcard(tp->name))
		diag_hint(s, "'%s' is in system '%s': kernel.trace(\"%s:%s\")", tp->name,
			  w.other_sys, w.other_sys, tp->name);
	else if (!has_wildcard(tp->name) &&
		 (near = diag_closest(tp->name, (const char *const *)w.names.items,
				      w.names.len)))
		diag_hint(s, "did you mean '%s'?", near);
	else
		diag_hint(s, "stap -l 'kernel.trace(\"*\")' lists the tracepoints of kernel %s",
			  s->release);
out:
	vec_free(&w.names);	/* the strings are in the arena */
	return ret;
}

/* ---- listing: stap -l / -L ---- */

struct tr_list {
	struct tr_walk w;
	bool with_vars;
	struct vec *lines;
};

static int list_one(const struct dw_tracepoint *dt, void *arg)
{
	struct tr_list *l = arg;
	struct strbuf sb = STRBUF_INIT;
	struct tr_probe pr = { 0 };
	const char *why;

	if (fnmatch(l->w.tp->name, dt->name, 0) || fnmatch(l->w.tp->sys, dt->system, 0))
		return 0;
	/* Only what can be probed, as stap -l promises. */
	if (read_args(l->w.s, l->w.dbg, dt, &pr, &why) < 0)
		return 0;
	sb_printf(&sb, "kernel.trace(\"%s:%s\")", dt->system, dt->name);
	for (int i = 0; l->with_vars && i < pr.nargs; i++) {
		char *t = dw_type_name(&pr.args[i].type);

		sb_printf(&sb, " $%s:%s", pr.args[i].name, t);
		free(t);
	}
	vec_push(l->lines, sb_steal(&sb));
	return 0;
}

int pf_trace_list(struct session *s, const char *pattern, bool with_vars,
		  struct vec *lines)
{
	static const char pre[] = "kernel.trace(\"";
	struct tr_point tp = { 0 };
	struct tr_list l = { .with_vars = with_vars, .lines = lines };
	struct dw_object *k;
	const char *colon;
	size_t len = strlen(pattern);
	char *arg;
	int n;

	if (strncmp(pattern, pre, strlen(pre)))
		return 1;
	if (len < strlen(pre) + 2 || strcmp(pattern + len - 2, "\")")) {
		util_err("cannot list '%s': expected kernel.trace(\"[SYSTEM:]NAME\")", pattern);
		return -1;
	}
	arg = arena_strndup(&s->arena, pattern + strlen(pre), len - strlen(pre) - 2);
	colon = strchr(arg, ':');
	tp.pattern = arg;
	tp.sys = colon ? arena_strndup(&s->arena, arg, (size_t)(colon - arg)) : "*";
	tp.name = colon ? colon + 1 : arg;
	k = pf_kernel(s, NULL, false);
	if (!k)
		return -1;
	l.w.s = s;
	l.w.tp = &tp;
	l.w.dbg = dw_dwarf(k);
	n = dw_tracepoints(k, list_one, &l);
	if (n < 0) {
		util_err("cannot list the tracepoints of kernel %s: %s", s->release,
			 n == -ENOENT ? "its vmlinux has no trace events this version "
			 "understands" : strerror(-n));
		return -1;
	}
	return 0;
}

/* ---- target variables ---- */

static int tv_scope(struct session *s, struct resolved_probe *rp,
		    const struct srcloc *loc, struct tv_scope *out)
{
	const struct tr_probe *pr = rp->family_data;
	struct tv_arg *args;
	struct dw_object *k;

	k = pf_kernel(s, loc, false);
	if (!k)
		return -1;
	out->dbg = dw_dwarf(k);
	if (!out->dbg) {
		diag_error(s, loc, "cannot read the DWARF of kernel %s for the arguments "
			   "of tracepoint '%s'", s->release, pr->name);
		return -1;
	}
	/* @var and @cast in the handler read the kernel's globals and types. */
	tv_object_scope(k, out);
	out->has_fn = false;
	args = arena_alloc(&s->arena, (size_t)(pr->nargs ? pr->nargs : 1) * sizeof(*args));
	for (int i = 0; i < pr->nargs; i++)
		args[i] = (struct tv_arg){ pr->args[i].name, pr->args[i].type,
					   pr->args[i].cexpr };
	out->args = args;
	out->nargs = pr->nargs;
	out->tp_name = pr->name;
	out->tp_system = pr->system;
	return 0;
}

/* ---- emitting ---- */

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	bool arity[TR_MAX_ARGS + 1] = { false };
	int i, j;

	(void)s;
	for (i = 0; i < probes->len; i++)
		arity[((struct tr_probe *)((struct resolved_probe *)
					   probes->items[i])->family_data)->nargs] = true;
	sb_puts(c, "/*\n * kernel.trace probes: runtime/tracepoint.c registers them.  The kernel\n"
		" * calls fn(data, args...); on x86-64 every integer or pointer argument\n"
		" * takes one register or stack slot, so N unsigned longs receive N of them.\n"
		" */\n");
	for (i = 0; i <= TR_MAX_ARGS; i++) {
		if (!arity[i])
			continue;
		sb_printf(c, "static void stp_tp_fn%d(void *data", i);
		for (j = 0; j < i; j++)
			sb_printf(c, ", unsigned long a%d", j);
		sb_puts(c, ")\n{\n");
		if (i) {
			sb_printf(c, "\tconst unsigned long args[%d] = {", i);
			for (j = 0; j < i; j++)
				sb_printf(c, "%s a%d", j ? "," : "", j);
			sb_puts(c, " };\n\n\t_stp_tracepoint_hit(data, args);\n}\n\n");
		} else {
			sb_puts(c, "\t_stp_tracepoint_hit(data, NULL);\n}\n\n");
		}
	}
	sb_puts(c, "#include <asm/unistd.h>\n\nstatic struct stp_tracepoint stp_tracepoints[] = {\n");
	for (i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct tr_probe *pr = rp->family_data;

		/* Tracepoint names are C identifiers: safe in a string literal. */
		sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", .name = \"%s\", "
			  ".fn = (void *)stp_tp_fn%d, .flags = %s, .nr = ", rp->id, pr->name,
			  pr->nargs, pr->optional ? "STP_TRACEPOINT_OPTIONAL" : "0");
		/* The kernel headers number the call (asm/unistd.h). */
		if (pr->nr)
			sb_printf(c, "%s, .nr32 = %s },\n", pr->nr, pr->nr32 ? pr->nr32 : "-2");
		else
			sb_puts(c, "-1, .nr32 = -1 },\n");
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	sb_puts(c, "\t{\n\t\tint rc = _stp_tracepoints_start(stp_tracepoints, "
		"ARRAY_SIZE(stp_tracepoints));\n\n\t\tif (rc)\n\t\t\treturn rc;\n\t}\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	sb_puts(c, "\t_stp_tracepoints_stop(stp_tracepoints, ARRAY_SIZE(stp_tracepoints));\n");
}

const struct probe_family pf_trace = {
	.name = "kernel.trace",
	.forms = (const char *const[]){ "kernel.trace(S)", NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_trace,
	.expand = expand_trace,
	.tv_scope = tv_scope,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
