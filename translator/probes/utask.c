// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Process and thread events (stapprobes(3stap), USER-SPACE section):
 *
 *   process[("PATH"|PID)].begin          .end
 *   process[("PATH"|PID)].thread.begin   .thread.end
 *   process[("PATH"|PID)].syscall        .syscall.return
 *
 * Without PATH or PID every user process is probed, or with -c/-x only
 * the target and its descendants.  .syscall has $syscall and $arg1..6,
 * .syscall.return $syscall and $return.  runtime/utask.c runs them in
 * the context of the task concerned.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probes.h"

static const char *const ut_kinds[] = {
	"STP_UTASK_BEGIN", "STP_UTASK_END", "STP_UTASK_THREAD_BEGIN", "STP_UTASK_THREAD_END",
	"STP_UTASK_SYSCALL", "STP_UTASK_SYSCALL_RETURN",
};
enum { UT_BEGIN, UT_END, UT_THREAD_BEGIN, UT_THREAD_END, UT_SYSCALL, UT_SYSCALL_RETURN };

struct ut_point {
	int kind;
	const char *path;	/* NULL: any program */
	int64_t pid;		/* 0: any */
	bool target;		/* restricted to the -c/-x target's tree */
};

static int resolve_utask(struct session *s, struct probe_point *pt, struct resolved_probe *rp)
{
	struct pp_comp *p = pt->comps, *k = p->next;
	struct ut_point *up;

	if (strcmp(p->name, "process") || !k)
		return 0;
	if (strcmp(k->name, "begin") && strcmp(k->name, "end") && strcmp(k->name, "thread") &&
	    strcmp(k->name, "syscall"))
		return 0;
	up = arena_alloc(&s->arena, sizeof(*up));
	if (!strcmp(k->name, "thread")) {
		struct pp_comp *t = k->next;

		if (!t || (strcmp(t->name, "begin") && strcmp(t->name, "end"))) {
			if (t)
				return pf_unexpected(s, t, "process.thread", NULL, 0);
			diag_error(s, &k->loc, "process.thread needs .begin or .end");
			return -1;
		}
		up->kind = t->name[0] == 'b' ? UT_THREAD_BEGIN : UT_THREAD_END;
		k = t;
	} else if (!strcmp(k->name, "syscall")) {
		up->kind = UT_SYSCALL;
		if (k->next && !strcmp(k->next->name, "return")) {
			up->kind = UT_SYSCALL_RETURN;
			k = k->next;
		}
	} else {
		up->kind = k->name[0] == 'b' ? UT_BEGIN : UT_END;
	}
	if (k->next)
		return pf_unexpected(s, k->next, pf_point_text(s, pt), NULL, 0);
	if (k->arg) {
		diag_error(s, &k->arg->loc, ".%s takes no argument", k->name);
		return -1;
	}
	if (!p->arg) {
		up->target = s->target_cmd || s->target_pid;
	} else if (p->arg->kind == ND_NUM) {
		char *path = pf_pid_program(s, p->arg);	/* only checked: the pid filters */

		if (!path)
			return -1;
		free(path);
		up->pid = p->arg->num;
	} else if (p->arg->kind == ND_STR && p->arg->str_len) {
		char *path = pf_user_path(p->arg->str);

		if (!path) {
			diag_error(s, &p->arg->loc, "cannot find '%s'%s", p->arg->str,
				   strchr(p->arg->str, '/') ? "" : " in $PATH");
			return -1;
		}
		up->path = arena_strdup(&s->arena, path);
		vec_push(&s->user_files, (void *)up->path);
		free(path);
	} else {
		diag_error(s, &p->arg->loc, "process needs a quoted path or a process id");
		return -1;
	}
	rp->pp = pf_point_text(s, pt);
	rp->family_data = up;
	return 1;
}

/* ---- $syscall, $argN, $return ---- */

static int value_index(const struct ut_point *up, const char *name)
{
	if (!strcmp(name, "syscall"))
		return 0;
	if (up->kind == UT_SYSCALL && !strncmp(name, "arg", 3) && name[3] >= '1' &&
	    name[3] <= '6' && !name[4])
		return name[3] - '0';
	if (up->kind == UT_SYSCALL_RETURN && !strcmp(name, "return"))
		return 1;
	return -1;
}

/* $syscall, $argN, $return (a pf_rewrite_fn; arg is the point). */
static bool rewrite_value(struct session *s, struct node **np, void *arg)
{
	const struct ut_point *up = arg;
	struct node *n = *np, *num;
	int i;

	if (n->kind != ND_TARGET || !n->str || n->members)
		return false;
	i = value_index(up, n->str);
	if (i < 0) {
		diag_error(s, &n->loc, "no target variable '$%s' in a %s probe", n->str,
			   up->kind == UT_SYSCALL ? "process.syscall" : "process.syscall.return");
		diag_hint(s, up->kind == UT_SYSCALL ? "it has $syscall and $arg1..$arg6"
			  : "it has $syscall and $return");
		return true;
	}
	num = arena_alloc(&s->arena, sizeof(*num));
	num->kind = ND_NUM;
	num->loc = n->loc;
	num->num = i;
	*np = pf_call_node(s, n, "__utask_arg", num);
	return true;
}

static struct node *rewrite_body(struct session *s, struct resolved_probe *rp,
				 struct node *body)
{
	const struct ut_point *up = rp->family_data;

	if (up->kind == UT_SYSCALL || up->kind == UT_SYSCALL_RETURN)
		pf_rewrite_walk(s, &body, rewrite_value, (void *)up);
	return body;
}

/* ---- emitting ---- */

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	sb_puts(c, "/* process.begin/.end/...: runtime/utask.c runs them. */\n"
		"static struct stp_utask stp_utasks[] = {\n");
	for (int i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		const struct ut_point *up = rp->family_data;

		sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", .kind = %s, .flags = %s, .pid = %" PRId64,
			  rp->id, ut_kinds[up->kind], up->target ? "STP_UTASK_TARGET" : "0",
			  up->pid);
		if (up->path) {
			sb_puts(c, ", .path = \"");
			for (const char *q = up->path; *q; q++)
				sb_printf(c, *q == '"' || *q == '\\' ? "\\%c" :
					  (unsigned char)*q < 32 ? "\\%03o" : "%c", *q);
			sb_puts(c, "\"");
		}
		sb_puts(c, " },\n");
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t{\n\t\tint rc = _stp_utasks_start(stp_utasks, ARRAY_SIZE(stp_utasks));\n\n"
		"\t\tif (rc)\n\t\t\treturn rc;\n\t}\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t_stp_utasks_stop(stp_utasks, ARRAY_SIZE(stp_utasks));\n");
}

const struct probe_family pf_utask = {
	.name = "process",
	.forms = (const char *const[]){
		"process[(S|N)].{begin|end|thread.begin|thread.end|syscall[.return]}",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_utask,
	.rewrite_body = rewrite_body,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
