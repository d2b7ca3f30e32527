// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procfs probes (stapprobes(3stap), PROCFS): files under
 * /proc/systemtap/MODULE/ that run a probe when read or written.
 *
 *   procfs("NAME").read[.maxsize(N)]   reading the file runs the probe;
 *                                      what it leaves in $value is read
 *   procfs("NAME").write               writing it runs the probe, with
 *                                      the bytes written in $value
 *   procfs.read, procfs.write          NAME is "command"
 *   procfs("NAME").umask(M).read|write permissions from umask M
 *
 * $value is not a DWARF variable: in these probes' bodies "$value" reads
 * become __procfs_value(), "$value = e" __procfs_set(e) and "$value .= e"
 * __procfs_append(e) (tapsets/procfs.stp), so a read handler can build
 * up to maxsize bytes (default 4096), past MAXSTRINGLEN.
 *
 * The runtime half is runtime/procfs.c: one table, stp_procfs_files[],
 * one row per probe, grouped by NAME into files at session start.
 */
#include <inttypes.h>
#include <string.h>

#include "probes.h"

extern const struct probe_family pf_procfs;

#define PROCFS_DEFAULT_MAXSIZE	4096
#define PROCFS_MAX_MAXSIZE	(1 << 20)

struct procfs_point {
	const char *name;
	bool write;
	int64_t maxsize;
	int64_t umask;		/* -1: the default */
};

static int procfs_num(struct session *s, const struct pp_comp *c, int64_t lo, int64_t hi,
		      int64_t *out)
{
	if (!c->arg || c->arg->kind != ND_NUM || c->arg->num < lo || c->arg->num > hi) {
		diag_error(s, c->arg ? &c->arg->loc : &c->loc,
			   "procfs .%s takes a number from %" PRId64 " to %" PRId64, c->name,
			   lo, hi);
		return -1;
	}
	*out = c->arg->num;
	return 0;
}

static int resolve_procfs(struct session *s, struct probe_point *pt,
			  struct resolved_probe *rp)
{
	struct pp_comp *c = pt->comps;
	struct procfs_point *pp;

	if (strcmp(c->name, "procfs"))
		return 0;
	pp = arena_alloc(&s->arena, sizeof(*pp));
	pp->name = "command";
	pp->umask = -1;
	pp->maxsize = -1;
	if (c->arg) {
		const char *n = c->arg->kind == ND_STR ? c->arg->str : NULL;

		if (!n || !*n || (int)strlen(n) != c->arg->str_len || strchr(n, '/') ||
		    !strcmp(n, ".") || !strcmp(n, "..")) {
			diag_error(s, &c->arg->loc, "procfs needs a quoted file name without "
				   "'/': procfs(\"NAME\")");
			return -1;
		}
		pp->name = n;
	}
	c = c->next;
	if (c && !strcmp(c->name, "umask")) {
		if (procfs_num(s, c, 0, 0777, &pp->umask) < 0)
			return -1;
		c = c->next;
	}
	if (!c || (strcmp(c->name, "read") && strcmp(c->name, "write")) || c->arg) {
		diag_error(s, c ? &c->loc : &pt->comps->loc,
			   "procfs probes are procfs(\"NAME\").read or .write");
		return -1;
	}
	pp->write = !strcmp(c->name, "write");
	c = c->next;
	if (c && !pp->write && !strcmp(c->name, "maxsize")) {
		if (procfs_num(s, c, 1, PROCFS_MAX_MAXSIZE, &pp->maxsize) < 0)
			return -1;
		c = c->next;
	}
	if (c) {
		diag_error(s, &c->loc, "unexpected '%s' after the procfs probe point", c->name);
		return -1;
	}
	/* One file has one reader: two would each set its contents. */
	for (int i = 0; !pp->write && i < s->probes.len; i++) {
		const struct resolved_probe *o = s->probes.items[i];
		const struct procfs_point *op = o->family_data;

		if (o->family == &pf_procfs && !op->write && !strcmp(op->name, pp->name)) {
			diag_error(s, &pt->loc, "only one read procfs probe can exist for "
				   "procfs path \"%s\"", pp->name);
			diag_hint(s, "the other is %s at %s:%d", o->pp, o->point->loc.file->name,
				  o->point->loc.line);
			return -1;
		}
	}
	rp->pp = pf_point_text(s, pt);
	rp->family_data = pp;
	return 1;
}

/* ---- $value ---- */

static bool is_value(const struct node *n)
{
	return n && n->kind == ND_TARGET && n->str && !strcmp(n->str, "value") && !n->members;
}

/* $value, $value = e and $value .= e become the tapset's calls. */
static bool rewrite_value(struct session *s, struct node **np, void *arg)
{
	struct node *n = *np;

	if (n->kind == ND_ASSIGN && is_value(n->lhs) &&
	    (n->op == OP_NONE || n->op == OP_CONCAT)) {
		struct node *v = n->rhs;

		pf_rewrite_walk(s, &v, rewrite_value, NULL);
		v->next = NULL;
		*np = pf_call_node(s, n, n->op == OP_NONE ? "__procfs_set" : "__procfs_append", v);
		return true;
	}
	if (is_value(n)) {
		*np = pf_call_node(s, n, "__procfs_value", NULL);
		return true;
	}
	return false;
}

static struct node *rewrite_body(struct session *s, struct resolved_probe *rp,
				 struct node *body)
{
	(void)rp;
	pf_rewrite_walk(s, &body, rewrite_value, NULL);
	return body;
}

/* ---- emitting ---- */

static void emit_decls(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	sb_puts(c, "/* procfs probes: runtime/procfs.c makes the files. */\n"
		"static struct stp_procfs stp_procfs_files[] = {\n");
	for (int i = 0; i < probes->len; i++) {
		struct resolved_probe *rp = probes->items[i];
		struct procfs_point *pp = rp->family_data;

		/* Names have no '"' or '\\' problems: C-escape them anyway. */
		sb_printf(c, "\t{ .probe = &" PF_DESC_FMT ", .name = \"", rp->id);
		for (const char *p = pp->name; *p; p++)
			sb_printf(c, *p == '"' || *p == '\\' ? "\\%c" :
				  (unsigned char)*p < 32 ? "\\%03o" : "%c", *p);
		sb_printf(c, "\", .write = %d, .maxsize = %" PRId64 ", .umask = %" PRId64 " },\n",
			  pp->write, pp->maxsize > 0 ? pp->maxsize : PROCFS_DEFAULT_MAXSIZE,
			  pp->umask);
	}
	sb_puts(c, "};\n\n");
}

static void emit_start(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t{\n\t\tint rc = _stp_procfs_start(stp_procfs_files, "
		"ARRAY_SIZE(stp_procfs_files));\n\n\t\tif (rc)\n\t\t\treturn rc;\n\t}\n");
}

static void emit_stop(struct session *s, struct strbuf *c, struct vec *probes)
{
	(void)s;
	(void)probes;
	sb_puts(c, "\t_stp_procfs_stop(stp_procfs_files, ARRAY_SIZE(stp_procfs_files));\n");
}

const struct probe_family pf_procfs = {
	.name = "procfs",
	.forms = (const char *const[]){
		"procfs[(S)][.umask(N)].{read[.maxsize(N)]|write}",
		NULL },
	.state = "STP_SESSION_RUNNING",
	.resolve = resolve_procfs,
	.rewrite_body = rewrite_body,
	.emit_decls = emit_decls,
	.emit_start = emit_start,
	.emit_stop = emit_stop,
};
